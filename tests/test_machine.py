"""The engine contract (DESIGN.md section 6) under stateful testing, one machine per variant.

Each machine plays one match of its variant: Hypothesis picks the table settings, the player
count and the seed, then interleaves legal moves (chosen from ``legal_actions``, the engine's
own ``auto_action``, greedy or random stretches of play, host events) with illegal and
malformed actions. After every step the invariants hold: cards are never created or lost,
whoever must act has a move, and a finished match offers none. An illegal action raises
:class:`~rummylib.errors.IllegalActionError`, ``is_legal`` says ``False`` and the state is
exactly as before; a malformed one (wrong field types, not an action at all) is refused with
the same error and never another exception. At the end of every run the state survives the
JSON and pickle round trips.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rummylib import (
    JOKER,
    Card,
    GameState,
    IllegalActionError,
    Phase,
    get_variant,
    new_game,
    parse_card,
    parse_cards,
    parse_meld,
)
from rummylib.actions import (
    Action,
    AnswerFrish,
    DeclareRummy,
    DeclineRebuy,
    Discard,
    Disconnect,
    DrawStock,
    GiveUp,
    Knock,
    LayDown,
    LayOff,
    Pass,
    ProposeFrish,
    Rearrange,
    Rebuy,
    Reconnect,
    ShowMelds,
    TakeDiscard,
    TakeOpenCard,
    TimeExpired,
)
from rummylib.bots import GreedyBot
from rummylib.melds import MeldRules
from rummylib.variants import VARIANTS

#: A meld to put into otherwise malformed actions.
RUN = parse_meld("7h 8h 9h", MeldRules())
SEVEN = parse_card("7h")

#: Action constructors with fields of the wrong type: each must raise IllegalActionError.
MALFORMED: list[tuple[Callable[..., object], dict[str, object]]] = [
    (DrawStock, {"player": "0"}),
    (DrawStock, {"player": 0.0}),
    (DrawStock, {"player": True}),
    (DrawStock, {"player": None}),
    (DrawStock, {"player": -1}),
    (Discard, {"player": 0, "card": "7h"}),
    (Discard, {"player": 0, "card": None}),
    (TakeDiscard, {"player": 0, "count": "2"}),
    (TakeDiscard, {"player": 0, "count": True}),
    (TakeDiscard, {"player": 0, "count": 2.0}),
    (TakeDiscard, {"player": 0, "count": None}),
    (LayOff, {"player": 0, "card": SEVEN, "meld_index": None}),
    (LayOff, {"player": 0, "card": SEVEN, "meld_index": "0"}),
    (LayOff, {"player": 0, "card": SEVEN, "meld_index": 1.5}),
    (LayOff, {"player": 0, "card": JOKER, "meld_index": 0, "stands_for": "9h"}),
    (AnswerFrish, {"player": 1, "accept": "yes"}),
    (AnswerFrish, {"player": 1, "accept": 1}),
    (AnswerFrish, {"player": 1, "accept": None}),
    (DeclareRummy, {"player": 0, "discard": "Ks", "melds": (RUN,)}),
    (DeclareRummy, {"player": 0, "discard": SEVEN, "melds": "7h 8h 9h"}),
    (ShowMelds, {"player": 1, "melds": [parse_cards("7h 8h 9h")]}),
    (LayDown, {"player": 0, "melds": RUN}),
    (LayDown, {"player": 0, "melds": None}),
    (Rearrange, {"player": 0, "table": None}),
]

#: Objects that are not actions at all.
NOT_ACTIONS: list[object] = [
    None,
    0,
    "draw_stock",
    {"type": "draw_stock", "player": 0},
    DrawStock,
    SEVEN,
    RUN,
    (DrawStock(player=0),),
    object(),
]

#: Arguments that are not a player for ``legal_actions``.
NOT_PLAYERS: list[object] = [0.0, [0], "0"]


def full_deck(state: GameState) -> Counter[Card]:
    return Counter(state.variant.deck_for(state.player_count))


class MatchMachine(RuleBasedStateMachine):
    """One match of ``variant_name``, driven by legal, illegal and malformed actions."""

    #: The registered name of the variant this machine plays.
    variant_name: ClassVar[str] = ""
    #: Table settings to choose from; the variant's defaults first.
    table_settings: ClassVar[tuple[dict[str, object], ...]] = ({},)
    #: Whether the rules let a player draw again after the first draw (Carousel).
    draws_again: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__()
        self._state: GameState | None = None
        self.deck: Counter[Card] = Counter()

    @property
    def state(self) -> GameState:
        assert self._state is not None
        return self._state

    def playing(self) -> bool:
        return self._state is not None and not self._state.is_over

    # -- set-up --------------------------------------------------------------------------------

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        table = data.draw(st.sampled_from(self.table_settings), label="settings")
        variant = get_variant(self.variant_name, **table)
        players = data.draw(st.integers(variant.min_players, variant.max_players), label="players")
        seed = data.draw(st.integers(0, 2**32), label="seed")
        self._state = new_game(variant, players=players, seed=seed)
        self.deck = full_deck(self._state)

    def advance(self, action: Action) -> None:
        """Apply a legal ``action``, checking that the old state is left as it was."""
        before = self.state
        text = before.to_json()
        assert before.is_legal(action), action
        after = before.apply(action)
        assert before.to_json() == text
        self._state = after

    def assert_refused(self, build: Callable[[], object]) -> None:
        """The action ``build`` makes is refused: by its constructor or by the state."""
        try:
            action: Any = build()
        except IllegalActionError:
            return
        state = self.state
        copy = state.replace()
        text = state.to_json()
        assert not state.is_legal(action), action
        assert action not in state.legal_actions()
        with pytest.raises(IllegalActionError):
            state.verify(action)
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state == copy
        assert state.to_json() == text

    def actor(self, data: st.DataObject) -> int:
        """A player who must act now (or, once the match is over, any seat)."""
        state = self.state
        seats = state.to_act or tuple(range(state.player_count))
        return data.draw(st.sampled_from(seats), label="actor")

    # -- legal play ----------------------------------------------------------------------------

    @precondition(playing)
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        action = data.draw(st.sampled_from(self.state.legal_actions()), label="move")
        self.advance(action)

    @precondition(playing)
    @rule()
    def engine_move(self) -> None:
        self.advance(self.state.auto_action())

    @precondition(playing)
    @rule(moves=st.integers(1, 40), seed=st.integers(0, 2**16), greedy=st.booleans())
    def play_on(self, moves: int, seed: int, greedy: bool) -> None:
        """A stretch of play without checks between moves, to reach later deals."""
        rng = random.Random(seed)
        bot = GreedyBot()
        state = self.state
        for _ in range(moves):
            if state.is_over:
                break
            if greedy:
                action = bot.choose(state.observation(state.to_act[0]))
            else:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
        self._state = state

    @precondition(playing)
    @rule(
        kind=st.sampled_from([Disconnect, Reconnect, Disconnect, Reconnect, TimeExpired]),
        data=st.data(),
    )
    def host_event(
        self, kind: type[Disconnect | Reconnect | TimeExpired], data: st.DataObject
    ) -> None:
        state = self.state
        player = data.draw(st.integers(0, state.player_count - 1), label="player")
        event = kind(player=player)
        if state.is_legal(event):
            self.advance(event)
        else:
            self.assert_refused(lambda: event)

    # -- illegal actions -----------------------------------------------------------------------

    @rule(data=st.data())
    def out_of_turn(self, data: st.DataObject) -> None:
        state = self.state
        others = [seat for seat in range(state.player_count + 2) if seat not in state.to_act]
        other = data.draw(st.sampled_from(others), label="other")
        moves = state.legal_actions() or (DrawStock(player=0),)
        move = data.draw(st.sampled_from(moves), label="move")
        self.assert_refused(lambda: attrs.evolve(move, player=other))

    @rule(data=st.data())
    def discard_not_in_hand(self, data: st.DataObject) -> None:
        state = self.state
        player = self.actor(data)
        hand = set(state.hands[player])
        missing = sorted(set(self.deck) - hand, key=lambda card: card.index)
        if JOKER not in hand:
            missing.append(JOKER)
        card = data.draw(st.sampled_from(missing), label="card")
        self.assert_refused(lambda: Discard(player=player, card=card))

    @precondition(lambda self: self._state is not None and self._state.phase is Phase.PLAY)
    @rule()
    def draw_in_the_play_phase(self) -> None:
        state = self.state
        if self.draws_again and state.stock:
            return  # Carousel: a second and third draw; Rummikub: a draw is the turn
        player = state.current_player
        assert player is not None
        self.assert_refused(lambda: DrawStock(player=player))

    @rule(data=st.data())
    def lay_off_out_of_range(self, data: st.DataObject) -> None:
        state = self.state
        player = self.actor(data)
        size = len(state.table)
        index = data.draw(st.integers(size, size + 3) | st.integers(-3, -1), label="meld_index")
        cards = sorted({*state.hands[player], SEVEN}, key=lambda card: card.index)
        card = data.draw(st.sampled_from(cards), label="card")
        stands_for = SEVEN if card.is_joker else None
        self.assert_refused(
            lambda: LayOff(player=player, card=card, meld_index=index, stands_for=stands_for)
        )

    @rule(data=st.data())
    def take_too_many_discards(self, data: st.DataObject) -> None:
        state = self.state
        player = self.actor(data)
        size = len(state.discard_pile)
        count = data.draw(st.integers(size + 1, size + 5) | st.integers(-2, 0), label="count")
        self.assert_refused(lambda: TakeDiscard(player=player, count=count))

    @precondition(lambda self: self._state is not None and self._state.open_card is None)
    @rule(data=st.data())
    def take_a_missing_open_card(self, data: st.DataObject) -> None:
        player = self.actor(data)
        self.assert_refused(lambda: TakeOpenCard(player=player))

    @rule(data=st.data())
    def meldless_action_agrees_with_the_list(self, data: st.DataObject) -> None:
        """For an action without melds, ``is_legal`` holds exactly when it is listed."""
        state = self.state
        player = data.draw(st.integers(0, state.player_count - 1), label="player")
        hand = sorted({*state.hands[player], JOKER}, key=lambda card: card.index)
        candidates: list[Action] = [
            DrawStock(player=player),
            TakeOpenCard(player=player),
            Knock(player=player),
            Pass(player=player),
            GiveUp(player=player),
            ProposeFrish(player=player),
            AnswerFrish(player=player, accept=True),
            AnswerFrish(player=player, accept=False),
            Rebuy(player=player),
            DeclineRebuy(player=player),
        ]
        candidates += [
            TakeDiscard(player=player, count=count)
            for count in range(1, len(state.discard_pile) + 2)
        ]
        candidates += [Discard(player=player, card=card) for card in hand]
        for index, meld in enumerate(state.table):
            for card in hand:
                readings: list[Card | None] = [None]
                if card.is_joker:
                    readings = [meld.stands_for[0], meld.stands_for[-1]]
                candidates += [
                    LayOff(player=player, card=card, meld_index=index, stands_for=reading)
                    for reading in readings
                ]
        action = data.draw(st.sampled_from(candidates), label="action")
        if action in state.legal_actions():
            assert state.is_legal(action), action
        else:
            self.assert_refused(lambda: action)

    # -- malformed input -----------------------------------------------------------------------

    @rule(case=st.sampled_from(MALFORMED))
    def malformed_fields(self, case: tuple[Callable[..., object], dict[str, object]]) -> None:
        build, fields = case
        with pytest.raises(IllegalActionError):
            build(**fields)

    @rule(thing=st.sampled_from(NOT_ACTIONS))
    def not_an_action(self, thing: Any) -> None:
        state = self.state
        copy = state.replace()
        text = state.to_json()
        assert state.is_legal(thing) is False
        with pytest.raises(IllegalActionError):
            state.verify(thing)
        with pytest.raises(IllegalActionError):
            state.apply(thing)
        assert state == copy
        assert state.to_json() == text

    @rule(argument=st.sampled_from(NOT_PLAYERS))
    def legal_actions_of_a_non_player(self, argument: Any) -> None:
        with pytest.raises(IllegalActionError):
            self.state.legal_actions(argument)

    # -- invariants ----------------------------------------------------------------------------

    @invariant()
    def cards_are_conserved(self) -> None:
        if self._state is not None:
            assert self._state.all_cards() == self.deck

    @invariant()
    def whoever_must_act_can(self) -> None:
        state = self._state
        if state is None:
            return
        if state.is_over:
            assert state.to_act == ()
            assert state.legal_actions() == ()
            return
        assert state.to_act
        assert set(state.to_act) <= set(state.players_in)
        for player in state.to_act:
            assert state.legal_actions(player), (player, state)

    def teardown(self) -> None:
        state = self._state
        if state is None:
            return
        assert GameState.from_json(state.to_json()) == state
        assert pickle.loads(pickle.dumps(state)) == state


ISRAELI_TABLES: tuple[dict[str, object], ...] = (
    {},
    {"elimination_threshold": 25, "first_rebuy_mandatory": False},
    {"on_stock_exhausted": "void_deal", "open_card_after_window": "bottom_of_stock"},
    {"loser_melds": "as_shown", "frish_per_player_per_deal": 2},
)
TURKISH_TABLES: tuple[dict[str, object], ...] = (
    {},
    {"max_go_arounds": 2, "max_deals": 2},
    {"dealt_rummy_check": True, "go_out_requires_discard": True, "max_go_arounds": 3},
)


class Rummy101Machine(MatchMachine):
    variant_name = "rummy101"
    table_settings = ISRAELI_TABLES


class Rummy71Machine(MatchMachine):
    variant_name = "rummy71"
    table_settings = ISRAELI_TABLES


class CarouselMachine(MatchMachine):
    variant_name = "carousel"
    table_settings = (
        {},
        {"target_score": 40},
        {"knock_timing": "after_draw", "joker_replacement_source": "hand_only", "knock_limit": 10},
        {"knock_timing": "start_of_turn", "knock_tie_award": "split"},
    )
    draws_again = True


class Turkish500Machine(MatchMachine):
    variant_name = "turkish500"
    table_settings = TURKISH_TABLES


class Turkish300Machine(MatchMachine):
    variant_name = "turkish300"
    table_settings = TURKISH_TABLES


class Turkish500CutthroatMachine(MatchMachine):
    variant_name = "turkish500_cutthroat"
    table_settings = TURKISH_TABLES


class Rummy500Machine(MatchMachine):
    variant_name = "rummy500"
    table_settings = TURKISH_TABLES


class GinMachine(MatchMachine):
    variant_name = "gin"
    table_settings = (
        {},
        {"target_score": None},
        {"oklahoma": True, "undercut_on_tie": True, "target_score": 30},
    )


INDIAN_TABLES: tuple[dict[str, object], ...] = (
    {},
    {"wild_card": False, "take_discarded_joker": True},
    {"decks": 2, "full_count": 60},
)


class IndianPointsMachine(MatchMachine):
    variant_name = "indian_points"
    table_settings = INDIAN_TABLES


class IndianPool101Machine(MatchMachine):
    variant_name = "indian_pool101"
    table_settings = (*INDIAN_TABLES, {"rejoin_below": 79}, {"pool_limit": 50, "rejoin_below": 30})


class IndianPool201Machine(MatchMachine):
    variant_name = "indian_pool201"
    table_settings = (*INDIAN_TABLES, {"rejoin_below": 150})


class IndianDealsMachine(MatchMachine):
    variant_name = "indian_deals"
    table_settings = (*INDIAN_TABLES, {"deals": 3})


class RummikubMachine(MatchMachine):
    variant_name = "rummikub"
    table_settings = (
        {},
        {"joker_rule": "free"},
        {"initial_meld": 0, "target_score": 40, "timeout_draws": 1},
    )
    draws_again = True  # a draw is one of the play phase's moves (rule 7.4)


MACHINES: tuple[type[MatchMachine], ...] = (
    Rummy101Machine,
    Rummy71Machine,
    CarouselMachine,
    Turkish500Machine,
    Turkish300Machine,
    Turkish500CutthroatMachine,
    Rummy500Machine,
    GinMachine,
    IndianPointsMachine,
    IndianPool101Machine,
    IndianPool201Machine,
    IndianDealsMachine,
    RummikubMachine,
)

# A few seconds per machine: the whole suite stays within its CI budget.
for _machine in MACHINES:
    _machine.TestCase.settings = settings(max_examples=12, stateful_step_count=30, deadline=None)

TestRummy101 = Rummy101Machine.TestCase
TestRummy71 = Rummy71Machine.TestCase
TestCarousel = CarouselMachine.TestCase
TestTurkish500 = Turkish500Machine.TestCase
TestTurkish300 = Turkish300Machine.TestCase
TestTurkish500Cutthroat = Turkish500CutthroatMachine.TestCase
TestRummy500 = Rummy500Machine.TestCase
TestGin = GinMachine.TestCase
TestIndianPoints = IndianPointsMachine.TestCase
TestIndianPool101 = IndianPool101Machine.TestCase
TestIndianPool201 = IndianPool201Machine.TestCase
TestIndianDeals = IndianDealsMachine.TestCase
TestRummikub = RummikubMachine.TestCase


def test_every_built_in_variant_has_a_machine() -> None:
    built_in = [name for name, cls in VARIANTS.items() if cls.__module__.startswith("rummylib.")]
    assert sorted(machine.variant_name for machine in MACHINES) == sorted(built_in)


def case_id(case: tuple[Callable[..., object], dict[str, object]]) -> str:
    build, fields = case
    name, value = list(fields.items())[-1]  # the malformed field is the last one
    return f"{getattr(build, '__name__', build)}-{name}={value!r}"


@pytest.mark.parametrize(("build", "fields"), MALFORMED, ids=[case_id(case) for case in MALFORMED])
def test_malformed_action_fields_are_illegal_actions(
    build: Callable[..., object], fields: dict[str, object]
) -> None:
    with pytest.raises(IllegalActionError):
        build(**fields)


@pytest.mark.parametrize("argument", NOT_PLAYERS, ids=repr)
def test_legal_actions_refuses_what_is_not_a_player(argument: Any) -> None:
    state = new_game("rummy101", players=2, seed=1)
    with pytest.raises(IllegalActionError):
        state.legal_actions(argument)


def test_a_long_match_pickles() -> None:
    # 600 moves: every state shares its predecessor's history, which must not make pickling
    # recurse once per action.
    state = new_game("rummy101", players=3, seed=5)
    rng = random.Random(5)
    for _ in range(600):
        state = state.apply(rng.choice(state.legal_actions()))
    assert not state.is_over
    assert len(state.history) == 600
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    assert again.history == state.history
