"""Rummy 71 and Rummy 101: Israeli online rummy (section 1 of the rules).

Thirteen cards each from two packs and four jokers, an open card for the first go-around;
a player declares Rummy with a fourteenth card discarded, and the others are charged the
points left outside their melds, times the multiplier. At the threshold (71 or 101) a player
is out, buys back in or watches; the last one in takes the pot. The table around it is here
too: Frish votes (rule 1.18), turn clocks the host keeps (:meth:`IsraeliRummy.turn_clock`),
disconnected players played by the engine (:meth:`IsraeliRummy.auto_action`), removals, and
the next match at the same table (:func:`next_match`).

>>> from rummylib import new_game
>>> state = new_game("rummy101", players=2, seed=4)
>>> state.variant.elimination_threshold, state.multiplier, format_cards([state.open_card])
(101, 2, '8s')
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeAlias, cast

import attrs

from rummylib._settings import (
    MAX_CARD_POINTS,
    MAX_COUNT,
    MAX_DECKS,
    MAX_HAND_SIZE,
    MAX_JOKERS,
    MAX_JOKERS_PER_DECK,
    MAX_MULTIPLE,
    MAX_POINTS,
    MAX_SECONDS,
    Choice,
    check_range,
    flag,
    whole,
)
from rummylib.actions import (
    Action,
    DeclineRebuy,
    Discard,
    Disconnect,
    DrawStock,
    EnvBlock,
    PlayerAction,
    Rebuy,
    Reconnect,
    TakeDiscard,
    TimeExpired,
    check_card,
    check_flag,
    register_action,
    to_melds,
)
from rummylib.arrangement import Requirement, arrange
from rummylib.cards import JOKER, JOKER_INDEX, Card, format_cards, make_deck
from rummylib.engine import (
    Phase,
    PhaseBase,
    PublicInfo,
    TurnClock,
    Variant,
    added,
    by_index,
    discard_action,
    discard_actions,
    evolve,
    lists_legal,
    melds_not_held,
    next_player,
    not_held,
    player_name,
    shares,
    shuffled,
    simple_action,
)
from rummylib.errors import ConfigurationError, InvalidMeldError, shorten
from rummylib.melds import Meld, MeldRules, canonical_melds
from rummylib.scoring import CardPoints, ScoreLine, hand_points
from rummylib.state import GameState, new_game
from rummylib.table import cards_of
from rummylib.views import Observation

__all__ = [
    "FrishWindow",
    "IsraeliDetail",
    "IsraeliPhase",
    "IsraeliPublic",
    "IsraeliRummy",
    "LoserMelds",
    "OnStockExhausted",
    "OpenCardAfterWindow",
    "RebuyScore",
    "Rummy71",
    "Rummy101",
    "next_match",
]


# -- the moves of Israeli rummy (also importable from rummylib.actions) -------------------------


@register_action
@attrs.frozen(kw_only=True)
class TakeOpenCard(PlayerAction):
    """Take the Israeli open card, during the first go-around of a deal.

    >>> TakeOpenCard(player=1)
    TakeOpenCard(player=1)
    """

    kind: ClassVar[str] = "take_open_card"
    verb: ClassVar[str] = "take open"
    takes_cards: ClassVar[bool] = True
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="take_open_card",
            order=30,
            meaning="take the open card",
        ),
    )


@register_action
@attrs.frozen(kw_only=True)
class DeclareRummy(PlayerAction):
    """Declare Rummy: discard the finishing card and show the rest of the hand as melds.

    >>> from rummylib import MeldRules, parse_card, parse_meld
    >>> rules = MeldRules()
    >>> action = DeclareRummy(
    ...     player=0, discard=parse_card("Kd"), melds=[parse_meld("7h 8h 9h", rules)]
    ... )
    >>> len(action.melds)
    1
    """

    kind: ClassVar[str] = "declare_rummy"
    verb: ClassVar[str] = "declare {discard} | [melds]"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="declare",
            parameter="card",
            field="discard",
            order=70,
            meaning="declare, discarding card c, with the best arrangement of the other cards "
            "(the declaration the engine lists for that discard)",
        ),
    )
    discard: Card = attrs.field(validator=check_card)
    melds: tuple[Meld, ...] = attrs.field(converter=to_melds)


@register_action
@attrs.frozen(kw_only=True)
class ShowMelds(PlayerAction):
    """After a declaration, show how one's own hand splits into melds.

    >>> ShowMelds(player=1, melds=()).melds
    ()
    """

    kind: ClassVar[str] = "show_melds"
    verb: ClassVar[str] = "show | [melds]"
    shows_hand: ClassVar[bool] = True
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="show_melds",
            order=80,
            meaning="show the best melds of the hand (the arrangement the engine lists)",
        ),
    )
    melds: tuple[Meld, ...] = attrs.field(converter=to_melds)


@register_action
@attrs.frozen(kw_only=True)
class GiveUp(PlayerAction):
    """End one's post-declaration window without showing melds.

    >>> GiveUp(player=1)
    GiveUp(player=1)
    """

    kind: ClassVar[str] = "give_up"
    verb: ClassVar[str] = "give up"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="give_up",
            order=90,
            meaning="give up (show nothing)",
        ),
    )


@register_action
@attrs.frozen(kw_only=True)
class ProposeFrish(PlayerAction):
    """Propose doubling the deal multiplier (Israeli Frish).

    >>> ProposeFrish(player=0)
    ProposeFrish(player=0)
    """

    kind: ClassVar[str] = "propose_frish"
    verb: ClassVar[str] = "propose frish"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="propose_frish",
            order=100,
            meaning="propose a Frish",
        ),
    )


@register_action
@attrs.frozen(kw_only=True)
class AnswerFrish(PlayerAction):
    """Accept or refuse a Frish proposal.

    >>> AnswerFrish(player=2, accept=False).accept
    False
    """

    kind: ClassVar[str] = "answer_frish"
    verb: ClassVar[str] = "{accept:refuse/accept} frish"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="answer_frish",
            parameter="choice",
            field="accept",
            order=110,
            meaning="answer a Frish: refuse (+0), accept (+1)",
        ),
    )
    accept: bool = attrs.field(validator=check_flag)


class IsraeliPhase(PhaseBase):
    """The phases of Rummy 71/101 beyond drawing and playing."""

    #: Every other player answers a Frish proposal (rule 1.18).
    FRISH_VOTE = "frish_vote"
    #: After a declaration, the other players show their melds or give up (rule 1.14).
    SHOW_MELDS = "show_melds"
    #: Eliminated players decide whether to buy back in (rule 1.21).
    REBUY = "rebuy"


class OpenCardAfterWindow(Choice):
    """What happens to an open card nobody took in the first go-around (rule 1.6)."""

    #: It stays under the stock, out of play, until the deal ends.
    DEAD = "dead"
    #: It becomes the last card of the stock.
    BOTTOM_OF_STOCK = "bottom_of_stock"


class LoserMelds(Choice):
    """How the other players' penalties are counted after a declaration (rule 1.15)."""

    #: The best arrangement of the hand, whatever the player showed.
    BEST = "best"
    #: The arrangement the player showed; giving up without one counts every card.
    AS_SHOWN = "as_shown"


class FrishWindow(Choice):
    """When a player may propose Frish (rule 1.18)."""

    #: On one's own turn, before taking a card, during the first go-around.
    FIRST_GO_AROUND = "first_go_around"
    #: The table plays without Frish.
    NEVER = "never"


class RebuyScore(Choice):
    """The total a player re-enters with (rule 1.22)."""

    #: The highest total among the players still in.
    HIGHEST_REMAINING = "highest_remaining"
    #: One more than that.
    HIGHEST_REMAINING_PLUS_ONE = "highest_remaining_plus_one"


class OnStockExhausted(Choice):
    """What happens when the stock runs out (rule 1.24)."""

    #: The discard pile except its top card is shuffled into a new stock.
    RESHUFFLE = "reshuffle"
    #: The deal is void; nobody scores and the same dealer deals again.
    VOID_DEAL = "void_deal"


#: The most Frish proposals a player may make in one deal (``frish_per_player_per_deal``).
MAX_FRISH_PROPOSALS = 10
#: The most rebuys of a player in one match (``max_rebuys``), and the most entries of
#: ``rebuy_stakes``.
MAX_REBUYS = 100
#: Rule 1.11: a declaration shows every card but the finishing discard in melds.
_DECLARED = Requirement(complete=True)


def _stakes(value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_REBUYS:
        msg = (
            f"rebuy_stakes must be a sequence of 1 to {MAX_REBUYS} whole numbers, "
            f"not {shorten(value)}"
        )
        raise ConfigurationError(msg)
    for stake in value:
        if isinstance(stake, bool) or not isinstance(stake, int) or not 0 <= stake <= MAX_MULTIPLE:
            msg = (
                f"rebuy_stakes must hold whole numbers from 0 to {MAX_MULTIPLE} "
                f"(multiples of the stake), not {shorten(stake)}"
            )
            raise ConfigurationError(msg)
    return tuple(value)


def _seats(value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple | set | frozenset) or len(value) > MAX_COUNT:
        msg = f"sitting_out must be a sequence of seat numbers, not {shorten(value)}"
        raise ConfigurationError(msg)
    for seat in value:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            msg = f"sitting_out must hold seat numbers (0, 1, …), not {shorten(seat)}"
            raise ConfigurationError(msg)
    return tuple(sorted(set(value)))


@attrs.frozen(kw_only=True)
class IsraeliPublic(PublicInfo):
    """What every player at an Israeli table sees beyond the cards.

    Attributes:
        open_card: the open card while it lies face up beside the stock (rules 1.3, 1.6),
            else ``None``; the same card as :attr:`GameState.aside
            <rummylib.state.GameState.aside>`, so the text views list it once.
        multiplier: the deal's multiplier (1.17, 1.18).
        pot: the stakes and rebuys collected in the match (1.19, 1.22).
        frish_proposer: who proposed the Frish being voted on, if a vote is open (1.18).
        frish_proposals: Frish proposals made by each player in this deal.
        rebuys: how many times each player has bought back in this match (1.22).
        spectators: players who declined a rebuy.
        removed: players removed from the match by a clock or by disconnection.
        disconnected: players the host reported disconnected (and not yet reconnected).
        autoplayed: consecutive turns each player finished while disconnected.
    """

    open_card: Card | None = attrs.field(default=None, metadata={"text": False})
    multiplier: int = 1
    pot: int = 0
    frish_proposer: int | None = attrs.field(default=None, metadata={"seats": True})
    frish_proposals: tuple[int, ...] = ()
    rebuys: tuple[int, ...] = ()
    spectators: tuple[int, ...] = attrs.field(default=(), metadata={"seats": True})
    removed: tuple[int, ...] = attrs.field(default=(), metadata={"seats": True})
    disconnected: tuple[int, ...] = attrs.field(default=(), metadata={"seats": True})
    autoplayed: tuple[int, ...] = ()


@attrs.frozen(kw_only=True, slots=False)  # copied on most turns: see engine.evolve
class IsraeliDetail:
    """The Israeli game's own bookkeeping inside a :class:`~rummylib.state.GameState`.

    Attributes:
        played: players who have finished a turn in this deal (since the last deal or
            redeal). A turn is in the first go-around while its player is not listed here.
        taken_face_up: the card taken face up this turn, which may not be discarded.
        declarer: who declared Rummy in this deal, if anyone has.
        shown: the post-declaration answers so far: (player, melds shown or ``None``).
        rebuys: how many times each player has bought back in this match.
        rebuy_level: the total that players buying back in after this deal re-enter with.
        spectators: players who declined a rebuy.
        removed: players removed from the match by a clock or by disconnection.
        frish_proposals: Frish proposals made by each player in this deal.
        frish_proposer: who proposed the Frish being voted on, if a vote is open.
        disconnected: players the host reported disconnected (and not yet reconnected).
        autoplayed: consecutive turns each player finished while disconnected.
        clock_number: counts the clocks started in the match (see :meth:`IsraeliRummy.turn_clock`).
        multiplier: the deal's multiplier: the first deal's (1.17), doubled by each Frish.
        pot: the stakes and rebuys collected in the match (1.19, 1.22).
        frish_proposed: Frish votes held in the match.
        frish_accepted: Frish votes every player asked accepted, in the match.
        events: match events outside deal scoring (rebuys, spectators, removals), for the record.

    >>> new_game("rummy101", players=3, seed=1).detail.frish_proposals
    (0, 0, 0)
    """

    played: tuple[int, ...] = ()
    taken_face_up: Card | None = None
    declarer: int | None = None
    shown: tuple[tuple[int, tuple[Meld, ...] | None], ...] = ()
    rebuys: tuple[int, ...] = ()
    rebuy_level: int = 0
    spectators: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    frish_proposals: tuple[int, ...] = ()
    frish_proposer: int | None = None
    disconnected: tuple[int, ...] = ()
    autoplayed: tuple[int, ...] = ()
    clock_number: int = 0
    multiplier: int = 1
    pot: int = 0
    # Counts for match_statistics; they follow from the history, so equality ignores them.
    frish_proposed: int = attrs.field(default=0, eq=False)
    frish_accepted: int = attrs.field(default=0, eq=False)
    events: tuple[ScoreLine, ...] = ()


#: A state of a Rummy 71/101 match.
State: TypeAlias = "GameState[IsraeliDetail]"

#: The Israeli moves in a player's words (``rummylib play``).
_MOVE_WORDS: Final[dict[type[Action], str]] = {
    DeclareRummy: "declare rummy",
    ShowMelds: "show your melds",
    GiveUp: "give up showing",
    ProposeFrish: "propose a Frish",
    AnswerFrish: "accept or refuse the Frish",
}


def _last_of(state: State, kind: type[PlayerAction]) -> str:
    """Who made the last move of ``kind`` (``p2``), or "a player"."""
    for action in reversed(state.history):
        if isinstance(action, kind):
            return f"p{action.player + 1}"
    return "a player"


@functools.lru_cache(maxsize=4096)
def _legal_reading(meld: Meld, rules: MeldRules) -> Meld | str:
    """The meld if its reading is legal, else a legal reading of its cards, else the reason."""
    if meld.is_valid(rules):
        return meld
    try:
        return Meld.from_cards(meld.cards, rules)
    except InvalidMeldError as error:
        return str(error)


def _may_finish(card: Card, taken: Card | None = None) -> bool:
    """Rules 1.8-1.9: a finishing card is no joker, nor the card taken face up this turn."""
    return card.index != JOKER_INDEX and card != taken


def _discard_index(action: DeclareRummy) -> int:
    return action.discard.index


def _open_card(state: State) -> Card | None:
    """The open card (rule 1.3): turned face up beside the stock, while it lies there."""
    aside = state.aside
    return aside[0] if aside else None


def _without(players: tuple[int, ...], player: int) -> tuple[int, ...]:
    return tuple(p for p in players if p != player)


@attrs.frozen(kw_only=True)
class IsraeliRummy(Variant[IsraeliDetail]):
    """Israeli online rummy; use the presets :class:`Rummy71` and :class:`Rummy101`.

    Every setting of section 1 of the rules is a field with its default (the rules page lists
    them). Two more describe one match at a table, for :func:`next_match`: ``first_player``
    (the seat that plays first; ``None``: the first seat dealt in) and ``sitting_out``.

    >>> Rummy101(max_multiplier=8).max_multiplier
    8
    """

    title: ClassVar[str] = "Israeli rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {
        Phase.DRAW: (DrawStock, TakeDiscard, TakeOpenCard, ProposeFrish),
        Phase.PLAY: (Discard, DeclareRummy, ProposeFrish),
        IsraeliPhase.SHOW_MELDS: (ShowMelds, GiveUp, ProposeFrish),
        IsraeliPhase.FRISH_VOTE: (AnswerFrish, ProposeFrish),
        IsraeliPhase.REBUY: (Rebuy, DeclineRebuy, ProposeFrish),
    }
    host_events: ClassVar[tuple[type[Action], ...]] = (TimeExpired, Disconnect, Reconnect)
    lower_score_wins: ClassVar[bool] = True
    aside_label: ClassVar[str] = "open card"
    aside_word: ClassVar[str] = "open"
    encoded_facts: ClassVar[tuple[str, ...]] = ("multiplier", "pot")
    setting_rules: ClassVar[str] = (
        "1.2 decks jokers, 1.3 hand_size, 1.6 open_card_after_window, 1.13 joker_beside_ace, "
        "1.15 post_declare_seconds loser_melds, 1.16 ace_points joker_points, 1.17 "
        "first_deal_multiplier, 1.18 frish_window frish_answer_seconds frish_per_player_per_deal "
        "max_multiplier, 1.19 stake, 1.20 elimination_threshold, 1.22 rebuy_score "
        "first_rebuy_mandatory max_rebuys rebuy_stakes, 1.23 first_player sitting_out, 1.24 "
        "on_stock_exhausted, 1.25 first_go_around_seconds turn_seconds grace_seconds, "
        "1.26 autoplay_turns"
    )
    #: The most deadwood points with which the greedy bot proposes Frish (about one dealt
    #: hand in twenty is that strong).
    greedy_frish_propose_deadwood: ClassVar[int] = 20
    #: The most deadwood points with which the greedy bot accepts a Frish (about one dealt
    #: hand in ten).
    greedy_frish_accept_deadwood: ClassVar[int] = 30

    elimination_threshold: int = attrs.field(default=101, validator=whole(1, maximum=MAX_POINTS))
    decks: int = attrs.field(default=2, validator=whole(1, maximum=MAX_DECKS))
    jokers: int = attrs.field(default=4, validator=whole(0, maximum=MAX_JOKERS))
    hand_size: int = attrs.field(default=13, validator=whole(4, maximum=MAX_HAND_SIZE))
    open_card_after_window: OpenCardAfterWindow = attrs.field(
        default=OpenCardAfterWindow.DEAD, converter=OpenCardAfterWindow
    )
    joker_beside_ace: bool = attrs.field(default=False, validator=flag)
    post_declare_seconds: int = attrs.field(default=30, validator=whole(0, maximum=MAX_SECONDS))
    loser_melds: LoserMelds = attrs.field(default=LoserMelds.BEST, converter=LoserMelds)
    ace_points: int = attrs.field(default=1, validator=whole(0, maximum=MAX_CARD_POINTS))
    joker_points: int = attrs.field(default=0, validator=whole(0, maximum=MAX_CARD_POINTS))
    first_deal_multiplier: int = attrs.field(default=2, validator=whole(1, maximum=MAX_MULTIPLE))
    frish_window: FrishWindow = attrs.field(
        default=FrishWindow.FIRST_GO_AROUND, converter=FrishWindow
    )
    frish_answer_seconds: int = attrs.field(default=15, validator=whole(0, maximum=MAX_SECONDS))
    frish_per_player_per_deal: int = attrs.field(
        default=1, validator=whole(0, maximum=MAX_FRISH_PROPOSALS)
    )
    max_multiplier: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_POINTS, optional=True)
    )
    stake: int = attrs.field(default=1, validator=whole(0, maximum=MAX_POINTS))
    rebuy_score: RebuyScore = attrs.field(
        default=RebuyScore.HIGHEST_REMAINING, converter=RebuyScore
    )
    first_rebuy_mandatory: bool = attrs.field(default=True, validator=flag)
    max_rebuys: int = attrs.field(default=2, validator=whole(0, maximum=MAX_REBUYS))
    rebuy_stakes: tuple[int, ...] = attrs.field(default=(1, 2), converter=_stakes)
    on_stock_exhausted: OnStockExhausted = attrs.field(
        default=OnStockExhausted.RESHUFFLE, converter=OnStockExhausted
    )
    first_go_around_seconds: int = attrs.field(default=60, validator=whole(1, maximum=MAX_SECONDS))
    turn_seconds: int = attrs.field(default=30, validator=whole(1, maximum=MAX_SECONDS))
    grace_seconds: int = attrs.field(default=60, validator=whole(0, maximum=MAX_SECONDS))
    autoplay_turns: int = attrs.field(default=4, validator=whole(1, maximum=MAX_COUNT))
    first_player: int | None = attrs.field(default=None, validator=whole(0, optional=True))
    sitting_out: tuple[int, ...] = attrs.field(default=(), converter=_seats)

    def check_settings(self) -> None:
        """R9: jokers, hand size and seats that leave every deal playable.

        At most 8 jokers a pack; a deck that deals every seat and the open card; at most
        ``hand_size`` jokers (a hand of jokers could discard nothing, rule 1.9).
        """
        packs = f"{self.decks} pack{'s' if self.decks > 1 else ''}"
        most_jokers = MAX_JOKERS_PER_DECK * self.decks
        if self.jokers > most_jokers:
            msg = (
                f"jokers must be a whole number from 0 to {most_jokers} with {packs} "
                f"({MAX_JOKERS_PER_DECK} per pack), not {self.jokers}"
            )
            raise ConfigurationError(msg)
        cards = 52 * self.decks + self.jokers
        most = (cards - 1) // self.max_players
        if self.hand_size > most:
            msg = (
                f"hand_size must be at most {most} with {packs} and {self.jokers} jokers "
                f"({cards} cards deal {self.max_players} hands and an open card), "
                f"not {self.hand_size}"
            )
            raise ConfigurationError(msg)
        if self.jokers > self.hand_size:
            msg = (
                f"jokers must be at most hand_size ({self.hand_size}), not {self.jokers}: "
                f"a hand of {self.hand_size + 1} cards could be all jokers, and a joker may "
                "not be discarded (R9)"
            )
            raise ConfigurationError(msg)
        last_seat = self.max_players - 1
        if self.first_player is not None:
            check_range("first_player", self.first_player, 0, last_seat, optional=True)
        for seat in self.sitting_out:
            if seat > last_seat:
                msg = (
                    f"sitting_out must hold seat numbers from 0 to {last_seat}, not {shorten(seat)}"
                )
                raise ConfigurationError(msg)

    # -- what the game is ---------------------------------------------------------------------

    def make_meld_rules(self) -> MeldRules:
        """Groups of 3–4 different suits; runs with the ace at either end; rule 1.13 on jokers."""
        return MeldRules(joker_beside_ace=self.joker_beside_ace)

    def make_card_points(self) -> CardPoints:
        """Card values by rule 1.16 (2–10 pip value, J Q K 10, ace and joker as set)."""
        return CardPoints(ace=self.ace_points, face=10, joker=self.joker_points)

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """Two packs and four jokers by default, whatever the player count."""
        return make_deck(decks=self.decks, jokers=self.jokers)

    def hand_size_for(self, players: int) -> int:
        """Thirteen cards each (``hand_size``)."""
        return self.hand_size

    # -- the match ----------------------------------------------------------------------------

    def new_detail(self, players: int) -> IsraeliDetail:
        """No rebuys, no Frish proposals, nobody auto-played yet."""
        zeros = (0,) * players
        return IsraeliDetail(rebuys=zeros, frish_proposals=zeros, autoplayed=zeros)

    def turn_up(self, rest: tuple[Card, ...]) -> dict[str, Any]:
        """The open card is turned under the stock (rule 1.3)."""
        return {"aside": rest[:1], "stock": rest[1:]}

    def start(self, state: State) -> State:
        """Collect the stakes and deal the first deal (rules 1.3, 1.17, 1.19).

        The seat before ``first_player`` deals (by default the last seat, so seat 0 plays
        first); seats in ``sitting_out`` are not dealt in and pay no stake.

        >>> state = new_game(Rummy101(first_player=2, sitting_out=[0]), players=4)
        >>> state.pot, state.players_in, state.dealer, state.current_player
        (3, (1, 2, 3), 1, 2)

        Raises:
            ConfigurationError: ``first_player`` or ``sitting_out`` names a seat the table
                does not have, the first player sits out, or fewer than two players remain.
        """
        players = state.player_count
        first = () if self.first_player is None else (self.first_player,)
        for seat in (*self.sitting_out, *first):
            if seat >= players:
                msg = f"there is no seat p{seat + 1} at this {players}-seat table"
                raise ConfigurationError(msg)
        players_in = tuple(seat for seat in range(players) if seat not in self.sitting_out)
        if len(players_in) < self.min_players:
            msg = f"at least {self.min_players} players must be dealt in, not {len(players_in)}"
            raise ConfigurationError(msg)
        if self.first_player in self.sitting_out:
            msg = f"{player_name(self.first_player)} sits out and cannot play first"
            raise ConfigurationError(msg)
        dealer = players - 1 if self.first_player is None else (self.first_player - 1) % players
        pot = self.stake * len(players_in)
        state = state.replace(players_in=players_in, detail=evolve(state.detail, pot=pot))
        return self._deal(state, dealer, 1, self.first_deal_multiplier)

    def _deal(
        self, state: State, dealer: int, deal_number: int, multiplier: int, *, redeal: bool = False
    ) -> State:
        """Shuffle and deal; a ``redeal`` (Frish, void deal) keeps the deal's Frish count."""
        detail = state.detail
        detail = evolve(
            detail,
            played=(),
            taken_face_up=None,
            declarer=None,
            shown=(),
            frish_proposer=None,
            frish_proposals=(detail.frish_proposals if redeal else (0,) * state.player_count),
            clock_number=detail.clock_number + 1,
            multiplier=multiplier,
        )
        return self.deal(state, dealer=dealer, deal_number=deal_number, detail=detail)

    # -- legality, one refusal per kind -------------------------------------------------------

    def _in_first_go_around(self, state: State) -> bool:
        return state.current_player is not None and state.current_player not in state.detail.played

    def _take_refusal(self, state: State, player: int, card: Card) -> str | None:
        """R9: no face-up take that leaves nothing to discard (rules 1.8, 1.9: not it, no joker)."""
        hand = state.hands[player]  # is a card neither a joker nor ``card``?
        if len(hand) > hand.count(JOKER) + (card is not JOKER and hand.count(card)):
            return None
        return f"cannot take {card}: {player_name(player)} could discard nothing after it"

    def _discard_refusal(self, state: State, player: int, card: Card) -> str | None:
        held = not_held(state, player, card)
        if held is not None:
            return held
        if card.is_joker:
            return "a joker may not be discarded"
        if state.detail.taken_face_up == card:
            return f"{card} was taken face up this turn and may not be discarded"
        return None

    def refuse_take_discard(self, state: State, action: TakeDiscard) -> str | None:
        """Rule 1.7: the top discard, if something could be discarded after it (R9)."""
        refusal = super().refuse_take_discard(state, action)
        return refusal or self._take_refusal(state, action.player, state.discard_pile[-1])

    def refuse_take_open_card(self, state: State, action: TakeOpenCard) -> str | None:
        """Rule 1.6: the open card, in the first go-around only."""
        open_card = _open_card(state)
        if open_card is None:
            return "the open card has already been taken"
        if not self._in_first_go_around(state):
            return "the open card can only be taken in the first go-around"
        return self._take_refusal(state, action.player, open_card)

    def refuse_propose_frish(self, state: State, action: ProposeFrish) -> str | None:
        """Rule 1.18: before taking a card in the first go-around, within the limits."""
        allowed, cap = self.frish_per_player_per_deal, self.max_multiplier
        if self.frish_window is FrishWindow.NEVER or allowed == 0:
            refusal = "frish is not played at this table"
        elif state.phase is Phase.PLAY:
            refusal = "frish is proposed before taking a card"
        elif state.phase is not Phase.DRAW:
            refusal = f"it is not a move of the {state.phase.value} phase"
        elif not self._in_first_go_around(state):
            refusal = "frish can only be proposed in the first go-around"
        elif state.detail.frish_proposals[action.player] >= allowed:
            times = "" if allowed == 1 else f" {allowed} times"
            refusal = f"{player_name(action.player)} has already proposed frish{times} in this deal"
        elif cap is not None and state.detail.multiplier * 2 > cap:
            doubled = state.detail.multiplier * 2
            refusal = f"the multiplier would become x{doubled}, above the table's cap of x{cap}"
        else:
            return None
        return f"cannot propose frish: {refusal}"

    @lists_legal
    def candidates_propose_frish(self, state: State, player: int) -> Iterable[Action]:
        """Proposing Frish, where rule 1.18 allows it (never after taking a card)."""
        if state.phase is not Phase.DRAW:
            return ()
        proposal = cast("ProposeFrish", simple_action(ProposeFrish, player))
        return (proposal,) if self.refuse_propose_frish(state, proposal) is None else ()

    def refuse_discard(self, state: State, action: Discard) -> str | None:
        """Rules 1.8–1.9: not a joker, nor the card taken face up this turn."""
        refusal = self._discard_refusal(state, action.player, action.card)
        return None if refusal is None else f"cannot discard {action.card}: {refusal}"

    @lists_legal
    def candidates_discard(self, state: State, player: int) -> list[Discard]:
        """One discard per distinct card, jokers and the card taken face up left out."""
        indexes = {card.index for card in state.hands[player]}
        indexes -= {JOKER_INDEX, (state.detail.taken_face_up or JOKER).index}
        return discard_actions(player, sorted(indexes))

    def _melds_refusal(self, melds: Sequence[Meld]) -> str | None:
        """Rule 1.13: a set is a meld if *some* reading of its jokers is legal."""
        for meld in melds:
            reading = _legal_reading(meld, self.meld_rules)
            if isinstance(reading, str):
                return reading
        return None

    def _read_melds(self, melds: Sequence[Meld]) -> tuple[Meld, ...]:
        """The melds (verified) with a legal reading each, in canonical order."""
        read = [_legal_reading(meld, self.meld_rules) for meld in melds]
        return canonical_melds([meld for meld in read if isinstance(meld, Meld)])

    def refuse_declare_rummy(self, state: State, action: DeclareRummy) -> str | None:
        """Rules 1.10–1.13: a discard allowed by 1.8–1.9 and every other card melded."""
        player = action.player
        refusal = self._discard_refusal(state, player, action.discard)
        if refusal:
            return f"cannot finish with {action.discard}: {refusal}"
        refusal = self._melds_refusal(action.melds)
        if refusal:
            return refusal
        rest = Counter(state.hands[player])
        rest[action.discard] -= 1
        shown = cards_of(action.melds)
        if shown == +rest:
            return None
        parts = []
        if rest - shown:
            parts.append(f"{format_cards(by_index((rest - shown).elements()))} not melded")
        if shown - rest:
            parts.append(f"{format_cards(by_index((shown - rest).elements()))} not in hand")
        return f"not a rummy: every card but the discard must be melded ({'; '.join(parts)})"

    @lists_legal
    def candidates_declare_rummy(self, state: State, player: int) -> Iterable[Action]:
        """Rule 1.11: each discard allowed by 1.8–1.9 that leaves every other card melded.

        In card order, each with the melds of the best arrangement of the other 13 cards.
        :func:`~rummylib.arrangement.arrange` with the complete requirement gives one such
        discard at a time (the heaviest left), and rules most hands out at the first call.
        """
        hand = state.hands[player]
        taken = state.detail.taken_face_up
        rules, points = state.meld_rules, self.card_points
        # Most hands cannot declare: the first ask, with no set or closure built, ends them.
        first = _may_finish if taken is None else functools.partial(_may_finish, taken=taken)
        best = arrange(hand, rules, points, discard=True, can_discard=first, require=_DECLARED)
        if best is None or best.discard is None:
            return []
        found = [DeclareRummy(player=player, discard=best.discard, melds=best.melds)]
        refused = {JOKER_INDEX, (taken or JOKER).index, best.discard.index}

        def may_finish(card: Card) -> bool:  # rules 1.8-1.9, less the discards found
            return card.index not in refused

        while True:
            best = arrange(
                hand, rules, points, discard=True, can_discard=may_finish, require=_DECLARED
            )
            if best is None or best.discard is None:
                break
            found.append(DeclareRummy(player=player, discard=best.discard, melds=best.melds))
            refused.add(best.discard.index)
        found.sort(key=_discard_index)
        return found

    def refuse_show_melds(self, state: State, action: ShowMelds) -> str | None:
        """Rule 1.14: legal melds of cards the player holds."""
        refusal = self._melds_refusal(action.melds)
        if refusal:
            return refusal
        return melds_not_held(state, action.player, action.melds)

    def candidates_show_melds(self, state: State, player: int) -> Iterable[Action]:
        """The best arrangement's melds, if it has any."""
        best = arrange(state.hands[player], state.meld_rules, self.card_points)
        return (ShowMelds(player=player, melds=best.melds),) if best.melds else ()

    def candidates_answer_frish(self, state: State, player: int) -> Iterable[Action]:
        """Refuse, then accept."""
        return (AnswerFrish(player=player, accept=False), AnswerFrish(player=player, accept=True))

    def refuse_time_expired(self, state: State, action: TimeExpired) -> str | None:
        """Rule 1.25: the host reports a clock that is running."""
        clock = self.turn_clock(state)
        if clock is None:
            return f"no clock runs in the {state.phase.value} phase"
        if action.player not in clock.players:
            return f"{player_name(action.player)}'s clock is not running"
        return None

    def refuse_disconnect(self, state: State, action: Disconnect | Reconnect) -> str | None:
        """Rule 1.26: a player in the match, connected (or disconnected, to reconnect)."""
        player = action.player
        if player not in state.players_in:
            return f"{player_name(player)} is not in the match"
        gone = player in state.detail.disconnected
        if isinstance(action, Disconnect) and gone:
            return f"{player_name(player)} is already disconnected"
        if isinstance(action, Reconnect) and not gone:
            return f"{player_name(player)} is not disconnected"
        return None

    refuse_reconnect = refuse_disconnect

    # -- applying -----------------------------------------------------------------------------

    def apply_disconnect(self, state: State, action: Disconnect) -> State:
        """The engine plays for the player from now on (rule 1.26)."""
        detail = state.detail
        return state.replace(
            detail=evolve(detail, disconnected=tuple(sorted({*detail.disconnected, action.player})))
        )

    def apply_reconnect(self, state: State, action: Reconnect) -> State:
        """The player plays again; the count of auto-played turns starts over."""
        detail, player = state.detail, action.player
        autoplayed = added(detail.autoplayed, player, -detail.autoplayed[player])
        disconnected = _without(detail.disconnected, player)
        return state.replace(
            detail=evolve(detail, disconnected=disconnected, autoplayed=autoplayed)
        )

    def apply_time_expired(self, state: State, action: TimeExpired) -> State:
        """A window given up, a Frish refused, or the player removed (rules 1.25, 1.27)."""
        player = action.player
        if state.phase is IsraeliPhase.SHOW_MELDS:
            return self._close_window(state, player, None)
        if state.phase is IsraeliPhase.FRISH_VOTE:
            return self._answer_frish(state, player, accept=False)
        reason = "removed: the turn clock ran out; loses, stake forfeited"
        return self._remove(state, player, reason=reason, completed=False)

    def apply_propose_frish(self, state: State, action: ProposeFrish) -> State:
        """The other players vote, in playing order (rule 1.18)."""
        detail = state.detail
        return state.replace(
            phase=IsraeliPhase.FRISH_VOTE,
            current_player=None,
            to_act=self.others_after(state, action.player),
            detail=evolve(
                detail,
                frish_proposer=action.player,
                frish_proposals=added(detail.frish_proposals, action.player),
                frish_proposed=detail.frish_proposed + 1,
                clock_number=detail.clock_number + 1,
            ),
        )

    def apply_answer_frish(self, state: State, action: AnswerFrish) -> State:
        """One refusal ends the vote; when all accept, the deal is dealt again at x2."""
        return self._answer_frish(state, action.player, accept=action.accept)

    def apply_draw_stock(self, state: State, action: DrawStock) -> State:
        """The top of the stock (rule 1.7)."""
        state = super().apply_draw_stock(state, action)
        if state.detail.taken_face_up is None:  # the common case copies no detail
            return state
        return state.replace(detail=evolve(state.detail, taken_face_up=None))

    def apply_take_discard(self, state: State, action: TakeDiscard) -> State:
        """The top discard, which may not be discarded this turn (rule 1.8)."""
        card = state.discard_pile[-1]
        state = super().apply_take_discard(state, action)
        return state.replace(detail=evolve(state.detail, taken_face_up=card))

    def apply_take_open_card(self, state: State, action: TakeOpenCard) -> State:
        """The open card, which may not be discarded this turn (rules 1.6, 1.8)."""
        card = _open_card(state)
        assert card is not None
        hands = list(state.hands)
        hands[action.player] = (*hands[action.player], card)
        detail = evolve(state.detail, taken_face_up=card)
        return state.replace(hands=tuple(hands), aside=(), phase=Phase.PLAY, detail=detail)

    def apply_declare_rummy(self, state: State, action: DeclareRummy) -> State:
        """Rummy: the melds go down, the others show theirs (rule 1.14)."""
        hands = list(state.hands)
        hands[action.player] = ()
        detail = state.detail
        state = state.replace(
            hands=tuple(hands),
            discard_pile=(*state.discard_pile, action.discard),
            table=self._read_melds(action.melds),
            phase=IsraeliPhase.SHOW_MELDS,
            current_player=None,
            to_act=self.others_after(state, action.player),
            detail=evolve(
                detail,
                declarer=action.player,
                taken_face_up=None,
                clock_number=detail.clock_number + 1,
            ),
        )
        return self._score_if_done(state)

    def apply_show_melds(self, state: State, action: ShowMelds) -> State:
        """The player's answer in the window."""
        return self._close_window(state, action.player, self._read_melds(action.melds))

    def apply_give_up(self, state: State, action: GiveUp) -> State:
        """The player shows nothing."""
        return self._close_window(state, action.player, None)

    def apply_rebuy(self, state: State, action: Rebuy | DeclineRebuy) -> State:
        """Back in at the rebuy level, or a spectator (rules 1.21–1.22)."""
        return self._answer_rebuy(state, action.player, accept=isinstance(action, Rebuy))

    apply_decline_rebuy = apply_rebuy

    def _close_window(self, state: State, player: int, melds: tuple[Meld, ...] | None) -> State:
        detail = state.detail
        state = state.replace(
            to_act=_without(state.to_act, player),
            detail=evolve(detail, shown=(*detail.shown, (player, melds))),
        )
        return self._score_if_done(state)

    def end_turn(self, state: State, player: int, **changes: Any) -> State:
        """After a discard: count an auto-played turn (rule 1.26), then pass the turn on."""
        if changes:  # the discard's hands and pile
            state = state.replace(**changes)
        detail = state.detail
        if player in detail.disconnected:
            autoplayed = list(detail.autoplayed)
            autoplayed[player] += 1
            state = state.replace(detail=evolve(detail, autoplayed=tuple(autoplayed)))
            if autoplayed[player] >= self.autoplay_turns:
                reason = (
                    f"removed after {autoplayed[player]} auto-played turns: loses, stake forfeited"
                )
                return self._remove(state, player, reason=reason, completed=True)
        return self.next_turn(state, player, completed=True)

    def next_turn(
        self, state: State, after: int, *, completed: bool = True, **changes: Any
    ) -> State:
        """Give the turn to the player after ``after``; refill or void if the stock is out.

        ``completed``: whether ``after`` finished a turn (a removal mid-turn did not).
        """
        if changes:
            state = state.replace(**changes)
        detail = state.detail
        played = detail.played
        if completed and after not in played:
            played = (*played, after)
        stock, aside = state.stock, state.aside
        if (
            aside
            and self.open_card_after_window is OpenCardAfterWindow.BOTTOM_OF_STOCK
            and all(player in played for player in state.players_in)
        ):
            stock, aside = (*stock, *aside), ()
        detail = evolve(
            detail, played=played, taken_face_up=None, clock_number=detail.clock_number + 1
        )
        state = super().next_turn(state, after, stock=stock, aside=aside, detail=detail)
        if stock:
            return state
        pile = state.discard_pile
        if self.on_stock_exhausted is OnStockExhausted.RESHUFFLE and len(pile) > 1:
            return state.replace(
                stock=shuffled(pile[:-1], state.seed, state.shuffle_count),
                discard_pile=pile[-1:],
                shuffle_count=state.shuffle_count + 1,
            )
        points = (0,) * state.player_count
        state = self.record_deal(state, points, ended_by="void: the stock ran out", ending="void")
        multiplier = state.detail.multiplier
        return self._deal(state, state.dealer, state.deal_number, multiplier, redeal=True)

    def _answer_frish(self, state: State, player: int, *, accept: bool) -> State:
        detail = state.detail
        proposer = detail.frish_proposer
        assert proposer is not None
        if not accept:
            # Back to the proposer's turn, as before the proposal, with a fresh clock.
            return state.replace(
                phase=Phase.DRAW,
                current_player=proposer,
                to_act=(proposer,),
                detail=evolve(detail, frish_proposer=None, clock_number=detail.clock_number + 1),
            )
        to_act = _without(state.to_act, player)
        if to_act:
            return state.replace(to_act=to_act)
        # Everyone accepted: the same dealer deals the same deal again at double the multiplier.
        state = state.replace(detail=evolve(detail, frish_accepted=detail.frish_accepted + 1))
        multiplier = state.detail.multiplier * 2
        return self._deal(state, state.dealer, state.deal_number, multiplier, redeal=True)

    def _remove(self, state: State, player: int, *, reason: str, completed: bool) -> State:
        """Rule 1.27: take ``player`` out of the match during their turn; cards under the stock."""
        detail = state.detail
        hands = list(state.hands)
        cards = hands[player]
        hands[player] = ()
        players_in = _without(state.players_in, player)
        state = state.replace(
            hands=tuple(hands),
            stock=(*state.stock, *cards),
            players_in=players_in,
            detail=evolve(
                detail,
                taken_face_up=None,
                removed=(*detail.removed, player),
                disconnected=_without(detail.disconnected, player),
                events=(*detail.events, ScoreLine(player=player, points=0, reason=reason)),
            ),
        )
        if len(players_in) == 1:
            return self._end_match(state, players_in)
        return self.next_turn(state, player, completed=completed)

    # -- scoring ------------------------------------------------------------------------------

    def _score_if_done(self, state: State) -> State:
        if state.to_act:
            return state
        detail = state.detail
        declarer = detail.declarer
        assert declarer is not None
        shown = dict(detail.shown)
        points = [0] * state.player_count
        lines = [ScoreLine(player=declarer, points=0, reason="declared rummy")]
        for player in state.players_in:
            if player == declarer:
                continue
            hand = state.hands[player]
            if self.loser_melds is LoserMelds.BEST:
                left = arrange(hand, state.meld_rules, self.card_points).deadwood_points
                how = "left outside the best melds"
            else:
                melds = shown.get(player) or ()
                melded = sum(hand_points(meld.cards, self.card_points) for meld in melds)
                left = hand_points(hand, self.card_points) - melded
                how = "left outside the melds shown" if melds else "in hand, no melds shown"
            points[player] = left * state.detail.multiplier
            reason = f"{left} points {how} x{state.detail.multiplier}"
            lines.append(ScoreLine(player=player, points=points[player], reason=reason))
        ended_by = f"{player_name(declarer)} declared rummy"
        state = self.record_deal(state, points, lines=lines, ended_by=ended_by, ending="declared")
        return self._after_deal(state)

    def _after_deal(self, state: State) -> State:
        """Rules 1.20–1.22: eliminations, the automatic first rebuy, the optional second."""
        threshold = self.elimination_threshold
        survivors = [p for p in state.players_in if state.scores[p] < threshold]
        eliminated = [p for p in state.players_in if state.scores[p] >= threshold]
        if len(survivors) <= 1:
            return self._end_match(state, survivors or state.players_in)
        level = max(state.scores[p] for p in survivors)
        if self.rebuy_score is RebuyScore.HIGHEST_REMAINING_PLUS_ONE:
            level += 1
        level = min(level, threshold - 1)  # R5: a rebuy never puts a player at the threshold
        state = state.replace(detail=evolve(state.detail, rebuy_level=level))
        pending = []
        for player in eliminated:
            rebuys = state.detail.rebuys[player]
            if rebuys >= self.max_rebuys:
                event = ScoreLine(player=player, points=0, reason="eliminated: no rebuys left")
                detail = evolve(state.detail, events=(*state.detail.events, event))
                state = state.replace(players_in=_without(state.players_in, player), detail=detail)
            elif rebuys == 0 and self.first_rebuy_mandatory:
                state = self._buy_back(state, player, "mandatory rebuy")
            else:  # still in until they decline: they decide in the rebuy phase
                pending.append(player)
        if pending:
            return state.replace(
                phase=IsraeliPhase.REBUY, current_player=None, to_act=tuple(pending)
            )
        return self._next_deal(state)

    def _buy_back(self, state: State, player: int, how: str) -> State:
        detail = state.detail
        stakes = self.rebuy_stakes
        cost = self.stake * stakes[min(detail.rebuys[player], len(stakes) - 1)]
        level = detail.rebuy_level
        scores = list(state.scores)
        reason = f"{how} for {cost}: back in at {level}"
        event = ScoreLine(player=player, points=level - scores[player], reason=reason)
        scores[player] = level
        return state.replace(
            scores=tuple(scores),
            detail=evolve(
                detail,
                rebuys=added(detail.rebuys, player),
                events=(*detail.events, event),
                pot=detail.pot + cost,
            ),
        )

    def _answer_rebuy(self, state: State, player: int, *, accept: bool) -> State:
        state = state.replace(to_act=_without(state.to_act, player))
        if accept:
            state = self._buy_back(state, player, "rebuy")
        else:
            detail = state.detail
            event = ScoreLine(player=player, points=0, reason="declined the rebuy: spectator")
            state = state.replace(
                players_in=_without(state.players_in, player),
                detail=evolve(
                    detail,
                    spectators=(*detail.spectators, player),
                    disconnected=_without(detail.disconnected, player),
                    events=(*detail.events, event),
                ),
            )
        if state.to_act:
            return state
        if len(state.players_in) <= 1:  # pragma: no cover  (rule 1.21 ends such matches first)
            return self._end_match(state, state.players_in)
        return self._next_deal(state)

    def _next_deal(self, state: State) -> State:
        deal_number = state.deal_number + 1
        multiplier = self.first_deal_multiplier if deal_number == 1 else 1
        return self._deal(
            state, next_player(state.players_in, state.dealer), deal_number, multiplier
        )

    def _end_match(self, state: State, winners: Sequence[int]) -> State:
        """The last player in takes the pot (rule 1.20); winners share it evenly otherwise."""
        payouts = shares(state.detail.pot, winners, state.player_count)
        return self.end_match(
            state, winners, payouts=payouts, lines=state.detail.events, players_in=tuple(winners)
        )

    # -- for hosts and bots -------------------------------------------------------------------

    def auto_action(self, state: State) -> Action:
        """Rule 1.26: the move made for a player who cannot act (e.g. disconnected).

        On a turn: take from the stock, then discard the card just taken, or, if it may not
        be discarded, the highest-valued card that may. Where several act at once, it answers
        for the first disconnected one (or else the first): a window is given up, a Frish
        refused, a rebuy declined.
        """
        if state.phase is Phase.DRAW:
            assert state.current_player is not None
            return DrawStock(player=state.current_player)
        detail = state.detail
        if state.phase is Phase.PLAY:
            player = state.current_player
            assert player is not None
            hand = state.hands[player]
            last = hand[-1]
            if not last.is_joker and last != detail.taken_face_up:
                return discard_action(player, last)
            values = self.card_points.values
            candidates = [
                card for card in hand if not card.is_joker and card != detail.taken_face_up
            ]
            worst = max(candidates, key=lambda card: (values[card.index], card.index))
            return discard_action(player, worst)
        waiting = [player for player in state.to_act if player in detail.disconnected]
        player = (waiting or list(state.to_act))[0]
        if state.phase is IsraeliPhase.SHOW_MELDS:
            return GiveUp(player=player)
        if state.phase is IsraeliPhase.FRISH_VOTE:
            return AnswerFrish(player=player, accept=False)
        return DeclineRebuy(player=player)

    def turn_clock(self, state: State) -> TurnClock | None:
        """Rule 1.25: how long the players who must act now have; the host keeps the time.

        A turn has ``first_go_around_seconds`` in the first go-around and ``turn_seconds``
        after, then ``grace_seconds``; a window after a declaration ``post_declare_seconds``
        and a Frish vote ``frish_answer_seconds``, without grace; a rebuy has no clock. Each
        turn, window and vote starts a new clock (a new :attr:`~rummylib.engine.TurnClock.number`).
        """
        phase, grace = state.phase, 0
        if phase is Phase.DRAW or phase is Phase.PLAY:
            first = self._in_first_go_around(state)
            seconds = self.first_go_around_seconds if first else self.turn_seconds
            grace = self.grace_seconds
        elif phase is IsraeliPhase.SHOW_MELDS:
            seconds = self.post_declare_seconds
        elif phase is IsraeliPhase.FRISH_VOTE:
            seconds = self.frish_answer_seconds
        else:
            return None
        number = state.detail.clock_number
        return TurnClock(players=state.to_act, seconds=seconds, grace_seconds=grace, number=number)

    def replace_facts(self, state: State, facts: Mapping[str, Any]) -> State:
        """The open card (the card face up beside the stock), the multiplier, the pot."""
        facts = dict(facts)
        if "open_card" in facts:
            card = facts.pop("open_card")
            state = state.replace(aside=() if card is None else (card,))
        return state.replace(detail=evolve(state.detail, **facts))

    def public_info(self, state: State, player: int) -> IsraeliPublic:
        """The open card, multiplier, pot, Frish proposals, rebuys and the seats' states."""
        detail = state.detail
        return IsraeliPublic(
            open_card=_open_card(state),
            multiplier=detail.multiplier,
            pot=detail.pot,
            frish_proposer=detail.frish_proposer,
            frish_proposals=detail.frish_proposals,
            rebuys=detail.rebuys,
            spectators=detail.spectators,
            removed=detail.removed,
            disconnected=detail.disconnected,
            autoplayed=detail.autoplayed,
        )

    def may_ever_discard(self, card: Card, observation: Observation | None = None) -> bool:
        """Rule 1.9: a joker is never discarded."""
        return not card.is_joker

    def move_words(self, state: State, kind: type[Action], actions: Sequence[Action]) -> str | None:
        """The Israeli moves: the open card, declaring, showing, the Frish."""
        if kind is TakeOpenCard:
            card = _open_card(state)
            return f"take the open card {card}" if actions and card else "take the open card"
        return _MOVE_WORDS.get(kind)

    def phase_words(self, state: State) -> str | None:
        """After a declaration, during a Frish vote, at a rebuy."""
        phase = state.phase
        if phase is IsraeliPhase.SHOW_MELDS:
            declarer = _last_of(state, DeclareRummy)
            return f"{declarer} declared rummy: show your melds to count fewer points"
        if phase is IsraeliPhase.FRISH_VOTE:
            return f"{_last_of(state, ProposeFrish)} proposes a Frish (a new deal)"
        if phase is IsraeliPhase.REBUY:
            return "you are out of the match"
        return None

    def greedy_action(self, observation: Observation) -> Action | None:
        """Frish, declarations and shows for :class:`~rummylib.bots.GreedyBot`.

        It proposes (accepts) Frish when its hand's best melds leave at most
        :attr:`greedy_frish_propose_deadwood` (:attr:`greedy_frish_accept_deadwood`) points,
        declares as soon as it can, after another's declaration shows its best melds (gives
        up only where it has none to show), and always buys back in. ``None`` leaves the rest
        to the bot.
        """
        phase: PhaseBase = observation.phase
        player = observation.player
        listed = observation.legal_actions
        proposal = ProposeFrish(player=player)
        if phase is Phase.DRAW and proposal in listed:
            strong = self._deadwood(observation.hand) <= self.greedy_frish_propose_deadwood
            return proposal if strong else None
        if phase is IsraeliPhase.FRISH_VOTE and player in observation.to_act:
            strong = self._deadwood(observation.hand) <= self.greedy_frish_accept_deadwood
            return AnswerFrish(player=player, accept=strong)
        # Declare as soon as it can; after another's declaration, show its best melds (give up
        # only with nothing to show); always buy back in (rule 1.22) where it may.
        kinds: tuple[type[Action], ...] = (DeclareRummy, ShowMelds, Rebuy, DeclineRebuy, GiveUp)
        for kind in kinds:
            chosen = next((action for action in listed if isinstance(action, kind)), None)
            if chosen is not None:
                return chosen
        return None

    def card_taken(self, observation: Observation, action: Action) -> Card | None:
        """The open card for :class:`TakeOpenCard` (R1.4), else the engine's answer."""
        if isinstance(action, TakeOpenCard):
            return observation.open_card
        return super().card_taken(observation, action)

    def _deadwood(self, hand: Sequence[Card]) -> int:
        return arrange(hand, self.meld_rules, self.card_points).deadwood_points

    def match_statistics(self, state: State) -> tuple[tuple[str, int], ...]:
        """Rebuys and Frish votes so far (accepted: by all asked; no answer in time refuses)."""
        detail = state.detail
        return (
            ("rebuys", sum(detail.rebuys)),
            ("frish proposed", detail.frish_proposed),
            ("frish accepted", detail.frish_accepted),
        )


@attrs.frozen(kw_only=True)
class Rummy71(IsraeliRummy):
    """Israeli rummy where a player is out at 71 points."""

    name: ClassVar[str] = "rummy71"
    title: ClassVar[str] = "Rummy 71"
    aliases: ClassVar[tuple[str, ...]] = ("rami71", "israeli71")
    elimination_threshold: int = attrs.field(default=71, validator=whole(1, maximum=MAX_POINTS))


@attrs.frozen(kw_only=True)
class Rummy101(IsraeliRummy):
    """Israeli rummy where a player is out at 101 points."""

    name: ClassVar[str] = "rummy101"
    title: ClassVar[str] = "Rummy 101"
    aliases: ClassVar[tuple[str, ...]] = ("rami101", "israeli101", "israeli")
    elimination_threshold: int = attrs.field(default=101, validator=whole(1, maximum=MAX_POINTS))


def next_match(
    final: GameState, *, seed: int | None = None, sitting_out: Iterable[int] = ()
) -> State:
    """Rule 1.23: the next match at the same table, after ``final`` has ended.

    Seats stay; the winner plays first (``first_player``; the next seat dealt in if the
    winner sits out). Every seat but ``sitting_out`` plays again, spectators and removed
    players too, and pays the stake. ``seed=None`` draws one, as :func:`~rummylib.state.new_game`.

    Raises:
        ConfigurationError: the match is not over, is not Israeli rummy, or fewer than two
            players would be dealt in.

    >>> from rummylib.actions import TimeExpired
    >>> final = new_game("rummy101", players=3, seed=2).apply(TimeExpired(player=0))
    >>> final = final.apply(TimeExpired(player=1))
    >>> final.result.winners, final.result.payouts
    ((2,), (0, 0, 3))
    >>> after = next_match(final, seed=9)
    >>> after.current_player, after.dealer, after.pot, after.variant.first_player
    (2, 1, 3, 2)
    >>> next_match(after)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: the match is not over yet
    """
    result = final.result
    if result is None:
        msg = "the match is not over yet"
        raise ConfigurationError(msg)
    variant = final.variant
    if not isinstance(variant, IsraeliRummy):
        msg = f"next_match is for Rummy 71/101 tables, not {variant.name}"
        raise ConfigurationError(msg)
    out = _seats(tuple(sitting_out))
    playing = tuple(seat for seat in range(final.player_count) if seat not in out)
    if len(playing) < variant.min_players:
        msg = f"at least {variant.min_players} players must be dealt in, not {len(playing)}"
        raise ConfigurationError(msg)
    winner = result.winners[0]
    first = winner if winner in playing else next_player(playing, winner)
    variant = attrs.evolve(variant, first_player=first, sitting_out=out)
    return new_game(variant, players=final.player_count, seed=seed)
