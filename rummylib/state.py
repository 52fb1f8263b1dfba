"""The game engine: immutable states, checked actions, observations, saved games.

A :class:`GameState` is a value. :meth:`GameState.apply` returns the next state and never
changes the old one; an illegal action raises :class:`~rummylib.errors.IllegalActionError`
and changes nothing. The engine knows phases, turns, cards and scores; each variant supplies
its rules through the hooks of :class:`~rummylib.engine.Variant`.

>>> from rummylib import new_game
>>> state = new_game("rummy101", players=3, seed=1)
>>> state.phase, state.current_player, [len(hand) for hand in state.hands]
(<Phase.DRAW: 'draw'>, 0, [13, 13, 13])
>>> state.apply(state.legal_actions()[0]).phase
<Phase.PLAY: 'play'>
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Generic

import attrs

from rummylib import _record, _render, _svg
from rummylib._notation import ActionLine, format_action, parse_line
from rummylib.actions import Action, PlayerAction, action_classes, canonical_action
from rummylib.cards import Card, format_cards, parse_cards
from rummylib.engine import (
    RETIRED_FACTS,
    D,
    Phase,
    PhaseBase,
    TurnClock,
    Variant,
    check_seat,
    player_name,
    public_fact,
)
from rummylib.errors import (
    ConfigurationError,
    IllegalActionError,
    NotationError,
    RummyError,
    shorten,
)
from rummylib.melds import Meld, MeldRules
from rummylib.registry import get_variant, with_settings
from rummylib.scoring import DealResult, MatchResult
from rummylib.views import Observation, observe

_set = object.__setattr__
#: The registered action classes (rummylib.actions.register_action adds to it).
_ACTION_CLASS_SET: Final = action_classes()

__all__ = ["ActionLog", "GameState", "MatchInfo", "Phase", "new_game", "stack_deck"]


@attrs.frozen(kw_only=True, eq=False, init=False)  # __init__ by hand, below (positional)
class ActionLog:
    """One action of a match's history, linked to the actions before it.

    Appending is O(1) and every state shares its predecessor's log, so a long match costs
    one small node per action (two references; the actions listed by the engine are shared
    objects); :attr:`GameState.history` reads it as a tuple.
    """

    previous: ActionLog | None
    action: Action

    def __init__(self, previous: ActionLog | None, action: Action) -> None:
        # Written by hand (one node per action): attrs' generated __init__ costs twice as much.
        _set(self, "previous", previous)
        _set(self, "action", action)

    @property
    def length(self) -> int:
        """The number of actions in the log, counted along the chain (linear in it)."""
        count = 0
        node: ActionLog | None = self
        while node is not None:
            count += 1
            node = node.previous
        return count

    def actions(self) -> tuple[Action, ...]:
        """Every action, oldest first."""
        items: list[Action] = []
        node: ActionLog | None = self
        while node is not None:
            items.append(node.action)
            node = node.previous
        items.reverse()
        return tuple(items)

    @classmethod
    def of(cls, actions: Sequence[Action]) -> ActionLog | None:
        """The log of ``actions`` (oldest first), built without recursion; ``None`` if empty."""
        log: ActionLog | None = None
        for action in actions:
            log = cls(previous=log, action=action)
        return log

    def __reduce__(self) -> tuple[object, tuple[tuple[Action, ...]]]:
        # The default (pickle and copy.deepcopy) walks the chain recursively and overflows the
        # stack after a few hundred actions: store the flat tuple and rebuild the chain.
        return (ActionLog.of, (self.actions(),))


def _same_log(first: ActionLog | None, second: ActionLog | None) -> bool:
    if first is second:
        return True
    if first is None or second is None:
        return False
    return first.actions() == second.actions()


@attrs.frozen(kw_only=True)
class MatchInfo:
    """The parts of a state that change at most once a deal.

    They are kept apart so that a turn copies little; read them through the
    :class:`GameState` attributes of the same names.
    """

    variant: Variant
    seed: int
    deck: tuple[Card, ...] | None = None
    player_count: int
    scores: tuple[int, ...]
    players_in: tuple[int, ...]
    deal_number: int = 1
    dealer: int = 0
    meld_rules: MeldRules | None = None
    deal_results: tuple[DealResult, ...] = ()
    result: MatchResult | None = None
    shuffle_count: int = 0


_MATCH_FIELDS: Final = frozenset(field.name for field in attrs.fields(MatchInfo))


@attrs.frozen(kw_only=True, repr=False, slots=False)
class GameState(Generic[D]):
    """One moment of a match. Immutable: every change makes a new state.

    ``GameState[D]`` is generic over the variant's own bookkeeping record ``D``
    (``GameState[IsraeliDetail]``, …); a bare ``GameState`` is ``GameState[Any]``.

    Attributes:
        match: the match-level facts (variant, seed, scores, deal number, …), also readable directly
            as the attributes below.
        phase: what the game waits for.
        current_player: whose turn it is, or ``None`` (votes, windows, the end).
        to_act: every player who may act now.
        hands: each player's cards, in the order received.
        stock: the stock, top card first.
        discard_pile: the discard pile, top card last.
        aside: cards turned face up beside the stock for the deal, seen by every player (the
            Indian wild card, the Israeli open card); the variant's rules say whether one may
            be taken.
        hidden: cards set aside face down, seen by nobody (a dropped hand, a finishing card):
            counted among the match's cards, never shown in an observation.
        table: the melds on the table.
        log: every action applied in the match, host events included, as a persistent
            list (each state shares its predecessor's); read it as :attr:`history`.
        detail: the variant's own bookkeeping, a frozen record the variant defines (``D``).
    """

    match: MatchInfo
    phase: PhaseBase
    current_player: int | None = None
    to_act: tuple[int, ...] = ()
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...] = ()
    discard_pile: tuple[Card, ...] = ()
    aside: tuple[Card, ...] = ()
    hidden: tuple[Card, ...] = ()
    table: tuple[Meld, ...] = ()
    log: ActionLog | None = attrs.field(
        default=None, eq=attrs.cmp_using(eq=_same_log), hash=False, repr=False
    )
    detail: D
    _legal: dict[int, tuple[Action, ...]] = attrs.field(
        factory=dict, init=False, eq=False, hash=False
    )

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied in the match, host events included, oldest first.

        An action that carries melds is recorded as :func:`~rummylib.actions.canonical_action`
        gives it (each meld's cards in canonical order, R10), so the same play written two
        ways gives equal histories.
        """
        return () if self.log is None else self.log.actions()

    @property
    def variant(self) -> Variant[D]:
        """The variant and its table settings."""
        return self.match.variant

    @property
    def seed(self) -> int:
        """The seed every shuffle of the match derives from (never shown to players)."""
        return self.match.seed

    @property
    def deck(self) -> tuple[Card, ...] | None:
        """The stacked first-deal deck, if one was given to :func:`new_game`."""
        return self.match.deck

    @property
    def player_count(self) -> int:
        """Seats at the table, numbered 0…n−1 in playing order."""
        return self.match.player_count

    @property
    def scores(self) -> tuple[int, ...]:
        """Match totals, per player."""
        return self.match.scores

    @property
    def players_in(self) -> tuple[int, ...]:
        """Players still in the match, in seat order."""
        return self.match.players_in

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the match."""
        return self.match.deal_number

    @property
    def dealer(self) -> int:
        """Who dealt the current deal."""
        return self.match.dealer

    @property
    def meld_rules(self) -> MeldRules:
        """The meld rules in force for the current deal.

        The variant's :attr:`~rummylib.engine.Variant.meld_rules` unless its
        :meth:`~rummylib.engine.Variant.after_deal` set rules for the deal (a wild rank).

        >>> new_game("rummy101", players=2, seed=5).meld_rules.joker_beside_ace
        False
        """
        return self.match.meld_rules or self.match.variant.meld_rules

    @property
    def deal_results(self) -> tuple[DealResult, ...]:
        """The score record of every finished deal."""
        return self.match.deal_results

    @property
    def result(self) -> MatchResult | None:
        """How the match ended, once it has."""
        return self.match.result

    @property
    def shuffle_count(self) -> int:
        """How many shuffles the match has had (each derives from the seed)."""
        return self.match.shuffle_count

    # -- reading ------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the match has ended.

        >>> new_game("rummy71", players=2, seed=3).is_over
        False
        """
        return self.match.result is not None  # not via .result: play loops ask every action

    def legal_actions(self, player: int | None = None) -> tuple[Action, ...]:
        """The legal actions of ``player`` (default: of everyone in :attr:`to_act`).

        The order is canonical (deterministic). Every listed action is legal; for actions
        that carry no melds, ``action in state.legal_actions()`` exactly when
        ``state.is_legal(action)``.

        >>> state = new_game("rummy101", players=2, seed=5)
        >>> state.legal_actions(1)
        ()

        A seat beyond the table is an error, not an empty tuple (which would read as "not
        their turn"), as :meth:`observation` says:

        >>> state.legal_actions(99)
        Traceback (most recent call last):
        ...
        rummylib.errors.IllegalActionError: there is no player p100 at this 2-seat table: ...

        Raises:
            IllegalActionError: ``player`` is not a whole number, or not a seat of the table.
        """
        if player is None:
            actors = self.to_act
            if len(actors) != 1:
                return tuple(action for actor in actors for action in self.legal_actions(actor))
            player = actors[0]
        elif player.__class__ is not int or not 0 <= player < self.match.player_count:
            player = check_seat(player, self.match.player_count)
        cached = self._legal.get(player)
        if cached is None:
            variant = self.match.variant  # as .variant reads it, without the property call
            cached = variant.legal_actions(self, player) if player in self.to_act else ()
            self._legal[player] = cached
        return cached

    def verify(self, action: Action) -> None:
        """Raise :class:`~rummylib.errors.IllegalActionError` unless ``action`` is legal now.

        >>> from rummylib.actions import Discard
        >>> state = new_game("rummy101", players=2, seed=5)
        >>> state.verify(Discard(player=0, card=state.hands[0][0]))
        Traceback (most recent call last):
        ...
        rummylib.errors.IllegalActionError: p1 must take a card first
        """
        if action.__class__ not in _ACTION_CLASS_SET:
            msg = f"not an action: {shorten(action)}"
            if isinstance(action, PlayerAction):
                msg += f" ({type(action).__name__} is not registered: see register_action)"
            raise IllegalActionError(msg)
        if self.result is not None:
            msg = "the match is over"
            raise IllegalActionError(msg)
        if action.player >= self.player_count:
            seat = player_name(action.player)
            msg = f"there is no player {seat} at this {self.player_count}-seat table"
            raise IllegalActionError(msg)
        try:
            self.variant.verify(self, action)
        except IllegalActionError:
            raise
        except RummyError as error:
            # A variant's check may read cards or melds (NotationError, InvalidMeldError): to
            # the caller that is a refusal like any other, so verify raises one kind of error.
            raise IllegalActionError(str(error)) from error

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`verify` accepts ``action``.

        >>> from rummylib.actions import DrawStock
        >>> new_game("rummy101", players=2, seed=5).is_legal(DrawStock(player=0))
        True
        """
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def parse_action(self, line: str, player: int | None = None) -> Action:
        """Read a move written as a game record writes it: ``"p1 discard 7h"``.

        The line is in the variant's notation (tiles for Rummikub: ``"p1 table | k7 k8 k9"``)
        and follows the record format (:doc:`/reference/record-format`): a meld's joker may
        say what it stands for (``*=9h``), and one that does not is read by this table's meld
        rules. With ``player``, the line may leave out its seat, as ``rummylib play`` takes it
        (``"discard 7h"``), and a line naming another seat is refused. Host events
        (``"h timeout p2"``) are read as well. Only the notation is checked: whether the move
        is legal now is :meth:`is_legal`'s and :meth:`apply`'s question.

        >>> state = new_game("rummy101", players=2, seed=5)
        >>> state.parse_action("p1 take discard")
        TakeDiscard(player=0, count=1)
        >>> state.parse_action("meld | 7h 8h 9h", player=1)
        LayDown(player=1, melds=(Meld(run: 7h 8h 9h),))
        >>> state.format_action(state.parse_action("p2 discard Th"))
        'p2 discard Th'

        Raises:
            NotationError: the line is not a move in this notation (a bad word, card or seat,
                a dealer's line, a drawn card named, a card written ``??``, or another
                seat's line with ``player``).
        """
        if not isinstance(line, str):
            msg = f"a move is a line of text, not {shorten(line)}"
            raise NotationError(msg)
        text = line.strip()
        if player is not None:
            player = check_seat(player, self.player_count)
            own = player_name(player)
            if not re.match(r"(p\d+|h|d)\s", text + " "):  # a seat, a host or the dealer
                text = f"{own} {text}"
        item = parse_line(
            text,
            rules=self.meld_rules,
            players=self.player_count,
            notation=self.variant.notation,
        )
        if not isinstance(item, ActionLine):
            msg = f"{shorten(line)} is a dealer's line of a record, not a move"
            raise NotationError(msg)
        if item.face_down:  # how another player's record hides the card
            msg = f"{shorten(line)} hides the card it sets face down: a move names it"
            raise NotationError(msg)
        if item.drawn is not None:  # what a record adds after the move
            shown = format_action(item.action, notation=self.variant.notation)
            msg = f"{shorten(line)} names the card drawn, which the stock decides: write {shown!r}"
            raise NotationError(msg)
        action = item.action
        if player is not None and getattr(action, "player", player) != player:
            msg = f"{shorten(line)} is a move of {player_name(action.player)}, not of {own}"
            raise NotationError(msg)
        return action

    def format_action(self, action: Action) -> str:
        """The record line of ``action`` in the variant's notation: ``"p1 discard 7h"``.

        :meth:`parse_action` reads it back to an equal action.
        """
        return format_action(action, notation=self.variant.notation)

    def apply(self, action: Action) -> GameState[D]:
        """The state after ``action``; this state is left unchanged.

        Raises:
            IllegalActionError: the action is not legal now; the message says why.
        """
        # One of the actions listed for its player (the very object: each of them is legal)
        # needs no check. A plain loop: on Python 3.11 it finds it faster than any(map(...)).
        listed = self._legal.get(action.player, ()) if action.__class__ in _ACTION_CLASS_SET else ()
        for known in listed:
            if known is action:
                break
        else:
            self.verify(action)  # not one of the listed actions
        after = self.match.variant.apply(self, action)
        if after is self:  # pragma: no cover  (every action changes something)
            after = self.replace()
        # `after` is new and not yet seen by anyone: record the action in place (a state keeps
        # its fields in a plain ``__dict__``, see replace).
        after.__dict__["log"] = ActionLog(self.log, canonical_action(action))
        return after

    def auto_action(self) -> Action:
        """The move the engine makes for a player who cannot act (e.g. disconnected).

        >>> new_game("rummy101", players=2, seed=5).auto_action()
        DrawStock(player=0)
        """
        if self.result is not None:
            msg = "the match is over"
            raise IllegalActionError(msg)
        return self.variant.auto_action(self)

    def turn_clock(self) -> TurnClock | None:
        """How long the players who must act now have, or ``None`` where no clock runs.

        The library keeps no time: the host does, and reports a
        :class:`~rummylib.actions.TimeExpired` when a clock runs out.

        >>> new_game("rummy101", players=2, seed=5).turn_clock().seconds
        60
        """
        if self.result is not None:
            return None
        return self.variant.turn_clock(self)

    def observation(self, player: int) -> Observation:
        """What ``player`` may see: never another hand, the stock order or the seed.

        >>> observation = new_game("rummy101", players=2, seed=5).observation(1)
        >>> len(observation.hand), observation.hand_sizes, observation.stock_size
        (13, (13, 13), 81)
        """
        return observe(self, player)

    # -- changing (for variants) ---------------------------------------------------------------

    def replace(self, **changes: Any) -> GameState[D]:
        """A copy with some fields changed; for variant hooks (states are immutable).

        Match-level names (``scores``, ``deal_number``, …) are accepted too, and so are the
        names of :data:`~rummylib.engine.RETIRED_FACTS` where the variant keeps such a fact
        (:meth:`~rummylib.engine.Variant.replace_facts`: the Israeli ``pot``, …).

        >>> state = new_game("rummy101", players=2, seed=5)
        >>> state.replace(scores=(10, 0)).scores, state.scores
        ((10, 0), (0, 0))
        >>> state.replace(pot=10).pot, state.pot
        (10, 2)
        """
        if not changes.keys() <= _STATE_FIELD_SET:  # match-level names, or a mistake
            retired = {name: changes.pop(name) for name in RETIRED_FACTS.keys() & changes.keys()}
            match_changes = {name: changes.pop(name) for name in _MATCH_FIELDS & changes.keys()}
            if match_changes:
                changes["match"] = attrs.evolve(self.match, **match_changes)
            unknown = changes.keys() - _STATE_FIELD_SET
            if unknown:
                msg = f"GameState has no field {sorted(unknown)[0]!r}"
                raise TypeError(msg)
            if retired:
                return self.variant.replace_facts(self.replace(**changes), retired)
        # The hot path of every action: a state keeps its fields in a plain ``__dict__`` (no
        # slots), so a copy is one C-level dict copy, then the changed fields and a fresh cache.
        fields = self.__dict__.copy()
        fields.update(changes)
        fields["_legal"] = {}
        new: GameState[D] = object.__new__(GameState)
        _set(new, "__dict__", fields)
        return new

    def all_cards(self) -> Counter[Card]:
        """Every card in the match, wherever it is: hands, stock, pile, table.

        The cards set aside face up or face down count too.

        >>> new_game("rummy101", players=4, seed=2).all_cards().total()
        108
        """
        cards: Counter[Card] = Counter(self.stock)
        for hand in self.hands:
            cards.update(hand)
        cards.update(self.discard_pile)
        cards.update(self.aside)
        cards.update(self.hidden)
        for meld in self.table:
            cards.update(meld.cards)
        return cards

    # -- saved games ---------------------------------------------------------------------------

    def to_json(self) -> str:
        """The match as JSON: its set-up, every action, and a snapshot of where it stands.

        :meth:`from_json` replays the actions and checks the snapshot, so the round trip is
        exact. The text contains the seed and every hand: it is for the host, not players.

        >>> state = new_game("rummy101", players=2, seed=5)
        >>> GameState.from_json(state.to_json()) == state
        True
        """
        return _record.dump(self)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Load a game saved by :meth:`to_json`.

        Nothing in the text is executed. The actions are replayed through the rules, and the
        result must agree with the snapshot.

        >>> GameState.from_json('{"format": "chess"}')
        Traceback (most recent call last):
        ...
        rummylib.errors.RummyError: bad saved game: format must be 'rummylib-game', not 'chess'

        Raises:
            RummyError: the text is not a saved game, or it is inconsistent.
        """
        saved = _record.read(text)
        try:
            state = new_game(saved.variant, players=saved.players, seed=saved.seed, deck=saved.deck)
        except RummyError as error:
            raise _record.bad(str(error)) from None
        for number, action in enumerate(saved.actions, 1):
            try:
                state = state.apply(action)
            except RummyError as error:
                raise _record.bad(f"action {number} is illegal: {error}") from None
        _record.check_snapshot(state, saved.snapshot)
        return state

    def render(self) -> str:
        """A plain-text view of the table for the host: every hand, the melds, the piles.

        ``str(state)`` is the same text. It shows every hand: it is not for players (see
        :meth:`observation`).
        """
        return _render.render(self)

    def __str__(self) -> str:
        return self.render()

    if TYPE_CHECKING:  # the retired names, read at run time through __getattr__ below

        @property
        def open_card(self) -> Card | None:
            """The Israeli open card, else ``None`` (:data:`~rummylib.engine.RETIRED_FACTS`)."""

        @property
        def multiplier(self) -> int:
            """The Israeli deal multiplier, else 1."""

        @property
        def pot(self) -> int:
            """The Israeli pot or the 500 pool, else 0."""

    else:  # read at run time only: mypy still catches a mistyped attribute

        def __getattr__(self, name: str) -> object:
            """A fact of the variant's public record, read as an attribute (``state.knocker``).

            Only names no attribute of the state has reach here: the fields of
            :meth:`~rummylib.engine.Variant.public_info`'s record, as every player sees them
            (``state.pot``, ``state.open_card`` at an Israeli table), and the neutral values of
            :data:`~rummylib.engine.RETIRED_FACTS` where the record has no such field.
            """
            return public_fact(self, name, lambda: self.variant.public_info(self, 0))

    def __repr__(self) -> str:
        hands = " | ".join(str(len(hand)) for hand in self.hands)
        return (
            f"<GameState {self.variant.name} deal {self.deal_number} {self.phase.value} "
            f"to act {self.to_act} hands {hands} stock {len(self.stock)}>"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # Pretty printers (IPython, Hypothesis's failure reports) would list the fields.
        printer.text(repr(self))

    def _repr_html_(self) -> str:  # a notebook shows the host's view, every hand (rummylib.svg)
        return _svg.host_view_html(self)


_STATE_FIELDS: Final = tuple(field.name for field in attrs.fields(GameState) if field.init)
_STATE_FIELD_SET: Final = frozenset(_STATE_FIELDS)


def new_game(
    variant: Variant | str,
    *,
    players: int,
    seed: int | None = None,
    deck: Sequence[Card] | str | None = None,
    **settings: Any,
) -> GameState:
    """Start a match.

    Args:
        variant: a :class:`~rummylib.engine.Variant` or a registered name.
        settings: the table's settings by name (as :func:`~rummylib.registry.get_variant`
            takes them; with a variant given, they change its settings).
        players: how many players; seats are 0…n−1 and player 0 plays first.
        seed: makes every shuffle of the match reproducible; ``None`` draws one from
            :mod:`secrets`.
        deck: stacks the first deal: cards are dealt one at a time from the front, round-robin
            from player 0, then any face-up card the variant turns; the rest is the stock, top
            first. It must be exactly the variant's deck for that many players, in any order.

    >>> state = new_game("rummy71", players=2, seed=11)
    >>> state.deal_number, state.multiplier, state.pot
    (1, 2, 2)
    >>> new_game("carousel", players=3, target_score=100).variant.target_score
    100
    >>> new_game("rummy71", players=9)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: rummy71 is for 2 to 6 players, not 9

    Raises:
        UnknownVariantError: the name is not registered.
        ConfigurationError: a bad player count, seed, deck or setting.
    """
    if isinstance(variant, str):
        variant = get_variant(variant, **settings)
    elif not isinstance(variant, Variant):
        msg = f"not a variant: {shorten(variant)}"
        raise ConfigurationError(msg)
    elif settings:
        variant = with_settings(variant, **settings)
    players = variant.check_players(players)
    if seed is None:
        seed = secrets.randbits(64)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        msg = f"seed must be a whole number, not {shorten(seed)}"
        raise ConfigurationError(msg)
    stacked: tuple[Card, ...] | None = None
    if deck is not None:
        stacked = parse_cards(deck) if isinstance(deck, str) else tuple(deck)
        expected = Counter(variant.deck_for(players))
        given = Counter(stacked)
        if given != expected:
            extra = sorted((given - expected).elements(), key=lambda card: card.index)
            missing = sorted((expected - given).elements(), key=lambda card: card.index)
            msg = (
                f"the stacked deck must be the {variant.name} deck for {players} players "
                f"({sum(expected.values())} cards); extra: "
                f"{' '.join(map(str, extra)) or 'none'}; missing: "
                f"{' '.join(map(str, missing)) or 'none'}"
            )
            raise ConfigurationError(msg)
    match = MatchInfo(
        variant=variant,
        seed=seed,
        deck=stacked,
        player_count=players,
        scores=(0,) * players,
        players_in=tuple(range(players)),
        dealer=players - 1,
    )
    state = GameState(
        match=match, phase=Phase.DRAW, hands=((),) * players, detail=variant.new_detail(players)
    )
    return variant.start(state)


def stack_deck(
    variant: Variant | str,
    hands: Sequence[Sequence[Card] | str],
    *,
    face_up: Sequence[Card] | str = (),
    stock: Sequence[Card] | str = (),
    players: int | None = None,
) -> tuple[Card, ...]:
    """A full deck for :func:`new_game`'s ``deck=`` that deals exactly these hands.

    The hands are dealt one card at a time round-robin from player 0 (as :func:`new_game`
    deals a stacked deck), then come the ``face_up`` cards the variant turns (the Israeli
    open card, the classic 500 up-card), then ``stock`` on top of the stock; the rest of the
    variant's deck follows in canonical order. For tests, examples and replays of real deals.

    >>> deck = stack_deck(
    ...     "rummy101",
    ...     ["Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"],
    ...     face_up="*",
    ...     stock="Ks",
    ... )
    >>> state = new_game("rummy101", players=2, seed=0, deck=deck)
    >>> str(state.open_card), str(state.stock[0]), format_cards(state.hands[1][:3])
    ('*', 'Ks', 'Ac 2c 3c')

    Args:
        variant: the variant (or its name) whose deck to stack.
        hands: each player's cards, player 0 first (card lists or text).
        face_up: the face-up cards dealt after the hands.
        stock: the top of the stock, top card first.
        players: the player count, if more players sit than ``hands`` gives (the others
            get empty hands listed here as ``""``).

    Raises:
        ConfigurationError: a hand has the wrong size, or a card is not in the deck that many
            times.
    """
    if isinstance(variant, str):
        variant = get_variant(variant)
    count = variant.check_players(len(hands) if players is None else players)
    size = variant.hand_size_for(count)
    parsed = [parse_cards(hand) if isinstance(hand, str) else tuple(hand) for hand in hands]
    for number, hand in enumerate(parsed):
        if len(hand) != size:
            msg = f"hand {number + 1} holds {len(hand)} cards, not {size}"
            raise ConfigurationError(msg)
    front = [hand[index] for index in range(size) for hand in parsed]
    for extra in (face_up, stock):
        front += parse_cards(extra) if isinstance(extra, str) else list(extra)
    deck = variant.deck_for(count)
    rest = Counter(deck)
    rest.subtract(front)
    missing = -rest
    if missing:
        names = format_cards(sorted(missing.elements(), key=lambda card: card.index))
        msg = f"not in the {variant.name} deck for {count} players that many times: {names}"
        raise ConfigurationError(msg)
    tail = []
    for card in deck:
        if rest[card] > 0:
            rest[card] -= 1
            tail.append(card)
    return (*front, *tail)
