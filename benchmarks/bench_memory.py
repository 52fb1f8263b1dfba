"""Memory per action of history, and the cost of saving and loading long matches.

Run from the repository root::

    python benchmarks/bench_memory.py [--games rummy101:4,gin:2] [--lengths 1000,5000,20000]
        [--seed 1] [--repeat 3]

It imports ``rummylib`` from the environment (it never edits ``sys.path``), so
``PYTHONPATH=/some/checkout python benchmarks/bench_memory.py`` measures that checkout.

For each game (variant and player count), a random match is played: a seeded
:class:`random.Random` picks among ``legal_actions()`` until the longest ``--lengths`` is
reached. A match that ends sooner is set aside and the next seed is tried (``--attempts``
times; the longest match is used if none gets there, and the lengths it did not reach are
left out).

**Bytes per action.** The same match is played again with :mod:`tracemalloc` tracing, and the
memory the final state retains is measured as what is freed when that state, the only one
still referenced, is dropped (after :func:`gc.collect`): its hands, stock and table, its
``log`` (the persistent linked list of actions) and the action objects only the log holds.
Objects the state shares with the rest of the process (interned cards, entries of rummylib's
bounded caches) are not freed, so they are not counted. The table prints that total divided
by the actions of the history, and the same for a state at the start of the match, and the
difference per action ("per added action": what each action of history costs).

**Saving and loading.** At each length, ``to_json()`` and ``GameState.from_json()`` (which
replays every action through the rules) are timed in CPU time (:func:`time.process_time`),
best of ``--repeat`` runs, in µs per action of history; equal figures at every length mean
both are linear. The size of the JSON per action is printed too.

The figures are printed; nothing is asserted. Issue 12's targets: at most 100 bytes per action
of history, and ``to_json``/``from_json`` linear.
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

import rummylib
from rummylib import GameState, new_game

#: Per-attempt seeds are derived from ``--seed`` and the attempt number.
SEED_STRIDE = 100_003


def random_match(
    variant: str, players: int, seed: int, length: int, keep: Sequence[int] = ()
) -> tuple[GameState, dict[int, GameState]]:
    """A random match of at most ``length`` actions, and its states after ``keep`` actions."""
    rng = random.Random(seed)
    state = new_game(variant, players=players, seed=seed)
    kept: dict[int, GameState] = {}
    done = 0
    while done < length and not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        done += 1
        if done in keep:
            kept[done] = state
    return state, kept


def history_length(state: GameState) -> int:
    return len(state.history)


def find_long_match(
    variant: str, players: int, lengths: Sequence[int], seed: int, attempts: int
) -> tuple[int, dict[int, GameState]]:
    """The seed of a match that reaches ``max(lengths)``, or of the longest one tried."""
    longest = max(lengths)
    best: tuple[int, dict[int, GameState]] | None = None
    for attempt in range(attempts):
        match_seed = seed * SEED_STRIDE + attempt
        final, kept = random_match(variant, players, match_seed, longest, lengths)
        kept[history_length(final)] = final
        if best is None or max(kept) > max(best[1]):
            best = (match_seed, kept)
        if max(kept) >= longest:
            break
    assert best is not None
    return best


def retained_bytes(variant: str, players: int, seed: int, length: int) -> tuple[int, int, int]:
    """Bytes retained by a new state and by the state after the match's first actions.

    Returns the bytes of the state at the start, the bytes of the final state, and the
    number of actions in its history.
    """

    def freed_by_dropping(holder: list[GameState]) -> int:
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        holder.clear()
        gc.collect()
        return held - tracemalloc.get_traced_memory()[0]

    tracemalloc.start()
    try:
        start = [new_game(variant, players=players, seed=seed)]
        start_bytes = freed_by_dropping(start)
        final, _ = random_match(variant, players, seed, length)
        actions = history_length(final)
        holder = [final]
        del final
        final_bytes = freed_by_dropping(holder)
    finally:
        tracemalloc.stop()
    return start_bytes, final_bytes, actions


def best_time(work: Callable[[], object], repeat: int) -> float:
    """The lowest CPU seconds of ``repeat`` calls of ``work``."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def parse_games(text: str) -> list[tuple[str, int]]:
    games = []
    for item in text.split(","):
        variant, _, players = item.partition(":")
        games.append((variant, int(players or 2)))
    return games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", default="rummy101:4,gin:2", help="comma-separated variant:players"
    )
    parser.add_argument(
        "--lengths", default="1000,5000,20000", help="history lengths for to_json/from_json"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many timings")
    parser.add_argument("--attempts", type=int, default=10, help="seeds tried per game")
    args = parser.parse_args(argv)
    lengths = sorted({int(length) for length in args.lengths.split(",")})

    print(
        f"rummylib from {Path(rummylib.__file__).resolve().parent}; "
        f"Python {sys.version.split()[0]}; CPU time, best of {args.repeat}"
    )
    memory_header = (
        f"{'game':<14}{'seed':>8}{'actions':>9}{'state KiB':>11}{'B/action':>10}"
        f"{'new KiB':>9}{'per added action':>18}"
    )
    json_header = (
        f"{'game':<14}{'actions':>9}{'to_json µs/act':>16}{'from_json µs/act':>18}"
        f"{'JSON B/act':>12}"
    )
    memory_lines: list[str] = []
    json_lines: list[str] = []
    for variant, players in parse_games(args.games):
        game = f"{variant} {players}p"
        seed, kept = find_long_match(variant, players, lengths, args.seed, args.attempts)
        reached = max(kept)
        warm = kept[min(kept)]  # one untimed round trip first (imports, first-call tables)
        GameState.from_json(warm.to_json())
        for length in sorted(kept):
            state = kept[length]
            text = state.to_json()
            dump = best_time(state.to_json, args.repeat)
            load = best_time(functools.partial(GameState.from_json, text), args.repeat)
            json_lines.append(
                f"{game:<14}{length:>9}{dump / length * 1e6:>16.2f}{load / length * 1e6:>18.1f}"
                f"{len(text.encode()) / length:>12.1f}"
            )
        del kept, state, warm
        start_bytes, final_bytes, actions = retained_bytes(variant, players, seed, reached)
        memory_lines.append(
            f"{game:<14}{seed:>8}{actions:>9}{final_bytes / 1024:>11.1f}"
            f"{final_bytes / actions:>10.1f}{start_bytes / 1024:>9.1f}"
            f"{(final_bytes - start_bytes) / actions:>18.1f}"
        )
    print()
    print("Memory retained by the final state of a random match (tracemalloc)")
    print(memory_header)
    print("-" * len(memory_header))
    print("\n".join(memory_lines))
    print()
    print("Saving and loading (from_json replays every action)")
    print(json_header)
    print("-" * len(json_header))
    print("\n".join(json_lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
