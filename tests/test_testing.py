"""rummylib.testing: the RulesMachine calls its hooks as documented and checks what it says."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from rummylib import (
    GameState,
    IllegalActionError,
    Observation,
    get_variant,
    new_game,
    parse_cards,
    registry,
)
from rummylib import Phase as GamePhase
from rummylib.actions import Action, Disconnect, LayDown, LayOff, Reconnect, TimeExpired, specs
from rummylib.cards import Card
from rummylib.strategies import sorted_deal
from rummylib.testing import (
    STEER_STYLES,
    Refusal,
    RulesMachine,
    assert_cards_conserved,
    assert_consistent_observation,
    assert_no_leak,
    hide_from,
    malformed_actions,
)
from rummylib.variants.carousel import Carousel, CarouselPublic

# Derandomized: several tests count on the machine finding a planted failure, every time.
QUICK = settings(
    max_examples=6,
    stateful_step_count=10,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# A run expected to fail: shrink it, but skip the "explain" phase (it replays variations).
FAILING = settings(QUICK, max_examples=30, phases=[Phase.generate, Phase.shrink])


def run(machine: type[RulesMachine], how: settings = QUICK) -> None:
    # Typed in recent Hypothesis releases, untyped in older ones: call it through Any.
    runner: Any = run_state_machine_as_test
    runner(machine, settings=how)


class RecordingMachine(RulesMachine):
    """Checks each hook's arguments as it is called and records what it saw."""

    calls: ClassVar[Counter[str]] = Counter()
    refusals_seen: ClassVar[set[Refusal]] = set()
    events_seen: ClassVar[set[type[Action]]] = set()

    def __init__(self) -> None:
        super().__init__()
        self.started = False
        self.observed: Counter[int] = Counter()

    def on_start(self, state: GameState) -> None:
        assert not self.started
        self.started = True
        self.calls["on_start"] += 1
        assert state.history == ()
        assert state.deal_number == 1
        # The same match again from what on_start is given.
        again = new_game(
            state.variant, players=state.player_count, seed=state.seed, deck=state.deck
        )
        assert again == state
        assert self.state is state

    def on_action(self, before: GameState, action: Action, after: GameState) -> None:
        assert self.started
        self.calls["on_action"] += 1
        assert before.is_legal(action)
        assert before.apply(action) == after
        assert after.history == (*before.history, after.history[-1])
        assert self.state is after
        if isinstance(action, Disconnect | Reconnect | TimeExpired):
            self.events_seen.add(type(action))

    def on_refused(
        self, state: GameState, action: Action, refusal: Refusal, error: IllegalActionError
    ) -> None:
        self.calls["on_refused"] += 1
        assert isinstance(refusal, Refusal)
        assert refusal in self.refusals
        assert not state.is_legal(action)
        with pytest.raises(IllegalActionError) as raised:
            state.verify(action)
        assert str(raised.value) == str(error)
        assert self.state is state
        self.refusals_seen.add(refusal)

    def check_observation(self, state: GameState, player: int, observation: Observation) -> None:
        self.calls["check_observation"] += 1
        assert observation == state.observation(player)
        assert self.state is state
        self.observed[player] += 1

    def on_finish(self, state: GameState) -> None:
        self.calls["on_finish"] += 1
        assert self.state is state
        # Every seat was shown the same number of times: once per step, and after the deal.
        assert set(self.observed) == set(range(state.player_count))
        assert len(set(self.observed.values())) == 1


def test_the_hooks_are_called_with_what_they_document() -> None:
    RecordingMachine.calls.clear()
    RecordingMachine.refusals_seen.clear()
    run(RecordingMachine)
    calls = RecordingMachine.calls
    assert calls["on_start"] == calls["on_finish"] >= 6
    assert calls["on_action"] > 0
    assert calls["on_refused"] > 0
    assert calls["check_observation"] > calls["on_action"]


class IsraeliRecordingMachine(RecordingMachine):
    variant = "rummy101"
    players = 2
    table_settings = ({}, {"elimination_threshold": 25})


def test_the_machine_plays_the_variant_and_settings_it_is_given() -> None:
    thresholds: set[int] = set()

    class Machine(IsraeliRecordingMachine):
        def on_start(self, state: GameState) -> None:
            super().on_start(state)
            assert state.variant.name == "rummy101"
            assert state.player_count == 2
            thresholds.add(state.variant.elimination_threshold)  # type: ignore[attr-defined]

    run(Machine, settings(QUICK, max_examples=15))
    assert thresholds == {101, 25}


def test_a_player_count_without_a_variant_draws_variants_that_seat_it() -> None:
    seen: set[tuple[str, int]] = set()

    class Machine(RulesMachine):
        players = 3

        def on_start(self, state: GameState) -> None:
            seen.add((state.variant.name, state.player_count))

    run(Machine, settings(QUICK, max_examples=25, stateful_step_count=2))
    assert {count for _, count in seen} == {3}
    assert len(seen) > 1  # several variants, none of them gin (two players only)
    assert "gin" not in {name for name, _ in seen}


def test_the_machine_tries_only_the_refusals_it_is_given() -> None:
    class Machine(IsraeliRecordingMachine):
        refusals = (Refusal.BAD_COUNT,)
        host_events = False
        aims = (GamePhase.DRAW,)  # steering stays in the first deal: counts stay to be bad

    Machine.refusals_seen.clear()
    Machine.events_seen.clear()
    run(Machine, settings(QUICK, stateful_step_count=20))
    assert Machine.refusals_seen == {Refusal.BAD_COUNT}
    assert Machine.events_seen == set()


def test_the_machine_reports_host_events() -> None:
    class Machine(IsraeliRecordingMachine):
        refusals = ()

    Machine.events_seen.clear()
    run(Machine, settings(QUICK, max_examples=10, stateful_step_count=20))
    assert Machine.events_seen  # at least one Disconnect, Reconnect or TimeExpired


def failure_of(machine: type[RulesMachine]) -> AssertionError:
    with pytest.raises(AssertionError) as raised:
        run(machine, FAILING)
    return raised.value


def test_a_failing_hook_fails_the_machine_and_shrinks_to_the_sorted_deal() -> None:
    class NoTableMachine(RulesMachine):
        """Claims the table stays empty: wrong from the first lay-down on."""

        variant = "turkish500"
        players = 2
        refusals = ()
        host_events = False

        def check_observation(
            self, state: GameState, player: int, observation: Observation
        ) -> None:
            assert not observation.table, "a meld on the table"

    error = failure_of(NoTableMachine)
    assert "a meld on the table" in str(error)
    notes = "\n".join(getattr(error, "__notes__", []))
    assert "Draw 2 (deal): 'sorted'" in notes
    assert "Draw 3 (seed): 0" in notes


@attrs.frozen(kw_only=True)
class LeakyPublic(CarouselPublic):
    stock_top: tuple[Card, ...] = ()


@attrs.frozen(kw_only=True)
class LeakyCarousel(Carousel):
    """A broken variant: it tells every player the next card of the stock."""

    def public_info(self, state: GameState, player: int) -> LeakyPublic:
        facts: dict[str, Any] = dict(super().public_info(state, player))
        return LeakyPublic(**facts, stock_top=state.stock[:1])


def test_the_machine_finds_an_observation_that_leaks() -> None:
    class LeakMachine(RulesMachine):
        variant = LeakyCarousel()

    error = failure_of(LeakMachine)
    assert "observation changes with cards they cannot see" in str(error)


def test_the_leak_check_can_be_turned_off() -> None:
    class TrustingMachine(RulesMachine):
        variant = LeakyCarousel()
        check_leaks = False

    run(TrustingMachine, settings(QUICK, max_examples=3))


def test_the_machine_finds_a_refusal_rummylib_does_not_make(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A broken rules engine: it accepts a lay-off onto a meld that is not there.
    variant = get_variant("carousel")
    original = type(variant).verify

    def verify(self: Any, state: GameState, action: Action) -> None:
        if isinstance(action, LayOff) and action.meld_index >= len(state.table):
            return
        original(self, state, action)

    monkeypatch.setattr(Carousel, "verify", verify)

    class Machine(RulesMachine):
        variant = "carousel"
        refusals = (Refusal.NO_SUCH_MELD,)

    error = failure_of(Machine)
    assert "rummylib accepted LayOff" in str(error)
    assert "built to be refused (no_such_meld)" in str(error)


# -- the checks on their own -------------------------------------------------------------------


def test_assert_cards_conserved_names_the_cards() -> None:
    state = new_game("rummy101", players=2, seed=4, deck=sorted_deal("rummy101", 2))
    deck = state.all_cards()
    assert_cards_conserved(state, deck)
    with pytest.raises(AssertionError, match=r"^cards were created: 7h \*$"):
        assert_cards_conserved(state.replace(stock=(*state.stock, *parse_cards("7h *"))), deck)
    assert state.stock[0] == parse_cards("2h")[0]
    swapped = state.replace(stock=(*parse_cards("7h"), *state.stock[1:]))
    with pytest.raises(AssertionError, match=r"^cards were lost: 2h; created: 7h$"):
        assert_cards_conserved(swapped, deck)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("hand", ()),
        ("hand_sizes", (0, 0)),
        ("stock_size", 0),
        ("discard_pile", tuple(parse_cards("Ks"))),
        ("phase", GamePhase.PLAY),
        ("to_act", (1,)),
        ("aside", tuple(parse_cards("Ks"))),
        ("legal_actions", ()),
    ],
)
def test_assert_consistent_observation_names_the_wrong_field(field: str, value: Any) -> None:
    state = new_game("rummy101", players=2, seed=4)
    wrong = attrs.evolve(state.observation(0), **{field: value})
    with pytest.raises(AssertionError, match=f"^p1's observation shows {field} "):
        assert_consistent_observation(state, 0, wrong)


def test_hide_from_keeps_what_the_player_sees_and_shuffles_the_rest() -> None:
    state = new_game("rummy101", players=3, seed=4, deck=sorted_deal("rummy101", 3))
    twin = hide_from(state, 1, random.Random(2))
    assert twin.hands[1] == state.hands[1]
    assert [len(hand) for hand in twin.hands] == [len(hand) for hand in state.hands]
    assert twin.all_cards() == state.all_cards()
    assert twin.hands[0] != state.hands[0]
    assert twin.seed != state.seed
    assert twin.open_card == state.open_card
    assert_consistent_observation(twin, 1, state.observation(1))


def test_assert_no_leak_finds_a_leak() -> None:
    state = new_game(LeakyCarousel(), players=2, seed=4)
    with pytest.raises(AssertionError, match="p1's observation changes with cards they cannot"):
        assert_no_leak(state, 0)
    fair = new_game("carousel", players=2, seed=4)
    assert_no_leak(fair, 0)


# -- issue 30: illegal melds, malformed actions, steering to every phase, short failures -------


def test_the_machine_tries_illegal_melds_and_rummylib_refuses_them() -> None:
    seen: dict[str, set[str]] = {}

    for name in ("turkish500", "rummy101", "carousel"):

        class Machine(RulesMachine):
            variant = name
            players = 2
            refusals = (Refusal.INVALID_MELD,)
            host_events = False
            check_leaks = False

            def on_refused(
                self,
                state: GameState,
                action: Action,
                refusal: Refusal,
                error: IllegalActionError,
            ) -> None:
                assert refusal is Refusal.INVALID_MELD
                assert not state.is_legal(action)
                seen.setdefault(state.variant.name, set()).add(type(action).__name__)

        run(Machine, settings(QUICK, max_examples=8, stateful_step_count=20))
    assert seen == {
        "turkish500": {"LayDown"},
        "rummy101": {"DeclareRummy"},
        "carousel": {"Rearrange"},
    }


def test_an_illegal_meld_is_a_listed_meld_cut_short_or_hand_cards() -> None:
    from hypothesis import find  # noqa: PLC0415

    from rummylib.strategies import illegal_actions  # noqa: PLC0415

    state = new_game("turkish500", players=2, seed=5)
    state = state.apply(state.legal_actions()[0])  # p1 draws: lay-downs are allowed now
    fresh = settings(max_examples=200, database=None, phases=[Phase.generate, Phase.shrink])
    action, refusal = find(illegal_actions(state, Refusal.INVALID_MELD), bool, settings=fresh)
    assert refusal is Refusal.INVALID_MELD
    assert isinstance(action, LayDown)
    assert all(len(meld.cards) < 3 for meld in action.melds)
    with pytest.raises(IllegalActionError):
        state.verify(action)


def test_the_machine_builds_every_registered_action_kind_malformed() -> None:
    built: set[object] = set()
    things: list[object] = []

    class Machine(RulesMachine):
        variant = "rummy101"
        refusals = ()
        host_events = False
        check_leaks = False

        def on_malformed(
            self, state: GameState, thing: object, fields: Mapping[str, object], error: Exception
        ) -> None:
            assert isinstance(error, IllegalActionError)
            if fields:
                built.add(thing)
                with pytest.raises(IllegalActionError):
                    thing(**fields)  # type: ignore[operator]
            else:
                things.append(thing)
                assert not state.is_legal(thing)  # type: ignore[arg-type]

    run(Machine, settings(QUICK, max_examples=3, stateful_step_count=8))
    assert built == {spec.cls for spec in specs()}  # every kind registered, Indian's too
    assert things


def test_malformed_actions_cover_every_field_of_every_registered_kind() -> None:
    cases = malformed_actions()
    for spec in specs():
        names = {field for cls, case in cases if cls is spec.cls for field in case}
        assert names == {"player", *(name for name, _ in spec.codecs)}, spec.cls
    for cls, fields in cases:
        build: Any = cls  # the fields are wrong on purpose
        with pytest.raises(IllegalActionError):
            build(**fields)


#: Phases no table of the variant's defaults reaches: the one-deal and fixed-deals Indian games
#: have no rejoin (RULES 6.17: pools only); Rummy 71/101 offers a rebuy from 3 players on (with
#: 2, one elimination ends the match: rule 1.21).
UNREACHABLE: dict[str, set[str]] = {
    "indian_points": {"rejoin"},
    "indian_deals": {"rejoin"},
}
#: The settings the pools reach their rejoin with (the default, None, is "no rejoin").
REACHING_SETTINGS: dict[str, dict[str, object]] = {
    "indian_pool101": {"rejoin_below": 79},
    "indian_pool201": {"rejoin_below": 179},
}


def steer_from_the_deal(name: str, players: int, aim: Any, style: str, seed: int) -> set[Any]:
    """The phases one ``steer`` step of the machine passes through from a new deal."""

    class Machine(RulesMachine):
        variant = name
        check_leaks = False

    machine = Machine()
    state = new_game(get_variant(name, **REACHING_SETTINGS.get(name, {})), players=players)
    machine._state, machine._deck, machine._aim = state, state.all_cards(), aim
    seen = {state.phase}
    machine.check_observation = lambda state, player, observation: seen.add(state.phase)  # type: ignore[method-assign]
    machine.steer(style=style, seed=seed)
    return seen


@pytest.mark.parametrize("name", sorted(registry._BUILT_IN))
def test_one_steer_step_reaches_every_phase_of_every_built_in_variant(name: str) -> None:
    cls = get_variant(name).__class__
    wanted = [*cls.phase_actions, GamePhase.MATCH_OVER]
    missed = []
    for aim in wanted:
        if aim.value in UNREACHABLE.get(name, set()):
            continue
        if not any(
            aim in steer_from_the_deal(name, players, aim, style, seed=0)
            for players in sorted({min(3, cls.max_players), cls.max_players, cls.min_players})
            for style in STEER_STYLES
        ):
            missed.append(aim.value)
    assert missed == []


def test_a_hypothesis_run_of_the_machine_reaches_the_phases_the_stock_running_out_opens() -> None:
    from rummylib.variants.carousel import CarouselPhase  # noqa: PLC0415
    from rummylib.variants.gin import GinPhase  # noqa: PLC0415

    seen: set[Any] = set()

    class Machine(RulesMachine):
        aims = (CarouselPhase.FINAL_TURN, GinPhase.WALL)
        players = 2
        check_leaks = False

        def check_observation(
            self, state: GameState, player: int, observation: Observation
        ) -> None:
            seen.add(state.phase)

    for name in ("carousel", "gin"):
        seen.clear()
        Machine.variant = name
        run(Machine, settings(QUICK, max_examples=12, stateful_step_count=30))
        assert seen & set(Machine.aims), name


def test_a_failure_late_in_a_match_shrinks_to_a_few_steps_from_the_sorted_deal() -> None:
    class ThirdDealMachine(RulesMachine):
        """Claims a Rummy 101 match never reaches its third deal: wrong after two deals."""

        variant = "rummy101"
        players = 3
        refusals = ()
        host_events = False
        check_leaks = False
        aims = (GamePhase.MATCH_OVER,)

        def on_action(self, before: GameState, action: Action, after: GameState) -> None:
            assert after.deal_number < 3, "a third deal"

    error = failure_of(ThirdDealMachine)  # FAILING: at most 10 steps, greedy ones 12 moves
    assert "a third deal" in str(error)
    notes = "\n".join(getattr(error, "__notes__", []))
    steps = [line for line in notes.splitlines() if line.startswith("state.")]
    assert "Draw 2 (deal): 'sorted'" in notes
    # The deal, one step of play and the end: not a long list of moves.
    assert len(steps) <= 3, notes
    assert steps[0].startswith("state.start_match(")
    assert steps[-1] == "state.teardown()"
