"""The table solver on Rummikub-shaped positions: its pruned search against its exhaustive one,
and on small positions with aces low only against a brute-force oracle.

``tests/variants/test_carousel.py`` holds :func:`rummylib.table.best_play` to a brute-force
oracle under Carousel's rules (aces low or high). Here the rules are Rummikub's
(``MeldRules(ace="low")``, free or locked jokers), and the positions are the benchmark's size:
the beams, bounds and dead-state tests of ``rummylib._table_solver`` only prune there.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import JOKER, Card, CardPoints, Meld, MeldKind, MeldRules, _table_solver
from rummylib.cards import CARDS
from rummylib.table import Play, best_play

RULES = MeldRules(ace="low")
POINTS = CardPoints(ace=1, face=10, joker=0)


def card_at(suit: int, rank: int) -> Card:
    return CARDS[suit * 13 + rank - 1]


def legal_melds(ranks: Sequence[int], suits: Sequence[int]) -> list[list[Card]]:
    """Every natural run (3 to 5 long) and group over the given ranks and suits."""
    melds = []
    for suit in suits:
        for low in ranks:
            for length in (3, 4, 5):
                run = list(range(low, low + length))
                if all(rank in ranks for rank in run):
                    melds.append([card_at(suit, rank) for rank in run])
    for rank in ranks:
        for size in (3, 4):
            melds.extend(
                [card_at(suit, rank) for suit in chosen]
                for chosen in itertools.combinations(suits, size)
            )
    return melds


def random_position(
    rng: random.Random, ranks: Sequence[int], suits: Sequence[int], table_size: int, hand: int
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """A legal table of about ``table_size`` cards (two copies of each, some jokers) and a hand.

    A meld of the table may have one card replaced by a joker (declared as that card).
    """
    pool = Counter({card_at(suit, rank): 2 for suit in suits for rank in ranks})
    jokers = 2
    table: list[Meld] = []
    options = legal_melds(ranks, suits)
    size = 0
    for _ in range(200):
        if size >= table_size:
            break
        cards = rng.choice(options)
        if Counter(cards) - pool:
            continue
        pool -= Counter(cards)
        size += len(cards)
        kind = MeldKind.RUN if cards[0].suit == cards[-1].suit else MeldKind.GROUP
        physical = list(cards)
        if jokers and rng.random() < 0.3:
            physical[rng.randrange(len(cards))] = JOKER
            jokers -= 1
            pool += Counter([cards[physical.index(JOKER)]])
        table.append(Meld(kind, physical, list(cards)))
    deck = sorted(pool.elements(), key=lambda card: card.index) + [JOKER] * jokers
    return tuple(table), tuple(rng.sample(deck, min(hand, len(deck))))


def held(play: Play | None, objective: str) -> tuple[int, int]:
    """What the objective ranks: (points, cards) for "points", (cards, 0) for "cards"."""
    if play is None:
        return (0, 0)
    return (play.points, play.card_count) if objective == "points" else (play.card_count, 0)


def check(table: Sequence[Meld], hand: Sequence[Card], play: Play | None) -> None:
    """The play is a legal meld action: legal melds, table cards kept, hand cards from the hand."""
    if play is None:
        return
    for meld in play.table:
        meld.check(RULES)
    before = Counter(card for meld in table for card in meld.cards)
    after = Counter(card for meld in play.table for card in meld.cards)
    assert after == before + Counter(play.played)
    assert not Counter(play.played) - Counter(hand)


MODES: list[dict[str, Any]] = [
    {"jokers": "free"},
    {"jokers": "free", "objective": "points", "points": POINTS},
    {"jokers": "locked"},
    {"jokers": "locked", "replacement": "hand_only"},
    {"jokers": "locked", "objective": "points", "points": POINTS},
]


@given(st.integers(0, 10**9), st.sampled_from(range(len(MODES))))
@settings(deadline=None, max_examples=40)
def test_the_pruned_search_finds_the_exhaustive_optimum(seed: int, mode: int) -> None:
    """Rummikub-shaped: 13 ranks, 4 suits, tables of 20-40 cards, hands of 14."""
    rng = random.Random(seed)
    table, hand = random_position(rng, range(1, 14), range(4), rng.randint(20, 40), 14)
    options = MODES[mode]
    objective = str(options.get("objective", "cards"))
    play = best_play(table, hand, RULES, **options)
    check(table, hand, play)
    exhaustive = functools.partial(_table_solver.solve, exhaustive=True)
    with mock.patch.object(_table_solver, "solve", exhaustive):
        expected = best_play(table, hand, RULES, **options)
    check(table, hand, expected)
    assert held(play, objective) == held(expected, objective), ([str(m) for m in table], hand)


# A brute-force oracle for free jokers and aces low only, on small positions.


def shapes(ranks: Sequence[int], suits: Sequence[int]) -> list[tuple[Card, ...]]:
    """Every meld's slots (the cards it stands for): runs of 3 or more, groups of 3 or 4."""
    found: list[tuple[Card, ...]] = []
    for suit in range(4):
        for low in range(1, 12):
            for high in range(low + 2, 14):
                found.append(tuple(card_at(suit, rank) for rank in range(low, high + 1)))
    for rank in ranks:
        for size in (3, 4):
            found.extend(
                tuple(card_at(suit, rank) for suit in chosen)
                for chosen in itertools.combinations(range(4), size)
            )
    del suits
    return found


def fillings(
    slots: Sequence[Card], naturals: Counter[Card], jokers: int
) -> Iterator[Counter[Card]]:
    """Each way to fill ``slots`` from ``naturals`` and at most ``jokers`` jokers (one natural
    at least, jokers at most two): the naturals it takes."""
    for count in range(min(jokers, 2, len(slots) - 1) + 1):
        for chosen in itertools.combinations(range(len(slots)), count):
            taken = Counter(card for at, card in enumerate(slots) if at not in chosen)
            if not taken - naturals:
                yield taken


def partitions(naturals: Counter[Card], jokers: int, melds: Sequence[tuple[Card, ...]]) -> bool:
    """Whether ``naturals`` and exactly ``jokers`` jokers can be cut into melds."""
    if not naturals:
        return jokers == 0
    lowest = min(naturals, key=lambda card: card.index)
    for slots in melds:
        if lowest not in slots:
            continue
        for taken in fillings(slots, naturals, jokers):
            if lowest not in taken:
                continue
            used = len(slots) - sum(taken.values())
            if partitions(naturals - taken, jokers - used, melds):
                return True
    return False


def oracle_most_cards(table: Sequence[Meld], hand: Sequence[Card]) -> int:
    """The most hand cards a legal rearrangement places, free jokers, by trying every subset."""
    melds = shapes(range(1, 14), range(4))
    table_cards = Counter(card for meld in table for card in meld.cards)
    table_jokers = table_cards.pop(JOKER, 0)
    hand_jokers = sum(card.is_joker for card in hand)
    naturals = [card for card in hand if not card.is_joker]
    best = 0
    for size in range(len(naturals), -1, -1):
        for chosen in set(itertools.combinations(sorted(naturals, key=lambda c: c.index), size)):
            for extra in range(hand_jokers, -1, -1):
                if size + extra <= best:
                    continue
                if partitions(table_cards + Counter(chosen), table_jokers + extra, melds):
                    best = size + extra
    return best


@given(st.integers(0, 10**9))
@settings(deadline=None, max_examples=60)
def test_best_play_with_aces_low_matches_a_brute_force_oracle(seed: int) -> None:
    """Small positions: ranks 1-5 and 11-13 (a run may not go K-A-2), three suits, jokers."""
    rng = random.Random(seed)
    ranks = (1, 2, 3, 4, 5, 11, 12, 13)
    table, hand = random_position(rng, ranks, range(3), rng.randint(0, 9), rng.randint(2, 6))
    play = best_play(table, hand, RULES, jokers="free")
    check(table, hand, play)
    got = 0 if play is None else play.card_count
    assert got == oracle_most_cards(table, hand), ([str(m) for m in table], hand)


def test_a_table_tile_that_needs_both_jokers_keeps_them_from_the_hand_cards() -> None:
    """The table's queens and kings are two each, with a joker in each group, and nothing
    around them: each group keeps its joker, so none is left for the hand's 5 and 6 of a suit
    (which would need one to make a run) and nothing can be played.
    """
    table = (
        Meld(
            MeldKind.GROUP,
            [card_at(2, 12), card_at(3, 12), JOKER],
            [card_at(2, 12), card_at(3, 12), card_at(0, 12)],
        ),
        Meld(
            MeldKind.GROUP,
            [card_at(1, 13), card_at(3, 13), JOKER],
            [card_at(1, 13), card_at(3, 13), card_at(0, 13)],
        ),
    )
    hand = (card_at(0, 5), card_at(0, 6), card_at(2, 9))
    play = best_play(table, hand, RULES, jokers="free")
    assert play is None
    assert oracle_most_cards(table, hand) == 0


@given(
    st.lists(st.integers(0, 51), max_size=18),
    st.sampled_from([_table_solver.LOW, _table_solver.HIGH]),
    st.booleans(),
    st.sampled_from([3, 4]),
    st.sampled_from([13, 4]),
)
@settings(deadline=None, max_examples=150)
def test_the_empty_table_path_finds_the_exhaustive_optimum(
    cards: list[int], layout: _table_solver.Layout, by_points: bool, largest: int, longest: int
) -> None:
    """An empty table and no jokers: the quick path's melds are legal and worth the optimum."""
    optional = [0] * 52
    for index in cards:
        optional[index] = min(2, optional[index] + 1)
    values = [(index % 13 + 1) * 100 + 1 if by_points else 1 for index in range(52)]
    assert _table_solver._empty_table_applies(layout, [0] * 52, optional, 0, 0, 3)
    quick = _table_solver._solve_empty_table(
        layout, optional, values, max_group_size=largest, longest_run=longest
    )
    assert quick is not None  # 18 cards allow far fewer choices of groups than the limit
    exact = _table_solver.solve(
        layout,
        [0] * 52,
        optional,
        values,
        table_jokers=0,
        hand_jokers=0,
        joker_value=0,
        exhaustive=True,
        max_group_size=largest,
        longest_run=longest,
    )
    assert exact is not None
    assert quick.value == exact.value
    used = [0] * 52
    for run in quick.runs:
        assert 3 <= len(run.jokers) <= longest
        assert not any(run.jokers)
        for position in range(run.start, run.start + len(run.jokers)):
            used[run.suit * 13 + layout.ranks[position] - 1] += 1
    for group in quick.groups:
        assert 3 <= len(group.suits) <= largest
        assert len(set(group.suits)) == len(group.suits)
        assert group.jokers == 0
        for suit in group.suits:
            used[suit * 13 + group.rank - 1] += 1
    assert tuple(used) == quick.used
    assert all(count <= most for count, most in zip(used, optional, strict=True))
    assert quick.value == sum(count * value for count, value in zip(used, values, strict=True))
    # best_play's own solve takes the quick path here, and gives the same answer
    assert (
        _table_solver.solve(
            layout,
            [0] * 52,
            optional,
            values,
            table_jokers=0,
            hand_jokers=0,
            joker_value=0,
            max_group_size=largest,
            longest_run=longest,
        )
        == quick
    )


def test_the_empty_table_path_leaves_a_huge_hand_to_the_general_search() -> None:
    """A hand of all 104 numbered tiles: too many choices of groups for the quick path (its
    search grows with their product, which hung a web table whose player kept drawing), so
    the general search answers, and it places every tile (two runs 1-13 in each colour)."""
    optional = [2] * 52
    values = [1] * 52
    layout = _table_solver.LOW
    assert _table_solver._empty_table_applies(layout, [0] * 52, optional, 0, 0, 3)
    assert _table_solver._solve_empty_table(layout, optional, values) is None
    solution = _table_solver.solve(
        layout, [0] * 52, optional, values, table_jokers=0, hand_jokers=0, joker_value=0
    )
    assert solution is not None
    assert solution.value == 104
    assert solution.used == (2,) * 52
