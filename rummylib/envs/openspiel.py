"""Every registered variant as an OpenSpiel game (needs ``open-spiel``: ``pip install open-spiel``).

:func:`register` registers ``rummylib_<variant>`` for each registered variant (plugins
included) with :func:`pyspiel.register_game`, after which ``pyspiel.load_game("rummylib_gin")``
and OpenSpiel's algorithms work with it. The game:

* **Chance.** The deal is explicit: one chance node per card of the deck, in dealing order
  (the hands one card at a time from seat 0, any face-up card, then the stock from its top),
  each outcome a card kind (:attr:`Card.index <rummylib.cards.Card.index>`) with probability
  proportional to the copies left; then one chance node picks the match seed among
  :data:`SEED_OUTCOMES`, which shuffles any stock refill and every later deal.
* **Moves.** The variant's :class:`~rummylib.envs.encoding.ActionTable`, legal numbers in
  increasing order. Where several players may act at once (a Frish vote), they act one after
  another in :attr:`~rummylib.state.GameState.to_act` order.
* **Observations.** :class:`~rummylib.envs.encoding.ObservationEncoder`'s vector (zeros while
  the cards are dealt), and a text of the player's view. No information-state tensor: the
  observation is not perfect recall.
* **Returns.** +1 for each winner, −1 for the others, 0 for all if nobody won or the game
  was cut at ``max_actions`` moves. With ``one_deal`` (the default, as OpenSpiel's
  ``gin_rummy`` is one deal) the game ends when the first deal is scored, and the winners
  are the players with the best points of that deal (the match's winners if it ended).

Parameters: ``players`` (default: the variant's fewest), ``one_deal`` (``True``),
``max_actions`` (2,000 moves; the game is then over with returns 0).

A number that is not offered now (a move that is not legal, any move once the game is over, a
chance outcome that :meth:`~RummyState.chance_outcomes` does not list) raises a
:class:`ValueError` (:class:`~rummylib.errors.IllegalActionError` for moves), as OpenSpiel's
Python games do, and leaves the state unchanged. Games pickle (unpickling one registers its
variant if need be); states pickle and clone as OpenSpiel's do, and unpickling a state needs
its game registered first (by :func:`register` or by unpickling the game).

>>> import pyspiel
>>> from rummylib.envs.openspiel import register
>>> "rummylib_gin" in register()
True
>>> game = pyspiel.load_game("rummylib_gin")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, Final

import numpy as np
import pyspiel

from rummylib.cards import CARDS, Card
from rummylib.engine import Variant
from rummylib.envs.encoding import (
    CARD_KINDS,
    ActionTable,
    ObservationEncoder,
    TakenCards,
    describe,
    outcome,
)
from rummylib.errors import ConfigurationError, IllegalActionError, shorten
from rummylib.registry import VARIANTS, get_variant
from rummylib.state import GameState, new_game
from rummylib.views import Observation

__all__ = ["SEED_OUTCOMES", "RummyGame", "RummyState", "game_name", "register"]

#: How many match seeds the seed chance node chooses among.
SEED_OUTCOMES: Final = 1024
#: The default ``max_actions``.
MAX_ACTIONS: Final = 2000

_CREATORS: dict[str, type[RummyGame]] = {}


def game_name(variant: str) -> str:
    """The OpenSpiel name of a variant: ``rummylib_<variant>``.

    >>> game_name("rummy101")
    'rummylib_rummy101'
    """
    return f"rummylib_{variant}"


def _game_type(variant: Variant) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=game_name(variant.name),
        long_name=f"rummylib {type(variant).title or variant.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=variant.max_players,
        min_num_players=variant.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": variant.min_players,
            "one_deal": True,
            "max_actions": MAX_ACTIONS,
        },
    )


class _Shared:
    """An immutable value that clones of a state share (``copy.deepcopy`` keeps it)."""

    def __init__(self, value: GameState | None) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, object]) -> _Shared:
        return self


class RummyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One variant as an OpenSpiel game (made by :func:`pyspiel.load_game`).

    :func:`register` makes a subclass per variant, with the variant as :attr:`variant`.
    """

    #: The variant (with its default settings) this class plays.
    variant: ClassVar[Variant]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        variant = self.variant
        params = dict(params or {})
        players = int(params.get("players", variant.min_players))
        self.players = variant.check_players(players)
        self.one_deal = bool(params.get("one_deal", True))
        self.max_actions = int(params.get("max_actions", MAX_ACTIONS))
        if self.max_actions < 1:
            msg = f"max_actions must be at least 1, not {self.max_actions}"
            raise ConfigurationError(msg)
        self.table = ActionTable.for_variant(variant)
        self.encoder = ObservationEncoder(variant, self.players)
        self.deck = variant.deck_for(self.players)
        counts = Counter(card.index for card in self.deck)
        #: Copies of each card kind in the deck, by :attr:`Card.index`.
        self.deck_counts = tuple(counts.get(index, 0) for index in range(CARD_KINDS))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.size,
            max_chance_outcomes=max(CARD_KINDS, SEED_OUTCOMES),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=self.max_actions,
        )
        super().__init__(
            _game_type(variant),
            info,
            {"players": self.players, "one_deal": self.one_deal, "max_actions": self.max_actions},
        )

    def new_initial_state(self) -> RummyState:
        """The state before the first card is dealt."""
        return RummyState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RummyObserver:
        """The observer of a player's view (no perfect-recall information state)."""
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            msg = "rummylib games provide observations, not perfect-recall information states"
            raise ValueError(msg)
        private = iig_obs_type is None or (
            iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        )
        return RummyObserver(self, private=private)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        # The per-variant class is made by register(), so pickle cannot find it by name (and
        # pyspiel's own pickling would make a game whose Python attributes were never set):
        # a game pickles as the variant's name and its parameters, loaded again as OpenSpiel
        # loads any game.
        params = {
            "players": self.players,
            "one_deal": self.one_deal,
            "max_actions": self.max_actions,
        }
        return _load_game, (self.variant.name, params)


def _load_game(variant: str, params: dict[str, Any]) -> RummyGame:
    """The game ``rummylib_<variant>`` with ``params``, registered first if need be (unpickling)."""
    register(variant)
    game: RummyGame = pyspiel.load_game(game_name(variant), params)
    return game


class RummyState(pyspiel.State):  # type: ignore[misc]
    """A match being dealt or played."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        self._order: tuple[int, ...] = ()
        self._left: tuple[int, ...] = game.deck_counts
        self._match = _Shared(None)
        self._taken = TakenCards(game.players)
        self._moves = 0
        self._over = False

    # -- the deal ---------------------------------------------------------------------------

    def _game_data(self) -> RummyGame:
        game: RummyGame = self.get_game()
        return game

    @property
    def taken(self) -> TakenCards:
        """The face-up cards each player was seen to take (public)."""
        return self._taken

    @property
    def match(self) -> GameState | None:
        """The rummylib state, once the cards are dealt and the seed chosen."""
        return self._match.value

    def current_player(self) -> int:
        """The player to move, chance while dealing, or terminal."""
        if self._over:
            return int(pyspiel.PlayerId.TERMINAL)
        state = self._match.value
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        return state.to_act[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck by kind, or the match seed."""
        if any(self._left):
            total = sum(self._left)
            return [(kind, count / total) for kind, count in enumerate(self._left) if count]
        return [(seed, 1.0 / SEED_OUTCOMES) for seed in range(SEED_OUTCOMES)]

    def _legal_actions(self, player: int) -> list[int]:
        state = self._match.value
        if state is None or self._over:
            return []
        return list(self._game_data().table.numbers(state, player))

    def _apply_action(self, action: int) -> None:
        # pyspiel hands over a Python int (it refuses floats and turns True into 1); a direct
        # call may pass anything, so the number is checked here, before anything changes.
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            msg = f"bad action {shorten(action)}: expected a whole number"
            raise IllegalActionError(msg)
        number = int(action)
        if self._over:
            msg = f"action {number}: the game is over, no more moves are allowed"
            raise IllegalActionError(msg)
        game = self._game_data()
        state = self._match.value
        if state is None:
            self._deal(game, number)
            return
        player = state.to_act[0]
        before = state.observation(player)
        after = state.apply(game.table.decode(state, player, number))
        following = after.to_act[0] if after.to_act else player
        self._taken.update(before, after.observation(following), actor=player)
        self._match = _Shared(after)
        self._moves += 1
        if (
            after.is_over
            or (game.one_deal and len(after.deal_results) > len(state.deal_results))
            or self._moves >= game.max_actions
        ):
            self._over = True

    def _deal(self, game: RummyGame, outcome: int) -> None:
        left = list(self._left)
        if any(left):
            if not 0 <= outcome < CARD_KINDS or not left[outcome]:
                msg = f"no {CARDS[outcome] if 0 <= outcome < CARD_KINDS else outcome} left to deal"
                raise ValueError(msg)
            left[outcome] -= 1
            self._left = tuple(left)
            self._order = (*self._order, outcome)
            return
        if not 0 <= outcome < SEED_OUTCOMES:
            msg = f"no seed {outcome}: the seed outcomes are 0 to {SEED_OUTCOMES - 1}"
            raise ValueError(msg)
        deck = [CARDS[index] for index in self._order]
        state = new_game(game.variant, players=game.players, seed=outcome, deck=deck)
        self._match = _Shared(state)
        if state.is_over:
            self._over = True

    # -- the end ----------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the game is over (match or first deal scored, or ``max_actions`` moves)."""
        return self._over

    def returns(self) -> list[float]:
        """+1 per winner, −1 for the others, 0 for all without a winner; 0 before the end."""
        game = self._game_data()
        state = self._match.value
        if not self._over or state is None:
            return [0.0] * game.players
        return outcome(state, one_deal=game.one_deal)

    # -- text ---------------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if any(self._left):
                if not 0 <= action < CARD_KINDS:
                    msg = f"no card kind {action}: the kinds are 0 to {CARD_KINDS - 1}"
                    raise ValueError(msg)
                return f"deal {CARDS[action]}"
            if not 0 <= action < SEED_OUTCOMES:
                msg = f"no seed {action}: the seed outcomes are 0 to {SEED_OUTCOMES - 1}"
                raise ValueError(msg)
            return f"seed {action}"
        return self._game_data().table.label(action)

    def __str__(self) -> str:
        state = self._match.value
        if state is None:
            placed = " ".join(str(CARDS[index]) for index in self._order)
            return f"dealing: {placed}" if placed else "dealing"
        return f"{describe(state)}\nmoves: {self._moves}"


class RummyObserver:
    """A player's view as a tensor and as text, per OpenSpiel's observer protocol."""

    def __init__(self, game: RummyGame, *, private: bool) -> None:
        self._encoder = game.encoder
        self._private = private
        self.tensor = np.zeros(game.encoder.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RummyState, player: int) -> None:
        """Write ``player``'s view of ``state`` into :attr:`tensor`."""
        match = state.match
        if match is None:
            self.tensor.fill(0)
            return
        vector = self._encoder.encode(match.observation(player), state.taken)
        if not self._private:
            vector[self._encoder.layout["hand"]] = 0
        self.tensor[:] = vector

    def string_from(self, state: RummyState, player: int) -> str:
        """``player``'s view as text (their hand only with private information)."""
        match = state.match
        if match is None:
            return "dealing"
        return _view_text(match.observation(player), private=self._private)


def _view_text(observation: Observation, *, private: bool) -> str:
    def cards(items: Sequence[Card]) -> str:
        return " ".join(str(card) for card in sorted(items, key=lambda card: card.index)) or "-"

    parts = [
        f"p{observation.player + 1}",
        f"deal {observation.deal_number}",
        observation.phase.value,
        f"to act {' '.join(f'p{seat + 1}' for seat in observation.to_act) or '-'}",
    ]
    if private:
        parts.append(f"hand {cards(observation.hand)}")
    parts += [
        f"sizes {' '.join(map(str, observation.hand_sizes))}",
        f"stock {observation.stock_size}",
        f"pile {' '.join(str(card) for card in observation.discard_pile) or '-'}",
        f"face up {' '.join(str(card) for card in observation.aside) or '-'}",
        f"table {' | '.join(str(meld) for meld in observation.table) or '-'}",
        f"scores {' '.join(map(str, observation.scores))}",
    ]
    return " · ".join(parts)


def register(names: str | Sequence[str] | None = None) -> list[str]:
    """Register ``rummylib_<variant>`` for each variant (default: every registered one).

    ``names`` is one variant's name or a sequence of names. Names already registered with
    OpenSpiel are left as they are. Returns the OpenSpiel names of all the variants asked
    for. Every name is checked before any is registered.

    >>> register("gin")
    ['rummylib_gin']

    Raises:
        UnknownVariantError: a name is not a registered variant.
    """
    known = set(pyspiel.registered_names())
    if isinstance(names, str):
        names = [names]
    wanted = list(VARIANTS) if names is None else [get_variant(name).name for name in names]
    for name in wanted:
        spiel_name = game_name(name)
        if spiel_name in known:
            continue
        variant = get_variant(name)
        # The creator is a class, as in OpenSpiel's own Python games: OpenSpiel's registry
        # outlives the interpreter, and a plain function it alone held would be freed after
        # Python shut down, which aborts the process; a class is never freed that late.
        creator = type(
            f"RummyGame_{name}", (RummyGame,), {"variant": variant, "__module__": __name__}
        )
        _CREATORS[spiel_name] = creator
        pyspiel.register_game(_game_type(variant), creator)
        known.add(spiel_name)
    return [game_name(name) for name in wanted]
