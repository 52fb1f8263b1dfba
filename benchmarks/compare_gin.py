"""Random-play games per second: rummylib's gin against OpenSpiel's and RLCard's gin rummy.

Needs the ``bench`` extra (``pip install -e '.[bench]'``: ``open-spiel`` and ``rlcard``); run
from the repository root::

    python benchmarks/compare_gin.py [--games 300] [--seed 0]

Each library plays the same number of single deals, every move chosen uniformly at random
among the legal ones by a seeded :class:`random.Random` in the loop shown below; the time
includes asking for the legal moves at every decision. The libraries take turns, ``--rounds``
rounds of the same deals each (A B C A B C …), and each library's best round is reported: on a
shared machine a burst of other work then slows a round of one library, not the comparison.

* rummylib: ``new_game(GinRummy(target_score=None), players=2, seed=…)`` per game, then
  ``state.apply(rng.choice(state.legal_actions()))`` until ``state.is_over``.
* OpenSpiel: ``pyspiel.load_game("gin_rummy").new_initial_state()`` per game (C++ behind the
  Python binding); chance nodes (the deal, each stock draw) are sampled from
  ``chance_outcomes()``, decisions from ``legal_actions()``.
* RLCard: the bare game, ``rlcard.games.gin_rummy.game.GinRummyGame``: ``init_game()`` per game,
  then ``step(rng.choice(game.judge.get_legal_actions()))`` until ``is_over()`` (pure Python;
  no environment wrapper, no state encoding).

The three play the same game only roughly (RLCard has no first-upcard offer and no wall rule
of OpenSpiel's kind, and its deal ends with score actions), so the decisions per game are
printed beside the rates. The figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummylib import new_game
from rummylib.variants.gin import GinRummy


def rummylib_games(games: int, seed: int) -> tuple[float, int]:
    """Seconds for ``games`` random deals, and the decisions they took."""
    variant = GinRummy(target_score=None)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for number in range(games):
        state = new_game(variant, players=2, seed=seed + number)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return time.perf_counter() - start, decisions


def openspiel_games(games: int, seed: int) -> tuple[float, int] | None:
    """The same for OpenSpiel's ``gin_rummy``, or ``None`` if pyspiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return time.perf_counter() - start, decisions


def rlcard_games(games: int, seed: int) -> tuple[float, int] | None:
    """The same for RLCard's bare ``GinRummyGame``, or ``None`` if rlcard is not installed."""
    try:
        import numpy as np  # noqa: PLC0415
        from rlcard.games.gin_rummy.game import (  # type: ignore[import-not-found]  # noqa: PLC0415
            GinRummyGame,
        )
    except ImportError:
        return None
    game: Any = GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.judge.get_legal_actions()))
            decisions += 1
    return time.perf_counter() - start, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random deals per library")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; best kept")
    args = parser.parse_args(argv)

    runs: dict[str, Callable[[int, int], tuple[float, int] | None]] = {
        "rummylib gin": rummylib_games,
        "OpenSpiel gin_rummy": openspiel_games,
        "RLCard gin-rummy (Game.step)": rlcard_games,
    }
    rates: dict[str, float] = {}
    decisions: dict[str, int] = {}
    print(f"{args.games} random deals each, seed {args.seed}, best of {args.rounds} rounds")
    for _ in range(args.rounds):
        for name, run in runs.items():
            measured = run(args.games, args.seed)
            if measured is None:
                continue
            seconds, decisions[name] = measured
            rates[name] = max(rates.get(name, 0.0), args.games / seconds)
    for name in runs:
        if name not in rates:
            print(f"  {name:30s} not installed (pip install -e '.[bench]')")
            continue
        print(
            f"  {name:30s} {rates[name]:9,.1f} games/s  "
            f"{decisions[name] / args.games:6.1f} decisions/game"
        )
    ours = rates["rummylib gin"]
    for name, rate in rates.items():
        if name != "rummylib gin":
            print(f"  rummylib / {name:19s} {ours / rate:9.3f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
