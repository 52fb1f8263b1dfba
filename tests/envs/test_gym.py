"""rummylib.envs.gym: Gymnasium's checker for every variant, registration, the episode."""

from __future__ import annotations

from typing import Any

import pytest

gymnasium: Any = pytest.importorskip(
    "gymnasium", reason="the Gymnasium environments need the rl extra (gymnasium)"
)

import numpy as np  # noqa: E402  (after the importorskip)
from gymnasium.utils.env_checker import check_env  # noqa: E402

from rummylib.bots import GreedyBot, RandomBot  # noqa: E402
from rummylib.envs.encoding import score_sign  # noqa: E402
from rummylib.envs.gym import SingleAgentEnv, env_id, register_envs  # noqa: E402
from rummylib.errors import ConfigurationError  # noqa: E402
from tests.envs.helpers import VARIANT_NAMES  # noqa: E402


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_gymnasium_check_env(name: str) -> None:
    environment = gymnasium.make(env_id(name), opponents=[RandomBot(seed=1)])
    check_env(environment.unwrapped)
    environment.close()


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_every_registered_variant_has_an_id(name: str) -> None:
    register_envs()
    assert env_id(name) in gymnasium.registry
    environment = gymnasium.make(env_id(name))
    observation, _ = environment.reset(seed=0)
    assert environment.observation_space.contains(observation)
    environment.close()


def _episode(environment: Any, seed: int) -> tuple[float, list[Any]]:
    observation, _ = environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    seen = [observation]
    while True:
        number = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = environment.step(number)
        seen.append(observation)
        total += float(reward)
        if terminated or truncated:
            return total, seen


def test_the_episode_reward_is_the_signed_final_score() -> None:
    environment = SingleAgentEnv("knock7", opponents=[GreedyBot(), RandomBot(seed=3)], seat=1)
    total, _ = _episode(environment, seed=5)
    state = environment.match.state
    assert state.is_over
    assert total == score_sign(state.variant) * state.scores[1]


def test_a_seeded_reset_replays_the_episode() -> None:
    environment = SingleAgentEnv("gin", opponents=[RandomBot(seed=9)], one_deal=True)
    first = _episode(environment, seed=11)
    second = _episode(environment, seed=11)
    assert first[0] == second[0]
    assert len(first[1]) == len(second[1])
    for one, two in zip(first[1], second[1], strict=True):
        assert (one["observation"] == two["observation"]).all()


def test_an_illegal_number_ends_the_episode() -> None:
    environment = SingleAgentEnv("rummy101", illegal_reward=-5)
    observation, _ = environment.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info) == (-5.0, True, False, {"illegal_action": True})
    assert not environment.action_masks().any()


def test_max_actions_truncates() -> None:
    environment = SingleAgentEnv("rummy71", max_actions=30)
    observation, _ = environment.reset(seed=0)
    for _ in range(30):
        number = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, terminated, truncated, _ = environment.step(number)
        if truncated:
            break
        assert not terminated
    assert truncated
    assert environment.match.actions >= 30


def test_ansi_rendering() -> None:
    environment = SingleAgentEnv("carousel", render_mode="ansi")
    environment.reset(seed=1)
    text = environment.render()
    assert text is not None
    assert "carousel deal 1" in text


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="seat must be"):
        SingleAgentEnv("gin", seat=2)
    with pytest.raises(ConfigurationError, match="not a bot"):
        SingleAgentEnv("gin", opponents=["greedy"])  # type: ignore[list-item]
    with pytest.raises(ConfigurationError, match="gin is for 2 to 2 players"):
        SingleAgentEnv("gin", opponents=[GreedyBot(), GreedyBot()])
