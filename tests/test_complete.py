"""The fast "can this hand be melded completely" filters: the search never rules out a real
declaration, and the tables give the search's answers."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import JOKER, AceRule, Card, CardPoints, MeldRules, make_deck, parse_card, parse_cards
from rummylib._complete import (
    _fits,
    _split,
    _starts,
    _suit_cost,
    _suit_tables,
    _tables_for,
    declarations,
    may_meld_all,
    may_meld_card,
    meldable_discards,
)
from rummylib.arrangement import arrange
from rummylib.strategies import hands, meld_rules
from tests.oracle import wild_melds

ISRAELI = MeldRules(joker_beside_ace=False)
POINTS = CardPoints()


def dense_hands() -> st.SearchStrategy[list[Card]]:
    """Fourteen cards from a narrow window of ranks (two packs) plus up to four jokers."""
    return st.integers(1, 10).flatmap(
        lambda low: st.integers(0, 4).flatmap(
            lambda jokers: st.lists(
                st.sampled_from(
                    [card for card in make_deck(2) if card.rank and low <= card.rank < low + 4]
                ),
                min_size=14 - jokers,
                max_size=14 - jokers,
            ).map(lambda cards: [*cards, *[JOKER] * jokers])
        )
    )


@settings(max_examples=150, deadline=None)
@given(
    hand=st.one_of(hands(size=14, decks=2, jokers=4), dense_hands()),
    beside=st.booleans(),
)
def test_a_hand_the_filter_rules_out_has_no_complete_arrangement(
    hand: list[Card], beside: bool
) -> None:
    rules = MeldRules(joker_beside_ace=beside)
    naturals = [card for card in hand if not card.is_joker]
    if not may_meld_all(hand, rules, naturals):
        best = arrange(hand, rules, POINTS, discard=True, can_discard=lambda c: not c.is_joker)
        assert not best.is_complete


@settings(max_examples=100, deadline=None)
@given(hand=st.one_of(hands(size=13, decks=2, jokers=4), dense_hands().map(lambda h: h[1:])))
def test_without_a_discard_the_filter_is_sound_too(hand: list[Card]) -> None:
    if not may_meld_all(hand, ISRAELI):
        assert not arrange(hand, ISRAELI, POINTS).is_complete


def test_rule_1_13_a_joker_that_could_only_sit_beside_an_ace_does_not_help() -> None:
    # Ah * 3h: the joker would stand for 2h beside the ace, which rule 1.13 forbids; the
    # other cards are a complete group, so everything hinges on that run.
    hand = parse_cards("Ah * 3h 7c 7d 7s")
    assert not may_meld_all(hand, ISRAELI)
    assert may_meld_all(hand, MeldRules(joker_beside_ace=True))


def test_two_isolated_cards_cannot_both_be_discarded() -> None:
    hand = parse_cards("Ah 2h 3h 7c 7d 7s Kd Qc")
    assert not may_meld_all(hand, ISRAELI, parse_cards("Kd Qc"))
    assert may_meld_all(parse_cards("Ah 2h 3h 7c 7d 7s Kd"), ISRAELI, parse_cards("Kd"))
    # The one isolated card must be one the player may discard.
    assert not may_meld_all(parse_cards("Ah 2h 3h 7c 7d 7s Kd"), ISRAELI, parse_cards("7c"))


# -- the tables: the same answers as the search, faster ------------------------------------


def dense_pack_hands(size: int = 14) -> st.SearchStrategy[list[Card]]:
    """``size`` cards dealt (without replacement) from two packs' cards of four neighbouring
    ranks and up to four jokers: hands with many melds, copies and jokers."""

    def deal(low: int, jokers: int) -> st.SearchStrategy[list[Card]]:
        window = [card for card in make_deck(2) if card.rank and low <= card.rank < low + 4]
        pool = window + [JOKER] * jokers
        chosen = st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True)
        return chosen.map(lambda positions: [pool[position] for position in positions])

    return st.integers(1, 10).flatmap(lambda low: st.integers(0, 4).flatmap(lambda j: deal(low, j)))


#: Rules the tables model (three-card melds, groups of different suits, no wrapping), with
#: every setting that changes them.
TABLE_RULES = st.builds(
    MeldRules,
    ace=st.sampled_from([AceRule.LOW_OR_HIGH, AceRule.LOW, AceRule.HIGH]),
    joker_beside_ace=st.booleans(),
    max_group_size=st.sampled_from([4, 3]),
    max_run_size=st.sampled_from([None, 5, 3, 4, 6, 9]),
)


def naturals_of(hand: Sequence[Card]) -> list[Card]:
    return sorted({card for card in hand if not card.is_joker}, key=lambda card: card.index)


def discards_by_search(hand: Sequence[Card], rules: MeldRules) -> list[Card]:
    found = []
    for card in naturals_of(hand):
        rest = list(hand)
        rest.remove(card)
        if may_meld_all(rest, rules):
            found.append(card)
    return found


@settings(max_examples=300, deadline=None)
@given(
    hand=st.one_of(
        hands(size=14, decks=2, jokers=4),
        dense_pack_hands(),
        dense_hands(),
        hands(size=(4, 16), decks=2, jokers=8),
        hands(size=(3, 12), decks=3, jokers=2),  # a card three times: the search decides
    ),
    rules=st.one_of(TABLE_RULES, meld_rules()),
)
def test_the_tables_find_the_discards_the_search_finds(hand: list[Card], rules: MeldRules) -> None:
    assert meldable_discards(hand, rules, naturals_of(hand)) == discards_by_search(hand, rules)


@settings(max_examples=200, deadline=None)
@given(hand=st.one_of(dense_pack_hands(), hands(size=14, decks=2, jokers=4)), rules=TABLE_RULES)
def test_the_tables_agree_with_the_search_with_one_card_set_aside(
    hand: list[Card], rules: MeldRules
) -> None:
    tables = _tables_for(rules)
    split = _split(hand)
    assert tables is not None
    assert split is not None
    fits = _fits(*split, tables, free=True)
    assert fits == may_meld_all(hand, rules, naturals_of(hand))


@settings(max_examples=100, deadline=None)
@given(
    hand=st.one_of(dense_pack_hands(), hands(size=14, decks=2, jokers=4)),
    keep=st.integers(0, 13),
    beside=st.booleans(),
)
def test_declarations_are_the_discards_that_leave_a_complete_arrangement(
    hand: list[Card], keep: int, beside: bool
) -> None:
    rules = MeldRules(joker_beside_ace=beside)
    kept = None if hand[keep].is_joker else hand[keep]
    expected = []
    for card in naturals_of(hand):
        if card is kept:
            continue
        rest = list(hand)
        rest.remove(card)
        best = arrange(rest, rules, POINTS)
        if best.is_complete:
            expected.append((card, best.melds))
    assert declarations(hand, rules, POINTS, kept) == tuple(expected)
    assert declarations(hand, rules, POINTS, kept) == tuple(expected)  # from the memo


def wild_hands(size: int) -> st.SearchStrategy[tuple[list[Card], MeldRules]]:
    """Hands of neighbouring ranks (two packs, two jokers) with one of those ranks wild."""
    return st.integers(1, 10).flatmap(
        lambda low: st.tuples(
            st.lists(
                st.sampled_from(
                    [
                        card
                        for card in make_deck(2, jokers=2)
                        if card.is_joker or (card.rank and low <= card.rank < low + 4)
                    ]
                ),
                min_size=size,
                max_size=size,
            ),
            st.integers(low, low + 3).map(
                lambda rank: MeldRules(joker_beside_ace=rank % 2 == 0, wild_ranks={rank})
            ),
        )
    )


@settings(max_examples=60, deadline=None)
@given(wild_hands(10), st.integers(0, 9))
def test_declarations_with_wild_cards_leave_a_complete_arrangement(
    case: tuple[list[Card], MeldRules], keep: int
) -> None:
    hand, rules = case
    kept = None if hand[keep].is_joker else hand[keep]
    expected = []
    for card in naturals_of(hand):
        if card is kept:
            continue
        rest = list(hand)
        rest.remove(card)
        best = arrange(rest, rules, POINTS)
        if best.is_complete:
            expected.append((card, best.melds))
    assert declarations(hand, rules, POINTS, kept) == tuple(expected)
    allowed = naturals_of(hand)
    assert set(meldable_discards(hand, rules, allowed)) >= {card for card, _ in expected}
    if expected:
        assert may_meld_all(hand, rules, allowed)


@settings(max_examples=60, deadline=None)
@given(wild_hands(7))
def test_may_meld_card_with_wild_cards_is_exact(case: tuple[list[Card], MeldRules]) -> None:
    hand, rules = case
    melds = wild_melds(hand, rules)  # every sub-multiset tried, by tests/oracle.py
    for card in set(hand):
        expected = any(card.index in key for key in melds)
        assert may_meld_card(hand, card, rules) == expected


def test_rule_1_8_the_card_kept_is_not_a_declaration_discard() -> None:
    hand = parse_cards("Ah 2h 3h 7c 7d 7s Kd *")
    rules = MeldRules(joker_beside_ace=False)
    assert [card for card, _ in declarations(hand, rules, POINTS)] == [parse_card("Kd")]
    assert declarations(hand, rules, POINTS, parse_card("Kd")) == ()


def test_the_second_copy_of_a_card_may_meld_apart_from_the_first() -> None:
    # 5h 6h 7h and 7h 8h 9h: the copies of 7h go to different runs; Kd is the discard.
    hand = parse_cards("5h 6h 7h 7h 8h 9h Kd")
    assert meldable_discards(hand, ISRAELI, naturals_of(hand)) == [parse_card("Kd")]
    assert [card for card, _ in declarations(hand, ISRAELI, POINTS)] == [parse_card("Kd")]


@functools.lru_cache(maxsize=1 << 18)
def covered_by_brute_force(key: tuple[str, bool, int], counts: tuple[int, ...]) -> int:
    """Fewest jokers covering one suit's cards (``counts`` by rank, ace first): the lowest
    card alone (two jokers) or in a run window using *any* of the cards it holds."""
    ace, beside, longest = key
    if not any(counts):
        return 0
    low = next(rank for rank in range(13) if counts[rank])
    left = list(counts)
    left[low] -= 1
    best = 2 + covered_by_brute_force(key, tuple(left))
    positions = (1, 14) if low == 0 else (low + 1,)
    for size in range(3, longest + 1):
        for start in _starts(ace, size):
            window = range(start, start + size)
            for here in (position for position in positions if position in window):
                others = [p for p in window if p != here and left[(p - 1) % 13]]
                for used in itertools.chain.from_iterable(
                    itertools.combinations(others, n) for n in range(len(others) + 1)
                ):
                    natural = {here, *used}
                    if not beside and any(
                        p in window and p not in natural
                        for ace_at in (1, 14)
                        if ace_at in window
                        for p in (ace_at - 1, ace_at, ace_at + 1)
                    ):
                        continue
                    rest = list(left)
                    for p in used:
                        rest[(p - 1) % 13] -= 1
                    cost = size - len(natural) + covered_by_brute_force(key, tuple(rest))
                    best = min(best, cost)
    return best


KEYS = st.tuples(
    st.sampled_from([value.value for value in (AceRule.LOW_OR_HIGH, AceRule.LOW, AceRule.HIGH)]),
    st.booleans(),
    st.sampled_from([5, 3, 4]),
)


@settings(max_examples=300, deadline=None)
@given(key=KEYS, counts=st.lists(st.sampled_from([0, 0, 1, 1, 2]), min_size=13, max_size=13))
def test_a_suit_table_is_the_fewest_jokers_of_any_cover(
    key: tuple[str, bool, int], counts: list[int]
) -> None:
    first = sum(1 << rank for rank in range(13) if counts[rank])
    second = sum(1 << rank for rank in range(13) if counts[rank] == 2)
    assert _suit_cost(key, first, second) == covered_by_brute_force(key, tuple(counts))
    if not second:
        assert _suit_tables(key)[0][first] == covered_by_brute_force(key, tuple(counts))
