"""How long :func:`rummylib.arrange` takes per hand, by kind of hand.

Run from the repository root::

    python benchmarks/bench_arrange.py [--hands 3000] [--seed 1] [--passes 3]

For each category it deals seeded hands (one ``random.Random(seed)`` per category, never the
global generator) and prints the median and the 99th percentile of the time per hand, in
microseconds.

Every call solves its hand from scratch: the solver keeps no memo from one call to the next.
The Indian rows ask ``arrange(..., require=Requirement(...))``: a show (rule 6.12: 14 cards,
the best finishing card, all 13 others melded with two runs, one pure) and a loser's count
(rule 6.15: 13 cards, the best grouping with two runs, one pure); the last row asks for a show
of 14 meld-dense cards of two packs with the sevens wild, holding 0 to 10 printed jokers and
wild sevens (as many as two packs hold). That search keeps bounded memos keyed on the hand
(the rests it solved, the relaxation tables' answers): they are cleared before each timed
call, untimed, so every pass meets each hand afresh; its cache of meld readings stays warm,
as a rule table does, and so does the pooled search's table of the melds through a card for
one suit's pattern of cards (``rummylib._pooled._core_melds``, bounded, like the relaxation
tables' per-suit costs). ``--cold`` clears that table too before each call. What the solver
does keep are its **rule tables** (the melds a rule set allows, and per-suit lookup tables),
built on the first call with a rule set and cached for the process; the cost of building
them is printed separately, as "rules set-up".
Timings are per hand, over ``--passes`` interleaved passes through the hands: "best" is the
fastest pass of each hand (it filters out the scheduler noise of a shared machine), "one
pass" is the first pass as is.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummylib import (
    Card,
    CardPoints,
    MeldRules,
    Rank,
    Requirement,
    _arrange,
    _pooled,
    _require,
    arrange,
    make_deck,
)

GIN = MeldRules(ace="low")
GIN_POINTS = CardPoints(ace=1, face=10)
ISRAELI = MeldRules(joker_beside_ace=False)
ISRAELI_POINTS = CardPoints(ace=1, face=10, joker=0)
#: Indian rummy: the sevens wild for the deal (RULES.md 6.3), every card of them a joker.
INDIAN = MeldRules(wild_ranks={Rank.SEVEN})
INDIAN_POINTS = CardPoints(ace=10, face=10, joker=0)
#: The Indian shows and counts below: the printed jokers only (no wild rank).
INDIAN_PLAIN = MeldRules()
#: Indian rule 6.12 (a show) and 6.15 (the grouping a loser's count may use).
SHOW = Requirement(min_runs=2, min_pure_runs=1, complete=True)
TWO_RUNS_ONE_PURE = Requirement(min_runs=2, min_pure_runs=1)


def not_joker(card: Card) -> bool:
    return not card.is_joker


def dense_pool(deck: Sequence[Card], low: int, width: int) -> list[Card]:
    """The cards of ``deck`` with ranks ``low`` to ``low + width - 1``, and its jokers."""
    return [card for card in deck if card.is_joker or low <= card.index % 13 + 1 < low + width]


class Category:
    def __init__(
        self,
        name: str,
        deal: Callable[[random.Random], list[Card]],
        rules: MeldRules,
        points: CardPoints,
        *,
        discard: bool = False,
        can_discard: Callable[[Card], bool] | None = None,
        require: Requirement | None = None,
    ) -> None:
        self.name = name
        self.deal = deal
        self.rules = rules
        self.points = points
        self.discard = discard
        self.can_discard = can_discard
        self.require = require

    def prepare(self, cold: bool = False) -> None:
        """Forget what earlier calls remembered about hands (not timed); ``cold``: tables too."""
        if self.require is not None:
            _require.clear_memos()
            if cold:
                _pooled._core_melds.cache_clear()

    def run(self, hand: Sequence[Card]) -> object:
        return arrange(
            hand,
            self.rules,
            self.points,
            discard=self.discard,
            can_discard=self.can_discard,
            require=self.require,
        )


def categories() -> list[Category]:
    one_pack = make_deck()
    two_packs = make_deck(decks=2, jokers=4)
    gin_dense = dense_pool(one_pack, 1, 5)  # A-5 of four suits: 20 cards

    indian_packs = make_deck(decks=2, jokers=2)

    def israeli_dense(rng: random.Random) -> list[Card]:
        return rng.sample(dense_pool(two_packs, rng.randint(1, 10), 4), 14)

    indian_deck = make_deck(decks=2, jokers=2)

    def indian_dense(rng: random.Random) -> list[Card]:
        # Four ranks around the wild sevens (4-7 to 7-10), so wild cards also fit as themselves.
        return rng.sample(dense_pool(indian_deck, rng.randint(4, 7), 4), 14)

    def indian_dense_sized(size: int) -> Callable[[random.Random], list[Card]]:
        return lambda rng: rng.sample(dense_pool(indian_packs, rng.randint(1, 9), 5), size)

    # Every joker two packs hold with the sevens wild: the 2 printed jokers and the 8 sevens.
    indian_jokers = [card for card in indian_packs if card.is_joker or card.rank is Rank.SEVEN]

    def indian_wild_show(rng: random.Random) -> list[Card]:
        # 0 to 10 jokers and wild sevens (evenly), the other cards of three ranks around the
        # sevens (4-6, 5-6 8, 6 8-9 or 8-10), so the runs lean on wild cards as jokers or 7s.
        low = rng.randint(4, 7)
        naturals = [card for card in dense_pool(indian_packs, low, 4) if card not in indian_jokers]
        jokers = rng.randint(0, len(indian_jokers))
        hand = rng.sample(indian_jokers, jokers) + rng.sample(naturals, 14 - jokers)
        rng.shuffle(hand)
        return hand

    return [
        Category("gin, 10 random cards", lambda rng: rng.sample(one_pack, 10), GIN, GIN_POINTS),
        Category(
            "gin, 11 random cards, best discard",
            lambda rng: rng.sample(one_pack, 11),
            GIN,
            GIN_POINTS,
            discard=True,
        ),
        Category(
            "gin, 10 meld-dense cards (A-5)",
            lambda rng: rng.sample(gin_dense, 10),
            GIN,
            GIN_POINTS,
        ),
        Category(
            "gin, 11 meld-dense cards, best discard",
            lambda rng: rng.sample(gin_dense, 11),
            GIN,
            GIN_POINTS,
            discard=True,
        ),
        Category(
            "Israeli, 14 random cards, discard",
            lambda rng: rng.sample(two_packs, 14),
            ISRAELI,
            ISRAELI_POINTS,
            discard=True,
            can_discard=not_joker,
        ),
        Category(
            "Israeli, 14 meld-dense cards, discard",
            israeli_dense,
            ISRAELI,
            ISRAELI_POINTS,
            discard=True,
            can_discard=not_joker,
        ),
        Category(
            "Indian, 14 random cards, wild 7s, discard",
            lambda rng: rng.sample(indian_deck, 14),
            INDIAN,
            INDIAN_POINTS,
            discard=True,
        ),
        Category(
            "Indian, 14 meld-dense cards, wild 7s, disc.",
            indian_dense,
            INDIAN,
            INDIAN_POINTS,
            discard=True,
        ),
        Category(
            "Indian show, 14 random cards",
            lambda rng: rng.sample(indian_packs, 14),
            INDIAN_PLAIN,
            INDIAN_POINTS,
            discard=True,
            require=SHOW,
        ),
        Category(
            "Indian show, 14 meld-dense cards",
            indian_dense_sized(14),
            INDIAN_PLAIN,
            INDIAN_POINTS,
            discard=True,
            require=SHOW,
        ),
        Category(
            "Indian loser count, 13 random cards",
            lambda rng: rng.sample(indian_packs, 13),
            INDIAN_PLAIN,
            INDIAN_POINTS,
            require=TWO_RUNS_ONE_PURE,
        ),
        Category(
            "Indian loser count, 13 meld-dense cards",
            indian_dense_sized(13),
            INDIAN_PLAIN,
            INDIAN_POINTS,
            require=TWO_RUNS_ONE_PURE,
        ),
        # Last, so the rows above keep their seeds (one per category, by its position).
        Category(
            "Indian show, 14 meld-dense, wild 7s",
            indian_wild_show,
            INDIAN,
            INDIAN_POINTS,
            discard=True,
            require=SHOW,
        ),
    ]


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def rules_setup() -> list[tuple[str, float]]:
    """Build every rule table the categories need, from empty caches, and time it."""
    _arrange.clear_tables()
    timings = []
    for label, rules, points in (
        ("gin", GIN, GIN_POINTS),
        ("Israeli", ISRAELI, ISRAELI_POINTS),
        ("Indian", INDIAN, INDIAN_POINTS),
    ):
        start = time.perf_counter()
        _arrange.simple_tables(rules, points)
        for jokers in range(5):
            _arrange.general_tables(rules, jokers, points)
        timings.append((f"{label} (no jokers to 4 jokers)", time.perf_counter() - start))
    return timings


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per category")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=3, help="timed passes per hand")
    parser.add_argument(
        "--cold", action="store_true", help="clear the pooled search's meld table before each call"
    )
    args = parser.parse_args(argv)

    print(f"Python {sys.version.split()[0]}; {args.hands} hands per category, {args.passes} passes")
    for label, seconds in rules_setup():
        print(f"rules set-up, {label}: {seconds * 1000:.0f} ms (once per process)")
    print()
    header = (
        f"{'category':40s} {'best: median':>13s} {'p99':>9s} {'one pass: median':>17s} {'p99':>9s}"
    )
    print(header)
    print("-" * len(header))
    clock = time.perf_counter_ns
    for number, category in enumerate(categories()):
        rng = random.Random(args.seed * 1000 + number)
        hands = [category.deal(rng) for _ in range(args.hands)]
        best = [float("inf")] * len(hands)
        first: list[float] = []
        for done in range(args.passes):
            for position, hand in enumerate(hands):
                category.prepare(args.cold)
                start = clock()
                category.run(hand)
                elapsed = (clock() - start) / 1000
                best[position] = min(best[position], elapsed)
                if done == 0:
                    first.append(elapsed)
        print(
            f"{category.name:40s} {statistics.median(best):11.1f}us {percentile(best, 0.99):7.1f}us"
            f" {statistics.median(first):15.1f}us {percentile(first, 0.99):7.1f}us"
        )


if __name__ == "__main__":
    main()
