"""The completeness tables answer soundly for tables with a wild rank (through a relaxation).

``may_complete`` may say "maybe" wrongly but never "no" wrongly, and ``completing_discards``
names every card whose discard leaves a complete hand: both checked against the exact solver.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import CardPoints, MeldRules, Rank, arrange, parse_cards
from rummylib._meldable import completing_discards, may_complete
from rummylib.cards import Card, Suit, make_deck

DECK = make_deck(decks=2, jokers=2)
POINTS = CardPoints(ace=10, face=10, joker=0)
# Near ranks make complete hands common: 5-9 of two suits, the wild sevens, and the jokers.
NEAR = [
    card
    for card in DECK
    if card.is_joker or (card.rank in range(5, 10) and card.suit in (Suit.HEARTS, Suit.SPADES))
]
ALL_RULES = (
    MeldRules(wild_ranks={Rank.SEVEN}),
    MeldRules(wild_ranks={Rank.SEVEN}, joker_beside_ace=False),
    MeldRules(wild_ranks={Rank.ACE}),
)


def _complete(cards: Sequence[Card], rules: MeldRules) -> bool:
    return arrange(cards, rules, POINTS).is_complete


@settings(max_examples=300, deadline=None)
@given(
    picks=st.lists(st.sampled_from(range(len(NEAR))), min_size=3, max_size=10, unique=True),
    rules=st.sampled_from(ALL_RULES),
)
def test_a_hand_ruled_out_cannot_meld_and_every_completing_discard_is_named(
    picks: list[int], rules: MeldRules
) -> None:
    hand = [NEAR[index] for index in picks]
    for discard in (False, True):
        if not may_complete(hand, rules, discard):
            if discard:
                assert not any(
                    _complete(hand[:at] + hand[at + 1 :], rules) for at in range(len(hand))
                )
            else:
                assert not _complete(hand, rules)
    named = set(completing_discards(hand, rules))
    for at, card in enumerate(hand):
        if _complete(hand[:at] + hand[at + 1 :], rules):
            assert card in named, (card, hand)


def test_a_hand_without_wild_cards_is_ruled_out_as_under_plain_rules() -> None:
    rules = MeldRules(wild_ranks={Rank.SEVEN})
    assert not may_complete(parse_cards("2h 3h 4h 9c 9d Ks"), rules, discard=False)
    assert may_complete(parse_cards("2h 3h 4h 9c 9d 7s"), rules, discard=False)  # 7s wild


def test_wild_cards_melded_alone_are_not_ruled_out() -> None:
    # 7h 7s *=7c and 9h 9s *=9c: the sevens stand for themselves; read as jokers they could
    # not (three jokers make no meld), so this hand is past what the relaxation may read.
    rules = MeldRules(wild_ranks={Rank.SEVEN})
    hand = parse_cards("7h 7s * 9h 9s *")
    assert _complete(hand, rules)
    assert may_complete(hand, rules, discard=False)
    assert may_complete([*hand, parse_cards("Kd")[0]], rules, discard=True)
