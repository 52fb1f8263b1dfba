"""The web table (rummylib.web): its protocol, its security, its records and their restore.

Starlette's TestClient drives the app in-process (HTTP and WebSockets); the host loop's time
is passed in by the tests (``Table.advance(now)``) where a clock matters.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the web-test extra)")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummylib import new_game, svg
from rummylib.actions import Disconnect, DrawStock, Reconnect, TimeExpired
from rummylib.bots import RandomBot
from rummylib.cards import Rank
from rummylib.records import dumps, loads
from rummylib.tiles import format_tile
from rummylib.web import Journal, Lobby, WebError, create_app
from rummylib.web._app import MAX_MESSAGE

Message = dict[str, Any]
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][cdhs])(?![A-Za-z0-9])")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path, seed=1, reconnect_grace=0)) as client:
        yield client


def open_table(client: TestClient, variant: str = "gin", **body: Any) -> tuple[str, list[str]]:
    seats = body.pop("seats", [{"kind": "person", "name": "Ann"}, {"kind": "person"}])
    answer = client.post("/api/tables", json={"variant": variant, "seats": seats, **body})
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["table"], [link["link"].split("#", 1)[1] for link in data["links"]]


#: How long a test waits for the server's next message before it fails (never forever).
RECEIVE_SECONDS = 20.0


def receive(socket: Any) -> Any:
    """The socket's next JSON message; the test fails, naming the wait, after RECEIVE_SECONDS.

    Starlette's test socket waits without a limit, so a message the server never sends would
    hang the whole run: the wait runs in a daemon thread that the test stops waiting for.
    """
    box: list[tuple[bool, Any]] = []

    def wait() -> None:
        try:
            box.append((True, socket.receive_json()))
        except BaseException as error:  # handed to the test's thread
            box.append((False, error))

    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    waiter.join(RECEIVE_SECONDS)
    if not box:
        pytest.fail(f"no message from the server within {RECEIVE_SECONDS:.0f} s")
    ok, value = box[0]
    if not ok:
        raise value
    return value


def join(socket: Any, token: str) -> Message:
    socket.send_json({"type": "join", "token": token})
    joined = receive(socket)
    assert joined["type"] == "joined", joined
    state: Message = receive(socket)
    assert state["type"] == "state"
    return state


def server_state(client: TestClient, table_id: str) -> Any:
    app: Any = client.app
    return app.state.server.lobby.get(table_id).state


# -- the record written as the table goes ------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "players"), [("gin", 2), ("rummy101", 3), ("carousel", 2), ("rummikub", 3)]
)
def test_journal_text_is_the_record_writer_text_at_every_step(
    tmp_path: Path, variant: str, players: int
) -> None:
    state = new_game(variant, players=players, seed=4)
    names = [f"n{seat}" for seat in range(players)]
    journal = Journal(state, tmp_path / "r.toml", names=names, metadata={"table": "t"})
    bot = RandomBot(seed=2)
    for step in range(150):
        if state.is_over:
            break
        if step == 5 and Disconnect in type(state.variant).host_events:
            state = journal.add(Disconnect(player=1))
        elif step == 9 and Reconnect in type(state.variant).host_events:
            state = journal.add(Reconnect(player=1))
        else:
            state = journal.add(bot.choose(state.observation(state.to_act[0])))
        assert journal.text() == dumps(state, names=names, metadata={"table": "t"})
    journal.write()
    assert loads((tmp_path / "r.toml").read_text()).final_state == state


def test_journal_refuses_a_match_with_history(tmp_path: Path) -> None:
    state = new_game("gin", players=2, seed=1)
    state = state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="no history"):
        Journal(state, tmp_path / "r.toml", names=["a", "b"], metadata={})


# -- the lobby ---------------------------------------------------------------------------------


def test_variants_lists_every_registered_variant_with_its_settings(client: TestClient) -> None:
    data = client.get("/api/variants").json()
    names = {variant["name"] for variant in data["variants"]}
    assert {"gin", "rummy101", "carousel", "indian_points"} <= names
    gin = next(variant for variant in data["variants"] if variant["name"] == "gin")
    assert gin["settings"]["knock_card"] == 10
    assert (gin["min_players"], gin["max_players"]) == (2, 2)
    assert "greedy" in data["bots"]
    # what else each setting may be, in the words of `rummylib variants NAME`
    rummikub = next(variant for variant in data["variants"] if variant["name"] == "rummikub")
    assert rummikub["values"] == {
        "initial_meld": "0 to 1000000",
        "joker_rule": "free",
        "target_score": "1 to 1000000, null",
        "timeout_draws": "0 to 14",
    }
    assert gin["values"]["oklahoma"] == "true"


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"variant": "nope", "seats": [{"kind": "person"}] * 2}, "unknown variant"),
        ({"variant": "gin", "seats": [{"kind": "person"}] * 3}, "gin is for 2 players, not 3"),
        ({"variant": "gin", "seats": [{"kind": "bot"}] * 2}, "at least one person"),
        ({"variant": "gin", "seats": [{"kind": "person"}, {"kind": "ghost"}]}, "kind is"),
        ({"variant": "gin", "seats": [{"kind": "person", "name": "x" * 99}] * 2}, "name"),
        ({"variant": "gin", "seats": [{"kind": "person"}, {"kind": "bot", "bot": "x"}]}, "bot"),
        ({"variant": "gin", "seats": "two"}, "list of 1 to 16"),
        ({"variant": "gin", "seats": [{}, {}], "settings": {"knock_card": 99}}, "knock_card"),
        ({"variant": "gin", "seats": [{}, {}], "settings": {"no_such": 1}}, "no_such"),
        ({"variant": "gin", "seats": [{}, {}], "settings": [1]}, "settings"),
    ],
)
def test_a_bad_table_request_is_answered_with_its_reason(
    client: TestClient, body: dict[str, Any], says: str
) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400
    assert says in answer.json()["error"]


def test_a_request_that_is_not_json_or_too_big_is_refused(client: TestClient) -> None:
    assert client.post("/api/tables", content=b"{nope").status_code == 400
    assert client.post("/api/tables", content=b"[1, 2]").status_code == 400
    assert client.post("/api/tables", content=b" " * 20000).status_code == 413


def test_a_table_with_settings_and_a_bot_is_opened(client: TestClient) -> None:
    table_id, tokens = open_table(
        client,
        "rummy101",
        settings={"turn_seconds": 45, "rebuy_stakes": [1, 3]},
        seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
    )
    assert len(tokens) == 1
    state = server_state(client, table_id)
    assert state.variant.turn_seconds == 45
    assert state.variant.rebuy_stakes == (1, 3)
    listed = client.get("/api/tables").json()["tables"]
    assert [table["id"] for table in listed] == [table_id]
    assert tokens[0] not in json.dumps(listed)


def test_no_secret_is_written_to_the_records_folder(client: TestClient, tmp_path: Path) -> None:
    _, tokens = open_table(client)
    written = "".join(path.read_text() for path in tmp_path.iterdir())
    assert all(token not in written for token in tokens)


def test_pages_and_cards_are_served(client: TestClient) -> None:
    table_id, _ = open_table(client)
    assert "lobby.js" in client.get("/").text
    assert "table.js" in client.get(f"/table/{table_id}").text
    assert client.get("/table/AAAAAAAAAAAA").status_code == 404
    assert client.get("/static/table.js").status_code == 200
    card = client.get("/card/Th.svg")
    assert card.headers["content-type"].startswith("image/svg+xml")
    assert "ten of hearts" in card.text
    assert client.get("/card/Zz.svg").status_code == 404
    assert client.get("/card/" + "A" * 20 + ".svg").status_code == 404
    # a joker on the table, drawn with the card it stands for (as the meld's text says it)
    joker = client.get("/card/%2A%3D8h.svg")
    assert joker.status_code == 200
    assert svg.read_cards(joker.text) == ("*=8h",)
    for bad in ("%2A%3D%2A", "%2A%3D", "%2A%3DZz"):
        assert client.get(f"/card/{bad}.svg").status_code == 404


# -- the socket: who sees what -----------------------------------------------------------------


def test_each_seat_receives_only_its_own_observation(client: TestClient) -> None:
    table_id, tokens = open_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as one:
        first = join(one, tokens[0])
        with client.websocket_connect(f"/ws/{table_id}") as two:
            second = join(two, tokens[1])
            receive(one)  # p2's arrival
            state = server_state(client, table_id)
            assert first["observation"]["hand"] == [str(card) for card in state.hands[0]]
            assert second["observation"]["hand"] == [str(card) for card in state.hands[1]]
            for seat, message in ((0, first), (1, second)):
                seen = set(CARD.findall(json.dumps(message)))
                allowed = {str(card) for card in (*state.hands[seat], *state.discard_pile)}
                assert seen <= allowed, seen - allowed  # not the other hand, not the stock
                assert "seed" not in json.dumps(message)
            assert all(move["text"].split()[0] != "p2" for move in first["moves"])


def test_the_state_says_the_variants_own_facts_and_the_phase_words(client: TestClient) -> None:
    # The page shows them as `rummylib play` prints them: an Indian player must know the
    # deal's wild card, a gin player that the first upcard is being offered.
    table_id, tokens = open_table(client, "indian_points")
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = join(socket, tokens[0])
        game = server_state(client, table_id)
        (turned,) = game.aside  # the card set aside face up names the wild rank (rule 6.3)
        wild = game.observation(0).public.wild_card
        rank = Rank.ACE if wild.is_joker else wild.rank
        assert rank is not None
        assert state["facts"][0] == f"wild card: {wild} (every {rank.letter} is wild)"
        assert turned.is_joker or wild == turned
        assert state["facts"] == list(game.observation(0).public.lines())
        assert state["phase_words"] is None
    table_id, tokens = open_table(client, "gin")
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = join(socket, tokens[0])
        assert state["observation"]["to_act"] == [0]
        assert state["phase_words"] == "the first upcard"
        assert state["facts"] == ["knock card: 10"]
        upcard = server_state(client, table_id).discard_pile[-1]
        assert state["choices"] == f"take the {upcard} or pass"  # as `play` prompts
        with client.websocket_connect(f"/ws/{table_id}") as other:
            waiting = join(other, tokens[1])
            # The words speak to the player who acts ("your final turn"): not to the others.
            assert waiting["phase_words"] is None
            assert waiting["choices"] is None
            assert waiting["facts"] == ["knock card: 10"]


def test_the_state_names_the_wild_cards_of_the_seats_own_hand(client: TestClient) -> None:
    # Rule 6.3: every card of the set-aside card's rank is wild (aces under a printed joker).
    # The lobby is seeded: the first tables in which p1 holds such a card are the same each run.
    checked = 0
    for _ in range(30):
        table_id, tokens = open_table(client, "indian_points")
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            state = join(socket, tokens[0])
        (turned,) = server_state(client, table_id).aside
        rank = "A" if turned.is_joker else str(turned)[:-1]
        held = [card for card in state["observation"]["hand"] if card != "*" and card[:-1] == rank]
        assert state["wild"] == held
        checked += bool(held)
        if checked == 3:
            break
    assert checked == 3  # three tables whose hand held a wild card, not only empty lists
    table_id, tokens = open_table(client, "gin")
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        assert join(socket, tokens[0])["wild"] == []  # no wild rank in gin


def test_a_typed_move_that_can_mean_one_move_is_that_move(client: TestClient) -> None:
    table_id, tokens = open_table(client, "rummikub")
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = join(socket, tokens[0])
        assert 0 in state["observation"]["to_act"]
        socket.send_json({"type": "move", "move": "draw pool"})  # the prompt's own words
        state = receive(socket)
        assert state["type"] == "state", state
        game = server_state(client, table_id)
        assert game.history[-1] == DrawStock(player=0)
        socket.send_json({"type": "move", "move": "draw"})  # p2's turn now: refused
        assert receive(socket)["type"] == "error"
        assert server_state(client, table_id) is game


def test_a_wrong_token_or_table_gets_an_error_and_a_closed_socket(client: TestClient) -> None:
    table_id, _ = open_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        socket.send_json({"type": "join", "token": "guess"})
        assert receive(socket) == {"type": "error", "message": "not a seat's link"}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(socket)
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/AAAAAAAAAAAA") as socket:
        assert receive(socket)["message"] == "no such table"


def test_the_first_message_must_be_a_join(client: TestClient) -> None:
    table_id, tokens = open_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        socket.send_json({"type": "move", "move": "pass"})
        assert "join" in receive(socket)["message"]
        assert join(socket, tokens[0])["seat"] == 0


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ("not json", "JSON object"),
        ("[1, 2]", "JSON object"),
        ('"move"', "JSON object"),
        ("x" * (MAX_MESSAGE + 1), "at most"),
        ('{"type": "dance"}', "unknown message type"),
        ('{"type": "move", "move": "pass", "extra": 1}', "only type, move and seq"),
        ('{"type": "move", "move": 7}', "a move is text"),
        ('{"type": "move", "move": ""}', "a move is text"),
        ('{"type": "move", "move": "discard Zz"}', "bad card"),
        ('{"type": "move", "move": "fly away"}', "fly"),
        ('{"type": "move", "move": "discard 7c"}', "not a move of the first_upcard phase"),
        ('{"type": "move", "move": "h timeout p1"}', ""),
        ('{"type": "move", "move": "pass", "seq": 99}', "moved on"),
    ],
)
def test_a_bad_message_is_answered_with_an_error_and_the_socket_goes_on(
    client: TestClient, message: str, says: str
) -> None:
    table_id, tokens = open_table(client)
    before = server_state(client, table_id)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        join(socket, tokens[0])
        socket.send_text(message)
        answer = receive(socket)
        assert answer["type"] == "error"
        assert says in answer["message"]
        socket.send_json({"type": "ping"})
        assert receive(socket) == {"type": "pong"}
        assert server_state(client, table_id).history == before.history


def test_a_move_of_the_other_seat_is_refused(client: TestClient) -> None:
    table_id, tokens = open_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = join(socket, tokens[1])  # p2: gin's first decision is p1's
        assert state["moves"] == []
        socket.send_json({"type": "move", "move": "pass"})
        assert "p1" in receive(socket)["message"]


def test_many_bad_messages_close_the_socket(client: TestClient) -> None:
    table_id, tokens = open_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        join(socket, tokens[0])
        for _ in range(19):
            socket.send_text("{")
            assert receive(socket)["type"] == "error"
        socket.send_text("{")
        receive(socket)
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(socket)
        assert closed.value.code == 1008


def test_a_match_played_over_the_sockets_ends_and_its_record_downloads(
    client: TestClient,
) -> None:
    table_id, tokens = open_table(
        client,
        settings={"target_score": 1},
        seats=[{"kind": "person"}, {"kind": "bot", "bot": "greedy"}],
    )
    assert client.get(f"/api/tables/{table_id}/record").status_code == 409
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = join(socket, tokens[0])
        for _ in range(500):
            if state["over"]:
                break
            socket.send_json({"type": "move", "move": state["moves"][0]["text"]})
            state = receive(socket)
            assert state["type"] == "state", state
        assert state["over"]
        assert state["result"]["lines"] is not None
    answer = client.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    record = loads(answer.text)
    assert record.final_state == server_state(client, table_id)
    assert record.final_state.is_over
    assert client.get("/api/tables/AAAAAAAAAAAA/record").status_code == 404


# -- disconnections and clocks -----------------------------------------------------------------


def test_a_closed_socket_makes_the_engine_play_for_its_seat(client: TestClient) -> None:
    table_id, tokens = open_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as one:
        join(one, tokens[0])
        with client.websocket_connect(f"/ws/{table_id}") as two:
            join(two, tokens[1])
            receive(one)
        # p2 has left: p1's every move is answered by the engine's move for p2
        state = receive(one)
        assert state["online"] == [True, False]
        for _ in range(6):
            socket_move = state["moves"][0]["text"]
            one.send_json({"type": "move", "move": socket_move})
            state = receive(one)
            if state["over"]:
                break
            assert 0 in state["observation"]["to_act"]
    history = server_state(client, table_id).history
    assert any(action.player == 1 for action in history)


def test_rummy101_reports_disconnect_and_reconnect_to_the_match(client: TestClient) -> None:
    table_id, tokens = open_table(client, "rummy101")
    with client.websocket_connect(f"/ws/{table_id}") as one:
        join(one, tokens[0])
        with client.websocket_connect(f"/ws/{table_id}") as two:
            join(two, tokens[1])
        with client.websocket_connect(f"/ws/{table_id}") as two:
            join(two, tokens[1])
    history = server_state(client, table_id).history
    events = [action for action in history if isinstance(action, Disconnect | Reconnect)]
    assert Disconnect(player=1) in events
    assert Reconnect(player=1) in events


def test_a_clock_that_runs_out_is_reported_as_time_expired(tmp_path: Path) -> None:
    lobby = Lobby(tmp_path, seed=3)
    table, _ = lobby.create("rummy101", seats=[{"kind": "person"}] * 3, now=0.0)
    clock = table.state.turn_clock()
    assert clock is not None
    assert table.next_deadline() == clock.total_seconds
    assert not table.advance(clock.total_seconds - 1)
    assert table.advance(clock.total_seconds)
    assert table.state.history[-1] == TimeExpired(player=0)
    assert loads((tmp_path / f"{table.id}.toml").read_text()).final_state == table.state


def test_the_reconnect_grace_delays_auto_play(tmp_path: Path) -> None:
    lobby = Lobby(tmp_path, seed=3, reconnect_grace=5)
    table, _ = lobby.create("gin", seats=[{"kind": "person"}] * 2, now=0.0)
    table.connect(0, 0.0)
    table.connect(1, 0.0)
    table.disconnect(0, 1.0)
    assert table.state.history == ()
    assert table.next_deadline() == 6.0
    table.advance(5.9)
    assert table.state.history == ()
    table.advance(6.0)
    assert table.state.history
    assert 0 not in table.state.to_act


def test_a_grace_run_out_for_a_seat_not_to_act_sets_no_wake_up(tmp_path: Path) -> None:
    # p2's socket closed while p1 is to act: once its grace has run out there is nothing to
    # wake the table for (p2 is played for after p1's move), so the server does not wake it
    # again and again, telling every seat the same state each time.
    lobby = Lobby(tmp_path, seed=3, reconnect_grace=5)
    table, _ = lobby.create("gin", seats=[{"kind": "person"}] * 2, now=0.0)
    table.connect(0, 0.0)
    table.connect(1, 0.0)
    table.disconnect(1, 1.0)
    assert table.state.to_act == (0,)
    assert table.next_deadline(3.0) == 6.0
    assert not table.advance(6.0)  # p1 is to act: nothing for the engine to play
    assert table.next_deadline(6.0) is None


def test_a_table_nobody_is_at_waits_instead_of_playing_itself(tmp_path: Path) -> None:
    lobby = Lobby(tmp_path, seed=3)
    table, _ = lobby.create("gin", seats=[{"kind": "person"}] * 2, now=0.0)
    table.connect(0, 0.0)
    table.disconnect(0, 1.0)
    table.advance(100.0)
    assert table.state.history == ()
    assert table.next_deadline() is None


def test_a_move_that_is_not_text_raises_web_error(tmp_path: Path) -> None:
    lobby = Lobby(tmp_path, seed=3)
    table, _ = lobby.create("gin", seats=[{"kind": "person"}] * 2)
    with pytest.raises(WebError, match="a move is text"):
        table.move(0, ["pass"], 0.0)


def test_the_lobby_holds_at_most_max_tables(tmp_path: Path) -> None:
    lobby = Lobby(tmp_path, max_tables=2)
    for _ in range(2):
        lobby.create("gin", seats=[{"kind": "person"}] * 2)
    with pytest.raises(WebError, match="2 open tables"):
        lobby.create("gin", seats=[{"kind": "person"}] * 2)


# -- restarting --------------------------------------------------------------------------------


def test_a_restarted_server_restores_its_open_tables(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path, seed=5, reconnect_grace=0)) as client:
        table_id, tokens = open_table(client)
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            state = join(socket, tokens[0])
            socket.send_json({"type": "move", "move": state["moves"][0]["text"]})
            state = receive(socket)
            assert state["seq"] == 1
        before = server_state(client, table_id)
    with TestClient(create_app(tmp_path, reconnect_grace=0)) as client:
        after = server_state(client, table_id)
        assert after == before
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            again = join(socket, tokens[0])
            assert again["seq"] == len(before.history)
            assert again["observation"]["hand"] == [str(card) for card in before.hands[0]]


def test_restore_skips_a_bad_record_and_keeps_the_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lobby = Lobby(tmp_path, seed=1)
    good, _ = lobby.create("gin", seats=[{"kind": "person"}] * 2)
    bad, _ = lobby.create("gin", seats=[{"kind": "person"}] * 2)
    (tmp_path / f"{bad.id}.toml").write_text('format = "rummylib-record"\nversion = 9\n')
    broken, _ = lobby.create("gin", seats=[{"kind": "person"}] * 2)
    (tmp_path / f"{broken.id}.seats.json").write_text('{"format": "x"}')
    (tmp_path / "not-a-table.seats.json").write_text("{}")
    with caplog.at_level(logging.WARNING, logger="rummylib.web"):
        restored = Lobby(tmp_path).restore()
    assert restored == [good.id]
    assert bad.id in caplog.text
    assert broken.id in caplog.text


# -- Rummikub: tiles over the socket -----------------------------------------------------------


def test_a_rummikub_table_speaks_tiles_and_serves_tile_pictures(client: TestClient) -> None:
    table_id, tokens = open_table(
        client, variant="rummikub", seats=[{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]
    )
    tile = client.get("/tile/b13.svg")
    assert tile.headers["content-type"].startswith("image/svg+xml")
    assert "blue thirteen" in tile.text
    assert "joker" in client.get("/tile/*.svg").text
    assert client.get("/tile/g7.svg").status_code == 404
    joker = client.get("/tile/%2A%3Do7.svg")
    assert svg.read_cards(joker.text) == ("*=o7",)
    assert "joker as orange seven" in joker.text
    for bad in ("k7%3Do7", "%2A%3D%2A", "%2A%3D7h"):  # only a joker stands for another tile
        assert client.get(f"/tile/{bad}.svg").status_code == 404
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = join(socket, tokens[0])
        game = server_state(client, table_id)
        assert state["notation"] == "tile"
        assert state["words"] == {
            "card": "tile",
            "meld": "set",
            "stock": "pool",
            "hand": "rack",
            "rank": "number",
            "suit": "colour",
        }
        assert state["discards"] is False  # Rummikub has no discard pile to draw
        assert state["observation"]["hand"] == [format_tile(card) for card in game.hands[0]]
        texts = [move["text"] for move in state["moves"]]
        assert "draw stock" in texts
        for _ in range(400):  # play the listed moves (tiles in, tiles out) to the end
            if state["over"]:
                break
            socket.send_json({"type": "move", "move": state["moves"][0]["text"]})
            state = receive(socket)
            assert state["type"] == "state", state
        assert state["over"]
    record = loads(client.get(f"/api/tables/{table_id}/record").text)
    assert record.final_state == server_state(client, table_id)
