"""The Hypothesis strategies of rummylib.strategies produce what they promise."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import attrs
import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    AceRule,
    Card,
    ConfigurationError,
    Meld,
    MeldKind,
    MeldRules,
    Rank,
    make_deck,
)
from rummylib.strategies import DEFAULT_HAND_SIZE, cards, hands, meld_rules, melds

# find() without the example database, so earlier runs cannot change what it returns.
FRESH = settings(max_examples=2000, database=None)
# find() that only shows a value exists: no shrinking.
REACH = settings(FRESH, phases=[Phase.generate])


@given(cards())
def test_cards_are_cards_of_the_deck(card: Card) -> None:
    assert isinstance(card, Card)
    assert card in make_deck(jokers=1)


@given(cards(jokers=False))
def test_cards_without_jokers_are_natural(card: Card) -> None:
    assert not card.is_joker
    assert card in make_deck()


def test_cards_reach_every_card() -> None:
    assert find(cards(), lambda card: card.is_joker, settings=FRESH) == JOKER
    assert find(cards(), lambda card: str(card) == "Ks", settings=FRESH) == Card(13, "s")


def test_cards_bad_argument() -> None:
    with pytest.raises(ConfigurationError, match="jokers must be True or False, not 1"):
        cards(jokers=1)  # type: ignore[arg-type]


def assert_dealt_from(hand: tuple[Card, ...], decks: int, jokers: int) -> None:
    assert isinstance(hand, tuple)
    assert all(isinstance(card, Card) for card in hand)
    # A sub-multiset of the deck: no card more often than the deck holds it.
    assert not Counter(hand) - Counter(make_deck(decks, jokers))


@given(hands())
def test_hands_default_size(hand: tuple[Card, ...]) -> None:
    low, high = DEFAULT_HAND_SIZE
    assert (low, high) == (0, 14)
    assert low <= len(hand) <= high
    assert_dealt_from(hand, 1, 0)


@given(hands(size=13, decks=2, jokers=4))
def test_hands_exact_size_from_two_packs(hand: tuple[Card, ...]) -> None:
    assert len(hand) == 13
    assert_dealt_from(hand, 2, 4)


@given(st.data(), st.integers(1, 3), st.integers(0, 6))
def test_hands_size_range_fits_any_deck(data: st.DataObject, decks: int, jokers: int) -> None:
    deck_size = 52 * decks + jokers
    # Small hands, and hands that take (nearly) the whole deck.
    low = data.draw(st.integers(0, 20) | st.integers(deck_size - 5, deck_size), label="low")
    high = data.draw(st.integers(low, min(deck_size, low + 5)), label="high")
    hand = data.draw(hands(size=(low, high), decks=decks, jokers=jokers), label="hand")
    assert low <= len(hand) <= high
    assert_dealt_from(hand, decks, jokers)


@given(hands(size=54, jokers=2))
def test_hands_may_take_the_whole_deck(hand: tuple[Card, ...]) -> None:
    assert Counter(hand) == Counter(make_deck(jokers=2))


def test_hands_reach_both_copies_of_a_card() -> None:
    def twice(hand: tuple[Card, ...]) -> bool:
        return max(Counter(hand).values(), default=0) == 2

    hand = find(hands(size=(0, 30), decks=2), twice, settings=REACH)
    assert twice(hand)
    assert_dealt_from(hand, 2, 0)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"size": 53}, "size 53 does not fit a deck of 52 cards"),
        ({"size": -1}, "size -1 does not fit a deck of 52 cards"),
        ({"size": (5, 3)}, r"size \(5, 3\) does not fit a deck of 52 cards"),
        ({"size": (0, 107), "decks": 2, "jokers": 2}, r"size \(0, 107\) does not fit"),
        ({"size": 3.0}, "size must be a whole number or a"),
        ({"size": (1, 2, 3)}, "size must be a whole number or a"),
        ({"size": True}, "size must be a whole number or a"),
        ({"decks": 0}, "decks must be a whole number of at least 1, not 0"),
        ({"jokers": -1}, "jokers must be a whole number of at least 0, not -1"),
    ],
)
def test_hands_bad_arguments(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        hands(**arguments)  # type: ignore[arg-type]


@given(meld_rules())
def test_meld_rules_are_valid(rules: MeldRules) -> None:
    assert isinstance(rules, MeldRules)
    # Rebuilding the rules from their fields runs every validator again.
    assert MeldRules(**attrs.asdict(rules, recurse=False)) == rules
    assert 2 <= rules.min_size <= rules.max_group_size
    if rules.group_distinct_suits:
        assert rules.max_group_size <= 4
    assert rules.min_naturals >= 1
    assert rules.max_run_size is None or rules.max_run_size >= rules.min_size


def test_meld_rules_shrink_to_the_defaults() -> None:
    assert find(meld_rules(), lambda rules: True, settings=FRESH) == MeldRules()


def no_joker_beside_ace(rules: MeldRules) -> bool:
    return not rules.joker_beside_ace


def large_relaxed_groups(rules: MeldRules) -> bool:
    return not rules.group_distinct_suits and rules.max_group_size > 4


def two_card_melds(rules: MeldRules) -> bool:
    return rules.min_size == 2


def several_naturals(rules: MeldRules) -> bool:
    return rules.min_naturals > 1


def short_runs(rules: MeldRules) -> bool:
    return rules.max_run_size is not None and rules.max_run_size < 13


@pytest.mark.parametrize(
    "condition",
    [
        no_joker_beside_ace,
        large_relaxed_groups,
        two_card_melds,
        several_naturals,
        short_runs,
        *[lambda rules, ace=ace: rules.ace is ace for ace in AceRule],
    ],
)
def test_meld_rules_reach_every_setting(condition: Callable[[MeldRules], bool]) -> None:
    assert condition(find(meld_rules(), condition, settings=REACH))


@given(st.data())
def test_melds_are_valid_for_their_rules(data: st.DataObject) -> None:
    rules = data.draw(meld_rules(), label="rules")
    meld = data.draw(melds(rules), label="meld")
    assert isinstance(meld, Meld)
    assert meld.is_valid(rules)
    naturals = [card for card in meld.cards if not card.is_joker]
    assert len(naturals) >= rules.min_naturals
    if meld.kind is MeldKind.GROUP:
        assert len(meld.cards) <= rules.max_group_size
    else:
        assert len(meld.cards) <= rules.longest_run
    if not rules.joker_beside_ace and meld.kind is MeldKind.RUN:
        for offset, stands in enumerate(meld.stands_for):
            if stands.rank == Rank.ACE:
                assert not meld.cards[offset].is_joker
                neighbours = meld.cards[max(offset - 1, 0) : offset + 2]
                assert JOKER not in neighbours


ISRAELI = MeldRules(joker_beside_ace=False)


def ranks_of(meld: Meld) -> list[Rank | None]:
    return [stands.rank for stands in meld.stands_for]


def run_with_joker_and_ace(meld: Meld) -> bool:
    return meld.kind is MeldKind.RUN and meld.joker_count > 0 and Rank.ACE in ranks_of(meld)


def group_with_two_jokers(meld: Meld) -> bool:
    return meld.kind is MeldKind.GROUP and meld.joker_count == 2


def run_round_the_corner(meld: Meld) -> bool:
    ranks = ranks_of(meld)
    return meld.kind is MeldKind.RUN and len(ranks) < 13 and {Rank.KING, Rank.TWO} <= set(ranks)


def run_of_thirteen(meld: Meld) -> bool:
    return meld.kind is MeldKind.RUN and len(meld.cards) == 13


def group_repeating_a_card(meld: Meld) -> bool:
    naturals = [card for card in meld.cards if not card.is_joker]
    return meld.kind is MeldKind.GROUP and len(set(naturals)) < len(naturals)


@pytest.mark.parametrize(
    ("rules", "condition"),
    [
        (MeldRules(), run_with_joker_and_ace),
        (ISRAELI, run_with_joker_and_ace),
        (MeldRules(), group_with_two_jokers),
        (MeldRules(ace=AceRule.WRAP), run_round_the_corner),
        (MeldRules(), run_of_thirteen),
        (MeldRules(group_distinct_suits=False, max_group_size=8), group_repeating_a_card),
    ],
)
def test_melds_reach_the_interesting_cases(
    rules: MeldRules, condition: Callable[[Meld], bool]
) -> None:
    meld = find(melds(rules), condition, settings=REACH)
    assert condition(meld)
    meld.check(rules)


def test_melds_of_rules_without_melds_is_empty() -> None:
    # min_naturals 5 is above every meld size these rules allow (groups 4, runs 4).
    assert melds(MeldRules(min_naturals=5, max_run_size=4)).is_empty
    # meld_rules() can draw such rules too: min_naturals 4, groups and runs of at most 3.
    assert melds(MeldRules(min_naturals=4, max_group_size=3, max_run_size=3)).is_empty
    assert not melds(MeldRules(min_naturals=4, max_group_size=3, max_run_size=4)).is_empty


def test_melds_bad_argument() -> None:
    with pytest.raises(ConfigurationError, match="rules must be a MeldRules, not None"):
        melds(None)  # type: ignore[arg-type]


@given(melds(MeldRules(ace=AceRule.LOW, max_run_size=5)))
def test_melds_respect_the_run_size_and_ace(meld: Meld) -> None:
    if meld.kind is MeldKind.RUN:
        assert 3 <= len(meld.cards) <= 5
        # Ace low only: an ace is the first card of the reading.
        assert all(
            stands.rank != Rank.ACE or offset == 0 for offset, stands in enumerate(meld.stands_for)
        )
