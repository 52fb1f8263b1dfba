// The lobby: open a table of any registered variant, with its settings and seats.
"use strict";
(function () {
  const variantSelect = document.getElementById("variant");
  const playersInput = document.getElementById("players");
  const seatsBox = document.getElementById("seats");
  const settingsBox = document.getElementById("settings");
  const errorBox = document.getElementById("lobby-error");
  let variants = [];
  let bots = [];

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function current() {
    return variants.find((v) => v.name === variantSelect.value);
  }

  function drawSeats() {
    const count = Number(playersInput.value);
    seatsBox.querySelectorAll(".seat").forEach((node) => node.remove());
    for (let seat = 0; seat < count; seat++) {
      const row = el("div", { class: "seat" });
      row.append(el("span", {}, `p${seat + 1} `));
      const kind = el("select", { name: `kind-${seat}`, "aria-label": `seat ${seat + 1}` });
      kind.append(el("option", { value: "person" }, "person"));
      for (const bot of bots) kind.append(el("option", { value: `bot:${bot}` }, `${bot} bot`));
      if (seat > 0 && count > 2) kind.value = `bot:${bots[0]}`;
      const name = el("input", { name: `name-${seat}`, placeholder: `p${seat + 1}`, maxlength: "40" });
      row.append(kind, " ", name);
      seatsBox.append(row);
    }
  }

  function drawSettings() {
    const variant = current();
    settingsBox.replaceChildren();
    if (!variant) return;
    playersInput.min = variant.min_players;
    playersInput.max = variant.max_players;
    playersInput.value = Math.min(Math.max(Number(playersInput.value), variant.min_players), variant.max_players);
    const values = variant.values || {};
    for (const [key, value] of Object.entries(variant.settings)) {
      const label = el("label", {}, `${key} `);
      const input = el("input", { "data-setting": key, value: JSON.stringify(value) });
      label.append(input);
      // what else the setting may be, as `rummylib variants NAME` says it ("0 to 50", "free")
      if (values[key]) label.append(el("span", { class: "values" }, ` other values: ${values[key]}`));
      settingsBox.append(label);
    }
    drawSeats();
  }

  async function listTables() {
    const answer = await fetch("api/tables");
    const data = await answer.json();
    const list = document.getElementById("tables");
    list.replaceChildren();
    for (const table of data.tables) {
      list.append(el("li", {}, `${table.variant}: ${table.names.join(", ")} (${table.moves} moves, ${table.online.length} online)`));
    }
    if (!data.tables.length) list.append(el("li", {}, "none yet"));
  }

  document.getElementById("new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.textContent = "";
    const variant = current();
    const settings = {};
    for (const input of settingsBox.querySelectorAll("input")) {
      let value;
      // JSON (10, null, true, [1, 2], "free"), else the text as it is: a bare word for a
      // choice (free), as the hint beside the box writes it; the server says what is wrong
      // with anything else, naming the setting and what it may be
      const text = input.value.trim();
      try { value = JSON.parse(text); } catch (e) { value = text; }
      if (JSON.stringify(value) !== JSON.stringify(variant.settings[input.dataset.setting])) settings[input.dataset.setting] = value;
    }
    const seats = [];
    seatsBox.querySelectorAll(".seat").forEach((row, seat) => {
      const kind = row.querySelector("select").value;
      const name = row.querySelector("input").value.trim() || `p${seat + 1}`;
      seats.push(kind.startsWith("bot:") ? { kind: "bot", bot: kind.slice(4), name } : { kind: "person", name });
    });
    const answer = await fetch("api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant: variant.name, settings, seats }),
    });
    const data = await answer.json();
    if (!answer.ok) { errorBox.textContent = data.error; return; }
    const box = document.getElementById("links");
    box.replaceChildren(el("h3", {}, "The seats' links: each is its seat's secret, share each with its player only"));
    const list = el("ul");
    for (const link of data.links) {
      const item = el("li");
      const url = new URL(link.link.slice(1), document.baseURI).href;
      const a = el("a", { href: url, target: "_blank", class: "seat-link", "data-seat": link.seat }, `${link.name}: ${url}`);
      item.append(a);
      list.append(item);
    }
    box.append(list);
    listTables();
  });

  variantSelect.addEventListener("change", drawSettings);
  playersInput.addEventListener("change", drawSeats);

  fetch("api/variants").then((answer) => answer.json()).then((data) => {
    variants = data.variants;
    bots = data.bots;
    for (const variant of variants) variantSelect.append(el("option", { value: variant.name }, `${variant.title} (${variant.name})`));
    variantSelect.value = variants.some((v) => v.name === "gin") ? "gin" : variants[0].name;
    drawSettings();
    listTables();
  });
})();
