"""PettingZoo AEC environments for every registered variant.

``env(variant, players=…, **settings)`` is the environment as PettingZoo's classic games
come: an illegal number ends the episode with −1 for the mover (as PettingZoo's
``TerminateIllegalWrapper`` does, but inside the environment, which saves two layers of
attribute forwarding on every step), anything that is not a number of the action space (out of
range, a bool, a float, a string, ``None`` for a live agent) raises
:class:`~rummylib.errors.IllegalActionError` and changes nothing (where
``AssertOutOfBoundsWrapper`` asserts, which ``python -O`` turns off), and the API order is
enforced (``OrderEnforcingWrapper``,
through :class:`OrderEnforcing`, which reads the names of every step without its attribute
forwarding).
``raw_env`` is the bare :class:`RummyEnv`, which raises
:class:`~rummylib.errors.IllegalActionError` on a number that is not legal now.

Agents are ``player_0 … player_{n-1}`` (seat order; ``player_0`` plays first). Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``: the layout of
:class:`~rummylib.envs.encoding.ObservationEncoder` and the numbering of
:class:`~rummylib.envs.encoding.ActionTable`. The mask of an agent that is not selected is all
zeros. Where several players may act at once (a Frish vote), they act one after another in
:attr:`~rummylib.state.GameState.to_act` order.

>>> from rummylib.envs.pettingzoo import env
>>> game = env("gin")
>>> game.reset(seed=7)
>>> game.agent_selection, int(game.observe("player_0")["action_mask"].sum())
('player_0', 2)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from rummylib.actions import Action
from rummylib.engine import Variant
from rummylib.envs._common import (
    SEED_BOUND,
    Match,
    check_illegal_reward,
    make_variant,
    observation_space,
)
from rummylib.errors import ConfigurationError, IllegalActionError, shorten

__all__ = ["OrderEnforcing", "RummyEnv", "env", "raw_env"]


class RummyEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A rummy match as a PettingZoo AEC environment (see :func:`env` for the arguments)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo reads it from the class)
        "render_modes": ["ansi"],
        "render_fps": 1,
        "name": "rummylib_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: Variant | str,
        players: int | None = None,
        *,
        render_mode: str | None = None,
        rewards: str = "score",
        one_deal: bool = False,
        max_actions: int | None = None,
        illegal_reward: float | None = None,
        **settings: Any,
    ) -> None:
        super().__init__()
        #: ``None``: an illegal number raises; else it ends the episode with this reward.
        self.illegal_reward = check_illegal_reward(illegal_reward, optional=True)
        game = make_variant(variant, settings)
        if render_mode not in {None, "ansi"}:
            msg = f"bad render_mode {shorten(render_mode)}: expected None or 'ansi'"
            raise ConfigurationError(msg)
        self.render_mode = render_mode
        self.match = Match(
            game,
            game.min_players if players is None else players,
            rewards=rewards,
            one_deal=one_deal,
            max_actions=max_actions,
        )
        self.variant = game
        self.metadata = {**type(self).metadata, "name": f"rummylib_{game.name}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.match.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: observation_space(self.match.encoder, self.match.table)
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(self.match.table.size)
            for agent in self.possible_agents
        }
        self._generator = np.random.default_rng()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(n)``: the variant's action numbers."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match; a ``seed`` makes it (and every later unseeded reset) repeatable."""
        if seed is not None:
            self._generator = np.random.default_rng(seed)
        self.match.start(int(self._generator.integers(SEED_BOUND)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        seat = self.match.to_act
        self.agent_selection = self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> dict[str, Any]:
        """``{"observation": …, "action_mask": …}`` for ``agent``."""
        seat = self._seats[agent]
        match = self.match
        try:
            selected = self.agent_selection
        except AttributeError:
            msg = "call reset() before observe()"
            raise IllegalActionError(msg) from None
        mask = (
            match.mask(seat)
            if agent == selected
            and not (self.terminations.get(agent, True) or self.truncations.get(agent, True))
            else np.zeros(match.table.size, dtype=np.int8)
        )
        return {"observation": match.encode(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """The selected agent plays action number ``action`` (``None`` once it is done).

        Raises:
            IllegalActionError: the number is not legal now (the wrapped :func:`env` ends
                the episode instead).
        """
        try:
            agent = self.agent_selection
        except AttributeError:
            msg = "call reset() before step()"
            raise IllegalActionError(msg) from None
        if self.terminations.get(agent, True) or self.truncations.get(agent, True):
            self._was_dead_step(action)
            return
        seat = self._seats[agent]
        match = self.match
        legal: Action | None
        if self.illegal_reward is None:
            # The table checks the number itself: a bool, a float or a string is refused,
            # never rounded to a move.
            legal = match.action(seat, action)  # raises on an illegal number
        else:
            inside = (
                0 <= action < match.table.size
                if type(action) is int
                else type(action) is not bool and self.action_spaces[agent].contains(action)
            )
            if not inside:  # a check, not an assert: it holds under python -O as well
                msg = (
                    f"action is not in action space: {shorten(action)} (the moves are "
                    f"numbered 0 to {match.table.size - 1})"
                )
                raise IllegalActionError(msg)
            legal = match.action_or_none(seat, action)
            if legal is None:
                self._end_illegal(agent, self.illegal_reward)
                return
        reward = match.apply(seat, legal)
        self._cumulative_rewards[agent] = 0.0
        agents = self.agents
        if len(agents) == match.players:  # no agent retired yet: agents are in seat order
            self.rewards = dict(zip(agents, reward, strict=True))
        else:
            self.rewards = {other: reward[self._seats[other]] for other in agents}
        if match.is_done:
            self.terminations = dict.fromkeys(agents, True)
        elif match.is_truncated:
            self.truncations = dict.fromkeys(agents, True)
        following = match.to_act
        if following is None:
            following = (seat + 1) % match.players
        self.agent_selection = self.possible_agents[following]
        self._accumulate_rewards()

    def _end_illegal(self, agent: str, reward: float) -> None:
        # What PettingZoo's TerminateIllegalWrapper does on an illegal move.
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(reward)
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): every hand, and the legal numbers."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return self.match.render()

    def close(self) -> None:
        """Nothing to release."""


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper``, reading the names of every step directly.

    The wrapper reaches the environment's attributes through ``__getattr__``, two Python
    calls per name; an agent loop reads ``agents``, ``agent_selection`` and the five names
    of ``last()`` on every step. Here ``agents`` and ``agent_selection`` are properties and
    ``last()``, ``step()`` and the ``agent_iter()`` loop call the environment itself, after
    the same checks (``reset()`` came first; no step once every agent is done; a step in
    every turn of the loop). Every other method and check is PettingZoo's own.
    """

    @staticmethod
    def _not_reset(name: str) -> AttributeError:
        # What the wrapper's __getattr__ raises for these names before reset().
        return AttributeError(f"{name} cannot be accessed before reset")

    @property
    def agents(self) -> list[str]:
        """The environment's live agents."""
        if not self._has_reset:
            raise self._not_reset("agents")
        agents: list[str] = self.env.agents
        return agents

    @property
    def agent_selection(self) -> str:
        """The agent to act."""
        if not self._has_reset:
            raise self._not_reset("agent_selection")
        selected: str = self.env.agent_selection
        return selected

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, terminated, truncated, info."""
        if not self._has_reset:
            raise self._not_reset("agent_selection")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        """PettingZoo's wrapper's ``agent_iter``: the agent to act, step after step."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def step(self, action: Any) -> None:
        """PettingZoo's wrapper's ``step``, calling the environment without a further layer."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def __str__(self) -> str:
        """The environment's name, as PettingZoo's wrapper prints it."""
        return str(self.env)


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's ``AECOrderEnforcingIterator``, reading the environment's names directly."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not wrapper._has_updated:  # PettingZoo's assertion, kept under python -O
            msg = "need to call step() or reset() in a loop over `agent_iter`"
            raise AssertionError(msg)
        wrapper._has_updated = False
        selected: str = inner.agent_selection
        return selected


def raw_env(
    variant: Variant | str,
    players: int | None = None,
    *,
    render_mode: str | None = None,
    rewards: str = "score",
    one_deal: bool = False,
    max_actions: int | None = None,
    illegal_reward: float | None = None,
    **settings: Any,
) -> RummyEnv:
    """The bare environment: an illegal number raises :class:`~rummylib.errors.IllegalActionError`.

    Args:
        variant: a registered name (any plugin's included) or a :class:`Variant`.
        players: how many seats (default: the variant's fewest).
        render_mode: ``None`` or ``"ansi"``.
        rewards: ``"score"`` (match-score changes, signed so more is better), ``"deal"``
            (each deal's points when it is scored) or ``"win"`` (+1 win, −1 loss at the end);
            see :func:`rummylib.envs.encoding.rewards`.
        one_deal: end the episode when the first deal is scored.
        max_actions: truncate the episode after this many moves (``None``: never).
        illegal_reward: ``None`` (the default): a number that is not legal now raises
            :class:`~rummylib.errors.IllegalActionError`, and nothing changes. A number: such
            a move ends the episode instead, with this reward for the agent that played it
            (what :func:`env` does, with −1).
        settings: the variant's settings, with a name (``knock_card=8``).

    Raises:
        ConfigurationError: a bad player count, setting or option.
        UnknownVariantError: an unknown variant name.
    """
    return RummyEnv(
        variant,
        players,
        render_mode=render_mode,
        rewards=rewards,
        one_deal=one_deal,
        max_actions=max_actions,
        illegal_reward=illegal_reward,
        **settings,
    )


def env(
    variant: Variant | str,
    players: int | None = None,
    *,
    render_mode: str | None = None,
    rewards: str = "score",
    one_deal: bool = False,
    max_actions: int | None = None,
    illegal_reward: float = -1.0,
    **settings: Any,
) -> Any:
    """The environment as PettingZoo's classic games come (see the module docstring).

    A number of the action space that is not legal now ends the episode with reward
    ``illegal_reward`` (−1) for the agent that played it, as ``TerminateIllegalWrapper``
    would; anything else (a number out of range, a bool, a float, a string, ``None``) raises
    :class:`~rummylib.errors.IllegalActionError` "action is not in action space" and changes
    nothing, also under ``python -O`` (PettingZoo's ``AssertOutOfBoundsWrapper`` asserts).
    The other arguments are those of :func:`raw_env`.
    """
    game = RummyEnv(
        variant,
        players,
        render_mode=render_mode,
        rewards=rewards,
        one_deal=one_deal,
        max_actions=max_actions,
        illegal_reward=check_illegal_reward(illegal_reward, optional=False),
        **settings,
    )
    return OrderEnforcing(game)
