"""Steps per second of rummylib's PettingZoo environments, and of RLCard's gin env beside ours.

Needs the ``rl`` extra (``pip install -e '.[rl]'``) and, for the comparison, ``rlcard`` (in
the ``bench`` extra); run from the repository root::

    python benchmarks/compare_envs.py [--seconds 10] [--seed 0] [--variants gin rummy101 ...]

Both sides run the loop an agent runs: read the observation and the legal moves of the player
to act, pick a legal move uniformly at random, step; a new episode when one ends. A *step* is
one decision (PettingZoo's steps that only retire a finished agent are not counted).

* rummylib: ``rummylib.envs.pettingzoo.env(variant)`` (the wrapped environment users get),
  reading ``last()`` (the observation vector and the action mask) before every step, whole
  matches with the variant's default settings and fewest players. For gin also
  ``one_deal=True``, one deal per episode as RLCard plays it.
* RLCard: ``rlcard.make("gin-rummy")``, one deal per episode, reading the state it returns
  from every step (its observation and legal actions).

The runs alternate between the two, ``--rounds`` times each, and the best round is kept (to
filter out other processes on a shared machine). The target of issue 15 is rummylib at least
3x RLCard.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from rummylib.envs.pettingzoo import env, raw_env
from rummylib.registry import VARIANTS


def pettingzoo_steps(
    name: str, seconds: float, seed: int, *, raw: bool = False, **options: Any
) -> float:
    """Decisions per second in rummylib's PettingZoo environment for ``name``.

    ``raw``: the bare environment, without PettingZoo's wrappers.
    """
    game = (raw_env if raw else env)(name, **options)
    rng = np.random.default_rng(seed)
    steps = 0
    episode = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.reset(seed=seed + episode)
        episode += 1
        for _agent in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            game.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() - start >= seconds:
                break
    return steps / (time.perf_counter() - start)


def rlcard_steps(seconds: float, seed: int) -> float | None:
    """Decisions per second in RLCard's gin env, or ``None`` if RLCard is not installed."""
    try:
        import rlcard  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return None
    game = rlcard.make("gin-rummy", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = game.reset()
        while not game.is_over():
            legal = list(state["legal_actions"])
            state, _ = game.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() - start >= seconds:
                break
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds for gin")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="*", default=None, help="default: every variant")
    args = parser.parse_args(argv)

    if "gin" in VARIANTS:
        ours: list[float] = []
        bare: list[float] = []
        theirs: list[float] = []
        for _ in range(args.rounds):
            ours.append(pettingzoo_steps("gin", args.seconds, args.seed, one_deal=True))
            bare.append(pettingzoo_steps("gin", args.seconds, args.seed, raw=True, one_deal=True))
            peer = rlcard_steps(args.seconds, args.seed)
            if peer is not None:
                theirs.append(peer)
        print(f"gin, one deal per episode (best of {args.rounds} rounds of {args.seconds:g} s)")
        print(f"  rummylib PettingZoo env       {max(ours):10,.0f} steps/s")
        print(f"  rummylib, without wrappers    {max(bare):10,.0f} steps/s")
        if theirs:
            print(f"  RLCard gin-rummy env          {max(theirs):10,.0f} steps/s")
            print(f"  ratio (wrapped env / RLCard)  {max(ours) / max(theirs):10.2f}x  (target: 3x)")
            print(f"  ratio (bare env / RLCard)     {max(bare) / max(theirs):10.2f}x")
        else:
            print("  RLCard is not installed: pip install rlcard (or the bench extra)")
    else:
        print("gin is not registered: no comparison with RLCard")

    names = args.variants if args.variants is not None else list(VARIANTS)
    print(f"\nevery variant, whole matches, fewest players ({args.seconds:g} s each)")
    for name in names:
        rate = pettingzoo_steps(name, args.seconds, args.seed)
        print(f"  {name:22s} {rate:10,.0f} steps/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
