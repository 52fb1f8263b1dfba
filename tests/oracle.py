"""A brute-force oracle for the best arrangement of a hand, independent of the solver.

It takes the melds from :func:`rummylib.find_melds` (every distinct meld the hand can form, as a
multiset of cards) and tries every way to remove them from the hand: the best value of a
multiset of cards is either all of it as deadwood or the best value after removing one meld that
it contains. Memoised on the multiset left, so it is exhaustive and still affordable for hands
of about ten cards. With a discard, it tries every allowed card.

Under rules with wild ranks it does not use ``find_melds`` (which is under test there too):
:func:`wild_melds` tries every sub-multiset of the hand with every choice of its wild cards as
natural cards or as jokers, read by :func:`rummylib.is_meld` under the same rules without wild
ranks (RULES.md 6.7: a wild card is a joker, or itself in its own natural place). A wild card
left in the deadwood is worth a joker (rule 6.5).

Used by ``tests/test_arrange.py`` and by ``benchmarks/compare_peers.py``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import attrs

from rummylib import JOKER, Card, CardPoints, MeldRules, find_melds, is_meld

#: (deadwood points, deadwood cards): smaller is better.
Value = tuple[int, int]


def card_value(card: Card, rules: MeldRules, points: CardPoints) -> int:
    """What ``card`` is worth in the deadwood: a wild card counts as a joker (rule 6.5)."""
    if not card.is_joker and card.rank in rules.wild_ranks:
        return points.joker
    return points.of(card)


def least_standing_in(cards: Sequence[Card], rules: MeldRules) -> int | None:
    """The fewest wild cards standing in over the legal readings of ``cards``; ``None``: no meld.

    Each wild card is tried as itself and as a joker, and the cards are read by ``is_meld``
    under the rules without wild ranks.
    """
    plain = attrs.evolve(rules, wild_ranks=frozenset())
    wild = [
        at for at, card in enumerate(cards) if not card.is_joker and card.rank in rules.wild_ranks
    ]
    least = None
    for standing in itertools.product((False, True), repeat=len(wild)):
        read = list(cards)
        for at, stands_in in zip(wild, standing, strict=True):
            if stands_in:
                read[at] = JOKER
        if is_meld(read, plain):
            count = sum(standing)
            least = count if least is None else min(least, count)
    return least


def wild_melds(hand: Sequence[Card], rules: MeldRules) -> dict[tuple[int, ...], int]:
    """Every meld of ``hand`` (as sorted card indexes) with its fewest wild cards standing in."""
    found: dict[tuple[int, ...], int] = {}
    seen: set[tuple[int, ...]] = set()
    for size in range(rules.min_size, len(hand) + 1):
        for chosen in itertools.combinations(hand, size):
            key = tuple(sorted(card.index for card in chosen))
            if key in seen:
                continue
            seen.add(key)
            least = least_standing_in(chosen, rules)
            if least is not None:
                found[key] = least
    return found


class Oracle:
    """The best deadwood of every sub-multiset of one hand."""

    def __init__(self, hand: Iterable[Card], rules: MeldRules, points: CardPoints) -> None:
        self.hand = tuple(hand)
        counts = Counter(self.hand)
        self.cards: tuple[Card, ...] = tuple(counts)
        self.full: tuple[int, ...] = tuple(counts[card] for card in self.cards)
        self.values: tuple[int, ...] = tuple(card_value(card, rules, points) for card in self.cards)
        position = {card: number for number, card in enumerate(self.cards)}
        if rules.wild_ranks:
            meld_cards = [
                [Card.from_index(index) for index in key] for key in wild_melds(self.hand, rules)
            ]
        else:
            meld_cards = [list(meld.cards) for meld in find_melds(self.hand, rules)]
        self.melds: list[tuple[int, ...]] = []
        for cards in meld_cards:
            needed = [0] * len(self.cards)
            for card in cards:
                needed[position[card]] += 1
            self.melds.append(tuple(needed))
        self._memo: dict[tuple[int, ...], Value] = {}

    def best(self, left: tuple[int, ...] | None = None) -> Value:
        """The best (deadwood points, deadwood cards) of the cards ``left`` (default: all)."""
        if left is None:
            left = self.full
        known = self._memo.get(left)
        if known is not None:
            return known
        best = (
            sum(count * value for count, value in zip(left, self.values, strict=True)),
            sum(left),
        )
        for needed in self.melds:
            if all(have >= need for have, need in zip(left, needed, strict=True)):
                rest = tuple(have - need for have, need in zip(left, needed, strict=True))
                best = min(best, self.best(rest))
        self._memo[left] = best
        return best

    def best_after_discard(self, can_discard: Callable[[Card], bool] | None = None) -> Value:
        """The best value over every allowed discard (ValueError if none is allowed)."""
        results = []
        for number, card in enumerate(self.cards):
            if can_discard is not None and not can_discard(card):
                continue
            left = list(self.full)
            left[number] -= 1
            results.append(self.best(tuple(left)))
        if not results:
            msg = "no card may be discarded"
            raise ValueError(msg)
        return min(results)

    def discard_values(self) -> dict[Card, Value]:
        """The best value after discarding each distinct card."""
        result = {}
        for number, card in enumerate(self.cards):
            left = list(self.full)
            left[number] -= 1
            result[card] = self.best(tuple(left))
        return result


def oracle_value(
    hand: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    *,
    discard: bool = False,
    can_discard: Callable[[Card], bool] | None = None,
) -> Value:
    """The best (deadwood points, deadwood cards), as ``arrange`` should find it."""
    oracle = Oracle(hand, rules, points)
    if discard:
        return oracle.best_after_discard(can_discard)
    return oracle.best()
