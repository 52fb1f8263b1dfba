// A seat at a table: its own observation over a WebSocket, its legal moves as buttons.
"use strict";
(function () {
  const tableId = location.pathname.split("/").filter(Boolean).pop();
  const token = location.hash.slice(1);
  const $ = (id) => document.getElementById(id);
  let socket = null;
  let view = null;
  let chosen = [];        // indexes into the hand as drawn (sorted)
  let order = "rank";       // as `rummylib play` shows a hand first ("777")
  let retry = 500;
  let clockTimer = null;

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function tiles() { return Boolean(view && view.notation === "tile"); }

  function cardImage(notation) {
    // a joker on the table ('*=o7') is drawn with the card it stands for
    const kind = tiles() ? "tile" : "card";
    return el("img", { src: `../${kind}/${encodeURIComponent(notation)}.svg`, alt: notation, title: notation });
  }

  const RANKS = "A23456789TJQK";
  // Cards: rank letter then suit; tiles (Rummikub): colour letter then number (k7, b13).
  function rankOf(card) {
    if (card === "*") return 99;
    return tiles() ? Number(card.slice(1)) : RANKS.indexOf(card[0]);
  }
  // the library's suit order (clubs, diamonds, hearts, spades), which carries the colours
  // orange, blue, red, black: the orders of `rummylib play`'s "777" and "789"
  function suitOf(card) { return card === "*" ? 9 : (tiles() ? "obrk".indexOf(card[0]) : "cdhs".indexOf(card[1])); }
  function sortedHand(hand) {
    const cards = hand.slice();
    if (order === "suit") cards.sort((a, b) => suitOf(a) - suitOf(b) || rankOf(a) - rankOf(b));
    if (order === "rank") cards.sort((a, b) => rankOf(a) - rankOf(b) || suitOf(a) - suitOf(b));
    return cards;
  }

  function setStatus(text, offline) {
    $("status").textContent = text;
    $("status").classList.toggle("offline", Boolean(offline));
  }

  function connect() {
    const url = new URL(`../ws/${encodeURIComponent(tableId)}`, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(url);
    socket.onopen = () => { retry = 500; socket.send(JSON.stringify({ type: "join", token })); };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      setStatus("offline: reconnecting…", true);
      if (event.code === 4403 || event.code === 4404 || event.code === 4409) { setStatus("closed: " + (event.reason || event.code), true); return; }
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  function receive(message) {
    if (message.type === "error") { $("error").textContent = message.message; return; }
    if (message.type === "joined") { setStatus(`you are p${message.seat + 1}`); return; }
    if (message.type !== "state") return;
    if (!view || view.observation.hand.join() !== message.observation.hand.join()) chosen = [];
    view = message;
    $("error").textContent = "";
    draw();
    // for tests and screen readers' scripts: where the table stands
    document.body.dataset.seq = String(view.seq);
    document.body.dataset.acting = String(view.moves.length > 0);
    document.body.dataset.over = String(view.over);
  }

  function send(move) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { $("error").textContent = "not connected"; return; }
    socket.send(JSON.stringify({ type: "move", move, seq: view ? view.seq : undefined }));
  }

  function draw() {
    const seen = view.observation;
    document.title = `${view.title}: p${view.seat + 1}`;
    $("title").textContent = view.title;
    const acting = seen.to_act.includes(view.seat);
    $("info").replaceChildren(el("span", {}, `deal ${seen.deal_number} · ${seen.phase.replace(/_/g, " ")} · ` +
      (view.over ? "the match is over" : acting ? (view.choices ? `your move: ${view.choices}` : "your move") : `waiting for ${seen.to_act.map((p) => view.names[p]).join(", ")}`)),
      el("span", { id: "clock" }));
    // the variant's own facts (an Indian wild card, the Israeli pot) and the phase's words
    const facts = [...(view.phase_words ? [view.phase_words] : []), ...view.facts];
    if (facts.length) $("info").append(el("div", { id: "facts", class: "facts" }, facts.join(" · ")));
    drawClock();
    const players = $("players");
    players.replaceChildren();
    view.names.forEach((name, seat) => {
      const box = el("div", { class: "player" + (seen.to_act.includes(seat) ? " acting" : "") + (seat === view.seat ? " me" : "") });
      // a seat whose name is its own label ("p2", the default) is not named twice
      const label = !name || name === `p${seat + 1}` ? `p${seat + 1}` : `p${seat + 1} ${name}`;
      box.append(el("strong", {}, `${label}${seat === view.seat ? " (you)" : ""}`), el("br"));
      box.append(el("span", {}, `${seen.hand_sizes[seat]} ${view.words.card}s · score ${seen.scores[seat]}` + (view.kinds[seat] === "bot" ? " · bot" : "")));
      if (!view.online[seat]) box.append(el("span", { class: "away" }, " · away (auto-play)"));
      players.append(box);
    });
    const piles = $("piles");
    piles.replaceChildren();
    const stock = el("div", { class: "pile" });
    stock.append(el("div", { class: "back", "aria-label": view.words.stock }), el("span", {}, `${view.words.stock} ${seen.stock_size}`));
    piles.append(stock);
    if (view.discards) {  // Carousel and Rummikub have no discard pile
      const pile = el("div", { class: "pile" });
      const top = seen.discard_pile[seen.discard_pile.length - 1];
      pile.append(top ? cardImage(top) : el("div", { class: "back", style: "opacity:0.3" }), el("span", {}, `discards ${seen.discard_pile.length}`));
      piles.append(pile);
    }
    for (const card of seen.aside) {
      const open = el("div", { class: "pile" });
      open.append(cardImage(card), el("span", {}, seen.aside_label));
      piles.append(open);
    }
    const melds = $("melds");
    melds.replaceChildren();
    for (const meld of seen.table) {
      const box = el("div", { class: "meld", title: meld });
      for (const card of meld.split(" ")) box.append(cardImage(card));
      melds.append(box);
    }
    const words = view.words;
    $("hand-title").textContent = `Your ${words.hand} `;
    $("sort-suit").textContent = `by ${words.suit}`;
    $("sort-rank").textContent = `by ${words.rank}`;
    $("sort-suit").setAttribute("aria-pressed", String(order === "suit"));
    $("sort-rank").setAttribute("aria-pressed", String(order === "rank"));
    // the shortest listed move, so that the example fits the box
    const texts = view.moves.map((move) => move.text);
    const example = texts.length ? texts.reduce((a, b) => (b.length < a.length ? b : a)) : "";
    $("move-text").placeholder = example ? `or type a move, e.g. ${example}` : "or type a move";
    drawHand();
    drawMoves();
    const recent = $("recent");
    recent.replaceChildren(...view.recent.slice().reverse().map((line) => el("li", {}, line)));
    const result = $("result");
    result.replaceChildren();
    if (view.deals.length) {
      result.append(el("h2", {}, "Deals"));
      result.append(el("pre", {}, view.deals.map((deal) => deal.text).join("\n")));
    }
    if (view.over && view.result) {
      result.append(el("h2", {}, "Match over"));
      const winners = view.result.winners.map((p) => view.names[p]).join(", ") || "nobody";
      result.append(el("p", {}, `won by ${winners}; scores ${view.result.scores.join(", ")}`));
      if (view.result.lines.length) result.append(el("pre", {}, view.result.lines.join("\n")));
      const link = el("a", { href: `../api/tables/${tableId}/record`, download: `${tableId}.toml`, id: "download" }, "download the record (open it with rummylib replay)");
      result.append(link);
    }
  }

  function drawClock() {
    if (clockTimer) clearInterval(clockTimer);
    const node = document.getElementById("clock");
    if (!node || !view.clock) return;
    const end = Date.now() + view.clock.seconds_left * 1000;
    const tick = () => { node.textContent = ` · clock ${Math.max(0, Math.round((end - Date.now()) / 1000))} s`; };
    tick();
    clockTimer = setInterval(tick, 1000);
  }

  function chosenCards() {
    const cards = sortedHand(view.observation.hand);
    return chosen.map((index) => cards[index]);
  }

  function fits(move) {
    const need = chosenCards();
    const have = move.cards.slice();
    for (const card of need) {
      const at = have.indexOf(card);
      if (at < 0) return false;
      have.splice(at, 1);
    }
    return true;
  }

  function drawHand() {
    const hand = $("hand");
    hand.replaceChildren();
    sortedHand(view.observation.hand).forEach((card, index) => {
      const button = el("button", { type: "button", class: "card" + (chosen.includes(index) ? " chosen" : ""), "data-card": card, "aria-pressed": String(chosen.includes(index)) });
      button.append(cardImage(card));
      if ((view.wild || []).includes(card)) {
        // the deal's wild rank (Indian rummy): said on the card, not left to the facts line
        button.classList.add("wild");
        button.setAttribute("aria-label", `${card}, wild`);
        button.append(el("span", { class: "wild-mark" }, "wild"));
      }
      button.addEventListener("click", () => {
        chosen = chosen.includes(index) ? chosen.filter((i) => i !== index) : [...chosen, index];
        drawHand();
        drawMoves();
      });
      hand.append(button);
    });
  }

  function drawMoves() {
    const box = $("moves");
    box.replaceChildren();
    const moves = view.moves.filter(fits);
    for (const move of moves) {
      const button = el("button", { type: "button", "data-kind": move.kind, "data-move": move.text }, move.text);
      button.addEventListener("click", () => send(move.text));
      box.append(button);
    }
    if (!view.moves.length) box.append(el("span", {}, view.over ? "the match is over" : "no move of yours now"));
    else if (!moves.length) box.append(el("span", {}, `no legal move uses the chosen ${view.words.card}s`));
    if (view.more_moves) box.append(el("span", {}, ` (and ${view.more_moves} more: choose ${view.words.card}s, or type one)`));
  }

  $("sort-suit").addEventListener("click", () => { order = "suit"; chosen = []; if (view) draw(); });
  $("sort-rank").addEventListener("click", () => { order = "rank"; chosen = []; if (view) draw(); });
  $("clear").addEventListener("click", () => { chosen = []; if (view) draw(); });
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-text").value.trim();
    if (text) send(text);
    $("move-text").value = "";
  });
  if (!token) setStatus("this link has no seat: open the link the lobby gave", true);
  else connect();
})();
