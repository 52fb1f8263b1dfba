"""Gymnasium environments: one learning seat against bots, for every registered variant.

:class:`SingleAgentEnv` seats the agent at ``seat`` (0 by default) and one bot per opponent;
the bots move whenever the agent is not to act. Observations and actions are those of the
PettingZoo environment (:mod:`rummylib.envs.pettingzoo`): ``{"observation", "action_mask"}``
and ``Discrete(n)`` over the variant's :class:`~rummylib.envs.encoding.ActionTable`.

Importing this module registers an id per registered variant, ``rummylib/<variant>-v0``,
two-player against a :class:`~rummylib.bots.GreedyBot` unless the keyword arguments of
:func:`gymnasium.make` say otherwise; :func:`register_envs` registers variants added since.

>>> import gymnasium
>>> import rummylib.envs.gym
>>> environment = gymnasium.make("rummylib/gin-v0")
>>> observation, info = environment.reset(seed=3)
>>> sorted(observation), observation["action_mask"].dtype
(['action_mask', 'observation'], dtype('int8'))
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from rummylib.bots import Bot, GreedyBot, RandomBot
from rummylib.engine import Variant
from rummylib.envs._common import SEED_BOUND, Match, make_variant, observation_space
from rummylib.errors import ConfigurationError, IllegalActionError, shorten
from rummylib.registry import VARIANTS

__all__ = ["SingleAgentEnv", "env_id", "register_envs"]

#: Redeals allowed when a match ends before the agent's first move.
_REDEALS = 100


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat learns; bots play the others.

    Args:
        variant: a registered name (plugins included) or a :class:`Variant`.
        opponents: one bot per other seat, in seat order after skipping the agent's
            (default: one :class:`~rummylib.bots.GreedyBot`). Each episode plays with fresh
            copies of them; a :class:`~rummylib.bots.RandomBot` is reseeded from the
            environment's generator, so a seeded reset replays exactly.
        seat: the agent's seat (0 plays first in the first deal).
        render_mode: ``None`` or ``"ansi"``.
        rewards: ``"score"``, ``"deal"`` or ``"win"``, as in :func:`rummylib.envs.encoding.rewards`.
        one_deal: end the episode when the first deal is scored.
        max_actions: truncate after this many moves in all (agent's and bots'); ``None``: never.
        illegal_reward: the reward of a number that is not legal now; the episode then ends
            (``terminated``, with ``info["illegal_action"] = True``).
        settings: the variant's settings, with a name.

    The reward of a step is what the agent's seat got from its move and the bots' moves up
    to its next turn.

    Raises:
        ConfigurationError: a bad seat, player count, opponent, setting or option.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  (gymnasium's convention)

    def __init__(
        self,
        variant: Variant | str,
        opponents: Sequence[Bot] | None = None,
        *,
        seat: int = 0,
        render_mode: str | None = None,
        rewards: str = "score",
        one_deal: bool = False,
        max_actions: int | None = None,
        illegal_reward: float = -1.0,
        **settings: Any,
    ) -> None:
        game = make_variant(variant, settings)
        bots = [GreedyBot()] if opponents is None else list(opponents)
        for bot in bots:
            if not callable(getattr(bot, "choose", None)):
                msg = f"not a bot (it has no choose method): {shorten(bot)}"
                raise ConfigurationError(msg)
        players = len(bots) + 1
        self.match = Match(
            game, players, rewards=rewards, one_deal=one_deal, max_actions=max_actions
        )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            msg = f"seat must be a whole number from 0 to {players - 1}, not {shorten(seat)}"
            raise ConfigurationError(msg)
        if render_mode not in {None, "ansi"}:
            msg = f"bad render_mode {shorten(render_mode)}: expected None or 'ansi'"
            raise ConfigurationError(msg)
        self.variant = game
        self.seat = seat
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self._prototypes = bots
        self._bots: dict[int, Bot] = {}
        self.observation_space = observation_space(self.match.encoder, self.match.table)
        self.action_space = gymnasium.spaces.Discrete(self.match.table.size)

    # -- the episode ------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new match and let the bots move until the agent is to act."""
        super().reset(seed=seed)
        for _ in range(_REDEALS):
            self._start()
            self._reward = 0.0
            self._let_bots_move()
            if self.match.to_act == self.seat:
                break
        return self._observation(), {}

    def _start(self) -> None:
        generator = self.np_random
        self.match.start(int(generator.integers(SEED_BOUND)))
        others = [seat for seat in range(self.match.players) if seat != self.seat]
        self._bots = {}
        for seat, prototype in zip(others, self._prototypes, strict=True):
            if isinstance(prototype, RandomBot):
                self._bots[seat] = RandomBot(seed=int(generator.integers(SEED_BOUND)))
            else:
                self._bots[seat] = copy.deepcopy(prototype)

    def _let_bots_move(self) -> None:
        match = self.match
        while (player := match.to_act) is not None and player != self.seat:
            action = self._bots[player].choose(match.observation(player))
            self._reward += match.apply(player, action)[self.seat]

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play action number ``action`` for the agent, then the bots until its next turn."""
        match = self.match
        if match.to_act != self.seat:
            msg = "the episode is over: call reset()"
            raise IllegalActionError(msg)
        self._reward = 0.0
        try:
            self._reward += match.play(self.seat, int(action))[self.seat]
        except IllegalActionError:
            match.is_done = True
            info = {"illegal_action": True}
            return self._observation(), self.illegal_reward, True, False, info
        self._let_bots_move()
        observation = self._observation()
        return observation, self._reward, match.is_done, match.is_truncated, {}

    def _observation(self) -> dict[str, Any]:
        return {
            "observation": self.match.encode(self.seat),
            "action_mask": self.match.mask(self.seat),
        }

    def action_masks(self) -> Any:
        """The legal numbers now as a boolean vector (for maskable-PPO style trainers)."""
        return self.match.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), every hand included."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return self.match.render()


def env_id(name: str) -> str:
    """The gymnasium id of a variant: ``rummylib/<name>-v0``.

    >>> env_id("rummy101")
    'rummylib/rummy101-v0'
    """
    return f"rummylib/{name}-v0"


def register_envs() -> list[str]:
    """Register an id for every registered variant that has none yet; return the new ids."""
    added = []
    for name in VARIANTS:
        identifier = env_id(name)
        if identifier in gymnasium.registry:
            continue
        gymnasium.register(
            id=identifier,
            entry_point="rummylib.envs.gym:SingleAgentEnv",
            kwargs={"variant": name},
        )
        added.append(identifier)
    return added


register_envs()
