"""Gin's deadwood floor: a lower bound of the least deadwood, exact on hands of loose cards."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import parse_cards
from rummylib.cards import Card, make_deck
from rummylib.variants.gin import POINTS, deadwood_floor, least_deadwood

PACK = make_deck()


def floor_card_by_card(hand: list[Card]) -> int:
    """The floor as its definition says it, one card at a time (no bit masks)."""
    held = {(card.rank, card.suit) for card in hand}

    def fits_a_meld(card: Card) -> bool:
        assert card.rank is not None
        suits = {suit for rank, suit in held if rank == card.rank}
        runs = [range(low, low + 3) for low in range(card.rank - 2, card.rank + 1)]
        in_run = any(
            all((rank, card.suit) in held for rank in run) for run in runs if 1 <= run[0] <= 11
        )
        return len(suits) >= 3 or in_run

    loose = [POINTS.of(card) for card in hand if not fits_a_meld(card)]
    return sum(loose) - (max(loose, default=0) if len(hand) == 11 else 0)


@settings(max_examples=400, deadline=None)
@given(hand=st.lists(st.sampled_from(PACK), min_size=10, max_size=11, unique=True))
def test_rule_4_5_the_floor_never_exceeds_the_least_deadwood(hand: list[Card]) -> None:
    assert deadwood_floor(hand) <= least_deadwood(hand)


@settings(max_examples=600, deadline=None)
@given(hand=st.lists(st.sampled_from(PACK), max_size=52, unique=True))
def test_the_floor_of_whole_suits_at_once_is_the_card_by_card_floor(hand: list[Card]) -> None:
    assert deadwood_floor(hand) == floor_card_by_card(hand)


@settings(max_examples=400, deadline=None)
@given(hand=st.lists(st.sampled_from(PACK), min_size=10, max_size=11, unique=True))
def test_the_floor_of_a_hand_in_play_is_the_card_by_card_floor(hand: list[Card]) -> None:
    assert deadwood_floor(iter(hand)) == floor_card_by_card(hand)


def test_the_floor_counts_cards_that_fit_no_meld() -> None:
    # 7c 7d 7h make a group, As 2s 3s a run, 8h 9h Th a run; 5d and Kc fit nothing.
    assert deadwood_floor(parse_cards("As 2s 3s 7c 7d 7h 8h 9h Th 5d")) == 5
    assert deadwood_floor(parse_cards("As 2s 3s 7c 7d 7h 8h 9h Th 5d Kc")) == 5  # Kc discarded


def test_the_floor_is_exact_on_a_hand_with_no_meld_in_reach() -> None:
    hand = parse_cards("Ac 3c 5d 7d 9h Jh Ks 2s 6h 8c")
    assert deadwood_floor(hand) == least_deadwood(hand) == 1 + 3 + 5 + 7 + 9 + 10 + 10 + 2 + 6 + 8


def test_cards_of_a_rank_in_three_suits_or_a_run_are_not_loose() -> None:
    assert deadwood_floor(parse_cards("Qc Qd Qh 4s 5s 6s Kd Ks 9c Tc")) == 10 + 10 + 9 + 10
