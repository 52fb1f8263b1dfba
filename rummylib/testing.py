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
from rummylib.actions import Action, Disconnect, Reconnect, TimeExpired
from rummylib.bots import GreedyBot
from rummylib.strategies import Refusal, illegal_actions, legal_actions, sorted_deal, variants

__all__ = [
    "Refusal",
    "RulesMachine",
    "assert_cards_conserved",
    "assert_consistent_observation",
    "assert_no_leak",
    "hide_from",
]

#: The longest stretch of greedy play one step of :class:`RulesMachine` makes.
MAX_GREEDY_MOVES: Final = 12

_GUIDE: Final = GreedyBot()
_HOST_EVENTS: Final = (Disconnect, Reconnect, TimeExpired)
#: The deals :meth:`RulesMachine.start_match` draws from (drawn values are printed, so they
#: are words, not states): the sorted deal one time in four.
_DEALS: Final = ("sorted", "shuffled", "shuffled", "shuffled")


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
    the state (hand sizes, stock size, discard pile, open card, table, scores, phase, turn,
    deal, multiplier, pot) and their legal actions.

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
        "multiplier": state.multiplier,
        "pot": state.pot,
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
    declarations and the ends of deals), ``play_engine_move``, ``report_host_event`` (a legal
    :class:`~rummylib.actions.Disconnect`, :class:`~rummylib.actions.Reconnect` or
    :class:`~rummylib.actions.TimeExpired`) and ``try_illegal_action``. A subclass may add
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

    >>> RulesMachine.refusals == tuple(Refusal)
    True
    """

    variant: ClassVar[Variant | str | None] = None
    players: ClassVar[int | None] = None
    table_settings: ClassVar[Sequence[Mapping[str, Any]]] = ({},)
    refusals: ClassVar[Collection[Refusal]] = tuple(Refusal)
    host_events: ClassVar[bool] = True
    check_leaks: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self._state: GameState | None = None
        self._deck: Counter[Card] = Counter()

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
        examples shrink to it), else the shuffle of the seed.
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
