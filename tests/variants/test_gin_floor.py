"""Gin's deadwood floor: a lower bound of the least deadwood, exact on hands of loose cards."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import parse_cards
from rummylib.cards import Card, make_deck
from rummylib.variants.gin import deadwood_floor, least_deadwood

PACK = make_deck()


@settings(max_examples=400, deadline=None)
@given(hand=st.lists(st.sampled_from(PACK), min_size=10, max_size=11, unique=True))
def test_rule_4_5_the_floor_never_exceeds_the_least_deadwood(hand: list[Card]) -> None:
    assert deadwood_floor(hand) <= least_deadwood(hand)


def test_the_floor_counts_cards_that_fit_no_meld() -> None:
    # 7c 7d 7h make a group, As 2s 3s a run, 8h 9h Th a run; 5d and Kc fit nothing.
    assert deadwood_floor(parse_cards("As 2s 3s 7c 7d 7h 8h 9h Th 5d")) == 5
    assert deadwood_floor(parse_cards("As 2s 3s 7c 7d 7h 8h 9h Th 5d Kc")) == 5  # Kc discarded


def test_the_floor_is_exact_on_a_hand_with_no_meld_in_reach() -> None:
    hand = parse_cards("Ac 3c 5d 7d 9h Jh Ks 2s 6h 8c")
    assert deadwood_floor(hand) == least_deadwood(hand) == 1 + 3 + 5 + 7 + 9 + 10 + 10 + 2 + 6 + 8


def test_cards_of_a_rank_in_three_suits_or_a_run_are_not_loose() -> None:
    assert deadwood_floor(parse_cards("Qc Qd Qh 4s 5s 6s Kd Ks 9c Tc")) == 10 + 10 + 9 + 10
