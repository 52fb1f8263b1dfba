"""What the PettingZoo and Gymnasium adapters share: the table's set-up, spaces, one match."""

from __future__ import annotations

import math
import secrets
from typing import Any, Final

import gymnasium
import numpy as np

from rummylib.actions import Action
from rummylib.engine import Variant
from rummylib.envs._rewards import check_mode, deal_ended
from rummylib.envs.encoding import (
    ActionTable,
    FloatArray,
    MaskArray,
    ObservationEncoder,
    TakenCards,
    describe,
    rewards,
    score_sign,
)
from rummylib.errors import ConfigurationError, shorten
from rummylib.registry import get_variant
from rummylib.state import GameState, new_game
from rummylib.views import Observation

__all__ = ["Match", "check_illegal_reward", "make_variant", "observation_space"]

#: The largest game seed drawn from an environment's generator.
SEED_BOUND: Final = 2**63


def make_variant(variant: Variant | str, settings: dict[str, Any]) -> Variant:
    """The variant of an environment: a :class:`Variant`, or a name with its settings.

    Raises:
        ConfigurationError: settings given with a :class:`Variant` (it has its own), or bad
            settings.
        UnknownVariantError: an unknown name.
    """
    if isinstance(variant, Variant):
        if settings:
            msg = f"settings {', '.join(sorted(settings))} given with a Variant: set them on it"
            raise ConfigurationError(msg)
        return variant
    if not isinstance(variant, str):
        msg = f"not a variant: {shorten(variant)}"
        raise ConfigurationError(msg)
    return get_variant(variant, **settings)


def check_max_actions(value: object) -> int | None:
    """``None`` or a whole number of at least 1, else :class:`ConfigurationError`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        msg = f"max_actions must be None or a whole number of at least 1, not {shorten(value)}"
        raise ConfigurationError(msg)
    return value


def check_illegal_reward(value: object, *, optional: bool) -> float | None:
    """The reward for an illegal move as a float (``None`` too if ``optional``).

    Raises:
        ConfigurationError: not a finite number (a bool is not one).
    """
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        expected = "None or a finite number" if optional else "a finite number"
        msg = f"illegal_reward must be {expected}, not {shorten(value)}"
        raise ConfigurationError(msg)
    return float(value)


def observation_space(encoder: ObservationEncoder, table: ActionTable) -> gymnasium.spaces.Dict:
    """``{"observation": Box(float32), "action_mask": Box(int8, 0 or 1)}``."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                low=encoder.low, high=encoder.high, dtype=np.float32
            ),
            "action_mask": gymnasium.spaces.Box(low=0, high=1, shape=(table.size,), dtype=np.int8),
        }
    )


class Match:
    """One match driven by action numbers, with rewards and the public record of takes.

    Both adapters keep one; it owns the state, the numbering and the encoder, and knows when
    an episode ends (the match is over, the first deal is scored with ``one_deal``, or
    ``max_actions`` moves were made).
    """

    def __init__(
        self,
        variant: Variant,
        players: int,
        *,
        rewards: str = "score",
        one_deal: bool = False,
        max_actions: int | None = None,
    ) -> None:
        self.variant = variant
        self.players = variant.check_players(players)
        self.mode = check_mode(rewards)
        if not isinstance(one_deal, bool):
            msg = f"one_deal must be True or False, not {shorten(one_deal)}"
            raise ConfigurationError(msg)
        self.one_deal = one_deal
        self.max_actions = check_max_actions(max_actions)
        self.table = ActionTable.for_variant(variant)
        self.sign = score_sign(variant)
        self.encoder = ObservationEncoder(variant, self.players)
        self.state: GameState = new_game(variant, players=self.players, seed=0)
        self.taken = TakenCards(self.players)
        self.actions = 0
        self.is_done = False
        self.is_truncated = False
        self._observed: tuple[GameState, int, Observation] | None = None
        # Each seat's last observation, its vector (and the vector's memoryview) and the
        # version of the takes in it: the seat's next vector is updated from them.
        self._vectors: list[tuple[Observation, FloatArray, memoryview[float], int] | None] = [
            None
        ] * self.players

    def __getstate__(self) -> dict[str, Any]:
        # For copy.deepcopy and pickle (a tree search forks environments): the vectors'
        # memoryviews do not pickle, and are made again from the vectors.
        state = self.__dict__.copy()
        state["_vectors"] = [
            None if kept is None else (kept[0], kept[1], None, kept[3]) for kept in self._vectors
        ]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        vectors = self._vectors
        for seat, kept in enumerate(vectors):
            if kept is not None:
                cells: memoryview[float] = kept[1].data  # type: ignore[assignment]  # float32
                vectors[seat] = (kept[0], kept[1], cells, kept[3])

    def start(self, seed: int | None) -> None:
        """A new match (``seed=None``: a seed from :mod:`secrets`)."""
        if seed is None:
            seed = secrets.randbits(63)
        self.state = new_game(self.variant, players=self.players, seed=seed)
        self.taken.reset()
        self.actions = 0
        self.is_done = self.state.is_over
        self.is_truncated = False
        self._observed = None
        self._vectors = [None] * self.players

    def observation(self, player: int) -> Observation:
        """``player``'s observation of the current state (kept for the next step)."""
        observed = self._observed
        if observed is not None and observed[0] is self.state and observed[1] == player:
            return observed[2]
        observation = self.state.observation(player)
        self._observed = (self.state, player, observation)
        return observation

    def encode(self, player: int) -> FloatArray:
        """``player``'s observation vector (a new array: the caller may change it).

        Worked out from the seat's vector of its last observation
        (:meth:`ObservationEncoder.update_into`, in place) when there is one in this match.
        """
        observation = self.observation(player)
        kept = self._vectors[player]
        taken = self.taken
        if kept is None:
            vector = self.encoder.encode(observation, taken)
            cells: memoryview[float] = vector.data  # type: ignore[assignment]  # float32 items
        else:
            vector, cells = kept[1], kept[2]  # the seat's own vector: callers get copies
            if kept[0] is not observation:
                moved = taken if taken.version != kept[3] else None
                self.encoder.update_into(vector, kept[0], observation, moved, cells=cells)
        self._vectors[player] = (observation, vector, cells, taken.version)
        return vector.copy()

    def mask(self, player: int) -> MaskArray:
        """``player``'s legal numbers as a 0/1 vector (all 0 when the episode is over)."""
        if self.is_done:
            return np.zeros(self.table.size, dtype=np.int8)
        return self.table.mask(self.state, player)

    def is_legal(self, player: int, number: int) -> bool:
        """Whether ``player`` may play ``number`` now."""
        return not self.is_done and self.table.is_legal(self.state, player, number)

    def play(self, player: int, number: int) -> list[float]:
        """Apply ``player``'s move ``number``; return every seat's reward for it.

        Raises:
            IllegalActionError: the number is not legal for ``player`` now.
        """
        return self.apply(player, self.action(player, number))

    def action(self, player: int, number: int) -> Action:
        """The action ``player``'s move ``number`` stands for now.

        Raises:
            IllegalActionError: the number is not legal for ``player`` now.
        """
        return self.table.decode(self.state, player, number)

    def action_or_none(self, player: int, number: int) -> Action | None:
        """The action ``player``'s move ``number`` stands for now; ``None`` if it is not legal."""
        if self.is_done:
            return None
        return self.table.decode_or_none(self.state, player, number)

    def apply(self, player: int, action: Action) -> list[float]:
        """Apply an action (a bot's) and return every seat's reward for it."""
        before = self.state
        observed = self._observed  # most often the actor's view, read for its last move
        if observed is not None and observed[0] is before and observed[1] == player:
            seen = observed[2]
        else:
            seen = self.observation(player)
        after = before.apply(action)
        self.state = after
        self.actions += 1
        nxt = after.to_act[0] if after.to_act else player
        self.taken.update(seen, self.observation(nxt), actor=player)
        if after.match.result is not None or (self.one_deal and deal_ended(before, after)):
            self.is_done = True
        elif self.max_actions is not None and self.actions >= self.max_actions:
            self.is_truncated = True
        return rewards(before, after, self.mode, sign=self.sign, one_deal=self.one_deal)

    @property
    def to_act(self) -> int | None:
        """The seat to move next (the first of :attr:`GameState.to_act`), if any."""
        if self.is_done or self.is_truncated or not self.state.to_act:
            return None
        return self.state.to_act[0]

    def render(self) -> str:
        """The table as text, with the legal moves of the player to act."""

        def labels(player: int) -> list[str]:
            return [
                f"{number}: {self.table.label(number)}"
                for number in self.table.numbers(self.state, player)
            ]

        return describe(self.state, labels)
