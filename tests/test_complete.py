"""The fast "can this hand be melded completely" filter never rules out a real declaration."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import JOKER, Card, CardPoints, MeldRules, make_deck, parse_cards
from rummylib._complete import may_meld_all
from rummylib.arrangement import arrange
from rummylib.strategies import hands

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
