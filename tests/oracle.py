"""A brute-force oracle for the best arrangement of a hand, independent of the solver.

It takes the melds from :func:`rummylib.find_melds` (every distinct meld the hand can form, as a
multiset of cards) and tries every way to remove them from the hand: the best value of a
multiset of cards is either all of it as deadwood or the best value after removing one meld that
it contains. Memoised on the multiset left, so it is exhaustive and still affordable for hands
of about ten cards. With a discard, it tries every allowed card. :class:`RequirementOracle`
does the same among the arrangements that meet a requirement (``arrange(..., require=...)``).

Under rules with wild ranks it does not use ``find_melds`` (which is under test there too):
:func:`wild_melds` tries every sub-multiset of the hand with every choice of its wild cards as
natural cards or as jokers, read by :func:`rummylib.is_meld` under the same rules without wild
ranks (RULES.md 6.7: a wild card is a joker, or itself in its own natural place). A wild card
left in the deadwood is worth a joker (rule 6.5).

Used by ``tests/test_arrange.py``, ``tests/test_arrange_require.py`` and by
``benchmarks/compare_peers.py``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import attrs

from rummylib import (
    JOKER,
    AceRule,
    Card,
    CardPoints,
    InvalidMeldError,
    Meld,
    MeldKind,
    MeldRules,
    find_melds,
    is_meld,
)

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


# ------------------------------------------------------------------------------------------
# Requirements: at least so many runs, so many of them pure, every card melded.


def is_natural_run(cards: Sequence[Card], rules: MeldRules) -> bool:
    """Whether the cards, every one standing for itself, are a run: worked out from the ranks.

    One suit, no joker, no rank twice, a legal size, and ranks that follow each other with the
    ace where the ace rule lets it stand (low, high, either, or round the corner).
    """
    ranks = sorted(int(card.rank or 0) for card in cards)
    size = len(ranks)
    if (
        any(card.is_joker for card in cards)
        or len({card.suit for card in cards}) != 1
        or len(set(ranks)) != size
        or not max(rules.min_size, rules.min_naturals) <= size <= rules.longest_run
    ):
        return False

    def follows(positions: Sequence[int]) -> bool:
        return max(positions) - min(positions) + 1 == size

    high = sorted(14 if rank == 1 else rank for rank in ranks)
    if rules.ace is AceRule.LOW:
        return follows(ranks)
    if rules.ace is AceRule.HIGH:
        return follows(high)
    if rules.ace is AceRule.LOW_OR_HIGH:
        return follows(ranks) or follows(high)
    # Round the corner: some rotation of the 13 ranks makes them follow each other.
    return any(follows([(rank - start) % 13 for rank in ranks]) for start in range(13))


def run_strength(cards: Sequence[Card], rules: MeldRules) -> int:
    """2: the cards can be a pure run; 1: they can be a run; 0: neither (a group only)."""
    if is_natural_run(cards, rules):
        return 2
    try:
        Meld.from_cards(cards, rules, kind=MeldKind.RUN)
    except InvalidMeldError:
        return 0
    return 1


class RequirementOracle(Oracle):
    """The best deadwood of a hand among the arrangements that meet a requirement.

    Every set of disjoint melds of :func:`~rummylib.find_melds` is tried (melds removed one
    at a time, memoised on the cards left and the runs still wanted); a meld counts as a run
    or a pure run when :func:`run_strength` says its cards can be one.
    """

    def __init__(
        self,
        hand: Iterable[Card],
        rules: MeldRules,
        points: CardPoints,
        *,
        min_runs: int = 0,
        min_pure_runs: int = 0,
        complete: bool = False,
    ) -> None:
        super().__init__(hand, rules, points)
        # Each meld's cards, from the meld list itself (with wild ranks it is not find_melds').
        self.strengths = [run_strength(self.cards_of(needed), rules) for needed in self.melds]
        self.runs = max(min_runs, min_pure_runs)
        self.pure = min_pure_runs
        self.complete = complete
        self._wanted: dict[tuple[tuple[int, ...], int, int], Value | None] = {}

    def cards_of(self, counts: Sequence[int]) -> list[Card]:
        """The cards of a count vector over :attr:`cards`."""
        return [card for card, count in zip(self.cards, counts, strict=True) for _ in range(count)]

    def best_meeting(
        self, left: tuple[int, ...] | None = None, runs: int | None = None, pure: int | None = None
    ) -> Value | None:
        """The best value of the cards ``left`` with ``runs`` more runs, ``pure`` pure; or None."""
        left = self.full if left is None else left
        runs = self.runs if runs is None else runs
        pure = self.pure if pure is None else pure
        key = (left, runs, pure)
        if key in self._wanted:
            return self._wanted[key]
        best: Value | None = None
        if not runs and not pure and (not self.complete or not any(left)):
            best = (
                sum(count * value for count, value in zip(left, self.values, strict=True)),
                sum(left),
            )
        for needed, strength in zip(self.melds, self.strengths, strict=True):
            if all(have >= need for have, need in zip(left, needed, strict=True)):
                rest = tuple(have - need for have, need in zip(left, needed, strict=True))
                found = self.best_meeting(
                    rest, max(0, runs - (strength > 0)), max(0, pure - (strength == 2))
                )
                if found is not None and (best is None or found < best):
                    best = found
        self._wanted[key] = best
        return best

    def best_meeting_after_discard(
        self, can_discard: Callable[[Card], bool] | None = None
    ) -> Value | None:
        """The best value meeting the requirement over every allowed discard, or None."""
        results = []
        for number, card in enumerate(self.cards):
            if can_discard is not None and not can_discard(card):
                continue
            left = list(self.full)
            left[number] -= 1
            found = self.best_meeting(tuple(left))
            if found is not None:
                results.append(found)
        return min(results) if results else None
