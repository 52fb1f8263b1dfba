"""A brute-force oracle for the best arrangement of a hand, independent of the solver.

It takes the melds from :func:`rummylib.find_melds` (every distinct meld the hand can form, as a
multiset of cards) and tries every way to remove them from the hand: the best value of a
multiset of cards is either all of it as deadwood or the best value after removing one meld that
it contains. Memoised on the multiset left, so it is exhaustive and still affordable for hands
of about ten cards. With a discard, it tries every allowed card.

Used by ``tests/test_arrange.py`` and by ``benchmarks/compare_peers.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from rummylib import Card, CardPoints, MeldRules, find_melds

#: (deadwood points, deadwood cards): smaller is better.
Value = tuple[int, int]


class Oracle:
    """The best deadwood of every sub-multiset of one hand."""

    def __init__(self, hand: Iterable[Card], rules: MeldRules, points: CardPoints) -> None:
        self.hand = tuple(hand)
        counts = Counter(self.hand)
        self.cards: tuple[Card, ...] = tuple(counts)
        self.full: tuple[int, ...] = tuple(counts[card] for card in self.cards)
        self.values: tuple[int, ...] = tuple(points.of(card) for card in self.cards)
        position = {card: number for number, card in enumerate(self.cards)}
        self.melds: list[tuple[int, ...]] = []
        for meld in find_melds(self.hand, rules):
            needed = [0] * len(self.cards)
            for card in meld.cards:
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
