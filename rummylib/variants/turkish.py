"""Turkish 500 rummy and its presets (RULES.md section 3).

500 rummy with the additions of the Turkish text: thirteen cards each from two packs and two
jokers, drawing from the stock only, laying down melds and laying off cards on any meld on the
table, and a deal score of the cards one melded or laid off minus the cards left in hand. Each
deal puts 30 points in a pool for the player who goes out, and a match lasts at most ten deals
or until someone reaches 500. The presets are :class:`Turkish300` (to 300),
:class:`Turkish500Cutthroat` (no pool, only the deal's winner scores) and :class:`Rummy500`
(the classic game: a smaller deck for up to four players, drawing any discard with every card
above it, no pool, no deal limit).

>>> from rummylib.actions import Discard, DrawStock, LayDown
>>> state = new_game("turkish500", players=2, seed=1)
>>> len(state.stock), state.discard_pile, state.pot
(80, (), 30)
>>> state.legal_actions()
(DrawStock(player=0),)
>>> state = state.apply(DrawStock(player=0))
>>> [str(action.melds[0]) for action in state.legal_actions() if isinstance(action, LayDown)]
['Ac Ah As']
>>> state = state.apply(LayDown(player=0, melds=[parse_meld("Ac Ah As", MeldRules())]))
>>> dict(state.observation(1).public)["melded_points"]
(45, 0)
>>> state = state.apply(Discard(player=0, card=parse_card("Kh")))
>>> state.current_player, state.legal_actions()
(1, (DrawStock(player=1),))

Readings chosen where the seed text is unclear, beyond the settings RULES.md names, are
documented on :class:`Turkish500` and on the rules page.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar, TypeAlias

import attrs

from rummylib._settings import (
    MAX_CARD_POINTS,
    MAX_COUNT,
    MAX_DECKS,
    MAX_HAND_SIZE,
    MAX_JOKERS,
    MAX_JOKERS_PER_DECK,
    MAX_POINTS,
    flag,
    read_choice,
    whole,
)
from rummylib.actions import Action, Discard, DrawStock, LayDown, LayOff, TakeDiscard
from rummylib.arrangement import arrange
from rummylib.cards import JOKER, Card, Rank, format_cards, make_deck
from rummylib.engine import (
    Phase,
    Variant,
    deal_cards,
    next_player,
    remove_cards,
    shuffled,
)
from rummylib.errors import ConfigurationError, IllegalActionError, InvalidMeldError
from rummylib.melds import (
    Extension,
    Meld,
    MeldRules,
    RunEnd,
    canonical_melds,
    extensions,
    find_melds,
    is_meld,
    rank_at,
)
from rummylib.scoring import CardPoints, DealResult, MatchResult, ScoreLine, hand_points
from rummylib.state import GameState
from rummylib.views import Observation

__all__ = [
    "FirstGoAroundGoOut",
    "PoolTie",
    "Rummy500",
    "Scoring",
    "Turkish300",
    "Turkish500",
    "Turkish500Cutthroat",
    "TurkishDetail",
]


#: A dealt hand that can go out (3.12): player, leftover value, melds, leftover card.
_Shown: TypeAlias = tuple[int, int, tuple[Meld, ...], Card | None]

#: The hand sizes a table with ``dealt_rummy_check=True`` may deal (R9, 3.12).
DEALT_CHECK_HAND_SIZES = (2, 26)


class FirstGoAroundGoOut(enum.Enum):
    """Who may go out during the first go-around of a deal (rule 3.7)."""

    #: Only the player who plays first; the others keep at least 2 cards when they meld.
    FIRST_PLAYER_ONLY = "first_player_only"
    #: Everyone.
    ANYONE = "anyone"
    #: No player, the first included, may go out in the first go-around.
    NOBODY = "nobody"


class PoolTie(enum.Enum):
    """What happens to the pool when nobody went out and the best deal scores tie (3.11)."""

    #: The pool stays and grows by the next deal's contribution.
    CARRY_OVER = "carry_over"
    #: The tied players share it equally; what does not divide evenly carries over.
    SPLIT = "split"


class Scoring(enum.Enum):
    """Who scores a deal (rules 3.13 and 3.14)."""

    #: Every player scores melded and laid-off cards minus the cards left in hand.
    ALL_PLAYERS = "all_players"
    #: Only the deal's winner scores (the player who went out, else the unique best score).
    WINNER_ONLY = "winner_only"


def _to_first_go_around_go_out(value: object) -> FirstGoAroundGoOut:
    return read_choice(FirstGoAroundGoOut, value)


def _to_pool_tie(value: object) -> PoolTie:
    return read_choice(PoolTie, value)


def _to_scoring(value: object) -> Scoring:
    return read_choice(Scoring, value)


@attrs.frozen(kw_only=True)
class TurkishDetail:
    """The 500 game's own bookkeeping inside a :class:`~rummylib.state.GameState`.

    Attributes:
        turn_index: turns begun in this deal; the first go-around is the first
            ``len(players_in)`` turns, and turn 0 is the first player's.
        must_meld: the deepest card taken from the discard pile this turn (classic 500), which
            must be laid down or laid off before the turn ends; ``None`` when nothing is owed.
        melded_points: per player, the points of the melds they laid down this deal.
        melded_cards: per player, how many cards they laid down this deal.
        laid_off_points: per player, the points of the cards they laid off this deal.
        laid_off_cards: per player, how many cards they laid off this deal.

    >>> TurkishDetail().must_meld is None
    True
    """

    turn_index: int = 0
    must_meld: Card | None = None
    melded_points: tuple[int, ...] = ()
    melded_cards: tuple[int, ...] = ()
    laid_off_points: tuple[int, ...] = ()
    laid_off_cards: tuple[int, ...] = ()


def _name(player: int) -> str:
    return f"p{player + 1}"


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _by_index(cards: Sequence[Card] | set[Card]) -> list[Card]:
    return sorted(cards, key=lambda card: card.index)


def _meld_reason(error: InvalidMeldError) -> str:
    text = str(error)
    marker = " is not a meld: "
    return text.split(marker, 1)[1] if marker in text else text


def _added(counts: Sequence[int], player: int, amount: int) -> tuple[int, ...]:
    values = list(counts)
    values[player] += amount
    return tuple(values)


@attrs.frozen(kw_only=True)
class Turkish500(Variant):
    """Turkish 500 rummy: every rule and setting of RULES.md section 3.

    The presets :class:`Turkish300`, :class:`Turkish500Cutthroat` and :class:`Rummy500` are
    subclasses that change only their defaults. Readings chosen where the text is unclear:

    * ``None`` for ``decks``, ``jokers`` or ``hand_size`` means "by player count" (3.14): one
      pack and 2 jokers for 2–4 players, two packs and 4 jokers for 5 or more; 13 cards with
      two players, 7 with three or more.
    * ``start_discard_pile`` (an extra setting, ``True`` only in ``rummy500``) turns one card
      face up to start the discard pile (3.2).
    * Taking from the discard pile (``draw_from_discard=True``) is refused unless the deepest
      card taken can be melded that same turn, and a lay-down or lay-off that would leave that
      card with no meld is refused too; a turn can therefore always be finished.
    * When the stock is empty, the player to move "cannot draw" only if no draw is legal at
      all: in classic 500 a legal take from the discard pile keeps the deal going (3.8).
    * A player may lay off before laying down any meld of their own; a joker laid off names
      the card it stands for; a table joker keeps that identity for good (3.4, 3.6).
    * The dealt-hand check (3.12), when enabled, is applied by the engine at the deal: going
      out at once is never worse for the player. The leftover card is the lowest-valued card
      whose removal leaves the rest fully meldable (none if all 13 meld); it goes to the
      discard pile unscored. A tie is dealt again as the same deal, so no new pool is added.
    * Cutthroat with a tie for the best deal score and nobody out: nobody won, so nobody
      scores (as a tie carries the pool over in 3.11 and voids the deal in 3.12).
    * A pool left over when the match ends is not awarded.

    >>> variant = get_variant("turkish500")
    >>> variant.deal_pool, variant.target_score, variant.max_deals, len(variant.deck_for(6))
    (30, 500, 10, 106)
    >>> variant.card_points.of(parse_card("Ah")), variant.card_points.ace_in_low_run
    (15, 1)
    >>> get_variant("turkish500", first_go_around_go_out="sometimes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: bad setting 'sometimes': expected one of ...
    """

    name: ClassVar[str] = "turkish500"
    title: ClassVar[str] = "Turkish 500 rummy"
    aliases: ClassVar[tuple[str, ...]] = ("turkish", "500_remi")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

    decks: int | None = attrs.field(default=2, validator=whole(1, maximum=MAX_DECKS, optional=True))
    jokers: int | None = attrs.field(
        default=2, validator=whole(0, maximum=MAX_JOKERS, optional=True)
    )
    hand_size: int | None = attrs.field(
        default=13, validator=whole(1, maximum=MAX_HAND_SIZE, optional=True)
    )
    draw_from_discard: bool = attrs.field(default=False, validator=flag)
    start_discard_pile: bool = attrs.field(default=False, validator=flag)
    go_out_requires_discard: bool = attrs.field(default=False, validator=flag)
    first_go_around_go_out: FirstGoAroundGoOut = attrs.field(
        default=FirstGoAroundGoOut.FIRST_PLAYER_ONLY, converter=_to_first_go_around_go_out
    )
    deal_pool: int = attrs.field(default=30, validator=whole(0, maximum=MAX_POINTS))
    pool_tie: PoolTie = attrs.field(default=PoolTie.CARRY_OVER, converter=_to_pool_tie)
    dealt_rummy_check: bool = attrs.field(default=False, validator=flag)
    max_deals: int | None = attrs.field(
        default=10, validator=whole(1, maximum=MAX_COUNT, optional=True)
    )
    target_score: int = attrs.field(default=500, validator=whole(1, maximum=MAX_POINTS))
    scoring: Scoring = attrs.field(default=Scoring.ALL_PLAYERS, converter=_to_scoring)
    max_go_arounds: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_COUNT, optional=True)
    )
    ace_points: int = attrs.field(default=15, validator=whole(0, maximum=MAX_CARD_POINTS))
    ace_low_run_points: int = attrs.field(default=1, validator=whole(0, maximum=MAX_CARD_POINTS))
    joker_points: int = attrs.field(default=15, validator=whole(0, maximum=MAX_CARD_POINTS))

    _rules: MeldRules = attrs.field(init=False, eq=False, repr=False)
    _points: CardPoints = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_rules", MeldRules())
        object.__setattr__(
            self,
            "_points",
            CardPoints(
                ace=self.ace_points,
                face=10,
                joker=self.joker_points,
                ace_low_run=self.ace_low_run_points,
            ),
        )
        self._check_settings()
        self._check_deal_fits(self.min_players)

    def _check_settings(self) -> None:
        """The bounds between settings (R9).

        ``jokers`` is at most 8 per pack (with ``decks=None``, per the single pack of 2–4
        players). With ``dealt_rummy_check=True`` every hand dealt must hold 2 to 26 cards:
        a one-card hand is always "all melded except one card" (3.12), so every deal would
        end before its first turn, and with no pool a match would never end (a deal of 2
        cards never qualifies, as no meld has fewer than 3). Above 26 cards, twice the rule's
        13, the check that runs before every first turn costs seconds a deal.

        >>> get_variant("turkish500", hand_size=1, dealt_rummy_check=True)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rummylib.errors.ConfigurationError: hand_size must be from 2 to 26 with dealt_rummy_check...
        """
        packs = 1 if self.decks is None else self.decks
        most_jokers = MAX_JOKERS_PER_DECK * packs
        if self.jokers is not None and self.jokers > most_jokers:
            deck = f"{packs} pack{'s' if packs > 1 else ''}"
            if self.decks is None:
                deck = "decks=None, one pack for 2–4 players"
            msg = (
                f"jokers must be None or a whole number from 0 to {most_jokers} "
                f"({MAX_JOKERS_PER_DECK} per pack; {deck}), not {self.jokers}"
            )
            raise ConfigurationError(msg)
        if self.dealt_rummy_check:
            sizes = {
                self.hand_size_for(players)
                for players in range(self.min_players, self.max_players + 1)
            }
            low, high = DEALT_CHECK_HAND_SIZES
            bad = sorted(size for size in sizes if not low <= size <= high)
            if bad:
                msg = (
                    f"hand_size must be from {low} to {high} with dealt_rummy_check=True, "
                    f"not {bad[0]}: "
                    + (
                        "a 1-card hand always goes out at once (3.12), so no deal would "
                        "reach its first turn (R9)"
                        if bad[0] < low
                        else "the check of such large dealt hands costs seconds a deal"
                    )
                )
                raise ConfigurationError(msg)

    # -- what the game is ---------------------------------------------------------------------

    @property
    def meld_rules(self) -> MeldRules:
        """Groups of 3–4 different suits, runs with the ace high or low, no wrap (rule 3.6).

        >>> get_variant("turkish500").meld_rules.ace
        <AceRule.LOW_OR_HIGH: 'low_or_high'>
        """
        return self._rules

    @property
    def card_points(self) -> CardPoints:
        """2–10 pip value, J Q K 10, ace 15 (1 as the low end of a run), joker 15 (rule 3.9).

        >>> get_variant("turkish500", joker_points=25).card_points.joker
        25
        """
        return self._points

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """Two packs and two jokers; by player count where ``decks``/``jokers`` are ``None``.

        >>> len(get_variant("turkish500").deck_for(2)), len(get_variant("rummy500").deck_for(4))
        (106, 54)
        >>> len(get_variant("rummy500").deck_for(5))
        108
        """
        many = players >= 5
        decks = self.decks if self.decks is not None else (2 if many else 1)
        jokers = self.jokers if self.jokers is not None else (4 if many else 2)
        return make_deck(decks=decks, jokers=jokers)

    def hand_size_for(self, players: int) -> int:
        """Thirteen cards; with ``hand_size=None``, 13 for two players and 7 for more.

        >>> get_variant("turkish500").hand_size_for(6), get_variant("rummy500").hand_size_for(3)
        (13, 7)
        """
        if self.hand_size is not None:
            return self.hand_size
        return 13 if players == 2 else 7

    def check_players(self, players: object) -> int:
        """Return ``players`` if the deck can deal that many hands and leave a stock.

        >>> get_variant("turkish500", hand_size=40).check_players(2)
        2
        >>> get_variant("turkish500", hand_size=40).check_players(3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rummylib.errors.ConfigurationError: 106 cards cannot deal 40 cards to 3 players and ...

        Raises:
            ConfigurationError: a bad player count, or one the deck cannot deal to.
        """
        count = super().check_players(players)
        self._check_deal_fits(count)
        return count

    def _check_deal_fits(self, players: int) -> None:
        size = len(self.deck_for(players))
        hand = self.hand_size_for(players)
        if hand * players + int(self.start_discard_pile) + 1 > size:
            most = (size - int(self.start_discard_pile) - 1) // players
            msg = (
                f"{size} cards cannot deal {hand} cards to {players} players and leave a stock "
                f"(hand_size must be at most {most} for {players} players)"
            )
            raise ConfigurationError(msg)

    # -- the match ----------------------------------------------------------------------------

    def start(self, state: GameState) -> GameState:
        """Deal the first deal (dealt by the last seat) and put its pool in."""
        players = state.player_count
        zeros = (0,) * players
        state = state.replace(
            pot=self.deal_pool,
            detail=TurkishDetail(
                melded_points=zeros,
                melded_cards=zeros,
                laid_off_points=zeros,
                laid_off_cards=zeros,
            ),
        )
        return self._deal(state, dealer=players - 1, deal_number=1)

    def _deal(self, state: GameState, *, dealer: int, deal_number: int) -> GameState:
        """Shuffle and deal; apply the dealt-hand check (3.12) when the table plays it."""
        while True:
            state = self._shuffle_and_deal(state, dealer=dealer, deal_number=deal_number)
            if not self.dealt_rummy_check:
                return state
            shown = self._dealt_hands(state)
            if not shown:
                return state
            best = min(leftover for _, leftover, _, _ in shown)
            lowest = [entry for entry in shown if entry[1] == best]
            if len(lowest) == 1:
                player, _, melds, leftover_card = lowest[0]
                state = self._go_out_with_dealt_hand(state, player, melds, leftover_card)
                if state.is_over:
                    return state
                # The next deal follows in this loop, never by recursion: with the check on,
                # any number of deals in a row may end before their first turn.
                dealer, deal_number = self._next_dealer(state), state.deal_number + 1
                state = state.replace(pot=state.pot + self.deal_pool)
                continue
            names = ", ".join(_name(entry[0]) for entry in lowest)
            record = DealResult(
                deal_number=deal_number,
                points=(0,) * state.player_count,
                ended_by=(
                    f"dealt hands of {names} tie with leftovers worth {best}: nobody scores, "
                    f"the pool of {state.pot} carries over and the deal is dealt again"
                ),
            )
            state = state.replace(deal_results=(*state.deal_results, record))

    def _shuffle_and_deal(self, state: GameState, *, dealer: int, deal_number: int) -> GameState:
        players_in = state.players_in
        first = next_player(players_in, dealer)
        seats = players_in[players_in.index(first) :] + players_in[: players_in.index(first)]
        if state.deck is not None and state.shuffle_count == 0:
            deck = state.deck
        else:
            deck = shuffled(self.deck_for(state.player_count), state.seed, state.shuffle_count)
        size = self.hand_size_for(state.player_count)
        hands, rest = deal_cards(deck, seats, size, state.player_count)
        pile: tuple[Card, ...] = ()
        if self.start_discard_pile:
            pile, rest = rest[:1], rest[1:]
        zeros = (0,) * state.player_count
        return state.replace(
            phase=Phase.DRAW,
            current_player=first,
            to_act=(first,),
            hands=hands,
            stock=rest,
            discard_pile=pile,
            open_card=None,
            table=(),
            deal_number=deal_number,
            dealer=dealer,
            shuffle_count=state.shuffle_count + 1,
            detail=TurkishDetail(
                melded_points=zeros,
                melded_cards=zeros,
                laid_off_points=zeros,
                laid_off_cards=zeros,
            ),
        )

    def _dealt_hands(self, state: GameState) -> list[_Shown]:
        """Who can go out with the dealt hand: (player, leftover value, melds, leftover card)."""
        rules, points = self.meld_rules, self.card_points
        found: list[_Shown] = []
        for player in state.players_in:
            hand = state.hands[player]
            if not self.go_out_requires_discard:
                whole_hand = arrange(hand, rules, points)
                if whole_hand.is_complete:
                    found.append((player, 0, whole_hand.melds, None))
                    continue
            if not arrange(hand, rules, points, discard=True).is_complete:
                continue
            for card in sorted(set(hand), key=lambda card: (points.of(card), card.index)):
                rest = arrange(remove_cards(hand, (card,)), rules, points)
                if rest.is_complete:
                    found.append((player, points.of(card), rest.melds, card))
                    break
        return found

    def _go_out_with_dealt_hand(
        self, state: GameState, player: int, melds: tuple[Meld, ...], leftover: Card | None
    ) -> GameState:
        detail: TurkishDetail = state.detail
        hands = list(state.hands)
        hands[player] = ()
        laid = sum(len(meld.cards) for meld in melds)
        state = state.replace(
            hands=tuple(hands),
            table=melds,
            discard_pile=(
                (*state.discard_pile, leftover) if leftover is not None else state.discard_pile
            ),
            phase=Phase.PLAY,
            detail=attrs.evolve(
                detail,
                melded_points=_added(
                    detail.melded_points, player, sum(m.points(self.card_points) for m in melds)
                ),
                melded_cards=_added(detail.melded_cards, player, laid),
            ),
        )
        return self._score_deal(
            state, went_out=player, ended_by=f"{_name(player)} went out with the dealt hand"
        )

    # -- legality -----------------------------------------------------------------------------

    def _in_first_go_around(self, state: GameState) -> bool:
        detail: TurkishDetail = state.detail
        return detail.turn_index < len(state.players_in)

    def _cards_to_keep(self, state: GameState) -> int:
        """How many cards the current player must keep in hand after laying down or off."""
        detail: TurkishDetail = state.detail
        window = self.first_go_around_go_out
        if self._in_first_go_around(state) and (
            window is FirstGoAroundGoOut.NOBODY
            or (window is FirstGoAroundGoOut.FIRST_PLAYER_ONLY and detail.turn_index != 0)
        ):
            return 2
        return 1 if self.go_out_requires_discard else 0

    def _keep_reason(self, state: GameState, player: int, keep: int) -> str:
        if keep == 2:
            if self.first_go_around_go_out is FirstGoAroundGoOut.NOBODY:
                why = "nobody may go out during the first go-around"
            else:
                why = "during the first go-around only the first player may go out"
            return f"{_name(player)} must keep at least 2 cards in hand: {why}"
        return f"{_name(player)} must keep a card to discard: going out requires a discard"

    def _lay_off_way(self, meld: Meld, action: LayOff) -> Extension | str:
        """Where and as what the card of ``action`` goes onto ``meld``, or why it cannot."""
        card = action.card
        stands = action.stands_for if action.stands_for is not None else card
        shown = f"{card}={stands}" if card.is_joker else str(card)
        if stands.is_joker:
            return f"cannot lay off {shown}: a joker must stand for a natural card"
        ways = [way for way in extensions(meld, card, self.meld_rules) if way.stands_for == stands]
        if not ways:
            grown = Meld(meld.kind, (*meld.cards, card), (*meld.stands_for, stands))
            try:
                grown.check(self.meld_rules)
            except InvalidMeldError as error:
                reason = _meld_reason(error)
            else:  # pragma: no cover  (a legal extension is always found above)
                reason = "it does not extend the meld"
            return f"cannot lay off {shown} on meld {action.meld_index} ({meld}): {reason}"
        if len(ways) == 1:
            if action.end is not None:
                return (
                    f"{shown} fits only one end of meld {action.meld_index} ({meld}): leave end out"
                )
            return ways[0]
        for way in ways:
            if way.end is action.end:
                return way
        return (
            f"{shown} fits both ends of meld {action.meld_index} ({meld}): "
            "say which with end='low' or end='high'"
        )

    def _lay_off_actions(self, player: int, index: int, meld: Meld, card: Card) -> list[LayOff]:
        """The lay-offs of ``card`` on table meld ``index``: one per place and reading."""
        ways = extensions(meld, card, self.meld_rules)
        readings = Counter(way.stands_for for way in ways)
        return [
            LayOff(
                player=player,
                card=card,
                meld_index=index,
                stands_for=way.stands_for if card.is_joker else None,
                end=way.end if readings[way.stands_for] > 1 else None,
            )
            for way in ways
        ]

    def _lay_off_credit(self, card: Card, way: Extension) -> int:
        """R1: the laid-off card's own value at its place (an ace below a two counts low)."""
        points = self.card_points
        if not card.is_joker and card.rank == Rank.ACE and way.end is RunEnd.LOW:
            return points.ace_in_low_run
        return points.of(card)

    def _can_still_meld(
        self, hand: Sequence[Card], table: Sequence[Meld], card: Card, keep: int
    ) -> bool:
        """Whether ``card`` (in ``hand``) can still be laid down or off this turn."""
        if card not in hand:
            return False
        if len(hand) - 1 >= keep and any(extensions(meld, card, self.meld_rules) for meld in table):
            return True
        if len(hand) - self.meld_rules.min_size < keep:
            return False
        return any(is_meld(triple, self.meld_rules) for triple in _triples_with(hand, card))

    def _check_turn(self, state: GameState, action: Action) -> str | None:
        player = action.player
        if player in state.to_act:
            return None
        if state.current_player is None:
            return f"{_name(player)} cannot act now ({state.phase.value})"
        return f"it is {_name(state.current_player)}'s turn, not {_name(player)}'s"

    def _refusal(self, state: GameState, action: Action) -> str | None:  # noqa: PLR0911
        refusal = self._check_turn(state, action)
        if refusal:
            return refusal
        player = action.player
        if state.phase is Phase.DRAW:
            if isinstance(action, DrawStock):
                return None if state.stock else "the stock is empty"
            if isinstance(action, TakeDiscard):
                return self._take_refusal(state, action)
            if isinstance(action, LayDown | LayOff | Discard):
                return f"{_name(player)} must draw a card first"
        elif state.phase is Phase.PLAY:
            if isinstance(action, DrawStock | TakeDiscard):
                return f"{_name(player)} has already drawn this turn"
            if isinstance(action, LayDown):
                return self._lay_down_refusal(state, action)
            if isinstance(action, LayOff):
                return self._lay_off_refusal(state, action)
            if isinstance(action, Discard):
                return self._discard_refusal(state, action)
        return f"{type(action).__name__} is not a move of {self.name}"

    def _take_refusal(self, state: GameState, action: TakeDiscard) -> str | None:
        pile = state.discard_pile
        if not self.draw_from_discard:
            return "the discard pile is dead: cards are drawn from the stock only"
        if not pile:
            return "the discard pile is empty"
        count = action.count
        if not 1 <= count <= len(pile):
            return f"cannot take {count} cards: the discard pile holds {len(pile)}"
        deepest = pile[-count]
        hand = (*state.hands[action.player], *pile[-count:])
        if not self._can_still_meld(hand, state.table, deepest, self._cards_to_keep(state)):
            return (
                f"cannot take {deepest}: the deepest card taken must be melded this turn, "
                f"and {_name(action.player)} could not meld it"
            )
        return None

    def _lay_down_refusal(self, state: GameState, action: LayDown) -> str | None:
        player = action.player
        if not action.melds:
            return "lay down at least one meld"
        laid: Counter[Card] = Counter()
        for meld in action.melds:
            try:
                meld.check(self.meld_rules)
            except InvalidMeldError as error:
                return f"cannot lay down {meld}: {_meld_reason(error)}"
            laid.update(meld.cards)
        hand = state.hands[player]
        extra = laid - Counter(hand)
        if extra:
            names = format_cards(_by_index(list(extra.elements())))
            return f"the melds use cards {_name(player)} does not hold: {names}"
        keep = self._cards_to_keep(state)
        left = len(hand) - laid.total()
        if left < keep:
            return self._keep_reason(state, player, keep)
        detail: TurkishDetail = state.detail
        owed = detail.must_meld
        if owed is not None and not laid[owed]:
            rest = remove_cards(hand, laid.elements())
            table = (*state.table, *action.melds)
            if not self._can_still_meld(rest, table, owed, keep):
                return f"that would leave no way to meld {owed}, taken from the discard pile"
        return None

    def _lay_off_refusal(self, state: GameState, action: LayOff) -> str | None:  # noqa: PLR0911
        player, card = action.player, action.card
        hand = state.hands[player]
        if card not in hand:
            return f"{card} is not in {_name(player)}'s hand"
        if card.is_joker and action.stands_for is None:
            return "a joker laid off must name the card it stands for (stands_for)"
        if not card.is_joker and action.stands_for is not None:
            return "only a joker names the card it stands for"
        index = action.meld_index
        if not 0 <= index < len(state.table):
            return f"there is no meld {index} on the table (it holds {len(state.table)})"
        way = self._lay_off_way(state.table[index], action)
        if isinstance(way, str):
            return way
        keep = self._cards_to_keep(state)
        if len(hand) - 1 < keep:
            return self._keep_reason(state, player, keep)
        detail: TurkishDetail = state.detail
        owed = detail.must_meld
        if owed is not None and card != owed:
            table = list(state.table)
            table[index] = way.meld
            rest = remove_cards(hand, (card,))
            if not self._can_still_meld(rest, table, owed, keep):
                return f"that would leave no way to meld {owed}, taken from the discard pile"
        return None

    def _discard_refusal(self, state: GameState, action: Discard) -> str | None:
        player = action.player
        if action.card not in state.hands[player]:
            return f"{action.card} is not in {_name(player)}'s hand"
        detail: TurkishDetail = state.detail
        if detail.must_meld is not None:
            return (
                f"cannot discard yet: {detail.must_meld}, taken from the discard pile, "
                "must be melded first"
            )
        return None

    def verify(self, state: GameState, action: Action) -> None:
        """Check an action against rules 3.3–3.8.

        Raises:
            IllegalActionError: the action is not legal now; the message says why.
        """
        refusal = self._refusal(state, action)
        if refusal is not None:
            raise IllegalActionError(refusal)

    def legal_actions(self, state: GameState, player: int) -> tuple[Action, ...]:
        """Canonical order.

        Draw phase: the stock, then the discard pile by how many cards are taken. Play phase:
        each single meld of :func:`~rummylib.melds.find_melds` of the hand, then lay-offs by
        table meld, card and (for a joker) the card it stands for, then discards by card.
        """
        candidates: list[Action] = []
        if state.phase is Phase.DRAW:
            candidates.append(DrawStock(player=player))
            if self.draw_from_discard:
                candidates.extend(
                    TakeDiscard(player=player, count=count)
                    for count in range(1, len(state.discard_pile) + 1)
                )
        elif state.phase is Phase.PLAY:
            hand = state.hands[player]
            candidates.extend(
                LayDown(player=player, melds=(meld,)) for meld in find_melds(hand, self.meld_rules)
            )
            distinct = _by_index(set(hand))
            for index, meld in enumerate(state.table):
                for card in distinct:
                    candidates.extend(self._lay_off_actions(player, index, meld, card))
            candidates.extend(Discard(player=player, card=card) for card in distinct)
        return tuple(action for action in candidates if self._refusal(state, action) is None)

    # -- applying -----------------------------------------------------------------------------

    def apply(self, state: GameState, action: Action) -> GameState:
        """The state after a verified action."""
        player = action.player
        detail: TurkishDetail = state.detail
        hands = list(state.hands)
        if isinstance(action, DrawStock):
            hands[player] = (*hands[player], state.stock[0])
            return state.replace(hands=tuple(hands), stock=state.stock[1:], phase=Phase.PLAY)
        if isinstance(action, TakeDiscard):
            taken = state.discard_pile[-action.count :]
            hands[player] = (*hands[player], *taken)
            return state.replace(
                hands=tuple(hands),
                discard_pile=state.discard_pile[: -action.count],
                phase=Phase.PLAY,
                detail=attrs.evolve(detail, must_meld=taken[0]),
            )
        if isinstance(action, LayDown):
            melds = canonical_melds(action.melds)
            laid = [card for meld in melds for card in meld.cards]
            hands[player] = remove_cards(hands[player], laid)
            owed = detail.must_meld
            state = state.replace(
                hands=tuple(hands),
                table=(*state.table, *melds),
                detail=attrs.evolve(
                    detail,
                    must_meld=None if owed in laid else owed,
                    melded_points=_added(
                        detail.melded_points,
                        player,
                        sum(meld.points(self.card_points) for meld in melds),
                    ),
                    melded_cards=_added(detail.melded_cards, player, len(laid)),
                ),
            )
            return self._after_meld(state, player)
        if isinstance(action, LayOff):
            way = self._lay_off_way(state.table[action.meld_index], action)
            assert not isinstance(way, str)  # verified
            credit = self._lay_off_credit(action.card, way)
            table = list(state.table)
            table[action.meld_index] = way.meld
            hands[player] = remove_cards(hands[player], (action.card,))
            owed = detail.must_meld
            state = state.replace(
                hands=tuple(hands),
                table=tuple(table),
                detail=attrs.evolve(
                    detail,
                    must_meld=None if owed == action.card else owed,
                    laid_off_points=_added(detail.laid_off_points, player, credit),
                    laid_off_cards=_added(detail.laid_off_cards, player, 1),
                ),
            )
            return self._after_meld(state, player)
        if isinstance(action, Discard):
            hands[player] = remove_cards(hands[player], (action.card,))
            state = state.replace(
                hands=tuple(hands), discard_pile=(*state.discard_pile, action.card)
            )
            if not hands[player]:
                return self._end_deal(state, went_out=player, ended_by=f"{_name(player)} went out")
            return self._next_turn(state, player)
        msg = f"{type(action).__name__} cannot be applied"  # pragma: no cover
        raise IllegalActionError(msg)  # pragma: no cover

    def _after_meld(self, state: GameState, player: int) -> GameState:
        if state.hands[player]:
            return state
        return self._end_deal(state, went_out=player, ended_by=f"{_name(player)} went out")

    def _next_turn(self, state: GameState, after: int) -> GameState:
        detail: TurkishDetail = state.detail
        turn_index = detail.turn_index + 1
        if self.max_go_arounds is not None and turn_index >= self.max_go_arounds * len(
            state.players_in
        ):
            rounds = "go-around" if self.max_go_arounds == 1 else "go-arounds"
            return self._end_deal(
                state, went_out=None, ended_by=f"{self.max_go_arounds} {rounds} played"
            )
        upcoming = next_player(state.players_in, after)
        state = state.replace(
            phase=Phase.DRAW,
            current_player=upcoming,
            to_act=(upcoming,),
            detail=attrs.evolve(detail, turn_index=turn_index, must_meld=None),
        )
        if not state.stock and not self.legal_actions(state, upcoming):
            return self._end_deal(
                state,
                went_out=None,
                ended_by=f"the stock ran out and {_name(upcoming)} cannot draw",
            )
        return state

    # -- scoring ------------------------------------------------------------------------------

    def _end_deal(self, state: GameState, *, went_out: int | None, ended_by: str) -> GameState:
        """Score the deal, then deal the next one unless the match is over."""
        state = self._score_deal(state, went_out=went_out, ended_by=ended_by)
        if state.is_over:
            return state
        dealer = self._next_dealer(state)
        state = state.replace(pot=state.pot + self.deal_pool)
        return self._deal(state, dealer=dealer, deal_number=state.deal_number + 1)

    def _next_dealer(self, state: GameState) -> int:
        """R6: the deal passes to the left after every deal."""
        return next_player(state.players_in, state.dealer)

    def _score_deal(self, state: GameState, *, went_out: int | None, ended_by: str) -> GameState:
        """Rules 3.10–3.11 (and 3.14 for cutthroat): score the deal; end the match if due."""
        players_in = state.players_in
        own = {player: self._player_lines(state, player) for player in players_in}
        raw = {player: sum(line.points for line in own[player]) for player in players_in}
        winner, tied = went_out, []
        if winner is None:
            best = max(raw.values())
            tied = [player for player in players_in if raw[player] == best]
            if len(tied) == 1:
                winner, tied = tied[0], []
        lines = [line for player in players_in for line in own[player]]
        if self.scoring is Scoring.WINNER_ONLY:
            why = "no single winner" if winner is None else f"{_name(winner)} won"
            lines = [line for line in lines if line.player == winner]
            lines.extend(
                ScoreLine(
                    player=player,
                    points=0,
                    reason=f"only the deal's winner scores ({why}; {raw[player]:+d} not counted)",
                )
                for player in players_in
                if player != winner
            )
        pot = state.pot
        if winner is not None and pot:
            how = "went out" if went_out is not None else "best score of the deal"
            lines.append(ScoreLine(player=winner, points=pot, reason=f"the pool: {how}"))
            pot = 0
        elif tied and pot and self.pool_tie is PoolTie.SPLIT:
            share = pot // len(tied)
            lines.extend(
                ScoreLine(
                    player=player,
                    points=share,
                    reason="a share of the pool: tie for the best score",
                )
                for player in tied
            )
            pot -= share * len(tied)
        if tied and pot:
            ended_by += f"; the best scores tie, so the pool of {pot} carries over"
        points = [0] * state.player_count
        for line in lines:
            points[line.player] += line.points
        record = DealResult(
            deal_number=state.deal_number,
            points=tuple(points),
            lines=tuple(lines),
            ended_by=ended_by,
        )
        scores = tuple(total + add for total, add in zip(state.scores, points, strict=True))
        state = state.replace(scores=scores, pot=pot, deal_results=(*state.deal_results, record))
        top = max(scores[player] for player in players_in)
        if top >= self.target_score or (
            self.max_deals is not None and state.deal_number >= self.max_deals
        ):
            return self._end_match(state)
        return state

    def _player_lines(self, state: GameState, player: int) -> list[ScoreLine]:
        """Rule 3.10 for one player: melded, laid off, left in hand."""
        detail: TurkishDetail = state.detail
        lines = []
        if detail.melded_cards[player]:
            reason = f"melded {_cards(detail.melded_cards[player])}"
            lines.append(
                ScoreLine(player=player, points=detail.melded_points[player], reason=reason)
            )
        if detail.laid_off_cards[player]:
            reason = f"laid off {_cards(detail.laid_off_cards[player])}"
            lines.append(
                ScoreLine(player=player, points=detail.laid_off_points[player], reason=reason)
            )
        hand = state.hands[player]
        if hand:
            reason = f"{_cards(len(hand))} left in hand"
            lines.append(
                ScoreLine(player=player, points=-hand_points(hand, self.card_points), reason=reason)
            )
        return lines

    def _end_match(self, state: GameState) -> GameState:
        """Rule 3.13: the highest total wins; an exact tie at the top is a shared win."""
        top = max(state.scores[player] for player in state.players_in)
        winners = tuple(player for player in state.players_in if state.scores[player] == top)
        result = MatchResult(
            winners=winners,
            scores=state.scores,
            deals=state.deal_results,
            payouts=(0,) * state.player_count,
        )
        return state.replace(phase=Phase.MATCH_OVER, current_player=None, to_act=(), result=result)

    # -- automatic play and information ------------------------------------------------------

    def auto_action(self, state: GameState) -> Action:
        """Draw from the stock; meld a card owed from the discard pile; discard the highest card.

        >>> state = new_game("turkish500", players=2, seed=4)
        >>> state.auto_action()
        DrawStock(player=0)
        >>> state.apply(state.auto_action()).auto_action()
        Discard(player=0, card=Card.parse('*'))
        """
        player = state.current_player
        assert player is not None
        actions = self.legal_actions(state, player)
        if state.phase is Phase.DRAW:
            if state.stock:
                return DrawStock(player=player)
            return actions[0]
        detail: TurkishDetail = state.detail
        owed = detail.must_meld
        if owed is not None:
            return next(action for action in actions if _melds_card(action, owed))
        values = self.card_points.values
        discards = [action for action in actions if isinstance(action, Discard)]
        return max(discards, key=lambda action: (values[action.card.index], action.card.index))

    def public_info(self, state: GameState, player: int) -> tuple[tuple[str, object], ...]:
        """What everyone knows about the deal so far.

        ``must_meld`` is the card taken from the discard pile that must still be melded this
        turn; ``cards_to_keep`` how many cards the player to move must keep in hand when laying
        down or off (rules 3.5 and 3.7); then each player's melded and laid-off points.

        >>> state = new_game("turkish500", players=2, seed=4)
        >>> for name, value in state.variant.public_info(state, 0):
        ...     print(name, value)
        must_meld None
        cards_to_keep 0
        melded_points (0, 0)
        laid_off_points (0, 0)
        """
        detail: TurkishDetail = state.detail
        return (
            ("must_meld", detail.must_meld),
            ("cards_to_keep", self._cards_to_keep(state)),
            ("melded_points", detail.melded_points),
            ("laid_off_points", detail.laid_off_points),
        )

    def greedy_action(self, observation: Observation) -> Action | None:  # noqa: PLR0911
        """Draw (or take discards that meld at once), lay down, lay off, discard the worst card.

        Lays down the melds of its best arrangement, lays off whatever still fits, and
        discards the card whose loss costs least, so it goes out as soon as the rules allow.

        >>> from rummylib.bots import GreedyBot
        >>> state = new_game("turkish500", players=2, seed=1).apply(DrawStock(player=0))
        >>> print(GreedyBot().choose(state.observation(0)).melds[0])
        Ac Ah As
        """
        actions = observation.legal_actions
        if not actions:
            return None
        rules, points = self.meld_rules, self.card_points
        hand = observation.hand
        if observation.phase is Phase.DRAW:
            return self._greedy_draw(observation, actions)
        if observation.phase is not Phase.PLAY:
            return None
        owed = dict(observation.public).get("must_meld")
        if isinstance(owed, Card):
            paying = [action for action in actions if _melds_card(action, owed)]
            return max(paying, key=lambda action: _meld_action_points(action, points))
        best = arrange(hand, rules, points)
        wanted = [Counter(meld.cards) for meld in best.melds]
        lay_downs = [
            action
            for action in actions
            if isinstance(action, LayDown) and Counter(action.melds[0].cards) in wanted
        ]
        if lay_downs:
            return max(lay_downs, key=lambda action: _meld_action_points(action, points))
        deadwood = Counter(best.deadwood)
        for action in actions:
            if isinstance(action, LayOff) and deadwood[action.card]:
                return action
        allowed = {action.card: action for action in actions if isinstance(action, Discard)}
        if not allowed:
            return actions[0]
        choice = arrange(hand, rules, points, discard=True, can_discard=allowed.__contains__)
        assert choice.discard is not None
        return allowed[choice.discard]

    def _greedy_draw(self, observation: Observation, actions: Sequence[Action]) -> Action:
        """Take from the discard pile when the hand, after this turn's discard, is worth more."""
        takes = [
            action for action in actions if isinstance(action, TakeDiscard) and action.count <= 8
        ]
        draw = next((action for action in actions if isinstance(action, DrawStock)), None)
        if not takes:
            return draw if draw is not None else actions[0]
        now = self._hand_value(observation.hand, discard=False)
        gains = []
        for action in takes:
            taken = observation.discard_pile[-action.count :]
            after = self._hand_value((*observation.hand, *taken), discard=True)
            gains.append((after - now, action))
        gain, action = max(gains, key=lambda item: item[0])
        if gain > 0 or draw is None:
            return action
        return draw

    def _hand_value(self, hand: Sequence[Card], *, discard: bool) -> int:
        """Points the best arrangement melds minus its deadwood (after a discard, if asked)."""
        best = arrange(hand, self.meld_rules, self.card_points, discard=discard)
        melded = sum(meld.points(self.card_points) for meld in best.melds)
        return melded - best.deadwood_points

    def match_statistics(self, state: GameState) -> tuple[tuple[str, int], ...]:
        """Deals ended by a player going out, and those gone out with the dealt hand (3.12).

        The other deals ended with the stock or the go-around limit.

        >>> state = new_game("turkish500", players=2, seed=1)
        >>> state.variant.match_statistics(state)
        (('went out', 0), ('went out with the dealt hand', 0))
        """
        went_out = dealt_hand = 0
        for record in state.deal_results:
            if record.ended_by.endswith(" went out with the dealt hand"):
                dealt_hand += 1
                went_out += 1
            elif record.ended_by.endswith(" went out"):
                went_out += 1
        return (("went out", went_out), ("went out with the dealt hand", dealt_hand))


def _positions(card: Card) -> tuple[int, ...]:
    """Where a natural card can stand in a run: 1 (low ace) … 13 (king), 14 (high ace)."""
    rank = int(card.rank or 0)
    return (1, 14) if rank == 1 else (rank,)


def _triples_with(hand: Sequence[Card], card: Card) -> list[list[Card]]:
    """Three-card candidate melds holding ``card`` drawn from ``hand`` (which holds it).

    Under the rules of section 3 every meld holding a card has a three-card part that holds it
    (a 3-card window of a run, 3 cards of a group), so ``card`` can be melded from ``hand``
    exactly when one of these candidates is a meld.
    """
    others = Counter(remove_cards(hand, (card,)))
    jokers = others.pop(JOKER, 0)
    naturals = _by_index(set(others))
    triples: list[list[Card]] = []
    if card.is_joker:
        if jokers and naturals:
            triples.append([card, JOKER, naturals[0]])
        for offset, first in enumerate(naturals):
            for second in naturals[offset + 1 :]:
                close = first.suit == second.suit and any(
                    abs(a - b) in {1, 2} for a in _positions(first) for b in _positions(second)
                )
                if close or (first.rank == second.rank and first.suit != second.suit):
                    triples.append([card, first, second])
        return triples
    present = set(naturals)
    alike = [other for other in naturals if other.rank == card.rank and other.suit != card.suit]
    if len(alike[:2]) + jokers >= 2:
        triples.append([card, *alike[:2], *[JOKER] * (2 - len(alike[:2]))])
    for position in _positions(card):
        for start in range(max(1, position - 2), min(position, 12) + 1):
            triple = [card]
            for other in range(start, start + 3):
                if other != position:
                    wanted = Card(rank_at(other), card.suit)
                    triple.append(wanted if wanted in present else JOKER)
            if triple.count(JOKER) <= jokers:
                triples.append(triple)
    return triples


def _melds_card(action: Action, card: Card) -> bool:
    if isinstance(action, LayDown):
        return any(card in meld.cards for meld in action.melds)
    return isinstance(action, LayOff) and action.card == card


def _meld_action_points(action: Action, points: CardPoints) -> int:
    if isinstance(action, LayDown):
        return sum(meld.points(points) for meld in action.melds)
    if isinstance(action, LayOff):
        return points.of(action.card)
    return 0  # pragma: no cover


@attrs.frozen(kw_only=True)
class Turkish300(Turkish500):
    """Turkish 500 rummy played to 300 (3.14).

    >>> get_variant("turkish300").target_score
    300
    """

    name: ClassVar[str] = "turkish300"
    title: ClassVar[str] = "Turkish 300 rummy"
    aliases: ClassVar[tuple[str, ...]] = ("300_remi",)
    target_score: int = attrs.field(default=300, validator=whole(1, maximum=MAX_POINTS))


@attrs.frozen(kw_only=True)
class Turkish500Cutthroat(Turkish500):
    """Cutthroat Turkish 500: no pool, and only the deal's winner scores (3.14).

    >>> variant = get_variant("turkish500_cutthroat")
    >>> variant.deal_pool, variant.scoring
    (0, <Scoring.WINNER_ONLY: 'winner_only'>)
    """

    name: ClassVar[str] = "turkish500_cutthroat"
    title: ClassVar[str] = "Turkish 500 rummy, cutthroat"
    aliases: ClassVar[tuple[str, ...]] = ("500_acimasiz", "turkish_cutthroat")
    deal_pool: int = attrs.field(default=0, validator=whole(0, maximum=MAX_POINTS))
    scoring: Scoring = attrs.field(default=Scoring.WINNER_ONLY, converter=_to_scoring)


@attrs.frozen(kw_only=True)
class Rummy500(Turkish500):
    """Classic 500 Rum for 2–8 players (3.14).

    54 cards for up to four players and 108 for more; 13 cards each with two players, 7 with
    more; one card turned up to start the discard pile; a player may take any discard with
    every card above it, the deepest card taken being melded that same turn; no pool, no deal
    limit, anyone may go out in the first go-around.

    >>> from rummylib.actions import TakeDiscard
    >>> state = new_game("rummy500", players=3, seed=2)
    >>> len(state.hands[0]), len(state.discard_pile), len(state.stock), state.pot
    (7, 1, 32, 0)
    """

    name: ClassVar[str] = "rummy500"
    title: ClassVar[str] = "500 Rum"
    aliases: ClassVar[tuple[str, ...]] = ("500_rum", "rum500", "500rummy")
    max_players: ClassVar[int] = 8

    decks: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_DECKS, optional=True)
    )
    jokers: int | None = attrs.field(
        default=None, validator=whole(0, maximum=MAX_JOKERS, optional=True)
    )
    hand_size: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_HAND_SIZE, optional=True)
    )
    draw_from_discard: bool = attrs.field(default=True, validator=flag)
    start_discard_pile: bool = attrs.field(default=True, validator=flag)
    first_go_around_go_out: FirstGoAroundGoOut = attrs.field(
        default=FirstGoAroundGoOut.ANYONE, converter=_to_first_go_around_go_out
    )
    deal_pool: int = attrs.field(default=0, validator=whole(0, maximum=MAX_POINTS))
    max_deals: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_COUNT, optional=True)
    )
