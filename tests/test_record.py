"""Saved games under attack: hostile records load consistently or raise RummyError, cheaply."""

from __future__ import annotations

import copy
import functools
import json
import pathlib
import random
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import GameState, RummyError, new_game
from rummylib._record import MAX_ACTION_CARDS, MAX_DECK_TEXT, SNAPSHOT_KEYS
from rummylib.variants import VARIANTS

Path = tuple[str | int, ...]

#: The variants rummylib itself defines (a plugin in the environment is not ours to fuzz).
BUILT_IN = (
    "carousel",
    "rummy101",
    "rummy500",
    "rummy71",
    "turkish300",
    "turkish500",
    "turkish500_cutthroat",
)

#: Stands for a hostile value whose JSON text Python's json module would not write.
PLACEHOLDER = "\x00hostile\x00"


@functools.cache
def saves() -> tuple[str, ...]:
    """Real saves: two short seeded matches of every built-in variant, random legal play."""
    found = []
    for name in BUILT_IN:
        cls = VARIANTS[name]
        for seed, steps in ((1, 12), (2, 40)):
            rng = random.Random(seed)
            state = new_game(
                name, players=min(cls.min_players + seed - 1, cls.max_players), seed=seed
            )
            for _ in range(steps):
                if state.is_over:
                    break
                state = state.apply(rng.choice(state.legal_actions()))
            found.append(state.to_json())
    return tuple(found)


def record_of(variant: str = "rummy101", steps: int = 10) -> dict[str, Any]:
    rng = random.Random(7)
    state = new_game(variant, players=2, seed=7)
    for _ in range(steps):
        state = state.apply(rng.choice(state.legal_actions()))
    record: dict[str, Any] = json.loads(state.to_json())
    return record


def refusal(record: dict[str, Any] | str) -> str:
    text = record if isinstance(record, str) else json.dumps(record)
    with pytest.raises(RummyError) as refused:
        GameState.from_json(text)
    return str(refused.value)


def paths(value: object, prefix: Path = ()) -> Iterator[Path]:
    """Every place in a JSON value, the value itself first."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def at(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step]
    return value


# -- the hostile-save fuzz test --------------------------------------------------------------

#: Raw JSON texts that json.dumps would not produce, or that are costly to write out.
RAW = st.sampled_from(
    [
        "1" + "0" * 4000,  # a huge number Python still reads
        "1" + "0" * 5000,  # one it refuses to read
        "-1" + "0" * 300,
        "1e999",
        "NaN",
        "Infinity",
        "[" * 5000 + "]" * 5000,  # nesting deeper than the JSON reader allows
        "[" * 500 + "]" * 500,
        '{"a":' * 300 + "1" + "}" * 300,
        '"' + "7h " * 20_000 + '"',
        '"' + "x" * 100_000 + '"',
        "[" + ",".join(['{"type":"draw_stock","player":0}'] * 2000) + "]",
        "{" + ",".join(f'"k{n}":{n}' for n in range(2000)) + "}",
    ]
)
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([10**6, 10**20, -(10**20), 2**63, 0.5, 1.0, -0.0]),
    st.sampled_from(["", "*", "Ah", "Ah Ah", "7h 8h 9h", "joker", "name", "draw_stock", "run"]),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.sampled_from(["type", "player", "kind", "cards"]), st.integers(0, 2)),
)
CARD_TEXTS = st.sampled_from(["*", "Ah", "Kc", "7h", "Ts", "2d"])


def replacement(kind: str, node: Any, data: st.DataObject) -> Any:
    """The hostile value a mutation of ``kind`` puts in place of ``node``."""
    if kind == "replace":
        return data.draw(VALUES, label="value")
    if kind == "int":
        numbers = [bool(node), float(node), node + 1, node - 1, -node, 10**30, -1]
        return data.draw(st.sampled_from(numbers), label="number")
    if kind == "card":
        tokens = node.split()
        index = data.draw(st.integers(0, len(tokens) - 1), label="token")
        tokens[index] = data.draw(CARD_TEXTS, label="card")
        return " ".join(tokens)
    if kind == "duplicate":
        return [*node, copy.deepcopy(data.draw(st.sampled_from(node), label="copied"))]
    if kind == "shuffle":
        return data.draw(st.permutations(node), label="order")
    key = data.draw(st.sampled_from(["name", "x", "type", "player"]), label="key")
    return {**node, key: 1}


def mutate(record: Any, data: st.DataObject) -> tuple[Any, list[str]]:
    """One hostile change at a random place; returns the record and raw JSON to splice in."""
    path = data.draw(st.sampled_from(list(paths(record))), label="path")
    node = at(record, path)
    kinds = ["replace", "raw"]
    if path:
        kinds.append("delete")
    if isinstance(node, int):
        kinds += ["int"] * 3
    if isinstance(node, str) and node.strip():
        kinds += ["card"] * 3
    if isinstance(node, list) and node:
        kinds += ["duplicate", "shuffle"]
    if isinstance(node, dict):
        kinds.append("key")
    kind = data.draw(st.sampled_from(kinds), label="mutation")
    if kind == "delete":
        del at(record, path[:-1])[path[-1]]
        return record, []
    raws = [data.draw(RAW, label="raw")] if kind == "raw" else []
    new = PLACEHOLDER if kind == "raw" else replacement(kind, node, data)
    if not path:
        return new, raws
    at(record, path[:-1])[path[-1]] = new
    return record, raws


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_hostile_save_loads_consistently_or_raises_rummy_error(data: st.DataObject) -> None:
    record = json.loads(data.draw(st.sampled_from(saves()), label="save"))
    raws: list[str] = []
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        record, added = mutate(record, data)
        raws += added
    text = json.dumps(record, ensure_ascii=False)
    for raw in raws:
        text = text.replace(json.dumps(PLACEHOLDER), raw, 1)
    try:
        state = GameState.from_json(text)
    except RummyError:
        return
    saved = state.to_json()
    again = GameState.from_json(saved)
    assert again == state
    assert again.to_json() == saved


@pytest.mark.parametrize("save", range(14))
def test_every_real_save_loads_and_round_trips(save: int) -> None:
    text = saves()[save]
    state = GameState.from_json(text)
    assert state.to_json() == text
    assert set(json.loads(text)["snapshot"]) == SNAPSHOT_KEYS


# -- what is refused, and how early -----------------------------------------------------------


@pytest.mark.parametrize("version", [True, 1.0, "1", None, 2, 0])
def test_version_must_be_the_whole_number_one(version: object) -> None:
    record = record_of()
    record["version"] = version
    assert refusal(record) == f"bad saved game: version must be 1, not {version!r}"


def test_a_save_with_a_huge_deck_is_refused_before_the_game_is_built() -> None:
    record = record_of()
    record["settings"]["decks"] = 10**6
    with mock.patch("rummylib.state.new_game", side_effect=AssertionError("built")):
        message = refusal(record)
    assert message == "bad saved game: decks must be a whole number from 1 to 4, not 1000000"


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("jokers", 10**9, "jokers must be a whole number from 0 to 32"),
        ("hand_size", 10**9, "hand_size must be a whole number from 4 to 120"),
        ("stake", 10**30, "stake must be a whole number from 0 to 1000000"),
        ("rebuy_stakes", [1] * 10**5, "rebuy_stakes must be a sequence of 1 to 100"),
        ("sitting_out", list(range(10**5)), "sitting_out must be a sequence of seat numbers"),
        ("elimination_threshold", 1.0, "elimination_threshold must be a whole number"),
        ("decks", True, "decks must be a whole number from 1 to 4, not True"),
        ("name", "carousel", "unknown setting 'name' for rummy101"),
    ],
)
def test_a_bad_setting_in_a_save_is_refused_before_the_game_is_built(
    setting: str, value: object, message: str
) -> None:
    record = record_of()
    record["settings"][setting] = value
    with mock.patch("rummylib.state.new_game", side_effect=AssertionError("built")):
        text = refusal(record)
    assert text.startswith(f"bad saved game: {message}")
    assert len(text) < 1000


def test_a_bad_action_anywhere_is_refused_before_any_replay() -> None:
    record = record_of()
    record["actions"] = [*record["actions"] * 100, {"type": "discard", "player": 0, "card": "1x"}]
    with mock.patch("rummylib.state.new_game", side_effect=AssertionError("built")):
        message = refusal(record)
    assert (
        message
        == f"bad saved game: action {len(record['actions'])} card: bad card '1x': unknown rank '1'"
    )


def test_too_many_players_are_refused_before_the_game_is_built() -> None:
    record = record_of()
    for players in (10**4000, 7, 1, -1, True, 2.0):
        record["players"] = players
        with mock.patch("rummylib.state.new_game", side_effect=AssertionError("built")):
            assert "players" in refusal(record)


def test_oversized_parts_are_refused_by_size() -> None:
    record = record_of()
    record["deck"] = "Ah " * MAX_DECK_TEXT
    assert refusal(record) == (
        f"bad saved game: deck must be at most {MAX_DECK_TEXT} characters, not {3 * MAX_DECK_TEXT}"
    )
    record = record_of()
    record["actions"].append({"type": "discard", "player": 0, "card": "7" * 100_000 + "h"})
    assert "must be one card such as '7h', not '7777" in refusal(record)
    meld = {"kind": "run", "cards": ["7h"] * 1000, "stands_for": ["7h"] * 1000}
    record = record_of()
    record["actions"].append(
        {"type": "declare_rummy", "player": 0, "discard": "7h", "melds": [meld]}
    )
    assert f"more than the {MAX_ACTION_CARDS} it may hold" in refusal(record)
    small = {"kind": "run", "cards": ["7h"] * 200, "stands_for": ["7h"] * 200}
    record["actions"][-1]["melds"] = [small, small]
    assert f"hold more than {MAX_ACTION_CARDS} cards" in refusal(record)


def test_unknown_entries_are_refused() -> None:
    record = record_of()
    record["extra"] = 1
    assert refusal(record) == "bad saved game: the record has unknown entry 'extra'"
    record = record_of()
    record["snapshot"]["x" * 10**5] = 1
    assert len(refusal(record)) < 300
    record = record_of()
    record["actions"][0]["melds_"] = []
    assert "unknown field 'melds_'" in refusal(record)


def test_the_snapshot_must_match_exactly_not_just_compare_equal() -> None:
    record = record_of()
    record["snapshot"]["deal_number"] = True  # True == 1 in Python, but not the same JSON
    assert (
        refusal(record) == "bad saved game: the snapshot's deal_number does not match its actions"
    )
    record = record_of()
    record["snapshot"]["public"]["pot"] = float(record["snapshot"]["public"]["pot"])
    assert "snapshot's public" in refusal(record)


def test_hostile_json_text_is_refused_shortly() -> None:
    cases = [
        "[" * 100_000,
        '{"format": "rummylib-game", "version": ' + "9" * 100_000 + "}",
        '{"format": "rummylib-game", "version": NaN}',
        '{"format": "' + "x" * 10**6 + '"}',
        b"\xff\xfe\x00",
    ]
    for text in cases:
        with pytest.raises(RummyError) as refused:
            GameState.from_json(text)  # type: ignore[arg-type]
        assert len(str(refused.value)) < 400


def test_a_huge_variant_name_in_a_save_is_refused_shortly() -> None:
    record = record_of()
    record["variant"] = "x" * 10**6
    message = refusal(record)
    assert message.startswith("bad saved game: unknown variant 'xxx")
    assert len(message) < 400


@pytest.mark.parametrize("name", ["rummy101", "turkish500", "indian_points", "gin"])
def test_a_save_written_before_the_variants_owned_the_open_card_and_pot_loads(name: str) -> None:
    # Written by rummylib 0.2 (commit c55ab3c): its snapshot holds open_card, multiplier and
    # pot, and the Israeli open card outside "aside". It loads, and is saved anew without them.
    text = (pathlib.Path(__file__).parent / "data" / "saves" / f"{name}-0.2.json").read_text()
    old = json.loads(text)["snapshot"]
    assert {"open_card", "multiplier", "pot"} <= old.keys()
    state = GameState.from_json(text)
    assert state.multiplier == old["multiplier"]
    assert state.pot == old["pot"]
    assert (None if state.open_card is None else str(state.open_card)) == old["open_card"]
    new = json.loads(state.to_json())["snapshot"]
    assert set(new) == SNAPSHOT_KEYS
    assert GameState.from_json(state.to_json()) == state


def test_an_old_save_with_an_edited_pot_is_refused() -> None:
    record = json.loads(
        (pathlib.Path(__file__).parent / "data" / "saves" / "rummy101-0.2.json").read_text()
    )
    record["snapshot"]["pot"] += 1
    assert refusal(record) == "bad saved game: the snapshot's pot does not match its actions"
