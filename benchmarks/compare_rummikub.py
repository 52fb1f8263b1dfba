"""best_play against rummikub-solver on the Rummikub table problem.

Run with the peer installed (extra ``bench``), for example::

    /tmp/peers/bin/python -m pip install -e .[bench]
    /tmp/peers/bin/python benchmarks/compare_rummikub.py [--positions 60] [--seed 1]

Both solvers get the same positions: 13 ranks x 4 suits (rummikub-solver's 13 numbers x 4
colours, colour i = suit i), two copies of each tile and two jokers; aces low only
(``MeldRules(ace="low")``); joker identities free, as in Rummikub (``jokers="free"``). A table
of 20–40 tiles is built from random legal sets (as the peer's own report does: sets with a
joker are kept 30% of the time), and a rack of 14 tiles is drawn from what is left.

For every position both answers are checked (every set a legal meld, the new table = the old
table + the tiles placed, the tiles placed come from the rack) and the numbers of tiles placed
compared. Times are per solve, the best of ``--repeat`` runs of each position (to keep other
processes out of the figure); the peer's ``RuleSet`` is built, and each solver warmed up, before
timing. Prints figures; asserts nothing but the checks.

With ``--value`` it also compares the most points placed (J, Q, K worth 10, jokers 0) with the
peer's TOTAL_VALUE mode, which is known to return count-optimal rather than value-optimal
answers.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummylib import JOKER, Card, CardPoints, Meld, MeldRules, hand_points, is_meld
from rummylib.cards import CARDS
from rummylib.table import Play, best_play

try:
    from rummikub_solver import RuleSet, SolverMode
except ImportError:  # pragma: no cover
    sys.exit("rummikub-solver is not installed: pip install -e .[bench]")

RULES = MeldRules(ace="low")
POINTS = CardPoints(ace=1, face=10, joker=0)
JOKER_TILE = 53


def card_of(tile: int) -> Card:
    """The card of a peer tile: 1…52 are colour-major numbers 1…13, 53 is the joker."""
    return JOKER if tile == JOKER_TILE else CARDS[tile - 1]


def random_position(peer: Any, rng: random.Random) -> tuple[list[tuple[int, ...]], list[int]]:
    """A legal table of 20–40 tiles (as sets) and a rack of 14 from the rest, as peer tiles."""
    pool = Counter(dict.fromkeys(range(1, 53), 2)) + Counter({JOKER_TILE: 2})
    target = rng.randint(20, 40)
    table: list[tuple[int, ...]] = []
    size = 0
    while size < target and size <= 37:
        chosen = tuple(int(tile) for tile in rng.choice(peer.sets))
        needed = Counter(chosen)
        if JOKER_TILE in needed and rng.random() < 0.7:
            continue
        if size + len(chosen) <= 40 and not needed - pool:
            size += len(chosen)
            pool -= needed
            table.append(chosen)
    rack = rng.sample(sorted(pool.elements()), 14)
    return table, rack


def table_melds(peer_sets: Sequence[Sequence[int]]) -> tuple[Meld, ...]:
    """The table as rummylib melds (a legal reading of each set's jokers)."""
    return tuple(Meld.from_cards([card_of(tile) for tile in tiles], RULES) for tiles in peer_sets)


def check_mine(table: Sequence[Meld], rack: Sequence[Card], play: Play | None) -> int:
    if play is None:
        return 0
    for meld in play.table:
        meld.check(RULES)
    before = Counter(card for meld in table for card in meld.cards)
    after = Counter(card for meld in play.table for card in meld.cards)
    assert after == before + Counter(play.played), "rummylib: cards not conserved"
    assert not Counter(play.played) - Counter(rack), "rummylib: placed a card not in the rack"
    return play.card_count


def check_theirs(table: list[int], rack: list[int], solution: Any) -> tuple[int, list[Card]]:
    if solution is None:
        return 0, []
    placed = [int(tile) for tile in solution.tiles]
    for tiles in solution.sets:
        cards = [card_of(int(tile)) for tile in tiles]
        assert is_meld(cards, RULES), f"rummikub-solver: {cards} is not a meld"
    used = Counter(int(tile) for tiles in solution.sets for tile in tiles)
    used[JOKER_TILE] += solution.free_jokers
    assert used == Counter(table) + Counter(placed), "rummikub-solver: tiles not conserved"
    assert not Counter(placed) - Counter(rack), "rummikub-solver: placed a tile not in the rack"
    return len(placed), [card_of(tile) for tile in placed]


def timed(function: Any, repeat: int) -> tuple[float, Any]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--value", action="store_true", help="also compare the points mode")
    options = parser.parse_args()
    peer = RuleSet(numbers=13, colours=4, repeats=2, jokers=2, min_len=3)
    rng = random.Random(options.seed)
    positions = []
    for _ in range(options.positions):
        sets, rack = random_position(peer, rng)
        table = [tile for tiles in sets for tile in tiles]
        positions.append((table, rack, table_melds(sets), [card_of(tile) for tile in rack]))

    def peer_solve(table: list[int], rack: list[int], mode: Any) -> Any:
        state = peer.new_game()
        state.add_table(*table)
        state.add_rack(*rack)
        state.initial = False
        return peer.solve(state, mode)

    # warm up both (the peer compiles its problems on the first solve)
    first = positions[0]
    peer_solve(first[0], first[1], SolverMode.TILE_COUNT)
    best_play(first[2], first[3], RULES, jokers="free")

    mine_times, their_times, agree, differ = [], [], 0, []
    for number, (table, rack, melds, cards) in enumerate(positions):
        their_time, solution = timed(
            functools.partial(peer_solve, table, rack, SolverMode.TILE_COUNT), options.repeat
        )
        mine_time, play = timed(
            functools.partial(best_play, melds, cards, RULES, jokers="free"), options.repeat
        )
        theirs, _ = check_theirs(table, rack, solution)
        mine = check_mine(melds, cards, play)
        mine_times.append(mine_time)
        their_times.append(their_time)
        if mine == theirs:
            agree += 1
        else:
            differ.append((number, mine, theirs))

    mine_median = statistics.median(mine_times) * 1e3
    their_median = statistics.median(their_times) * 1e3
    sizes = [len(table) for table, *_ in positions]
    print(f"positions: {len(positions)} (tables of {min(sizes)}–{max(sizes)} tiles, racks of 14)")
    print(f"same number of tiles placed: {agree}/{len(positions)}")
    for number, mine, theirs in differ:
        print(f"  position {number}: rummylib {mine}, rummikub-solver {theirs}")
    print(
        f"rummylib best_play:  median {mine_median:6.1f} ms, "
        f"mean {statistics.mean(mine_times) * 1e3:6.1f} ms, max {max(mine_times) * 1e3:6.1f} ms"
    )
    print(
        f"rummikub-solver:     median {their_median:6.1f} ms, "
        f"mean {statistics.mean(their_times) * 1e3:6.1f} ms, max {max(their_times) * 1e3:6.1f} ms"
    )
    print(f"median ratio (rummikub-solver / rummylib): {their_median / mine_median:.1f}x")

    if options.value:
        more = 0
        for table, rack, melds, cards in positions:
            play = best_play(melds, cards, RULES, jokers="free", objective="points", points=POINTS)
            _, placed = check_theirs(table, rack, peer_solve(table, rack, SolverMode.TOTAL_VALUE))
            mine = 0 if play is None else play.points
            theirs = hand_points(placed, POINTS)
            assert mine >= theirs
            more += mine > theirs
        print(
            f"points mode: rummylib places more points than TOTAL_VALUE on "
            f"{more}/{len(positions)} positions"
        )


if __name__ == "__main__":
    main()
