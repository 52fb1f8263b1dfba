"""The engine's variant seam: the :class:`Variant` base class and the turn machinery it shares.

A :class:`Variant` declares what its game is: class data (name, player range,
:attr:`~Variant.phase_actions`: the action kinds each phase allows), the deck and deal size by
player count, its :class:`~rummylib.melds.MeldRules` and :class:`~rummylib.scoring.CardPoints`,
and its settings as attrs fields. The engine here does the rest once for every variant:
dealing (seat rotation, a stacked first deck, shuffles from the seed, face-up cards), whose
turn it is, drawing, taking the top discard, discarding, laying down, laying off (one
routine, :func:`lay_off_way`), the next turn, recording a deal and ending the match.

Legality is one refusal per action kind (``refuse_<kind>``): :meth:`Variant.verify` raises its
reason, and :meth:`Variant.legal_actions` lists the candidates (``candidates_<kind>``) the same
refusal accepts, so enumeration and validation cannot disagree. A variant overrides small
named hooks where its rules differ (``apply_<kind>``, :meth:`Variant.end_turn`, …), as
python-chess's variants do over its board.

Phases are enums: the core :class:`Phase` holds what every game has, and each variant declares
its own as a :class:`PhaseBase` subclass. This module used to be ``rummylib.variants.base``,
which still re-exports it.

>>> from rummylib.variants import get_variant
>>> variant = get_variant("rummy101")
>>> variant.min_players, variant.max_players, len(variant.deck_for(4))
(2, 6, 108)
"""

from __future__ import annotations

import enum
import functools
import inspect
import numbers
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, cast

import attrs
from typing_extensions import TypeVar

from rummylib._settings import WholeRange, flag, whole
from rummylib.actions import (
    ACTION_TYPES,
    Action,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Rearrange,
    TakeDiscard,
)
from rummylib.cards import CARDS, Card, format_cards
from rummylib.errors import ConfigurationError, IllegalActionError, InvalidMeldError, shorten
from rummylib.melds import (
    Extension,
    Meld,
    MeldRules,
    canonical_melds,
    extension_cards,
    extensions,
    find_melds,
)
from rummylib.phases import Phase, PhaseBase, add_phase_source
from rummylib.scoring import CardPoints, DealResult, MatchResult, ScoreLine
from rummylib.tiles import CARD_NOTATION, Notation

if TYPE_CHECKING:
    import rummylib.table
    from rummylib.state import GameState
    from rummylib.views import Observation

__all__ = [
    "RETIRED_FACTS",
    "Phase",
    "PhaseBase",
    "PublicInfo",
    "TurnClock",
    "Variant",
    "WholeRange",
    "add_phase_source",
    "added",
    "added_lines",
    "by_index",
    "check_seat",
    "deal_cards",
    "discard_action",
    "discard_actions",
    "evolve",
    "flag",
    "lay_off_way",
    "lay_offs",
    "lists_legal",
    "meld_reason",
    "melds_not_held",
    "next_player",
    "not_held",
    "player_name",
    "public_fact",
    "remove_cards",
    "shares",
    "shuffled",
    "simple_action",
    "whole",
]

_F = TypeVar("_F", bound=Callable[..., Any])
_R = TypeVar("_R")
_set = object.__setattr__

#: A variant's own bookkeeping record (:attr:`GameState.detail <rummylib.state.GameState.detail>`).
D = TypeVar("D", default=Any)


#: Seats up to this many are named p1, p2, …; :func:`player_name` gives others as they are.
_NAMED_SEATS: Final = 1_000_000


def player_name(player: int) -> str:
    """How a message names a seat: seats are 0-based in the API and 1-based in text.

    A number no table could seat (negative, or of a million or more) is named as it is
    given, cut short if it is huge, so that the message about it can always be written.

    >>> player_name(0)
    'p1'
    >>> player_name(-1), player_name(10**5000)
    ('-1', '<a number of about 5001 digits>')
    """
    if 0 <= player < _NAMED_SEATS:
        return f"p{player + 1}"
    return shorten(player)


def lists_legal(function: _F) -> _F:
    """Mark a ``candidates_<kind>`` hook whose every candidate its class's refusal accepts.

    :meth:`Variant.legal_actions` then lists them without asking ``refuse_<kind>`` once per
    candidate. The mark holds for the refusal in effect where the hook is defined: a subclass
    that overrides ``refuse_<kind>`` (and not the hook) has its candidates filtered again.
    The property tests check, for every variant, that each listed action passes
    :meth:`Variant.verify`.
    """
    function.lists_legal = True  # type: ignore[attr-defined]
    return function


# No __getstate__ of its own: attrs then gives each subclass one that keeps its fields (an
# inherited one would pickle a subclass's record empty).
@attrs.frozen(kw_only=True, getstate_setstate=False)
class PublicInfo:
    """A variant's own public facts: what every player may see beyond the cards.

    A variant subclasses it with its fields (frozen, keyword-only) and returns one from
    :meth:`Variant.public_info`; :attr:`Observation.public <rummylib.views.Observation.public>`
    holds it, and the text views and pictures show its fields. Iterating gives
    ``(name, value)`` pairs in field order, so ``dict(observation.public)`` reads it by name.
    This base record has no fields.

    >>> @attrs.frozen(kw_only=True)
    ... class Facts(PublicInfo):
    ...     draws: int = 0
    ...     knocker: int | None = attrs.field(default=None, metadata={"seats": True})
    >>> facts = Facts(draws=2, knocker=0)
    >>> dict(facts), facts.lines()
    ({'draws': 2, 'knocker': 0}, ['draws: 2', 'knocker: p1'])
    >>> Facts().lines(), Facts().lines(every=True)  # seat 0 is p1, never nothing
    ([], ['draws: 0', 'knocker: -'])
    """

    def __iter__(self) -> Iterator[tuple[str, object]]:
        for field in attrs.fields(type(self)):
            yield field.name, getattr(self, field.name)

    def lines(self, *, every: bool = False) -> list[str]:
        """The facts as ``name: value`` lines for a text view.

        A fact that says nothing (``None``, empty, zero, all zeros, ``False``) is left out
        unless ``every``. A field declared with ``metadata={"seats": True}`` holds seat
        numbers (a seat, or a collection of seats), written ``p1``, ``p2`` as in all text. A
        field declared with ``metadata={"text": False}`` repeats what the views show already
        (a card of a zone, such as the Israeli open card among the cards face up) and is left
        out of the lines.
        """
        return [
            f"{field.name.replace('_', ' ')}: "
            f"{_fact_text(value, seats=bool(field.metadata.get('seats')))}"
            for field in attrs.fields(type(self))
            if field.metadata.get("text", True)
            for value in (getattr(self, field.name),)
            if every or not _says_nothing(value, seats=bool(field.metadata.get("seats")))
        ]


#: Names that were attributes of every state and observation before the variants owned them
#: (0.3): a variant whose public record has no such field reads the neutral value here, so
#: ``state.pot`` is 0 and ``observation.open_card`` is ``None`` at a gin table.
RETIRED_FACTS: Final[Mapping[str, object]] = MappingProxyType(
    {"open_card": None, "multiplier": 1, "pot": 0}
)


def public_fact(owner: object, name: str, facts: Callable[[], PublicInfo | None]) -> object:
    """The field ``name`` of the public record ``facts()`` gives, for an owner's ``__getattr__``.

    A name of :data:`RETIRED_FACTS` the record lacks reads its neutral value. Any other name
    (a private one, or one the record lacks) raises the usual AttributeError.
    """
    if not name.startswith("_"):
        record = facts()
        if record is not None and name in attrs.fields_dict(type(record)):
            return getattr(record, name)
        if name in RETIRED_FACTS:
            return RETIRED_FACTS[name]
    msg = f"{type(owner).__name__!r} object has no attribute {name!r}"
    raise AttributeError(msg, name=name, obj=owner)


def _says_nothing(value: object, *, seats: bool) -> bool:
    if value is None or value is False:
        return True
    if isinstance(value, tuple | list | frozenset | set):
        return not value if seats else all(item == 0 for item in value)
    return value == 0 and not seats


def _fact_text(value: object, *, seats: bool) -> str:
    if value is None or value == ():
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and seats:
        return player_name(value)
    if isinstance(value, tuple | list | frozenset | set):
        items = sorted(value, key=str) if isinstance(value, frozenset | set) else value
        return ", ".join(_fact_text(item, seats=seats) for item in items)
    return str(value)


_NO_FACTS: Final = PublicInfo()


@attrs.frozen(kw_only=True)
class TurnClock:
    """How long the players who must act now have; the host keeps the time.

    Returned by :meth:`GameState.turn_clock <rummylib.state.GameState.turn_clock>`. The host
    starts a timer when :attr:`number` changes and reports a
    :class:`~rummylib.actions.TimeExpired` for a player once ``seconds + grace_seconds`` have
    passed without their move.

    Attributes:
        players: whose clock runs (every player who must still act).
        seconds: the time allowed.
        grace_seconds: the extra time once ``seconds`` have run out (0: none).
        number: identifies this clock within the match; a new number means a new clock.

    >>> clock = TurnClock(players=(0,), seconds=60, grace_seconds=60, number=1)
    >>> clock.total_seconds
    120
    """

    players: tuple[int, ...]
    seconds: int
    grace_seconds: int = 0
    number: int = 0

    @property
    def total_seconds(self) -> int:
        """The time allowed, grace included."""
        return self.seconds + self.grace_seconds


@attrs.frozen(kw_only=True)
class Variant(Generic[D]):
    """A rummy game: what it is (class data), a table's settings (fields), its rules (hooks).

    ``D`` is the variant's own bookkeeping, a frozen record kept in
    :attr:`GameState.detail <rummylib.state.GameState.detail>`; a variant without one uses
    ``None``. The engine never names a variant. A subclass declares:

    * class data: :attr:`name`, the player range, :attr:`phase_actions` (which action kinds
      each phase allows), :attr:`first_phase`, :attr:`host_events`;
    * the deck, the deal and what melds and cards count: :meth:`deck_for`,
      :meth:`hand_size_for`, :attr:`meld_rules`, :attr:`card_points`, :meth:`turn_up`,
      :meth:`new_detail`;
    * for each action kind it uses (``kind`` as in :data:`~rummylib.actions.ACTION_TYPES`):
      ``refuse_<kind>(state, action) -> str | None`` (why it is illegal now, or ``None``),
      ``candidates_<kind>(state, player)`` (the actions of that kind worth listing) and
      ``apply_<kind>(state, action)`` (the state after it). Drawing from the stock, taking
      the top discard, discarding, laying down and laying off have shared defaults here.

    :meth:`verify` checks the turn, then that the phase allows the kind, then the kind's
    refusal; :meth:`legal_actions` lists each allowed kind's candidates that the same
    refusal accepts, so listing and checking cannot disagree.
    """

    #: Registered name, e.g. ``"rummy101"``.
    name: ClassVar[str] = ""
    #: Human title for docs and the CLI.
    title: ClassVar[str] = ""
    #: Other names :func:`~rummylib.registry.get_variant` accepts.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Fewest players.
    min_players: ClassVar[int] = 2
    #: Most players.
    max_players: ClassVar[int] = 6
    #: The action kinds each phase allows, in the order
    #: :meth:`~rummylib.engine.Variant.legal_actions` lists them.
    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {}
    #: Host-reported events the variant accepts in any phase (never listed as moves).
    host_events: ClassVar[tuple[type[Action], ...]] = ()
    #: The phase a deal starts in.
    first_phase: ClassVar[PhaseBase] = Phase.DRAW
    #: The refusal of a turn's later move before its card is taken ("p1 must …").
    before_drawing: ClassVar[str] = "must take a card first"
    #: The refusal of a second draw ("p1 …").
    after_drawing: ClassVar[str] = "has already taken a card this turn"
    #: What the text views call the cards turned face up beside the stock
    #: (:attr:`GameState.aside <rummylib.state.GameState.aside>`).
    aside_label: ClassVar[str] = "set aside face up"
    #: The word that names them in a game record's dealer line, ``"aside"`` (``d aside 7d``)
    #: or ``"open"`` (``d open 7d``); a record read may use either.
    aside_word: ClassVar[str] = "aside"
    #: How the variant's cards are written and read in game records, ``rummylib play`` and
    #: its refusals: :data:`~rummylib.tiles.CARD_NOTATION` (``7h``), or Rummikub's
    #: :data:`~rummylib.tiles.TILE_NOTATION` (``k7``).
    notation: ClassVar[Notation] = CARD_NOTATION
    #: Numeric public facts (fields of :meth:`public_info`'s record) the learning
    #: environments' observation vectors hold, one number each.
    encoded_facts: ClassVar[tuple[str, ...]] = ()
    #: The rule each setting comes from, as ``"1.2 decks jokers, 1.3 hand_size"``
    #: (read by :meth:`~rummylib.engine.Variant.rule_of`).
    setting_rules: ClassVar[str] = ""
    #: Whether the lowest total wins the match (penalty points, as in Rummy 71/101).
    lower_score_wins: ClassVar[bool] = False

    _made_rules: MeldRules | None = attrs.field(default=None, init=False, eq=False, repr=False)
    _made_points: CardPoints | None = attrs.field(default=None, init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self.check_settings()

    def check_settings(self) -> None:
        """Raise :class:`~rummylib.errors.ConfigurationError` for settings that clash (R9).

        Each field checks itself; this hook checks fields against each other. Default: none.
        """

    # -- what the game is -------------------------------------------------------------------

    @property
    def meld_rules(self) -> MeldRules:
        """The table's meld rules, made once by :meth:`make_meld_rules`."""
        rules = self._made_rules
        if rules is None:
            rules = self.make_meld_rules()
            object.__setattr__(self, "_made_rules", rules)
        return rules

    @property
    def card_points(self) -> CardPoints:
        """The table's card values, made once by :meth:`make_card_points`."""
        points = self._made_points
        if points is None:
            points = self.make_card_points()
            object.__setattr__(self, "_made_points", points)
        return points

    def make_meld_rules(self) -> MeldRules:
        """The table's :class:`~rummylib.melds.MeldRules`, from its settings."""
        raise NotImplementedError

    def make_card_points(self) -> CardPoints:
        """The table's :class:`~rummylib.scoring.CardPoints`, from its settings."""
        raise NotImplementedError

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """The deck, in canonical order, for ``players`` players."""
        raise NotImplementedError

    def hand_size_for(self, players: int) -> int:
        """How many cards each player is dealt."""
        raise NotImplementedError

    def settings(self) -> dict[str, object]:
        """The table's settings by name, enums as their string values.

        >>> from rummylib.variants import get_variant
        >>> get_variant("rummy71").settings()["elimination_threshold"]
        71
        """
        values: dict[str, object] = {}
        for field in attrs.fields(type(self)):
            if not field.init:
                continue
            value = getattr(self, field.name)
            values[field.name] = value.value if isinstance(value, enum.Enum) else value
        return values

    @classmethod
    def rule_of(cls, setting: str) -> str | None:
        """The rule number a setting comes from (``rummylib variants NAME`` shows it).

        >>> from rummylib.variants import get_variant
        >>> type(get_variant("rummy101")).rule_of("stake")
        '1.19'
        """
        for part in cls.setting_rules.split(","):
            rule, *names = part.split() or [""]
            if setting in names:
                return rule
        return None

    def check_players(self, players: object) -> int:
        """Return ``players`` if this variant can be played by that many, else raise."""
        # Any integer type (a numpy integer from an array of seats), never a bool.
        if isinstance(players, bool) or not isinstance(players, numbers.Integral):
            msg = f"players must be a whole number, not {shorten(players)}"
            raise ConfigurationError(msg)
        players = int(players)
        if not self.min_players <= players <= self.max_players:
            low, high = self.min_players, self.max_players
            counts = f"{low}" if low == high else f"{low} to {high}"
            msg = f"{self.name} is for {counts} players, not {players}"
            raise ConfigurationError(msg)
        self.check_deal(players)
        return players

    def check_deal(self, players: int) -> None:
        """Raise unless the deck deals ``players`` hands, the face-up cards and a stock.

        >>> from rummylib.variants import get_variant
        >>> get_variant("turkish500", hand_size=40).check_deal(3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rummylib.errors.ConfigurationError: 106 cards cannot deal 40 cards to 3 players and ...
        """
        deck = self.deck_for(players)
        hand = self.hand_size_for(players)
        face_up = len(deck) - len(self.turn_up(deck).get("stock", deck))
        if hand * players + face_up < len(deck):
            return
        most = (len(deck) - face_up - 1) // players
        msg = (
            f"{len(deck)} cards cannot deal {hand} cards to {players} players and leave a stock "
            f"(hand_size must be at most {most} for {players} players)"
        )
        raise ConfigurationError(msg)

    def new_detail(self, players: int) -> D:
        """The variant's bookkeeping at the start of a match of ``players`` (default ``None``)."""
        return cast("D", None)

    def turn_up(self, rest: tuple[Card, ...]) -> dict[str, Any]:
        """The state fields set from the cards left after dealing (default: all are the stock).

        A variant that turns cards face up returns them too, e.g.
        ``{"discard_pile": rest[:1], "stock": rest[1:]}``.
        """
        return {"stock": rest}

    # -- the match: dealing, turns, deals and the end ------------------------------------------

    def start(self, state: GameState[D]) -> GameState[D]:
        """Set up the match on a fresh state (its detail from :meth:`new_detail`): deal."""
        return self.deal(state, dealer=state.dealer, deal_number=1)

    def deal(
        self, state: GameState[D], *, dealer: int, deal_number: int, **changes: Any
    ) -> GameState[D]:
        """Shuffle and deal; ``changes`` are further fields of the new deal's state.

        The player after ``dealer`` (among the players in) is dealt first and plays first.
        The first deal of a match stacked with ``deck=`` uses that deck; every other deal
        shuffles the variant's deck by the match's next shuffle.
        """
        players_in = state.players_in
        first = next_player(players_in, dealer)
        at = players_in.index(first)
        if state.deck is not None and state.shuffle_count == 0:
            deck = state.deck
        else:
            deck = shuffled(self.deck_for(state.player_count), state.seed, state.shuffle_count)
        size = self.hand_size_for(state.player_count)
        seats = players_in[at:] + players_in[:at]
        hands, rest = deal_cards(deck, seats, size, state.player_count)
        fields: dict[str, Any] = {
            "phase": self.first_phase,
            "current_player": first,
            "to_act": (first,),
            "hands": hands,
            "discard_pile": (),
            "aside": (),
            "hidden": (),
            "meld_rules": None,
            "table": (),
            "deal_number": deal_number,
            "dealer": dealer,
            "shuffle_count": state.shuffle_count + 1,
        }
        fields.update(self.turn_up(rest))
        fields.update(changes)
        return self.after_deal(state.replace(**fields))

    def after_deal(self, state: GameState[D]) -> GameState[D]:
        """The state of a deal just dealt and turned up; a variant records its per-deal facts.

        The default changes nothing. A variant with a wild rank per deal sets the deal's
        rules here (``state.replace(meld_rules=...)``, read as
        :attr:`GameState.meld_rules <rummylib.state.GameState.meld_rules>`), a variant with
        a fact of the deal puts it in its detail.
        """
        return state

    def next_turn(self, state: GameState[D], after: int, **changes: Any) -> GameState[D]:
        """The next player's turn (after ``after``), in the first phase of a turn."""
        upcoming = next_player(state.players_in, after)
        return state.replace(
            phase=Phase.DRAW, current_player=upcoming, to_act=(upcoming,), **changes
        )

    def others_after(self, state: GameState[D], player: int) -> tuple[int, ...]:
        """Every other player still in, in playing order from the one after ``player``.

        >>> from rummylib import new_game
        >>> state = new_game("rummy101", players=4, seed=1)
        >>> state.variant.others_after(state, 2)
        (3, 0, 1)
        """
        order = []
        for _ in range(len(state.players_in) - 1):
            player = next_player(state.players_in, player)
            order.append(player)
        return tuple(order)

    def record_deal(
        self,
        state: GameState[D],
        points: Sequence[int],
        *,
        ended_by: str,
        ending: str = "",
        lines: Sequence[ScoreLine] = (),
        **changes: Any,
    ) -> GameState[D]:
        """Add a finished deal's points to the scores and its record to the deal results.

        ``ended_by`` says in words how the deal ended, ``ending`` as a short kind
        (:attr:`DealResult.ending <rummylib.scoring.DealResult.ending>`).
        """
        record = DealResult(
            deal_number=state.deal_number,
            points=tuple(points),
            lines=tuple(lines),
            ended_by=ended_by,
            ending=ending,
            hands=state.hands,
            table=state.table,
        )
        scores = tuple(total + add for total, add in zip(state.scores, points, strict=True))
        return state.replace(scores=scores, deal_results=(*state.deal_results, record), **changes)

    def end_match(
        self,
        state: GameState[D],
        winners: Sequence[int],
        *,
        payouts: Sequence[int] | None = None,
        lines: Sequence[ScoreLine] = (),
        **changes: Any,
    ) -> GameState[D]:
        """End the match won by ``winners``; ``changes`` are final fields (e.g. ``scores``).

        ``payouts`` is what each seat takes home (default: nothing; see :func:`shares`).
        """
        state = state.replace(**changes)
        result = MatchResult(
            winners=tuple(winners),
            scores=state.scores,
            deals=state.deal_results,
            payouts=(0,) * state.player_count if payouts is None else tuple(payouts),
            lines=tuple(lines),
        )
        return state.replace(phase=Phase.MATCH_OVER, current_player=None, to_act=(), result=result)

    # -- legality and effects, by action kind ---------------------------------------------------

    def refusal(self, state: GameState[D], action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``: the turn, the phase, then its own rules."""
        kind = type(action)
        if kind not in self.host_events:
            player = action.player
            if player not in state.to_act:
                if state.current_player is None:
                    return f"{player_name(player)} cannot act now ({state.phase.value})"
                return (
                    f"it is {player_name(state.current_player)}'s turn, not {player_name(player)}'s"
                )
            if kind not in self.phase_actions.get(state.phase, ()):
                return self.phase_refusal(state, action)
        cls: type = type(self)
        refuse: Callable[..., str | None] = _kind_method(cls, "refuse_", action.kind)
        return refuse(self, state, action)

    def phase_refusal(self, state: GameState[D], action: Action) -> str:
        """The refusal of an action of a kind the phase does not allow."""
        kind = type(action)
        phase = state.phase
        if phase is Phase.DRAW and kind in self.phase_actions.get(Phase.PLAY, ()):
            return f"{player_name(action.player)} {self.before_drawing}"
        if phase is Phase.PLAY and kind in self.phase_actions.get(Phase.DRAW, ()):
            return f"{player_name(action.player)} {self.after_drawing}"
        return f"{kind.__name__} is not a move of the {phase.value} phase"

    def verify(self, state: GameState[D], action: Action) -> None:
        """Raise :class:`~rummylib.errors.IllegalActionError` unless ``action`` is legal."""
        refusal = self.refusal(state, action)
        if refusal is not None:
            raise IllegalActionError(refusal)

    def legal_actions(self, state: GameState[D], player: int) -> tuple[Action, ...]:
        """The legal actions of ``player`` (who may act), in canonical order.

        Each allowed kind's candidates that its refusal accepts; a kind whose candidates hook
        is marked :func:`lists_legal` (and whose refusal is not overridden below it) is listed
        without asking the refusal again.
        """
        found: list[Action] = []
        cls: type = type(self)
        for candidates, refuse in _phase_listing(cls, state.phase):
            if refuse is None:
                found.extend(candidates(self, state, player))
            else:
                found.extend(
                    action
                    for action in candidates(self, state, player)
                    if refuse(self, state, action) is None
                )
        return tuple(found)

    def apply(self, state: GameState[D], action: Action) -> GameState[D]:
        """The state after a verified ``action`` (history not yet appended)."""
        cls: type = type(self)
        effect: Callable[..., GameState[D]] = _kind_method(cls, "apply_", action.kind)
        return effect(self, state, action)

    # Shared kinds. A variant lists them in phase_actions and overrides where its rules differ.

    def refuse_draw_stock(self, state: GameState[D], action: DrawStock) -> str | None:
        """The stock must hold a card."""
        return None if state.stock else "the stock is empty"

    @lists_legal
    def candidates_draw_stock(self, state: GameState[D], player: int) -> Iterable[Action]:
        """One draw, if the stock holds a card."""
        return (simple_action(DrawStock, player),) if state.stock else ()

    def apply_draw_stock(self, state: GameState[D], action: DrawStock) -> GameState[D]:
        """The top of the stock joins the hand; the player goes on to play."""
        hands = list(state.hands)
        hands[action.player] = (*hands[action.player], state.stock[0])
        return state.replace(hands=tuple(hands), stock=state.stock[1:], phase=Phase.PLAY)

    def refuse_take_discard(self, state: GameState[D], action: TakeDiscard) -> str | None:
        """Only the top card, from a pile that has one."""
        if action.count != 1:
            return "only the top card of the discard pile can be taken"
        return None if state.discard_pile else "the discard pile is empty"

    @lists_legal
    def candidates_take_discard(self, state: GameState[D], player: int) -> Iterable[Action]:
        """Taking the top card, if there is one."""
        return (simple_action(TakeDiscard, player),) if state.discard_pile else ()

    def apply_take_discard(self, state: GameState[D], action: TakeDiscard) -> GameState[D]:
        """The top ``count`` discards join the hand; the player goes on to play."""
        pile = state.discard_pile
        hands = list(state.hands)
        hands[action.player] = (*hands[action.player], *pile[-action.count :])
        return state.replace(
            hands=tuple(hands), discard_pile=pile[: -action.count], phase=Phase.PLAY
        )

    def refuse_discard(self, state: GameState[D], action: Discard) -> str | None:
        """The card must be in the hand."""
        return not_held(state, action.player, action.card)

    @lists_legal
    def candidates_discard(self, state: GameState[D], player: int) -> Iterable[Action]:
        """One discard per distinct card in the hand, in card order."""
        # Comprehensions: on Python 3.11 they beat map() with an attrgetter or __getitem__.
        return discard_actions(player, sorted({card.index for card in state.hands[player]}))

    def apply_discard(self, state: GameState[D], action: Discard) -> GameState[D]:
        """The card goes on the discard pile; then :meth:`end_turn`.

        An :meth:`end_turn` that takes ``**changes`` is handed the discard's new hand and pile
        to make in its own copy of the state (one copy a turn, not two); any other gets a
        state that has them.
        """
        hands = list(state.hands)
        hands[action.player] = remove_cards(hands[action.player], (action.card,))
        pile = (*state.discard_pile, action.card)
        if _takes_changes(type(self).end_turn):
            return self.end_turn(state, action.player, hands=tuple(hands), discard_pile=pile)
        return self.end_turn(state.replace(hands=tuple(hands), discard_pile=pile), action.player)

    def end_turn(self, state: GameState[D], player: int, **changes: Any) -> GameState[D]:
        """After a discard: the next player's turn (variants add going out, limits, …).

        ``changes`` are the discard's fields (the hands, the pile) that ``state`` does not
        have yet; an override declared with ``**changes`` makes them with its own changes
        (``state.replace(..., **changes)``, or :meth:`next_turn`'s ``changes``), and reads
        the hands and the pile from them. An override without it is given a state that has
        them (see :meth:`apply_discard`).
        """
        return self.next_turn(state, player, **changes)

    def refuse_lay_down(self, state: GameState[D], action: LayDown) -> str | None:
        """At least one meld, each legal under the deal's meld rules, of cards in the hand."""
        if not action.melds:
            return "lay down at least one meld"
        for meld in action.melds:
            try:
                meld.check(state.meld_rules)
            except InvalidMeldError as error:
                return f"cannot lay down {meld}: {meld_reason(error)}"
        return melds_not_held(state, action.player, action.melds)

    def candidates_lay_down(self, state: GameState[D], player: int) -> Iterable[Action]:
        """Each single meld the hand holds (:func:`~rummylib.melds.find_melds`)."""
        return [
            LayDown(player=player, melds=(meld,))
            for meld in find_melds(state.hands[player], state.meld_rules)
        ]

    def apply_lay_down(self, state: GameState[D], action: LayDown) -> GameState[D]:
        """The melds (canonical) go from the hand to the table."""
        melds = canonical_melds(action.melds)
        hands = list(state.hands)
        hands[action.player] = remove_cards(
            hands[action.player], [card for meld in melds for card in meld.cards]
        )
        return state.replace(hands=tuple(hands), table=(*state.table, *melds))

    def refuse_lay_off(self, state: GameState[D], action: LayOff) -> str | None:
        """A card of the hand that extends the table meld as the action says."""
        player, card = action.player, action.card
        held = not_held(state, player, card)
        if held is not None:
            return held
        if card.is_joker and action.stands_for is None:
            return "a joker laid off must name the card it stands for (stands_for)"
        wild_ranks = state.meld_rules.wild_ranks
        if not card.is_joker and card.rank not in wild_ranks and action.stands_for is not None:
            if wild_ranks:
                return "only a joker or a wild card names the card it stands for"
            return "only a joker names the card it stands for"
        index = action.meld_index
        if not 0 <= index < len(state.table):
            return f"there is no meld {index} on the table (it holds {len(state.table)})"
        way = lay_off_way(state.table[index], action, state.meld_rules)
        return way if isinstance(way, str) else None

    def candidates_lay_off(self, state: GameState[D], player: int) -> Iterable[Action]:
        """Every place and reading of every distinct hand card, by table meld then card.

        Only the cards with a way onto a meld (``extension_cards``, in
        card order) are asked about it.
        """
        hand = state.hands[player]
        rules = state.meld_rules
        return [
            lay_off
            for index, meld in enumerate(state.table)
            for card in extension_cards(meld, rules)
            if card in hand
            for lay_off in lay_offs(player, index, meld, card, rules)
        ]

    def apply_lay_off(self, state: GameState[D], action: LayOff) -> GameState[D]:
        """The card joins the table meld."""
        way = lay_off_way(state.table[action.meld_index], action, state.meld_rules)
        assert not isinstance(way, str)  # verified
        table = list(state.table)
        table[action.meld_index] = way.meld
        hands = list(state.hands)
        hands[action.player] = remove_cards(hands[action.player], (action.card,))
        return state.replace(hands=tuple(hands), table=tuple(table))

    # -- for hosts and bots -------------------------------------------------------------------

    def auto_action(self, state: GameState[D]) -> Action:
        """The move the engine makes for a player who cannot act (default: the first listed)."""
        return next(
            action for player in state.to_act for action in self.legal_actions(state, player)
        )

    def turn_clock(self, state: GameState[D]) -> TurnClock | None:
        """The clock of the players who must act now; ``None`` (the default): no clock."""
        return None

    def joker_replacement(self) -> rummylib.table.JokerReplacementSource:
        """Where the card that frees a table joker may come from, for the table solver.

        The :func:`~rummylib.table.best_play` ``replacement`` of this table's rules (the
        learning environments' listed plays ask it); the default is the solver's own.
        """
        from rummylib.table import JokerReplacementSource  # noqa: PLC0415  (the solver, lazily)

        return JokerReplacementSource.HAND_OR_TABLE

    def best_table_play(self, state: GameState[D], player: int, objective: str) -> Action | None:
        """The legal table play placing the most cards or points, or ``None``.

        ``objective`` is ``"cards"`` or ``"points"``; the learning environments' action tables
        number these as their best plays.

        The default asks :func:`~rummylib.table.best_play` for the whole table under this
        variant's rules and card points and :meth:`joker_replacement`, and returns its answer
        if it is legal here. A variant whose plays have further conditions (Rummikub's
        initial meld) answers itself.
        """
        from rummylib.table import best_play  # noqa: PLC0415  (the solver, lazily)

        try:
            play = best_play(
                state.table,
                state.hands[player],
                state.meld_rules,
                objective=objective,
                points=self.card_points,
                replacement=self.joker_replacement(),
            )
        except ConfigurationError:  # rules the table solver does not handle
            return None
        if play is None:
            return None
        action = Rearrange(player=player, table=play.table)
        return action if state.is_legal(action) else None

    def replace_facts(self, state: GameState[D], facts: Mapping[str, Any]) -> GameState[D]:
        """``state`` with facts of :data:`RETIRED_FACTS` changed (``state.replace(pot=…)``).

        Those names were fields of every state before the variants owned them; a variant
        that keeps such a fact sets it where it keeps it. The default keeps none of them.

        Raises:
            TypeError: the variant keeps no such fact.
        """
        msg = f"GameState has no field {sorted(facts)[0]!r}"
        raise TypeError(msg)

    def public_info(self, state: GameState[D], player: int) -> PublicInfo:
        """The variant's own facts ``player`` may see: a :class:`PublicInfo` record.

        Every player sees the same facts; the default record has none.
        """
        return _NO_FACTS

    def move_words(
        self, state: GameState[D], kind: type[Action], actions: Sequence[Action]
    ) -> str | None:
        """What playing ``kind`` means now, in a player's words (``rummylib play``'s prompts).

        ``actions`` are the legal moves of that kind (empty: the kind in general). ``None``
        (the default) leaves the words to the front end: its own for the actions of
        :mod:`rummylib.actions`, else the kind's record verb. A variant names the moves of
        its own kinds here ("drop your hand") and any it says differently ("rejoin").
        """
        return None

    def phase_words(self, state: GameState[D]) -> str | None:
        """What the phase at hand is for, said before the moves it allows; ``None``: nothing.

        For ``rummylib play``: "you may add your cards to the knocker's melds now".
        """
        return None

    def greedy_action(self, observation: Observation) -> Action | None:
        """The variant's own greedy move for :class:`~rummylib.bots.GreedyBot`.

        ``None`` (the default) leaves the choice to the bot's generic logic.
        """
        return None

    def card_taken(self, observation: Observation, action: Action) -> Card | None:
        """The one face-up card ``action`` would bring into the hand, or ``None``.

        :class:`~rummylib.bots.GreedyBot` weighs a take by it, and a game record of one
        player's view counts it as a card that player is known to hold. The default knows a
        take of the top discard; a variant with a face-up card of its own adds its take.
        """
        if isinstance(action, TakeDiscard) and action.count == 1:
            return observation.discard_top
        return None

    def may_ever_discard(self, card: Card, observation: Observation | None = None) -> bool:
        """Whether ``card`` can ever be a discard at this table (``True``, the default).

        For bots weighing a card they might take: a card the rules never let go of (an
        Israeli joker) is planned around, not thrown. ``observation`` is the asking player's
        view where there is one (a rule of the deal may depend on it); ``None`` asks about
        the table's rules alone.
        """
        return True

    def match_statistics(self, state: GameState[D]) -> tuple[tuple[str, int], ...]:
        """The variant's own counts for a match so far, as (name, count) pairs.

        :func:`rummylib.simulate.simulate` records them for every match and sums them in its
        summary (rebuys and Frish votes in Rummy 71/101, knocks in Carousel, ...). The names
        are short lowercase phrases, the same for every match of the variant, in a fixed
        order; a finished or an unfinished match (``state`` need not be over). The default:
        none.

        >>> from rummylib import new_game
        >>> Variant().match_statistics(new_game("rummy101", players=2, seed=1))
        ()
        """
        return ()


_Function = Callable[..., Any]


def _defined_by(cls: type, name: str) -> type | None:
    return next((base for base in cls.__mro__ if name in base.__dict__), None)


@functools.lru_cache(maxsize=256)
def _takes_changes(hook: Callable[..., object]) -> bool:
    """Whether a hook is declared with ``**changes`` (keyword arguments it passes on)."""
    return any(
        parameter.kind is inspect.Parameter.VAR_KEYWORD
        for parameter in inspect.signature(hook).parameters.values()
    )


@functools.lru_cache(maxsize=4096)
def _kind_method(cls: type, prefix: str, kind: str) -> _Function:
    """A variant class's function for an action kind: ``refuse_<kind>`` and so on.

    A kind without ``refuse_<kind>`` is legal whenever its phase allows it; a kind whose
    action has no field but ``player`` lists that one action unless it has
    ``candidates_<kind>``. Cached (bounded): the lookup runs for every candidate action.
    """
    function = getattr(cls, prefix + kind, None)
    if function is not None:
        return cast("_Function", function)
    if prefix == "refuse_":
        return _no_refusal
    action = ACTION_TYPES.get(kind)
    if action is None:
        msg = (
            f"{cls.__name__} allows actions of kind {kind!r}, which is not registered: "
            "pass the class to rummylib.actions.register_action"
        )
        raise ConfigurationError(msg)
    if prefix == "candidates_" and [field.name for field in attrs.fields(action)] == ["player"]:
        return functools.partial(_only_action, action)
    msg = f"{cls.__name__} has no {prefix}{kind} for the {kind} actions it allows"
    raise NotImplementedError(msg)


@functools.lru_cache(maxsize=4096)
def _listing(cls: type, kind: str) -> tuple[_Function, _Function | None]:
    """The candidates of a kind, and the refusal to filter them by (``None``: they are legal)."""
    candidates = _kind_method(cls, "candidates_", kind)
    refuse = _kind_method(cls, "refuse_", kind)
    if refuse is _no_refusal:
        return candidates, None
    if getattr(candidates, "lists_legal", False):
        lister = _defined_by(cls, "candidates_" + kind)
        refuser = _defined_by(cls, "refuse_" + kind)
        if lister is not None and refuser is not None and issubclass(lister, refuser):
            return candidates, None
    return candidates, refuse


@functools.lru_cache(maxsize=4096)
def _phase_listing(cls: type, phase: PhaseBase) -> tuple[tuple[_Function, _Function | None], ...]:
    """:func:`_listing` of each kind the phase allows, in order."""
    declared: Mapping[PhaseBase, tuple[type[Action], ...]] = getattr(cls, "phase_actions", {})
    kinds = declared.get(phase, ())
    return tuple(_listing(cls, kind.kind) for kind in kinds)


def _no_refusal(variant: object, state: object, action: object) -> None:
    return None


def _only_action(cls: type, variant: object, state: object, player: int) -> tuple[Action]:
    return (simple_action(cls, player),)


@functools.lru_cache(maxsize=1024)
def simple_action(cls: type, player: int) -> Action:
    """The action of kind ``cls`` that has no field but ``player``, made once per seat.

    >>> simple_action(DrawStock, 1) is simple_action(DrawStock, 1)
    True
    """
    action: Action = cls(player=player)
    return action


#: The discards of the first seats, made once: actions are values, and these are listed often.
_DISCARDS: Final = tuple(tuple(Discard(player=p, card=card) for card in CARDS) for p in range(8))


def discard_action(player: int, card: Card) -> Discard:
    """``Discard(player=player, card=card)``, made once for the first eight seats.

    >>> from rummylib.cards import parse_card
    >>> discard_action(1, parse_card("7h")) is discard_action(1, parse_card("7h"))
    True
    """
    if player < len(_DISCARDS):
        return _DISCARDS[player][card.index]
    return Discard(player=player, card=card)


def discard_actions(player: int, indexes: Iterable[int]) -> list[Discard]:
    """The seat's discards of the cards of these :attr:`~rummylib.cards.Card.index`, in order.

    The one cache of :class:`~rummylib.actions.Discard` actions (see :func:`discard_action`),
    for a variant's ``candidates_discard``.

    >>> [str(action.card) for action in discard_actions(0, [12, 0])]
    ['Kc', 'Ac']
    """
    if player < len(_DISCARDS):
        made = _DISCARDS[player]
        return [made[index] for index in indexes]
    return [Discard(player=player, card=CARDS[index]) for index in indexes]


def added_lines(totals: Sequence[int], lines: Iterable[ScoreLine]) -> tuple[int, ...]:
    """``totals`` with each score line's points added to its player's (bonuses at the end).

    >>> added_lines((10, 0), [ScoreLine(player=1, points=25, reason="game bonus")])
    (10, 25)
    """
    sums = list(totals)
    for line in lines:
        sums[line.player] += line.points
    return tuple(sums)


def melds_not_held(state: GameState[D], player: int, melds: Iterable[Meld]) -> str | None:
    """The refusal of melds that use cards ``player`` does not hold, or ``None``.

    The one wording of every variant's refusal of such melds (laying down, showing).
    """
    laid: Counter[Card] = Counter()
    for meld in melds:
        laid.update(meld.cards)
    extra = laid - Counter(state.hands[player])
    if not extra:
        return None
    names = format_cards(by_index(extra.elements()))
    return f"the melds use cards {player_name(player)} does not hold: {names}"


def evolve(record: _R, **changes: Any) -> _R:
    """``attrs.evolve(record, **changes)``, fast for a record kept in a ``__dict__``.

    For a variant's own bookkeeping, changed on most turns: a record declared with
    ``@attrs.frozen(slots=False)`` is copied as one dictionary, without running ``__init__``
    again (so its validators do not run: the variant fills these fields itself). Any other
    record goes through :func:`attrs.evolve`.

    >>> @attrs.frozen(slots=False)
    ... class Count:
    ...     seen: int = 0
    >>> evolve(Count(), seen=2)
    Count(seen=2)
    >>> evolve(Count(), heard=2)
    Traceback (most recent call last):
    ...
    TypeError: Count has no field 'heard'
    """
    fields = getattr(record, "__dict__", None)
    if fields is None:
        evolved: _R = attrs.evolve(record, **changes)  # type: ignore[misc]
        return evolved
    if not changes.keys() <= fields.keys():
        unknown = sorted(changes.keys() - fields.keys())[0]
        msg = f"{type(record).__name__} has no field {unknown!r}"
        raise TypeError(msg)
    copied = fields.copy()
    copied.update(changes)
    new = object.__new__(type(record))
    _set(new, "__dict__", copied)
    return new


def shares(amount: int, winners: Sequence[int], player_count: int) -> tuple[int, ...]:
    """``amount`` split among ``winners``, the first ones taking what does not divide evenly.

    >>> shares(7, (2, 0), 3)
    (3, 0, 4)
    """
    payouts = [0] * player_count
    share, remainder = divmod(amount, len(winners))
    for offset, player in enumerate(winners):
        payouts[player] = share + (1 if offset < remainder else 0)
    return tuple(payouts)


def added(values: Sequence[int], player: int, amount: int = 1) -> tuple[int, ...]:
    """``values`` (one per seat) with ``amount`` added to ``player``'s.

    >>> added((0, 2, 0), 1, 3)
    (0, 5, 0)
    """
    changed = list(values)
    changed[player] += amount
    return tuple(changed)


def by_index(cards: Iterable[Card]) -> list[Card]:
    """The cards sorted by :attr:`Card.index <rummylib.cards.Card.index>` (canonical order)."""
    return sorted(cards, key=lambda card: card.index)


def meld_reason(error: InvalidMeldError) -> str:
    """The reason of an :class:`~rummylib.errors.InvalidMeldError`, without the cards."""
    text = str(error)
    marker = " is not a meld: "
    return text.split(marker, 1)[1] if marker in text else text


def check_seat(player: object, count: int) -> int:
    """``player`` as a seat of a ``count``-seat table (any integer type but ``bool``).

    The one check of a seat number given to the API (legal actions, observations).

    >>> check_seat(1, 2)
    1
    >>> check_seat(2, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylib.errors.IllegalActionError: there is no player p3 at this 2-seat table: ...

    Raises:
        IllegalActionError: ``player`` is not a whole number, or not a seat of the table.
    """
    if isinstance(player, bool) or not isinstance(player, numbers.Integral):
        msg = f"bad player {shorten(player)}: players are numbered 0, 1, 2, …"
        raise IllegalActionError(msg)
    seat = int(player)
    if not 0 <= seat < count:
        msg = (
            f"there is no player {player_name(seat)} at this {count}-seat table: "
            f"players are numbered 0 to {count - 1}"
        )
        raise IllegalActionError(msg)
    return seat


def not_held(state: GameState[D], player: int, card: Card) -> str | None:
    """The refusal of a move with a card ``player`` does not hold, or ``None`` if they hold it.

    The one wording of every variant's "not in hand" refusals.

    >>> from rummylib import new_game, parse_card
    >>> state = new_game("gin", players=2, seed=1)
    >>> not_held(state, 0, state.hands[0][0]) is None, not_held(state, 0, parse_card("*"))
    (True, "* is not in p1's hand")
    """
    if card in state.hands[player]:
        return None
    return f"{card} is not in {player_name(player)}'s hand"


def lay_off_way(meld: Meld, action: LayOff, rules: MeldRules) -> Extension | str:
    """Where and as what the card of ``action`` goes onto ``meld``, or why it cannot.

    The one lay-off routine of every variant: the card must extend the meld as its
    ``stands_for`` says (a joker's reading), at the ``end`` given when it fits both ends of a
    run (and only then).
    """
    card = action.card
    stands = action.stands_for if action.stands_for is not None else card
    if stands.is_joker:
        return _lay_off_refusal(meld, action, rules, ())
    ways = [way for way in extensions(meld, card, rules) if way.stands_for == stands]
    if len(ways) == 1 and action.end is None:
        return ways[0]
    for way in ways if len(ways) > 1 else ():
        if way.end is action.end:
            return way
    return _lay_off_refusal(meld, action, rules, ways)


def _lay_off_refusal(
    meld: Meld, action: LayOff, rules: MeldRules, ways: Sequence[Extension]
) -> str:
    """Why :func:`lay_off_way` refuses ``action``; ``ways`` are its card's ways as it reads.

    Written only for a refusal: listings ask about many legal lay-offs.
    """
    card = action.card
    stands = action.stands_for if action.stands_for is not None else card
    shown = f"{card}={stands}" if card.is_joker or stands != card else str(card)
    if stands.is_joker:
        return f"cannot lay off {shown}: a joker must stand for a natural card"
    where = f"meld {action.meld_index} ({meld})"
    if not ways:
        grown = Meld(meld.kind, (*meld.cards, card), (*meld.stands_for, stands))
        try:
            grown.check(rules)
        except InvalidMeldError as error:
            reason = meld_reason(error)
        else:  # pragma: no cover  (a legal extension is always found above)
            reason = "it does not extend the meld"
        return f"cannot lay off {shown} on {where}: {reason}"
    if len(ways) == 1:
        return f"{shown} fits only one end of {where}: leave end out"
    return f"{shown} fits both ends of {where}: say which with end='low' or end='high'"


def lay_offs(player: int, index: int, meld: Meld, card: Card, rules: MeldRules) -> list[LayOff]:
    """The lay-offs of ``card`` on table meld ``index``: one per place and reading."""
    ways = extensions(meld, card, rules)
    if not ways:
        return []
    readings = Counter(way.stands_for for way in ways)
    return [
        LayOff(
            player=player,
            card=card,
            meld_index=index,
            # A joker always names its card; a wild card only where it stands for another.
            stands_for=way.stands_for if card.is_joker or way.stands_for != card else None,
            end=way.end if readings[way.stands_for] > 1 else None,
        )
        for way in ways
    ]


def shuffled(cards: Sequence[Card], seed: int, counter: int) -> tuple[Card, ...]:
    """The cards shuffled by the match's ``counter``-th shuffle.

    Every shuffle is derived from the match seed and its counter with a private
    :class:`random.Random`, so a seed replays the whole match and nothing global is touched.

    >>> from rummylib.cards import make_deck
    >>> deck = make_deck()
    >>> shuffled(deck, 7, 0) == shuffled(deck, 7, 0) != shuffled(deck, 7, 1)
    True
    """
    order = list(cards)
    random.Random(f"rummylib:{seed}:{counter}").shuffle(order)
    return tuple(order)


def deal_cards(
    deck: Sequence[Card], seats: Sequence[int], hand_size: int, player_count: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal ``hand_size`` cards to each seat, one at a time round-robin from the front.

    Returns the hands (an empty hand for seats not dealt in) and the rest of the deck.

    >>> from rummylib.cards import make_deck
    >>> hands, rest = deal_cards(make_deck()[:7], (0, 1), 3, 3)
    >>> [format_cards(hand) for hand in hands], format_cards(rest)
    (['Ac 3c 5c', '2c 4c 6c', ''], '7c')
    """
    needed = hand_size * len(seats)
    if needed > len(deck):
        msg = f"cannot deal {hand_size} cards to {len(seats)} players from {len(deck)} cards"
        raise ConfigurationError(msg)
    hands: list[tuple[Card, ...]] = [() for _ in range(player_count)]
    for offset, seat in enumerate(seats):
        hands[seat] = tuple(deck[offset : needed : len(seats)])
    return tuple(hands), tuple(deck[needed:])


def next_player(players_in: Sequence[int], player: int) -> int:
    """The player after ``player`` in playing order among ``players_in`` (seats in order).

    >>> next_player((0, 2, 3), 3), next_player((0, 2, 3), 0), next_player((0, 2, 3), 1)
    (0, 2, 2)
    """
    for seat in players_in:
        if seat > player:
            return seat
    return players_in[0]


def remove_cards(hand: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    """The hand without one copy of each of ``cards``; raise if any is missing.

    >>> from rummylib.cards import parse_cards
    >>> format_cards(remove_cards(parse_cards("7h 8h 7h"), parse_cards("7h")))
    '8h 7h'
    """
    cards = tuple(cards)
    if len(cards) == 1 and cards[0] in hand:
        at = hand.index(cards[0])
        return (*hand[:at], *hand[at + 1 :])
    wanted = Counter(cards)
    missing = wanted - Counter(hand)
    if missing:
        names = format_cards(sorted(missing.elements(), key=lambda card: card.index))
        msg = f"not in hand: {names}"
        raise IllegalActionError(msg)
    kept = []
    for card in hand:
        if wanted[card]:
            wanted[card] -= 1
        else:
            kept.append(card)
    return tuple(kept)
