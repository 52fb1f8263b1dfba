"""A toy game server for one rummy table: messages in, per-player views out.

It is the thin layer a real server puts between players and rummylib: it reads a player's
message (a JSON object) into an action, lets rummylib apply it, and renders for each player a
JSON view of what they may see. ``test_toy_server.py`` checks it against rummylib with
:class:`rummylib.testing.RulesMachine`: it must accept exactly the moves rummylib accepts and
show each player exactly their observation.

>>> server = ToyServer("rummy101", players=2, seed=5)
>>> server.handle(1, {"move": "draw_stock"})
{'ok': False, 'error': "it is p1's turn, not p2's"}
>>> server.handle(0, {"move": "draw_stock"})
{'ok': True}
>>> view = server.view(0)
>>> view["phase"], len(view["hand"]), view["hand_sizes"]
('play', 14, [14, 13])
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import attrs

from rummylib import (
    Card,
    GameState,
    MeldRules,
    Observation,
    RummyError,
    Variant,
    new_game,
    parse_card,
    parse_meld,
)
from rummylib.actions import ACTION_TYPES, Action

#: A message or a view: a JSON object.
Json = dict[str, Any]


def _card_text(card: Card | None) -> str | None:
    return None if card is None else str(card)


def encode(action: Action) -> Json:
    """The message a player's client sends for ``action`` (the seat is the connection's).

    >>> from rummylib.actions import Discard
    >>> encode(Discard(player=1, card=parse_card("Th")))
    {'move': 'discard', 'card': 'Th'}
    """
    message: Json = {"move": action.kind}
    for field in attrs.fields(type(action)):
        if field.name == "player":
            continue
        value = getattr(action, field.name)
        if isinstance(value, Card):
            message[field.name] = str(value)
        elif isinstance(value, tuple):
            message[field.name] = [str(meld) for meld in value]
        elif isinstance(value, enum.Enum):  # the end of a run a card is laid off at
            message[field.name] = value.value
        else:
            message[field.name] = value
    return message


def decode(player: int, message: Mapping[str, Any], rules: MeldRules) -> Action:
    """The action ``message`` asks for, made by ``player``.

    >>> decode(0, {"move": "take_discard", "count": 2}, MeldRules())
    TakeDiscard(player=0, count=2)
    >>> decode(0, {"move": "sneeze"}, MeldRules())
    Traceback (most recent call last):
    ...
    KeyError: 'sneeze'

    Raises:
        KeyError: an unknown move or a missing field.
        RummyError: a card or a meld that cannot be read, or a field of the wrong type.
    """
    cls = ACTION_TYPES[message["move"]]
    fields: dict[str, Any] = {"player": player}
    for field in attrs.fields(cls):
        name = field.name
        if name == "player" or (name not in message and field.default is not attrs.NOTHING):
            continue
        value = message[name]
        if name in {"card", "discard", "stands_for"}:
            fields[name] = None if value is None else parse_card(value)
        elif name in {"melds", "table"}:
            fields[name] = tuple(parse_meld(text, rules) for text in value)
        else:
            fields[name] = value
    return cls(**fields)


class ToyServer:
    """One table: it applies the players' messages and renders their views.

    >>> server = ToyServer("carousel", players=3, seed=1)
    >>> server.view(2)["to_act"], server.view(2)["moves"]
    ([0], [])
    """

    def __init__(
        self,
        variant: Variant | str,
        *,
        players: int,
        seed: int,
        deck: tuple[Card, ...] | None = None,
    ) -> None:
        self._state: GameState = new_game(variant, players=players, seed=seed, deck=deck)

    def handle(self, player: int, message: Mapping[str, Any]) -> Json:
        """Apply ``player``'s message: ``{"ok": True}``, or ``{"ok": False, "error": ...}``."""
        try:
            action = decode(player, message, self._state.variant.meld_rules)
            self._state = self._state.apply(action)
        except (RummyError, KeyError, TypeError) as error:
            reason = str(error) if isinstance(error, RummyError) else f"bad message: {error}"
            return {"ok": False, "error": reason}
        return {"ok": True}

    def view(self, player: int) -> Json:
        """What ``player``'s client shows: their observation, as JSON."""
        return render(self._state.observation(player))


def render(observation: Observation) -> Json:
    """The JSON view of an observation.

    >>> render(new_game("rummy71", players=2, seed=2).observation(1))["moves"]
    []
    """
    return {
        "seat": observation.player,
        "phase": observation.phase.value,
        "to_act": list(observation.to_act),
        "hand": [str(card) for card in observation.hand],
        "hand_sizes": list(observation.hand_sizes),
        "stock_size": observation.stock_size,
        "discard_pile": [str(card) for card in observation.discard_pile],
        "open_card": _card_text(observation.open_card),
        "table": [str(meld) for meld in observation.table],
        "scores": list(observation.scores),
        "moves": [encode(action) for action in observation.legal_actions],
    }
