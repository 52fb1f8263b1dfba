"""A Hypothesis state machine that plays rummy by the rules, to test a server or a bot against.

:class:`RulesMachine` plays one match per test case: Hypothesis picks the variant's table
settings, the player count and the deal, then interleaves legal moves (drawn from
:meth:`~rummylib.state.GameState.legal_actions`, greedy stretches of play, the engine's own
:meth:`~rummylib.state.GameState.auto_action`, host events) with actions the rules must refuse
(:func:`~rummylib.strategies.illegal_actions`). At every step it calls a hook, so a subclass
can drive its own code the same way and compare:

- :meth:`~RulesMachine.on_start` ``(state)``: the match is dealt;
- :meth:`~RulesMachine.on_action` ``(before, action, after)``: rummylib applied a legal action;
- :meth:`~RulesMachine.on_refused` ``(state, action, refusal, error)``: rummylib refused an
  action, built to break the rule :class:`~rummylib.strategies.Refusal` ``refusal``, with
  ``error``;
- :meth:`~RulesMachine.check_observation` ``(state, player, observation)``: after every step,
  for every seat, with rummylib's :class:`~rummylib.views.Observation`;
- :meth:`~RulesMachine.on_finish` ``(state)``: the test case ends.

A server that must accept exactly what ``is_legal`` accepts and show each player exactly their
observation asserts that in the hooks. The machine checks rummylib's side itself after every
step: no card is created or lost (:func:`assert_cards_conserved`), and each player's
observation holds their own hand, the public facts, their legal actions and nothing of what
they may not see (:func:`assert_consistent_observation`, :func:`assert_no_leak`).
Like :mod:`rummylib.strategies`, this module needs Hypothesis; nothing in rummylib imports it.

>>> from hypothesis import settings
>>> from hypothesis.stateful import run_state_machine_as_test
>>> class CountingMachine(RulesMachine):
...     variant = "turkish500"
...     moves = 0
...
...     def on_action(self, before, action, after):
...         CountingMachine.moves += 1
>>> quick = settings(max_examples=3, stateful_step_count=5, database=None, deadline=None)
>>> run_state_machine_as_test(CountingMachine, settings=quick)
>>> CountingMachine.moves > 0
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar, Final

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from rummylib import (
    Card,
    GameState,
    IllegalActionError,
    Observation,
    Variant,
    format_cards,
    get_variant,
    new_game,
)
from rummylib.actions import (
    Action,
    Codec,
    Discard,
    Disconnect,
    DrawStock,
    Knock,
    Pass,
    PlayerAction,
    Reconnect,
    TimeExpired,
    specs,
)
from rummylib.bots import GreedyBot
from rummylib.cards import JOKER
from rummylib.engine import PhaseBase
from rummylib.phases import Phase
from rummylib.strategies import Refusal, illegal_actions, legal_actions, sorted_deal, variants

__all__ = [
    "MALFORMED_VALUES",
    "NOT_ACTIONS",
    "Refusal",
    "RulesMachine",
    "assert_cards_conserved",
    "assert_consistent_observation",
    "assert_no_leak",
    "hide_from",
    "malformed_actions",
]

#: The longest stretch of greedy play one step of :class:`RulesMachine` makes.
MAX_GREEDY_MOVES: Final = 12
#: The most moves one ``steer`` step of :class:`RulesMachine` plays towards the match's aim.
MAX_STEERED_MOVES: Final = 1000
#: How many listed moves ``steer`` looks one move ahead through, for one that reaches the aim.
STEER_LOOKAHEAD: Final = 64
#: How ``steer`` plays on the way to the aim's phase: the greedy bot's moves, one in
#: ``GUIDE_ODDS + 1`` another legal move (they end deals and matches), or stalling (drawing
#: and passing, never knocking: the stock runs out).
STEER_STYLES: Final = ("greedy", "stall")
#: Out of ``GUIDE_ODDS + 1`` greedy-style moves of ``steer``, about one is another legal move.
GUIDE_ODDS: Final = 4

_GUIDE: Final = GreedyBot()
_HOST_EVENTS: Final = (Disconnect, Reconnect, TimeExpired)
#: The deals :meth:`RulesMachine.start_match` draws from (drawn values are printed, so they
#: are words, not states): the sorted deal one time in four.
_DEALS: Final = ("sorted", "shuffled", "shuffled", "shuffled")


#: Values of the wrong type (or out of range) for each kind of action field, and the player's.
MALFORMED_VALUES: Final[Mapping[Codec | str, tuple[object, ...]]] = {
    "player": (-1, "0", True, None, 1.5),
    Codec.CARD: ("7h", None, 7),
    Codec.OPTIONAL_CARD: ("7h", 7),
    Codec.WHOLE: ("0", True, 1.5, None),
    Codec.FLAG: ("yes", 1, None),
    Codec.MELDS: ("7h 8h 9h", None, 7),
    Codec.END: ("sideways", 1),
}
#: Objects that are not actions at all, which ``verify`` must refuse as such.
NOT_ACTIONS: Final[tuple[object, ...]] = (None, 0, "draw_stock", {"player": 0}, JOKER, DrawStock)


def _valid_value(codec: Codec) -> object:
    """A well-typed value for a field, for building an action with one other field wrong."""
    values: dict[Codec, object] = {
        Codec.CARD: JOKER,
        Codec.OPTIONAL_CARD: None,
        Codec.WHOLE: 0,
        Codec.FLAG: False,
        Codec.MELDS: (),
        Codec.END: None,
    }
    return values[codec]


def malformed_actions() -> list[tuple[type[PlayerAction], dict[str, object]]]:
    """Every registered action kind with one field of the wrong type: the fields to build it.

    Each action class's constructor must refuse each with
    :class:`~rummylib.errors.IllegalActionError`.

    >>> from rummylib.actions import Discard
    >>> (Discard, {"player": 0, "card": "7h"}) in malformed_actions()
    True
    """
    cases: list[tuple[type[PlayerAction], dict[str, object]]] = []
    for spec in specs():
        fields: dict[str, object] = {"player": 0}
        fields.update((name, _valid_value(codec)) for name, codec in spec.codecs)
        slots: list[tuple[str, Codec | str]] = [("player", "player"), *spec.codecs]
        for name, codec in slots:
            cases += [(spec.cls, {**fields, name: bad}) for bad in MALFORMED_VALUES[codec]]
    return cases


def assert_cards_conserved(state: GameState, deck: Counter[Card]) -> None:
    """Raise :class:`AssertionError` unless ``state`` holds exactly the cards of ``deck``.

    >>> state = new_game("carousel", players=2, seed=1)
    >>> assert_cards_conserved(state, Counter(state.variant.deck_for(2)))
    >>> assert_cards_conserved(state.replace(stock=state.stock[1:]), state.all_cards())
    Traceback (most recent call last):
    ...
    AssertionError: cards were lost: 4c
    """
    cards = state.all_cards()
    if cards == deck:
        return
    lost = deck - cards
    made = cards - deck
    problems = []
    if lost:
        problems.append(f"lost: {format_cards(_in_order(lost))}")
    if made:
        problems.append(f"created: {format_cards(_in_order(made))}")
    msg = f"cards were {'; '.join(problems)}"
    raise AssertionError(msg)


def _in_order(cards: Counter[Card]) -> list[Card]:
    return sorted(cards.elements(), key=lambda card: card.index)


def assert_consistent_observation(state: GameState, player: int, observation: Observation) -> None:
    """Raise :class:`AssertionError` unless ``observation`` is ``player``'s view of ``state``.

    It must be that player's, hold their own hand as dealt and drawn, every public fact of
    the state (hand sizes, stock size, discard pile, the cards face up, table, scores, phase,
    turn, deal, the variant's public facts) and their legal actions.

    >>> state = new_game("rummy101", players=2, seed=3)
    >>> assert_consistent_observation(state, 1, state.observation(1))
    >>> assert_consistent_observation(state, 0, state.observation(1))
    Traceback (most recent call last):
    ...
    AssertionError: the observation is p2's, not p1's
    """
    if observation.player != player:
        msg = f"the observation is p{observation.player + 1}'s, not p{player + 1}'s"
        raise AssertionError(msg)
    expected: dict[str, object] = {
        "hand": state.hands[player],
        "hand_sizes": tuple(len(hand) for hand in state.hands),
        "stock_size": len(state.stock),
        "discard_pile": state.discard_pile,
        "aside": state.aside,
        "hidden_count": len(state.hidden),
        "table": state.table,
        "meld_rules": state.meld_rules,
        "scores": state.scores,
        "players_in": state.players_in,
        "phase": state.phase,
        "current_player": state.current_player,
        "to_act": state.to_act,
        "deal_number": state.deal_number,
        "public": state.variant.public_info(state, player),
        "legal_actions": state.legal_actions(player),
    }
    for name, value in expected.items():
        seen = getattr(observation, name)
        if seen != value:
            msg = f"p{player + 1}'s observation shows {name} {seen!r}, not {value!r}"
            raise AssertionError(msg)


def hide_from(state: GameState, player: int, rng: random.Random) -> GameState:
    """The same state except what ``player`` may not see: others' hands, the stock, the seed.

    The cards in the other hands, the stock and the cards set aside face down are shuffled
    together and dealt back in the same numbers; the seed changes. An observation by
    ``player`` must not tell the two apart.

    >>> state = new_game("rummy101", players=3, seed=3)
    >>> twin = hide_from(state, 0, random.Random(1))
    >>> twin.hands[0] == state.hands[0], twin.hands[1] == state.hands[1], twin == state
    (True, False, False)
    """
    hidden = [*state.stock, *state.hidden]
    for seat, hand in enumerate(state.hands):
        if seat != player:
            hidden += hand
    rng.shuffle(hidden)
    hands = []
    for seat, hand in enumerate(state.hands):
        if seat == player:
            hands.append(hand)
        else:
            hands.append(tuple(hidden[: len(hand)]))
            hidden = hidden[len(hand) :]
    face_down = tuple(hidden[: len(state.hidden)])
    stock = tuple(hidden[len(state.hidden) :])
    return state.replace(hands=tuple(hands), stock=stock, hidden=face_down, seed=state.seed + 1)


def assert_no_leak(state: GameState, player: int, *, seed: int = 0) -> None:
    """Raise :class:`AssertionError` if ``player``'s observation depends on what they cannot see.

    The observation of ``state`` must equal that of :func:`hide_from` ``(state, player)``.

    >>> state = new_game("turkish500", players=3, seed=3)
    >>> for player in range(3):
    ...     assert_no_leak(state, player)
    """
    seen = state.observation(player)
    twin = hide_from(state, player, random.Random(seed))
    if twin.observation(player) != seen:
        msg = f"p{player + 1}'s observation changes with cards they cannot see"
        raise AssertionError(msg)


class RulesMachine(RuleBasedStateMachine):
    """One match of a variant, played by the rules, with a hook at every step.

    Set the class attributes to choose what is played, override the hooks to drive and check
    your own code, and run it as Hypothesis runs any state machine
    (``TestMyServer = MyMachine.TestCase``, settings in ``MyMachine.TestCase.settings``).
    The current state is :attr:`state`; a hook that fails (raises) fails the test case, and
    Hypothesis shrinks it to the fewest steps, from the :func:`~rummylib.strategies.sorted_deal`
    where it can.

    The steps (Hypothesis rules) are ``play_legal_move``, ``play_greedily`` (a stretch of up to
    ``MAX_GREEDY_MOVES`` (12) moves by :class:`~rummylib.bots.GreedyBot`, which reaches
    declarations and the ends of deals), ``steer`` (up to ``MAX_STEERED_MOVES`` (1,000) moves
    towards the match's *aim*, a phase drawn when it is dealt: any listed move that enters the
    phase is taken, else greedy play with a few other moves, or stalling play; so Rummy 101's
    rebuy, Carousel's final turn and gin's wall are reached within one step, and a failing
    example reads as a few steps from a sorted deal), ``play_engine_move``,
    ``report_host_event`` (a legal :class:`~rummylib.actions.Disconnect`,
    :class:`~rummylib.actions.Reconnect` or :class:`~rummylib.actions.TimeExpired`),
    ``try_illegal_action`` (every kind of :class:`~rummylib.strategies.Refusal`, illegal
    melds included) and ``try_malformed_action`` (every registered kind of action built with a
    field of the wrong type, which its constructor must refuse, and something that is not an
    action at all, which ``verify`` must refuse; see :meth:`on_malformed`). A subclass may add
    rules of its own.

    Attributes:
        variant: the variant to play (an instance or a registered name); ``None`` draws one of
            the registered variants, with default settings, for each test case.
        players: the player count; ``None`` draws one in the variant's range.
        table_settings: settings to play the variant with, one mapping drawn per test case
            (the defaults first); ignored when ``variant`` is ``None``.
        refusals: the kinds of illegal action ``try_illegal_action`` tries.
        host_events: whether ``report_host_event`` runs.
        check_leaks: whether every step checks :func:`assert_no_leak` for every seat.
        aims: the phases ``steer`` may aim for (one drawn per test case); ``None``: every
            phase of the variant (:attr:`~rummylib.engine.Variant.phase_actions`) and the end
            of the match.

    >>> RulesMachine.refusals == tuple(Refusal)
    True
    """

    variant: ClassVar[Variant | str | None] = None
    players: ClassVar[int | None] = None
    table_settings: ClassVar[Sequence[Mapping[str, Any]]] = ({},)
    refusals: ClassVar[Collection[Refusal]] = tuple(Refusal)
    host_events: ClassVar[bool] = True
    check_leaks: ClassVar[bool] = True
    aims: ClassVar[Collection[PhaseBase] | None] = None

    def __init__(self) -> None:
        super().__init__()
        self._state: GameState | None = None
        self._deck: Counter[Card] = Counter()
        self._aim: PhaseBase = Phase.MATCH_OVER

    @property
    def state(self) -> GameState:
        """The match as it stands.

        Raises:
            AttributeError: the match has not started (before ``on_start``).
        """
        if self._state is None:
            msg = "the match has not started yet"
            raise AttributeError(msg)
        return self._state

    # -- hooks ---------------------------------------------------------------------------------

    def on_start(self, state: GameState) -> None:
        """Called once the match is dealt, before any step; start your own match here.

        ``state.variant``, ``state.player_count``, ``state.seed`` and ``state.deck`` are what
        :func:`~rummylib.state.new_game` was given, so ``new_game(state.variant,
        players=state.player_count, seed=state.seed, deck=state.deck)`` is the same match.
        """

    def on_action(self, before: GameState, action: Action, after: GameState) -> None:
        """Called after rummylib applied the legal ``action`` to ``before``, giving ``after``.

        A server under test must accept the same action here.
        """

    def on_refused(
        self, state: GameState, action: Action, refusal: Refusal, error: IllegalActionError
    ) -> None:
        """Called after rummylib refused ``action`` in ``state`` (which is unchanged).

        ``refusal`` says how the action was built to be illegal, ``error`` is what rummylib
        raised. A server under test must refuse the same action here and stay as it was.
        """

    def on_malformed(
        self, state: GameState, built: object, fields: Mapping[str, object], error: Exception
    ) -> None:
        """Called after rummylib refused a malformed action in ``state`` (which is unchanged).

        ``built`` is the action class whose constructor refused ``fields`` (one of them of
        the wrong type), or, with ``fields`` empty, the object that is not an action and that
        :meth:`~rummylib.state.GameState.verify` refused. ``error`` is the
        :class:`~rummylib.errors.IllegalActionError` rummylib raised. A server under test must
        refuse the same input here.
        """

    def check_observation(self, state: GameState, player: int, observation: Observation) -> None:
        """Called after every step (and after the deal) for every seat.

        ``observation`` is rummylib's view of ``state`` for ``player``, already checked
        against the state; compare your server's view for that player with it here.
        """

    def on_finish(self, state: GameState) -> None:
        """Called when the test case ends, over or not (from ``teardown``)."""

    # -- the steps -----------------------------------------------------------------------------

    def _playing(self) -> bool:
        return self._state is not None and not self._state.is_over

    def _variant(self, data: st.DataObject) -> Variant:
        if self.variant is None:
            return data.draw(variants(players=self.players), label="variant")
        table = data.draw(st.sampled_from(self.table_settings), label="settings")
        if isinstance(self.variant, str):
            return get_variant(self.variant, **table)
        return attrs.evolve(self.variant, **table) if table else self.variant

    @initialize(data=st.data())
    def start_match(self, data: st.DataObject) -> None:
        """Deal a match: the settings, the player count, the deal and the seed, all drawn.

        The deal is the :func:`~rummylib.strategies.sorted_deal` about one time in four (and
        examples shrink to it), else the shuffle of the seed. The aim of ``steer`` is drawn
        too: one of :attr:`aims`.
        """
        variant = self._variant(data)
        players = self.players
        if players is None:
            seats = st.integers(variant.min_players, variant.max_players)
            players = data.draw(seats, label="players")
        deal = data.draw(st.sampled_from(_DEALS), label="deal")
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        deck = sorted_deal(variant, players) if deal == "sorted" else None
        state = new_game(variant, players=players, seed=seed, deck=deck)
        aims = [*type(variant).phase_actions, Phase.MATCH_OVER]
        if self.aims is not None:
            aims = [phase for phase in aims if phase in self.aims] or [Phase.MATCH_OVER]
        self._aim = data.draw(st.sampled_from(aims), label="aim")
        self._state = state
        self._deck = state.all_cards()
        self.on_start(state)
        self._check(state)

    @precondition(_playing)
    @rule(data=st.data())
    def play_legal_move(self, data: st.DataObject) -> None:
        """Apply one of the legal actions (melds possibly in another order)."""
        self._advance(data.draw(legal_actions(self.state), label="move"))

    @precondition(_playing)
    @rule(moves=st.integers(1, MAX_GREEDY_MOVES))
    def play_greedily(self, moves: int) -> None:
        """Let the greedy bot play ``moves`` moves (each through :meth:`on_action`)."""
        for _ in range(moves):
            state = self.state
            if state.is_over:
                break
            self._advance(_GUIDE.choose(state.observation(state.to_act[0])))

    @precondition(_playing)
    @rule(style=st.sampled_from(STEER_STYLES), seed=st.integers(0, 2**16))
    def steer(self, style: str, seed: int) -> None:
        """Play towards the aim's phase until it is reached (or ``MAX_STEERED_MOVES`` moves).

        A listed move (of the first ``STEER_LOOKAHEAD``) that enters the phase is taken; else
        the move is the greedy bot's, or one in ``GUIDE_ODDS + 1`` a legal move chosen by
        ``seed`` (``"greedy"``), or a draw or a pass where there is one and never a knock
        (``"stall"``, until the stock runs out or is dealt anew; then greedy).
        One step goes all the way, so a failing example reads as a few steps from the deal.
        """
        rng = random.Random(seed)
        shuffles = self.state.shuffle_count
        for _ in range(MAX_STEERED_MOVES):
            state = self.state
            if state.is_over or state.phase is self._aim:
                break
            if style == "stall" and (not state.stock or state.shuffle_count > shuffles):
                style = "greedy"  # the stock ran out (or was dealt anew): stalling did its part
            self._advance(self._steered_move(state, style, rng))

    def _steered_move(self, state: GameState, style: str, rng: random.Random) -> Action:
        listed = state.legal_actions()
        for action in listed[:STEER_LOOKAHEAD]:
            if state.apply(action).phase is self._aim:
                return action
        if style == "greedy" and rng.randrange(GUIDE_ODDS + 1) < GUIDE_ODDS:
            return _GUIDE.choose(state.observation(state.to_act[0]))
        if style == "stall":  # the stock runs out: Carousel's final turn, gin's wall
            for kind in (DrawStock, Pass):
                stalling = [action for action in listed if type(action) is kind]
                if stalling:
                    return stalling[0]
            discards: list[Action] = [action for action in listed if isinstance(action, Discard)]
            calm = discards or [action for action in listed if not isinstance(action, Knock)]
            return rng.choice(calm or listed)
        return rng.choice(listed)  # the greedy style's one move in GUIDE_ODDS + 1 elsewhere

    @precondition(lambda self: self._state is not None)
    @rule(data=st.data())
    def try_malformed_action(self, data: st.DataObject) -> None:
        """Build malformed actions and verify what is not an action: rummylib refuses them all.

        Every registered kind is built once with a field of the wrong type (the field and
        value drawn for each kind), then one object that is not an action is verified.
        """
        state = self.state
        text = state.to_json()
        by_kind: dict[type[PlayerAction], list[dict[str, object]]] = {}
        for kind, fields in malformed_actions():
            by_kind.setdefault(kind, []).append(fields)
        # One malformed build of every registered kind, then one thing that is not an action.
        for kind in sorted(by_kind, key=lambda kind: kind.kind):
            fields = data.draw(st.sampled_from(by_kind[kind]), label=kind.__name__)
            build: Any = kind  # the fields are wrong on purpose
            try:
                build(**fields)
            except IllegalActionError as error:
                refused = error
            else:
                msg = f"rummylib built {kind.__name__}(**{fields!r}), a malformed action"
                raise AssertionError(msg)
            self.on_malformed(state, kind, fields, refused)
        thing = data.draw(st.sampled_from(NOT_ACTIONS), label="not an action")
        assert not state.is_legal(thing), f"is_legal accepted {thing!r}"  # type: ignore[arg-type]
        try:
            state.verify(thing)  # type: ignore[arg-type]
        except IllegalActionError as error:
            refused = error
        else:
            msg = f"rummylib verified {thing!r}, which is not an action"
            raise AssertionError(msg)
        assert state.to_json() == text, "a malformed action changed the state"
        self.on_malformed(state, thing, {}, refused)
        self._check(state)

    @precondition(_playing)
    @rule()
    def play_engine_move(self) -> None:
        """Apply the engine's own move for whoever must act (``auto_action``)."""
        self._advance(self.state.auto_action())

    @precondition(lambda self: self.host_events and self._playing())
    @rule(data=st.data())
    def report_host_event(self, data: st.DataObject) -> None:
        """Apply a legal host event: a disconnection, a reconnection or a clock run out."""
        state = self.state
        events = [
            event
            for kind in _HOST_EVENTS
            for player in range(state.player_count)
            if state.is_legal(event := kind(player=player))
        ]
        if events:
            self._advance(data.draw(st.sampled_from(events), label="event"))

    @precondition(lambda self: self._state is not None)
    @rule(data=st.data())
    def try_illegal_action(self, data: st.DataObject) -> None:
        """Try an action the rules must refuse; rummylib refuses it and nothing changes."""
        state = self.state
        candidates = illegal_actions(state, self.refusals)
        if candidates.is_empty:
            return
        action, refusal = data.draw(candidates, label="illegal")
        text = state.to_json()
        try:
            state.verify(action)
        except IllegalActionError as error:
            refused = error
        else:
            msg = f"rummylib accepted {action!r}, built to be refused ({refusal.value})"
            raise AssertionError(msg)
        assert state.to_json() == text, "a refused action changed the state"
        self.on_refused(state, action, refusal, refused)
        self._check(state)

    def teardown(self) -> None:
        """Call :meth:`on_finish` with the last state."""
        if self._state is not None:
            self.on_finish(self._state)

    # -- what every step checks ----------------------------------------------------------------

    def _advance(self, action: Action) -> None:
        before = self.state
        after = before.apply(action)
        self._state = after
        self.on_action(before, action, after)
        self._check(after)

    def _check(self, state: GameState) -> None:
        assert_cards_conserved(state, self._deck)
        for player in range(state.player_count):
            observation = state.observation(player)
            assert_consistent_observation(state, player, observation)
            if self.check_leaks:
                assert_no_leak(state, player, seed=len(state.history))
            self.check_observation(state, player, observation)
