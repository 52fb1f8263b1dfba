"""The pieces of a game record: its limits, its deals, and the lines as read."""

from __future__ import annotations

import datetime
from typing import Final

import attrs

from rummylib.actions import (
    Action,
)
from rummylib.cards import Card
from rummylib.engine import Variant
from rummylib.errors import NotationError, shorten
from rummylib.scoring import DealResult
from rummylib.state import GameState

#: The ``format`` entry of every record.
FORMAT: Final = "rummylib-record"
#: The version of the format this module reads and writes.
VERSION: Final = 1
#: Metadata entries a record may have, each text (``date`` may also be a TOML date).
METADATA_KEYS: Final = ("event", "site", "date", "table", "time_control")
_KNOWN_KEYS: Final = frozenset(
    {"format", "version", "variant", "settings", "players", "names", "seed", "deck", "view"}
    | {"actions", *METADATA_KEYS}
)
#: The largest record read, in bytes of UTF-8 (8 MiB): checked before anything is parsed.
#: A whole match of 100,000 actions (the cap of :func:`rummylib.bots.play`) takes 3 to 8 MB.
MAX_BYTES: Final = 8 * 1024 * 1024
#: The largest record read, in characters (a character is at least one byte).
MAX_TEXT: Final = MAX_BYTES
#: The most lines in ``actions``.
MAX_ACTIONS: Final = 200_000
#: The longest name or metadata text.
MAX_NAME: Final = 200
_NONE: Final = "none"  # TOML has no null: a setting set to None is written "none"
_SEEDLESS: Final = 0  # the seed a record without one replays with
_LOOKAHEAD: Final = 200  # how many lines a view's completion reads ahead for a player's cards


@attrs.frozen
class RecordError:
    """A problem in a record, with the line it is on (1 is the first line of the text).

    >>> print(RecordError(12, "p2 cannot discard 7h: not in hand"))
    line 12: p2 cannot discard 7h: not in hand
    """

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@attrs.frozen(kw_only=True)
class Deal:
    """One deal of a record.

    >>> from rummylib.records import dumps, loads
    >>> from rummylib import new_game
    >>> from rummylib.bots import GreedyBot, play
    >>> final = play(new_game("gin", players=2, seed=1), [GreedyBot(), GreedyBot()])
    >>> first = loads(dumps(final)).deals[0]
    >>> first.number, first.result.ended_by, first.result.points
    (1, 'p1 knocked with 9 against 24', (15, 0))

    Attributes:
        number: the deal's number (a deal dealt again, after a Frish, keeps it).
        first_line: the record line the deal starts on.
        last_line: the line of its last action (``first_line`` if it has none).
        actions: its actions, host events included.
        result: its score record, if the deal ended within the record.
        scores: the match totals after it.
    """

    number: int
    first_line: int
    last_line: int
    actions: tuple[Action, ...]
    result: DealResult | None
    scores: tuple[int, ...]


@attrs.frozen(kw_only=True)
class _Step:
    """One action of a record with the lines around it, ready to replay."""

    line: int
    action: Action
    drawn: Card | None = None
    #: Whether the action's face-down card is written ``??`` (its field holds a stand-in).
    face_down: bool = False
    #: ``d show`` lines before the action: (line, player, cards).
    shows: tuple[tuple[int, int, tuple[Card | None, ...]], ...] = ()
    #: The dealer lines after it (a new deal or a new stock), if any.
    block: _Block | None = None


@attrs.frozen(kw_only=True)
class _Block:
    """The dealer lines that say how the cards lie after a shuffle."""

    line: int
    kind: str  # "deal" or "restock"
    number: int | None = None
    hands: tuple[tuple[int, int, tuple[Card | None, ...]], ...] = ()  # (line, player, cards)
    aside: tuple[int, tuple[Card | None, ...]] | None = None
    pile: tuple[int, tuple[Card | None, ...]] | None = None
    stock: tuple[int, tuple[Card | None, ...]] | None = None

    def has_hidden(self) -> bool:
        """Whether any card of these lines is ``??``."""
        cards: list[Card | None] = [card for _, _, hand in self.hands for card in hand]
        for zone in (self.aside, self.pile, self.stock):
            if zone is not None:
                cards.extend(zone[1])
        return None in cards


@attrs.frozen(kw_only=True)
class _Setup:
    """What a replay starts from: the table, and the seed or the cards."""

    variant: Variant
    players: int
    seed: int | None
    deck: tuple[Card, ...] | None
    view: int | None


class _Stop(Exception):  # noqa: N818  (a control-flow signal, not an error)
    """A replay stopped at a line: the record's valid part ends before it."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _check_view_player(view: object, players: int) -> int:
    if isinstance(view, bool) or not isinstance(view, int) or not 0 <= view < players:
        msg = f"bad view {shorten(view)}: expected a player from 0 to {players - 1}"
        raise NotationError(msg)
    return view


def _read_names(names: object, players: int) -> tuple[str, ...]:
    if not isinstance(names, list) or len(names) != players:
        msg = f"names must be a list of {players} names, one per player"
        raise NotationError(msg)
    for name in names:
        if not isinstance(name, str) or len(name) > MAX_NAME:
            msg = f"bad name {shorten(name)}: a name is text of at most {MAX_NAME} characters"
            raise NotationError(msg)
    return tuple(names)


def _read_metadata(entries: dict[str, object]) -> dict[str, object]:
    kept: dict[str, object] = {}
    for key, value in entries.items():
        if key.startswith("_"):
            kept[key] = value
        elif key in METADATA_KEYS:
            allowed = (str, datetime.date, datetime.datetime, datetime.time)
            kinds = allowed if key == "date" else (str,)
            if not isinstance(value, kinds) or (isinstance(value, str) and len(value) > MAX_NAME):
                msg = f"{key} must be text of at most {MAX_NAME} characters, not {shorten(value)}"
                raise NotationError(msg)
            kept[key] = value
        else:
            known = ", ".join((*METADATA_KEYS, "_anything"))
            msg = f"unknown metadata entry {shorten(key)}; metadata: {known}"
            raise NotationError(msg)
    return kept


def _is_new_deal(before: GameState, after: GameState, action: Action) -> bool:
    """Whether the shuffle ``action`` caused dealt new hands (else it made a new stock)."""
    if after.deal_number != before.deal_number:
        return True
    if len(after.deal_results) != len(before.deal_results):
        return True
    return any(
        after.hands[seat] != before.hands[seat]
        for seat in range(after.player_count)
        if seat != action.player
    )
