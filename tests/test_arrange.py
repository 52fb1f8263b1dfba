"""The best arrangement of a hand (DESIGN.md section 3, RULES.md 0.7, Israeli rules 1.11–1.16).

Expected values come from the rules text worked out by hand in the comments, or from the
brute-force oracle in ``tests/oracle.py``, which uses :func:`rummylib.find_melds` and an
exhaustive search over sets of disjoint melds and never the solver under test. Every
arrangement returned is also checked on its own: legal melds, the right cards, the right points.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    AceRule,
    Arrangement,
    Card,
    CardPoints,
    ConfigurationError,
    Meld,
    MeldKind,
    MeldRules,
    NotationError,
    Rank,
    _arrange,
    arrange,
    format_cards,
    make_deck,
    parse_card,
    parse_cards,
    parse_meld,
)
from rummylib.arrangement import format_arrangement
from rummylib.cards import CARDS
from rummylib.cli import main
from tests.oracle import Oracle, card_value, least_standing_in, oracle_value

GIN = MeldRules(ace=AceRule.LOW)
GIN_POINTS = CardPoints(ace=1, face=10)
ISRAELI = MeldRules(joker_beside_ace=False)
ISRAELI_POINTS = CardPoints(ace=1, face=10, joker=0)
ONE_PACK = make_deck()
TWO_PACKS = make_deck(decks=2, jokers=4)


def not_joker(card: Card) -> bool:
    return not card.is_joker


def check_arrangement(
    hand: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    result: Arrangement,
    *,
    discard: bool = False,
    can_discard: Callable[[Card], bool] | None = None,
) -> None:
    """Everything an arrangement must satisfy, whatever its optimality."""

    def worth(card: Card) -> int:
        return card_value(card, rules, points)  # a wild card counts as a joker (rule 6.5)

    for meld in result.melds:
        meld.check(rules)
    used = Counter(card for meld in result.melds for card in meld.cards)
    used.update(result.deadwood)
    if discard:
        assert result.discard is not None
        assert can_discard is None or can_discard(result.discard)
        used[result.discard] += 1
        # Optimal, so no allowed card left in the deadwood is worth more than the discard.
        heaviest = worth(result.discard)
        for card in result.deadwood:
            assert worth(card) <= heaviest or not (can_discard is None or can_discard(card))
    else:
        assert result.discard is None
    assert used == Counter(hand)
    assert result.deadwood_points == sum(worth(card) for card in result.deadwood)
    assert result.is_complete == (not result.deadwood)
    assert result.deadwood_count == len(result.deadwood)
    assert list(result.deadwood) == sorted(result.deadwood, key=lambda card: card.index)


def check_against_oracle(
    hand: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    *,
    discard: bool = False,
    can_discard: Callable[[Card], bool] | None = None,
) -> Arrangement:
    result = arrange(hand, rules, points, discard=discard, can_discard=can_discard)
    check_arrangement(hand, rules, points, result, discard=discard, can_discard=can_discard)
    expected = oracle_value(hand, rules, points, discard=discard, can_discard=can_discard)
    assert (result.deadwood_points, len(result.deadwood)) == expected, format_cards(hand)
    return result


# ------------------------------------------------------------------------------------------
# Strategies: hands drawn without replacement from real decks.


def drawn(deck: Sequence[Card], max_size: int) -> st.SearchStrategy[list[Card]]:
    """Hands of 0 to ``max_size`` cards (every size equally likely) dealt from ``deck``."""
    return (
        st.integers(0, max_size)
        .flatmap(
            lambda size: st.lists(
                st.integers(0, len(deck) - 1), unique=True, min_size=size, max_size=size
            )
        )
        .map(lambda positions: [deck[position] for position in positions])
    )


@st.composite
def dense_hands(draw: st.DrawFn, max_size: int = 10, *, jokers: int = 4) -> list[Card]:
    """Hands from two packs (and jokers) restricted to a few neighbouring ranks."""
    low = draw(st.integers(1, 11))
    width = draw(st.integers(2, 3))
    pool = [
        card
        for card in make_deck(decks=2, jokers=jokers)
        if card.is_joker or low <= card.index % 13 + 1 <= low + width
    ]
    return draw(drawn(pool, max_size))


OTHER_RULES = [
    MeldRules(ace=AceRule.WRAP),
    MeldRules(ace=AceRule.HIGH, joker_beside_ace=False),
    MeldRules(min_size=2, max_group_size=3),
    MeldRules(max_run_size=4, min_naturals=2),
    MeldRules(group_distinct_suits=False, max_group_size=6, joker_beside_ace=False),
    MeldRules(min_size=4, ace=AceRule.WRAP, joker_beside_ace=False),
    MeldRules(min_naturals=3, max_run_size=6),
]
OTHER_POINTS = [CardPoints(), CardPoints(ace=15, joker=25, ace_low_run=1), CardPoints(ace=11)]


# ------------------------------------------------------------------------------------------
# Property tests against the oracle.


@settings(deadline=None)
@given(drawn(ONE_PACK, 11), st.booleans())
def test_gin_rules_match_the_oracle(hand: list[Card], discard: bool) -> None:
    check_against_oracle(hand, GIN, GIN_POINTS, discard=discard and bool(hand))


@settings(deadline=None)
@given(drawn(TWO_PACKS, 10), st.booleans())
def test_israeli_rules_match_the_oracle(hand: list[Card], discard: bool) -> None:
    discard = discard and any(not card.is_joker for card in hand)
    check_against_oracle(hand, ISRAELI, ISRAELI_POINTS, discard=discard, can_discard=not_joker)


@settings(deadline=None)
@given(dense_hands(), st.sampled_from([GIN, ISRAELI, MeldRules()]), st.booleans())
def test_meld_dense_hands_match_the_oracle(
    hand: list[Card], rules: MeldRules, discard: bool
) -> None:
    check_against_oracle(hand, rules, ISRAELI_POINTS, discard=discard and bool(hand))


@settings(deadline=None)
@given(dense_hands(11, jokers=0), st.booleans())
def test_meld_dense_gin_hands_of_two_packs_match_the_oracle(
    hand: list[Card], discard: bool
) -> None:
    check_against_oracle(hand, GIN, GIN_POINTS, discard=discard and bool(hand))


@settings(deadline=None)
@given(
    st.one_of(dense_hands(9), drawn(make_deck(decks=3, jokers=6), 9)),
    st.sampled_from(OTHER_RULES),
    st.sampled_from(OTHER_POINTS),
    st.sampled_from([None, not_joker, lambda card: card.index % 13 != 4]),  # 5s may stay
)
def test_every_rule_setting_matches_the_oracle(
    hand: list[Card],
    rules: MeldRules,
    points: CardPoints,
    can_discard: Callable[[Card], bool] | None,
) -> None:
    discard = can_discard is None or any(can_discard(card) for card in hand)
    check_against_oracle(
        hand, rules, points, discard=discard and bool(hand), can_discard=can_discard
    )


@settings(deadline=None)
@given(drawn(TWO_PACKS, 14), st.randoms(use_true_random=False))
def test_the_order_of_the_cards_does_not_matter(hand: list[Card], shuffler: random.Random) -> None:
    shuffled = hand[:]
    shuffler.shuffle(shuffled)
    for discard in (False, True):
        if discard and not any(not card.is_joker for card in hand):
            continue
        first = arrange(hand, ISRAELI, ISRAELI_POINTS, discard=discard, can_discard=not_joker)
        second = arrange(shuffled, ISRAELI, ISRAELI_POINTS, discard=discard, can_discard=not_joker)
        assert first == second
        check_arrangement(
            hand, ISRAELI, ISRAELI_POINTS, first, discard=discard, can_discard=not_joker
        )


@settings(deadline=None)
@given(
    st.one_of(
        drawn(ONE_PACK, 14),
        drawn(make_deck(decks=2), 14),
        dense_hands(14, jokers=0),
        drawn(make_deck(jokers=1), 14),
        dense_hands(14, jokers=1),
    ),
    st.sampled_from([GIN, ISRAELI, MeldRules(max_group_size=3)]),
)
def test_the_table_driven_and_the_general_solver_agree(hand: list[Card], rules: MeldRules) -> None:
    # Hands without jokers, or with one, go through the table-driven solver when they can;
    # the general search must find arrangements of the same value.
    counts = Counter(card.index for card in hand if not card.is_joker)
    jokers = len(hand) - sum(counts.values())
    points = CardPoints(joker=15)
    cases: list[tuple[set[int] | None, Callable[[Card], bool] | None]] = [(None, None)]
    if counts:
        cases.append((set(counts), not_joker))
    if hand:
        cases.append((set(counts) | ({JOKER.index} if jokers else set()), None))
    for allowed, can_discard in cases:
        discard = allowed is not None
        fast = arrange(hand, rules, points, discard=discard, can_discard=can_discard)
        check_arrangement(hand, rules, points, fast, discard=discard, can_discard=can_discard)
        melds, deadwood, total, thrown = _arrange.solve_general(
            dict(counts), jokers, rules, points, allowed
        )
        general = Arrangement(melds, deadwood, total, thrown)
        check_arrangement(hand, rules, points, general, discard=discard, can_discard=can_discard)
        assert (fast.deadwood_points, fast.deadwood_count) == (total, len(deadwood))


# ------------------------------------------------------------------------------------------
# Named hands.


def test_gin_eleven_cards_best_discard_reaches_the_true_optimum() -> None:
    # 2d 2s As 4c 4d 4h 5c 5d 6c 6d 6h is worth 2+2+1+4+4+4+5+5+6+6+6 = 45. Its melds are the
    # groups 4c 4d 4h and 6c 6d 6h and the runs 4c 5c 6c and 4d 5d 6d; at most two of them
    # are disjoint, melding at most 30 points (either pair). After the melds, the discard is
    # the heaviest card left: the two groups leave 2d 2s As 5c 5d (15), discard a 5: 10. The
    # two runs leave 2d 2s As 4h 6h (15), discard 6h: 9. One meld or none leaves at least
    # 45 - 18 - 6 = 21. So the optimum is 9, with the runs and 6h as the discard (OpenSpiel's
    # min_deadwood answers 10 here).
    hand = parse_cards("2d 2s As 4c 4d 4h 5c 5d 6c 6d 6h")
    result = check_against_oracle(hand, GIN, GIN_POINTS, discard=True)
    assert result.deadwood_points == 9
    assert result.discard == parse_card("6h")
    assert sorted(str(meld) for meld in result.melds) == ["4c 5c 6c", "4d 5d 6d"]
    assert format_cards(result.deadwood) == "2d 4h As 2s"


def test_gin_ten_card_hands() -> None:
    # As 2s 3s and 7c 7d 7h melded; Kd Qh 9c 5d = 10 + 10 + 9 + 5 = 34 left.
    hand = parse_cards("As 2s 3s 7c 7d 7h Kd Qh 9c 5d")
    result = check_against_oracle(hand, GIN, GIN_POINTS)
    assert result.deadwood_points == 34
    # Gin: two runs of four and a group of three (0 points) also reaches the optimum.
    gin = check_against_oracle(parse_cards("Ah 2h 3h 4h 9c 9d 9s Tc Jc Qc"), GIN, GIN_POINTS)
    assert gin.is_complete
    assert gin.deadwood_points == 0
    # The ace is low only under gin rules: Q K A is no run there, but is by default.
    assert arrange(parse_cards("Qh Kh Ah"), GIN, GIN_POINTS).deadwood_points == 21
    assert arrange(parse_cards("Qh Kh Ah"), MeldRules(), GIN_POINTS).is_complete


def test_rule_1_11_complete_thirteen_card_israeli_hands_with_jokers() -> None:
    # Ah 2h 3h *=4h | 9c 9d 9s | Jc Qc Kc | 5d 6d *=7d: every card melded.
    hand = parse_cards("Ah 2h 3h * 9c 9d 9s Jc Qc Kc 5d 6d *")
    result = check_against_oracle(hand, ISRAELI, ISRAELI_POINTS)
    assert result.is_complete
    assert result.deadwood == ()
    assert sum(meld.joker_count for meld in result.melds) == 2
    # Two groups of four with a joker each, and a run of three jokers' width around one card.
    hand = parse_cards("7c 7d 7h * Kc Kd Ks * 2s 3s 4s 5s *")
    assert arrange(hand, ISRAELI, ISRAELI_POINTS).is_complete


def test_rule_1_11_near_misses_leave_exactly_the_odd_card() -> None:
    # One card short of a run: 5d 6d 8d cannot meld without the joker, which is in use.
    hand = parse_cards("Ah 2h 3h * 9c 9d 9s Jc Qc Kc 5d 6d 8d")
    result = check_against_oracle(hand, ISRAELI, ISRAELI_POINTS)
    # Best: the joker fills 7d (5d 6d *=7d 8d melds 19), Ah 2h 3h stays a run: nothing left.
    assert result.is_complete
    hand = parse_cards("Ah 2h 3h 9c 9d 9s Jc Qc Kc 5d 6d 8d 2c")
    result = check_against_oracle(hand, ISRAELI, ISRAELI_POINTS)
    # Without a joker, 5d 6d 8d 2c (21 points) cannot meld.
    assert result.deadwood_points == 21
    assert format_cards(result.deadwood) == "2c 5d 6d 8d"


def test_rule_1_13_jokers_keep_away_from_aces() -> None:
    # {Ah, *, 3h} is a run only if a joker may stand next to an ace.
    hand = parse_cards("Ah * 3h 9c 9d 9s")
    israeli = check_against_oracle(hand, ISRAELI, ISRAELI_POINTS)
    assert israeli.deadwood_points == 1 + 3  # 9c 9d 9s *=9h melds, Ah and 3h stay
    assert format_cards(israeli.deadwood) == "Ah 3h"
    relaxed = check_against_oracle(hand, MeldRules(), ISRAELI_POINTS)
    assert relaxed.is_complete
    # {*, 2h, 3h} is a run as 2h 3h *=4h, never *=Ah 2h 3h.
    result = check_against_oracle(parse_cards("* 2h 3h"), ISRAELI, ISRAELI_POINTS)
    assert [str(meld) for meld in result.melds] == ["2h 3h *=4h"]


def test_rule_1_11_fourteen_cards_where_only_one_discard_wins() -> None:
    # Ah 2h 3h *=4h | 9c 9d 9s | Jc Qc Kc | 5d 6d 7d, and 2s fits nowhere: it must go.
    hand = parse_cards("Ah 2h 3h * 9s 9d 9c Jc Qc Kc 5d 6d 7d 2s")
    result = check_against_oracle(
        hand, ISRAELI, ISRAELI_POINTS, discard=True, can_discard=not_joker
    )
    assert result.is_complete
    assert result.discard == parse_card("2s")
    oracle = Oracle(hand, ISRAELI, ISRAELI_POINTS)
    winners = [card for card, value in oracle.discard_values().items() if value == (0, 0)]
    assert winners == [parse_card("2s")]
    # 7c 7d * | 2s 3s 4s | Th Jh Qh | 5c 5d 5h 5s, and Kd: only discarding Kd declares.
    hand = parse_cards("7c 7d * 2s 3s 4s Th Jh Qh 5c 5d 5h 5s Kd")
    result = check_against_oracle(
        hand, ISRAELI, ISRAELI_POINTS, discard=True, can_discard=not_joker
    )
    assert result.is_complete
    assert result.discard == parse_card("Kd")


def test_rule_1_9_the_joker_is_never_the_discard() -> None:
    # With jokers worth 25 and nothing meldable, setting the joker aside would be best (Kc
    # and 2d left: 12); a rule that forbids it leaves * and 2d (27) after discarding Kc.
    hand = parse_cards("Kc 2d *")
    points = CardPoints(joker=25)
    free = check_against_oracle(hand, ISRAELI, points, discard=True)
    assert free.discard == JOKER
    assert free.deadwood_points == 12
    ruled = check_against_oracle(hand, ISRAELI, points, discard=True, can_discard=not_joker)
    assert ruled.discard == parse_card("Kc")
    assert ruled.deadwood_points == 27


def test_a_joker_in_the_deadwood_is_a_card_even_at_zero_points() -> None:
    result = arrange(parse_cards("* * 9c"), MeldRules(min_naturals=2), ISRAELI_POINTS)
    assert result.deadwood_points == 9
    assert not result.is_complete
    only_jokers = arrange([JOKER, JOKER], ISRAELI, ISRAELI_POINTS)
    assert only_jokers.deadwood_points == 0
    assert only_jokers.deadwood_count == 2
    assert not only_jokers.is_complete
    # Fewer deadwood cards break a tie in points: 7c 7d *=7h rather than leaving the joker.
    result = arrange(parse_cards("7c 7d 7h *"), ISRAELI, ISRAELI_POINTS)
    assert result.is_complete
    assert [meld.kind for meld in result.melds] == [MeldKind.GROUP]


def test_a_joker_with_no_room_stays_in_the_deadwood() -> None:
    # 7c 7d 7h 7s is a full group; a joker has no place: 0 points but one card left.
    result = check_against_oracle(parse_cards("7c 7d 7h 7s *"), ISRAELI, ISRAELI_POINTS)
    assert result.deadwood == (JOKER,)
    assert result.deadwood_points == 0
    # With 8s 9s as well, the joker completes 8s 9s *=Ts and every card melds.
    result = check_against_oracle(parse_cards("7c 7d 7h 7s 8s 9s *"), ISRAELI, ISRAELI_POINTS)
    assert result.is_complete


def test_two_packs_meld_both_copies() -> None:
    # Two runs from two copies of 5h 6h 7h, and the duplicate 9s that cannot meld.
    hand = parse_cards("5h 6h 7h 5h 6h 7h 9s 9s")
    result = check_against_oracle(hand, ISRAELI, ISRAELI_POINTS)
    assert sorted(str(meld) for meld in result.melds) == ["5h 6h 7h", "5h 6h 7h"]
    assert format_cards(result.deadwood) == "9s 9s"
    # A shared middle card: 5h 6h 7h and 7h 8h 9h need both copies of 7h.
    result = check_against_oracle(parse_cards("5h 6h 7h 7h 8h 9h"), ISRAELI, ISRAELI_POINTS)
    assert result.is_complete


def test_big_hands_are_exact_too() -> None:
    # 52 cards: thirteen groups of four. Two packs of one suit: two runs from ace to king.
    assert arrange(make_deck(), GIN, GIN_POINTS).is_complete
    hearts = [card for card in make_deck(decks=2) if str(card).endswith("h")]
    result = arrange(hearts, ISRAELI, ISRAELI_POINTS)
    check_arrangement(hearts, ISRAELI, ISRAELI_POINTS, result)
    assert result.is_complete
    # Six pairs that each need a joker, and eight jokers: all melded, two jokers to spare
    # (they extend runs). Discarding a natural card leaves its partner needing two jokers:
    # 5 + 2 = 7 jokers, still enough.
    hand = [*parse_cards("2c 3c 5d 6d 8h 9h Js Qs 4c 4d Kh Ks"), *([JOKER] * 8)]
    for discard in (False, True):
        result = arrange(hand, ISRAELI, ISRAELI_POINTS, discard=discard, can_discard=not_joker)
        check_arrangement(
            hand, ISRAELI, ISRAELI_POINTS, result, discard=discard, can_discard=not_joker
        )
        assert result.is_complete


@pytest.mark.parametrize("rules", [GIN, ISRAELI, *OTHER_RULES[:5]])
def test_the_solver_reads_jokers_as_meld_from_cards_does(rules: MeldRules) -> None:
    # The solver builds its melds directly (for speed); they must be the readings that
    # Meld.from_cards gives the same cards.
    for shape in _arrange.shapes(rules, 2):
        cards = [CARDS[index] for index in shape.naturals]
        for jokers, meld in enumerate(shape.melds, start=shape.low):
            assert meld == Meld.from_cards([*cards, *([JOKER] * jokers)], rules)


def test_results_are_deterministic_values() -> None:
    hand = parse_cards("7c 7d 7h 8h 9h Ks 7s 6h")
    first = arrange(hand, MeldRules(), ISRAELI_POINTS, discard=True)
    assert first == arrange(tuple(reversed(hand)), MeldRules(), ISRAELI_POINTS, discard=True)
    assert hash(first) == hash(arrange(iter(hand), MeldRules(), ISRAELI_POINTS, discard=True))
    assert format_arrangement(first) == ("7c 7d 7s | 6h 7h 8h 9h | no deadwood | discard Ks")


def test_empty_hand() -> None:
    result = arrange([], GIN, GIN_POINTS)
    assert result == Arrangement((), (), 0, None)
    assert result.is_complete


# ------------------------------------------------------------------------------------------
# Wild cards (RULES.md 6.3, 6.5, 6.7; DESIGN.md section 11): every card of a wild rank is a
# joker, except in its own natural place. The oracle finds the melds of these hands without
# find_melds (see tests/oracle.py).

SEVENS = frozenset({Rank.SEVEN})


def wild(rules: MeldRules, *ranks: Rank) -> MeldRules:
    return attrs.evolve(rules, wild_ranks=frozenset(ranks or SEVENS))


@st.composite
def wild_hands(
    draw: st.DrawFn, max_size: int = 10, *, decks: int = 2, jokers: int = 2
) -> tuple[list[Card], frozenset[Rank]]:
    """Hands from a few neighbouring ranks and every card of one or two wild ranks.

    The wild rank is often one of the neighbouring ranks, so that wild cards also sit in
    their natural places.
    """
    low = draw(st.integers(1, 11))
    width = draw(st.integers(1, 3))
    ranks = draw(
        st.lists(
            st.one_of(st.integers(low, min(13, low + width)), st.integers(1, 13)).map(Rank),
            min_size=1,
            max_size=2,
        )
    )
    pool = [
        card
        for card in make_deck(decks=decks, jokers=jokers)
        if card.is_joker or low <= int(card.rank or 0) <= low + width or card.rank in ranks
    ]
    return draw(drawn(pool, max_size)), frozenset(ranks)


WILD_RULES = [
    MeldRules(),
    ISRAELI,
    GIN,
    MeldRules(min_naturals=2),
    MeldRules(group_distinct_suits=False, max_group_size=5),
    MeldRules(ace=AceRule.WRAP, max_run_size=5),
    MeldRules(min_size=2, max_group_size=3),
]
WILD_POINTS = [ISRAELI_POINTS, CardPoints(ace=15, joker=25, ace_low_run=1), CardPoints(ace=10)]
DISCARD_RULES: list[Callable[[Card], bool] | None] = [
    None,
    not_joker,
    lambda card: card.rank != Rank.SEVEN,  # a wild seven may not be the discard
]


@settings(deadline=None)
@given(
    wild_hands(),
    st.sampled_from(WILD_RULES),
    st.sampled_from(WILD_POINTS),
    st.booleans(),
    st.sampled_from(DISCARD_RULES),
)
def test_wild_cards_match_the_oracle(
    case: tuple[list[Card], frozenset[Rank]],
    base: MeldRules,
    points: CardPoints,
    discard: bool,
    can_discard: Callable[[Card], bool] | None,
) -> None:
    hand, ranks = case
    rules = attrs.evolve(base, wild_ranks=ranks)
    discard = discard and any(can_discard is None or can_discard(card) for card in hand)
    check_against_oracle(hand, rules, points, discard=discard, can_discard=can_discard)


@settings(deadline=None)
@given(
    st.integers(1, 13).flatmap(
        lambda rank: st.tuples(
            drawn(
                [
                    card
                    for card in make_deck(decks=2, jokers=2)
                    if card.is_joker or abs(int(card.rank or 0) - rank) <= 1
                ],
                10,
            ),
            st.just(Rank(rank)),
        )
    ),
    st.sampled_from(WILD_RULES[:4]),
    st.sampled_from(WILD_POINTS),
    st.booleans(),
)
def test_wild_cards_around_their_natural_places_match_the_oracle(
    case: tuple[list[Card], Rank], base: MeldRules, points: CardPoints, discard: bool
) -> None:
    # Only the wild rank and its neighbours, from two packs: groups of wild cards alone, wild
    # cards in their own places in runs, and wild cards standing in beside printed jokers.
    hand, rank = case
    check_against_oracle(hand, wild(base, rank), points, discard=discard and bool(hand))


@settings(deadline=None)
@given(wild_hands(14, jokers=2), st.randoms(use_true_random=False))
def test_wild_hands_in_any_order_give_the_same_arrangement(
    case: tuple[list[Card], frozenset[Rank]], shuffler: random.Random
) -> None:
    hand, ranks = case
    rules = MeldRules(wild_ranks=ranks)
    shuffled = hand[:]
    shuffler.shuffle(shuffled)
    for discard in (False, bool(hand)):
        first = arrange(hand, rules, ISRAELI_POINTS, discard=discard)
        assert first == arrange(shuffled, rules, ISRAELI_POINTS, discard=discard)
        check_arrangement(hand, rules, ISRAELI_POINTS, first, discard=discard)


@settings(deadline=None)
@given(wild_hands(12), st.sampled_from(WILD_RULES[:4]))
def test_wild_cards_in_melds_stand_for_themselves_where_they_can(
    case: tuple[list[Card], frozenset[Rank]], base: MeldRules
) -> None:
    # Each meld is read with as few wild cards standing in as its cards allow (the reading of
    # Meld.from_cards); the oracle counts them by trying every reading.
    hand, ranks = case
    rules = attrs.evolve(base, wild_ranks=ranks)
    for meld in arrange(hand, rules, ISRAELI_POINTS).melds:
        standing = sum(
            not card.is_joker and card is not stands
            for card, stands in zip(meld.cards, meld.stands_for, strict=True)
        )
        assert standing == least_standing_in(meld.cards, rules), str(meld)
        assert meld == Meld.from_cards(meld.cards, rules)


@settings(deadline=None)
@given(drawn(TWO_PACKS, 14), st.sampled_from([GIN, ISRAELI, MeldRules()]), st.booleans())
def test_hands_without_wild_cards_arrange_as_without_wild_ranks(
    hand: list[Card], base: MeldRules, discard: bool
) -> None:
    rules = wild(base, Rank.SEVEN)
    hand = [card for card in hand if card.rank != Rank.SEVEN]
    discard = discard and any(not card.is_joker for card in hand)
    kwargs: dict[str, object] = {"discard": discard, "can_discard": not_joker}
    assert arrange(hand, rules, ISRAELI_POINTS, discard=discard, can_discard=not_joker) == (
        arrange(hand, base, ISRAELI_POINTS, discard=discard, can_discard=not_joker)
    ), kwargs


def test_rule_6_7_wild_in_its_natural_place_is_natural() -> None:
    # Wild rank 7: in 6h 7h 8h the 7h stands for itself, a natural card, so the run is pure,
    # and it melds even where every card must be natural (min_naturals=3).
    result = check_against_oracle(parse_cards("8h 6h 7h"), wild(MeldRules()), ISRAELI_POINTS)
    assert [str(meld) for meld in result.melds] == ["6h 7h 8h"]
    assert result.melds[0].is_pure
    strict = wild(MeldRules(min_naturals=3))
    assert check_against_oracle(parse_cards("6h 7h 8h"), strict, ISRAELI_POINTS).is_complete
    # Without a joker beside an ace (rule 1.13), a wild 2h in its place next to Ah is natural;
    # a wild 2c standing for 2h there is a joker beside the ace.
    israeli = wild(ISRAELI, Rank.TWO)
    assert check_against_oracle(parse_cards("Ah 2h 3h"), israeli, ISRAELI_POINTS).is_complete
    beside = check_against_oracle(parse_cards("Ah 2c 3h"), israeli, ISRAELI_POINTS)
    assert beside.deadwood_points == 1 + 0 + 3  # nothing melds; the wild 2c is worth 0


def test_rule_6_7_a_group_of_wild_cards_is_a_natural_pure_group() -> None:
    # 7c 7d 7h with wild rank 7: each stands for itself, a group of three natural cards.
    for base in (MeldRules(), MeldRules(min_naturals=3)):
        result = check_against_oracle(parse_cards("7h 7c 7d"), wild(base), ISRAELI_POINTS)
        assert [str(meld) for meld in result.melds] == ["7c 7d 7h"]
        assert result.melds[0].is_pure
    # Five sevens from two packs, three natural cards needed: 7c 7d 7h and a second copy
    # standing for 7s (a group of four, suits all different), so one seven is left over,
    # worth a joker (25). No group holds two sevens standing for themselves in one suit.
    hand = parse_cards("7c 7d 7h 7c 7d")
    points = CardPoints(joker=25)
    result = check_against_oracle(hand, wild(MeldRules(min_naturals=3)), points)
    assert result.deadwood_points == 25
    assert result.deadwood_count == 1
    [meld] = result.melds
    assert format_cards(meld.stands_for) == "7c 7d 7h 7s"


def test_rule_6_7_a_wild_card_takes_the_rank_and_suit_it_stands_for() -> None:
    # Wild 7h in 9c 9d 7h=9s is the 9s: a group of nines (and no room for a natural 9s).
    rules = wild(MeldRules())
    meld = parse_meld("9c 9d 7h=9s", rules)
    assert meld.kind is MeldKind.GROUP
    assert format_cards(meld.stands_for) == "9c 9d 9s"
    assert not meld.is_pure
    result = check_against_oracle(parse_cards("9c 9d 7h 9s"), rules, ISRAELI_POINTS)
    assert result.is_complete
    assert [str(meld) for meld in result.melds] == ["9c 9d 7h=9h 9s"]


def test_rule_6_8_wild_cards_go_where_they_are_themselves() -> None:
    # Two wild sevens and two melds each short of a card: the 7h goes to the hearts, where it
    # is itself (a pure run), the 7s stands in among the kings. Either way nothing is left,
    # so only the placing of the wild cards is in question.
    result = check_against_oracle(
        parse_cards("Kc 8h Kd 7s 9h 7h"), wild(MeldRules()), ISRAELI_POINTS
    )
    assert sorted(str(meld) for meld in result.melds) == ["7h 8h 9h", "Kc Kd 7s=Kh"]
    # A joker's place that is the wild card's own: 6h *=7h 8h takes the 7h.
    result = check_against_oracle(
        parse_cards("6h 8h 9c 9d 7s 7h"), wild(MeldRules()), ISRAELI_POINTS
    )
    assert sorted(str(meld) for meld in result.melds) == ["6h 7h 8h", "9c 9d 7s=9h"]
    assert [meld.is_pure for meld in result.melds if meld.kind is MeldKind.RUN] == [True]


def test_rule_6_5_a_wild_card_left_over_counts_as_a_joker() -> None:
    # Nothing melds in 7c Kd 2s: with jokers worth 0 the wild 7c adds nothing (12 points);
    # with jokers worth 25 it is the heaviest card, so it is the best discard.
    hand = parse_cards("7c Kd 2s")
    assert check_against_oracle(hand, wild(MeldRules()), ISRAELI_POINTS).deadwood_points == 12
    heavy = CardPoints(joker=25)
    kept = check_against_oracle(hand, wild(MeldRules()), heavy)
    assert kept.deadwood_points == 37
    assert format_cards(kept.deadwood) == "7c Kd 2s"  # the wild card is reported as itself
    thrown = check_against_oracle(hand, wild(MeldRules()), heavy, discard=True)
    assert thrown.discard == parse_card("7c")
    assert thrown.deadwood_points == 12


def test_printed_jokers_and_wild_cards_together() -> None:
    # Ah 2h * 9c 9d 7s with wild rank 7: the joker and the wild 7s complete both melds.
    hand = parse_cards("Ah 2h * 9c 9d 7s")
    result = check_against_oracle(hand, wild(MeldRules()), ISRAELI_POINTS)
    assert result.is_complete
    assert sorted(meld.joker_count for meld in result.melds) == [0, 1]
    # The discard may be a wild card where a printed joker may not (Israeli rule 1.9): with
    # jokers worth 25, 7s is set aside and the printed joker stays (25) with Kd (10).
    hand = parse_cards("* 7s Kd")
    result = check_against_oracle(
        hand, wild(MeldRules()), CardPoints(joker=25), discard=True, can_discard=not_joker
    )
    assert result.discard == parse_card("7s")
    assert result.deadwood_points == 35


def test_two_packs_of_wild_cards() -> None:
    # Both copies of 6h 7h 8h with wild rank 7: two pure runs.
    result = check_against_oracle(
        parse_cards("6h 7h 8h 6h 7h 8h"), wild(MeldRules()), ISRAELI_POINTS
    )
    assert [str(meld) for meld in result.melds] == ["6h 7h 8h", "6h 7h 8h"]
    assert all(meld.is_pure for meld in result.melds)
    # Thirteen cards, two packs, two printed jokers and the wild twos of an Indian deal.
    hand = parse_cards("2c 2d 3h 4h 5h 9s 9s Ts * 2h Jd Qd Kd")
    result = arrange(hand, wild(MeldRules(), Rank.TWO), ISRAELI_POINTS)
    check_arrangement(hand, wild(MeldRules(), Rank.TWO), ISRAELI_POINTS, result)
    assert result.is_complete


# ------------------------------------------------------------------------------------------
# Bad input.


def test_a_discard_from_an_empty_hand_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="cannot discard from an empty hand"):
        arrange([], GIN, GIN_POINTS, discard=True)


def test_a_discard_that_can_discard_refuses_is_refused() -> None:
    with pytest.raises(ConfigurationError, match=r"can_discard allows none of \*$"):
        arrange([JOKER, JOKER], ISRAELI, ISRAELI_POINTS, discard=True, can_discard=not_joker)
    with pytest.raises(ConfigurationError, match="can_discard allows none of 7c 7d"):
        arrange(parse_cards("7d 7c"), GIN, GIN_POINTS, discard=True, can_discard=lambda c: False)


@pytest.mark.parametrize("bad", ["7h", 7, None, ("7", "h")])
def test_items_that_are_not_cards_are_refused(bad: object) -> None:
    hand: list[object] = [parse_card("7c"), bad]
    with pytest.raises(NotationError, match="expected a Card"):
        arrange(hand, GIN, GIN_POINTS)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="expected a Card"):
        arrange([*hand, JOKER], GIN, GIN_POINTS)  # type: ignore[list-item]


def test_wrong_argument_types_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="rules must be a MeldRules"):
        arrange([], GIN_POINTS, GIN_POINTS)  # type: ignore[call-overload]
    with pytest.raises(ConfigurationError, match="points must be a CardPoints"):
        arrange([], GIN, GIN)  # type: ignore[call-overload]
    with pytest.raises(ConfigurationError, match="can_discard must be a function"):
        arrange([], GIN, GIN_POINTS, discard=True, can_discard=3)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="cannot discard"):  # the errors are ValueErrors
        arrange([], GIN, GIN_POINTS, discard=True)


# ------------------------------------------------------------------------------------------
# The command line: rummylib check --arrange.


def test_cli_arrange_prints_melds_deadwood_and_points(capsys: pytest.CaptureFixture[str]) -> None:
    # 7h 8h 9h melds 24, the group 7c 7d 7h only 21: deadwood 7c 7d Ks = 24.
    assert main(["check", "--arrange", "7c 7d 7h 8h 9h Ks"]) == 1
    assert capsys.readouterr().out == "7h 8h 9h | deadwood 7c 7d Ks (24 points)\n"


def test_cli_arrange_with_points_and_discard(capsys: pytest.CaptureFixture[str]) -> None:
    # Jokers worth 25: Ah 2h *=3h melds the joker; Kd is the discard; 9c 8d stay (17).
    argv = ["check", "--arrange", "--discard", "--points", "ace=1,face=10,joker=25"]
    assert main([*argv, "Ah 2h * 9c 8d Kd"]) == 1
    assert capsys.readouterr().out == "Ah 2h *=3h | deadwood 8d 9c (17 points) | discard Kd\n"
    # Rule 1.13 as an option: without jokers beside aces, Ah * 3h is no run.
    assert main(["check", "--arrange", "--no-joker-beside-ace", "Ah * 3h"]) == 1
    assert capsys.readouterr().out == "deadwood Ah 3h * (4 points)\n"
    assert main(["check", "--arrange", "Ah * 3h"]) == 0
    assert capsys.readouterr().out == "Ah *=2h 3h | no deadwood\n"


def test_cli_arrange_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--arrange", "--points", "queen=3", "7h"]) == 2
    assert "bad points 'queen=3'" in capsys.readouterr().err
    assert main(["check", "--discard", "7h 8h 9h"]) == 2
    assert "--discard needs --arrange" in capsys.readouterr().err


@pytest.mark.parametrize(
    "rules",
    [
        ISRAELI,
        GIN,
        MeldRules(),
        MeldRules(ace="high", joker_beside_ace=False),
        MeldRules(ace="wrap"),
        MeldRules(max_group_size=3, max_run_size=4),
        MeldRules(min_naturals=2),
        MeldRules(min_size=2, max_group_size=2),
        MeldRules(group_distinct_suits=False, max_group_size=5),
    ],
)
def test_shapes_for_fewer_jokers_are_cut_from_the_batch_ones(rules: MeldRules) -> None:
    # shapes() cuts the tables for 1-3 jokers from the 4-joker ones; worked out directly
    # from the candidate melds, they are the same.
    for jokers in range(1, _arrange.BATCH_JOKERS):
        assert _arrange.shapes(rules, jokers) == _arrange.shapes_of(rules, jokers)


def test_a_first_hand_with_jokers_builds_the_tables_up_to_four_jokers() -> None:
    _arrange.clear_tables()
    arrange(parse_cards("7c 7d * 9h Kd"), ISRAELI, CardPoints())
    assert _arrange._shape_info.cache_info().currsize == _arrange.BATCH_JOKERS + 1
