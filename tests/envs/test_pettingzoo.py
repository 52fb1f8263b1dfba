"""rummylib.envs.pettingzoo: PettingZoo's own checkers for every variant, then the details."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pettingzoo_test: Any = pytest.importorskip(
    "pettingzoo.test", reason="the PettingZoo environments need the rl extra (pettingzoo)"
)

import numpy as np  # noqa: E402  (after the importorskip)
from pettingzoo import AECEnv  # noqa: E402

from rummylib.bots import GreedyBot  # noqa: E402
from rummylib.envs.encoding import score_sign  # noqa: E402
from rummylib.envs.pettingzoo import RummyEnv, env, raw_env  # noqa: E402
from rummylib.errors import ConfigurationError, IllegalActionError  # noqa: E402
from tests.envs.helpers import VARIANT_NAMES  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent


# PettingZoo's api_test warns about two conventions it exempts its own classic games from, by
# name: a Dict observation {"observation", "action_mask"} (its chess, go and poker environments
# use it, and issue 15 asks for it). Every other warning of the checkers fails the test.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_pettingzoo_api_test(name: str) -> None:
    pettingzoo_test.api_test(env(name), num_cycles=1000)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_pettingzoo_seed_test(name: str) -> None:
    pettingzoo_test.seed_test(lambda: env(name), num_cycles=500)


def _play(game: Any, seed: int, steps: int = 100_000) -> dict[str, float]:
    """Random legal numbers to the end; the rewards each agent collected."""
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter(steps):
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def test_score_rewards_add_up_to_the_final_scores() -> None:
    game = raw_env("knock7", players=3)
    totals = _play(game, seed=4)
    scores = game.match.state.scores
    assert game.match.state.is_over
    assert [totals[f"player_{seat}"] for seat in range(3)] == [float(s) for s in scores]


def test_penalty_points_are_negative_rewards() -> None:
    # GreedyBot's moves, played as numbers: Rummy 71 penalties come back as negative rewards.
    game = raw_env("rummy71", players=3)
    game.reset(seed=2)
    bot = GreedyBot()
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter(20_000):
        _, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        seat = game.possible_agents.index(agent)
        state = game.match.state
        number = game.match.table.number_of(state, bot.choose(state.observation(seat)))
        assert number is not None
        game.step(number)
    state = game.match.state
    assert state.is_over
    assert score_sign(state.variant) == -1
    assert any(state.scores)
    assert [totals[f"player_{seat}"] for seat in range(3)] == [-float(s) for s in state.scores]


@pytest.mark.parametrize("seed", range(4))
def test_win_rewards_pay_the_deal_winner_at_the_end_only(seed: int) -> None:
    game = raw_env("gin", rewards="win", one_deal=True)
    totals = _play(game, seed=seed)
    state = game.match.state
    points = state.deal_results[0].points
    best = max(points)
    expected = [0.0, 0.0] if min(points) == best else [1.0 if p == best else -1.0 for p in points]
    assert [totals["player_0"], totals["player_1"]] == expected


def test_one_deal_ends_the_episode_when_the_first_deal_is_scored() -> None:
    game = raw_env("gin", one_deal=True)
    _play(game, seed=3)
    assert len(game.match.state.deal_results) == 1
    assert not game.agents


def test_max_actions_truncates() -> None:
    game = raw_env("rummy101", max_actions=25)
    game.reset(seed=0)
    steps = 0
    for _agent in game.agent_iter(1000):
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            assert truncated
            assert not terminated
            game.step(None)
            continue
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 25


def test_the_raw_environment_refuses_an_illegal_number() -> None:
    game = raw_env("gin")
    game.reset(seed=1)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        game.step(illegal)


def test_the_wrapped_environment_ends_the_episode_on_an_illegal_number(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = env("gin")
    game.reset(seed=1)
    mask = game.observe(game.agent_selection)["action_mask"]
    mover = game.agent_selection
    game.step(int(np.flatnonzero(mask == 0)[0]))
    assert "Illegal move" in caplog.text
    assert game.rewards[mover] == -1
    assert all(game.terminations.values())


def _snapshot(game: Any) -> tuple[Any, ...]:
    """What a refused step must leave as it was."""
    inner = game.unwrapped
    observation = inner.observe(inner.agent_selection)
    return (
        inner.match.state,
        inner.agent_selection,
        dict(inner.rewards),
        dict(inner.terminations),
        observation["observation"].tobytes(),
        observation["action_mask"].tobytes(),
    )


@pytest.mark.parametrize("action", [56.0, 56.9, "56", True, [56], None])
def test_the_raw_environment_refuses_what_is_not_a_whole_number(action: object) -> None:
    game = raw_env("gin")
    game.reset(seed=1)
    assert game.observe(game.agent_selection)["action_mask"][56] == 1  # pass is legal now
    before = _snapshot(game)
    with pytest.raises(IllegalActionError, match="expected a whole number"):
        game.step(action)
    assert _snapshot(game) == before


def test_the_raw_environment_takes_numpy_integers() -> None:
    game = raw_env("gin")
    game.reset(seed=1)
    game.step(np.int64(56))  # pass
    assert game.unwrapped.match.actions == 1


#: What issue 30 found passing PettingZoo's assertion only, and so accepted under ``python -O``.
NOT_ACTIONS: tuple[object, ...] = (-1, 10**6, 1.0, True, "0", None, 56.0, 215, np.float64(1))


@pytest.mark.parametrize("action", NOT_ACTIONS)
def test_both_environments_refuse_what_is_not_in_the_action_space(action: object) -> None:
    for game in (env("gin"), raw_env("gin"), raw_env("gin", illegal_reward=-1)):
        game.reset(seed=1)
        before = _snapshot(game)
        with pytest.raises(IllegalActionError, match="action"):
            game.step(action)
        assert _snapshot(game) == before
        assert game.agents == ["player_0", "player_1"]


def test_the_wrapped_environment_refuses_bad_actions_under_python_minus_o() -> None:
    # Asserts vanish under -O: run the refusals in a subprocess that has them off.
    script = textwrap.dedent(
        """
        import numpy as np
        from rummylib.envs.pettingzoo import env
        from rummylib.errors import IllegalActionError

        try:
            assert False
        except AssertionError:
            raise SystemExit("asserts are on: not python -O")
        for action in (-1, 10**6, 1.0, True, "0", None, np.float64(1)):
            game = env("gin")
            game.reset(seed=1)
            try:
                game.step(action)
            except IllegalActionError:
                pass
            else:
                raise SystemExit(f"accepted {action!r}")
            if game.agents != ["player_0", "player_1"]:
                raise SystemExit(f"{action!r} ended the game")
        print("refused")
        """
    )
    done = subprocess.run(
        [sys.executable, "-O", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert (done.returncode, done.stdout.strip()) == (0, "refused"), done.stderr


def test_illegal_reward_is_a_setting_of_both_environments(
    caplog: pytest.LogCaptureFixture,
) -> None:
    wrapped = env("gin", illegal_reward=-5)
    wrapped.reset(seed=1)
    mover = wrapped.agent_selection
    wrapped.step(0)  # the stock is not open before the upcard is taken or passed
    assert "Illegal move" in caplog.text
    assert wrapped.rewards[mover] == -5.0
    bare = raw_env("gin", illegal_reward=-2)
    bare.reset(seed=1)
    mover = bare.agent_selection
    bare.step(0)
    assert bare.rewards[mover] == -2.0
    assert all(bare.terminations.values())


@pytest.mark.parametrize("value", ["oops", True, float("nan"), float("inf"), [1]])
def test_a_bad_illegal_reward_is_refused_before_anything_is_built(value: Any) -> None:
    with pytest.raises(ConfigurationError, match="illegal_reward must be"):
        raw_env("gin", illegal_reward=value)
    with pytest.raises(ConfigurationError, match="illegal_reward must be"):
        env("gin", illegal_reward=value)
    with pytest.raises(ConfigurationError, match="illegal_reward must be a finite number"):
        env("gin", illegal_reward=None)  # type: ignore[arg-type]  # what the check is for


def test_the_raw_environment_asks_for_a_reset_first() -> None:
    game = raw_env("gin")
    with pytest.raises(IllegalActionError, match=r"call reset\(\) before step"):
        game.step(56)
    with pytest.raises(IllegalActionError, match=r"call reset\(\) before observe"):
        game.observe("player_0")


@pytest.mark.parametrize("fork", ["deepcopy", "pickle"])
def test_an_environment_forks_mid_episode_and_both_copies_play_on_alike(fork: str) -> None:
    game = env("rummy101", players=3, max_actions=400)
    game.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):  # observations made: the seats' vectors are kept and updated
        observation, *_ = game.last()
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    copied = copy.deepcopy(game) if fork == "deepcopy" else pickle.loads(pickle.dumps(game))
    for _ in range(200):
        if not game.agents:
            break
        ours, reward, terminated, truncated, _ = game.last()
        theirs, their_reward, *_ = copied.last()
        assert np.array_equal(ours["observation"], theirs["observation"])
        assert np.array_equal(ours["action_mask"], theirs["action_mask"])
        assert reward == their_reward
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(ours["action_mask"])))
        game.step(action)
        copied.step(action)
    assert copied.unwrapped.match.state == game.unwrapped.match.state
    assert copied.unwrapped.match.actions == game.unwrapped.match.actions > 40


def test_only_the_selected_agent_has_a_mask() -> None:
    game = raw_env("carousel", players=3)
    game.reset(seed=2)
    selected = game.agent_selection
    for agent in game.agents:
        mask = game.observe(agent)["action_mask"]
        assert bool(mask.any()) == (agent == selected)


def test_ansi_rendering_shows_the_table_and_the_legal_numbers() -> None:
    game = raw_env("rummy500", players=3, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert text is not None
    assert "rummy500 deal 1" in text
    assert "0: take the top card of the stock" in text


def test_settings_and_variants_are_checked() -> None:
    assert raw_env("gin", knock_card=5).variant.settings()["knock_card"] == 5
    with pytest.raises(ConfigurationError, match="bad rewards"):
        raw_env("gin", rewards="money")
    with pytest.raises(ConfigurationError, match="render_mode"):
        raw_env("gin", render_mode="human")
    with pytest.raises(ConfigurationError, match="given with a Variant"):
        raw_env(raw_env("gin").variant, knock_card=5)


def test_the_class_is_an_aec_environment() -> None:
    game = raw_env("turkish300", players=4)
    assert isinstance(game, RummyEnv)
    assert isinstance(game, AECEnv)
    assert game.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert game.metadata["name"] == "rummylib_turkish300_v0"


def test_the_order_wrapper_behaves_as_pettingzoo_s_own() -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: PLC0415

    ours = env("gin", one_deal=True)
    theirs = OrderEnforcingWrapper(RummyEnv("gin", one_deal=True, illegal_reward=-1))
    assert isinstance(ours, OrderEnforcingWrapper)
    assert str(ours) == str(theirs) == "rummylib_gin_v0"
    # Before reset(): the same refusals.
    for name in ("agents", "agent_selection"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(ours, name)
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(theirs, name)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        ours.last()
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        theirs.last()
    # After it: the same agents, observations and rewards, step by step.
    ours.reset(seed=4)
    theirs.reset(seed=4)
    rng = np.random.default_rng(4)
    for agent, other in zip(ours.agent_iter(1000), theirs.agent_iter(1000), strict=True):
        assert agent == other == ours.agent_selection == theirs.agent_selection
        assert ours.agents == theirs.agents
        mine, reward, terminated, truncated, info = ours.last()
        same = theirs.last()
        assert (reward, terminated, truncated, info) == same[1:]
        for key in ("observation", "action_mask"):
            assert (mine[key] == same[0][key]).all()
        number = None
        if not (terminated or truncated):
            number = int(rng.choice(np.flatnonzero(mine["action_mask"])))
        ours.step(number)
        theirs.step(number)
    assert ours.agents == theirs.agents == []


def test_the_order_wrapper_refuses_steps_as_pettingzoo_s_own() -> None:
    from pettingzoo.utils.env_logger import EnvLogger  # noqa: PLC0415
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: PLC0415

    for game in (env("gin"), OrderEnforcingWrapper(RummyEnv("gin", illegal_reward=-1))):
        with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
            game.step(0)
        game.reset(seed=1)
        game.step(0)  # not legal now (the first upcard is offered): the episode ends
        while game.agents:
            game.step(None)
        EnvLogger.mqueue.clear()
        game.step(None)
        assert EnvLogger.mqueue == [
            "[WARNING]: step() called after all agents are terminated or truncated. "
            "Should reset() first."
        ]


def test_the_agent_loop_is_checked_as_pettingzoo_s_own() -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: PLC0415

    for game in (env("gin"), OrderEnforcingWrapper(RummyEnv("gin", illegal_reward=-1))):
        with pytest.raises(
            AssertionError, match="reset\\(\\) needs to be called before agent_iter"
        ):
            game.agent_iter()
        game.reset(seed=2)
        loop = iter(game.agent_iter(max_iter=4))  # the refused turn counts too
        assert next(loop) == "player_0"
        with pytest.raises(AssertionError, match="need to call step\\(\\) or reset\\(\\)"):
            next(loop)  # no step in between
        game.step(56)  # player_0 passes the upcard
        assert next(loop) == "player_1"
        game.step(56)
        assert next(loop) == "player_0"
        game.step(0)
        with pytest.raises(StopIteration):
            next(loop)  # max_iter reached
