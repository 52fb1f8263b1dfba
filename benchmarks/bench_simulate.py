"""Matches per second of rummylib.simulate: serial, 1 and 2 process workers, 1 and 2 on Ray.

    python benchmarks/bench_simulate.py [--variant rummy71] [--matches 200] [--players 2]

Targets on a 2-core machine (issue 16): 2 process workers at least 1.8x one worker; Ray within
20% of the process pool with the same number of workers. Ray's start-up is not timed: for
``workers`` N the script starts a local Ray with ``ray.init(num_cpus=N)`` before the timed
run, and every run is preceded by an untimed warm-up run. Every run plays the same matches:
the records are checked equal.
"""

from __future__ import annotations

import argparse
import os
import time

import ray

from rummylib.simulate import SimulationResult, simulate


def run(args: argparse.Namespace, backend: str, workers: int | None) -> SimulationResult:
    return simulate(
        args.variant,
        players=args.players,
        bots=args.bots,
        matches=args.matches,
        seed=args.seed,
        backend=backend,  # type: ignore[arg-type]
        workers=workers,
        max_actions=args.max_actions,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="rummy71")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-actions", type=int, default=5_000)
    args = parser.parse_args()
    print(f"{args.variant}, {args.players} players, {args.matches} matches, bots {args.bots}")
    print(f"cpu_count {os.cpu_count()}, ray {ray.__version__}")
    runs = [("serial", 1), ("process", 1), ("process", 2), ("ray", 1), ("ray", 2)]
    rates: dict[tuple[str, int], float] = {}
    reference = None
    for backend, workers in runs:
        if backend == "ray":
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        warm = argparse.Namespace(**{**vars(args), "matches": max(4, args.matches // 20)})
        run(warm, backend, workers)
        started = time.perf_counter()
        result = run(args, backend, workers)
        elapsed = time.perf_counter() - started
        if reference is None:
            reference = result.records
        assert result.records == reference, f"{backend} x{workers} played other matches"
        rates[backend, workers] = args.matches / elapsed
        print(
            f"{backend:8} workers={workers}: {rates[backend, workers]:7.2f} matches/s "
            f"({elapsed:.2f} s, {result.summary.actions_per_second:,.0f} actions/s)"
        )
        if backend == "ray":
            ray.shutdown()
    speedup = rates["process", 2] / rates["process", 1]
    print(f"process 2 workers / 1 worker: {speedup:.2f}x (target >= 1.8x)")
    for workers in (1, 2):
        ratio = rates["ray", workers] / rates["process", workers]
        print(f"ray / process with {workers} worker(s): {ratio:.2f} (target >= 0.80)")


if __name__ == "__main__":
    main()
