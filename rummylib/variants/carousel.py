"""Carousel: manipulation knock rummy with a shared table (section 2 of the rules).

Ten cards each, no discard pile. A turn is up to three draws, each followed by the chance of
one **meld action**, which may rearrange the whole shared table (every meld legal, no table
card back to a hand, every joker keeping its card unless that card takes its place). A player
holding at most five points may knock; going out or a knock ends the deal, and the lowest
count wins the difference to every other player.

A meld action is a :class:`~rummylib.actions.Rearrange` carrying the complete new table:

>>> from rummylib import new_game, parse_meld
>>> from rummylib.actions import DrawStock, Rearrange
>>> deck = carousel_deck(
...     ["5h 6h 7h 8c 9c Kd Kc 2s 3s 4s", "Ah Ad Qs Js 9d 9h 3c 4c 6c Tc"], stock="5c *"
... )
>>> state = new_game("carousel", players=2, seed=0, deck=deck)
>>> state = state.apply(DrawStock(player=0))
>>> run = parse_meld("5h 6h 7h", state.variant.meld_rules)
>>> state = state.apply(Rearrange(player=0, table=[run]))
>>> [str(meld) for meld in state.table], state.current_player
(['5h 6h 7h'], 1)

:func:`best_play` finds the meld action that plays the most cards (or points) from a hand,
rearranging the table as needed; :class:`~rummylib.bots.GreedyBot` plays with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeAlias

import attrs

from rummylib._settings import MAX_CARD_POINTS, MAX_POINTS, Choice, whole
from rummylib.actions import Action, DrawStock, Knock, Pass, Rearrange
from rummylib.cards import Card, format_cards, make_deck
from rummylib.engine import (
    Phase,
    PhaseBase,
    PublicInfo,
    Variant,
    added_lines,
    evolve,
    next_player,
    player_name,
    remove_cards,
)
from rummylib.errors import IllegalActionError
from rummylib.melds import (
    Meld,
    MeldRules,
    canonical_melds,
    extension_cards,
    extensions,
    find_melds,
)
from rummylib.scoring import CardPoints, ScoreLine, hand_points
from rummylib.state import GameState, stack_deck
from rummylib.table import (
    JokerReplacementSource,
    Play,
    best_play,
    cards_of,
    rearrangement_refusal,
)
from rummylib.views import Observation

__all__ = [
    "Carousel",
    "CarouselDetail",
    "CarouselPhase",
    "CarouselPublic",
    "JokerReplacementSource",
    "KnockTieAward",
    "KnockTiming",
    "OnStockExhausted",
    "Play",
    "TieAward",
    "best_play",
    "carousel_deck",
    "hand_melds",
]

#: Cards each player is dealt (rule 2.2).
HAND_SIZE: Final = 10
#: Draws a turn may take before it stops (rules 2.6–2.8).
MAX_DRAWS: Final = 3


class CarouselPhase(PhaseBase):
    """Carousel's own phases."""

    #: The stock ran out, and each player gets one last meld turn without drawing (2.13).
    FINAL_TURN = "final_turn"
    #: The current player may knock now or pass (2.11).
    KNOCK_CHOICE = "knock_choice"


class KnockTiming(Choice):
    """When in their own turn a player may knock (rule 2.11)."""

    #: Before the first draw, after any draw, and right after the meld action or third draw.
    ANY_TIME_IN_TURN = "any_time_in_turn"
    #: Only before the first draw of the turn.
    START_OF_TURN = "start_of_turn"
    #: Only once the player has drawn this turn (after the meld action or third draw included).
    AFTER_DRAW = "after_draw"


class OnStockExhausted(Choice):
    """What happens when the stock runs out and nobody has knocked (rule 2.13)."""

    #: Every player, the one who took the last card included, gets one more turn in which
    #: they may make a meld action (no drawing); then the deal is scored.
    FINAL_MELD_TURN = "final_meld_turn"


class KnockTieAward(Choice):
    """What players who tie with the knocker score (rule 2.17)."""

    #: Each of them scores as if they had won alone, +10 each.
    EACH_FULL = "each_full"
    #: They share one winner's score (bonus included), rounded down.
    SPLIT = "split"


class TieAward(Choice):
    """What players tied for the lowest count score, the knocker not involved (2.17)."""

    #: Each tied player scores as a winner.
    EACH_FULL = "each_full"
    #: The tied players share one winner's score, rounded down.
    SPLIT = "split"


@attrs.frozen(kw_only=True)
class CarouselPublic(PublicInfo):
    """What every Carousel player sees beyond the cards.

    Attributes:
        draws: cards the current player has drawn this turn (0 to 3, rule 2.4).
        final_turns: during the final meld turns (2.13), the players still to take theirs.
        deals_won: per player, the deals won so far in the match (2.18).
    """

    draws: int = 0
    final_turns: tuple[int, ...] = attrs.field(default=(), metadata={"seats": True})
    deals_won: tuple[int, ...] = ()

    def lines(self, *, every: bool = False) -> list[str]:
        """The facts as lines; the final turns say whose are still to come (rule 2.13).

        >>> CarouselPublic(final_turns=(2, 0, 1), deals_won=(1, 0, 0)).lines()
        ['final turns to take (the stock ran out): p3, p1, p2', 'deals won: 1, 0, 0']
        """
        told = "final turns: "
        return [
            line.replace(told, "final turns to take (the stock ran out): ", 1)
            if line.startswith(told)
            else line
            for line in super().lines(every=every)
        ]


@attrs.frozen(kw_only=True)
class CarouselDetail:
    """Carousel's own bookkeeping inside a :class:`~rummylib.state.GameState`.

    Attributes:
        draws: cards the current player has drawn this turn (0 to 3).
        final_turns: during the final meld turns (rule 2.13), the players still to take theirs,
            the current player first; empty otherwise.
        deals_won: per player, the deals won so far in the match (rule 2.18).
    """

    draws: int = 0
    final_turns: tuple[int, ...] = ()
    deals_won: tuple[int, ...] = ()


#: The meld rules of every table, one shared object: the caches of ``rummylib.melds`` then
#: find them by identity, without comparing them field by field.
_MELD_RULES: Final = MeldRules()

#: A state of a Carousel match.
State: TypeAlias = "GameState[CarouselDetail]"


def _winners(counts: dict[int, int], players: Sequence[int], knocker: int | None) -> list[int]:
    """Rule 2.15: the knocker if strictly lowest, else the lowest count among the others."""
    others = [player for player in players if player != knocker]
    if knocker is not None and all(counts[knocker] < counts[p] for p in others):
        return [knocker]
    pool = others if knocker is not None else list(players)
    lowest = min(counts[player] for player in pool)
    return [player for player in pool if counts[player] == lowest]


def carousel_deck(hands: Sequence[str], *, stock: str = "", players: int | None = None) -> str:
    """A stacked Carousel deck, as text: :func:`~rummylib.state.stack_deck` with a stock.

    Hands of fewer than ``players`` seats are padded with empty ones.

    >>> deck = carousel_deck(["Ah 2h 3h 4h 5h 6h 7h 8h 9h Th", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc"])
    >>> deck.split()[:5]  # dealt one card at a time, round-robin from player 0
    ['Ah', 'Ac', '2h', '2c', '3h']
    """
    count = len(hands) if players is None else players
    padded = [*hands, *[""] * (count - len(hands))]
    return format_cards(stack_deck(Carousel(), padded, stock=stock, players=count))


@attrs.frozen(kw_only=True)
class Carousel(Variant[CarouselDetail]):
    """Carousel, manipulation knock rummy for 2–5 players (section 2 of the rules).

    Every setting of section 2 is a field with the default the rules give; the card values and
    bonuses are settings too (``card_points`` follows). The readings chosen where the rules
    leave room are listed on the rules page.

    >>> variant = Carousel()
    >>> variant.knock_limit, variant.knock_timing.value, variant.target_score
    (5, 'any_time_in_turn', 150)
    """

    name: ClassVar[str] = "carousel"
    title: ClassVar[str] = "Carousel"
    aliases: ClassVar[tuple[str, ...]] = ("manipulation_rummy", "vrtuljak")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {
        Phase.DRAW: (DrawStock, Knock),
        Phase.PLAY: (DrawStock, Pass, Knock, Rearrange),
        CarouselPhase.KNOCK_CHOICE: (Pass, Knock),
        CarouselPhase.FINAL_TURN: (Pass, Knock, Rearrange),
    }
    before_drawing: ClassVar[str] = "must draw a card first"
    setting_rules: ClassVar[str] = (
        "2.3 joker_points ace_points face_points, 2.10 joker_replacement_source, 2.11 knock_limit "
        "knock_timing, 2.13 on_stock_exhausted, 2.16 going_out_bonus, 2.17 knock_beaten_bonus "
        "knock_tie_award tie_award, 2.18 target_score target_bonus deal_won_bonus"
    )

    knock_limit: int = attrs.field(default=5, validator=whole(0, maximum=MAX_POINTS))
    knock_timing: KnockTiming = attrs.field(
        default=KnockTiming.ANY_TIME_IN_TURN, converter=KnockTiming
    )
    joker_replacement_source: JokerReplacementSource = attrs.field(
        default=JokerReplacementSource.HAND_OR_TABLE, converter=JokerReplacementSource
    )
    on_stock_exhausted: OnStockExhausted = attrs.field(
        default=OnStockExhausted.FINAL_MELD_TURN, converter=OnStockExhausted
    )
    knock_tie_award: KnockTieAward = attrs.field(
        default=KnockTieAward.EACH_FULL, converter=KnockTieAward
    )
    tie_award: TieAward = attrs.field(default=TieAward.EACH_FULL, converter=TieAward)
    target_score: int = attrs.field(default=150, validator=whole(1, maximum=MAX_POINTS))
    joker_points: int = attrs.field(default=25, validator=whole(0, maximum=MAX_CARD_POINTS))
    ace_points: int = attrs.field(default=1, validator=whole(0, maximum=MAX_CARD_POINTS))
    face_points: int = attrs.field(default=10, validator=whole(0, maximum=MAX_CARD_POINTS))
    going_out_bonus: int = attrs.field(default=25, validator=whole(0, maximum=MAX_POINTS))
    knock_beaten_bonus: int = attrs.field(default=10, validator=whole(0, maximum=MAX_POINTS))
    target_bonus: int = attrs.field(default=100, validator=whole(0, maximum=MAX_POINTS))
    deal_won_bonus: int = attrs.field(default=25, validator=whole(0, maximum=MAX_POINTS))

    # -- what the game is ---------------------------------------------------------------------

    def make_meld_rules(self) -> MeldRules:
        """Groups of 3–4 different suits, runs of 3+ with the ace low or high (rule 2.4)."""
        return _MELD_RULES

    def make_card_points(self) -> CardPoints:
        """Joker 25, J Q K 10, 2–10 pip value, ace 1, each a setting (rule 2.3)."""
        return CardPoints(ace=self.ace_points, face=self.face_points, joker=self.joker_points)

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """Rule 2.1: one pack and a joker for two players, two packs and two jokers for more."""
        if players <= 2:
            return make_deck(decks=1, jokers=1)
        return make_deck(decks=2, jokers=2)

    def hand_size_for(self, players: int) -> int:
        """Rule 2.2: ten cards each."""
        return HAND_SIZE

    # -- the match ----------------------------------------------------------------------------

    def new_detail(self, players: int) -> CarouselDetail:
        """No deal won yet."""
        return CarouselDetail(deals_won=(0,) * players)

    # -- legality -----------------------------------------------------------------------------

    def refuse_knock(self, state: State, action: Knock) -> str | None:
        """Rule 2.11: at most ``knock_limit`` points in hand, at a moment the timing allows."""
        phase = state.phase
        if phase is CarouselPhase.FINAL_TURN:
            return f"cannot knock: no knocking in the {phase.value} phase"
        held = hand_points(state.hands[action.player], self.card_points)
        if held > self.knock_limit:
            name, most = player_name(action.player), self.knock_limit
            return f"cannot knock: {name} holds {held} points; a knock needs at most {most}"
        if phase is Phase.DRAW and self.knock_timing is KnockTiming.AFTER_DRAW:
            return "cannot knock: at this table a player knocks only after drawing"
        if phase is not Phase.DRAW and self.knock_timing is KnockTiming.START_OF_TURN:
            return "cannot knock: at this table a player knocks only at the start of the turn"
        return None

    def refuse_pass(self, state: State, action: Pass) -> str | None:
        """Rules 2.6–2.8: no passing while the stock lasts, unless declining a choice."""
        if state.phase is Phase.PLAY and state.stock:
            name = player_name(action.player)
            return f"{name} cannot pass while the stock lasts: draw or meld"
        return None

    def refuse_rearrange(self, state: State, action: Rearrange) -> str | None:
        """Rule 2.5, by :func:`~rummylib.table.rearrangement_refusal`."""
        return rearrangement_refusal(
            state.table,
            state.hands[action.player],
            action.table,
            state.meld_rules,
            self.joker_replacement_source,
        )

    def check_rearrangement(
        self, table: Sequence[Meld], hand: Sequence[Card], new_table: Sequence[Meld]
    ) -> None:
        """Raise unless replacing ``table`` by ``new_table`` is a legal meld action (rule 2.5).

        >>> from rummylib import parse_cards, parse_meld
        >>> rules = Carousel().meld_rules
        >>> table = [parse_meld("7c 7h *=7d", rules)]
        >>> new = [parse_meld("7c 7h 7s", rules), parse_meld("8s 9s *=Ts", rules)]
        >>> Carousel().check_rearrangement(table, parse_cards("7s 8s 9s"), new)
        Traceback (most recent call last):
        ...
        rummylib.errors.IllegalActionError: the joker declared as 7d changed to Ts

        Raises:
            IllegalActionError: the first condition of
                :func:`~rummylib.table.rearrangement_refusal` that fails, in words.
        """
        refusal = rearrangement_refusal(
            table, hand, new_table, self.meld_rules, self.joker_replacement_source
        )
        if refusal is not None:
            raise IllegalActionError(refusal)

    def candidates_rearrange(self, state: State, player: int) -> Iterable[Action]:
        """The meld actions that keep the table's melds and lay down one new meld or add one card.

        :meth:`~rummylib.engine.Variant.verify` decides every other rearrangement.
        """
        rules = state.meld_rules
        hand = state.hands[player]
        table = state.table
        # Each new table once, by where its new meld goes and what it is: two tables are
        # equal just when those are (an extended meld is never the meld it extends).
        tables: dict[tuple[int, Meld], tuple[Meld, ...]] = {}
        for meld in find_melds(hand, rules):
            tables.setdefault((len(table), meld), (*table, meld))
        for number, meld in enumerate(table):
            # The hand's distinct cards in card order, asked only where a card fits at all.
            for card in extension_cards(meld, rules):
                if card in hand:
                    for extension in extensions(meld, card, rules):
                        new = (*table[:number], extension.meld, *table[number + 1 :])
                        tables.setdefault((number, extension.meld), new)
        return [Rearrange(player=player, table=new) for new in tables.values()]

    # -- applying -----------------------------------------------------------------------------

    def apply_knock(self, state: State, action: Knock) -> State:
        """The deal ends and is scored (2.14–2.17)."""
        return self._score(state, knocker=action.player)

    def apply_draw_stock(self, state: State, action: DrawStock) -> State:
        """Up to three draws a turn (2.6–2.8)."""
        state = super().apply_draw_stock(state, action)
        draws = state.detail.draws + 1
        state = state.replace(detail=evolve(state.detail, draws=draws))
        return self._turn_over(state, action.player) if draws >= MAX_DRAWS else state

    def apply_rearrange(self, state: State, action: Rearrange) -> State:
        """The new table; going out ends the deal, a meld action ends the turn (2.5)."""
        player = action.player
        added = cards_of(action.table) - cards_of(state.table)
        hands = list(state.hands)
        hands[player] = remove_cards(hands[player], added.elements())
        state = state.replace(hands=tuple(hands), table=canonical_melds(action.table))
        if not hands[player]:
            return self._score(state, went_out=player)
        if state.phase is CarouselPhase.FINAL_TURN:
            return self._next_final_turn(state)
        return self._turn_over(state, player)

    def apply_pass(self, state: State, action: Pass) -> State:
        """The turn (or the final meld turn) ends."""
        if state.phase is CarouselPhase.FINAL_TURN:
            return self._next_final_turn(state)
        return self.next_turn(state, action.player)

    def _turn_over(self, state: State, player: int) -> State:
        """The meld action or the third draw ended the turn: offer a knock, or move on."""
        if self.knock_timing is not KnockTiming.START_OF_TURN and (
            hand_points(state.hands[player], self.card_points) <= self.knock_limit
        ):
            return state.replace(phase=CarouselPhase.KNOCK_CHOICE)
        return self.next_turn(state, player)

    def next_turn(self, state: State, after: int, **changes: Any) -> State:
        """The next player's turn, nothing drawn yet; with the stock out, the final turns."""
        player = after
        state = super().next_turn(state, after, detail=evolve(state.detail, draws=0), **changes)
        if state.stock:
            return state
        # Rule 2.13 (R4): the final meld turns, from the next player to the last drawer.
        order = list(state.to_act)
        while order[-1] != player:
            order.append(next_player(state.players_in, order[-1]))
        detail = evolve(state.detail, final_turns=tuple(order))
        return state.replace(phase=CarouselPhase.FINAL_TURN, detail=detail)

    def _next_final_turn(self, state: State) -> State:
        pending = state.detail.final_turns[1:]
        if not pending:
            state = state.replace(detail=evolve(state.detail, final_turns=()))
            return self._score(state)
        return state.replace(
            current_player=pending[0],
            to_act=(pending[0],),
            detail=evolve(state.detail, final_turns=pending),
        )

    # -- scoring ------------------------------------------------------------------------------

    def _score(
        self, state: State, *, knocker: int | None = None, went_out: int | None = None
    ) -> State:
        """Score the deal (rules 2.14–2.17), then end the match or deal again (2.18)."""
        detail = state.detail
        players = state.players_in
        counts = {player: hand_points(state.hands[player], self.card_points) for player in players}
        if went_out is not None:
            ended_by, ending = f"{player_name(went_out)} went out", "went_out"
        elif knocker is not None:
            ended_by, ending = f"{player_name(knocker)} knocked with {counts[knocker]}", "knock"
        else:
            ended_by, ending = "the stock ran out", "stock_out"
        winners = _winners(counts, players, knocker)
        low = counts[winners[0]]
        beaten = None if knocker is None or knocker in winners else knocker
        lines: list[ScoreLine] = []
        award: dict[int, int] = {}

        def add(winner: int, points: int, reason: str) -> None:
            award[winner] = award.get(winner, 0) + points
            lines.append(ScoreLine(player=winner, points=points, reason=reason))

        for winner in winners:
            parts = [
                f"{player_name(p)} {counts[p]}−{low}={counts[p] - low}"
                for p in players
                if p != winner and counts[p] != low
            ]
            won = sum(counts[p] - low for p in players if p != winner)
            add(winner, won, f"won the deal with {low}: " + (", ".join(parts) or "no difference"))
            if went_out == winner:
                add(winner, self.going_out_bonus, "went out")
            if beaten is not None:
                how = "tied" if low == counts[beaten] else "undercut"
                knock = f"{player_name(beaten)}'s knock ({low} against {counts[beaten]})"
                add(winner, self.knock_beaten_bonus, f"{how} {knock}")
        if beaten is not None and low == counts[beaten]:
            split = self.knock_tie_award is KnockTieAward.SPLIT
        else:
            split = self.tie_award is TieAward.SPLIT
        if len(winners) > 1 and split:
            share = award[winners[0]] // len(winners)
            names = " ".join(player_name(winner) for winner in winners)
            how = f"split {len(winners)} ways, rounded down"
            lines = [
                ScoreLine(
                    player=winner,
                    points=share,
                    reason=f"shared the deal ({names}) with {low}: {award[winner]} {how}",
                )
                for winner in winners
            ]
            award = dict.fromkeys(winners, share)
        points = tuple(award.get(player, 0) for player in range(state.player_count))
        deals_won = list(detail.deals_won)
        for winner in winners:
            deals_won[winner] += 1
        detail = evolve(detail, deals_won=tuple(deals_won), draws=0, final_turns=())
        state = self.record_deal(
            state, points, lines=lines, ended_by=ended_by, ending=ending, detail=detail
        )
        if any(state.scores[player] >= self.target_score for player in players):
            return self._end_match(state)
        dealer = next_player(players, state.dealer)
        return self.deal(state, dealer=dealer, deal_number=state.deal_number + 1)

    def _end_match(self, state: State) -> State:
        """Rule 2.18: +100 for reaching the target, +25 per deal won; highest total wins."""
        scores = list(state.scores)
        lines = [
            ScoreLine(
                player=player,
                points=self.target_bonus,
                reason=f"reached {self.target_score} ({scores[player]})",
            )
            for player in state.players_in
            if scores[player] >= self.target_score
        ]
        for player in state.players_in:
            won = state.detail.deals_won[player]
            if won:
                reason = f"won {won} deal{'s' if won > 1 else ''} x{self.deal_won_bonus}"
                lines.append(
                    ScoreLine(player=player, points=won * self.deal_won_bonus, reason=reason)
                )
        totals = added_lines(scores, lines)
        best = max(totals[player] for player in state.players_in)
        winners = [player for player in state.players_in if totals[player] == best]
        return self.end_match(state, winners, lines=lines, scores=totals)

    # -- automatic play and views -------------------------------------------------------------

    def auto_action(self, state: State) -> Action:
        """Draw a card; pass when there is nothing to draw or a choice to decline."""
        player = state.to_act[0]
        if state.phase is Phase.DRAW or (state.phase is Phase.PLAY and state.stock):
            return DrawStock(player=player)
        return Pass(player=player)

    def joker_replacement(self) -> JokerReplacementSource:
        """Rule 2.10: where the card that frees a table joker may come from."""
        return self.joker_replacement_source

    def public_info(self, state: State, player: int) -> CarouselPublic:
        """Cards drawn this turn, the final meld turns still to come, and deals won."""
        detail = state.detail
        return CarouselPublic(
            draws=detail.draws, final_turns=detail.final_turns, deals_won=detail.deals_won
        )

    def move_words(self, state: State, kind: type[Action], actions: Sequence[Action]) -> str | None:
        """Which draw of the turn a draw is, the last saying that the turn ends (2.6-2.8).

        A player who plays nothing after the second draw learns before the third, not after
        it, that the third ends the turn.
        """
        if kind is DrawStock and actions:
            draws = state.detail.draws
            if draws == MAX_DRAWS - 1:
                return "draw a third and last card from the stock (no play after it)"
            if draws:
                return "draw a second card from the stock"
        return None

    def phase_words(self, state: State) -> str | None:
        """The knock choice and the final turns once the stock is out (rules 2.11, 2.13).

        A knock ends the deal at once (2.11): the final turns follow the stock's end only.
        """
        if state.phase is CarouselPhase.KNOCK_CHOICE:
            return "your hand is low enough to knock"
        if state.phase is CarouselPhase.FINAL_TURN:
            return "the stock ran out: this is your final turn, without drawing"
        return None

    def greedy_action(self, observation: Observation) -> Action | None:
        """Meld the most points :func:`best_play` finds, knock when allowed, else draw."""
        actions = observation.legal_actions
        player = observation.player
        if observation.phase in {Phase.PLAY, CarouselPhase.FINAL_TURN}:
            play = best_play(
                observation.table,
                observation.hand,
                self.meld_rules,
                objective="points",
                points=self.card_points,
                replacement=self.joker_replacement_source,
            )
            if play is not None:
                return Rearrange(player=player, table=play.table)
        if Knock(player=player) in actions:
            return Knock(player=player)
        if DrawStock(player=player) in actions:
            return DrawStock(player=player)
        if Pass(player=player) in actions:
            return Pass(player=player)
        return None

    def match_statistics(self, state: State) -> tuple[tuple[str, int], ...]:
        """Knocks and deals won by going out (rule 2.14) in the match so far."""
        knocks = sum(isinstance(action, Knock) for action in state.history)
        went_out = sum(record.ending == "went_out" for record in state.deal_results)
        return (("knocks", knocks), ("went out", went_out))


#: The same function as :func:`rummylib.melds.find_melds` (its fast scan used to live here).
hand_melds = find_melds
