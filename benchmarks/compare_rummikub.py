"""best_play against rummikub-solver on Rummikub's table problem, after and at the initial meld.

Run with the peer installed (extra ``bench``), for example::

    /tmp/peers/bin/python -m pip install -e .[bench]
    /tmp/peers/bin/python benchmarks/compare_rummikub.py [--positions 60] [--seed 1]

Both solvers play by Rummikub's rules: 13 numbers x 4 colours (colour i = rummylib suit i,
number n = rank n, so 11, 12, 13 are J, Q, K), two copies of each tile and two jokers; runs
of one colour, 1 low only and no wrap (``MeldRules(ace="low")``); groups of 3–4 distinct
colours; melds of at least 3; joker identities free (``jokers="free"``). Two sets of
``--positions`` positions each, made from ``--seed``:

**After the initial meld.** A table of 20–40 tiles is built from random legal sets (as the
peer's own report does: sets with a joker are kept 30% of the time), and a rack of 14 tiles
is drawn from what is left. The peer solves with ``initial=False`` in ``TILE_COUNT`` mode,
rummylib with ``best_play(table, rack, rules, jokers="free")``: both place the most tiles
from the rack, rearranging the whole table. Same optimum: the same number of tiles placed.

**Initial meld.** The table is empty and the rack holds 14 tiles drawn from the numbers 1–10
without jokers. The peer solves in its ``INITIAL`` mode (``initial=True``, the ruleset's
``min_initial_value`` of 30): the most tiles from the rack in sets worth at least 30 (the sum
of the tile numbers). rummylib has no such constraint; it is asked for the most points
(``objective="points"``, ``CardPoints(ace=1, face=10, joker=0)``: on racks of 1–10 without
jokers those points are exactly the tile numbers), and opens when they reach 30. What both
express, and what is compared: whether an opening of at least 30 exists (same optimum: both
open or neither does). The racks leave out J, Q, K (CardPoints counts them 10, Rummikub 11–13)
and jokers (a Rummikub joker counts as the tile it stands for, a rummylib joker a fixed value),
where the two scorings differ. The two solves do not optimise the same thing once an opening
exists (most tiles at 30 or more, against most points), so the times compare two exact
answers to related questions on the same positions, not one problem.

For every position both answers are checked (every set a legal meld, the new table = the old
table + the tiles placed, the tiles placed come from the rack; at the initial meld, an opening
of the peer is worth at least 30 and rummylib's points are at least its worth). Each position
is solved ``--repeat`` times by each solver, and two figures are printed: the **first solve**
(what a game sees: rummylib's transition tables hold only what earlier positions left in its
bounded caches, so much of them is built during the solve) and the **best of the repeats**
(the same position again: its tables are filled, and other processes are kept out of the
figure). The peer's ``RuleSet`` is built, and each solver warmed up on one position, before
timing. Prints figures; asserts nothing but the checks.

With ``--value`` it also compares the most points placed after the initial meld (J, Q, K
worth 10, jokers 0) with the peer's TOTAL_VALUE mode, which is known to return count-optimal
rather than value-optimal answers.
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
#: The peer's default minimum value of an initial meld.
INITIAL_VALUE = 30
#: The numbers of the initial-meld racks (where Rummikub's points and CardPoints agree).
INITIAL_NUMBERS = range(1, 11)


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


def random_initial_rack(rng: random.Random) -> list[int]:
    """A rack of 14 peer tiles from two copies of the numbers 1–10 of each colour, no joker."""
    pool = [colour * 13 + number for colour in range(4) for number in INITIAL_NUMBERS] * 2
    return sorted(rng.sample(sorted(pool), 14))


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


def timed(function: Any, repeat: int) -> tuple[float, float, Any]:
    """(the first run's time, the best of ``repeat`` runs, the result)."""
    times = []
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return times[0], min(times), result


def report(
    name: str, sizes: str, agree: int, differ: list[tuple[int, int, int]], times: Any
) -> None:
    """Print one set's figures: same-optimum count, differences, medians and their ratios.

    ``times`` holds, per solver, each position's (first solve, best of the repeats).
    """
    mine, theirs = times
    print(f"{name}: {len(mine)} positions ({sizes})")
    print(f"  same optimum: {agree}/{len(mine)}")
    for number, mine_count, theirs_count in differ:
        print(f"  position {number}: rummylib {mine_count}, rummikub-solver {theirs_count}")
    for label, column in (("first solve", 0), ("best of the repeats", 1)):
        mine_times = [pair[column] for pair in mine]
        their_times = [pair[column] for pair in theirs]
        mine_median = statistics.median(mine_times) * 1e3
        their_median = statistics.median(their_times) * 1e3
        print(f"  {label}:")
        print(
            f"    rummylib best_play:  median {mine_median:6.2f} ms, "
            f"mean {statistics.mean(mine_times) * 1e3:6.2f} ms, "
            f"max {max(mine_times) * 1e3:6.2f} ms"
        )
        print(
            f"    rummikub-solver:     median {their_median:6.2f} ms, "
            f"mean {statistics.mean(their_times) * 1e3:6.2f} ms, "
            f"max {max(their_times) * 1e3:6.2f} ms"
        )
        print(f"    median ratio (rummikub-solver / rummylib): {their_median / mine_median:.1f}x")


def after_initial(peer: Any, options: argparse.Namespace) -> None:
    """The positions after the initial meld: a table of 20–40 tiles, a rack of 14."""
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
        *their_time, solution = timed(
            functools.partial(peer_solve, table, rack, SolverMode.TILE_COUNT), options.repeat
        )
        *mine_time, play = timed(
            functools.partial(best_play, melds, cards, RULES, jokers="free"), options.repeat
        )
        theirs, _ = check_theirs(table, rack, solution)
        mine = check_mine(melds, cards, play)
        mine_times.append(tuple(mine_time))
        their_times.append(tuple(their_time))
        if mine == theirs:
            agree += 1
        else:
            differ.append((number, mine, theirs))
    sizes = [len(table) for table, *_ in positions]
    report(
        "after the initial meld (tiles placed)",
        f"tables of {min(sizes)}–{max(sizes)} tiles, racks of 14, seed {options.seed}",
        agree,
        differ,
        (mine_times, their_times),
    )

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
            f"  points mode: rummylib places more points than TOTAL_VALUE on "
            f"{more}/{len(positions)} positions"
        )


def initial_meld(peer: Any, options: argparse.Namespace) -> None:
    """The initial-meld positions: an empty table, a rack of 14 from the numbers 1–10."""
    rng = random.Random(options.seed)
    racks = [random_initial_rack(rng) for _ in range(options.positions)]

    def peer_solve(rack: list[int]) -> Any:
        state = peer.new_game()
        state.add_rack(*rack)
        state.initial = True
        return peer.solve(state, SolverMode.INITIAL)

    def mine_solve(cards: list[Card]) -> Play | None:
        return best_play((), cards, RULES, jokers="free", objective="points", points=POINTS)

    # warm up both
    peer_solve(racks[0])
    mine_solve([card_of(tile) for tile in racks[0]])

    mine_times, their_times, agree, differ = [], [], 0, []
    opened = 0
    for number, rack in enumerate(racks):
        cards = [card_of(tile) for tile in rack]
        *their_time, solution = timed(functools.partial(peer_solve, rack), options.repeat)
        *mine_time, play = timed(functools.partial(mine_solve, cards), options.repeat)
        _, placed = check_theirs([], rack, solution)
        theirs = hand_points(placed, POINTS)
        assert solution is None or theirs >= INITIAL_VALUE, "rummikub-solver: opening below 30"
        check_mine((), cards, play)
        mine = 0 if play is None else play.points
        assert mine >= theirs, "rummylib: fewer points than the peer's opening"
        mine_times.append(tuple(mine_time))
        their_times.append(tuple(their_time))
        mine_opens, theirs_opens = mine >= INITIAL_VALUE, solution is not None
        opened += theirs_opens
        if mine_opens == theirs_opens:
            agree += 1
        else:
            differ.append((number, mine, theirs))
    report(
        "initial meld (an opening of 30 or more: both or neither)",
        f"empty table, racks of 14 from 1–10 without jokers, seed {options.seed}, "
        f"{opened} can open",
        agree,
        differ,
        (mine_times, their_times),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--positions", type=int, default=60, help="positions in each set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--value", action="store_true", help="also compare the points mode")
    options = parser.parse_args()
    peer = RuleSet(
        numbers=13, colours=4, repeats=2, jokers=2, min_len=3, min_initial_value=INITIAL_VALUE
    )
    after_initial(peer, options)
    initial_meld(peer, options)


if __name__ == "__main__":
    main()
