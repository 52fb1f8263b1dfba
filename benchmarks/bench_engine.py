"""Engine speed: random legal play (µs per action) and greedy bots (deals per second).

Run: ``python benchmarks/bench_engine.py [--actions N] [--deals N] [--variants a,b]``.
Prints figures; asserts nothing. Reference figures from the issue: OpenSpiel's C++ gin engine
driven from Python costs about 15 µs per action, RLCard's gin engine about 21 µs.

"Random" means a uniform choice over ``legal_actions()`` followed by ``apply`` (which
verifies the action again), so both the move generator and the checker are timed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rummylib import new_game
from rummylib.bots import GreedyBot, play
from rummylib.state import GameState


def random_actions(variant: str, players: int, actions: int, seed: int) -> tuple[float, int]:
    """Mean µs per random legal action over ``actions`` actions (new matches as needed)."""
    rng = random.Random(seed)
    done = 0
    elapsed = 0.0
    match = 0
    while done < actions:
        state = new_game(variant, players=players, seed=seed * 1000 + match)
        match += 1
        started = time.perf_counter()
        steps = 0
        while not state.is_over and done + steps < actions and steps < 5000:
            state = state.apply(rng.choice(state.legal_actions()))
            steps += 1
        elapsed += time.perf_counter() - started
        done += steps
    return elapsed / done * 1e6, done


def clone_cost(variant: str, players: int) -> float:
    """µs to "clone" a state: states are immutable, so a clone is the reference itself."""
    state = new_game(variant, players=players, seed=1)
    rounds = 100_000
    started = time.perf_counter()
    for _ in range(rounds):
        copy: GameState = state
    del copy
    return (time.perf_counter() - started) / rounds * 1e6


def greedy_deals(variant: str, players: int, deals: int, seed: int) -> tuple[float, float]:
    """Deals per second and µs per action for greedy bots over at least ``deals`` deals."""
    done = actions = 0
    elapsed = 0.0
    match = 0
    while done < deals:
        started = time.perf_counter()
        state = play(new_game(variant, players=players, seed=seed + match), [GreedyBot()] * players)
        elapsed += time.perf_counter() - started
        done += len(state.deal_results)
        actions += len(state.history)
        match += 1
    return done / elapsed, elapsed / actions * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--variants", default="rummy101")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="median of this many runs")
    args = parser.parse_args()
    print(
        f"{'variant':<22}{'players':>8}{'µs/action':>12}{'actions':>9}"
        f"{'greedy deals/s':>16}{'greedy µs/action':>18}{'clone µs':>10}"
    )
    for variant in args.variants.split(","):
        for players in (2, 4):
            per_action = statistics.median(
                random_actions(variant, players, args.actions, args.seed + run)[0]
                for run in range(args.repeat)
            )
            deals_per_s, greedy_us = greedy_deals(variant, players, args.deals, args.seed)
            print(
                f"{variant:<22}{players:>8}{per_action:>12.1f}{args.actions:>9}"
                f"{deals_per_s:>16.1f}{greedy_us:>18.0f}{clone_cost(variant, players):>10.3f}"
            )


if __name__ == "__main__":
    main()
