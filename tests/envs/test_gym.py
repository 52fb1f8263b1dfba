"""rummylib.envs.gym: Gymnasium's checker for every variant, registration, the episode."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

gymnasium: Any = pytest.importorskip(
    "gymnasium", reason="the Gymnasium environments need the rl extra (gymnasium)"
)

import numpy as np  # noqa: E402  (after the importorskip)
from gymnasium.utils.env_checker import check_env  # noqa: E402

from rummylib.actions import Action  # noqa: E402
from rummylib.bots import GreedyBot, RandomBot  # noqa: E402
from rummylib.envs.encoding import score_sign  # noqa: E402
from rummylib.envs.gym import SingleAgentEnv, env_id, register_envs  # noqa: E402
from rummylib.errors import ConfigurationError, IllegalActionError  # noqa: E402
from rummylib.views import Observation  # noqa: E402
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
    with pytest.raises(ConfigurationError, match="gin is for 2 players, not 3"):
        SingleAgentEnv("gin", opponents=[GreedyBot(), GreedyBot()])


# gin, seed 7, the agent at seat 0: the legal numbers are 1 and 56, of 215.
def _gin_at_seed_7() -> Any:
    environment = SingleAgentEnv("gin")
    observation, _ = environment.reset(seed=7)
    assert np.flatnonzero(observation["action_mask"]).tolist() == [1, 56]
    return environment


@pytest.mark.parametrize(
    "action",
    [56.9, 56.0, "56", True, np.bool_(True), None, np.float64(56), -1, 215, 10**30],
    ids=repr,
)
def test_an_action_outside_the_action_space_raises_and_changes_nothing(action: Any) -> None:
    environment = _gin_at_seed_7()
    state = environment.match.state
    with pytest.raises(IllegalActionError, match="not in the action space"):
        environment.step(action)
    assert environment.match.state is state
    assert environment.match.actions == 0
    # The episode goes on, as if the refused action had never been tried.
    untouched = _gin_at_seed_7()
    observation, reward, terminated, truncated, info = environment.step(56)
    expected = untouched.step(56)
    assert (observation["observation"] == expected[0]["observation"]).all()
    assert (reward, terminated, truncated, info) == (*expected[1:4], {})
    assert not terminated


@pytest.mark.parametrize("action", [np.int64(56), np.int32(56), np.uint8(56), np.array(56)])
def test_numpy_integers_are_actions(action: Any) -> None:
    environment, with_an_int = _gin_at_seed_7(), _gin_at_seed_7()
    observation, _, terminated, _, info = environment.step(action)
    assert (terminated, info) == (False, {})
    assert (observation["observation"] == with_an_int.step(56)[0]["observation"]).all()
    assert environment.match.actions == with_an_int.match.actions


def test_a_random_bot_subclass_keeps_its_choose_and_is_reseeded() -> None:
    class RecordingBot(RandomBot):
        draws: ClassVar[list[float]] = []

        def choose(self, observation: Observation) -> Action:
            RecordingBot.draws.append(self._random.random())
            return super().choose(observation)

    prototype = RecordingBot(seed=0)
    environment = SingleAgentEnv("gin", opponents=[prototype], seat=1)  # the bot moves first
    environment.reset(seed=1)
    first = list(RecordingBot.draws)
    assert first, "the subclass's choose was never called"
    # Reseeded from the environment's generator, not a copy of the prototype's.
    assert first[0] != random.Random(0).random()
    RecordingBot.draws.clear()
    environment.reset(seed=1)
    assert RecordingBot.draws == first
    RecordingBot.draws.clear()
    environment.reset(seed=2)
    assert RecordingBot.draws[0] != first[0]


def test_a_random_bot_subclass_that_skips_random_bot_s_init_still_plays() -> None:
    class FirstActionBot(RandomBot):
        calls: ClassVar[int] = 0

        def __init__(self) -> None:  # no generator of RandomBot's
            pass

        def choose(self, observation: Observation) -> Action:
            FirstActionBot.calls += 1
            return observation.legal_actions[0]

    environment = SingleAgentEnv("gin", opponents=[FirstActionBot()], seat=1)
    environment.reset(seed=1)
    assert FirstActionBot.calls > 0


def test_step_render_and_action_masks_before_reset_raise() -> None:
    environment = SingleAgentEnv("gin", render_mode="ansi")
    with pytest.raises(IllegalActionError, match=r"call reset\(\) before step\(\)"):
        environment.step(1)
    with pytest.raises(IllegalActionError, match=r"call reset\(\) before step\(\)"):
        environment.step(56)
    with pytest.raises(IllegalActionError, match=r"call reset\(\) before render\(\)"):
        environment.render()
    with pytest.raises(IllegalActionError, match=r"call reset\(\) before action_masks\(\)"):
        environment.action_masks()
    assert environment.match.actions == 0
    observation, _ = environment.reset(seed=7)
    assert np.flatnonzero(observation["action_mask"]).tolist() == [1, 56]
    assert np.flatnonzero(environment.action_masks()).tolist() == [1, 56]


def _never_built(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("the match was built before the arguments were checked")


@pytest.mark.parametrize(
    "reward", ["x", None, True, float("nan"), float("inf"), -float("inf"), [1]], ids=repr
)
def test_a_bad_illegal_reward_is_refused_before_the_match_is_built(
    reward: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rummylib.envs.gym.Match", _never_built)
    with pytest.raises(ConfigurationError, match="illegal_reward must be a finite number"):
        SingleAgentEnv("gin", illegal_reward=reward)


@pytest.mark.parametrize(
    ("name", "opponents", "message"),
    [
        ("gin", [], r"at least one opponent is needed: gin takes 1 opponent \(it is for 2 to 2"),
        ("rummy101", [], "at least one opponent is needed: rummy101 takes 1 to 5 opponents"),
        ("gin", GreedyBot(), "must be a list of bots, one per other seat, not a single GreedyBot"),
        ("gin", "greedy", "must be a list of bots, not the text 'greedy'"),
        ("gin", GreedyBot, r"must be a list of bots, not the class GreedyBot: pass \[GreedyBot"),
        ("gin", [GreedyBot], r"the class GreedyBot: pass an instance, GreedyBot\(\)"),
        ("gin", 3, "opponents must be a list of bots, one per other seat, not 3"),
    ],
    ids=["empty", "empty-rummy101", "one-bot", "string", "class", "class-in-list", "number"],
)
def test_bad_opponents_are_refused_before_the_match_is_built(
    name: str, opponents: Any, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rummylib.envs.gym.Match", _never_built)
    with pytest.raises(ConfigurationError, match=message):
        SingleAgentEnv(name, opponents=opponents)
