"""Saved games: :meth:`GameState.to_json` and :meth:`GameState.from_json`.

A saved game is the match's set-up (variant, settings, players, seed, stacked deck), every
action in order, and a snapshot of where the match stands. Loading rebuilds the match by
replaying the actions through the rules, then checks the snapshot against the replay, so a
record whose actions are illegal, or whose snapshot has been edited (a duplicated card, a
changed score), is refused. Only JSON is read; nothing is ever executed.

An untrusted record is checked before anything is built: its shape and types, every setting
against its bounds (review point R9), the size of every list and text (no action moves more cards
than the largest deck holds), and every action's fields. Only then are the actions replayed.
"""

from __future__ import annotations

import enum
import json
from typing import TYPE_CHECKING, Any

import attrs

from rummylib._settings import MAX_DECKS, MAX_JOKERS
from rummylib.actions import ACTION_TYPES, Action, Codec, spec_of
from rummylib.cards import Card, parse_card, parse_cards
from rummylib.engine import RETIRED_FACTS, Variant
from rummylib.errors import RummyError, shorten
from rummylib.melds import Meld, MeldKind
from rummylib.registry import get_variant

if TYPE_CHECKING:
    from rummylib.state import GameState

FORMAT = "rummylib-game"
VERSION = 1

#: The entries of a saved game, and of its snapshot.
RECORD_KEYS = frozenset(
    {"format", "version", "variant", "settings", "players", "seed", "deck", "actions", "snapshot"}
)
SNAPSHOT_KEYS = frozenset(
    {
        "phase",
        "current_player",
        "to_act",
        "hands",
        "stock",
        "discard_pile",
        "aside",
        "hidden",
        "table",
        "scores",
        "players_in",
        "deal_number",
        "dealer",
        "public",
    }
)
#: What a snapshot may hold: a save written before the variants owned the open card, the
#: multiplier and the pot (0.3) holds those three entries in place of ``public``.
_READ_KEYS = SNAPSHOT_KEYS | frozenset(RETIRED_FACTS)
#: Snapshot entries added after version 1 was first written; a save without them has none.
_LATER_KEYS = frozenset({"aside", "hidden"})
#: The most cards of any deck (four packs and 32 jokers): no action moves more.
MAX_ACTION_CARDS = 52 * MAX_DECKS + MAX_JOKERS
#: The longest text of one card ("joker", "10♥", with room for spaces).
MAX_CARD_TEXT = 16
#: The longest text of a stacked deck (every card of the largest deck, with room for spaces).
MAX_DECK_TEXT = MAX_ACTION_CARDS * MAX_CARD_TEXT


def bad(message: str) -> RummyError:
    return RummyError(f"bad saved game: {message}")


def _card_text(card: Card) -> str:
    return str(card)


def _meld_json(meld: Meld) -> dict[str, object]:
    return {
        "kind": meld.kind.value,
        "cards": [str(card) for card in meld.cards],
        "stands_for": [str(card) for card in meld.stands_for],
    }


def _action_json(action: Action) -> dict[str, object]:
    data: dict[str, object] = {"type": action.kind}
    for field in attrs.fields(type(action)):
        value = getattr(action, field.name)
        if isinstance(value, Card):
            data[field.name] = str(value)
        elif isinstance(value, tuple):
            data[field.name] = [_meld_json(meld) for meld in value]
        elif isinstance(value, enum.Enum):
            data[field.name] = value.value
        else:
            data[field.name] = value
    return data


def _snapshot(state: GameState) -> dict[str, object]:
    return {
        "phase": state.phase.value,
        "current_player": state.current_player,
        "to_act": list(state.to_act),
        "hands": [" ".join(map(str, hand)) for hand in state.hands],
        "stock": " ".join(map(str, state.stock)),
        "discard_pile": " ".join(map(str, state.discard_pile)),
        "aside": " ".join(map(str, state.aside)),
        "hidden": " ".join(map(str, state.hidden)),
        "table": [_meld_json(meld) for meld in state.table],
        "scores": list(state.scores),
        "players_in": list(state.players_in),
        "deal_number": state.deal_number,
        "dealer": state.dealer,
        "public": {name: _fact_json(value) for name, value in state.variant.public_info(state, 0)},
    }


def _fact_json(value: object) -> object:
    """A public fact as JSON writes it: cards as text, collections as lists."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple | list):
        return [_fact_json(item) for item in value]
    if isinstance(value, frozenset | set):
        return sorted((_fact_json(item) for item in value), key=str)
    return str(value)


def _retired_snapshot(state: GameState) -> dict[str, object]:
    """The entries a save written before the variants owned them holds (``open_card``, …).

    Such a save kept the Israeli open card apart from the cards set aside, which held it since.
    """
    open_card = state.open_card
    aside = state.aside
    if open_card is not None and aside[:1] == (open_card,):
        aside = aside[1:]
    return {
        "open_card": None if open_card is None else str(open_card),
        "aside": " ".join(map(str, aside)),
        "multiplier": state.multiplier,
        "pot": state.pot,
    }


def dump(state: GameState) -> str:
    """The saved-game JSON of ``state``."""
    record = {
        "format": FORMAT,
        "version": VERSION,
        "variant": state.variant.name,
        "settings": {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in state.variant.settings().items()
        },
        "players": state.player_count,
        "seed": state.seed,
        "deck": None if state.deck is None else " ".join(map(str, state.deck)),
        "actions": [_action_json(action) for action in state.history],
        "snapshot": _snapshot(state),
    }
    return json.dumps(record, ensure_ascii=False)


def _expect(value: object, kind: type | tuple[type, ...], what: str) -> Any:
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        msg = f"{what} must be {_kind_name(kind)}, not {shorten(value)}"
        raise bad(msg)
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {
        int: "a whole number",
        str: "text",
        list: "a list",
        dict: "an object",
        bool: "true/false",
    }
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)


def _expect_list(value: object, what: str, most: int) -> list[object]:
    items: list[object] = _expect(value, list, what)
    if len(items) > most:
        msg = f"{what} holds {len(items)} entries, more than the {most} it may hold"
        raise bad(msg)
    return items


def _read_card(value: object, what: str) -> Card:
    text = _expect(value, str, what)
    if len(text) > MAX_CARD_TEXT:
        raise bad(f"{what} must be one card such as '7h', not {shorten(text)}")
    try:
        return parse_card(text)
    except RummyError as error:
        raise bad(f"{what}: {error}") from None


def _read_meld(value: object, what: str) -> Meld:
    data = _expect(value, dict, what)
    unknown = sorted(set(data) - {"kind", "cards", "stands_for"}, key=str)
    if unknown:
        raise bad(f"{what} has unknown field {shorten(unknown[0])}")
    try:
        kind = MeldKind(_expect(data.get("kind"), str, f"{what} kind"))
    except ValueError:
        raise bad(f"{what} kind must be 'group' or 'run'") from None
    cards = [
        _read_card(item, f"{what} card")
        for item in _expect_list(data.get("cards"), f"{what} cards", MAX_ACTION_CARDS)
    ]
    stands = [
        _read_card(item, f"{what} card")
        for item in _expect_list(data.get("stands_for"), f"{what} stands_for", MAX_ACTION_CARDS)
    ]
    try:
        return Meld(kind, cards, stands)
    except RummyError as error:
        raise bad(f"{what}: {error}") from None


def _read_melds(value: object, what: str) -> tuple[Meld, ...]:
    melds = tuple(
        _read_meld(item, f"{what} meld") for item in _expect_list(value, what, MAX_ACTION_CARDS)
    )
    if sum(len(meld.cards) for meld in melds) > MAX_ACTION_CARDS:
        msg = f"{what} hold more than {MAX_ACTION_CARDS} cards, more than any deck"
        raise bad(msg)
    return melds


def _read_action(value: object, number: int) -> Action:  # noqa: PLR0912  (a branch per type)
    what = f"action {number}"
    data = _expect(value, dict, what)
    name = _expect(data.get("type"), str, f"{what} type")
    cls = ACTION_TYPES.get(name)
    if cls is None:
        raise bad(f"{what} has unknown type {shorten(name)}")
    fields = {field.name: field for field in attrs.fields(cls)}
    unknown = sorted(set(data) - set(fields) - {"type"}, key=str)
    if unknown:
        raise bad(f"{what} ({name}) has unknown field {shorten(unknown[0])}")
    missing = [
        field.name
        for field in fields.values()
        if field.init and field.default is attrs.NOTHING and field.name not in data
    ]
    if missing:
        raise bad(f"{what} ({name}) has no {missing[0]!r}")
    values: dict[str, object] = {}
    for field_name, codec in spec_of(cls).codecs:
        if field_name not in data:
            continue
        raw, where = data[field_name], f"{what} {field_name}"
        if codec is Codec.CARD or (codec is Codec.OPTIONAL_CARD and raw is not None):
            values[field_name] = _read_card(raw, where)
        elif codec is Codec.MELDS:
            values[field_name] = _read_melds(raw, where)
        elif codec is Codec.FLAG:
            values[field_name] = _expect(raw, bool, where)
        elif codec is Codec.OPTIONAL_CARD:
            values[field_name] = None
        elif codec is Codec.END:
            values[field_name] = None if raw is None else _expect(raw, str, where)
        else:
            values[field_name] = _expect(raw, int, where)
    if "player" in data:
        values["player"] = _expect(data["player"], int, f"{what} player")
    try:
        return cls(**values)  # type: ignore[arg-type]
    except (RummyError, TypeError) as error:
        raise bad(f"{what} ({name}): {error}") from None


def _no_constant(name: str) -> None:
    msg = f"{name} is not a JSON number"
    raise ValueError(msg)


def _same(saved: object, replayed: object) -> bool:
    """Whether a snapshot entry is exactly the replayed one: ``true`` is not ``1`` here.

    ``replayed`` is shallow (lists of objects of lists at most), so the recursion is too.
    """
    if type(saved) is not type(replayed):
        return False
    if isinstance(saved, list) and isinstance(replayed, list):
        return len(saved) == len(replayed) and all(map(_same, saved, replayed))
    if isinstance(saved, dict) and isinstance(replayed, dict):
        return saved.keys() == replayed.keys() and all(
            _same(saved[key], replayed[key]) for key in replayed
        )
    return saved == replayed


def _read_record(text: object) -> dict[str, Any]:
    """The parsed record, its entries of the right types, before anything is built."""
    if not isinstance(text, str | bytes | bytearray):
        raise bad(f"expected JSON text, not {type(text).__name__}")
    try:
        record = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise bad(f"not JSON ({shorten(str(error), limit=200)})") from None
    record = _expect(record, dict, "the record")
    if record.get("format") != FORMAT:
        raise bad(f"format must be {FORMAT!r}, not {shorten(record.get('format'))}")
    version = record.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
        raise bad(f"version must be {VERSION}, not {shorten(version)}")
    unknown = sorted(set(record) - RECORD_KEYS, key=str)
    if unknown:
        raise bad(f"the record has unknown entry {shorten(unknown[0])}")
    _expect(record.get("variant"), str, "variant")
    _expect(record.get("settings", {}), dict, "settings")
    _expect(record.get("players"), int, "players")
    _expect(record.get("seed"), int, "seed")
    deck = record.get("deck")
    if deck is not None and len(_expect(deck, str, "deck")) > MAX_DECK_TEXT:
        raise bad(f"deck must be at most {MAX_DECK_TEXT} characters, not {len(deck)}")
    _expect(record.get("actions"), list, "actions")
    snapshot = _expect(record.get("snapshot"), dict, "snapshot")
    extra = sorted(set(snapshot) - _READ_KEYS, key=str)
    if extra:
        raise bad(f"the snapshot has unknown entry {shorten(extra[0])}")
    checked: dict[str, Any] = record
    return checked


@attrs.frozen(kw_only=True)
class SavedGame:
    """A saved game read and checked, ready to replay (:meth:`GameState.from_json` does)."""

    variant: Variant
    players: int
    seed: int
    deck: tuple[Card, ...] | None
    actions: tuple[Action, ...]
    snapshot: dict[str, object]


def read(text: object) -> SavedGame:
    """Read a saved game: everything that can be checked without playing, cheapest first.

    The record's shape and types, then the settings (every one bounded, so a table too large
    to hold is refused before a card is made), the player count, the deck, and every action's
    shape. The replay and the snapshot check are :meth:`GameState.from_json`'s.

    Raises:
        RummyError: the text is not a saved game.
    """
    record = _read_record(text)
    try:
        variant = get_variant(record["variant"], **record.get("settings", {}))
        players = variant.check_players(record["players"])
        deck = None if record.get("deck") is None else parse_cards(record["deck"])
    except RummyError as error:
        raise bad(str(error)) from None
    actions = tuple(_read_action(item, number) for number, item in enumerate(record["actions"], 1))
    return SavedGame(
        variant=variant,
        players=players,
        seed=record["seed"],
        deck=deck,
        actions=actions,
        snapshot=record["snapshot"],
    )


def check_snapshot(state: GameState, snapshot: dict[str, object]) -> None:
    """Raise unless ``snapshot`` is exactly where the replayed ``state`` stands.

    Raises:
        RummyError: an entry differs (an edited hand, score, phase, …).
    """
    expected = _snapshot(state)
    if "open_card" in snapshot:  # written before the variants owned these facts (0.3)
        del expected["public"]
        expected.update(_retired_snapshot(state))
    for key, value in expected.items():
        # Saves written before the set-aside zones existed have none: read as empty.
        saved = snapshot.get(key, "" if key in _LATER_KEYS else None)
        if not _same(saved, value):
            raise bad(f"the snapshot's {key} does not match its actions")
