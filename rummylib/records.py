r"""Game records: a rummy hand-history format that people and programs can read and write.

A record is a TOML file (``format = "rummylib-record"``): the variant and every setting that
differs from its defaults, the players, the seed (or the cards of each deal), optional
metadata, and ``actions``, one short line per action with the actor first::

    format = "rummylib-record"
    version = 1
    variant = "rummy101"
    players = 2
    seed = 5
    actions = [
        "d deal 1",
        "d hand p1 …",
        "p1 draw stock 7h",
        "p1 discard Kd",
        # deal 1: p1 declared rummy; p2 +34
    ]

:func:`dumps` writes one, :func:`loads` reads one back as a :class:`Record` that replays:
:meth:`Record.states` yields every state, :attr:`Record.final_state` is the last. With
``view=p`` the record is what player ``p`` saw: the others' cards and the stock are ``??``
and the seed is left out; such a record replays to ``p``'s observations
(:meth:`Record.observations`). The format is specified on the page
``docs/reference/record-format.rst``.

>>> from rummylib import new_game
>>> from rummylib.records import dumps, loads
>>> state = new_game("rummy101", players=2, seed=5)
>>> state = state.apply(state.legal_actions()[0])
>>> loads(dumps(state)).final_state == state
True
>>> loads('format = "rummylib-record"\nversion = 9')
Traceback (most recent call last):
...
rummylib.errors.NotationError: line 2: version must be 1, not 9

Loading never executes anything: only TOML is read, every entry is checked for its type and
size, the settings against their bounds, before a card is dealt; then every action is
replayed through the rules.
"""

from __future__ import annotations

import datetime
import itertools
import os
import re
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any, Final

import attrs
import tomli_w

from rummylib import _notation
from rummylib._files import write_text
from rummylib._notation import ActionLine, DealerLine, Item
from rummylib.actions import (
    Action,
    Codec,
    DrawStock,
    Rearrange,
    TakeDiscard,
    spec_of,
)
from rummylib.cards import Card, parse_cards
from rummylib.engine import Variant, next_player
from rummylib.errors import NotationError, RummyError, shorten
from rummylib.melds import Meld
from rummylib.registry import get_variant
from rummylib.scoring import DealResult
from rummylib.state import GameState, new_game
from rummylib.views import Observation

__all__ = [
    "FORMAT",
    "VERSION",
    "Deal",
    "Record",
    "RecordError",
    "dump",
    "dumps",
    "load",
    "loads",
]

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
#: The largest record read, in characters.
MAX_TEXT: Final = 64 * 1024 * 1024
#: The most lines in ``actions``.
MAX_ACTIONS: Final = 2_000_000
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
    open_card: tuple[int, Card | None] | None = None
    pile: tuple[int, tuple[Card | None, ...]] | None = None
    stock: tuple[int, tuple[Card | None, ...]] | None = None

    def has_hidden(self) -> bool:
        """Whether any card of these lines is ``??``."""
        cards: list[Card | None] = [card for _, _, hand in self.hands for card in hand]
        if self.open_card is not None:
            cards.append(self.open_card[1])
        for zone in (self.pile, self.stock):
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


@attrs.frozen(kw_only=True, eq=False)
class Record:
    """A game record, read and replayed.

    >>> from rummylib import new_game
    >>> record = loads(dumps(new_game("rummy71", players=3, seed=2), names=["Ann", "Ben", "Cy"]))
    >>> record.variant.name, record.players, record.names, record.seed, record.view
    ('rummy71', 3, ('Ann', 'Ben', 'Cy'), 2, None)

    Attributes:
        variant: the variant and its settings.
        players: the number of seats.
        names: the players' names, if the record gives them (``p1`` first).
        seed: the match seed, in a host's record.
        deck: the stacked deck of the first deal, where the match was stacked.
        view: the player whose view the record is (0 for ``p1``), or ``None`` for a host's
            record of every card.
        metadata: the optional entries: ``event``, ``site``, ``date``, ``table``,
            ``time_control``, and the user's own entries whose names start with ``_``.
        errors: the problems found (``loads(..., strict=False)``); the record keeps every
            action before the first of them.
        deals: the deals, in order.
    """

    variant: Variant
    players: int
    names: tuple[str, ...] | None
    seed: int | None
    deck: tuple[Card, ...] | None
    view: int | None
    metadata: Mapping[str, object]
    errors: tuple[RecordError, ...]
    deals: tuple[Deal, ...] = attrs.field(repr=False)
    _setup: _Setup = attrs.field(repr=False)
    _opening: _Block | None = attrs.field(repr=False)
    _steps: tuple[_Step, ...] = attrs.field(repr=False)
    _final: GameState = attrs.field(repr=False)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action kept, in order.

        >>> from rummylib import new_game
        >>> loads(dumps(new_game("carousel", players=2, seed=1))).actions
        ()
        """
        return tuple(step.action for step in self._steps)

    def states(self) -> Iterator[GameState]:
        """Every state of the match: the start, then one after each action.

        >>> from rummylib import new_game
        >>> state = new_game("carousel", players=2, seed=1)
        >>> [s.phase.value for s in loads(dumps(state.apply(state.legal_actions()[0]))).states()]
        ['draw', 'play']

        Raises:
            NotationError: the record is one player's view, which replays to observations
                (:meth:`observations`), not states.
        """
        if self.view is not None:
            msg = (
                f"this record is p{self.view + 1}'s view: it replays to observations "
                "(Record.observations()), not states"
            )
            raise NotationError(msg)
        yield from (state for _, state in _replay(self._setup, self._opening, self._steps))

    @property
    def final_state(self) -> GameState:
        """The state after the last action kept.

        >>> from rummylib import new_game
        >>> state = new_game("gin", players=2, seed=4)
        >>> loads(dumps(state)).final_state == state
        True

        Raises:
            NotationError: the record is one player's view (see :attr:`final_observation`).
        """
        if self.view is not None:
            msg = (
                f"this record is p{self.view + 1}'s view: it has a final observation "
                "(Record.final_observation), not a final state"
            )
            raise NotationError(msg)
        return self._final

    def observations(self, player: int | None = None) -> Iterator[Observation]:
        """What ``player`` saw: one observation at the start and one after each action.

        A view record replays to its player's observations (``player`` is then that player,
        or ``None``): its hidden cards are filled in with cards consistent with everything
        the record shows (see the spec page), and the observations are exactly the ones
        the player had.

        >>> from rummylib import new_game
        >>> state = new_game("turkish500", players=2, seed=3)
        >>> view = loads(dumps(state, view=1))
        >>> next(view.observations()) == state.observation(1)
        True

        Raises:
            NotationError: ``player`` is not the view's player, or is missing for a host's
                record.
        """
        if self.view is not None:
            if player not in {None, self.view}:
                msg = f"this record is p{self.view + 1}'s view, not p{player + 1}'s"
                raise NotationError(msg)
            seat = self.view
        elif player is None:
            msg = "name the player whose observations to replay: observations(player)"
            raise NotationError(msg)
        else:
            seat = player
        for _, state in _replay(self._setup, self._opening, self._steps):
            yield state.observation(seat)

    @property
    def final_observation(self) -> Observation:
        """The view's player's observation after the last action kept (view records).

        >>> from rummylib import new_game
        >>> state = new_game("carousel", players=3, seed=4)
        >>> loads(dumps(state, view=2)).final_observation == state.observation(2)
        True

        Raises:
            NotationError: the record is a host's record (use :attr:`final_state`).
        """
        if self.view is None:
            msg = "a host's record has a final state (Record.final_state), not one view"
            raise NotationError(msg)
        return self._final.observation(self.view)


# -- writing ------------------------------------------------------------------------------------


def _settings(variant: Variant) -> dict[str, object]:
    """The settings that differ from the variant's defaults, as TOML values."""
    defaults = type(variant)().settings()
    changed: dict[str, object] = {}
    for name, value in variant.settings().items():
        if value == defaults.get(name):
            continue
        if value is None:
            changed[name] = _NONE
        elif isinstance(value, tuple):
            changed[name] = list(value)
        else:
            changed[name] = value
    return changed


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


def _hide(cards: Sequence[Card], shown: bool) -> tuple[Card | None, ...]:
    return tuple(cards) if shown else (None,) * len(cards)


def _deal_lines(state: GameState, view: int | None) -> list[str]:
    lines = [_notation.format_dealer(DealerLine("deal", number=state.deal_number))]
    for seat, hand in enumerate(state.hands):
        if hand:
            cards = _hide(hand, view is None or view == seat)
            lines.append(_notation.format_dealer(DealerLine("hand", player=seat, cards=cards)))
    if state.open_card is not None:
        lines.append(_notation.format_dealer(DealerLine("open", cards=(state.open_card,))))
    if state.discard_pile:
        lines.append(_notation.format_dealer(DealerLine("pile", cards=state.discard_pile)))
    stock = _hide(state.stock, view is None)
    lines.append(_notation.format_dealer(DealerLine("stock", cards=stock)))
    return lines


def _result_comment(result: DealResult) -> str:
    points = ", ".join(f"p{seat + 1} {points:+d}" for seat, points in enumerate(result.points))
    ended = f": {result.ended_by}" if result.ended_by else ""
    return f"# deal {result.deal_number}{ended}; {points}"


def _action_lines(state: GameState, view: int | None) -> list[str]:
    """The ``actions`` of the record of ``state``: token lines and comment lines (``#``)."""
    current = new_game(state.variant, players=state.player_count, seed=state.seed, deck=state.deck)
    lines = _deal_lines(current, view)
    for action in state.history:
        after = current.apply(action)
        ends = len(after.deal_results) > len(current.deal_results) or (
            after.is_over and not current.is_over
        )
        if view is not None and ends:  # the count: every hand is shown
            for seat, hand in enumerate(current.hands):
                if hand and seat != view:
                    show = DealerLine("show", player=seat, cards=hand)
                    lines.append(_notation.format_dealer(show))
        drawn = None
        if isinstance(action, DrawStock) and (view is None or view == action.player):
            drawn = current.stock[0] if current.stock else None
        lines.append(_notation.format_action(action, drawn=drawn))
        lines.extend(
            _result_comment(result) for result in after.deal_results[len(current.deal_results) :]
        )
        if after.result is not None and current.result is None:
            winners = ", ".join(f"p{seat + 1}" for seat in after.result.winners)
            scores = ", ".join(map(str, after.result.scores))
            lines.append(f"# match over: won by {winners or 'nobody'}; scores {scores}")
        if after.shuffle_count > current.shuffle_count:
            if _is_new_deal(current, after, action):
                lines.extend(_deal_lines(after, view))
            else:
                stock = _hide(after.stock, view is None)
                restock = DealerLine("restock", cards=stock)
                lines.append(_notation.format_dealer(restock))
        current = after
    if current != state:
        msg = "cannot write a record of a state that its history does not reach from new_game"
        raise RummyError(msg)
    return lines


def _render_actions(lines: Sequence[str]) -> str:
    rendered = ["actions = ["]
    for line in lines:
        if line.startswith("#"):
            rendered.append(f"    {line}")
        else:
            rendered.append(f"    {tomli_w.dumps({'x': line})[4:].rstrip()},")
    rendered.append("]")
    return "\n".join(rendered) + "\n"


def dumps(
    state: GameState,
    *,
    view: int | None = None,
    names: Sequence[str] | None = None,
    metadata: Mapping[str, object] | None = None,
) -> str:
    """The record of the match that led to ``state``, as TOML text.

    Args:
        state: any state of a match started with :func:`~rummylib.state.new_game`.
        view: write the record as this player saw it: the other hands and the stock as
            ``??``, no seed (the cards players show at the count of a deal are written, as
            they are laid face up then). ``None``: the host's record of every card.
        names: the players' names, ``p1`` first.
        metadata: ``event``, ``site``, ``date``, ``table``, ``time_control`` and entries of
            your own whose names start with ``_``.

    >>> from rummylib import new_game
    >>> text = dumps(new_game("rummy101", players=2, seed=5), view=0)
    >>> print(text[text.index("actions") :], end="")
    actions = [
        "d deal 1",
        "d hand p1 7h 9c 4c 2h 8h 6h Jc Qh 2h Ks 4d 7d 5h",
        "d hand p2 ??x13",
        "d open Qd",
        "d stock ??x81",
    ]

    Raises:
        RummyError: ``state`` was not reached by play from :func:`~rummylib.state.new_game`,
            or a name or a metadata entry is not allowed.
    """
    if view is not None:
        _check_view_player(view, state.player_count)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": state.variant.name,
        "players": state.player_count,
    }
    if names is not None:
        header["names"] = list(_read_names(list(names), state.player_count))
    if view is None:
        header["seed"] = state.seed
        if state.deck is not None:
            header["deck"] = " ".join(map(str, state.deck))
    else:
        header["view"] = f"p{view + 1}"
    tables: dict[str, Any] = {}  # TOML tables come after the top-level entries
    for key, value in _read_metadata(dict(metadata or {})).items():
        (tables if isinstance(value, dict) else header)[key] = value
    settings = _settings(state.variant)
    if settings:
        tables["settings"] = settings
    lines = _action_lines(state, view)
    text = tomli_w.dumps(header) + _render_actions(lines)
    if tables:
        text += "\n" + tomli_w.dumps(tables)
    return text


def dump(
    state: GameState,
    file: str | os.PathLike[str] | IO[str],
    *,
    view: int | None = None,
    names: Sequence[str] | None = None,
    metadata: Mapping[str, object] | None = None,
) -> None:
    """Write the record of ``state`` (see :func:`dumps`) to a path or an open text file.

    A path is written whole or not at all: the file it names is replaced only once the whole
    record is written.

    >>> import io
    >>> from rummylib import new_game
    >>> file = io.StringIO()
    >>> dump(new_game("rummy500", players=2, seed=1), file)
    >>> file.getvalue().splitlines()[0]
    'format = "rummylib-record"'
    """
    text = dumps(state, view=view, names=names, metadata=metadata)
    if isinstance(file, str | os.PathLike):
        write_text(file, text)  # whole or not at all: an old record is never half replaced
    else:
        file.write(text)


# -- reading ------------------------------------------------------------------------------------


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


def _key_line(lines: Sequence[str], key: str, table: str | None = None) -> int:
    """The line (from 1) where ``key`` is set, else 1: for the messages about the header."""
    pattern = re.compile(rf"""\s*["']?{re.escape(key)}["']?\s*=""")
    dotted = (
        re.compile(rf"""\s*{re.escape(table)}\s*\.\s*{re.escape(key)}\s*=""") if table else None
    )
    in_table = table is None
    for number, text in enumerate(lines, 1):
        stripped = text.strip()
        if stripped.startswith("["):
            in_table = table is not None and stripped.strip("[] ") == table
            continue
        if dotted is not None and dotted.match(text):
            return number
        if in_table and pattern.match(text):
            return number
    return 1


_ARRAY_TOKEN: Final = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'  # a multi-line basic string
    r"|'''.*?'''"  # a multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"'  # a basic string
    r"|'[^'\n]*'"  # a literal string
    r"|#[^\n]*"  # a comment
    r"|\]|\n",  # the end of the array, a new line
    re.DOTALL,
)


def _element_lines(lines: Sequence[str], count: int) -> list[int]:
    """The line of each string of the top-level ``actions`` array, read off the text.

    :mod:`tomllib` gives no positions: this scans the array's strings (basic and literal,
    single- and multi-line) and comments. If the scan does not find ``count`` strings, every
    action is placed on the ``actions`` line.
    """
    start = _key_line(lines, "actions")
    text = "\n".join(lines[start - 1 :])
    found: list[int] = []
    line = start
    for match in _ARRAY_TOKEN.finditer(text, text.find("[") + 1):
        token = match.group()
        if token == "]":
            break
        if token[0] in "\"'":
            found.append(line)
        line += token.count("\n")
    return found if len(found) == count else [start] * count


def _parse_toml(text: object) -> tuple[dict[str, Any], list[str]]:
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            msg = f"line 1: a record is UTF-8 text ({error.reason} at byte {error.start})"
            raise NotationError(msg) from None
    if not isinstance(text, str):
        msg = f"line 1: expected the text of a record, not {type(text).__name__}"
        raise NotationError(msg)
    if len(text) > MAX_TEXT:
        msg = f"line 1: a record has at most {MAX_TEXT} characters, not {len(text)}"
        raise NotationError(msg)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"line (\d+)", message)
        line = int(match.group(1)) if match else 1
        msg = f"line {line}: not TOML: {shorten(message, limit=200)}"
        raise NotationError(msg) from None
    except RecursionError:
        msg = "line 1: not TOML: nested too deeply"
        raise NotationError(msg) from None
    return data, text.splitlines()


@attrs.frozen(kw_only=True)
class _Header:
    variant: Variant
    players: int
    names: tuple[str, ...] | None
    seed: int | None
    deck: tuple[Card, ...] | None
    view: int | None
    metadata: dict[str, object]
    actions: list[object]


class _Fail:
    """Errors about the header, each on the line of the entry it is about."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines

    def __call__(self, key: str, message: str, table: str | None = None) -> NotationError:
        return NotationError(f"line {_key_line(self.lines, key, table)}: {message}")


def _read_variant(data: dict[str, Any], fail: _Fail) -> Variant:
    """The variant with the record's settings (each bounded by the variant, R9)."""
    name = data["variant"]
    if not isinstance(name, str):
        raise fail("variant", f"variant must be a variant's name, not {shorten(name)}")
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        raise fail("settings", "settings must be a table of name = value")
    values: dict[str, object] = {}
    for key, value in settings.items():
        if isinstance(value, dict | datetime.date | datetime.time) or (
            isinstance(value, list) and any(isinstance(item, list | dict) for item in value)
        ):
            message = f"bad setting {key}: {shorten(value)} is no setting's value"
            raise fail(key, message, "settings")
        values[key] = None if value == _NONE else value
    try:
        return get_variant(name, **values)
    except RummyError as error:
        bad_key = next((key for key in settings if key in str(error)), None)
        if bad_key is None:
            raise fail("variant", str(error)) from None
        raise fail(bad_key, str(error), "settings") from None


def _read_view(data: dict[str, Any], players: int, fail: _Fail) -> int | None:
    if "view" not in data:
        return None
    text = data["view"]
    match = re.fullmatch(r"p([1-9][0-9]{0,2})", text) if isinstance(text, str) else None
    if match is None or int(match.group(1)) > players:
        raise fail("view", f"view must name a player, p1 to p{players}, not {shorten(text)}")
    if "seed" in data or "deck" in data:
        raise fail("view", "a player's view has no seed and no deck: they would show every card")
    return int(match.group(1)) - 1


def _read_deck(data: dict[str, Any], variant: Variant, players: int, fail: _Fail) -> Any:
    if "deck" not in data:
        return None
    text = data["deck"]
    if not isinstance(text, str) or len(text) > _notation.MAX_LINE:
        raise fail("deck", "deck must be the cards of the first deal's deck, as text")
    try:
        deck = parse_cards(text)
        new_game(variant, players=players, seed=_SEEDLESS, deck=deck)
    except RummyError as error:
        raise fail("deck", str(error)) from None
    return deck


def _header(data: dict[str, Any], lines: Sequence[str]) -> _Header:
    """Check everything above the actions, cheapest first, before a card is dealt."""
    fail = _Fail(lines)
    if data.get("format") != FORMAT:
        msg = f"format must be {FORMAT!r}, not {shorten(data.get('format'))}"
        raise fail("format", msg)
    version = data.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise fail("version", f"version must be {VERSION}, not {shorten(version)}")
    for key in ("variant", "players", "actions"):
        if key not in data:
            raise fail("format", f"a record needs {key!r}")
    metadata_entries = {
        key: value for key, value in data.items() if key not in _KNOWN_KEYS or key in METADATA_KEYS
    }
    try:
        metadata = _read_metadata(metadata_entries)
    except NotationError as error:
        key = next(iter(k for k in metadata_entries if not k.startswith("_")), "format")
        raise fail(key, str(error)) from None
    variant = _read_variant(data, fail)
    try:
        players = variant.check_players(data["players"])
    except RummyError as error:
        raise fail("players", str(error)) from None
    names = None
    if "names" in data:
        try:
            names = _read_names(data["names"], players)
        except NotationError as error:
            raise fail("names", str(error)) from None
    view = _read_view(data, players, fail)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise fail("seed", f"seed must be a whole number, not {shorten(seed)}")
    deck = _read_deck(data, variant, players, fail)
    actions = data["actions"]
    if not isinstance(actions, list):
        raise fail("actions", "actions must be a list of lines such as 'p1 draw stock'")
    if len(actions) > MAX_ACTIONS:
        raise fail("actions", f"a record has at most {MAX_ACTIONS} actions, not {len(actions)}")
    return _Header(
        variant=variant,
        players=players,
        names=names,
        seed=seed,
        deck=deck,
        view=view,
        metadata=metadata,
        actions=actions,
    )


def _parse_items(
    header: _Header, lines: Sequence[str]
) -> tuple[list[tuple[int, Item]], list[RecordError]]:
    numbers = _element_lines(lines, len(header.actions))
    rules = header.variant.meld_rules
    items: list[tuple[int, Item]] = []
    errors: list[RecordError] = []
    for number, entry in zip(numbers, header.actions, strict=True):
        if not isinstance(entry, str):
            errors.append(RecordError(number, f"an action is a line of text, not {shorten(entry)}"))
            continue
        try:
            item = _notation.parse_line(entry, rules=rules, players=header.players)
        except RummyError as error:
            errors.append(RecordError(number, str(error)))
            continue
        if header.view is None and isinstance(item, DealerLine) and None in item.cards:
            message = "a host's record shows every card: '??' belongs in a player's view"
            errors.append(RecordError(number, message))
            continue
        items.append((number, item))
    return items, errors


def _group(  # noqa: PLR0911, PLR0912, PLR0915  (one branch per kind of dealer line)
    items: Sequence[tuple[int, Item]], view: int | None
) -> tuple[_Block | None, list[_Step], RecordError | None]:
    """Gather the dealer lines into blocks around the actions; stop at the first misfit."""
    opening: _Block | None = None
    steps: list[_Step] = []
    shows: list[tuple[int, int, tuple[Card | None, ...]]] = []
    block: dict[str, Any] | None = None  # the block being read
    pending: _Step | None = None  # the last action, whose block may follow

    def close() -> _Block | None:
        nonlocal block
        if block is None:
            return None
        made = _Block(**block)
        block = None
        return made

    def flush() -> None:
        nonlocal pending, opening
        made = close()
        if pending is None:
            opening = made if made is not None else opening
        else:
            steps.append(attrs.evolve(pending, block=made))
            pending = None

    for number, item in items:
        if isinstance(item, ActionLine):
            flush()
            if (
                isinstance(item.action, DrawStock)
                and item.drawn is None
                and view == item.action.player
            ):
                message = f"in p{view + 1}'s view, p{view + 1}'s draws name the card drawn"
                return opening, steps, RecordError(number, message)
            pending = _Step(line=number, action=item.action, drawn=item.drawn, shows=tuple(shows))
            shows = []
            continue
        kind = item.kind
        if kind == "show":
            if None in item.cards:
                return (
                    opening,
                    steps,
                    RecordError(number, "cards shown at the count are not hidden"),
                )
            if item.player == view:
                message = "a player's own hand is not shown to them at the count"
                return opening, steps, RecordError(number, message)
            flush()
            assert item.player is not None
            shows.append((number, item.player, item.cards))
            continue
        if shows:
            return opening, steps, RecordError(number, "'d show' lines go just before an action")
        if kind in {"deal", "restock"}:
            if (
                block is not None
                or (pending is None and opening is not None)
                or (pending is None and steps)
            ):
                return opening, steps, RecordError(number, f"'d {kind}' must follow an action")
            if kind == "restock" and pending is None:
                return opening, steps, RecordError(number, "'d restock' must follow an action")
            block = {"line": number, "kind": kind, "number": item.number}
            if kind == "restock":
                block["stock"] = (number, item.cards)
            continue
        if block is None or block["kind"] != "deal":
            return opening, steps, RecordError(number, f"'d {kind}' belongs after 'd deal N'")
        if kind == "hand":
            if any(player == item.player for _, player, _ in block.get("hands", ())):
                return (
                    opening,
                    steps,
                    RecordError(number, f"p{(item.player or 0) + 1} is dealt twice"),
                )
            block["hands"] = (*block.get("hands", ()), (number, item.player, item.cards))
        else:
            field = {"open": "open_card", "pile": "pile", "stock": "stock"}[kind]
            if field in block:
                return opening, steps, RecordError(number, f"a deal has one 'd {kind}' line")
            block[field] = (number, item.cards[0]) if kind == "open" else (number, item.cards)
    if shows:
        return opening, steps, RecordError(shows[0][0], "'d show' lines go just before an action")
    flush()
    return opening, steps, None


def loads(text: str | bytes, *, strict: bool = True) -> Record:
    """Read a record and replay it through the rules.

    With ``strict=False`` a record with bad lines is kept up to its first bad line (the
    longest valid part), and :attr:`Record.errors` lists the problems with their lines: every
    line that cannot be read, and the first that the rules refuse. A record whose header
    (format, variant, settings, players, …) is bad cannot be kept in part: it raises whatever
    ``strict`` says.

    >>> from rummylib import new_game
    >>> text = dumps(new_game("rummy101", players=2, seed=5)).replace("seed = 5", "seed = 6")
    >>> loads(text)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: line 8: p1's hand is not the one dealt: the rules deal ...
    >>> loads(text, strict=False).errors[0].line
    8

    Raises:
        NotationError: the text is not a record, or (with ``strict``) a line of it is bad;
            the message starts with the line's number.
    """
    data, lines = _parse_toml(text)
    header = _header(data, lines)
    items, errors = _parse_items(header, lines)
    first_bad = min((error.line for error in errors), default=None)
    if first_bad is not None:
        items = [(number, item) for number, item in items if number < first_bad]
    opening, steps, misfit = _group(items, header.view)
    if misfit is not None:
        errors.append(misfit)
    setup = _Setup(
        variant=header.variant,
        players=header.players,
        seed=header.seed,
        deck=header.deck,
        view=header.view,
    )
    kept, final, deals, stop = _run(setup, opening, steps)
    if stop is not None:
        errors.append(RecordError(stop.line, stop.message))
    errors.sort(key=lambda error: error.line)
    if errors and strict:
        raise NotationError(str(errors[0]))
    return Record(
        variant=header.variant,
        players=header.players,
        names=header.names,
        seed=header.seed,
        deck=header.deck,
        view=header.view,
        metadata=MappingProxyType(header.metadata),
        errors=tuple(errors),
        deals=deals,
        setup=setup,
        opening=opening,
        steps=tuple(kept),
        final=final,
    )


def load(file: str | os.PathLike[str] | IO[str] | IO[bytes], *, strict: bool = True) -> Record:
    """Read a record (see :func:`loads`) from a path or an open file.

    >>> import io
    >>> from rummylib import new_game
    >>> load(io.StringIO(dumps(new_game("rummy500", players=2, seed=1)))).seed
    1
    >>> load("no/such/record.toml")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: cannot read no/such/record.toml: No such file or directory

    Raises:
        NotationError: the file cannot be read, or its text is not a valid record.
    """
    if isinstance(file, str | os.PathLike):
        try:
            text: str | bytes = Path(file).read_bytes()
        except OSError as error:
            msg = f"cannot read {os.fspath(file)}: {error.strerror or error}"
            raise NotationError(msg) from None
    else:
        text = file.read()
    return loads(text, strict=strict)


# -- replaying ----------------------------------------------------------------------------------


@attrs.define
class _DealSoFar:
    number: int
    first_line: int
    last_line: int
    actions: list[Action] = attrs.Factory(list)
    result: DealResult | None = None

    def close(self, scores: tuple[int, ...]) -> Deal:
        return Deal(
            number=self.number,
            first_line=self.first_line,
            last_line=self.last_line,
            actions=tuple(self.actions),
            result=self.result,
            scores=scores,
        )


def _run(
    setup: _Setup, opening: _Block | None, steps: Sequence[_Step]
) -> tuple[list[_Step], GameState, tuple[Deal, ...], _Stop | None]:
    """Replay every step; return the steps kept, the last state, the deals, and the stop."""
    kept: list[_Step] = []
    deals: list[Deal] = []
    replay = _replay(setup, opening, steps)
    try:
        _, state = next(replay)
    except _Stop as stop:
        return [], new_game(setup.variant, players=setup.players, seed=_SEEDLESS), (), stop
    first = opening.line if opening is not None else (steps[0].line if steps else 1)
    deal = _DealSoFar(state.deal_number, first, first)
    halt: _Stop | None = None
    while True:
        try:
            step, after = next(replay)
        except StopIteration:
            break
        except _Stop as error:
            halt = error
            break
        assert step is not None
        kept.append(step)
        deal.actions.append(step.action)
        deal.last_line = step.line
        if len(after.deal_results) > len(state.deal_results) and deal.result is None:
            deal.result = after.deal_results[len(state.deal_results)]
        if _starts_deal(state, after, step):
            deals.append(deal.close(after.scores))
            line = step.block.line if step.block is not None else step.line
            deal = _DealSoFar(after.deal_number, line, line)
        state = after
    if deal.actions or deal.result is not None or not deals or not state.is_over:
        deals.append(deal.close(state.scores))
    return kept, state, tuple(deals), halt


def _starts_deal(before: GameState, after: GameState, step: _Step) -> bool:
    if step.block is not None:
        return step.block.kind == "deal"
    return after.shuffle_count > before.shuffle_count and _is_new_deal(before, after, step.action)


def _replay(
    setup: _Setup, opening: _Block | None, steps: Sequence[_Step]
) -> Iterator[tuple[_Step | None, GameState]]:
    """The states of a record: ``(None, start)``, then ``(step, state after it)``.

    Raises:
        _Stop: a line the rules refuse, or that does not agree with the replay.
    """
    if setup.view is not None:
        yield from _Completion(setup, opening, steps).run()
        return
    state = _start(setup, opening)
    yield None, state
    for step in steps:
        for line, seat, cards in step.shows:
            if Counter(state.hands[seat]) != Counter(card for card in cards if card is not None):
                raise _Stop(line, f"p{seat + 1} does not hold these cards")
        state = _apply(state, step, seedless=setup.seed is None)
        yield step, state


def _start(setup: _Setup, opening: _Block | None) -> GameState:
    line = opening.line if opening is not None else 1
    if setup.seed is not None or setup.deck is not None:
        seed = _SEEDLESS if setup.seed is None else setup.seed
        state = new_game(setup.variant, players=setup.players, seed=seed, deck=setup.deck)
    else:
        if opening is None:
            raise _Stop(1, "a record without a seed starts with the lines of the first deal")
        trial = new_game(setup.variant, players=setup.players, seed=_SEEDLESS)
        deck = _stacked_deck(trial, opening)
        try:
            state = new_game(setup.variant, players=setup.players, seed=_SEEDLESS, deck=deck)
        except RummyError as error:
            raise _Stop(line, f"the first deal's cards are not the deck: {error}") from None
    if opening is not None:
        _check_block(state, opening)
    return state


def _apply(state: GameState, step: _Step, *, seedless: bool) -> GameState:
    """The state after ``step``; with ``seedless`` its dealer lines say how the cards lie."""
    action = step.action
    try:
        state.verify(action)
    except RummyError as error:
        raise _Stop(step.line, str(error)) from None
    if step.drawn is not None and (not state.stock or state.stock[0] != step.drawn):
        top = state.stock[0] if state.stock else "nothing"
        message = f"p{action.player + 1} draws {top} from the stock, not {step.drawn}"
        raise _Stop(step.line, message)
    block = step.block
    if block is not None and block.kind == "deal" and seedless:
        trial = state.apply(action)
        if trial.shuffle_count == state.shuffle_count:
            raise _Stop(block.line, "the record deals here, but the rules deal no new cards")
        after = _apply_stacked(state, action, _stacked_deck(trial, block), block)
    else:
        after = state.apply(action)
    shuffled = after.shuffle_count > state.shuffle_count
    if block is None:
        if shuffled and seedless:
            message = (
                "the rules shuffle after this action, and a record without a seed must say how "
                "the cards lie: add the 'd deal' or 'd restock' lines"
            )
            raise _Stop(step.line, message)
        return after
    if not shuffled:
        raise _Stop(block.line, "the record shuffles here, but the rules do not")
    if _is_new_deal(state, after, action) != (block.kind == "deal"):
        what = "a new deal" if block.kind == "deal" else "a new stock"
        raise _Stop(block.line, f"the record has {what} here, but the rules do otherwise")
    if block.kind == "restock" and seedless and not block.has_hidden():
        after = _restock(after, block)
    _check_block(after, block)
    return after


def _stacked_deck(after: GameState, block: _Block) -> tuple[Card, ...]:
    """The deck that deals ``block``: hands round-robin from the first player, then the rest.

    ``after`` is any state just after the deal (it says who deals and who is in). The deck
    is checked by dealing it: the engine deals one card at a time from the player after the
    dealer, then turns up the face-up cards, and the rest is the stock, top first.
    """
    hands = {seat: cards for _, seat, cards in block.hands}
    first = next_player(after.players_in, after.dealer)
    at = after.players_in.index(first)
    seats = [seat for seat in after.players_in[at:] + after.players_in[:at] if seat in hands]
    extra = sorted(set(hands) - set(seats))
    if extra:
        raise _Stop(block.line, f"p{extra[0] + 1} is not dealt in")
    sizes = {len(hands[seat]) for seat in seats}
    if len(sizes) > 1:
        raise _Stop(block.line, "every hand of a deal holds the same number of cards")
    size = sizes.pop() if sizes else 0
    if block.stock is None:
        raise _Stop(block.line, "a deal without a seed needs its 'd stock' line")
    cards: list[Card | None] = [hands[seat][index] for index in range(size) for seat in seats]
    if block.open_card is not None:
        cards.append(block.open_card[1])
    if block.pile is not None:
        cards.extend(block.pile[1])
    cards.extend(block.stock[1])
    if None in cards:
        raise _Stop(block.line, "a deal without a seed shows every card")
    return tuple(card for card in cards if card is not None)


def _apply_stacked(
    state: GameState, action: Action, deck: tuple[Card, ...], block: _Block
) -> GameState:
    """``state.apply(action)`` with the new deal dealt from ``deck``.

    The engine deals a stacked deck for the first shuffle of a match only, so the state is
    given the deck as if no shuffle had happened yet, and the match's own deck and count of
    shuffles are put back after. The caller checks the deal against the record.
    """
    if Counter(deck) != Counter(state.variant.deck_for(state.player_count)):
        raise _Stop(block.line, f"the cards of deal {block.number} are not the deck")
    staged = state.replace(deck=deck, shuffle_count=0)
    after = staged.apply(action)
    return after.replace(deck=state.deck, shuffle_count=state.shuffle_count + after.shuffle_count)


def _restock(state: GameState, block: _Block) -> GameState:
    assert block.stock is not None
    cards = tuple(card for card in block.stock[1] if card is not None)
    if Counter(cards) != Counter(state.stock):
        raise _Stop(block.line, "the new stock is not the cards that were shuffled")
    return state.replace(stock=cards)


def _differs(line: int, what: str, found: Sequence[Card], written: Sequence[Card | None]) -> None:
    if len(found) != len(written) or any(
        card is not None and card != seen for card, seen in zip(written, found, strict=True)
    ):
        shown = _notation.format_cards(found[:13]) + (" …" if len(found) > 13 else "")
        raise _Stop(line, f"{what} is not the one dealt: the rules deal {shown or 'none'}")


def _check_block(state: GameState, block: _Block) -> None:
    """Raise unless the dealer lines describe ``state`` (hidden cards match anything)."""
    if block.kind == "deal" and block.number != state.deal_number:
        raise _Stop(block.line, f"this is deal {state.deal_number}, not deal {block.number}")
    for line, seat, cards in block.hands:
        _differs(line, f"p{seat + 1}'s hand", state.hands[seat], cards)
    if block.open_card is not None:
        line, card = block.open_card
        if state.open_card is None or (card is not None and card != state.open_card):
            raise _Stop(line, f"the open card is {state.open_card or 'none'}")
    elif block.kind == "deal" and state.open_card is not None:
        raise _Stop(block.line, f"the deal turns an open card, {state.open_card}")
    if block.pile is not None:
        _differs(block.pile[0], "the discard pile", state.discard_pile, block.pile[1])
    elif block.kind == "deal" and state.discard_pile:
        raise _Stop(block.line, "the deal starts a discard pile: add its 'd pile' line")
    if block.stock is not None:
        _differs(block.stock[0], "the stock", state.stock, block.stock[1])


# -- a player's view: completing the hidden cards -----------------------------------------------


def _played(action: Action, table: Sequence[Meld]) -> Counter[Card]:
    """The cards ``action`` needs from its player's hand: the cards it names.

    Each card field of its declaration (not a card it declares a joker to stand for) and each
    card of its melds; a :class:`~rummylib.actions.Rearrange` needs the cards its new table
    adds.
    """
    if isinstance(action, Rearrange):
        new = Counter(card for meld in action.table for card in meld.cards)
        return new - Counter(card for meld in table for card in meld.cards)
    needed: Counter[Card] = Counter()
    for field, codec in spec_of(type(action)).codecs:
        value = getattr(action, field)
        if codec is Codec.CARD:
            needed[value] += 1
        elif codec is Codec.MELDS:
            needed.update(card for meld in value for card in meld.cards)
    return needed


class _Completion:
    """Replays a view record with its hidden cards filled in.

    Each deal starts from cards consistent with the view (the viewer's hand and the face-up
    cards as written; the hidden places filled with the rest of the deck in canonical order).
    Whenever a line needs a card that the completion put in another hidden place (another
    player plays it, the viewer draws it, a hand is shown at the count), the two hidden cards
    change places. Hidden places are the stock and the cards of the other hands the viewer
    has not seen; the viewer's observations never show them, so swapping them changes
    nothing the viewer saw.
    """

    def __init__(self, setup: _Setup, opening: _Block | None, steps: Sequence[_Step]) -> None:
        self.setup = setup
        self.opening = opening
        self.steps = steps
        assert setup.view is not None
        self.view: int = setup.view
        #: The cards of each hand the viewer knows of (taken face up, shown).
        self.known: list[Counter[Card]] = [Counter() for _ in range(setup.players)]

    def run(self) -> Iterator[tuple[_Step | None, GameState]]:
        record = self.setup
        if self.opening is None:
            raise _Stop(1, "a player's view starts with the lines of the first deal")
        trial = new_game(record.variant, players=record.players, seed=_SEEDLESS)
        block = self._complete(trial, self.opening)
        try:
            state = new_game(
                record.variant,
                players=record.players,
                seed=_SEEDLESS,
                deck=_stacked_deck(trial, block),
            )
        except RummyError as error:
            raise _Stop(block.line, f"the first deal's cards are not the deck: {error}") from None
        _check_block(state, self.opening)
        yield None, state
        for index, step in enumerate(self.steps):
            state = self._step(state, index)
            yield step, state

    def _complete(self, after: GameState, block: _Block) -> _Block:
        """``block`` with its hidden cards filled from the rest of the deck."""
        deck = Counter(after.variant.deck_for(after.player_count))
        shown: list[Card] = [card for _, _, hand in block.hands for card in hand if card]
        if block.open_card is not None and block.open_card[1] is not None:
            shown.append(block.open_card[1])
        for zone in (block.pile, block.stock):
            if zone is not None:
                shown.extend(card for card in zone[1] if card is not None)
        if Counter(shown) - deck:
            raise _Stop(block.line, "the deal shows cards that are not in the deck")
        points = after.variant.card_points
        unseen = (deck - Counter(shown)).elements()
        # High cards first: the other hands are then unlikely to qualify by chance for a
        # rule that looks at their points (a knock); the viewer's draws are swapped in anyway.
        rest = iter(sorted(unseen, key=lambda card: (-points.of(card), card.index)))

        def fill(cards: tuple[Card | None, ...]) -> tuple[Card | None, ...]:
            return tuple(next(rest, None) if card is None else card for card in cards)

        hands = tuple((line, seat, fill(cards)) for line, seat, cards in block.hands)
        stock = None if block.stock is None else (block.stock[0], fill(block.stock[1]))
        pile = None if block.pile is None else (block.pile[0], fill(block.pile[1]))
        completed = attrs.evolve(block, hands=hands, stock=stock, pile=pile)
        if next(rest, None) is not None or completed.has_hidden():
            raise _Stop(block.line, "the deal's lines do not account for every card of the deck")
        return completed

    # -- swapping hidden cards ----------------------------------------------------------------

    def _hidden(self, state: GameState, seat: int) -> Counter[Card]:
        return Counter(state.hands[seat]) - self.known[seat]

    def _take(
        self, state: GameState, card: Card, *, avoid: int, stock_from: int = 0
    ) -> tuple[str, int, int] | None:
        """A hidden place holding ``card``: ("stock", index, 0) or ("hand", seat, index)."""
        for index in range(stock_from, len(state.stock)):
            if state.stock[index] == card:
                return ("stock", index, 0)
        for seat in range(state.player_count):
            if seat in {avoid, self.view} or not self._hidden(state, seat)[card]:
                continue
            return ("hand", seat, state.hands[seat].index(card))
        return None

    @staticmethod
    def _swap(
        state: GameState, first: tuple[str, int, int], second: tuple[str, int, int]
    ) -> GameState:
        hands = [list(hand) for hand in state.hands]
        stock = list(state.stock)

        def get(place: tuple[str, int, int]) -> Card:
            return stock[place[1]] if place[0] == "stock" else hands[place[1]][place[2]]

        def put(place: tuple[str, int, int], card: Card) -> None:
            if place[0] == "stock":
                stock[place[1]] = card
            else:
                hands[place[1]][place[2]] = card

        one, two = get(first), get(second)
        put(first, two)
        put(second, one)
        return state.replace(hands=tuple(map(tuple, hands)), stock=tuple(stock))

    def _give(
        self,
        state: GameState,
        seat: int,
        wanted: Counter[Card],
        line: int,
        *,
        keep: Counter[Card],
        strict: bool = True,
    ) -> GameState:
        """Make ``seat`` hold ``wanted`` by swapping hidden cards in; raise if it cannot.

        The cards given away are those beyond ``wanted``, ``keep`` and what the viewer knows
        the player holds.
        """
        missing = wanted - Counter(state.hands[seat])
        for card in missing.elements():
            spare = Counter(state.hands[seat]) - (wanted | keep | self.known[seat])
            place = self._take(state, card, avoid=seat)
            if not strict and (not spare or place is None):
                continue
            if not spare:
                raise _Stop(line, f"p{seat + 1} cannot hold {card} here")
            if place is None:
                raise _Stop(line, f"no hidden {card} is left for p{seat + 1} to hold")
            giving = min(spare, key=lambda each: each.index)
            mine = ("hand", seat, state.hands[seat].index(giving))
            state = self._swap(state, mine, place)
        return state

    def _turn(self, index: int) -> Iterator[Counter[Card]]:
        """The cards the player of step ``index`` plays or shows before drawing again.

        Yields the cards needed so far after each later line of that player, up to their next
        draw (or the next deal): the rules may look ahead (a discard taken must be melded
        at once; a knock counts the cards still to be laid), and a player cannot play a card
        before getting it.
        """
        seat = self.steps[index].action.player
        needed: Counter[Card] = Counter()
        for position in range(index + 1, min(len(self.steps), index + 1 + _LOOKAHEAD)):
            later = self.steps[position]
            for _, shower, cards in later.shows:
                if shower == seat:
                    needed += Counter(card for card in cards if card is not None)
                    yield needed
            action = later.action
            if action.player == seat:
                if action.takes_cards:
                    return
                if not isinstance(action, Rearrange):
                    needed += _played(action, ())
                    yield needed
            if later.block is not None and later.block.kind == "deal":
                return

    def _step(self, state: GameState, index: int) -> GameState:
        step = self.steps[index]
        action = step.action
        for line, seat, cards in step.shows:
            shown = Counter(card for card in cards if card is not None)
            if sum(shown.values()) != len(state.hands[seat]):
                raise _Stop(line, f"p{seat + 1} holds {len(state.hands[seat])} cards, not these")
            if self.known[seat] - shown:
                raise _Stop(line, f"p{seat + 1} is known to hold other cards")
            state = self._give(state, seat, shown, line, keep=Counter())
            self.known[seat] = shown
        if action.player != self.view:
            state = self._prepare_other(state, index)
        elif isinstance(action, DrawStock) and step.drawn is not None:
            state = self._prepare_draw(state, step.drawn, step.line)
        block = step.block
        if block is None or block.kind != "deal":
            after = _apply(state, attrs.evolve(step, shows=()), seedless=False)
            self._follow(state, after, action)
            return after
        try:
            state.verify(action)
        except RummyError as error:
            raise _Stop(step.line, str(error)) from None
        trial = state.apply(action)
        if trial.shuffle_count == state.shuffle_count:
            raise _Stop(block.line, "the record deals here, but the rules deal no new cards")
        completed = self._complete(trial, block)
        after = _apply_stacked(state, action, _stacked_deck(trial, completed), block)
        _check_block(after, block)
        self.known = [Counter() for _ in range(self.setup.players)]
        return after

    def _prepare_other(self, state: GameState, index: int) -> GameState:
        """Give another player the cards their action, and the rest of their turn, need."""
        step = self.steps[index]
        action = step.action
        seat = action.player
        needs = _played(action, state.table)
        state = self._give(state, seat, needs, step.line, keep=Counter())
        taken: Counter[Card] = Counter()
        if isinstance(action, TakeDiscard):
            taken = Counter(state.discard_pile[-action.count :])
        elif action.takes_cards and not isinstance(action, DrawStock):
            card = state.variant.card_taken(state.observation(seat), action)
            taken = Counter() if card is None else Counter([card])
        turn: Counter[Card] = Counter()
        for later in self._turn(index):  # the rules may look ahead: "can it be melded?"
            state = self._give(state, seat, later - taken, step.line, keep=needs, strict=False)
            turn = later
        if taken and not self._plays_on(state, index):
            state = self._to_take(state, index, needs | taken | turn)
        return state

    def _plays_on(self, state: GameState, index: int) -> bool:
        """Whether step ``index`` and the rest of its player's turn as written are legal."""
        seat = self.steps[index].action.player
        for later in self.steps[index:]:
            if later.action.player != seat or later.block is not None:
                break
            if not state.is_legal(later.action):
                return False
            state = state.apply(later.action)
        return True

    def _to_take(self, state: GameState, index: int, keep: Counter[Card]) -> GameState:
        """Give the taker one or two hidden cards so that the take and its turn are legal.

        For a record that does not show what the rules ask of the taker (it ends before the
        taker melds the card taken, say). Searched in card order, single cards first: any
        answer will do, for no line of the record says more about the hidden hand.
        """
        step = self.steps[index]
        seat = step.action.player
        others = [s for s in range(state.player_count) if s not in {seat, self.view}]
        hidden = (card for other in others for card in self._hidden(state, other).elements())
        pool = sorted({*state.stock, *hidden}, key=lambda card: card.index)
        for size in (1, 2):
            for cards in itertools.combinations(pool, size):
                trial = self._give(state, seat, Counter(cards), step.line, keep=keep, strict=False)
                if self._plays_on(trial, index):
                    return trial
        return state

    def _prepare_draw(self, state: GameState, drawn: Card, line: int) -> GameState:
        """Put the card the viewer draws on top of the stock."""
        if not state.stock or state.stock[0] == drawn:
            return state
        place = self._take(state, drawn, avoid=self.view, stock_from=1)
        if place is None:
            raise _Stop(line, f"no hidden {drawn} is left for p{self.view + 1} to draw")
        return self._swap(state, ("stock", 0, 0), place)

    def _follow(self, before: GameState, after: GameState, action: Action) -> None:
        """Keep :attr:`known` up to date: cards taken face up are known, cards played are not."""
        for seat in range(after.player_count):
            if seat == self.view:
                continue
            gone = Counter(before.hands[seat]) - Counter(after.hands[seat])
            came = Counter(after.hands[seat]) - Counter(before.hands[seat])
            self.known[seat] -= gone
            if seat == action.player and not isinstance(action, DrawStock):
                self.known[seat] += came
            if seat == action.player and action.shows_hand:
                field = spec_of(type(action)).melds
                melds: tuple[Meld, ...] = () if field is None else getattr(action, field)
                shown: Counter[Card] = Counter(card for meld in melds for card in meld.cards)
                self.known[seat] = (self.known[seat] | shown) & Counter(after.hands[seat])
