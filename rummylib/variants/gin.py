"""Gin Rummy, as OpenSpiel's ``gin_rummy`` plays it, to 100 points or as one deal.

Two players, one pack, ten cards each, the upcard offered to the non-dealer, then the dealer.
A turn takes the upcard or the top of the stock, then discards or knocks (at most
``knock_card`` points of deadwood after the best discard). The knocker discards, lays melds and
passes; the defender lays off on them (not after gin), lays its own melds and passes. At the
wall (two cards left in the stock) a player may only knock with the upcard or pass: a draw.
Phases, action model and guards follow OpenSpiel move by move (see the rules page).

>>> from rummylib import new_game
>>> from rummylib.actions import Pass
>>> state = new_game("gin", players=2, seed=1)
>>> state.phase, len(state.stock), len(state.discard_pile), state.legal_actions()
(<GinPhase.FIRST_UPCARD: 'first_upcard'>, 31, 1, (TakeDiscard(player=0, count=1), Pass(player=0)))
>>> state = state.apply(Pass(player=0)).apply(Pass(player=1))
>>> state.legal_actions()
(DrawStock(player=0),)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeAlias, cast

import attrs

from rummylib._settings import MAX_POINTS, flag, whole
from rummylib.actions import Action, Discard, DrawStock, Knock, LayDown, LayOff, Pass, TakeDiscard
from rummylib.arrangement import arrange
from rummylib.cards import Card, make_deck
from rummylib.engine import (
    Phase,
    PhaseBase,
    PublicInfo,
    Variant,
    added_lines,
    evolve,
    lists_legal,
    player_name,
    remove_cards,
    simple_action,
)
from rummylib.melds import MeldRules, find_melds
from rummylib.scoring import CardPoints, ScoreLine, hand_points
from rummylib.state import GameState
from rummylib.views import Observation

__all__ = [
    "MAX_UPCARD_TAKES",
    "WALL",
    "GinDetail",
    "GinPhase",
    "GinPublic",
    "GinRummy",
    "deadwood_floor",
    "least_deadwood",
]

#: Groups of 3–4 cards of one rank, runs of 3 or more of one suit, the ace low only.
RULES: Final = MeldRules(ace="low")
#: The melds listed one at a time: OpenSpiel's 185, runs of 3–5 (a longer run is two of them).
LISTED: Final = MeldRules(ace="low", max_run_size=5)
#: Ace 1, two to ten their pips, J Q K 10.
POINTS: Final = CardPoints()
#: A discard that leaves this many cards in the stock brings the wall.
WALL: Final = 2
#: The upcard taken this many times in draw phases draws the deal (OpenSpiel's finiteness cap).
MAX_UPCARD_TAKES: Final = 50


class GinPhase(PhaseBase):
    """Gin's own phases; a turn's draw and play are the core :class:`~rummylib.engine.Phase`."""

    #: The non-dealer, then the dealer, may take the first upcard or pass.
    FIRST_UPCARD = "first_upcard"
    #: Two cards are left in the stock; the player may knock with the upcard, or pass.
    WALL = "wall"
    #: The knocker discards a card that keeps the knock legal.
    KNOCK_DISCARD = "knock_discard"
    #: The knocker lays melds one at a time, then passes.
    KNOCKER_MELDS = "knocker_melds"
    #: The defender lays off cards on the knocker's melds, then passes (skipped after gin).
    LAYOFF = "layoff"
    #: The defender lays its own melds, then passes; the deal is scored.
    DEFENDER_MELDS = "defender_melds"


@attrs.frozen(kw_only=True)
class GinPublic(PublicInfo):
    """What both gin players see beyond the cards.

    Attributes:
        knock_card: the most deadwood a knock may leave in this deal (4.5).
        knocker: who knocked this deal, else ``None``.
        upcard_passes: how many players passed the first upcard (4.3).
    """

    knock_card: int = 10
    knocker: int | None = attrs.field(default=None, metadata={"seats": True})
    upcard_passes: int = 0


@attrs.frozen(kw_only=True, slots=False)  # copied on most turns: see engine.evolve
class GinDetail:
    """Gin's own bookkeeping inside a :class:`~rummylib.state.GameState`.

    Attributes:
        knock_card: the most deadwood a knock may leave in this deal.
        passes: how many players passed the first upcard.
        upcard_takes: how often the upcard was taken in the draw phase this deal.
        taken: the card taken from the discard pile this turn, else ``None``.
        threw_back: whether the last discard was the card its player had just taken.
        knocker: who knocked this deal, else ``None``.

    >>> GinDetail().knocker is None
    True
    """

    knock_card: int = 10
    passes: int = 0
    upcard_takes: int = 0
    taken: Card | None = None
    threw_back: bool = False
    knocker: int | None = None


# The phases every turn compares with, as module names. Reading a member off a phase enum
# (``GinPhase.WALL``) passes through the metaclass's ``__getattr__`` hook (EnumType's on Python
# 3.11, the engine's _PhaseType's after): about ten times the cost of a global, several times
# a turn.
_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY
_FIRST_UPCARD: Final = GinPhase.FIRST_UPCARD
_WALL_PHASE: Final = GinPhase.WALL
_KNOCK_DISCARD: Final = GinPhase.KNOCK_DISCARD

#: A state of a gin match.
State: TypeAlias = "GameState[GinDetail]"

#: What the steps of a deal after the draws are for, in a player's words.
_STEP_WORDS: Final[dict[PhaseBase, str]] = {
    GinPhase.WALL: "the stock is down to two cards (the wall): knock now, or the deal is a draw",
    GinPhase.KNOCK_DISCARD: "you knocked: discard to finish the knock",
    GinPhase.KNOCKER_MELDS: "you knocked: lay down your melds, then pass to end",
    GinPhase.LAYOFF: "you may add your cards to the knocker's melds now",
    GinPhase.DEFENDER_MELDS: "now lay down your own melds (the rest is deadwood)",
}


@functools.lru_cache(maxsize=8192)
def _least_deadwood(cards: frozenset[Card], discard: bool) -> int:
    return arrange(tuple(cards), RULES, POINTS, discard=discard).deadwood_points


#: The 52 bits of the pack's cards (:attr:`Card.bit <rummylib.cards.Card.bit>`): 13 ranks a
#: suit, ace first; the joker's bit is above them.
_PACK: Final = (1 << 52) - 1
#: A 13-bit mask of ranks times this is the mask of those ranks in every suit.
_EVERY_SUIT: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
#: The ranks A to J of every suit: the lowest card of a run of three that stays in its suit.
_RUN_STARTS: Final = 0x7FF * _EVERY_SUIT


def _suit_points() -> tuple[int, ...]:
    points = [0]  # the points of the masks of no rank; each rank doubles the table
    for value in (*range(1, 10), 10, 10, 10, 10):  # ace 1, two to ten their pips, J Q K 10
        points += [total + value for total in points]
    return tuple(points)


#: The points of the cards of one suit, by their 13-bit mask of ranks (bit 0 the ace).
_SUIT_POINTS: Final = _suit_points()


def deadwood_floor(hand: Iterable[Card]) -> int:
    """A lower bound of :func:`least_deadwood`: the points of cards that fit no meld at all.

    A card fits no meld when its rank is held in fewer than three suits and no two suit
    neighbours make a run with it; such cards are deadwood in every arrangement, less the
    largest when an 11th card is discarded. Cheap, so most knocks are refused without a solve.

    >>> from rummylib import parse_cards
    >>> deadwood_floor(parse_cards("As 2s 3s 7c 7d 7h 8h 9h Th 5d Kc"))  # 5d and Kc: less Kc
    5
    """
    # Listed on every discard turn, so the whole hand is one 52-bit mask (13 bits a suit)
    # and every suit is done at once: the rank groups are copied into each suit, and a run
    # start is kept only at ranks A-J, so the three cards it covers never cross into the
    # next suit.
    cards = tuple(hand)
    bits = 0
    for card in cards:  # one pack: each card once (a plain loop beats sum(map(...)) on 3.11)
        bits += card.bit
    bits &= _PACK
    a, b, c, d = bits & 0x1FFF, bits >> 13 & 0x1FFF, bits >> 26 & 0x1FFF, bits >> 39
    groups = a & b & (c | d) | c & d & (a | b)  # ranks held in three or four suits
    starts = bits & bits >> 1 & bits >> 2 & _RUN_STARTS  # the lowest card of each run of three
    loose = bits & ~(groups * _EVERY_SUIT | starts | starts << 1 | starts << 2)
    a, b, c, d = loose & 0x1FFF, loose >> 13 & 0x1FFF, loose >> 26 & 0x1FFF, loose >> 39
    points = _SUIT_POINTS
    total = points[a] + points[b] + points[c] + points[d]
    if len(cards) == 11:  # less the highest loose card (none: 0): its rank, at most 10 points
        highest = (a | b | c | d).bit_length()
        total -= highest if highest < 10 else 10
    return total


def least_deadwood(hand: Iterable[Card]) -> int:
    """The least deadwood of a hand; of 11 cards, after the best discard (OpenSpiel's count).

    >>> from rummylib import parse_cards
    >>> least_deadwood(parse_cards("As 2s 3s 7c 7d 7h 8h 9h Th 5d Kc"))  # discards Kc
    5
    """
    cards = frozenset(hand)
    return _least_deadwood(cards, len(cards) == 11)


@attrs.frozen(kw_only=True)
class GinRummy(Variant[GinDetail]):
    """Gin Rummy: OpenSpiel's ``gin_rummy`` deal, in a match to ``target_score`` points.

    ``knock_card``: the most deadwood a knock may leave (``oklahoma``: the first upcard's
    points instead, ``oklahoma_ace`` for an ace: 1, or 0 for gin only as in OpenSpiel).
    ``gin_bonus``, ``undercut_bonus``: added to the deadwood difference; ``undercut_on_tie``:
    equal deadwood is an undercut (the GRA reading; OpenSpiel scores a tie 0). At
    ``target_score`` the winner adds ``game_bonus`` and each player ``box_bonus`` per deal
    won; ``None`` plays one deal, scored as OpenSpiel's returns.

    >>> variant = GinRummy()
    >>> variant.knock_card, variant.target_score, variant.box_bonus, variant.game_bonus
    (10, 100, 25, 100)
    >>> GinRummy(knock_card=11)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: knock_card must be a whole number from 0 to 10, not 11
    """

    name: ClassVar[str] = "gin"
    title: ClassVar[str] = "Gin Rummy"
    aliases: ClassVar[tuple[str, ...]] = ("gin_rummy",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {
        GinPhase.FIRST_UPCARD: (TakeDiscard, DrawStock, Pass),
        Phase.DRAW: (TakeDiscard, DrawStock),
        Phase.PLAY: (Discard, Knock),
        GinPhase.WALL: (Knock, Pass),
        GinPhase.KNOCK_DISCARD: (Discard,),
        GinPhase.KNOCKER_MELDS: (LayDown, Pass),
        GinPhase.LAYOFF: (LayOff, Pass),
        GinPhase.DEFENDER_MELDS: (LayDown, Pass),
    }
    first_phase: ClassVar[PhaseBase] = GinPhase.FIRST_UPCARD
    setting_rules: ClassVar[str] = (
        "4.5 knock_card, 4.6 oklahoma oklahoma_ace, 4.8 gin_bonus undercut_bonus undercut_on_tie, "
        "4.11 target_score box_bonus game_bonus"
    )

    knock_card: int = attrs.field(default=10, validator=whole(0, maximum=10))
    oklahoma: bool = attrs.field(default=False, validator=flag)
    oklahoma_ace: int = attrs.field(default=1, validator=whole(0, maximum=1))
    gin_bonus: int = attrs.field(default=25, validator=whole(0, maximum=MAX_POINTS))
    undercut_bonus: int = attrs.field(default=25, validator=whole(0, maximum=MAX_POINTS))
    undercut_on_tie: bool = attrs.field(default=False, validator=flag)
    target_score: int | None = attrs.field(
        default=100, validator=whole(1, maximum=MAX_POINTS, optional=True)
    )
    box_bonus: int = attrs.field(default=25, validator=whole(0, maximum=MAX_POINTS))
    game_bonus: int = attrs.field(default=100, validator=whole(0, maximum=MAX_POINTS))

    @property
    def meld_rules(self) -> MeldRules:
        """Groups of 3–4, runs of 3 or more of one suit, the ace low only (A-2-3, never Q-K-A)."""
        return RULES

    @property
    def card_points(self) -> CardPoints:
        """Ace 1, two to ten their pips, J Q K 10."""
        return POINTS

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """One pack, no jokers."""
        return make_deck()

    def hand_size_for(self, players: int) -> int:
        """Ten cards each."""
        return 10

    def turn_up(self, rest: tuple[Card, ...]) -> dict[str, Any]:
        """The 21st card is the upcard, the first card of the discard pile."""
        return {"discard_pile": rest[:1], "stock": rest[1:]}

    def after_deal(self, state: State) -> State:
        """The deal's knock card: the table's, or the upcard's value in Oklahoma gin."""
        knock = self.knock_card
        if self.oklahoma:
            value = POINTS.of(state.discard_pile[-1])
            knock = self.oklahoma_ace if value == 1 else value
        return state.replace(detail=GinDetail(knock_card=knock))

    # -- legality, one refusal per kind ---------------------------------------------------------

    def _over(self, state: State, cards: Iterable[Card], what: str) -> str | None:
        left, limit = least_deadwood(cards), state.detail.knock_card
        if left > limit:
            return f"{what} {left} points of deadwood, over the knock card ({limit})"
        return None

    def _both_passed(self, state: State, action: Action) -> str | None:
        if state.phase is _FIRST_UPCARD and state.detail.passes == 2:
            return f"both players passed the upcard: {player_name(action.player)} draws from stock"
        return None

    @lists_legal
    def candidates_take_discard(self, state: State, player: int) -> Iterable[Action]:
        """Taking the upcard, when :meth:`refuse_take_discard` allows it."""
        take = cast("TakeDiscard", simple_action(TakeDiscard, player))
        return () if self.refuse_take_discard(state, take) else (take,)

    @lists_legal
    def candidates_draw_stock(self, state: State, player: int) -> Iterable[Action]:
        """Drawing from the stock, when :meth:`refuse_draw_stock` allows it."""
        draw = cast("DrawStock", simple_action(DrawStock, player))
        return () if self.refuse_draw_stock(state, draw) else (draw,)

    def refuse_take_discard(self, state: State, action: TakeDiscard) -> str | None:
        """After two passes of the first upcard, the non-dealer must draw from the stock."""
        return self._both_passed(state, action) or super().refuse_take_discard(state, action)

    def refuse_draw_stock(self, state: State, action: DrawStock) -> str | None:
        """The first upcard is offered to both players before anyone draws from the stock."""
        if state.phase is _FIRST_UPCARD and state.detail.passes < 2:
            return f"{player_name(action.player)} must take the first upcard or pass"
        return super().refuse_draw_stock(state, action)

    def refuse_pass(self, state: State, action: Pass) -> str | None:
        """No third pass of the first upcard; the knocker passes once the deadwood is low."""
        if state.phase is GinPhase.KNOCKER_MELDS:
            left, limit = hand_points(state.hands[action.player], POINTS), state.detail.knock_card
            if left > limit:
                return f"{left} points are left unmelded, over the knock card ({limit}): lay melds"
        return self._both_passed(state, action)

    def refuse_knock(self, state: State, action: Knock) -> str | None:
        """The hand (at the wall, with the upcard) must leave at most the knock card."""
        hand = state.hands[action.player]
        if state.phase is GinPhase.WALL:
            hand = (*hand, state.discard_pile[-1])
        return self._over(state, hand, "cannot knock: the best discard leaves")

    def refuse_discard(self, state: State, action: Discard) -> str | None:
        """A card of the hand; the knocker's discard must keep the knock legal."""
        refusal = super().refuse_discard(state, action)
        if refusal is None and state.phase is GinPhase.KNOCK_DISCARD:
            rest = remove_cards(state.hands[action.player], (action.card,))
            return self._over(state, rest, f"discarding {action.card} leaves")
        return refusal

    @lists_legal
    def candidates_knock(self, state: State, player: int) -> Iterable[Action]:
        """The knock, when legal; a hand whose :func:`deadwood_floor` is over is not solved."""
        hand = state.hands[player]
        if state.phase is _WALL_PHASE:
            hand = (*hand, state.discard_pile[-1])
        if deadwood_floor(hand) > state.detail.knock_card:
            return ()
        knock = Knock(player=player)
        return () if self.refuse_knock(state, knock) else (knock,)

    @lists_legal
    def candidates_discard(self, state: State, player: int) -> Iterable[Action]:
        """Every card of the hand; for the knocker, those that keep the knock legal."""
        listed = super().candidates_discard(state, player)
        if state.phase is _KNOCK_DISCARD:
            return [a for a in listed if self.refuse_discard(state, cast("Discard", a)) is None]
        return listed

    def refuse_lay_down(self, state: State, action: LayDown) -> str | None:
        """Legal melds of the hand; the knocker's must leave the knock legal."""
        refusal = super().refuse_lay_down(state, action)
        if refusal is None and state.phase is GinPhase.KNOCKER_MELDS:
            laid = [card for meld in action.melds for card in meld.cards]
            return self._over(state, remove_cards(state.hands[action.player], laid), "melds leave")
        return refusal

    def candidates_lay_down(self, state: State, player: int) -> Iterable[Action]:
        """Each single meld of the hand among OpenSpiel's 185 (runs of up to five cards)."""
        return [LayDown(player=player, melds=(m,)) for m in find_melds(state.hands[player], LISTED)]

    # -- effects ---------------------------------------------------------------------------------

    def apply_take_discard(self, state: State, action: TakeDiscard) -> State:
        """The upcard joins the hand; the draw phase counts it (the cap draws the deal)."""
        takes = state.detail.upcard_takes + (state.phase is _DRAW)
        if takes == MAX_UPCARD_TAKES:
            why = f"the upcard was taken {MAX_UPCARD_TAKES} times: a draw"
            return self._end(state, why, "void")
        # The engine's take of the top card (gin takes one: refuse_take_discard), made with the
        # new detail in one copy of the state rather than two.
        pile = state.discard_pile
        hands = list(state.hands)
        hands[action.player] = (*hands[action.player], pile[-1])
        detail = evolve(state.detail, upcard_takes=takes, taken=pile[-1])
        return state.replace(hands=tuple(hands), discard_pile=pile[:-1], phase=_PLAY, detail=detail)

    def end_turn(self, state: State, player: int, **changes: Any) -> State:
        """After a discard: the knocker melds; else the guards, the wall, or the next turn.

        ``changes``: the discard's new hands and pile (see the engine's
        :meth:`~rummylib.engine.Variant.end_turn`). A discard changes only those, so the
        phase, the stock and the detail read here are the same either way.
        """
        if state.phase is _KNOCK_DISCARD:
            return state.replace(phase=GinPhase.KNOCKER_MELDS, **changes)
        detail = state.detail
        threw_back = changes.get("discard_pile", state.discard_pile)[-1] == detail.taken
        if threw_back and detail.threw_back:
            why = "both players threw back the upcard they took: a draw"
            return self._end(state.replace(**changes), why, "void")
        if detail.taken is not None or detail.threw_back:  # else the copy would be the same
            detail = evolve(detail, taken=None, threw_back=threw_back)
        # The engine's next_turn, or the wall: the other player's turn (two players, both in).
        phase = _WALL_PHASE if len(state.stock) == WALL else _DRAW
        other = 1 - player
        return state.replace(
            phase=phase, current_player=other, to_act=(other,), detail=detail, **changes
        )

    def _to(self, state: State, player: int, phase: PhaseBase, **changes: Any) -> State:
        return state.replace(phase=phase, current_player=player, to_act=(player,), **changes)

    def apply_knock(self, state: State, action: Knock) -> State:
        """The knocker (at the wall, taking the upcard) goes on to discard."""
        if state.phase is GinPhase.WALL:
            state = super().apply_take_discard(state, TakeDiscard(player=action.player))
        detail = evolve(state.detail, knocker=action.player)
        return state.replace(phase=GinPhase.KNOCK_DISCARD, detail=detail)

    def apply_pass(self, state: State, action: Pass) -> State:
        """Pass the upcard, draw at the wall, or end a player's laying of cards."""
        phase, other = state.phase, 1 - action.player
        if phase is GinPhase.FIRST_UPCARD:
            detail = evolve(state.detail, passes=state.detail.passes + 1)
            return self._to(state, other, phase, detail=detail)
        if phase is GinPhase.WALL:
            why = f"the stock is down to {WALL} cards and {player_name(action.player)} passed"
            return self._end(state, f"{why}: a draw", "void")
        if phase is GinPhase.KNOCKER_MELDS:
            after = GinPhase.LAYOFF if state.hands[action.player] else GinPhase.DEFENDER_MELDS
            return self._to(state, other, after)
        if phase is GinPhase.LAYOFF:
            return state.replace(phase=GinPhase.DEFENDER_MELDS)
        return self._score(state)

    # -- scoring -----------------------------------------------------------------------------

    def _score(self, state: State) -> State:
        """The knocker wins the deadwood difference (plus the gin bonus), or is undercut."""
        knocker = state.detail.knocker
        assert knocker is not None  # the defender's last pass follows a knock
        defender = 1 - knocker
        mine, theirs = (hand_points(state.hands[p], POINTS) for p in (knocker, defender))
        margin, name = theirs - mine, player_name(knocker)
        knocked = f"{name} knocked with {mine} against {theirs}"
        if mine == 0:
            winner, bonus, ended_by = knocker, ("gin bonus", self.gin_bonus), f"{name} went gin"
            ending = "gin"
        elif margin > 0:
            winner, bonus, ended_by, ending = knocker, None, knocked, "knock"
        elif margin < 0 or self.undercut_on_tie:
            winner, bonus = defender, ("undercut bonus", self.undercut_bonus)
            ended_by, ending = f"{knocked} and was undercut", "undercut"
        else:
            return self._end(state, f"{knocked}: a tie", "tie")
        lines = [ScoreLine(player=winner, points=abs(margin), reason="deadwood difference")]
        if bonus is not None:
            lines.append(ScoreLine(player=winner, points=bonus[1], reason=bonus[0]))
        return self._end(state, ended_by, ending, winner, *(line for line in lines if line.points))

    def _end(
        self, state: State, why: str, ending: str, winner: int | None = None, *lines: ScoreLine
    ) -> State:
        """Record the deal (the lines are the winner's); end the match or deal again."""
        points = [0, 0]
        if winner is not None:
            points[winner] = sum(line.points for line in lines)
        if self.target_score is None:  # one deal, scored zero-sum as OpenSpiel's returns
            if winner is not None:
                mirror = [attrs.evolve(ln, player=1 - winner, points=-ln.points) for ln in lines]
                lines, points[1 - winner] = (*lines, *mirror), -points[winner]
            state = self.record_deal(state, points, ended_by=why, ending=ending, lines=lines)
            best = max(state.scores)
            return self.end_match(state, [p for p in (0, 1) if state.scores[p] == best])
        state = self.record_deal(state, points, ended_by=why, ending=ending, lines=lines)
        if winner is not None and state.scores[winner] >= self.target_score:
            return self._game_over(state, winner)
        dealer = state.dealer if winner is None else 1 - winner
        return self.deal(state, dealer=dealer, deal_number=state.deal_number + 1)

    def _game_over(self, state: State, winner: int) -> State:
        """The winner adds the game bonus; each player the box bonus per deal won."""
        lines = [ScoreLine(player=winner, points=self.game_bonus, reason="game bonus")]
        for player in (0, 1):
            won = sum(1 for deal in state.deal_results if deal.points[player] > 0)
            box = ScoreLine(player=player, points=won * self.box_bonus, reason=f"box bonus x{won}")
            lines += [box] if won else []
        return self.end_match(
            state, (winner,), lines=lines, scores=added_lines(state.scores, lines)
        )

    # -- for hosts and bots --------------------------------------------------------------------

    def public_info(self, state: State, player: int) -> GinPublic:
        """The deal's knock card, who knocked, and how many passed the first upcard."""
        detail = state.detail
        return GinPublic(
            knock_card=detail.knock_card, knocker=detail.knocker, upcard_passes=detail.passes
        )

    def move_words(self, state: State, kind: type[Action], actions: Sequence[Action]) -> str | None:
        """A lay-off in the lay-off step is onto the knocker's melds."""
        if kind is LayOff and actions and state.phase is GinPhase.LAYOFF:
            player = actions[0].player
            knocker = next(
                (
                    action.player
                    for action in reversed(state.history)
                    if isinstance(action, LayDown) and action.player != player
                ),
                None,
            )
            if knocker is not None:
                return f"lay off on p{knocker + 1}'s melds"
        return None

    def phase_words(self, state: State) -> str | None:
        """What each step of gin's deal is for (rules 4.3-4.8)."""
        if state.phase is GinPhase.FIRST_UPCARD:
            return "both passed the upcard" if state.detail.passes == 2 else "the first upcard"
        if state.phase is GinPhase.WALL and not any(
            isinstance(action, Knock) for action in state.legal_actions()
        ):  # nothing to knock with: say so, not "knock now"
            return "the stock is down to two cards (the wall): you cannot knock, the deal is a draw"
        return _STEP_WORDS.get(state.phase)

    def greedy_action(self, observation: Observation) -> Action | None:
        """Knock at once, lay the best melds, lay off what lowers the deadwood, else pass."""
        actions, hand, phase = observation.legal_actions, observation.hand, observation.phase
        knock = next((a for a in actions if isinstance(a, Knock)), None)
        if knock is not None or phase is Phase.PLAY:
            return knock
        passing = Pass(player=observation.player)
        if phase in {GinPhase.KNOCKER_MELDS, GinPhase.DEFENDER_MELDS}:
            best = arrange(hand, RULES, POINTS)
            return LayDown(player=observation.player, melds=best.melds) if best.melds else passing
        if phase is GinPhase.LAYOFF:
            offs = [a for a in actions if isinstance(a, LayOff)]
            now = least_deadwood(hand)
            gain = [a for a in offs if least_deadwood(remove_cards(hand, (a.card,))) < now]
            return gain[0] if gain else passing
        if phase is GinPhase.FIRST_UPCARD and Pass in {type(a) for a in actions}:
            top = observation.discard_pile[-1]
            taking = least_deadwood((*hand, top)) < least_deadwood(hand)
            return TakeDiscard(player=observation.player) if taking else passing
        return None

    def match_statistics(self, state: State) -> tuple[tuple[str, int], ...]:
        """Knocks (gins included), gins and undercuts so far."""
        ends = [deal.ending for deal in state.deal_results]
        gins, undercuts = ends.count("gin"), ends.count("undercut")
        knocks = gins + undercuts + ends.count("knock") + ends.count("tie")
        return (("knocks", knocks), ("gins", gins), ("undercuts", undercuts))
