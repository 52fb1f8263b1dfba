"""What one player may see.

An :class:`Observation` is everything a player at the table can know: their own hand, the
table, the discard pile, the open card while it lies face up, how many cards the others hold,
the scores, whose turn it is, and their own legal actions. It never holds another player's
cards, the order of the stock, or the seed, so a bot that acts on observations cannot cheat.

>>> from rummylib import new_game
>>> observation = new_game("rummy101", players=3, seed=8).observation(2)
>>> observation.player, observation.hand_sizes, observation.legal_actions
(2, (13, 13, 13), ())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import attrs

from rummylib import _svg
from rummylib.actions import Action
from rummylib.cards import Card
from rummylib.engine import PhaseBase, PublicInfo, Variant, check_seat, public_fact
from rummylib.melds import Meld, MeldRules

if TYPE_CHECKING:
    from rummylib.state import GameState

__all__ = ["Observation", "observe"]

_set = object.__setattr__
_NO_FACTS: Final = PublicInfo()


# Fields in a ``__dict__`` (no slots): :func:`observe`, called on every step of a learning
# environment, fills one dictionary instead of running ``__init__`` field by field.
@attrs.frozen(kw_only=True, slots=False)
class Observation:
    """One player's view of a :class:`~rummylib.state.GameState`.

    Attributes:
        player: whose view this is.
        variant: the variant and its settings (public: the table's rules).
        hand: the player's own cards, in the order received.
        hand_sizes: how many cards each player holds.
        stock_size: how many cards the stock holds (never their order).
        discard_pile: the discard pile, top card last (every card in it was shown face up).
        aside: the cards turned face up beside the stock for the deal (the Indian wild card,
            the Israeli open card).
        hidden_count: how many cards lie face down out of play (their faces are never shown).
        table: the melds on the table.
        scores: match totals.
        players_in: players still in the match.
        phase: what the game waits for.
        current_player: whose turn it is, or ``None``.
        to_act: every player who may act now.
        deal_number: 1 for the first deal.
        dealer: who dealt.
        legal_actions: this player's legal actions now.
        meld_rules: the meld rules in force for the deal.
        public: the variant's own public facts, its typed :class:`~rummylib.engine.PublicInfo`
            record (``dict(observation.public)`` reads them by name, and each is an
            attribute too: ``observation.pot`` at an Israeli table). The names the
            observation held itself before the variants owned them (``open_card``,
            ``multiplier``, ``pot``) read their neutral values where the variant has no such
            fact (:data:`~rummylib.engine.RETIRED_FACTS`).
    """

    player: int
    variant: Variant
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[Card, ...]
    aside: tuple[Card, ...]
    hidden_count: int
    table: tuple[Meld, ...]
    scores: tuple[int, ...]
    players_in: tuple[int, ...]
    phase: PhaseBase
    current_player: int | None
    to_act: tuple[int, ...]
    deal_number: int
    dealer: int
    legal_actions: tuple[Action, ...]
    meld_rules: MeldRules
    public: PublicInfo = _NO_FACTS

    @property
    def discard_top(self) -> Card | None:
        """The top card of the discard pile, if any.

        >>> from rummylib import new_game
        >>> new_game("rummy101", players=2, seed=1).observation(0).discard_top is None
        True
        """
        return self.discard_pile[-1] if self.discard_pile else None

    def _repr_svg_(self) -> str:  # a notebook shows the player's view (rummylib.svg)
        return _svg.observation(self)

    if TYPE_CHECKING:  # the retired names, read at run time through __getattr__ below

        @property
        def open_card(self) -> Card | None:
            """The Israeli open card, else ``None`` (:data:`~rummylib.engine.RETIRED_FACTS`)."""

        @property
        def multiplier(self) -> int:
            """The Israeli deal multiplier, else 1."""

        @property
        def pot(self) -> int:
            """The Israeli pot or the 500 pool, else 0."""

    else:  # read at run time only: mypy still catches a mistyped attribute

        def __getattr__(self, name: str) -> object:
            """A field of :attr:`public`, read as an attribute (``observation.knocker``)."""
            return public_fact(self, name, lambda: self.__dict__.get("public"))


def observe(state: GameState, player: int) -> Observation:
    """Build ``player``'s observation of ``state``.

    The same as :meth:`~rummylib.state.GameState.observation`.
    """
    match = state.match
    if player.__class__ is not int or not 0 <= player < match.player_count:
        player = check_seat(player, match.player_count)  # a numpy integer, or a bad seat
    hands = state.hands
    observation: Observation = object.__new__(Observation)
    # The fields of Observation, in order (tests/test_state.py holds this to __init__).
    _set(
        observation,
        "__dict__",
        {
            "player": player,
            "variant": match.variant,
            "hand": hands[player],
            "hand_sizes": tuple(map(len, hands)),
            "stock_size": len(state.stock),
            "discard_pile": state.discard_pile,
            "aside": state.aside,
            "hidden_count": len(state.hidden),
            "table": state.table,
            "scores": match.scores,
            "players_in": match.players_in,
            "phase": state.phase,
            "current_player": state.current_player,
            "to_act": state.to_act,
            "deal_number": match.deal_number,
            "dealer": match.dealer,
            "legal_actions": state.legal_actions(player),
            "meld_rules": state.meld_rules,
            "public": match.variant.public_info(state, player),
        },
    )
    return observation
