"""Players that choose moves from an :class:`~rummylib.views.Observation` alone.

A bot sees only what its seat may see, so it cannot cheat. :func:`play` runs a match to the
end with one bot per seat (or gives up after ``max_actions`` actions, 100,000 by default).

>>> from rummylib import new_game
>>> from rummylib.bots import GreedyBot, play
>>> final = play(new_game("rummy71", players=3, seed=2), [GreedyBot()] * 3)
>>> final.is_over, len(final.result.winners)
(True, 1)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Protocol

from rummylib.actions import (
    Action,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
)
from rummylib.arrangement import arrange
from rummylib.cards import Card
from rummylib.errors import ConfigurationError, shorten
from rummylib.state import GameState
from rummylib.views import Observation

__all__ = ["Bot", "GreedyBot", "RandomBot", "play"]


class Bot(Protocol):
    """Anything with a ``choose`` method that picks one of the observation's legal actions."""

    def choose(self, observation: Observation) -> Action:
        """Pick a move."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions, with its own seeded generator.

    >>> from rummylib import new_game
    >>> bot = RandomBot(seed=1)
    >>> bot.choose(new_game("rummy101", players=2, seed=3).observation(0))
    DrawStock(player=0)
    """

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def reseed(self, seed: int | None) -> None:
        """Start the bot's generator again from ``seed``, as ``RandomBot(seed=seed)`` would.

        >>> from rummylib import new_game
        >>> observation = new_game("rummy101", players=2, seed=3).observation(0)
        >>> bot = RandomBot(seed=5)
        >>> bot.reseed(1)
        >>> bot.choose(observation) == RandomBot(seed=1).choose(observation)
        True
        """
        self._random = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        """A uniformly random legal action."""
        actions = observation.legal_actions
        if not actions:
            msg = f"p{observation.player + 1} has no legal action now"
            raise ConfigurationError(msg)
        return self._random.choice(actions)


class GreedyBot:
    """Keeps its best melds, throws its worst deadwood, takes the variant's own greedy moves.

    The variant's :meth:`~rummylib.engine.Variant.greedy_action` comes first (an Israeli
    table declares as soon as it can and shows its best melds after another's declaration).
    Where melds go on the table, it lays down the melds of its best arrangement (most points
    first) and lays off deadwood wherever it fits. It takes a face-up card
    (:meth:`~rummylib.engine.Variant.card_taken`) only when that lowers the deadwood it can
    reach after its discard. Any other choice is the variant's (buying back in, …), else the
    first listed action.

    >>> from rummylib import format_cards, new_game, sort_by_suit
    >>> observation = new_game("rummy101", players=2, seed=3).observation(0)
    >>> format_cards(sort_by_suit(observation.hand)), observation.open_card
    ('4c Tc Qc 2d 3d 6d 6d 2h 6h 7h As 8s 9s', Card.parse('*'))
    >>> GreedyBot().choose(observation)  # the open card is a joker
    TakeOpenCard(player=0)
    """

    def choose(self, observation: Observation) -> Action:
        """The greedy move for this observation."""
        actions = observation.legal_actions
        if not actions:
            msg = f"p{observation.player + 1} has no legal action now"
            raise ConfigurationError(msg)
        suggested = observation.variant.greedy_action(observation)
        if suggested is not None:
            return suggested
        kinds = {type(action) for action in actions}
        if DrawStock in kinds:
            return self._draw(observation, actions)
        played = self._meld(observation, actions) if kinds & {LayDown, LayOff} else None
        if played is None and Discard in kinds:
            played = self._discard(observation, actions)
        if played is not None:
            return played
        return actions[0]

    def _deadwood_after_discard(self, observation: Observation, hand: Sequence[Card]) -> int:
        variant = observation.variant
        best = arrange(
            hand,
            observation.meld_rules,
            variant.card_points,
            discard=True,
            can_discard=lambda card: variant.may_ever_discard(card, observation),
        )
        return best.deadwood_points

    def _draw(self, observation: Observation, actions: Sequence[Action]) -> Action:
        variant = observation.variant
        hand = observation.hand
        now = arrange(hand, observation.meld_rules, variant.card_points).deadwood_points
        best: tuple[int, Action] | None = None
        for action in actions:
            card = (
                None if isinstance(action, DrawStock) else variant.card_taken(observation, action)
            )
            if card is None:
                continue
            after = self._deadwood_after_discard(observation, (*hand, card))
            if after < now and (best is None or after < best[0]):
                best = (after, action)
        if best is not None:
            return best[1]
        return next(action for action in actions if isinstance(action, DrawStock))

    def _meld(self, observation: Observation, actions: Sequence[Action]) -> Action | None:
        """Lay down a meld of the best arrangement (the most points), else lay off deadwood."""
        variant = observation.variant
        points = variant.card_points
        best = arrange(observation.hand, observation.meld_rules, points)
        wanted = [Counter(meld.cards) for meld in best.melds]
        lay_downs = [
            action
            for action in actions
            if isinstance(action, LayDown) and Counter(action.melds[0].cards) in wanted
        ]
        if lay_downs:
            return max(lay_downs, key=lambda action: action.melds[0].points(points))
        deadwood = Counter(best.deadwood)
        return next(
            (action for action in actions if isinstance(action, LayOff) and deadwood[action.card]),
            None,
        )

    def _discard(self, observation: Observation, actions: Sequence[Action]) -> Action:
        variant = observation.variant
        allowed = {action.card: action for action in actions if isinstance(action, Discard)}
        best = arrange(
            observation.hand,
            observation.meld_rules,
            variant.card_points,
            discard=True,
            can_discard=allowed.__contains__,
        )
        assert best.discard is not None
        return allowed[best.discard]


def play(
    state: GameState,
    bots: Sequence[Bot] | Mapping[int, Bot],
    *,
    max_actions: int | None = 100_000,
) -> GameState:
    """Let the bots play from ``state`` until the match ends, or until ``max_actions`` actions.

    When several players may act, the first in :attr:`~rummylib.state.GameState.to_act`
    moves first.

    Some matches take very long under the rules: random bots in Rummy 71/101 rarely complete
    a hand, so a deal can run for tens of thousands of actions. ``max_actions`` is the guard
    that makes :func:`play` always return: after that many actions it stops and returns the
    state as it stands, not over (:attr:`~rummylib.state.GameState.is_over` is ``False``,
    :attr:`~rummylib.state.GameState.result` is ``None``), so the caller sees the match is
    unfinished. Greedy bots usually finish a match in well under 2,000 actions.

    >>> from rummylib import new_game
    >>> bots = [RandomBot(seed=1), RandomBot(seed=2)]
    >>> unfinished = play(new_game("rummy101", players=2, seed=1), bots, max_actions=10)
    >>> unfinished.is_over, unfinished.result, len(unfinished.history)
    (False, None, 10)

    Args:
        state: where to start (a new match, or one in progress).
        bots: one bot per seat, as a sequence indexed by player or a mapping from player to
            bot (the same bot may sit at several seats).
        max_actions: the most actions to apply before giving up (default 100,000); ``None``
            plays on until the match ends, however long that takes.

    Returns:
        The state after the last action: over, or unfinished after ``max_actions`` actions.

    Raises:
        ConfigurationError: a seat has no bot, or ``max_actions`` is not ``None`` or a whole
            number of at least 0.
    """
    if max_actions is not None and (
        isinstance(max_actions, bool) or not isinstance(max_actions, int) or max_actions < 0
    ):
        shown = shorten(max_actions)
        msg = f"max_actions must be None or a whole number of at least 0, not {shown}"
        raise ConfigurationError(msg)
    count = 0
    while not state.is_over and (max_actions is None or count < max_actions):
        player = state.to_act[0]
        try:
            bot = bots[player]
        except (IndexError, KeyError):
            msg = f"no bot for p{player + 1}"
            raise ConfigurationError(msg) from None
        state = state.apply(bot.choose(state.observation(player)))
        count += 1
    return state
