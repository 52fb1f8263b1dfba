"""rummylib.envs.openspiel: OpenSpiel's random simulation test for every variant."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

pyspiel: Any = pytest.importorskip(
    "pyspiel", reason="the OpenSpiel games need open-spiel (pip install open-spiel)"
)

import numpy as np  # noqa: E402  (after the importorskip)

from rummylib.cards import CARDS  # noqa: E402
from rummylib.envs.openspiel import SEED_OUTCOMES, game_name, register  # noqa: E402
from rummylib.state import new_game  # noqa: E402
from tests.envs.helpers import VARIANT_NAMES, seat_counts, variant  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register()


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_random_sim_test(name: str) -> None:
    # A short max_actions keeps Rummy 71/101 (random play rarely completes a hand) quick; the
    # cut itself is part of what is tested: the game ends with returns 0.
    for players in seat_counts(name):
        game = pyspiel.load_game(game_name(name), {"players": players, "max_actions": 300})
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["gin", "knock7"])
def test_whole_matches(name: str) -> None:
    game = pyspiel.load_game(game_name(name), {"one_deal": False, "max_actions": 1000})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_deal_is_explicit_chance() -> None:
    game = pyspiel.load_game("rummylib_rummy101", {"players": 3})
    state = game.new_initial_state()
    deck = variant("rummy101").deck_for(3)
    order: list[int] = []
    while state.is_chance_node() and len(order) < len(deck):
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        kind = outcomes[-1][0]
        order.append(kind)
        state.apply_action(kind)
    assert Counter(order) == Counter(card.index for card in deck)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == SEED_OUTCOMES
    state.apply_action(17)
    assert state.current_player() == 0
    # The match is the one rummylib deals from that deck and seed.
    expected = new_game("rummy101", players=3, seed=17, deck=[CARDS[i] for i in order])
    assert state.match is not None
    assert state.match.hands == expected.hands
    assert state.match.stock == expected.stock


def test_observation_tensor_is_the_encoder_vector() -> None:
    game = pyspiel.load_game("rummylib_gin")
    state = game.new_initial_state()
    assert not any(state.observation_tensor(0))  # nothing is seen while dealing
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    tensor = np.array(state.observation_tensor(0), dtype=np.float32)
    hand = tensor[game.encoder.layout["hand"]]
    assert hand.sum() == 10
    assert "hand" in state.observation_string(0)
    assert game.num_distinct_actions() == game.table.size


def test_legal_actions_are_the_table_numbers_sorted() -> None:
    game = pyspiel.load_game("rummylib_carousel", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        legal = state.legal_actions()
        assert legal == sorted(legal)
        assert state.match is not None
        assert legal == list(game.table.numbers(state.match, state.current_player()))
        state.apply_action(int(rng.choice(legal)))


def test_register_is_idempotent_and_names_every_variant() -> None:
    names = register()
    assert names == register()
    assert set(names) == {game_name(name) for name in VARIANT_NAMES}
    assert set(names) <= set(pyspiel.registered_names())
