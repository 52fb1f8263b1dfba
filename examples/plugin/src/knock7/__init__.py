"""Seven-card knock rummy, a rummylib variant in a package of its own.

Two to five players, one pack, seven cards each, one face-up card starting the discard pile.
A turn: take the top of the stock or the top discard, then discard, or knock. A player may
knock when the cards left after their best discard and best melds are worth at most
``knock_limit`` points: the deal ends, the best discard goes on the pile, and every player's
deadwood is counted. The lowest deadwood wins (a tie goes to the knocker) and scores the
others' deadwood minus its own. If the stock runs out, the deal is a draw. One deal is the match.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from rummylib import Card, CardPoints, ConfigurationError, IllegalActionError, MeldRules, arrange
from rummylib.actions import Action, Discard, DrawStock, Knock, TakeDiscard
from rummylib.cards import make_deck
from rummylib.engine import Phase, Variant, deal_cards, next_player, remove_cards, shuffled
from rummylib.scoring import DealResult, MatchResult, ScoreLine
from rummylib.state import GameState
from rummylib.views import Observation

__all__ = ["KnockSeven"]


@attrs.frozen(kw_only=True)
class KnockSeven(Variant):
    """Seven-card knock rummy: draw, discard or knock at ``knock_limit`` points or fewer."""

    name: ClassVar[str] = "knock7"
    title: ClassVar[str] = "Seven-card knock rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5

    knock_limit: int = 10

    def __attrs_post_init__(self) -> None:
        if isinstance(self.knock_limit, bool) or self.knock_limit not in range(51):
            msg = f"knock_limit must be a whole number from 0 to 50, not {self.knock_limit!r}"
            raise ConfigurationError(msg)

    @property
    def meld_rules(self) -> MeldRules:
        """Groups of 3–4, runs of 3+ with the ace low only, no jokers in the pack."""
        return MeldRules(ace="low")

    @property
    def card_points(self) -> CardPoints:
        """Ace 1, pips at face value, J Q K 10."""
        return CardPoints()

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """One pack."""
        return make_deck()

    def hand_size_for(self, players: int) -> int:
        """Seven cards each."""
        return 7

    def start(self, state: GameState) -> GameState:
        """Deal seven cards each and turn one card up to start the discard pile."""
        deck = state.deck or shuffled(self.deck_for(state.player_count), state.seed, 0)
        hands, rest = deal_cards(deck, range(state.player_count), 7, state.player_count)
        return state.replace(
            hands=hands, discard_pile=rest[:1], stock=rest[1:], shuffle_count=1,
            phase=Phase.DRAW, current_player=0, to_act=(0,),
        )  # fmt: skip

    def _deadwood(self, hand: tuple[Card, ...], *, discard: bool) -> int:
        return arrange(hand, self.meld_rules, self.card_points, discard=discard).deadwood_points

    def legal_actions(self, state: GameState, player: int) -> tuple[Action, ...]:
        """Draw: stock, then the top discard. Play: discards by card, then a knock."""
        if state.phase is Phase.DRAW:
            return (DrawStock(player=player), TakeDiscard(player=player))
        hand = state.hands[player]
        moves: list[Action] = [
            Discard(player=player, card=card) for card in sorted(set(hand), key=lambda c: c.index)
        ]
        if self._deadwood(hand, discard=True) <= self.knock_limit:
            moves.append(Knock(player=player))
        return tuple(moves)

    def verify(self, state: GameState, action: Action) -> None:
        """Refuse anything :meth:`legal_actions` does not list, saying why."""
        if action.player not in state.to_act:
            reason = f"it is p{state.to_act[0] + 1}'s turn"
        elif action in self.legal_actions(state, action.player):
            return
        elif isinstance(action, Knock):
            reason = f"knocking needs {self.knock_limit} points of deadwood or fewer"
        elif isinstance(action, Discard) and state.phase is Phase.PLAY:
            reason = f"{action.card} is not in the hand"
        else:
            reason = f"{type(action).__name__} is not a move of the {state.phase.value} phase"
        raise IllegalActionError(reason)

    def apply(self, state: GameState, action: Action) -> GameState:
        """Take a card, discard it, or knock and score the deal."""
        player, hands = action.player, list(state.hands)
        if isinstance(action, DrawStock | TakeDiscard):
            source = state.stock if isinstance(action, DrawStock) else state.discard_pile[-1:]
            hands[player] = (*hands[player], source[0])
            if isinstance(action, DrawStock):
                return state.replace(hands=tuple(hands), stock=state.stock[1:], phase=Phase.PLAY)
            return state.replace(
                hands=tuple(hands), discard_pile=state.discard_pile[:-1], phase=Phase.PLAY
            )
        if isinstance(action, Knock):
            best = arrange(hands[player], self.meld_rules, self.card_points, discard=True)
            assert best.discard is not None
            hands[player] = remove_cards(hands[player], (best.discard,))
            pile = (*state.discard_pile, best.discard)
            return self._score(state.replace(hands=tuple(hands), discard_pile=pile), player)
        assert isinstance(action, Discard)
        hands[player] = remove_cards(hands[player], (action.card,))
        state = state.replace(hands=tuple(hands), discard_pile=(*state.discard_pile, action.card))
        if not state.stock:
            return self._score(state, None)
        upcoming = next_player(state.players_in, player)
        return state.replace(phase=Phase.DRAW, current_player=upcoming, to_act=(upcoming,))

    def _score(self, state: GameState, knocker: int | None) -> GameState:
        """The lowest deadwood wins the others' deadwood minus its own; no knock, a draw."""
        dead = [self._deadwood(hand, discard=False) for hand in state.hands]
        points = [0] * state.player_count
        lines: list[ScoreLine] = []
        winners: tuple[int, ...] = ()
        if knocker is not None:
            winner = min(range(state.player_count), key=lambda p: (dead[p], p != knocker))
            points[winner] = sum(dead) - dead[winner] * state.player_count
            winners = (winner,)
            lines.append(ScoreLine(player=winner, points=points[winner], reason="lowest deadwood"))
        ended = "the stock ran out" if knocker is None else f"p{knocker + 1} knocked"
        record = DealResult(deal_number=1, points=tuple(points), lines=tuple(lines), ended_by=ended)
        result = MatchResult(winners=winners, scores=tuple(points), deals=(record,))
        return state.replace(
            scores=tuple(points), deal_results=(record,), result=result,
            phase=Phase.MATCH_OVER, current_player=None, to_act=(),
        )  # fmt: skip

    def auto_action(self, state: GameState) -> Action:
        """The first legal move."""
        return self.legal_actions(state, state.to_act[0])[0]

    def greedy_action(self, observation: Observation) -> Action | None:
        """:class:`~rummylib.bots.GreedyBot` knocks as soon as it may."""
        return next((a for a in observation.legal_actions if isinstance(a, Knock)), None)
