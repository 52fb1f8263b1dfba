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
from collections.abc import Iterable, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from rummylib.bots import Bot, GreedyBot, RandomBot
from rummylib.engine import Variant
from rummylib.envs._common import (
    SEED_BOUND,
    Match,
    check_illegal_reward,
    make_variant,
    observation_space,
)
from rummylib.errors import ConfigurationError, IllegalActionError, shorten
from rummylib.registry import VARIANTS

__all__ = ["SingleAgentEnv", "env_id", "register_envs"]

#: Redeals allowed when a match ends before the agent's first move.
_REDEALS = 100


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat learns; bots play the others.

    Args:
        variant: a registered name (plugins included) or a :class:`Variant`.
        opponents: a list of bots (instances, not classes), one per other seat, in seat
            order after skipping the agent's (default: one :class:`~rummylib.bots.GreedyBot`).
            Each episode plays with deep copies of them; the copy of a
            :class:`~rummylib.bots.RandomBot`, or of a subclass of it (its own ``choose``
            kept), has its generator reseeded from the environment's, so a seeded reset
            replays exactly.
        seat: the agent's seat (0 plays first in the first deal).
        render_mode: ``None`` or ``"ansi"``.
        rewards: ``"score"``, ``"deal"`` or ``"win"``, as in :func:`rummylib.envs.encoding.rewards`.
        one_deal: end the episode when the first deal is scored.
        max_actions: truncate after this many moves in all (agent's and bots'); ``None``: never.
        illegal_reward: the reward of a number of the action space that is not legal now
            (a finite number); the episode then ends (``terminated``, with
            ``info["illegal_action"] = True``).
        settings: the variant's settings, with a name.

    The reward of a step is what the agent's seat got from its move and the bots' moves up
    to its next turn.

    An action outside the action space (anything but a whole number from 0 to *n* − 1: a
    Python or numpy integer, not a bool, a float or a string) raises
    :class:`~rummylib.errors.IllegalActionError` and changes nothing, as do :meth:`step`,
    :meth:`render` and :meth:`action_masks` before the first :meth:`reset`.

    Raises:
        ConfigurationError: a bad seat, player count, opponent, setting or option (checked
            before the match is built).
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
        check_illegal_reward(illegal_reward, optional=False)
        bots = [GreedyBot()] if opponents is None else _check_opponents(opponents)
        if render_mode not in {None, "ansi"}:
            msg = f"bad render_mode {shorten(render_mode)}: expected None or 'ansi'"
            raise ConfigurationError(msg)
        game = make_variant(variant, settings)
        if not bots and game.min_players > 1:
            msg = f"at least one opponent is needed: {_opponents_allowed(game)}"
            raise ConfigurationError(msg)
        players = len(bots) + 1
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            msg = f"seat must be a whole number from 0 to {players - 1}, not {shorten(seat)}"
            raise ConfigurationError(msg)
        self.match = Match(
            game, players, rewards=rewards, one_deal=one_deal, max_actions=max_actions
        )
        self.variant = game
        self.seat = seat
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)  # a finite int or float, checked above
        self._prototypes = bots
        self._bots: dict[int, Bot] = {}
        self._started = False
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
        self._started = True
        return self._observation(), {}

    def _start(self) -> None:
        generator = self.np_random
        self.match.start(int(generator.integers(SEED_BOUND)))
        others = [seat for seat in range(self.match.players) if seat != self.seat]
        self._bots = {}
        for seat, prototype in zip(others, self._prototypes, strict=True):
            bot = copy.deepcopy(prototype)
            # The copy of a RandomBot (a subclass's too, whose choose must be the one called)
            # is reseeded from the environment's generator.
            if isinstance(bot, RandomBot):
                bot.reseed(int(generator.integers(SEED_BOUND)))
            self._bots[seat] = bot

    def _let_bots_move(self) -> None:
        match = self.match
        while (player := match.to_act) is not None and player != self.seat:
            action = self._bots[player].choose(match.observation(player))
            self._reward += match.apply(player, action)[self.seat]

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play action number ``action`` for the agent, then the bots until its next turn.

        Raises:
            IllegalActionError: ``action`` is not in the action space, :meth:`reset` was
                not called yet, or the episode is over; nothing is changed.
        """
        match = self.match
        if not self._started:
            msg = "call reset() before step()"
            raise IllegalActionError(msg)
        if match.to_act != self.seat:
            msg = "the episode is over: call reset()"
            raise IllegalActionError(msg)
        # An int in range is the common case; anything else is checked before any change.
        number = (
            action
            if type(action) is int and 0 <= action < match.table.size
            else self._number(action)
        )
        self._reward = 0.0
        try:
            self._reward += match.play(self.seat, number)[self.seat]
        except IllegalActionError:
            match.is_done = True
            info = {"illegal_action": True}
            return self._observation(), self.illegal_reward, True, False, info
        self._let_bots_move()
        observation = self._observation()
        return observation, self._reward, match.is_done, match.is_truncated, {}

    def _number(self, action: object) -> int:
        """``action`` as an int if it is in the action space, else IllegalActionError."""
        size = self.match.table.size
        # Gymnasium's Discrete takes a numpy integer, or a 0-d integer array, as well as an
        # int; a bool, a float or a string (or a number rounded from one) is no move.
        number: int | None = None
        if isinstance(action, int | np.integer) and not isinstance(action, bool):
            number = int(action)
        elif isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            number = int(action.item())
        if number is None:
            msg = (
                f"action {shorten(action)} is not in the action space: expected a whole "
                f"number from 0 to {size - 1}"
            )
            raise IllegalActionError(msg)
        if not 0 <= number < size:
            msg = (
                f"action {number} is not in the action space: {self.variant.name} numbers "
                f"its moves 0 to {size - 1}"
            )
            raise IllegalActionError(msg)
        return number

    def _require_reset(self, method: str) -> None:
        if not self._started:
            msg = f"call reset() before {method}()"
            raise IllegalActionError(msg)

    def _observation(self) -> dict[str, Any]:
        return {
            "observation": self.match.encode(self.seat),
            "action_mask": self.match.mask(self.seat),
        }

    def action_masks(self) -> Any:
        """The legal numbers now as a boolean vector (for maskable-PPO style trainers).

        Raises:
            IllegalActionError: :meth:`reset` was not called yet.
        """
        self._require_reset("action_masks")
        return self.match.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), every hand included.

        Raises:
            IllegalActionError: :meth:`reset` was not called yet.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        self._require_reset("render")
        return self.match.render()


def _check_opponents(opponents: object) -> list[Bot]:
    """``opponents`` as a list of bots, else a :class:`ConfigurationError` that says why."""
    if isinstance(opponents, str | bytes):
        msg = (
            f"opponents must be a list of bots, not the text {shorten(opponents)}: "
            "pass bot instances, such as [GreedyBot()]"
        )
        raise ConfigurationError(msg)
    if isinstance(opponents, type):
        msg = (
            f"opponents must be a list of bots, not the class {opponents.__name__}: "
            f"pass [{opponents.__name__}()]"
        )
        raise ConfigurationError(msg)
    if callable(getattr(opponents, "choose", None)):
        msg = (
            "opponents must be a list of bots, one per other seat, not a single "
            f"{type(opponents).__name__}: put it in a list"
        )
        raise ConfigurationError(msg)
    if not isinstance(opponents, Iterable):
        msg = f"opponents must be a list of bots, one per other seat, not {shorten(opponents)}"
        raise ConfigurationError(msg)
    bots: list[Bot] = []
    for bot in opponents:
        if isinstance(bot, type):
            msg = f"not a bot but the class {bot.__name__}: pass an instance, {bot.__name__}()"
            raise ConfigurationError(msg)
        if not callable(getattr(bot, "choose", None)):
            msg = f"not a bot (it has no choose method): {shorten(bot)}"
            raise ConfigurationError(msg)
        bots.append(bot)
    return bots


def _opponents_allowed(game: Variant) -> str:
    """How many opponents ``game`` takes, in words (for an error message)."""
    fewest, most = game.min_players - 1, game.max_players - 1
    count = f"{fewest}" if fewest == most else f"{fewest} to {most}"
    noun = "opponent" if most == 1 else "opponents"
    return (
        f"{game.name} takes {count} {noun} (it is for {game.min_players} to "
        f"{game.max_players} players)"
    )


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
