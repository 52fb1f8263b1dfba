"""Engine speed: random legal play (µs per action) and greedy bots (deals per second).

Run from the repository root::

    python benchmarks/bench_engine.py [--variants rummy101,gin] [--matches 20] [--actions 3000]
        [--deals 40] [--seed 1] [--json figures.json] [--quick] [--peer]
    python benchmarks/bench_engine.py --compare /path/to/old/checkout [--rounds 3]

It imports ``rummylib`` from the environment (it never edits ``sys.path``), so
``PYTHONPATH=/some/checkout python benchmarks/bench_engine.py`` measures that checkout's code
with this same script.

**Random play.** For every variant and player count (by default every registered variant, with
2 and 4 players where it allows them), ``--matches`` matches are played: each starts with
``new_game(variant, players=…, seed=…)`` and applies ``rng.choice(state.legal_actions())``
(a seeded :class:`random.Random` per match) until the match is over or ``--actions`` actions
were applied. Listing the moves and applying one are timed (``apply`` verifies an action the
state did not list itself; a listed one is known legal); ``new_game`` is not. Time is CPU
time (:func:`time.process_time`), which a shared machine disturbs less than wall time. Each
row reports:

* the median over the matches of each match's µs per action;
* the worst block: the actions of the row, in order across its matches, are cut into blocks of
  ``--block`` (1,000) actions, and the slowest block's µs per action is shown, with its ratio
  to the median (a block may span the end of one match and the start of the next; the
  incomplete last block is not counted, so a row with fewer actions shows none).

**Greedy bots.** ``rummylib.bots.play(new_game(…), [GreedyBot()] * players)`` plays whole
matches until at least ``--deals`` deals were completed: deals per second and µs per action.

**Warm-up.** Before anything is timed, every variant plays one short random match and one
short greedy match, untimed. The first call of :func:`rummylib.arrange` with a rule set builds
that rule set's solver tables (about 0.3 s each, cached for the process); the warm-up keeps
that one-time cost out of the figures.

**Before and after.** ``--compare OTHER`` runs the same measurement in child processes, with
``PYTHONPATH=OTHER`` ("before") and with this process's own environment ("after"),
alternately (before, after, before, after, …) ``--rounds`` times, keeps the best figure of
each side (lowest µs, highest deals per second: the noise of a shared machine only ever
slows a run down) and prints before, after and their ratio.

**Against OpenSpiel.** ``--peer`` also times OpenSpiel's C++ ``gin_rummy`` (through pyspiel)
in the same process, after the rows, with the loop of ``compare_gin.py`` (imported from beside
this script, not copied): ``--peer-rounds`` rounds of ``--peer-games`` random deals, each
round's CPU time divided by its decisions (chance nodes, the deal and the stock draws, are
played inside the timed loop but not counted, as ``compare_gin.py`` counts them), the median
round kept. One untimed deal first imports pyspiel. It then prints each row's µs per random
action beside OpenSpiel's and their ratio, with the Indian presets' target (at most 3 times
OpenSpiel's). Without pyspiel it says so and prints only the table above. It does not combine
with ``--compare``.

The figures are printed (and written as JSON with ``--json``); nothing is asserted. The
targets shown are issue 12's (and, for ``--peer``, the Indian rummy issue's); the script
reports them, it does not check them.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import rummylib
from rummylib import VARIANTS, new_game
from rummylib.bots import GreedyBot, play

#: Issue 12's targets: most µs per random action (median), and the greedy deals/s speed-up.
TARGETS: dict[str, tuple[float, float | None]] = {
    "rummy101": (15, 3),
    "rummy71": (15, 3),
    "carousel": (60, 4),
    "turkish500": (40, 3),
    "turkish300": (40, 3),
    "turkish500_cutthroat": (40, 3),
    "rummy500": (60, 3),
    "gin": (8, None),
}

#: The Indian rummy issue's target for ``--peer``: most µs per random action (median), as a
#: multiple of OpenSpiel's C++ gin_rummy per decision in the same run.
PEER_TARGETS: dict[str, float] = {
    "indian_points": 3,
    "indian_pool101": 3,
    "indian_pool201": 3,
    "indian_deals": 3,
}

#: Per-match seeds are derived from ``--seed`` and the match number, the same in every run.
SEED_STRIDE = 100_003


class Blocks:
    """Cuts a stream of timed actions into blocks of ``size`` actions; keeps the slowest."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.count = 0  # actions in the block being filled
        self.seconds = 0.0
        self.worst: float | None = None  # seconds per action of the slowest full block
        self.full = 0

    def room(self) -> int:
        return self.size - self.count

    def add(self, actions: int, seconds: float) -> None:
        self.count += actions
        self.seconds += seconds
        if self.count == self.size:
            per_action = self.seconds / self.size
            self.worst = per_action if self.worst is None else max(self.worst, per_action)
            self.full += 1
            self.count = 0
            self.seconds = 0.0


def random_match(
    variant: str, players: int, seed: int, cap: int, blocks: Blocks
) -> tuple[int, float]:
    """Actions applied and CPU seconds spent in one random match of at most ``cap`` actions."""
    rng = random.Random(seed)
    state = new_game(variant, players=players, seed=seed)
    clock = time.process_time
    done = 0
    elapsed = 0.0
    while done < cap and not state.is_over:
        steps = 0
        limit = min(blocks.room(), cap - done)
        started = clock()
        while steps < limit and not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            steps += 1
        spent = clock() - started
        blocks.add(steps, spent)
        done += steps
        elapsed += spent
    return done, elapsed


def random_play(
    variant: str, players: int, *, matches: int, cap: int, block: int, seed: int
) -> dict[str, Any]:
    """The random-play figures of one variant and player count."""
    blocks = Blocks(block)
    per_match: list[float] = []
    actions = 0
    for match in range(matches):
        done, seconds = random_match(variant, players, seed * SEED_STRIDE + match, cap, blocks)
        if done:
            per_match.append(seconds / done * 1e6)
        actions += done
    median = statistics.median(per_match) if per_match else None
    worst = None if blocks.worst is None else blocks.worst * 1e6
    return {
        "random_us": median,
        "worst_block_us": worst,
        "worst_ratio": None if worst is None or not median else worst / median,
        "blocks": blocks.full,
        "actions": actions,
        "matches": len(per_match),
    }


def greedy_play(variant: str, players: int, deals: int, seed: int) -> dict[str, Any]:
    """Greedy-bot figures: whole matches until at least ``deals`` deals were completed."""
    done = actions = matches = 0
    elapsed = 0.0
    while done < deals:
        state = new_game(variant, players=players, seed=seed * SEED_STRIDE + matches)
        started = time.process_time()
        state = play(state, [GreedyBot()] * players)
        elapsed += time.process_time() - started
        matches += 1
        deals_now = len(state.deal_results)
        actions += len(state.history)
        if deals_now == 0:  # play gave up before the first deal ended: stop counting
            break
        done += deals_now
    return {
        "greedy_deals_per_s": done / elapsed if elapsed else None,
        "greedy_us": elapsed / actions * 1e6 if actions else None,
        "greedy_deals": done,
        "greedy_matches": matches,
    }


def warm_up(variant: str, players: int, seed: int) -> None:
    """One short random match and one short greedy match, untimed (builds solver tables)."""
    random_match(variant, players, seed, 300, Blocks(1000))
    play(new_game(variant, players=players, seed=seed), [GreedyBot()] * players, max_actions=300)


def player_counts(variant: str) -> list[int]:
    cls = VARIANTS[variant]
    low = getattr(cls, "min_players", 2)
    high = getattr(cls, "max_players", 2)
    return [players for players in (2, 4) if low <= players <= high]


def measure(args: argparse.Namespace) -> dict[str, Any]:
    names = args.variants.split(",") if args.variants else list(VARIANTS)
    known = [name for name in names if name in VARIANTS]
    for name in names:
        if name not in VARIANTS:
            print(f"skipped {name}: not a registered variant here", file=sys.stderr)
    for name in known:
        warm_up(name, player_counts(name)[0], args.seed)
    rows = []
    for name in known:
        for players in player_counts(name):
            row: dict[str, Any] = {"variant": name, "players": players}
            row.update(
                random_play(
                    name,
                    players,
                    matches=args.matches,
                    cap=args.actions,
                    block=args.block,
                    seed=args.seed,
                )
            )
            if args.deals > 0:
                row.update(greedy_play(name, players, args.deals, args.seed))
            rows.append(row)
    return {
        "meta": {
            "rummylib": str(Path(rummylib.__file__).resolve().parent),
            "python": sys.version.split()[0],
            "clock": "time.process_time",
            **{key: getattr(args, key) for key in ("matches", "actions", "block", "deals", "seed")},
        },
        "rows": rows,
    }


# -- against OpenSpiel ------------------------------------------------------------------------


def load_compare_gin() -> ModuleType:
    """``benchmarks/compare_gin.py``, imported by its path (``benchmarks/`` is not a package).

    Importing it puts its checkout first on ``sys.path``; ``rummylib`` is imported already (from
    the environment, see above), and ``sys.path`` is put back as it was.
    """
    path = Path(__file__).resolve().with_name("compare_gin.py")
    spec = importlib.util.spec_from_file_location("compare_gin", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


def openspiel_gin(games: int, rounds: int, seed: int) -> dict[str, Any] | None:
    """OpenSpiel gin_rummy's CPU µs per random decision, or ``None`` without pyspiel."""
    play_deals = load_compare_gin().openspiel_games
    if play_deals(1, seed) is None:  # untimed: imports pyspiel and loads the game
        return None
    per_round: list[float] = []
    decisions = 0
    for number in range(rounds):
        started = time.process_time()
        _, done = play_deals(games, seed * SEED_STRIDE + number)
        per_round.append((time.process_time() - started) / done * 1e6)
        decisions += done
    try:
        version = importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        version = None
    return {
        "library": "OpenSpiel gin_rummy",
        "version": version,
        "random_us": statistics.median(per_round),
        "round_us": per_round,
        "games": games,
        "rounds": rounds,
        "decisions": decisions,
    }


def add_peer(figures: dict[str, Any], args: argparse.Namespace) -> None:
    """Time OpenSpiel's gin into ``figures["peer"]`` and each row's ratio to it."""
    peer = openspiel_gin(args.peer_games, args.peer_rounds, args.seed)
    figures["peer"] = peer
    for row in figures["rows"]:
        ours = row["random_us"]
        row["peer_ratio"] = None if peer is None or ours is None else ours / peer["random_us"]


def print_peer(figures: dict[str, Any]) -> None:
    peer = figures["peer"]
    print()
    if peer is None:
        print(
            "OpenSpiel's gin_rummy not timed: pyspiel is not installed "
            "(pip install open-spiel, or the bench extra)"
        )
        return
    version = f" {peer['version']}" if peer["version"] else ""
    print(
        f"OpenSpiel{version} gin_rummy (C++ through pyspiel): {figure(peer['random_us'], 2)} µs "
        f"per decision; CPU time, median of {peer['rounds']} rounds of {peer['games']} random "
        f"deals ({peer['decisions']} decisions, chance nodes played but not counted)"
    )
    header = (
        f"{'variant':<22}{'players':>8}{'µs/action':>11}{'OpenSpiel gin':>15}"
        f"{'ratio':>9}{'target':>8}"
    )
    print(header)
    print("-" * len(header))
    for row in figures["rows"]:
        target = PEER_TARGETS.get(row["variant"])
        print(
            f"{row['variant']:<22}{row['players']:>8}{figure(row['random_us']):>11}"
            f"{figure(peer['random_us'], 2):>15}{figure(row['peer_ratio'], 2, 'x'):>9}"
            f"{figure(target, 0, 'x'):>8}"
        )


def figure(value: float | None, digits: int = 1, suffix: str = "") -> str:
    return "–" if value is None else f"{value:.{digits}f}{suffix}"


def target_of(variant: str) -> tuple[float | None, float | None]:
    return TARGETS.get(variant, (None, None))


def print_figures(figures: dict[str, Any]) -> None:
    meta = figures["meta"]
    print(
        f"rummylib from {meta['rummylib']}; Python {meta['python']}; CPU time; "
        f"{meta['matches']} matches of at most {meta['actions']} random actions, "
        f"blocks of {meta['block']}; greedy: at least {meta['deals']} deals"
    )
    header = (
        f"{'variant':<22}{'players':>8}{'µs/action':>11}{'target':>8}{'worst block':>13}"
        f"{'worst/med':>10}{'actions':>9}{'greedy deals/s':>16}{'greedy µs/act':>15}"
    )
    print(header)
    print("-" * len(header))
    for row in figures["rows"]:
        target = target_of(row["variant"])[0]
        print(
            f"{row['variant']:<22}{row['players']:>8}{figure(row['random_us']):>11}"
            f"{figure(target, 0, ''):>8}{figure(row['worst_block_us']):>13}"
            f"{figure(row['worst_ratio'], 2, 'x'):>10}{row['actions']:>9}"
            f"{figure(row.get('greedy_deals_per_s')):>16}{figure(row.get('greedy_us')):>15}"
        )


# -- before and after ------------------------------------------------------------------------


def child_run(args: argparse.Namespace, pythonpath: str | None) -> dict[str, Any]:
    """Run this script (without ``--compare``) in a child process and read its JSON."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    elif pythonpath is not None:  # an empty OTHER: no PYTHONPATH at all
        env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "figures.json"
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            *("--variants", args.variants or ",".join(VARIANTS)),
            *("--matches", str(args.matches), "--actions", str(args.actions)),
            *("--block", str(args.block), "--deals", str(args.deals)),
            *("--seed", str(args.seed), "--json", str(output)),
        ]
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        result: dict[str, Any] = json.loads(output.read_text(encoding="utf-8"))
        return result


def best_of(runs: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """Per row, the best figure of every run: lowest times, highest rates."""
    best: dict[tuple[str, int], dict[str, Any]] = {}
    for run in runs:
        for row in run["rows"]:
            key = (row["variant"], row["players"])
            if key not in best:
                best[key] = dict(row)
                continue
            kept = best[key]
            for name, value in row.items():
                if not isinstance(value, float) or kept.get(name) is None:
                    continue
                pick = max if name == "greedy_deals_per_s" else min
                kept[name] = pick(kept[name], value)
            if kept["random_us"] and kept["worst_block_us"]:
                kept["worst_ratio"] = kept["worst_block_us"] / kept["random_us"]
    return best


def ratio(before: float | None, after: float | None) -> float | None:
    return None if not before or not after else before / after


def compare(args: argparse.Namespace) -> dict[str, Any]:
    before_runs: list[dict[str, Any]] = []
    after_runs: list[dict[str, Any]] = []
    for number in range(1, args.rounds + 1):
        for side, pythonpath, runs in (
            ("before", args.compare, before_runs),
            ("after", None, after_runs),
        ):
            print(f"round {number}/{args.rounds}: {side} …", file=sys.stderr, flush=True)
            runs.append(child_run(args, pythonpath))
    before = best_of(before_runs)
    after = best_of(after_runs)
    rows = []
    for key in [*after, *(key for key in before if key not in after)]:
        old = before.get(key, {})
        new = after.get(key, {})
        rows.append(
            {
                "variant": key[0],
                "players": key[1],
                "before": old,
                "after": new,
                "random_speedup": ratio(old.get("random_us"), new.get("random_us")),
                "greedy_speedup": ratio(
                    new.get("greedy_deals_per_s"), old.get("greedy_deals_per_s")
                ),
            }
        )
    return {
        "meta": {
            "before": before_runs[0]["meta"],
            "after": after_runs[0]["meta"],
            "rounds": args.rounds,
            "best_of": "lowest µs and highest deals/s of each side",
        },
        "rows": rows,
    }


def print_comparison(figures: dict[str, Any]) -> None:
    meta = figures["meta"]
    print(f"before: rummylib from {meta['before']['rummylib']}")
    print(f"after:  rummylib from {meta['after']['rummylib']}")
    print(
        f"best of {meta['rounds']} alternating rounds per side; CPU time; "
        f"{meta['after']['matches']} matches of at most {meta['after']['actions']} random "
        f"actions; greedy: at least {meta['after']['deals']} deals"
    )
    header = (
        f"{'variant':<22}{'players':>8}"
        f"{'µs before':>11}{'after':>8}{'x':>7}{'target':>8}{'worst/med':>10}"
        f"{'deals/s before':>16}{'after':>8}{'x':>7}{'target':>8}"
    )
    print(header)
    print("-" * len(header))
    for row in figures["rows"]:
        old, new = row["before"], row["after"]
        us_target, greedy_target = target_of(row["variant"])
        print(
            f"{row['variant']:<22}{row['players']:>8}"
            f"{figure(old.get('random_us')):>11}{figure(new.get('random_us')):>8}"
            f"{figure(row['random_speedup'], 2, 'x'):>7}{figure(us_target, 0):>8}"
            f"{figure(new.get('worst_ratio'), 2, 'x'):>10}"
            f"{figure(old.get('greedy_deals_per_s')):>16}"
            f"{figure(new.get('greedy_deals_per_s')):>8}"
            f"{figure(row['greedy_speedup'], 2, 'x'):>7}{figure(greedy_target, 0, 'x'):>8}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variants", default="", help="comma-separated names (default: every registered one)"
    )
    parser.add_argument("--matches", type=int, default=20, help="random matches per row")
    parser.add_argument("--actions", type=int, default=3000, help="most actions per match")
    parser.add_argument("--block", type=int, default=1000, help="actions per timed block")
    parser.add_argument("--deals", type=int, default=40, help="fewest greedy deals per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--quick", action="store_true", help="5 matches of at most 1000 actions, 10 deals"
    )
    parser.add_argument(
        "--compare",
        metavar="OTHER_PYTHONPATH",
        help="measure the code on this PYTHONPATH (before) against this environment's (after)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds for --compare")
    parser.add_argument(
        "--peer",
        action="store_true",
        help="also time OpenSpiel's C++ gin_rummy and print each row's ratio to it",
    )
    parser.add_argument("--peer-games", type=int, default=100, help="random deals per --peer round")
    parser.add_argument("--peer-rounds", type=int, default=5, help="--peer rounds; median kept")
    args = parser.parse_args(argv)
    if args.peer and args.compare is not None:
        parser.error("--peer times this process's own rows; it does not combine with --compare")
    if args.peer_games < 1 or args.peer_rounds < 1:
        parser.error("--peer-games and --peer-rounds must be at least 1")
    if args.quick:
        args.matches, args.actions, args.deals = 5, 1000, 10
    if args.compare is not None:
        figures = compare(args)
        print_comparison(figures)
    else:
        figures = measure(args)
        print_figures(figures)
        if args.peer:
            add_peer(figures, args)
            print_peer(figures)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
