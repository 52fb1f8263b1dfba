"""Shared by the rl-environment tests: the variants, and playouts that reach every phase."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

# Collected for doctests too: without the rl extra, skipped like the tests that use it.
pytest.importorskip("numpy", reason="rummylib.envs needs the rl extra (numpy)")

from rummylib.bots import GreedyBot
from rummylib.engine import Variant
from rummylib.envs.encoding import ActionTable
from rummylib.registry import VARIANTS, get_variant
from rummylib.state import GameState, new_game

#: Every registered variant (the example plugin knock7 included: the root conftest.py makes it
#: visible), so a variant added later is covered without touching these tests.
VARIANT_NAMES = sorted(VARIANTS)


def variant(name: str) -> Variant:
    return get_variant(name)


def seat_counts(name: str) -> list[int]:
    """The fewest and the most players of a variant (both, when they differ)."""
    game = get_variant(name)
    return sorted({game.min_players, game.max_players})


def playout(
    name: str, *, seed: int, players: int, steps: int, greedy: float = 0.5
) -> Iterator[GameState]:
    """States of one match: random action numbers, mixed with GreedyBot's moves.

    Random numbers alone rarely finish a hand (no declaration, knock or lay-off is reached);
    the greedy moves make the later phases of every deal appear.
    """
    rng = random.Random(seed)
    state = new_game(name, players=players, seed=seed)
    table = ActionTable.for_variant(state.variant)
    bot = GreedyBot()
    for _ in range(steps):
        yield state
        if state.is_over:
            return
        player = state.to_act[0]
        if rng.random() < greedy:
            action = bot.choose(state.observation(player))
        else:
            action = table.decode(state, player, rng.choice(table.numbers(state, player)))
        state = state.apply(action)
