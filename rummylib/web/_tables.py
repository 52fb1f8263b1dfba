"""The tables of a web server: each one a host of one match, kept on disk as it goes.

A :class:`Table` is the host loop of ``docs/howto/game-server.rst`` for the web: moves come
from the seats' sockets (each checked with :meth:`GameState.verify
<rummylib.state.GameState.verify>`), bots move for their seats, a closed socket makes its
seat *offline* (``Disconnect`` where the variant has that host event) and the engine's
:meth:`~rummylib.state.GameState.auto_action` plays for it, and a turn clock that runs out is
reported as ``TimeExpired``. Time is a number passed in (``now``): the server passes its event
loop's clock, the tests pass their own.

A :class:`Lobby` holds the tables (at most ``max_tables`` open, at most ``max_finished``
finished ones kept in memory), writes each table's record after every step
(:class:`~rummylib.web._journal.Journal`) and, started again on the same folder, restores
the open tables from their records. A seat's secret is never written: the folder holds its
SHA-256 digest only, beside the record (``<table>.seats.json``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import re
import secrets
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from rummylib import _words, records
from rummylib._files import write_text
from rummylib._notation import ActionLine, format_action, parse_line
from rummylib.actions import Action, Disconnect, Reconnect, TimeExpired
from rummylib.bots import Bot, GreedyBot, RandomBot
from rummylib.cards import Card
from rummylib.engine import Variant, player_name
from rummylib.errors import IllegalActionError, RummyError
from rummylib.melds import Meld
from rummylib.registry import VARIANTS, get_variant
from rummylib.state import GameState, new_game
from rummylib.tiles import CARD_NOTATION, Notation
from rummylib.web._journal import Journal

__all__ = ["BOTS", "Lobby", "Seat", "Table", "WebError"]

log = logging.getLogger("rummylib.web")

#: The bots a seat can be given, by name: each takes the seed of its seat.
BOTS: Final[Mapping[str, Callable[[int], Bot]]] = {
    "greedy": lambda seed: GreedyBot(),
    "random": RandomBot,
}

#: Table ids are 12 URL-safe characters; anything else is refused before a file is named.
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{12}")
#: The longest seat name.
MAX_SEAT_NAME: Final = 40
#: The longest move text a browser may send.
MAX_MOVE: Final = 2000
#: The most moves one step plays without a person (bots, auto-play) before it yields.
MAX_CHAIN: Final = 5000
#: The most lines of the recent-moves log kept for a table.
LOG_LINES: Final = 40
#: The most legal moves listed to a browser (a longer list is cut; any legal move typed in
#: is still accepted).
MAX_LISTED: Final = 400


class WebError(RummyError, ValueError):
    """A request the server refuses: the message says why, and goes back to the browser."""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@attrs.frozen(kw_only=True)
class Seat:
    """One seat: a person (who holds the secret whose digest is kept) or a bot."""

    kind: str  # "person" or "bot"
    name: str
    bot: str | None = None
    token_digest: str | None = None

    def to_json(self) -> dict[str, object]:
        """The seat as the sidecar file keeps it."""
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_sha256": self.token_digest,
        }

    @classmethod
    def from_json(cls, data: object) -> Seat:
        """A seat read back from the sidecar file; its entries are checked."""
        if not isinstance(data, dict):
            msg = "a seat is a table of entries"
            raise WebError(msg)
        kind, name = data.get("kind"), data.get("name")
        bot, digest = data.get("bot"), data.get("token_sha256")
        if kind == "bot":
            if bot not in BOTS:
                msg = f"unknown bot {bot!r}"
                raise WebError(msg)
            digest = None
        elif kind == "person":
            if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
                msg = "a person's seat needs its secret's digest"
                raise WebError(msg)
            bot = None
        else:
            msg = f"bad seat kind {kind!r}"
            raise WebError(msg)
        return cls(kind=kind, name=_checked_name(name), bot=bot, token_digest=digest)


def _checked_name(name: object) -> str:
    if not isinstance(name, str) or not 0 < len(name) <= MAX_SEAT_NAME or not name.isprintable():
        msg = f"a seat's name is printable text of 1 to {MAX_SEAT_NAME} characters, not {name!r}"
        raise WebError(msg)
    return name


def _json_value(value: object) -> object:
    """A public fact or a setting as JSON: numbers, text, lists; anything else as text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list | frozenset | set):
        return [_json_value(item) for item in value]
    return str(value)


def action_cards(action: Action, notation: Notation = CARD_NOTATION) -> list[str]:
    """The cards a move names (its card fields and the cards of its melds), in ``notation``."""
    name = notation.card
    found: list[str] = []
    for field in attrs.fields(type(action)):
        value = getattr(action, field.name)
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, Card):
                found.append(name(item))
            elif isinstance(item, Meld):
                found.extend(name(card) for card in item.cards)
    return found


class Table:
    """One match, its seats, who is online, its clock and its record.

    Args:
        table_id: the table's public id.
        journal: the record, holding the current state.
        seats: one per player.
        reconnect_grace: seconds a closed socket's seat waits before auto-play takes over.
    """

    def __init__(
        self,
        table_id: str,
        journal: Journal,
        seats: Sequence[Seat],
        *,
        reconnect_grace: float = 0.0,
    ) -> None:
        self.id = table_id
        self.journal = journal
        self.seats = tuple(seats)
        self.reconnect_grace = reconnect_grace
        seed = journal.state.seed or 0
        self.bots: dict[int, Bot] = {
            seat: BOTS[spec.bot](seed + seat)
            for seat, spec in enumerate(self.seats)
            if spec.kind == "bot" and spec.bot is not None
        }
        self.connected: set[int] = set()
        self.offline: dict[int, float] = {}  # seat -> when auto-play may start for it
        self.clock_number: int | None = None
        self.clock_deadline: float | None = None
        self.recent: deque[Action] = deque(maxlen=LOG_LINES)
        self.unsaved = False  # moves applied since the record was last written

    # -- reading ------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The match as it stands."""
        return self.journal.state

    @property
    def variant(self) -> Variant:
        """The table's variant and settings."""
        return self.journal.state.variant

    def seat_of(self, token: object) -> int | None:
        """The person's seat whose secret is ``token``, or ``None``."""
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            return None
        digest = _digest(token)
        found = None
        for seat, spec in enumerate(self.seats):
            if spec.token_digest is not None and hmac.compare_digest(spec.token_digest, digest):
                found = seat
        return found

    def next_deadline(self, now: float | None = None) -> float | None:
        """When :meth:`advance` has something to do next without a move (a clock, a grace).

        With ``now``, a grace that has run out already is no deadline: its seat is played
        for whenever it is to act, by the :meth:`advance` that follows each move.
        """
        times = [
            when
            for seat, when in self.offline.items()
            if self.connected and seat not in self.connected and (now is None or when > now)
        ]
        if self.clock_deadline is not None:
            times.append(self.clock_deadline)
        return min(times) if times else None

    # -- changing -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        self.journal.add(action)
        self.recent.append(action)
        self.unsaved = True

    def move(self, seat: int, text: object, now: float) -> None:
        """A person's move, as the text of a legal move (``discard Kd``).

        Raises:
            WebError: the text is not a move of this seat, or the move is illegal now.
        """
        if not isinstance(text, str) or not 0 < len(text) <= MAX_MOVE:
            msg = f"a move is text of 1 to {MAX_MOVE} characters"
            raise WebError(msg)
        state = self.state
        if state.is_over:
            msg = "the match is over"
            raise WebError(msg)
        completed = _words.complete_move(state, text, seat)  # 'draw' for 'draw stock'
        if completed is not None:
            self._apply(completed)
            self.advance(now)
            return
        try:
            item = parse_line(
                f"p{seat + 1} {text}",
                rules=state.meld_rules,
                players=state.player_count,
                notation=state.variant.notation,
            )
        except RummyError as error:
            raise WebError(str(error)) from None
        if not isinstance(item, ActionLine) or item.action.player != seat:
            msg = f"{text!r} is not a move of yours"
            raise WebError(msg)
        action = item.action
        if isinstance(action, TimeExpired | Disconnect | Reconnect):
            msg = f"{text!r} is the host's event, not a move"
            raise WebError(msg)
        try:
            state.verify(action)
        except IllegalActionError as error:
            raise WebError(str(error)) from None
        self._apply(action)
        self.advance(now)

    def _host_event(self, action: Action) -> None:
        if type(action) in type(self.variant).host_events and self.state.is_legal(action):
            self._apply(action)

    def connect(self, seat: int, now: float) -> None:
        """A socket for ``seat`` opened."""
        self.connected.add(seat)
        if self.offline.pop(seat, None) is not None and not self.state.is_over:
            self._host_event(Reconnect(player=seat))
        self.advance(now)

    def disconnect(self, seat: int, now: float) -> None:
        """The socket of ``seat`` closed: after the grace, the engine plays for it."""
        self.connected.discard(seat)
        if self.state.is_over or seat in self.offline:
            return
        self.offline[seat] = now + self.reconnect_grace
        self._host_event(Disconnect(player=seat))
        self.advance(now)

    def _absent(self, now: float) -> list[int]:
        if not self.connected:  # nobody is at the table: it waits instead of playing itself
            return []
        return [
            seat
            for seat, when in self.offline.items()
            if seat not in self.connected and when <= now
        ]

    def _substitute(self, now: float) -> Action | None:
        """The move a bot or auto-play makes now, or ``None`` while a person must act."""
        state = self.state
        to_act = state.to_act
        absent = [seat for seat in self._absent(now) if seat in to_act]
        if absent:
            action = state.auto_action()
            if action.player not in absent:  # the engine answered for someone present
                action = state.legal_actions(absent[0])[0]
            return action
        for seat in to_act:
            bot = self.bots.get(seat)
            if bot is not None:
                return bot.choose(state.observation(seat))
        return None

    def advance(self, now: float) -> bool:
        """Play for bots and absent seats, and report clocks run out; whether anything moved."""
        moved = False
        for _ in range(MAX_CHAIN):
            if self.state.is_over:
                break
            action = self._substitute(now)
            if action is None:
                clock = self.state.turn_clock()
                if clock is None:
                    self.clock_number = self.clock_deadline = None
                    break
                if clock.number != self.clock_number:
                    self.clock_number = clock.number
                    self.clock_deadline = now + clock.total_seconds
                if self.clock_deadline is None or now < self.clock_deadline:
                    break
                action = TimeExpired(player=clock.players[0])
                if not self.state.is_legal(action):  # a variant without the event: auto-play
                    action = self.state.auto_action()
            self._apply(action)
            moved = True
        if self.state.is_over:
            self.clock_number = self.clock_deadline = None
        if self.unsaved:  # before anyone is told of the moves
            self.journal.write()
            self.unsaved = False
        return moved

    # -- what a seat sees ---------------------------------------------------------------------

    def view(self, seat: int, now: float) -> dict[str, Any]:
        """The ``state`` message for ``seat``: its own observation only, and its moves."""
        state = self.state
        seen = state.observation(seat)
        notation = state.variant.notation
        name = notation.card
        prefix = f"p{seat + 1} "
        moves = [
            {
                "text": format_action(action, notation=notation).removeprefix(prefix),
                "kind": action.kind,
                "cards": action_cards(action, notation),
            }
            for action in seen.legal_actions[:MAX_LISTED]
        ]
        clock = None
        if self.clock_deadline is not None and not state.is_over:
            turn = state.turn_clock()
            clock = {
                "players": list(turn.players) if turn else [],
                "seconds_left": max(0.0, round(self.clock_deadline - now, 1)),
            }
        recent = [
            format_action(
                action,
                face_down=action.player != seat and type(action).face_down is not None,
                notation=notation,
            )
            for action in self.recent
        ]
        result = None
        if state.result is not None:
            result = {
                "winners": list(state.result.winners),
                "scores": list(state.result.scores),
                "payouts": list(state.result.payouts),
                "lines": [str(line) for line in state.result.lines],
            }
        return {
            "type": "state",
            "seq": len(state.history),
            "seat": seat,
            "names": [spec.name for spec in self.seats],
            "kinds": [spec.kind for spec in self.seats],
            "online": [
                spec.kind == "bot" or index in self.connected
                for index, spec in enumerate(self.seats)
            ],
            "variant": state.variant.name,
            "title": state.variant.title or state.variant.name,
            # "card" or "tile" (Rummikub): how the cards below are written and drawn
            "notation": notation.noun,
            # the page's words for this variant (Rummikub: tiles, a rack, the pool, sets)
            "words": {
                "card": notation.noun,
                "meld": notation.meld_noun,
                "stock": notation.stock,
                "hand": notation.hand,
                "rank": notation.rank,
                "suit": notation.suit,
            },
            # whether the variant has a discard pile at all (Carousel and Rummikub have none)
            "discards": _words.has_discard_pile(type(state.variant)),
            "observation": {
                "hand": [name(card) for card in seen.hand],
                "hand_sizes": list(seen.hand_sizes),
                "stock_size": seen.stock_size,
                "discard_pile": [name(card) for card in seen.discard_pile],
                "aside": [name(card) for card in seen.aside],
                "aside_label": seen.variant.aside_label,
                "hidden_count": seen.hidden_count,
                "table": [notation.meld(meld) for meld in seen.table],
                "scores": list(seen.scores),
                "players_in": list(seen.players_in),
                "phase": seen.phase.value,
                "current_player": seen.current_player,
                "to_act": list(seen.to_act),
                "deal_number": seen.deal_number,
                "dealer": seen.dealer,
                "public": {name: _json_value(value) for name, value in seen.public},
            },
            # the variant's own facts in words, as `rummylib play` prints them ("wild card:
            # Qh", "pot: 3"), and, for a seat to act, what the phase at hand is for ("the
            # first upcard"; the words speak to the player who acts: "your final turn")
            "facts": list(seen.public.lines()),
            "phase_words": state.variant.phase_words(state) if seat in state.to_act else None,
            # what the seat to act may do, in the words `rummylib play` prompts with
            "choices": _words.choices(state, seat) if seat in state.to_act else None,
            # the cards of the seat's hand whose rank is wild for the deal (Indian rummy): the
            # page marks them; jokers are not listed, their face says what they are
            "wild": [name(card) for card in _words.wild_cards(seen.hand, seen.meld_rules)],
            "moves": moves,
            "more_moves": max(0, len(seen.legal_actions) - MAX_LISTED),
            "clock": clock,
            "recent": recent,
            "deals": [
                {
                    "number": deal.deal_number,
                    "ended_by": deal.ended_by,
                    "points": list(deal.points),
                    "text": str(deal),
                }
                for deal in state.deal_results[-20:]
            ],
            "over": state.is_over,
            "result": result,
        }


def _read_variant(name: object, settings: object) -> Variant:
    """The variant a lobby request names, with its settings (JSON lists read as tuples)."""
    if not isinstance(name, str) or name not in VARIANTS:
        msg = f"unknown variant {str(name)[:40]!r}"
        raise WebError(msg)
    if settings is None:
        settings = {}
    if not isinstance(settings, dict) or len(settings) > 100:
        msg = "settings are a table of at most 100 entries"
        raise WebError(msg)
    changes = {
        str(key): tuple(value) if isinstance(value, list) else value
        for key, value in settings.items()
    }
    try:
        return get_variant(name, **changes)
    except (RummyError, TypeError, ValueError) as error:
        raise WebError(str(error)) from None


def _read_seats(seats: object) -> tuple[list[Seat], dict[int, str]]:
    """The seats a lobby request asks for, and a new secret for each person's seat."""
    if not isinstance(seats, list) or not seats or len(seats) > 16:
        msg = "seats are a list of 1 to 16 seats"
        raise WebError(msg)
    specs: list[Seat] = []
    tokens: dict[int, str] = {}
    for index, entry in enumerate(seats):
        if not isinstance(entry, dict):
            msg = f"seat {index + 1} is not a table of entries"
            raise WebError(msg)
        kind = entry.get("kind", "person")
        name = _checked_name(entry.get("name") or player_name(index))
        if kind == "bot":
            bot = entry.get("bot", "greedy")
            if bot not in BOTS:
                msg = f"unknown bot {str(bot)[:40]!r}: use {' or '.join(BOTS)}"
                raise WebError(msg)
            specs.append(Seat(kind="bot", name=name, bot=bot))
        elif kind == "person":
            token = secrets.token_urlsafe(18)
            tokens[index] = token
            specs.append(Seat(kind="person", name=name, token_digest=_digest(token)))
        else:
            msg = f"seat {index + 1}: kind is 'person' or 'bot', not {str(kind)[:40]!r}"
            raise WebError(msg)
    if not tokens:
        msg = "a table needs at least one person's seat"
        raise WebError(msg)
    return specs, tokens


def _record_path(folder: Path, table_id: str) -> Path:
    return folder / f"{table_id}.toml"


def _seats_path(folder: Path, table_id: str) -> Path:
    return folder / f"{table_id}.seats.json"


class Lobby:
    """Every table of one server, and the folder their records live in.

    Args:
        folder: where each table's record (``<id>.toml``) and seats (``<id>.seats.json``) go.
        seed: seeds the server's own generator (table ids come from :mod:`secrets`; the
            deals' seeds from this generator); ``None``: from the operating system.
        max_tables: the most open tables at once.
        max_finished: the most finished tables kept in memory (their records stay on disk).
        reconnect_grace: seconds a seat whose socket closed waits before auto-play.
    """

    def __init__(
        self,
        folder: Path,
        *,
        seed: int | None = None,
        max_tables: int = 1000,
        max_finished: int = 200,
        reconnect_grace: float = 0.0,
    ) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.random = random.Random(seed)
        self.max_tables = max_tables
        self.max_finished = max_finished
        self.reconnect_grace = reconnect_grace
        self.open: dict[str, Table] = {}
        self.finished: OrderedDict[str, Table] = OrderedDict()

    # -- reading ------------------------------------------------------------------------------

    def get(self, table_id: object) -> Table | None:
        """The table named ``table_id`` (open, or finished and still in memory)."""
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            return None
        return self.open.get(table_id) or self.finished.get(table_id)

    def record_text(self, table_id: str) -> str | None:
        """The record of a finished table (from disk), or ``None``."""
        if not TABLE_ID.fullmatch(table_id) or table_id in self.open:
            return None
        path = _record_path(self.folder, table_id)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            return None
        return text

    def tables(self) -> Iterator[Table]:
        """The open tables, then the finished ones in memory."""
        yield from self.open.values()
        yield from self.finished.values()

    # -- changing -----------------------------------------------------------------------------

    def create(
        self,
        variant_name: object,
        *,
        settings: object = None,
        seats: object,
        now: float = 0.0,
    ) -> tuple[Table, dict[int, str]]:
        """Open a table; returns it and each person's secret by seat.

        Raises:
            WebError: a bad variant, setting, seat list or name; or the server is full.
        """
        if len(self.open) >= self.max_tables:
            msg = f"the server holds {self.max_tables} open tables: try again later"
            raise WebError(msg)
        variant = _read_variant(variant_name, settings)
        specs, tokens = _read_seats(seats)
        try:
            start = new_game(variant, players=len(specs), seed=self.random.getrandbits(63))
        except RummyError as error:
            raise WebError(str(error)) from None
        table_id = secrets.token_urlsafe(9)
        journal = Journal(
            start,
            _record_path(self.folder, table_id),
            names=[spec.name for spec in specs],
            metadata={"table": table_id},
        )
        table = Table(table_id, journal, specs, reconnect_grace=self.reconnect_grace)
        sidecar = {"format": "rummylib-web-seats", "seats": [spec.to_json() for spec in specs]}
        write_text(_seats_path(self.folder, table_id), json.dumps(sidecar, indent=1))
        journal.write()
        self.open[table_id] = table
        table.advance(now)
        self.settle(table)
        return table, tokens

    def settle(self, table: Table) -> None:
        """Move a table whose match is over to the finished ones (a bounded number kept)."""
        if table.state.is_over and table.id in self.open:
            del self.open[table.id]
            self.finished[table.id] = table
            while len(self.finished) > self.max_finished:
                self.finished.popitem(last=False)

    def restore(self, now: float = 0.0) -> list[str]:
        """Open again every unfinished table whose record is in the folder; their ids.

        A record that cannot be read or replayed is left where it is, with a warning in the
        log; the other tables are restored.
        """
        restored: list[str] = []
        for path in sorted(self.folder.glob("*.seats.json")):
            table_id = path.name.removesuffix(".seats.json")
            if not TABLE_ID.fullmatch(table_id) or table_id in self.open:
                continue
            if len(self.open) >= self.max_tables:
                log.warning("not restoring %s: %d tables are open", table_id, self.max_tables)
                break
            try:
                table = self._load(table_id)
            except (OSError, RummyError, ValueError, KeyError) as error:
                log.warning("cannot restore table %s: %s", table_id, error)
                continue
            if table.state.is_over:
                continue
            self.open[table_id] = table
            table.advance(now)
            self.settle(table)
            restored.append(table_id)
        return restored

    def _load(self, table_id: str) -> Table:
        sidecar = json.loads(_seats_path(self.folder, table_id).read_text(encoding="utf-8"))
        if not isinstance(sidecar, dict) or sidecar.get("format") != "rummylib-web-seats":
            msg = "not a seats file of rummylib's web server"
            raise WebError(msg)
        raw = sidecar.get("seats")
        if not isinstance(raw, list):
            msg = "the seats file has no list of seats"
            raise WebError(msg)
        specs = [Seat.from_json(entry) for entry in raw]
        record = records.load(_record_path(self.folder, table_id))
        if record.view is not None or record.seed is None:
            msg = "the record is not the host's"
            raise WebError(msg)
        final = record.final_state
        if final.player_count != len(specs):
            msg = "the record and the seats file disagree on the number of players"
            raise WebError(msg)
        start = new_game(final.variant, players=final.player_count, seed=final.seed)
        journal = Journal(
            start,
            _record_path(self.folder, table_id),
            names=[spec.name for spec in specs],
            metadata={"table": table_id},
        )
        table = Table(table_id, journal, specs, reconnect_grace=self.reconnect_grace)
        for action in final.history:
            journal.add(action)
            table.recent.append(action)
        if journal.state != final:
            msg = "the record does not replay to its own final state"
            raise WebError(msg)
        return table
