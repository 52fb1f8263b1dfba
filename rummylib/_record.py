"""Saved games: :meth:`GameState.to_json` and :meth:`GameState.from_json`.

A saved game is the match's set-up (variant, settings, players, seed, stacked deck), every
action in order, and a snapshot of where the match stands. Loading rebuilds the match by
replaying the actions through the rules, then checks the snapshot against the replay, so a
record whose actions are illegal, or whose snapshot has been edited (a duplicated card, a
changed score), is refused. Only JSON is read; nothing is ever executed.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs

from rummylib.actions import ACTION_TYPES, Action
from rummylib.cards import Card, parse_card
from rummylib.errors import RummyError
from rummylib.melds import Meld, MeldKind

if TYPE_CHECKING:
    from rummylib.state import GameState

FORMAT = "rummylib-game"
VERSION = 1


def _bad(message: str) -> RummyError:
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
        "open_card": None if state.open_card is None else str(state.open_card),
        "table": [_meld_json(meld) for meld in state.table],
        "scores": list(state.scores),
        "players_in": list(state.players_in),
        "deal_number": state.deal_number,
        "dealer": state.dealer,
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
    if isinstance(value, bool) and kind is not bool:
        msg = f"{what} must be {_kind_name(kind)}, not {value!r}"
        raise _bad(msg)
    if not isinstance(value, kind):
        msg = f"{what} must be {_kind_name(kind)}, not {value!r}"
        raise _bad(msg)
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


def _read_card(value: object, what: str) -> Card:
    text = _expect(value, str, what)
    try:
        return parse_card(text)
    except RummyError as error:
        raise _bad(f"{what}: {error}") from None


def _read_meld(value: object, what: str) -> Meld:
    data = _expect(value, dict, what)
    try:
        kind = MeldKind(_expect(data.get("kind"), str, f"{what} kind"))
    except ValueError:
        raise _bad(f"{what} kind must be 'group' or 'run'") from None
    cards = [_read_card(item, f"{what} card") for item in _expect(data.get("cards"), list, what)]
    stands = [
        _read_card(item, f"{what} card") for item in _expect(data.get("stands_for"), list, what)
    ]
    try:
        return Meld(kind, cards, stands)
    except RummyError as error:
        raise _bad(f"{what}: {error}") from None


def _read_action(value: object, number: int) -> Action:
    what = f"action {number}"
    data = _expect(value, dict, what)
    name = _expect(data.get("type"), str, f"{what} type")
    cls = ACTION_TYPES.get(name)
    if cls is None:
        raise _bad(f"{what} has unknown type {name!r}")
    fields = {field.name: field for field in attrs.fields(cls)}
    unknown = sorted(set(data) - set(fields) - {"type"})
    if unknown:
        raise _bad(f"{what} ({name}) has unknown field {unknown[0]!r}")
    values: dict[str, object] = {}
    for field_name in fields:
        if field_name not in data:
            continue
        raw = data[field_name]
        if field_name in {"card", "discard"} or (field_name == "stands_for" and raw is not None):
            values[field_name] = _read_card(raw, f"{what} {field_name}")
        elif field_name in {"melds", "table"}:
            items = _expect(raw, list, f"{what} {field_name}")
            values[field_name] = tuple(_read_meld(item, f"{what} meld") for item in items)
        elif field_name == "accept":
            values[field_name] = _expect(raw, bool, f"{what} accept")
        elif field_name == "stands_for":
            values[field_name] = None
        else:
            values[field_name] = _expect(raw, int, f"{what} {field_name}")
    try:
        return cls(**values)  # type: ignore[arg-type]
    except (RummyError, TypeError) as error:
        raise _bad(f"{what} ({name}): {error}") from None


def load(text: str) -> GameState:
    """Rebuild a match from its saved-game JSON; see :meth:`GameState.from_json`."""
    from rummylib.state import new_game  # noqa: PLC0415  (state imports this module lazily)
    from rummylib.variants import get_variant  # noqa: PLC0415

    if not isinstance(text, str | bytes):
        raise _bad(f"expected JSON text, not {type(text).__name__}")
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise _bad(f"not JSON ({error})") from None
    record = _expect(record, dict, "the record")
    if record.get("format") != FORMAT:
        raise _bad(f"format must be {FORMAT!r}, not {record.get('format')!r}")
    if record.get("version") != VERSION:
        raise _bad(f"version must be {VERSION}, not {record.get('version')!r}")
    name = _expect(record.get("variant"), str, "variant")
    settings = _expect(record.get("settings", {}), dict, "settings")
    players = _expect(record.get("players"), int, "players")
    seed = _expect(record.get("seed"), int, "seed")
    deck_text = record.get("deck")
    actions = _expect(record.get("actions"), list, "actions")
    snapshot = _expect(record.get("snapshot"), dict, "snapshot")
    try:
        variant = get_variant(name, **settings)
        deck = None
        if deck_text is not None:
            from rummylib.cards import parse_cards  # noqa: PLC0415

            deck = parse_cards(_expect(deck_text, str, "deck"))
        state = new_game(variant, players=players, seed=seed, deck=deck)
    except RummyError as error:
        raise _bad(str(error)) from None
    for number, item in enumerate(actions, 1):
        action = _read_action(item, number)
        try:
            state = state.apply(action)
        except RummyError as error:
            raise _bad(f"action {number} is illegal: {error}") from None
    replayed = _snapshot(state)
    for key, value in replayed.items():
        if snapshot.get(key) != value:
            raise _bad(f"the snapshot's {key} does not match its actions")
    extra = sorted(set(snapshot) - set(replayed))
    if extra:
        raise _bad(f"the snapshot has unknown entry {extra[0]!r}")
    return state
