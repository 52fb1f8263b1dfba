"""Seven-card knock rummy, a rummylib variant in a package of its own.

Two to five players, one pack, seven cards each, one face-up card starting the discard pile.
A turn: take the top of the stock or the top discard, then discard, or knock. Before taking a
card a player may instead **fold** (concede the deal): each other player scores
``fold_penalty`` points and the folder loses as many for each of them. A player may
knock when the cards left after their best discard and best melds are worth at most
``knock_limit`` points: the deal ends, the best discard goes on the pile, and every player's
deadwood is counted. The lowest deadwood wins (a tie goes to the knocker) and scores the
others' deadwood minus its own. If the stock runs out, the deal is a draw. One deal is the match.

The variant declares what the game is and which moves each phase allows; rummylib's engine
deals, checks turns and phases, draws, takes the top discard and discards. The variant adds
only its own rules: when a knock is allowed, what it does, and the end of a deal.

``Fold`` is a move of this variant's own: declaring its ``kind`` (its name in saved games),
its ``verb`` (its words in game records) and registering it with
:func:`rummylib.actions.register_action` makes it known to saved games, records, notation,
``rummylib play``, the Hypothesis strategies and the learning environments' action tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from rummylib import Card, CardPoints, MeldRules, arrange
from rummylib.actions import (
    Action,
    Discard,
    DrawStock,
    Knock,
    PlayerAction,
    TakeDiscard,
    register_action,
)
from rummylib.cards import make_deck
from rummylib.engine import Phase, PhaseBase, Variant, player_name, remove_cards, whole
from rummylib.scoring import ScoreLine
from rummylib.state import GameState
from rummylib.views import Observation

__all__ = ["Fold", "KnockSeven"]


@register_action
@attrs.frozen(kw_only=True)
class Fold(PlayerAction):
    """Concede the deal before taking a card (written ``p2 fold`` in a game record)."""

    kind: ClassVar[str] = "fold"
    verb: ClassVar[str] = "fold"


@attrs.frozen(kw_only=True)
class KnockSeven(Variant[None]):
    """Seven-card knock rummy: draw, discard or knock at ``knock_limit`` points or fewer."""

    name: ClassVar[str] = "knock7"
    title: ClassVar[str] = "Seven-card knock rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    # The moves of each phase, in the order legal_actions lists them.
    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {
        Phase.DRAW: (DrawStock, TakeDiscard, Fold),
        Phase.PLAY: (Discard, Knock),
    }

    # whole(): the range check every built-in setting uses; `rummylib variants knock7` shows
    # its bounds ("0 to 50")
    knock_limit: int = attrs.field(default=10, validator=whole(0, maximum=50))
    fold_penalty: int = attrs.field(default=10, validator=whole(0, maximum=50))

    def make_meld_rules(self) -> MeldRules:
        """Groups of 3–4, runs of 3+ with the ace low only, no jokers in the pack."""
        return MeldRules(ace="low")

    def make_card_points(self) -> CardPoints:
        """Ace 1, pips at face value, J Q K 10."""
        return CardPoints()

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """One pack."""
        return make_deck()

    def hand_size_for(self, players: int) -> int:
        """Seven cards each."""
        return 7

    def turn_up(self, rest: tuple[Card, ...]) -> dict[str, Any]:
        """One card face up starts the discard pile."""
        return {"discard_pile": rest[:1], "stock": rest[1:]}

    def _deadwood(self, hand: tuple[Card, ...], *, discard: bool) -> int:
        return arrange(hand, self.meld_rules, self.card_points, discard=discard).deadwood_points

    def refuse_knock(self, state: GameState[None], action: Knock) -> str | None:
        """A knock needs ``knock_limit`` points of deadwood or fewer after the best discard."""
        if self._deadwood(state.hands[action.player], discard=True) <= self.knock_limit:
            return None
        return f"knocking needs {self.knock_limit} points of deadwood or fewer"

    def apply_knock(self, state: GameState[None], action: Knock) -> GameState[None]:
        """The best discard goes on the pile and the deal is scored."""
        hands = list(state.hands)
        best = arrange(hands[action.player], self.meld_rules, self.card_points, discard=True)
        assert best.discard is not None
        hands[action.player] = remove_cards(hands[action.player], (best.discard,))
        pile = (*state.discard_pile, best.discard)
        return self._score(state.replace(hands=tuple(hands), discard_pile=pile), action.player)

    def apply_fold(self, state: GameState[None], action: Fold) -> GameState[None]:
        """The folder loses ``fold_penalty`` to each other player; the deal ends."""
        folder, others = action.player, state.player_count - 1
        points = [self.fold_penalty] * state.player_count
        points[folder] = -self.fold_penalty * others
        lines = [ScoreLine(player=folder, points=points[folder], reason="folded")]
        ended_by = f"{player_name(folder)} folded"
        state = self.record_deal(state, points, lines=lines, ended_by=ended_by, ending="fold")
        winners = [player for player in range(state.player_count) if player != folder]
        return self.end_match(state, winners)

    def end_turn(self, state: GameState[None], player: int, **changes: Any) -> GameState[None]:
        """After a discard (its hands and pile in ``changes``): the next turn, or a draw."""
        if not state.stock:
            return self._score(state.replace(**changes), None)
        return self.next_turn(state, player, **changes)

    def _score(self, state: GameState[None], knocker: int | None) -> GameState[None]:
        """The lowest deadwood wins the others' deadwood minus its own; no knock, a draw."""
        dead = [self._deadwood(hand, discard=False) for hand in state.hands]
        points = [0] * state.player_count
        lines: list[ScoreLine] = []
        winners: list[int] = []
        if knocker is not None:
            winner = min(range(state.player_count), key=lambda p: (dead[p], p != knocker))
            points[winner] = sum(dead) - dead[winner] * state.player_count
            winners.append(winner)
            lines.append(ScoreLine(player=winner, points=points[winner], reason="lowest deadwood"))
        ended = "the stock ran out" if knocker is None else f"{player_name(knocker)} knocked"
        ending = "stock_out" if knocker is None else "knock"
        state = self.record_deal(state, points, lines=lines, ended_by=ended, ending=ending)
        return self.end_match(state, winners)

    def greedy_action(self, observation: Observation) -> Action | None:
        """:class:`~rummylib.bots.GreedyBot` knocks as soon as it may."""
        return next((a for a in observation.legal_actions if isinstance(a, Knock)), None)
