"""rummylib.envs.openspiel: OpenSpiel's random simulation test for every variant."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pyspiel: Any = pytest.importorskip(
    "pyspiel", reason="the OpenSpiel games need open-spiel (pip install open-spiel)"
)

import numpy as np  # noqa: E402  (after the importorskip)

import rummylib  # noqa: E402
from rummylib.cards import CARDS  # noqa: E402
from rummylib.envs.encoding import ActionTable  # noqa: E402
from rummylib.envs.openspiel import SEED_OUTCOMES, game_name, register  # noqa: E402
from rummylib.errors import IllegalActionError, UnknownVariantError  # noqa: E402
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


def test_register_takes_one_name_or_a_sequence() -> None:
    assert register("gin") == ["rummylib_gin"]
    assert register(("gin", "rummy101")) == ["rummylib_gin", "rummylib_rummy101"]
    # A single unknown name is reported whole, not letter by letter.
    with pytest.raises(UnknownVariantError, match="unknown variant 'nope'"):
        register("nope")


# -- bad numbers ------------------------------------------------------------------------------


def _snapshot(state: Any) -> tuple[object, ...]:
    """Everything a caller can see of a state (the match by identity: it is never mutated)."""
    if state.is_chance_node():
        offered = tuple(state.chance_outcomes())
    else:
        offered = tuple(state.legal_actions())
    return (
        tuple(state.history()),
        state.move_number(),
        str(state),
        state.current_player(),
        state.is_terminal(),
        tuple(state.returns()),
        offered,
        id(state.match),
    )


def _advance(state: Any, rng: np.random.Generator) -> None:
    """One random chance outcome or legal move."""
    if state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def _at_seed_node(game: Any) -> Any:
    state = game.new_initial_state()
    while len(state.chance_outcomes()) != SEED_OUTCOMES:
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize(
    ("params", "cut"), [({"max_actions": 3}, True), ({"one_deal": True}, False)]
)
def test_a_terminal_state_refuses_every_move(params: dict[str, Any], cut: bool) -> None:
    game = pyspiel.load_game("rummylib_gin", params)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        _advance(state, rng)
    match = state.match
    assert match is not None
    if cut:
        assert not match.is_over
        assert len(match.deal_results) == 0
    else:
        assert len(match.deal_results) == 1  # the first deal was scored
    # The match itself would take these numbers: only the end of the game refuses them.
    numbers = list(ActionTable.for_variant(match.variant).numbers(match, match.to_act[0]))
    assert numbers
    assert state.legal_actions() == []
    before = _snapshot(state)
    for number in numbers[:3]:
        with pytest.raises(IllegalActionError, match="the game is over"):
            state.apply_action(number)
        assert _snapshot(state) == before


@pytest.mark.parametrize("bad", [SEED_OUTCOMES, 10**6, -7])
def test_the_seed_node_refuses_outcomes_it_does_not_offer(bad: int) -> None:
    state = _at_seed_node(pyspiel.load_game("rummylib_gin"))
    before = _snapshot(state)
    with pytest.raises(ValueError, match=f"no seed {bad}: the seed outcomes are 0 to 1023"):
        state.apply_action(bad)
    assert _snapshot(state) == before
    assert state.is_chance_node()
    assert state.match is None
    state.apply_action(SEED_OUTCOMES - 1)  # the last outcome offered is taken
    assert state.current_player() == 0


@pytest.mark.parametrize(
    ("bad", "message"), [(52, r"no \* left"), (53, "no 53 left"), (-7, "no -7 left")]
)
def test_a_card_node_refuses_outcomes_it_does_not_offer(bad: int, message: str) -> None:
    state = pyspiel.load_game("rummylib_gin").new_initial_state()
    before = _snapshot(state)
    with pytest.raises(ValueError, match=message):
        state.apply_action(bad)
    assert _snapshot(state) == before


def test_chance_labels_refuse_outcomes_that_are_not_offered() -> None:
    card = pyspiel.load_game("rummylib_gin").new_initial_state()
    assert card.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal Ac"
    for bad in (53, 99, -1):
        with pytest.raises(ValueError, match=f"no card kind {bad}: the kinds are 0 to 52"):
            card.action_to_string(pyspiel.PlayerId.CHANCE, bad)
    seed = _at_seed_node(pyspiel.load_game("rummylib_gin"))
    assert seed.action_to_string(pyspiel.PlayerId.CHANCE, 1023) == "seed 1023"
    with pytest.raises(ValueError, match="no seed 1024: the seed outcomes are 0 to 1023"):
        seed.action_to_string(pyspiel.PlayerId.CHANCE, 1024)


def _every_node_kind() -> list[tuple[str, Any]]:
    game = pyspiel.load_game("rummylib_gin", {"max_actions": 2})
    card = game.new_initial_state()
    seed = _at_seed_node(game)
    move = seed.clone()
    move.apply_action(0)
    over = move.clone()
    rng = np.random.default_rng(1)
    while not over.is_terminal():
        _advance(over, rng)
    return [("card", card), ("seed", seed), ("move", move), ("over", over)]


@pytest.mark.parametrize("bad", [1.0, 1.5, np.float64(1.0), "1", None, True, False])
def test_no_node_takes_a_number_that_is_not_whole(bad: object) -> None:
    for kind, state in _every_node_kind():
        before = _snapshot(state)
        # What reaches _apply_action when called directly: refused before anything changes.
        with pytest.raises(IllegalActionError, match="expected a whole number"):
            state._apply_action(bad)
        assert _snapshot(state) == before, kind
        if not isinstance(bad, bool):
            # pyspiel itself refuses these before Python sees them (it turns a bool into 0/1).
            with pytest.raises(TypeError, match="incompatible function arguments"):
                state.apply_action(bad)
            assert _snapshot(state) == before, kind


def test_pyspiel_refuses_minus_one_and_numpy_integers_are_numbers() -> None:
    state = pyspiel.load_game("rummylib_gin").new_initial_state()
    before = _snapshot(state)
    with pytest.raises(pyspiel.SpielError, match="kInvalidAction"):
        state.apply_action(-1)  # OpenSpiel's invalid action, refused before Python sees it
    assert _snapshot(state) == before
    state.apply_action(np.int64(7))
    assert state.history() == [7]


# -- pickling ---------------------------------------------------------------------------------


def _play_alike(first: Any, second: Any, *, seed: int, steps: int) -> list[int]:
    """Play the same random numbers in two states, checking they stay alike; the numbers."""
    first_state, second_state = first.new_initial_state(), second.new_initial_state()
    rng = np.random.default_rng(seed)
    played: list[int] = []
    for _ in range(steps):
        assert _snapshot(first_state)[:-1] == _snapshot(second_state)[:-1]
        if first_state.is_terminal():
            break
        if first_state.is_chance_node():
            outcomes, probabilities = zip(*first_state.chance_outcomes(), strict=True)
            number = int(rng.choice(outcomes, p=probabilities))
        else:
            assert first_state.observation_tensor(first_state.current_player()) == (
                second_state.observation_tensor(second_state.current_player())
            )
            number = int(rng.choice(first_state.legal_actions()))
        first_state.apply_action(number)
        second_state.apply_action(number)
        played.append(number)
    return played


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("gin", {}),
        ("rummy101", {"players": 3, "one_deal": False, "max_actions": 40}),
        ("knock7", {"max_actions": 30}),
    ],
)
def test_games_pickle_and_play_as_the_original(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(game_name(name), params)
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert type(twin) is type(game)
        assert twin.get_parameters() == game.get_parameters()
        assert twin.variant.name == name
        assert (twin.players, twin.one_deal, twin.max_actions) == (
            params.get("players", 2),
            params.get("one_deal", True),
            params.get("max_actions", 2000),
        )
        played = _play_alike(game, twin, seed=11, steps=120)
        assert len(played) > 60  # past the deal (53 or more chance nodes) into the play


_FRESH = """
import json, pickle, sys
import numpy as np
import pyspiel
data = json.load(sys.stdin)
before = "rummylib_gin" in pyspiel.registered_names()
game = pickle.loads(bytes.fromhex(data["game"]))  # no register() call: unpickling does it
state = game.new_initial_state()
for number in data["played"]:
    state.apply_action(number)
restored = pickle.loads(bytes.fromhex(data["state"]))  # needs the game registered: it is
print(json.dumps({
    "registered_before": before,
    "type": type(game).__name__,
    "params": game.get_parameters(),
    "history": state.history(),
    "legal": state.legal_actions(),
    "returns": state.returns(),
    "restored_history": restored.history(),
    "restored_legal": restored.legal_actions(),
}))
"""


def test_games_and_states_unpickle_in_a_fresh_process() -> None:
    game = pyspiel.load_game("rummylib_gin", {"max_actions": 25})
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        _advance(state, rng)
    played = state.history()
    middle = game.new_initial_state()
    for number in played[:60]:
        middle.apply_action(number)
    assert middle.legal_actions()  # a player's turn, after the deal
    data = {"game": pickle.dumps(game).hex(), "state": pickle.dumps(middle).hex(), "played": played}
    root = Path(rummylib.__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", _FRESH],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        cwd=root,
        check=True,
        timeout=120,
    )
    seen = json.loads(result.stdout)
    assert seen["registered_before"] is False
    assert seen["type"] == "RummyGame_gin"
    assert seen["params"] == {"players": 2, "one_deal": True, "max_actions": 25}
    assert seen["history"] == played
    assert seen["legal"] == []
    assert seen["returns"] == state.returns()
    assert seen["restored_history"] == played[:60]
    assert seen["restored_legal"] == middle.legal_actions()


def test_states_pickle_and_clone() -> None:
    game = pyspiel.load_game("rummylib_carousel", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    while state.match is None:
        _advance(state, rng)
    for _ in range(20):
        _advance(state, rng)
    assert state.match is not None
    assert not state.is_terminal()
    for twin in (pickle.loads(pickle.dumps(state)), state.clone()):
        assert _snapshot(twin)[:-1] == _snapshot(state)[:-1]
        for player in range(3):  # the tensor includes the taken cards
            assert twin.observation_tensor(player) == state.observation_tensor(player)
            assert twin.observation_string(player) == state.observation_string(player)
        before = _snapshot(state)
        number = state.legal_actions()[0]
        twin.apply_action(number)
        assert _snapshot(state) == before  # the original does not move with its copy
        assert twin.history() == [*state.history(), number]
