"""Indian 13-card rummy: points, pool 101/201 and deals (section 6 of the rules).

Thirteen cards each from one pack and a printed joker (two players) or two packs and two
(three to six). After the deal one card is set aside face up: every card of its rank is a
**wild joker** for the deal (aces, if it is a printed joker). A turn takes the top of the
stock or of the open pile and discards; before taking, a player may **drop** out of the deal
(20 points before their first take, 40 after). After taking, a player may **show**: one card
goes face down and the other thirteen must split into melds with at least two sequences, one
of them pure. A wrong show costs 80 and the declarer leaves the deal. The others are counted
at their best grouping (all thirteen cards unless it holds the two sequences), at most 80.

The presets are the formats of the online rooms: :class:`IndianPoints` (one deal, paid in
points), :class:`IndianPool101` and :class:`IndianPool201` (deals until one player is left
below the pool limit, with an optional rejoin) and :class:`IndianDeals` (a fixed number of
deals played for chips).

The variant uses the engine's open seam only: its moves :class:`Drop` and :class:`Show` are
registered actions, the wild card lies in :attr:`GameState.aside
<rummylib.state.GameState.aside>` and its rank in the deal's :attr:`GameState.meld_rules
<rummylib.state.GameState.meld_rules>`, a show is judged by :func:`~rummylib.arrangement.arrange`
with a :class:`~rummylib.arrangement.Requirement`, and dropped hands lie face down in
:attr:`GameState.hidden <rummylib.state.GameState.hidden>`.

>>> from rummylib import new_game
>>> state = new_game("indian_points", players=2, seed=3)
>>> state.wild_card, sorted(state.meld_rules.wild_ranks), len(state.hands[0])
(Card.parse('8d'), [<Rank.EIGHT: 8>], 13)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeAlias

import attrs

from rummylib._settings import MAX_COUNT, MAX_DECKS, MAX_POINTS, flag, whole
from rummylib.actions import (
    Action,
    DeclineRebuy,
    Discard,
    DrawStock,
    EnvBlock,
    PlayerAction,
    Rebuy,
    TakeDiscard,
    TimeExpired,
    check_card,
    register_action,
)
from rummylib.arrangement import Arrangement, Requirement, arrange
from rummylib.cards import CARDS, Card, Rank, make_deck
from rummylib.engine import (
    Phase,
    PhaseBase,
    PublicInfo,
    Variant,
    added,
    discard_action,
    evolve,
    lists_legal,
    next_player,
    not_held,
    player_name,
    remove_cards,
    shuffled,
    simple_action,
)
from rummylib.errors import ConfigurationError
from rummylib.melds import MeldRules
from rummylib.scoring import CardPoints, ScoreLine, hand_points
from rummylib.state import GameState
from rummylib.views import Observation

__all__ = [
    "Drop",
    "IndianDeals",
    "IndianDetail",
    "IndianPhase",
    "IndianPoints",
    "IndianPool101",
    "IndianPool201",
    "IndianPublic",
    "IndianRummy",
    "Show",
    "hand_count",
]


# -- the moves of Indian rummy (also importable from rummylib.actions) --------------------------


@register_action
@attrs.frozen(kw_only=True)
class Drop(PlayerAction):
    """Drop out of the deal before taking a card (rule 6.11): a first or a middle drop.

    >>> Drop(player=1)
    Drop(player=1)
    """

    kind: ClassVar[str] = "drop"
    verb: ClassVar[str] = "drop"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(name="drop", order=115, meaning="drop out of the deal (a first or a middle drop)"),
    )


@register_action
@attrs.frozen(kw_only=True)
class Show(PlayerAction):
    """Show (declare) after taking a card, ``discard`` going face down (rule 6.12).

    The engine groups the other thirteen cards as well as they can be grouped; if they do not
    hold two sequences, one of them pure, with every card melded, it is a wrong show.

    >>> from rummylib import parse_card
    >>> Show(player=0, discard=parse_card("Kd")).discard
    Card.parse('Kd')
    """

    kind: ClassVar[str] = "show"
    verb: ClassVar[str] = "show {discard}"
    face_down: ClassVar[str | None] = "discard"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="show",
            parameter="card",
            field="discard",
            order=75,
            meaning="show, card c face down as the finishing card (the engine groups the "
            "other 13; a wrong show if they do not make a valid show)",
        ),
    )
    discard: Card = attrs.field(validator=check_card)


class IndianPhase(PhaseBase):
    """The phase of Indian rummy beyond drawing and playing."""

    #: Right after a pool deal, players it eliminated choose whether to rejoin (rule 6.17).
    REJOIN = "rejoin"


#: Rule 6.12: a show melds all thirteen cards with two sequences, one of them pure.
SHOW: Final = Requirement(min_runs=2, min_pure_runs=1, complete=True)
#: Rule 6.15: a loser's melds count only if they hold two sequences, one of them pure.
COUNTED: Final = Requirement(min_runs=2, min_pure_runs=1)
#: Rule 6.5: A, K, Q, J 10; 2-10 pip value; printed and wild jokers 0.
POINTS: Final = CardPoints(ace=10, face=10, joker=0)


@attrs.frozen(kw_only=True)
class IndianPublic(PublicInfo):
    """What every player at an Indian rummy table sees beyond the cards.

    Attributes:
        wild_card: the card set aside face up whose rank is wild in this deal (rule 6.3);
            ``None`` with ``wild_card=False``.
        taken: players who have taken a card in this deal (their drop is a middle drop).
        out_of_deal: players who dropped or showed wrongly in this deal, in that order.
        deal_points: the points each player has already scored in this deal (drops, wrong
            shows).
        chips: each player's chips (:class:`IndianDeals`; empty in the other formats).
        rejoined: players who have rejoined the pool (rule 6.17).
        eliminated: players out of the pool or the game.
    """

    wild_card: Card | None = None
    taken: tuple[int, ...] = attrs.field(default=(), metadata={"seats": True})
    out_of_deal: tuple[int, ...] = attrs.field(default=(), metadata={"seats": True})
    deal_points: tuple[int, ...] = ()
    chips: tuple[int, ...] = ()
    rejoined: tuple[int, ...] = attrs.field(default=(), metadata={"seats": True})
    eliminated: tuple[int, ...] = attrs.field(default=(), metadata={"seats": True})

    def lines(self, *, every: bool = False) -> list[str]:
        """The facts as lines; the wild card's says which rank is wild (rule 6.3).

        >>> IndianPublic(wild_card=Card.parse("Qh")).lines()
        ['wild card: Qh (every Q is wild)']
        >>> IndianPublic(wild_card=Card.parse("*")).lines()  # a printed joker: the aces
        ['wild card: * (every A is wild)']

        The players who have taken a card say what it changes (rule 6.11):

        >>> IndianPublic(taken=(0, 2)).lines()
        ['taken a card (a drop is now a middle drop): p1, p3']
        """
        lines = [
            line.replace("taken: ", "taken a card (a drop is now a middle drop): ", 1)
            if line.startswith("taken: ")
            else line
            for line in super().lines(every=every)
        ]
        card = self.wild_card
        if card is None:
            return lines
        rank = Rank.ACE if card.is_joker else card.rank
        assert rank is not None
        told = f"wild card: {card}"
        return [f"{line} (every {rank.letter} is wild)" if line == told else line for line in lines]


@attrs.frozen(kw_only=True, slots=False)  # copied on many turns: see engine.evolve
class IndianDetail:
    """The Indian game's own bookkeeping inside a :class:`~rummylib.state.GameState`.

    Attributes:
        taken: players who have taken a card in this deal (a drop after it is a middle drop).
        out_of_deal: players who dropped or showed wrongly in this deal, in that order.
        deal_points: the points each player has scored in this deal so far.
        deal_lines: why, one line for each player out of the deal.
        dealt_open: whether the bottom card of the open pile is the first open card, which
            may always be taken (rule 6.9).
        first_seat: the seat that played first in this deal (rule 6.4 moves it on).
        chips: each player's chips (deals format; rule 6.18).
        rejoined: players who have rejoined (each at most once, rule 6.17).
        eliminated: players out of the pool, in the order they went out.
        rejoin_level: the total a player rejoins with after this deal: the highest total of
            the players still in when it ended, + 1 (the same for every player rejoining).
        events: match events outside deal scoring (eliminations, rejoins), for the record.
        drops, wrong_shows, shows, rejoins: counts for :meth:`IndianRummy.match_statistics`.
    """

    taken: tuple[int, ...] = ()
    out_of_deal: tuple[int, ...] = ()
    deal_points: tuple[int, ...] = ()
    deal_lines: tuple[ScoreLine, ...] = ()
    dealt_open: bool = True
    first_seat: int = 0
    chips: tuple[int, ...] = ()
    rejoined: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()
    rejoin_level: int = 0
    events: tuple[ScoreLine, ...] = ()
    # Counts for match_statistics; they follow from the history, so equality ignores them.
    drops: int = attrs.field(default=0, eq=False)
    wrong_shows: int = attrs.field(default=0, eq=False)
    shows: int = attrs.field(default=0, eq=False)
    rejoins: int = attrs.field(default=0, eq=False)


#: A state of an Indian rummy game.
State: TypeAlias = "GameState[IndianDetail]"


def wild_rank(card: Card) -> Rank:
    """Rule 6.3: the rank a wild card makes wild (aces for a printed joker).

    >>> from rummylib import parse_card
    >>> wild_rank(parse_card("7c")), wild_rank(parse_card("*"))
    (<Rank.SEVEN: 7>, <Rank.ACE: 1>)
    """
    rank = card.rank
    return Rank.ACE if rank is None else rank


@functools.lru_cache(maxsize=64)
def _deal_rules(rules: MeldRules, rank: Rank) -> MeldRules:
    """The table's rules with ``rank`` wild (one per rank and table)."""
    return attrs.evolve(rules, wild_ranks=frozenset({rank}))


def hand_count(hand: Sequence[Card], rules: MeldRules, full_count: int = 80) -> int:
    """Rule 6.15: the points of a loser's hand, at its best grouping, at most ``full_count``.

    Only the cards outside melds count if the best grouping holds two sequences, one of them
    pure; otherwise every card counts. Printed and wild jokers count 0 (rule 6.5).

    >>> from rummylib import parse_cards
    >>> rules = MeldRules(wild_ranks={Rank.SEVEN})
    >>> hand_count(parse_cards("2h 3h 4h 5s 6s 7d 9c 9d 9s Jd Qd Kc 3c"), rules)  # Jd Qd 7d=Kd
    24
    >>> hand_count(parse_cards("2h 3h 4h 9c 9d 9s Jd Jc Js Kd Kc Ks 5c"), rules)  # one sequence
    80
    >>> hand_count(parse_cards("2h 3h 4h 9c 9d 9s Jd Jc Js Kd Kc Ks 5c"), rules, full_count=200)
    101
    """
    best = arrange(hand, rules, POINTS, require=COUNTED)
    if best is not None:
        left = best.deadwood_points
    else:
        left = hand_points(hand, POINTS, wild_ranks=rules.wild_ranks)
    return min(left, full_count)


def _face_down(state: State, player: int) -> State:
    """The state with ``player``'s whole hand set aside face down (rules 6.11, 6.12, 6.14)."""
    hands = list(state.hands)
    hidden = (*state.hidden, *hands[player])
    hands[player] = ()
    return state.replace(hands=tuple(hands), hidden=hidden)


def _without(players: tuple[int, ...], player: int) -> tuple[int, ...]:
    return tuple(p for p in players if p != player)


@attrs.frozen(kw_only=True)
class IndianRummy(Variant[IndianDetail]):
    """Indian 13-card rummy, one deal paid in points; the base of the other formats.

    Every deal setting of section 6 is a field with its default (the rules page lists them).
    The formats differ in what follows a deal: :class:`IndianPoints` (this game under its
    registered name) ends there, :class:`IndianPool101` and :class:`IndianPool201` play on
    until one player is left below the pool limit, :class:`IndianDeals` plays a fixed number
    of deals for chips.

    >>> IndianPoints().first_drop, IndianPool201().first_drop, IndianDeals().deals
    (20, 25, 2)
    """

    title: ClassVar[str] = "Indian rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {
        Phase.DRAW: (DrawStock, TakeDiscard, Drop),
        Phase.PLAY: (Discard, Show),
        IndianPhase.REJOIN: (Rebuy, DeclineRebuy),
    }
    host_events: ClassVar[tuple[type[Action], ...]] = (TimeExpired,)
    lower_score_wins: ClassVar[bool] = True
    setting_rules: ClassVar[str] = (
        "6.1 decks, 6.3 wild_card, 6.9 take_discarded_joker, 6.11 first_drop middle_drop, "
        "6.12 full_count, 6.17 pool_limit rejoin_below, 6.18 deals"
    )
    #: The greedy bot drops its first hand when the hand's melds (jokers and wild cards used
    #: at their best) leave at least this many points and it holds no pure sequence (about
    #: one dealt hand in six).
    greedy_drop_deadwood: ClassVar[int] = 70

    decks: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_DECKS, optional=True)
    )
    wild_card: bool = attrs.field(default=True, validator=flag)
    take_discarded_joker: bool = attrs.field(default=False, validator=flag)
    first_drop: int = attrs.field(default=20, validator=whole(0, maximum=MAX_POINTS))
    middle_drop: int = attrs.field(default=40, validator=whole(0, maximum=MAX_POINTS))
    full_count: int = attrs.field(default=80, validator=whole(1, maximum=MAX_POINTS))

    # -- what the game is ---------------------------------------------------------------------

    def make_meld_rules(self) -> MeldRules:
        """Rule 6.6: sets of 3-4 suits, sequences with the ace low or high; no wild rank yet.

        The deal's rules (:meth:`after_deal`) add the wild card's rank.
        """
        return MeldRules()

    def make_card_points(self) -> CardPoints:
        """Rule 6.5: A, K, Q, J 10; 2-10 pip value; jokers 0 (wild cards count as jokers)."""
        return POINTS

    def packs_for(self, players: int) -> int:
        """Rule 6.1: ``decks`` packs, by default one for two players and two for more."""
        if self.decks is not None:
            return self.decks
        return 1 if players == 2 else 2

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """Rule 6.1: the packs, one printed joker each."""
        packs = self.packs_for(players)
        return make_deck(decks=packs, jokers=packs)

    def hand_size_for(self, players: int) -> int:
        """Thirteen cards each (rule 6.2)."""
        return 13

    def check_deal(self, players: int) -> None:
        """Raise unless ``decks`` deal 13 cards to ``players``, the wild and open cards, a stock.

        >>> IndianPoints(decks=1).check_deal(4)
        Traceback (most recent call last):
        ...
        rummylib.errors.ConfigurationError: 1 pack (53 cards) cannot deal 13 cards to 4 players, ...
        """
        deck = len(self.deck_for(players))
        face_up = 2 if self.wild_card else 1
        if 13 * players + face_up < deck:
            return
        packs = self.packs_for(players)
        most = (deck - face_up - 1) // 13
        msg = (
            f"{packs} pack{'s' if packs > 1 else ''} ({deck} cards) cannot deal 13 cards to "
            f"{players} players, the face-up cards and a stock: decks={packs} is for at most "
            f"{most} players"
        )
        raise ConfigurationError(msg)

    def new_detail(self, players: int) -> IndianDetail:
        """Nobody out; the deals format gives every player ``full_count x players`` chips."""
        return IndianDetail(deal_points=(0,) * players)

    def turn_up(self, rest: tuple[Card, ...]) -> dict[str, Any]:
        """Rule 6.2: the wild card set aside face up, then the first open card, then the stock."""
        if self.wild_card:
            return {"aside": rest[:1], "discard_pile": rest[1:2], "stock": rest[2:]}
        return {"discard_pile": rest[:1], "stock": rest[1:]}

    def after_deal(self, state: State) -> State:
        """The deal's wild rank (rule 6.3) and a fresh count of drops and takes."""
        detail = evolve(
            state.detail,
            taken=(),
            out_of_deal=(),
            deal_points=(0,) * state.player_count,
            deal_lines=(),
            dealt_open=True,
            first_seat=state.current_player,
        )
        rules = None
        if state.aside:
            rules = _deal_rules(self.meld_rules, wild_rank(state.aside[0]))
        return state.replace(detail=detail, meld_rules=rules)

    # -- legality -----------------------------------------------------------------------------

    def _is_joker(self, state: State, card: Card) -> bool:
        return card.is_joker or card.rank in state.meld_rules.wild_ranks

    def _take_refusal(self, state: State) -> str | None:
        """Rule 6.9: a discarded joker (printed or wild) stays on the pile."""
        pile = state.discard_pile
        if not pile:
            return "the open pile is empty"
        top = pile[-1]
        if self.take_discarded_joker or not self._is_joker(state, top):
            return None
        if state.detail.dealt_open and len(pile) == 1:
            return None  # the first open card may always be taken
        return f"{top} is a discarded joker and may not be taken from the open pile"

    def refuse_take_discard(self, state: State, action: TakeDiscard) -> str | None:
        """Rule 6.9: the top card only, and not a joker a player discarded."""
        if action.count != 1:
            return "only the top card of the open pile can be taken"
        return self._take_refusal(state)

    @lists_legal
    def candidates_take_discard(self, state: State, player: int) -> Iterable[Action]:
        """Taking the top of the open pile, where rule 6.9 allows it."""
        if self._take_refusal(state) is not None:
            return ()
        return (simple_action(TakeDiscard, player),)

    def refuse_show(self, state: State, action: Show) -> str | None:
        """Rule 6.12: any card of the hand may be the finishing card (a wrong show is legal)."""
        return not_held(state, action.player, action.discard)

    @lists_legal
    def candidates_show(self, state: State, player: int) -> Iterable[Action]:
        """One show per distinct card of the hand, in card order, wrong shows included."""
        indices = sorted({card.index for card in state.hands[player]})
        return [Show(player=player, discard=CARDS[index]) for index in indices]

    def refuse_time_expired(self, state: State, action: TimeExpired) -> str | None:
        """Rule 6.13: the host reports the clock of a player who must act."""
        if action.player not in state.to_act:
            return f"{player_name(action.player)} has no move to make now"
        return None

    # -- applying -----------------------------------------------------------------------------

    def _took(self, state: State, player: int, **changes: Any) -> State:
        detail = state.detail
        if player in detail.taken and not changes:
            return state
        taken = detail.taken if player in detail.taken else (*detail.taken, player)
        return state.replace(detail=evolve(detail, taken=taken, **changes))

    def apply_draw_stock(self, state: State, action: DrawStock) -> State:
        """The top of the stock (rule 6.9)."""
        return self._took(super().apply_draw_stock(state, action), action.player)

    def apply_take_discard(self, state: State, action: TakeDiscard) -> State:
        """The top of the open pile (rule 6.9); the first open card once taken is gone."""
        first = state.detail.dealt_open and len(state.discard_pile) == 1
        state = super().apply_take_discard(state, action)
        if first:
            return self._took(state, action.player, dealt_open=False)
        return self._took(state, action.player)

    def apply_drop(self, state: State, action: Drop) -> State:
        """Rule 6.11: the hand goes face down and the drop is scored."""
        return self._drop(state, action.player)

    def apply_time_expired(self, state: State, action: TimeExpired) -> State:
        """Rule 6.13: a drop on a turn (first or middle), a declined rejoin in the pool."""
        if state.phase is IndianPhase.REJOIN:
            return self._answer_rejoin(state, action.player, accept=False)
        return self._drop(state, action.player)

    def _drop(self, state: State, player: int) -> State:
        detail = state.detail
        middle = player in detail.taken
        points = self.middle_drop if middle else self.first_drop
        reason = f"{'middle' if middle else 'first'} drop"
        state = state.replace(detail=evolve(detail, drops=detail.drops + 1))
        return self._leave_deal(state, player, points, reason, ending="drop")

    def apply_show(self, state: State, action: Show) -> State:
        """Rule 6.12: a valid show ends the deal; a wrong show costs ``full_count``."""
        player = action.player
        rest = remove_cards(state.hands[player], (action.discard,))
        best = arrange(rest, state.meld_rules, POINTS, require=SHOW)
        detail = state.detail
        if best is None:
            state = state.replace(detail=evolve(detail, wrong_shows=detail.wrong_shows + 1))
            return self._leave_deal(state, player, self.full_count, "wrong show", "wrong_show")
        hands = list(state.hands)
        hands[player] = ()
        state = state.replace(
            hands=tuple(hands),
            hidden=(*state.hidden, action.discard),
            table=best.melds,
            detail=evolve(detail, shows=detail.shows + 1),
        )
        return self._score_show(state, player, best)

    def _leave_deal(
        self, state: State, player: int, points: int, reason: str, ending: str
    ) -> State:
        """The player's hand goes face down and they are out of the deal with ``points``."""
        state = _face_down(state, player)
        detail = state.detail
        detail = evolve(
            detail,
            out_of_deal=(*detail.out_of_deal, player),
            deal_points=added(detail.deal_points, player, points),
            deal_lines=(*detail.deal_lines, ScoreLine(player=player, points=points, reason=reason)),
        )
        state = state.replace(detail=detail)
        left = self.in_deal(state)
        if len(left) == 1:
            return self._score_last(state, left[0], ending)
        return self.next_turn(state, player)

    def in_deal(self, state: State) -> tuple[int, ...]:
        """The players still in the deal: in the game, neither dropped nor out by a wrong show."""
        out = state.detail.out_of_deal
        return tuple(player for player in state.players_in if player not in out)

    def next_turn(self, state: State, after: int, **changes: Any) -> State:
        """The next player in the deal; an empty stock is made again from the pile (6.10)."""
        out = state.detail.out_of_deal
        upcoming = next_player(state.players_in, after)
        while upcoming in out:
            upcoming = next_player(state.players_in, upcoming)
        state = state.replace(
            phase=Phase.DRAW, current_player=upcoming, to_act=(upcoming,), **changes
        )
        if state.stock or len(state.discard_pile) < 2:
            return state
        pile = state.discard_pile
        return state.replace(
            stock=shuffled(pile[:-1], state.seed, state.shuffle_count),
            discard_pile=pile[-1:],
            shuffle_count=state.shuffle_count + 1,
            detail=evolve(state.detail, dealt_open=False),
        )

    # -- scoring ------------------------------------------------------------------------------

    def _score_show(self, state: State, winner: int, best: Arrangement) -> State:
        """Rule 6.15: every other player in the deal is counted; the winner scores 0."""
        detail = state.detail
        points = list(detail.deal_points)
        lines = [ScoreLine(player=winner, points=0, reason="valid show"), *detail.deal_lines]
        for player in self.in_deal(state):
            if player == winner:
                continue
            count = hand_count(state.hands[player], state.meld_rules, self.full_count)
            points[player] += count
            lines.append(ScoreLine(player=player, points=count, reason="hand count"))
        ended_by = f"{player_name(winner)} showed"
        state = self.record_deal(state, points, lines=lines, ended_by=ended_by, ending="show")
        return self.after_scoring(state, winner)

    def _score_last(self, state: State, winner: int, ending: str) -> State:
        """Rule 6.14: the last player in the deal wins it with 0, without showing."""
        state = _face_down(state, winner)  # the winner's hand is never shown
        detail = state.detail
        lines = [ScoreLine(player=winner, points=0, reason="last in the deal"), *detail.deal_lines]
        ended_by = f"{player_name(winner)} is the last player in the deal"
        state = self.record_deal(
            state, detail.deal_points, lines=lines, ended_by=ended_by, ending=ending
        )
        return self.after_scoring(state, winner)

    def after_scoring(self, state: State, winner: int) -> State:
        """What follows a scored deal won by ``winner``: here (points), the end (rule 6.16).

        Each loser pays their points; ``MatchResult.payouts`` is signed.
        """
        points = state.deal_results[-1].points
        payouts = [-value for value in points]
        payouts[winner] = sum(points)
        return self.end_match(state, (winner,), payouts=payouts, lines=state.detail.events)

    def next_deal(self, state: State) -> State:
        """The next deal: the first seat moves one on among the players still in (6.4)."""
        return self.deal(state, dealer=state.detail.first_seat, deal_number=state.deal_number + 1)

    def apply_rebuy(self, state: State, action: Rebuy | DeclineRebuy) -> State:
        """Rule 6.17: back in the pool at the highest total + 1, or out for good."""
        return self._answer_rejoin(state, action.player, accept=isinstance(action, Rebuy))

    apply_decline_rebuy = apply_rebuy

    def _answer_rejoin(self, state: State, player: int, *, accept: bool) -> State:
        state = state.replace(to_act=_without(state.to_act, player))
        if not accept:  # out for good; until the answer a player offered a rejoin is in
            state = state.replace(players_in=_without(state.players_in, player))
        else:
            detail = state.detail
            level = detail.rejoin_level
            scores = list(state.scores)
            event = ScoreLine(
                player=player, points=level - scores[player], reason=f"rejoined at {level}"
            )
            scores[player] = level
            state = state.replace(
                scores=tuple(scores),
                detail=evolve(
                    detail,
                    rejoined=(*detail.rejoined, player),
                    eliminated=_without(detail.eliminated, player),
                    rejoins=detail.rejoins + 1,
                    events=(*detail.events, event),
                ),
            )
        if state.to_act:
            return state
        if len(state.players_in) == 1:  # every player eliminated declined: the pool is won
            return self.end_match(state, state.players_in, lines=state.detail.events)
        return self.next_deal(state)

    # -- for hosts and bots -------------------------------------------------------------------

    def auto_action(self, state: State) -> Action:
        """The move made for a player who cannot act: draw, discard what was drawn, no rejoin."""
        if state.phase is IndianPhase.REJOIN:
            return DeclineRebuy(player=state.to_act[0])
        player = state.current_player
        assert player is not None
        if state.phase is Phase.PLAY:
            return discard_action(player, state.hands[player][-1])
        return simple_action(DrawStock if state.stock else Drop, player)

    def public_info(self, state: State, player: int) -> IndianPublic:
        """The wild card, who is out of the deal and their points, chips, rejoins, eliminations."""
        detail = state.detail
        return IndianPublic(
            wild_card=state.aside[0] if state.aside else None,
            taken=detail.taken,
            out_of_deal=detail.out_of_deal,
            deal_points=detail.deal_points,
            chips=detail.chips,
            rejoined=detail.rejoined,
            eliminated=detail.eliminated,
        )

    def move_words(self, state: State, kind: type[Action], actions: Sequence[Action]) -> str | None:
        """Drops, shows and the pools' rejoin."""
        if kind is Drop:
            return "drop your hand"
        if kind is Show:
            return "show with a finishing card"
        if kind is Rebuy and state.phase is IndianPhase.REJOIN:
            return "rejoin the pool"
        return None

    def phase_words(self, state: State) -> str | None:
        """A player put out of a pool may rejoin (rule 6.17)."""
        return "the pool put you out" if state.phase is IndianPhase.REJOIN else None

    def greedy_action(self, observation: Observation) -> Action | None:
        """Show when it can; drop a hopeless first hand; otherwise the bot's generic play.

        After a take it discards towards a show: the card the best grouping with two
        sequences, one of them pure, leaves out (where the hand has such a grouping). It
        takes the open card only for a show or to keep it in such a grouping with less
        deadwood, else draws from the stock.

        A first hand is hopeless when its best melds leave at least
        :attr:`greedy_drop_deadwood` points and it holds no pure sequence. Offered a rejoin,
        it rejoins.
        """
        if observation.phase is Phase.PLAY:
            return self._greedy_play(observation)
        if observation.phase is Phase.DRAW:
            return self._greedy_draw(observation)
        # Offered a rejoin (6.17): always take it.
        return next((a for a in observation.legal_actions if isinstance(a, Rebuy)), None)

    def _greedy_play(self, observation: Observation) -> Action | None:
        player = observation.player
        best = arrange(observation.hand, observation.meld_rules, POINTS, discard=True, require=SHOW)
        if best is not None and best.discard is not None:
            return Show(player=player, discard=best.discard)
        # Discard towards a show: the best grouping that holds two sequences, one pure
        # (a hand of sets alone never shows, and two such bots would play on for ever).
        best = arrange(
            observation.hand, observation.meld_rules, POINTS, discard=True, require=COUNTED
        )
        if best is not None and best.discard is not None:
            return discard_action(player, best.discard)
        return None

    def _greedy_draw(self, observation: Observation) -> Action | None:
        player = observation.player
        listed = observation.legal_actions
        drop = simple_action(Drop, player)
        if drop in listed:
            public = observation.public
            first = isinstance(public, IndianPublic) and player not in public.taken
            if first and self._hopeless(observation):
                return drop
        take = simple_action(TakeDiscard, player)
        stock = simple_action(DrawStock, player)
        if take in listed and stock in listed:
            return take if self._worth_taking(observation, take) else stock
        return None

    def _worth_taking(self, observation: Observation, take: Action) -> bool:
        """Whether the bot takes the open card: for a show, or to keep it for a lower count.

        It judges the 14 cards as its discard will (the grouping with two sequences, one of
        them pure), so it never takes a card it would throw straight back: two bots doing
        that with one card would pass it to and fro for ever.
        """
        card = self.card_taken(observation, take)
        if card is None:
            return False
        rules = observation.meld_rules
        hand = (*observation.hand, card)
        if arrange(hand, rules, POINTS, discard=True, require=SHOW) is not None:
            return True
        after = arrange(hand, rules, POINTS, discard=True, require=COUNTED)
        if after is None or after.discard == card:
            return False
        now = arrange(observation.hand, rules, POINTS, require=COUNTED)
        return now is None or after.deadwood_points < now.deadwood_points

    def _hopeless(self, observation: Observation) -> bool:
        rules = observation.meld_rules
        if arrange(observation.hand, rules, POINTS, require=_PURE) is not None:
            return False
        return arrange(observation.hand, rules, POINTS).deadwood_points >= self.greedy_drop_deadwood

    def match_statistics(self, state: State) -> tuple[tuple[str, int], ...]:
        """Drops, wrong shows, valid shows, eliminations and rejoins so far."""
        detail = state.detail
        return (
            ("drops", detail.drops),
            ("wrong shows", detail.wrong_shows),
            ("shows", detail.shows),
            ("eliminations", len(detail.eliminated) + detail.rejoins),
            ("rejoins", detail.rejoins),
        )


#: A pure sequence among the melds (the greedy bot's test of a hopeless hand).
_PURE: Final = Requirement(min_pure_runs=1)


@attrs.frozen(kw_only=True)
class IndianPoints(IndianRummy):
    """Points rummy: one deal, each loser paying their points to the winner (rule 6.16)."""

    name: ClassVar[str] = "indian_points"
    title: ClassVar[str] = "Indian rummy (points)"
    aliases: ClassVar[tuple[str, ...]] = ("indian", "points_rummy", "indian_rummy")


@attrs.frozen(kw_only=True)
class IndianPool101(IndianRummy):
    """Pool rummy: deals until one player is left below ``pool_limit`` (rule 6.17)."""

    name: ClassVar[str] = "indian_pool101"
    title: ClassVar[str] = "Indian rummy (pool 101)"
    aliases: ClassVar[tuple[str, ...]] = ("pool101", "pool_rummy")

    pool_limit: int = attrs.field(default=101, validator=whole(2, maximum=MAX_POINTS))
    rejoin_below: int | None = attrs.field(
        default=None, validator=whole(0, maximum=MAX_POINTS, optional=True)
    )

    def check_settings(self) -> None:
        """R9: a rejoin must leave the player below the pool limit."""
        if self.rejoin_below is not None and self.rejoin_below + 1 >= self.pool_limit:
            msg = (
                f"rejoin_below must be below pool_limit - 1 ({self.pool_limit - 1}), not "
                f"{self.rejoin_below}: a player rejoins at the highest total + 1"
            )
            raise ConfigurationError(msg)

    def after_scoring(self, state: State, winner: int) -> State:
        """Rule 6.17: eliminations at the limit, the rejoin window, or the next deal."""
        limit = self.pool_limit
        survivors = tuple(p for p in state.players_in if state.scores[p] < limit)
        out = [p for p in state.players_in if state.scores[p] >= limit]
        detail = state.detail
        events = list(detail.events)
        for player in out:
            total = state.scores[player]
            events.append(ScoreLine(player=player, points=0, reason=f"eliminated at {total}"))
        state = state.replace(
            players_in=survivors,
            detail=evolve(detail, eliminated=(*detail.eliminated, *out), events=tuple(events)),
        )
        highest = max(state.scores[p] for p in survivors)
        rejoin = self.rejoin_below
        if out and rejoin is not None and highest <= rejoin:
            may = tuple(p for p in out if p not in state.detail.rejoined)
            if may:  # even beside a last player: the pool is won once nobody rejoins
                # Those offered a rejoin stay in the match until they answer (every player
                # who may act is in it).
                detail = evolve(state.detail, rejoin_level=highest + 1)
                return state.replace(
                    phase=IndianPhase.REJOIN,
                    current_player=None,
                    to_act=may,
                    players_in=tuple(sorted((*survivors, *may))),
                    detail=detail,
                )
        if len(survivors) == 1:
            return self.end_match(state, survivors, lines=state.detail.events)
        return self.next_deal(state)


@attrs.frozen(kw_only=True)
class IndianPool201(IndianPool101):
    """Pool rummy to 201, with drops of 25 and 50 (rule 6.17)."""

    name: ClassVar[str] = "indian_pool201"
    title: ClassVar[str] = "Indian rummy (pool 201)"
    aliases: ClassVar[tuple[str, ...]] = ("pool201",)

    first_drop: int = attrs.field(default=25, validator=whole(0, maximum=MAX_POINTS))
    middle_drop: int = attrs.field(default=50, validator=whole(0, maximum=MAX_POINTS))
    pool_limit: int = attrs.field(default=201, validator=whole(2, maximum=MAX_POINTS))


@attrs.frozen(kw_only=True)
class IndianDeals(IndianRummy):
    """Deals rummy: ``deals`` deals for chips; the most chips wins (rule 6.18)."""

    name: ClassVar[str] = "indian_deals"
    title: ClassVar[str] = "Indian rummy (deals)"
    aliases: ClassVar[tuple[str, ...]] = ("deals_rummy",)
    lower_score_wins: ClassVar[bool] = False

    deals: int = attrs.field(default=2, validator=whole(1, maximum=MAX_COUNT))

    def new_detail(self, players: int) -> IndianDetail:
        """Every player starts with ``full_count x players`` chips (80 x players, rule 6.18)."""
        chips = (self.full_count * players,) * players
        return IndianDetail(deal_points=(0,) * players, chips=chips)

    def after_scoring(self, state: State, winner: int) -> State:
        """The winner takes each loser's points in chips; after the last deal, the most wins."""
        points = state.deal_results[-1].points
        chips = [have - lost for have, lost in zip(state.detail.chips, points, strict=True)]
        chips[winner] += sum(points)
        state = state.replace(detail=evolve(state.detail, chips=tuple(chips)))
        if state.deal_number < self.deals:
            return self.next_deal(state)
        most = max(chips)
        winners = tuple(p for p in range(state.player_count) if chips[p] == most)
        start = self.full_count * state.player_count
        return self.end_match(
            state,
            winners,
            payouts=[have - start for have in chips],
            lines=state.detail.events,
            scores=tuple(chips),
        )
