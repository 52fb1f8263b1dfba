"""Steps per second of rummylib's PettingZoo environments, and of RLCard's gin env beside ours.

Needs the ``rl`` extra (``pip install -e '.[rl]'``) and, for the comparison, ``rlcard`` (in
the ``bench`` extra); run from the repository root::

    python benchmarks/compare_envs.py [--seconds 10] [--rounds 3] [--variants gin rummy101 ...]
    python benchmarks/compare_envs.py --instructions   # the gin ratio by instruction counts

Both sides run the loop an agent runs: read the observation and the legal moves of the player
to act, pick a legal move uniformly at random (one seeded :class:`random.Random` per run, the
same cheap pick on both sides), step; a new episode when one ends. A *step* is one decision
(PettingZoo's steps that only retire a finished agent are not counted).

* rummylib: ``rummylib.envs.pettingzoo.env(variant)`` (the wrapped environment users get),
  reading ``last()`` (the observation vector and the action mask, whose legal numbers
  the mask's ``nonzero()`` lists) before every step, whole matches with the variant's default
  settings and fewest players. For gin also ``one_deal=True``, one deal per episode as RLCard
  plays it.
* RLCard: ``rlcard.make("gin-rummy")``, one deal per episode, reading the state it returns
  from every step (its observation and legal actions).

Each of ``--rounds`` rounds runs three in turn for ``--seconds`` each: the wrapped
environment, the bare ``raw_env`` (without PettingZoo's order wrapper, printed as its own row)
and RLCard; each keeps its best round (to filter out other processes on a shared machine).
Then every variant (``--variants``) runs once for ``--seconds``. ``--seed`` seeds the episodes
and the picks of both sides. The target of issue 15 is the wrapped environment at least 3x
RLCard.

``--instructions`` counts the machine instructions of each side's steps instead, under
valgrind (``cachegrind``, which must be installed): the count of a run of ``--warm-up`` steps
is taken from that of a run of ``--warm-up`` + ``--steps`` steps, so that imports and first-use
tables are left out. Instruction counts do not depend on what else the machine runs, so the
ratio is the same from run to run; it is a cross-check of the timed ratio, not a replacement.
This mode counts gin only (``--seconds``, ``--rounds`` and ``--variants`` do not apply) and
needs RLCard.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummylib.envs.pettingzoo import env, raw_env
from rummylib.registry import VARIANTS


def pettingzoo_run(
    name: str,
    *,
    seconds: float | None,
    steps: int | None,
    seed: int,
    raw: bool = False,
    **options: Any,
) -> float:
    """Decisions per second in rummylib's PettingZoo environment for ``name``.

    Runs for ``seconds``, or for ``steps`` decisions. ``raw``: the bare environment, without
    PettingZoo's order wrapper.
    """
    game = (raw_env if raw else env)(name, **options)
    rng = random.Random(seed)
    done = 0
    episode = 0
    start = time.perf_counter()
    while _more(start, seconds, steps, done):
        game.reset(seed=seed + episode)
        episode += 1
        for _agent in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]  # a 1-d mask: its legal numbers
            game.step(int(legal[rng.randrange(len(legal))]))
            done += 1
            if (steps is not None and done >= steps) or (
                done % 256 == 0 and not _more(start, seconds, steps, done)
            ):
                break
    return done / (time.perf_counter() - start)


def rlcard_run(*, seconds: float | None, steps: int | None, seed: int) -> float | None:
    """Decisions per second in RLCard's gin env, or ``None`` if RLCard is not installed."""
    try:
        import rlcard  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return None
    game = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while _more(start, seconds, steps, done):
        state, _ = game.reset()
        while not game.is_over():
            legal = list(state["legal_actions"])
            state, _ = game.step(legal[rng.randrange(len(legal))])
            done += 1
            if (steps is not None and done >= steps) or (
                done % 256 == 0 and not _more(start, seconds, steps, done)
            ):
                break
    return done / (time.perf_counter() - start)


def _more(start: float, seconds: float | None, steps: int | None, done: int) -> bool:
    if steps is not None:
        return done < steps
    assert seconds is not None
    return time.perf_counter() - start < seconds


def instructions_per_step(side: str, *, steps: int, warm_up: int, seed: int) -> float:
    """Machine instructions per decision of one side (``"rummylib"`` or ``"rlcard"``)."""

    def count(total: int) -> int:
        command = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--run-steps",
            side,
            str(total),
            "--seed",
            str(seed),
        ]
        # A fixed hash seed: string hashes, and with them dict and set layouts, are the same
        # in every run (object addresses still vary a little: about 1% between runs).
        fixed = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=fixed)
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if found is None:
            msg = f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}"
            raise RuntimeError(msg)
        return int(found.group(1).replace(",", ""))

    return (count(warm_up + steps) - count(warm_up)) / steps


def _count_instructions(args: argparse.Namespace) -> int:
    """``--instructions``: print each side's instructions per gin step and the ratio."""
    if shutil.which("valgrind") is None:
        print("--instructions needs valgrind (apt install valgrind)")
        return 1
    if importlib.util.find_spec("rlcard") is None:
        print("--instructions needs RLCard: pip install rlcard (or the bench extra)")
        return 1
    mine = instructions_per_step("rummylib", steps=args.steps, warm_up=args.warm_up, seed=args.seed)
    other = instructions_per_step("rlcard", steps=args.steps, warm_up=args.warm_up, seed=args.seed)
    print(f"gin, instructions per step ({args.steps} steps after {args.warm_up})")
    print(f"  rummylib PettingZoo env       {mine:12,.0f}")
    print(f"  RLCard gin-rummy env          {other:12,.0f}")
    print(f"  ratio (RLCard / rummylib)     {other / mine:12.2f}x  (target: 3x)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds for gin")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="*", default=None, help="default: every variant")
    parser.add_argument(
        "--instructions", action="store_true", help="gin: instructions per step, by valgrind"
    )
    parser.add_argument("--steps", type=int, default=2000, help="with --instructions")
    parser.add_argument("--warm-up", type=int, default=1500, help="with --instructions")
    parser.add_argument("--run-steps", nargs=2, metavar=("SIDE", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.run_steps is not None:  # one side's steps, for --instructions
        side, total = args.run_steps[0], int(args.run_steps[1])
        if side == "rummylib":
            pettingzoo_run("gin", seconds=None, steps=total, seed=args.seed, one_deal=True)
        else:
            rlcard_run(seconds=None, steps=total, seed=args.seed)
        return 0

    if args.instructions:
        return _count_instructions(args)

    if "gin" in VARIANTS:
        ours: list[float] = []
        bare: list[float] = []
        peer: list[float] = []
        for _ in range(args.rounds):
            timing = {"seconds": args.seconds, "steps": None, "seed": args.seed}
            ours.append(pettingzoo_run("gin", **timing, one_deal=True))
            bare.append(pettingzoo_run("gin", **timing, raw=True, one_deal=True))
            rate = rlcard_run(**timing)
            if rate is not None:
                peer.append(rate)
        print(f"gin, one deal per episode (best of {args.rounds} rounds of {args.seconds:g} s)")
        print(f"  rummylib PettingZoo env       {max(ours):10,.0f} steps/s")
        print(f"  rummylib, without the wrapper {max(bare):10,.0f} steps/s")
        if peer:
            print(f"  RLCard gin-rummy env          {max(peer):10,.0f} steps/s")
            print(f"  ratio (wrapped env / RLCard)  {max(ours) / max(peer):10.2f}x  (target: 3x)")
            print(f"  ratio (bare env / RLCard)     {max(bare) / max(peer):10.2f}x")
        else:
            print("  RLCard is not installed: pip install rlcard (or the bench extra)")
    else:
        print("gin is not registered: no comparison with RLCard")

    names = args.variants if args.variants is not None else list(VARIANTS)
    print(f"\nevery variant, whole matches, fewest players ({args.seconds:g} s each)")
    for name in names:
        rate = pettingzoo_run(name, seconds=args.seconds, steps=None, seed=args.seed)
        print(f"  {name:22s} {rate:10,.0f} steps/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
