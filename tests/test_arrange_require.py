"""``arrange(..., require=Requirement(...))``: the best arrangement that meets a requirement.

DESIGN.md section 11 ("Requirements on a declaration"); RULES.md 1.11 (Israeli declaration),
3.12 (Turkish dealt hand), 6.8, 6.12 and 6.15 (Indian sequences, show and loser's count).
Expected values come from the rules worked out by hand in the comments, or from the
brute-force :class:`~tests.oracle.RequirementOracle`, which tries every set of disjoint melds
of :func:`rummylib.find_melds` and tells runs and pure runs apart from the ranks itself, never
with the search under test. Every arrangement returned is also checked on its own: legal
melds, the right cards and points, each meld shown at its strongest reading, the requirement
met.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    Arrangement,
    Card,
    CardPoints,
    ConfigurationError,
    MeldKind,
    MeldRules,
    NotationError,
    arrange,
    format_cards,
    make_deck,
    parse_card,
    parse_cards,
)
from rummylib._meldable import may_complete
from rummylib.arrangement import Requirement, format_arrangement
from rummylib.strategies import meld_rules
from tests.oracle import RequirementOracle, run_strength
from tests.test_arrange import (
    GIN,
    GIN_POINTS,
    ISRAELI,
    ISRAELI_POINTS,
    OTHER_POINTS,
    TWO_PACKS,
    check_arrangement,
    dense_hands,
    drawn,
    not_joker,
)

INDIAN = MeldRules()
INDIAN_POINTS = CardPoints(ace=10, face=10, joker=0)
INDIAN_PACKS = make_deck(decks=2, jokers=2)
#: Rule 6.12: a show melds all 13 cards, with two sequences, one of them pure.
SHOW = Requirement(min_runs=2, min_pure_runs=1, complete=True)
#: Rule 6.15: a loser's grouping counts only with two sequences, one of them pure.
TWO_RUNS_ONE_PURE = Requirement(min_runs=2, min_pure_runs=1)
COMPLETE = Requirement(complete=True)


def shown_strength(arrangement: Arrangement) -> list[int]:
    """How each meld is shown: 2 a pure run, 1 a run with a card standing for another, 0."""
    return [
        (2 if meld.cards == meld.stands_for else 1) if meld.kind is MeldKind.RUN else 0
        for meld in arrangement.melds
    ]


def check_meets(
    hand: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    requirement: Requirement,
    result: Arrangement,
    *,
    discard: bool = False,
    can_discard: Callable[[Card], bool] | None = None,
) -> None:
    """A legal arrangement of the hand that meets the requirement.

    When runs are asked for, each meld is shown at its strongest reading; otherwise the answer
    is the solver's own (see the complete-requirement test below).
    """
    check_arrangement(hand, rules, points, result, discard=discard, can_discard=can_discard)
    shown = shown_strength(result)
    if requirement.min_runs or requirement.min_pure_runs:
        assert shown == [run_strength(meld.cards, rules) for meld in result.melds]
    else:
        shown = [run_strength(meld.cards, rules) for meld in result.melds]
    assert sum(strength > 0 for strength in shown) >= requirement.min_runs
    assert sum(strength == 2 for strength in shown) >= requirement.min_pure_runs
    if requirement.complete:
        assert result.is_complete


def check_against_oracle(
    hand: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    requirement: Requirement,
    *,
    discard: bool = False,
    can_discard: Callable[[Card], bool] | None = None,
) -> Arrangement | None:
    result = arrange(
        hand, rules, points, discard=discard, can_discard=can_discard, require=requirement
    )
    oracle = RequirementOracle(
        hand,
        rules,
        points,
        min_runs=requirement.min_runs,
        min_pure_runs=requirement.min_pure_runs,
        complete=requirement.complete,
    )
    expected = oracle.best_meeting_after_discard(can_discard) if discard else oracle.best_meeting()
    if expected is None:
        assert result is None, format_cards(hand)
        return None
    assert result is not None, format_cards(hand)
    check_meets(hand, rules, points, requirement, result, discard=discard, can_discard=can_discard)
    assert (result.deadwood_points, result.deadwood_count) == expected, format_cards(hand)
    return result


REQUIREMENTS = st.builds(
    Requirement,
    min_runs=st.integers(0, 3),
    min_pure_runs=st.integers(0, 2),
    complete=st.booleans(),
)


# ------------------------------------------------------------------------------------------
# Property tests against the oracle.


@settings(deadline=None)
@given(drawn(INDIAN_PACKS, 11), REQUIREMENTS, st.booleans())
def test_indian_hands_match_the_oracle(
    hand: list[Card], requirement: Requirement, discard: bool
) -> None:
    check_against_oracle(hand, INDIAN, INDIAN_POINTS, requirement, discard=discard and bool(hand))


@settings(deadline=None)
@given(drawn(TWO_PACKS, 11), REQUIREMENTS, st.booleans())
def test_israeli_hands_match_the_oracle(
    hand: list[Card], requirement: Requirement, discard: bool
) -> None:
    discard = discard and any(not card.is_joker for card in hand)
    check_against_oracle(
        hand, ISRAELI, ISRAELI_POINTS, requirement, discard=discard, can_discard=not_joker
    )


@settings(deadline=None)
@given(
    dense_hands(10),
    st.sampled_from([GIN, ISRAELI, INDIAN]),
    REQUIREMENTS,
    st.booleans(),
)
def test_meld_dense_hands_match_the_oracle(
    hand: list[Card], rules: MeldRules, requirement: Requirement, discard: bool
) -> None:
    check_against_oracle(hand, rules, INDIAN_POINTS, requirement, discard=discard and bool(hand))


@st.composite
def runs_and_jokers(draw: st.DrawFn, size: int = 13) -> list[Card]:
    """Hands of two packs rich in runs: a few neighbouring ranks of two suits, and jokers."""
    low = draw(st.integers(1, 9))
    suits = draw(st.lists(st.sampled_from("cdhs"), min_size=2, max_size=2, unique=True))
    pool = [
        card
        for card in INDIAN_PACKS
        if card.suit is None or (low <= int(card.rank or 0) <= low + 4 and card.suit.value in suits)
    ]
    return draw(drawn(pool, size))


@settings(deadline=None, max_examples=60)
@given(runs_and_jokers(), REQUIREMENTS, st.booleans())
def test_hands_of_up_to_thirteen_cards_rich_in_runs_match_the_oracle(
    hand: list[Card], requirement: Requirement, discard: bool
) -> None:
    check_against_oracle(hand, INDIAN, INDIAN_POINTS, requirement, discard=discard and bool(hand))


@settings(deadline=None)
@given(
    st.one_of(dense_hands(8), drawn(make_deck(decks=3, jokers=6), 8)),
    meld_rules(),
    st.sampled_from(OTHER_POINTS),
    REQUIREMENTS,
    st.sampled_from([None, not_joker, lambda card: card.index % 13 != 4]),  # 5s may stay
)
def test_every_rule_setting_matches_the_oracle(
    hand: list[Card],
    rules: MeldRules,
    points: CardPoints,
    requirement: Requirement,
    can_discard: Callable[[Card], bool] | None,
) -> None:
    discard = bool(hand) and (can_discard is None or any(can_discard(card) for card in hand))
    check_against_oracle(hand, rules, points, requirement, discard=discard, can_discard=can_discard)


@settings(deadline=None)
@given(drawn(INDIAN_PACKS, 14), REQUIREMENTS, st.randoms(use_true_random=False))
def test_the_order_of_the_cards_does_not_matter(
    hand: list[Card], requirement: Requirement, shuffler: random.Random
) -> None:
    shuffled = hand[:]
    shuffler.shuffle(shuffled)
    for wanted in (False, True):
        discard = wanted and bool(hand)
        first = arrange(hand, INDIAN, INDIAN_POINTS, discard=discard, require=requirement)
        second = arrange(shuffled, INDIAN, INDIAN_POINTS, discard=discard, require=requirement)
        assert first == second
        if first is not None:
            check_meets(hand, INDIAN, INDIAN_POINTS, requirement, first, discard=discard)


@settings(deadline=None)
@given(st.one_of(drawn(TWO_PACKS, 14), dense_hands(14), dense_hands(14, jokers=8)))
def test_a_complete_requirement_alone_keeps_the_plain_arrangement(hand: list[Card]) -> None:
    # Rules 1.11 and 3.12 route through Requirement(complete=True). Without a discard the
    # answer is the plain solver's arrangement if it has no deadwood, else None. With one, it
    # is the heaviest allowed card (the lowest among equals) whose setting aside leaves a
    # complete rest, with the plain solver's arrangement of that rest; None if no card does.
    plain = arrange(hand, ISRAELI, ISRAELI_POINTS)
    required = arrange(hand, ISRAELI, ISRAELI_POINTS, require=COMPLETE)
    assert required == (plain if plain.is_complete else None)
    assert arrange(hand, ISRAELI, ISRAELI_POINTS, require=Requirement()) == plain
    naturals = sorted(
        {card for card in hand if not card.is_joker},
        key=lambda card: (-ISRAELI_POINTS.of(card), card.index),
    )
    if not naturals:
        return
    expected = None
    for card in naturals:
        rest = list(hand)
        rest.remove(card)
        best = arrange(rest, ISRAELI, ISRAELI_POINTS)
        if best.is_complete:
            expected = attrs.evolve(best, discard=card)
            break
    found = arrange(
        hand, ISRAELI, ISRAELI_POINTS, discard=True, can_discard=not_joker, require=COMPLETE
    )
    assert found == expected
    plain_discard = arrange(hand, ISRAELI, ISRAELI_POINTS, discard=True, can_discard=not_joker)
    assert (found is not None) == plain_discard.is_complete


@settings(deadline=None)
@given(
    st.one_of(drawn(TWO_PACKS, 14), dense_hands(14), drawn(make_deck(decks=3, jokers=6), 12)),
    st.sampled_from([ISRAELI, INDIAN, GIN, MeldRules(max_run_size=4, min_naturals=2)]),
    st.booleans(),
)
def test_the_complete_filter_never_rules_out_a_complete_hand(
    hand: list[Card], rules: MeldRules, discard: bool
) -> None:
    discard = discard and bool(hand)
    if not may_complete(hand, rules, discard):
        assert not arrange(hand, rules, ISRAELI_POINTS, discard=discard).is_complete


# ------------------------------------------------------------------------------------------
# Rule cases, worked out by hand.


def test_rule_6_12_show_needs_two_sequences_one_pure() -> None:
    # 2h 3h 4h and Jd Qd Kd Ad are pure, 5s 6s * is impure, 9c 9d 9s a set: 13 cards melded
    # with 7c, the only card that fits nowhere, as the finishing card.
    hand = parse_cards("2h 3h 4h 5s 6s * 9c 9d 9s Jd Qd Kd Ad 7c")
    best = arrange(hand, INDIAN, INDIAN_POINTS, discard=True, require=SHOW)
    assert best is not None
    check_meets(hand, INDIAN, INDIAN_POINTS, SHOW, best, discard=True)
    assert best.discard == parse_card("7c")
    assert sorted(shown_strength(best)) == [0, 1, 2, 2]


def test_rule_6_12_a_show_of_sets_only_is_a_wrong_show() -> None:
    # Four sets (the joker joins one) and Kd to finish: complete, but no sequence at all.
    hand = parse_cards("2c 2d 2h 5c 5h 5s 7c 7d 7s 9c 9d 9h Kd *")
    assert arrange(hand, INDIAN, INDIAN_POINTS, discard=True).is_complete
    assert arrange(hand, INDIAN, INDIAN_POINTS, discard=True, require=SHOW) is None


def test_rule_6_12_two_impure_sequences_are_not_a_show() -> None:
    # 2h 3h * and 5s 6s * need a joker each; 9c 9d 9s 9h and Jc Jd Jh are sets; Kd finishes.
    # No three natural cards of one suit follow each other, so no sequence can be pure.
    hand = parse_cards("2h 3h * 5s 6s * 9c 9d 9s 9h Jc Jd Jh Kd")
    assert arrange(hand, INDIAN, INDIAN_POINTS, discard=True, require=SHOW) is None
    two_runs = Requirement(min_runs=2, complete=True)
    best = arrange(hand, INDIAN, INDIAN_POINTS, discard=True, require=two_runs)
    assert best is not None
    check_meets(hand, INDIAN, INDIAN_POINTS, two_runs, best, discard=True)
    assert best.discard == parse_card("Kd")


def test_rule_6_12_the_finishing_card_is_chosen_for_the_show() -> None:
    # Set aside Kd and the rest melds as 2h-6h and two sets of four: one sequence only.
    # Set aside 2h (or 6h) instead and Jd Qd Kd is a second pure sequence, with the sets
    # Jc Jh Js and Qc Qh Qs: the only finishing cards that make a show.
    hand = parse_cards("2h 3h 4h 5h 6h Jc Jd Jh Js Qc Qd Qh Qs Kd")
    best = arrange(hand, INDIAN, INDIAN_POINTS, discard=True, require=SHOW)
    assert best is not None
    check_meets(hand, INDIAN, INDIAN_POINTS, SHOW, best, discard=True)
    assert best.discard in parse_cards("2h 6h")
    without_kd = arrange(
        hand, INDIAN, INDIAN_POINTS, discard=True, can_discard=lambda c: c.rank == 13, require=SHOW
    )
    assert without_kd is None  # finishing with the king leaves one sequence


def test_rule_6_15_a_loser_counts_the_best_grouping_with_two_sequences() -> None:
    # The sets Kc Kd Ks and Qc Qd Qs with 9h Th Jh leave 2c 4c 5d Js (21 points), one
    # sequence only. The only sequences are 9h Th Jh and Js Qs Ks (both pure, disjoint): with
    # them the rest, Kc Kd Qc Qd 2c 4c 5d, melds nothing and counts 10+10+10+10+2+4+5 = 51.
    hand = parse_cards("Kc Kd Ks Qs Js Qc Qd 9h Th Jh 4c 5d 2c")
    assert arrange(hand, INDIAN, INDIAN_POINTS).deadwood_points == 21
    best = arrange(hand, INDIAN, INDIAN_POINTS, require=TWO_RUNS_ONE_PURE)
    assert best is not None
    check_meets(hand, INDIAN, INDIAN_POINTS, TWO_RUNS_ONE_PURE, best)
    assert [str(meld) for meld in best.melds] == ["9h Th Jh", "Js Qs Ks"]
    assert best.deadwood_points == 51


def test_rule_6_15_without_a_pure_sequence_no_grouping_counts() -> None:
    # Both sequences need a joker: the rule then counts all 13 cards (None: no grouping
    # qualifies). Without the pure one: 2h 3h *, 5s 6s *, 9c 9d 9s; Jd Qc Kh 4c = 34 left.
    hand = parse_cards("2h 3h * 5s 6s * 9c 9d 9s Jd Qc Kh 4c")
    assert arrange(hand, INDIAN, INDIAN_POINTS, require=TWO_RUNS_ONE_PURE) is None
    best = arrange(hand, INDIAN, INDIAN_POINTS, require=Requirement(min_runs=2))
    assert best is not None
    assert best.deadwood_points == 34
    assert format_cards(best.deadwood) == "4c Qc Jd Kh"


def test_rule_6_8_a_joker_may_stay_out_to_keep_a_sequence_pure() -> None:
    # 7h 8h 9h * as one sequence is impure; 7h 8h 9h alone is pure, the joker left over.
    hand = parse_cards("7h 8h 9h *")
    pure = Requirement(min_pure_runs=1)
    best = arrange(hand, INDIAN, INDIAN_POINTS, require=pure)
    assert best is not None
    assert format_arrangement(best) == "7h 8h 9h | deadwood * (0 points)"
    assert arrange(hand, INDIAN, INDIAN_POINTS).is_complete
    assert arrange(hand, INDIAN, INDIAN_POINTS, require=Requirement(min_runs=1)) == arrange(
        hand, INDIAN, INDIAN_POINTS, require=Requirement(min_runs=1, complete=True)
    )


def test_rule_6_8_a_joker_makes_a_sequence_impure() -> None:
    hand = parse_cards("7h 8h * Kc")
    assert arrange(hand, INDIAN, INDIAN_POINTS, require=Requirement(min_pure_runs=1)) is None
    best = arrange(hand, INDIAN, INDIAN_POINTS, require=Requirement(min_runs=1))
    assert best is not None
    assert format_arrangement(best) == "7h 8h *=9h | deadwood Kc (10 points)"


def test_rule_6_8_cards_that_can_be_a_sequence_count_as_one() -> None:
    # 7h * * is read as a set by find_melds; it can be the sequence 7h 8h 9h as well, and is
    # shown that way when sequences are asked for.
    hand = parse_cards("7h * *")
    best = arrange(hand, INDIAN, INDIAN_POINTS, require=Requirement(min_runs=1))
    assert best is not None
    assert format_arrangement(best) == "7h *=8h *=9h | no deadwood"


def test_pure_runs_above_min_runs_ask_for_that_many_runs_all_pure() -> None:
    two_pure = Requirement(min_pure_runs=2)
    assert arrange(parse_cards("2h 3h 4h 7s 8s *"), INDIAN, INDIAN_POINTS, require=two_pure) is None
    best = arrange(parse_cards("2h 3h 4h 7s 8s 9s"), INDIAN, INDIAN_POINTS, require=two_pure)
    assert best is not None
    assert format_arrangement(best) == "2h 3h 4h | 7s 8s 9s | no deadwood"


def test_two_copies_of_a_run_are_two_runs() -> None:
    hand = parse_cards("7h 8h 9h 7h 8h 9h")
    best = arrange(hand, INDIAN, INDIAN_POINTS, require=Requirement(min_pure_runs=2))
    assert best is not None
    assert format_arrangement(best) == "7h 8h 9h | 7h 8h 9h | no deadwood"


def test_rule_1_11_an_israeli_declaration_is_a_complete_requirement() -> None:
    # Rule 1.13: Ah * 3h is no run, so only Kd can go: 7c 7d 7s * and Ah 2h 3h remain.
    hand = parse_cards("Ah 2h 3h 7c 7d 7s Kd *")
    best = arrange(
        hand, ISRAELI, ISRAELI_POINTS, discard=True, can_discard=not_joker, require=COMPLETE
    )
    assert best is not None
    assert format_arrangement(best) == "7c 7d *=7h 7s | Ah 2h 3h | no deadwood | discard Kd"
    no_king = arrange(
        hand,
        ISRAELI,
        ISRAELI_POINTS,
        discard=True,
        can_discard=lambda card: not card.is_joker and card.rank != 13,
        require=COMPLETE,
    )
    assert no_king is None


def test_rule_3_12_a_dealt_hand_that_melds_completely_needs_no_discard() -> None:
    turkish = CardPoints(ace=15, joker=15, ace_low_run=1)
    hand = parse_cards("Ac 2c 3c 4c 5d 5h 5s 9h 9c 9d Jh Qh Kh")
    best = arrange(hand, MeldRules(), turkish, require=COMPLETE)
    assert best is not None
    assert best.is_complete
    assert arrange(hand[:-1], MeldRules(), turkish, require=COMPLETE) is None


def test_no_run_at_all_and_no_card_at_all() -> None:
    assert arrange([], INDIAN, INDIAN_POINTS, require=TWO_RUNS_ONE_PURE) is None
    empty = arrange([], INDIAN, INDIAN_POINTS, require=COMPLETE)
    assert empty == Arrangement((), (), 0)
    assert (
        arrange(parse_cards("7c 7d 7h"), GIN, GIN_POINTS, require=Requirement(min_runs=1)) is None
    )


# ------------------------------------------------------------------------------------------
# Refusals.


@pytest.mark.parametrize(
    "fields",
    [
        {"min_runs": -1},
        {"min_pure_runs": -2},
        {"min_runs": True},
        {"min_runs": 1.5},
        {"min_pure_runs": 1001},
        {"complete": 1},
        {"complete": "yes"},
    ],
)
def test_bad_requirements_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ConfigurationError):
        Requirement(**fields)  # type: ignore[arg-type]


def test_a_requirement_takes_keywords_only() -> None:
    with pytest.raises(TypeError):
        Requirement(2)  # type: ignore[call-arg]


def test_require_must_be_a_requirement() -> None:
    with pytest.raises(ConfigurationError, match="require must be a Requirement"):
        arrange(parse_cards("7c 7d 7h"), INDIAN, INDIAN_POINTS, require="two runs")  # type: ignore[call-overload]


def test_a_discard_that_no_card_can_be_leaves_no_arrangement() -> None:
    # Without a requirement these are refused (test_arrange.py); with one, no arrangement
    # with a discard exists, so none meets it.
    jokers = [JOKER, JOKER]
    for requirement in (SHOW, COMPLETE, TWO_RUNS_ONE_PURE, Requirement()):
        assert arrange([], INDIAN, INDIAN_POINTS, discard=True, require=requirement) is None
        refused = arrange(
            jokers, INDIAN, INDIAN_POINTS, discard=True, can_discard=not_joker, require=requirement
        )
        assert refused is None


@pytest.mark.parametrize("requirement", [COMPLETE, TWO_RUNS_ONE_PURE, Requirement()])
def test_an_item_that_is_not_a_card_is_refused(requirement: Requirement) -> None:
    with pytest.raises(NotationError, match="bad card 7"):
        arrange([JOKER, 7], INDIAN, INDIAN_POINTS, require=requirement)  # type: ignore[list-item]
