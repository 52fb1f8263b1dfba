"""The search behind ``arrange(..., require=Requirement(...))`` (private).

An arrangement **meets** a :class:`~rummylib.arrangement.Requirement` when its melds hold at
least ``min_runs`` runs, at least ``min_pure_runs`` of them pure (no card standing for another),
and, with ``complete``, no deadwood card. A meld's cards may have several readings; each meld
counts at its strongest: a pure run if its cards can be read as one, else a run if they can
be, else a group (:func:`strongest`). When runs are asked for, the answer shows every meld at
that reading.

The search is exact. A complete requirement with runs under rules that
:func:`rummylib._pooled.models` accepts (one wild rank or none, ``min_naturals`` 1, jokers
beside an ace, groups of distinct suits, no run round the corner: Indian rummy's show) is
answered by the search of :mod:`rummylib._pooled`, which pools jokers and wild cards (step 0;
without a wild card in the hand, the relaxation tables of step 1 may rule the hand out
first). Otherwise the search is built on the unconstrained solver (the public ``arrange``,
handed in as ``solve``) and :func:`~rummylib.melds.find_melds`:

1. With ``complete``, the relaxation tables (:func:`rummylib._meldable.may_complete`) rule
   most hands out in microseconds. A complete arrangement (no deadwood at all) is the best
   there can be, so the solver's arrangement decides; with a discard, the tables name the
   discards that may leave a complete rest (:func:`~rummylib._meldable.completing_discards`)
   and the solver settles them heaviest first (:func:`_completed`).
2. The solver's best arrangement of a set of cards is a lower bound for every arrangement
   of them that meets a requirement; when it meets the requirement itself, it is the answer.
3. Otherwise the runs are chosen one by one: an arrangement that meets "``r`` more runs,
   ``p`` of them pure" holds a pure run ``P`` (while ``p > 0``) or a run ``P``, and the rest
   of it meets "``r - 1``, ``p - 1``" (or "``r - 1``, 0") on the cards less ``P``. So the
   best over every candidate ``P`` (every run :func:`~rummylib.melds.find_melds` lists that
   the cards still hold) of ``P`` plus the best of the rest is the answer. Runs are chosen in
   candidate order (a set of runs is tried once, not in every order), a branch whose lower
   bound (step 2) cannot beat the best found so far is cut, and the search stops when it
   finds an arrangement as good as the bound at the top.

A discard (``discard=True``) is chosen among the cards that no chosen run holds, by the
solver (or step 1), so it is chosen optimally under the requirement. With ``complete`` every
answer leaves no deadwood, so the discard is the heaviest allowed card (at its value in hand,
a wild card as a joker; the lowest among equals) whose rest meets the requirement: when the
solver's own arrangement does not (step 2), each card step 1 lets through is tried so, the
heaviest first, with a search of its rest (:func:`_heaviest_going`). Ties are broken
deterministically: candidates come heaviest first (a good arrangement early cuts more), then
in :func:`~rummylib.melds.find_melds` order, and the first arrangement found among equals is
kept. The memo of a search (the solver's answer for each set of cards left) lives for one
call. Across calls, bounded caches keep the readings of melds (:func:`strongest`), the rests
step 1 solved (:func:`_solved`) and the tables' answers for hands past their quick bound;
:func:`clear_memos` forgets the last two.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from rummylib import _pooled
from rummylib._arrange import wild_points
from rummylib._meldable import clear_remembered, completing_discards, may_complete
from rummylib.cards import CARDS, JOKER_INDEX, Card
from rummylib.errors import InvalidMeldError
from rummylib.melds import Meld, MeldKind, MeldRules, find_melds, wild_bits
from rummylib.scoring import CardPoints

if TYPE_CHECKING:
    from rummylib.arrangement import Arrangement, Requirement

#: The unconstrained solver: ``solve(cards, rules, points, discard, can_discard)``.
Solve = Callable[
    [Sequence[Card], MeldRules, CardPoints, bool, "Callable[[Card], bool] | None"], "Arrangement"
]

#: A complete arrangement of melds, with a discard or ``None``.
Make = Callable[[tuple[Meld, ...], "Card | None"], "Arrangement"]

#: How strong a meld's best reading is: a group, a run, a pure run.
GROUP: Final = 0
RUN: Final = 1
PURE_RUN: Final = 2


def arrange_required(  # noqa: PLR0911, PLR0917  (arrange's arguments, the solver; steps 0-3)
    cards: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    requirement: Requirement,
    discard: bool,
    can_discard: Callable[[Card], bool] | None,
    solve: Solve,
    make: Make,
) -> Arrangement | None:
    """The best arrangement of ``cards`` that meets ``requirement``, or ``None``.

    ``make(melds, discard)`` builds a complete arrangement.

    A discard that no card can be (no cards, or ``can_discard`` refuses them all) leaves no
    arrangement: ``None``. Raises :class:`~rummylib.errors.NotationError`, as the solver does,
    for an item of ``cards`` that is not a card.
    """
    complete = requirement.complete
    pure = requirement.min_pure_runs
    runs = max(requirement.min_runs, pure)
    if complete and runs and _pooled.models(rules):
        if not all(isinstance(card, Card) for card in cards):
            solve(cards, rules, points, False, None)  # raises NotationError, naming it
        return _pooled_answer(cards, rules, points, runs, pure, discard, can_discard, make)
    if complete:
        try:
            possible = may_complete(cards, rules, discard)
        except (AttributeError, TypeError):  # an item that is not a card
            solve(cards, rules, points, False, None)  # raises NotationError, naming it
            raise
        if not possible:
            return None
        found = _completed(cards, rules, points, discard, can_discard, solve)
        if found is None:
            return None
        best = found
    else:
        if not all(isinstance(card, Card) for card in cards):
            solve(cards, rules, points, False, None)  # raises NotationError, naming it
        if discard and not _may_discard(cards, can_discard):
            return None
        best = solve(cards, rules, points, discard, can_discard)
    if not runs:
        return best
    read = [strongest(meld, rules) for meld in best.melds]
    if (
        sum(strength >= RUN for strength, _ in read) >= runs
        and sum(strength == PURE_RUN for strength, _ in read) >= pure
    ):  # step 2: the bound meets the requirement itself, so no search is built
        melds = sorted((reading for _, reading in read), key=_meld_order)
        return attrs.evolve(best, melds=tuple(melds))
    if complete and discard:  # the heaviest card whose rest meets it goes (step 3 for each)
        return _heaviest_going(cards, rules, points, requirement, can_discard, solve, make)
    search = _Search(cards, rules, points, discard, can_discard, solve, complete)
    return search.run(best, runs, pure)


def _heaviest_going(  # noqa: PLR0917  (arrange's arguments)
    cards: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    requirement: Requirement,
    can_discard: Callable[[Card], bool] | None,
    solve: Solve,
    make: Make,
) -> Arrangement | None:
    """A complete arrangement meeting ``requirement`` after the heaviest discard that allows one.

    The cards the relaxation tables let through are tried heaviest first (at their value in
    hand, a wild card as a joker; the lowest among equals), each rest searched without a
    discard.
    """
    values = wild_points(points, rules.wild_ranks).values
    allowed = sorted(
        (
            card
            for card in completing_discards(cards, rules)
            if can_discard is None or can_discard(card)
        ),
        key=lambda card: (-values[card.index], card.index),
    )
    for card in allowed:
        rest = list(cards)
        rest.remove(card)
        found = arrange_required(rest, rules, points, requirement, False, None, solve, make)
        if found is not None:
            return attrs.evolve(found, discard=card)
    return None


def _pooled_answer(  # noqa: PLR0917  (arrange's arguments)
    cards: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    runs: int,
    pure: int,
    discard: bool,
    can_discard: Callable[[Card], bool] | None,
    make: Make,
) -> Arrangement | None:
    """Step 0: a complete arrangement with runs, by :mod:`rummylib._pooled`, for its rules.

    Without a wild card in the hand, the relaxation tables may rule the hand out first.
    """
    bits = wild_bits(rules)
    if not (bits and any(card.bit & bits for card in cards)) and not may_complete(
        cards, rules, discard
    ):
        return None
    found = _pooled.complete_with_runs(cards, rules, points, runs, pure, discard, can_discard)
    if found is None:
        return None
    melds, chosen = found
    shown = sorted(map(_shown, melds, itertools.repeat(rules)), key=_meld_order)
    return make(tuple(shown), chosen)


def _shown(meld: Meld, rules: MeldRules) -> Meld:
    """``meld`` at its strongest reading (:func:`strongest`), asked only where it may differ.

    A pure run is at its strongest, and so is a group of two natural cards of one rank or
    more (no run holds them both).
    """
    if meld.kind is MeldKind.RUN:
        if meld.cards == meld.stands_for:
            return meld
    elif (
        sum(1 for card, stands in zip(meld.cards, meld.stands_for, strict=True) if card is stands)
        >= 2
    ):
        return meld
    return strongest(meld, rules)[1]


def _completed(  # noqa: PLR0917  (arrange's arguments)
    cards: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    discard: bool,
    can_discard: Callable[[Card], bool] | None,
    solve: Solve,
) -> Arrangement | None:
    """The solver's arrangement of ``cards`` if it melds them all, else ``None``.

    With ``discard``: the heaviest allowed card (the lowest among equals) whose setting aside
    leaves the rest melded completely, with the solver's arrangement of the rest. Only the
    cards the relaxation tables let through are tried. The caller has asked
    :func:`~rummylib._meldable.may_complete` already.
    """
    if not discard:
        best = _solved(_key(cards), rules, points, solve)
        return None if best.deadwood else best
    fitting = completing_discards(cards, rules)
    if not fitting:
        return None
    values = wild_points(points, rules.wild_ranks).values  # a wild card weighs a joker
    allowed = sorted(
        (card for card in fitting if can_discard is None or can_discard(card)),
        key=lambda card: (-values[card.index], card.index),
    )
    for card in allowed:
        rest = list(cards)
        rest.remove(card)
        best = _solved(_key(rest), rules, points, solve)
        if not best.deadwood:
            return attrs.evolve(best, discard=card)
    return None


def _key(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(card.index for card in cards))


@functools.lru_cache(maxsize=256)
def _solved(
    key: tuple[int, ...], rules: MeldRules, points: CardPoints, solve: Solve
) -> Arrangement:
    """The solver's arrangement of the cards ``key`` (indexes), remembered (bounded).

    The solver's answer depends on the cards as a multiset only. A caller that lists every
    declaration asks again for the rest the first answer found.
    """
    return solve([CARDS[index] for index in key], rules, points, False, None)


def clear_memos() -> None:
    """Forget the hands remembered: the rests solved and the relaxation tables' answers.

    For benchmarks that time each hand afresh; the meld readings (:func:`strongest`) stay.
    """
    _solved.cache_clear()
    clear_remembered()


def _may_discard(cards: Sequence[Card], can_discard: Callable[[Card], bool] | None) -> bool:
    """Whether some card may be the discard."""
    return bool(cards) and (can_discard is None or any(map(can_discard, cards)))


def _index(card: Card) -> int:
    return card.index


@functools.lru_cache(maxsize=1 << 12)
def strongest(meld: Meld, rules: MeldRules) -> tuple[int, Meld]:
    """The strongest reading of ``meld``'s cards and how strong it is (a pure run first).

    A pure run: no card stands for another (``cards == stands_for``). Cached, bounded.

    >>> from rummylib import parse_meld
    >>> strongest(parse_meld("7h *=7c *=7d", MeldRules()), MeldRules())
    (1, Meld(run: 7h *=8h *=9h))
    >>> strongest(parse_meld("7h 8h 9h", MeldRules()), MeldRules())
    (2, Meld(run: 7h 8h 9h))
    >>> strongest(parse_meld("7h 7c 7d", MeldRules()), MeldRules())
    (0, Meld(group: 7h 7c 7d))
    """
    if meld.kind is MeldKind.RUN and meld.cards == meld.stands_for:
        return PURE_RUN, meld
    natural = _natural_run(meld.cards, rules)
    if natural is not None:
        return PURE_RUN, natural
    if meld.kind is MeldKind.RUN:
        return RUN, meld
    try:
        return RUN, Meld.from_cards(meld.cards, rules, kind=MeldKind.RUN)
    except InvalidMeldError:
        return GROUP, meld


def _natural_run(cards: Sequence[Card], rules: MeldRules) -> Meld | None:
    """The reading of ``cards`` as a run in which every card stands for itself, if legal."""
    if any(card.index == JOKER_INDEX for card in cards):
        return None
    if len({card.suit for card in cards}) != 1 or len(set(cards)) != len(cards):
        return None
    reading = Meld(MeldKind.RUN, cards, cards)  # its validity does not depend on the order
    return reading.canonical() if reading.is_valid(rules) else None


def _meld_order(meld: Meld) -> tuple[int, int, int]:
    """The order of the melds of a result, as the solver's: groups by rank, then runs."""
    lowest = min(card.index for card in meld.cards)
    if meld.kind is MeldKind.GROUP:
        return (0, lowest % 13, lowest // 13)
    return (1, lowest, 0)


#: A candidate run: the counts it takes, as (position, count) pairs over the search's
#: distinct cards, and its reading.
_Candidate = tuple[tuple[tuple[int, int], ...], Meld]
#: (deadwood points, deadwood cards): smaller is better.
_Value = tuple[int, int]


class _Stop(Exception):  # noqa: N818  (control flow, never seen outside this module)
    """The bound at the top is reached: nothing can be better."""


class _Search:
    """One search: the candidate runs of a hand, the solver's answers, the best so far."""

    def __init__(  # noqa: PLR0917  (one caller)
        self,
        cards: Sequence[Card],
        rules: MeldRules,
        points: CardPoints,
        discard: bool,
        can_discard: Callable[[Card], bool] | None,
        solve: Solve,
        complete: bool,
    ) -> None:
        self.rules = rules
        self.points = points
        self.discard = discard
        self.can_discard = can_discard
        self.solve = solve
        self.complete = complete
        distinct = sorted(set(cards), key=_index)
        self.cards: tuple[Card, ...] = tuple(distinct)
        position = {card: number for number, card in enumerate(distinct)}
        counts = [0] * len(distinct)
        for card in cards:
            counts[position[card]] += 1
        self.full: tuple[int, ...] = tuple(counts)
        values = points.values
        weighed: list[tuple[int, int, _Candidate, bool]] = []
        for number, meld in enumerate(find_melds(cards, rules)):
            strength, reading = strongest(meld, rules)
            if strength == GROUP:
                continue
            needs: dict[int, int] = {}
            for card in meld.cards:
                needs[position[card]] = needs.get(position[card], 0) + 1
            weight = sum(values[card.index] for card in meld.cards)
            weighed.append((-weight, number, (tuple(needs.items()), reading), strength == PURE_RUN))
        weighed.sort(key=lambda item: (item[0], item[1]))
        self.runs: tuple[_Candidate, ...] = tuple(item[2] for item in weighed)
        self.pure_runs: tuple[_Candidate, ...] = tuple(item[2] for item in weighed if item[3])
        self.leaves: dict[tuple[int, ...], Arrangement | None] = {}
        self.seen: dict[tuple[tuple[int, ...], int, int], int] = {}
        self.best: tuple[_Value, tuple[Meld, ...], Arrangement] | None = None
        self.floor: _Value = (0, 0)

    def run(self, top: Arrangement, runs: int, pure: int) -> Arrangement | None:
        """The best arrangement with ``runs`` runs, ``pure`` of them pure; ``top`` unbounded."""
        if not self.runs or (pure and not self.pure_runs):
            return None
        self.leaves[self.full] = top
        self.floor = (top.deadwood_points, len(top.deadwood))
        with contextlib.suppress(_Stop):
            self.explore(self.full, runs, pure, 0, ())
        if self.best is None:
            return None
        _, chosen, leaf = self.best
        melds = [*chosen, *(strongest(meld, self.rules)[1] for meld in leaf.melds)]
        melds.sort(key=_meld_order)
        return attrs.evolve(leaf, melds=tuple(melds))

    def leaf(self, left: tuple[int, ...]) -> Arrangement | None:
        """The solver's best arrangement of the cards ``left``; ``None`` if it cannot serve.

        It cannot serve when a discard is asked and none of the cards may go, or when every
        card must be melded and they cannot all be.
        """
        if left in self.leaves:
            return self.leaves[left]
        cards = [card for card, count in zip(self.cards, left, strict=True) for _ in range(count)]
        result: Arrangement | None = None
        rules, points, solve = self.rules, self.points, self.solve
        discard, can_discard = self.discard, self.can_discard
        if discard and not _may_discard(cards, can_discard):
            pass  # no card here may be the discard
        elif not self.complete:
            result = solve(cards, rules, points, discard, can_discard)
        elif may_complete(cards, rules, discard):
            result = _completed(cards, rules, points, discard, can_discard, solve)
        self.leaves[left] = result
        return result

    def explore(
        self,
        left: tuple[int, ...],
        runs: int,
        pure: int,
        start: int,
        chosen: tuple[Meld, ...],
    ) -> None:
        """Find the best of ``chosen`` plus the cards ``left`` with ``runs`` more runs."""
        key = (left, runs, pure)
        earlier = self.seen.get(key)
        if earlier is not None and earlier <= start:
            return  # searched from here already, with every candidate tried now
        self.seen[key] = start
        leaf = self.leaf(left)
        if leaf is None:
            return
        value = (leaf.deadwood_points, len(leaf.deadwood))
        if self.best is not None and value >= self.best[0]:
            return  # not even the best arrangement of these cards beats the best found
        have_runs = have_pure = 0
        for meld in leaf.melds:
            strength = strongest(meld, self.rules)[0]
            have_runs += strength != GROUP
            have_pure += strength == PURE_RUN
        if have_runs >= runs and have_pure >= pure:
            self.best = (value, chosen, leaf)
            if value == self.floor:
                raise _Stop
            return
        pool = self.pure_runs if pure else self.runs
        for number in range(start, len(pool)):
            needs, meld = pool[number]
            if all(left[place] >= count for place, count in needs):
                rest = list(left)
                for place, count in needs:
                    rest[place] -= count
                if pure:
                    after, following = pure - 1, number if pure > 1 else 0
                else:
                    after, following = 0, number
                self.explore(tuple(rest), runs - 1, after, following, (*chosen, meld))
