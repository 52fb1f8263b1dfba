"""Turkish 500 rummy and its presets (section 3 of the rules).

Thirteen cards each from two packs and two jokers, drawing from the stock only, laying down
melds and laying off on any table meld; a deal scores the cards one melded or laid off minus
those left in hand, plus a pool of 30 for going out; at most ten deals, or to 500. Presets:
:class:`Turkish300`, :class:`Turkish500Cutthroat` and :class:`Rummy500` (classic 500 Rum).

>>> from rummylib import new_game, parse_card, parse_meld
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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeAlias

import attrs

from rummylib._meldable import may_meld_card
from rummylib._settings import (
    MAX_CARD_POINTS,
    MAX_COUNT,
    MAX_DECKS,
    MAX_HAND_SIZE,
    MAX_JOKERS,
    MAX_JOKERS_PER_DECK,
    MAX_POINTS,
    Choice,
    flag,
    whole,
)
from rummylib.actions import Action, Discard, DrawStock, LayDown, LayOff, TakeDiscard
from rummylib.arrangement import Requirement, arrange
from rummylib.cards import Card, Rank, make_deck
from rummylib.engine import (
    Phase,
    PhaseBase,
    PublicInfo,
    Variant,
    added,
    added_lines,
    evolve,
    lay_off_way,
    next_player,
    player_name,
    remove_cards,
)
from rummylib.errors import ConfigurationError
from rummylib.melds import Extension, Meld, MeldRules, RunEnd, extension_cards
from rummylib.scoring import CardPoints, ScoreLine, hand_points
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
    "TurkishPublic",
]


#: A dealt hand that can go out (3.12): player, leftover value, melds, leftover card.
_Shown: TypeAlias = tuple[int, int, tuple[Meld, ...], Card | None]
#: Rule 3.12: the dealt hand is shown with every card melded but the leftover.
_ALL_MELDED = Requirement(complete=True)

#: The hand sizes a table with ``dealt_rummy_check=True`` may deal (R9, 3.12).
DEALT_CHECK_HAND_SIZES = (2, 26)


class FirstGoAroundGoOut(Choice):
    """Who may go out during the first go-around of a deal (rule 3.7)."""

    #: Only the player who plays first; the others keep at least 2 cards when they meld.
    FIRST_PLAYER_ONLY = "first_player_only"
    #: Everyone.
    ANYONE = "anyone"
    #: No player, the first included, may go out in the first go-around.
    NOBODY = "nobody"


class PoolTie(Choice):
    """What happens to the pool when nobody went out and the best deal scores tie (3.11)."""

    #: The pool stays and grows by the next deal's contribution.
    CARRY_OVER = "carry_over"
    #: The tied players share it equally; what does not divide evenly carries over.
    SPLIT = "split"


class Scoring(Choice):
    """Who scores a deal (rules 3.13 and 3.14)."""

    #: Every player scores melded and laid-off cards minus the cards left in hand.
    ALL_PLAYERS = "all_players"
    #: Only the deal's winner scores (the player who went out, else the unique best score).
    WINNER_ONLY = "winner_only"


@attrs.frozen(kw_only=True)
class TurkishPublic(PublicInfo):
    """What every player of a 500 game sees beyond the cards.

    Attributes:
        must_meld: the card taken from the discard pile this turn that must be melded before
            the turn ends (classic 500), else ``None``.
        cards_to_keep: how many cards the current player must keep in hand after laying
            down or off (3.5, 3.7).
        melded_points: per player, the points of the melds they laid down this deal.
        laid_off_points: per player, the points of the cards they laid off this deal.
        pot: the pool the deal's winner takes (3.9), with any pool carried over (3.11).
    """

    must_meld: Card | None = None
    cards_to_keep: int = 0
    melded_points: tuple[int, ...] = ()
    laid_off_points: tuple[int, ...] = ()
    pot: int = 0

    def lines(self, *, every: bool = False) -> list[str]:
        """The facts as lines; the cards to keep say why (rules 3.5 and 3.7).

        Two cards are kept only in the first go-around, by a player who may not go out in it
        (3.7); one card only where going out needs a discard (3.5).

        >>> TurkishPublic(cards_to_keep=2, pot=30).lines()
        ['cards to keep: 2 (no going out in the first go-around)', 'pot: 30']
        >>> TurkishPublic(cards_to_keep=1).lines()
        ['cards to keep: 1 (going out needs a discard)']

        The card owed from the pile says when (classic 500, rule 3.3):

        >>> TurkishPublic(must_meld=Card.parse("As")).lines()
        ['must meld this turn: As (taken from the pile)']
        """
        why = {2: "no going out in the first go-around", 1: "going out needs a discard"}
        told = f"cards to keep: {self.cards_to_keep}"
        reason = why.get(self.cards_to_keep)
        owed = "must meld: "
        lines = []
        for line in super().lines(every=every):
            if line == told and reason:
                lines.append(f"{line} ({reason})")
            elif line.startswith(owed):
                lines.append(f"must meld this turn: {line[len(owed) :]} (taken from the pile)")
            else:
                lines.append(line)
        return lines


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
        pot: the pool the deal's winner takes (3.9), with any pool carried over (3.11).
    """

    turn_index: int = 0
    must_meld: Card | None = None
    melded_points: tuple[int, ...] = ()
    melded_cards: tuple[int, ...] = ()
    laid_off_points: tuple[int, ...] = ()
    laid_off_cards: tuple[int, ...] = ()
    pot: int = 0


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


#: The meld rules of every table, one shared object: the caches of ``rummylib.melds`` then
#: find them by identity, without comparing them field by field.
_MELD_RULES: Final = MeldRules()

#: A state of a Turkish 500 match.
State: TypeAlias = "GameState[TurkishDetail]"


@attrs.frozen(kw_only=True)
class Turkish500(Variant[TurkishDetail]):
    """Turkish 500 rummy: every rule and setting of section 3 of the rules.

    The presets :class:`Turkish300`, :class:`Turkish500Cutthroat` and :class:`Rummy500`
    change only defaults. ``None`` for ``decks``, ``jokers`` or ``hand_size`` means "by player
    count" (3.14); ``start_discard_pile`` turns a card face up to start the discard pile (3.2).
    The readings chosen where the text is unclear are listed on the rules page.

    >>> variant = Turkish500()
    >>> variant.deal_pool, variant.target_score, variant.max_deals, len(variant.deck_for(6))
    (30, 500, 10, 106)
    """

    name: ClassVar[str] = "turkish500"
    encoded_facts: ClassVar[tuple[str, ...]] = ("pot",)
    title: ClassVar[str] = "Turkish 500 rummy"
    aliases: ClassVar[tuple[str, ...]] = ("turkish", "500_remi")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {
        Phase.DRAW: (DrawStock, TakeDiscard),
        Phase.PLAY: (LayDown, LayOff, Discard),
    }
    before_drawing: ClassVar[str] = "must draw a card first"
    after_drawing: ClassVar[str] = "has already drawn this turn"
    setting_rules: ClassVar[str] = (
        "3.14 decks jokers hand_size, 3.2 start_discard_pile, 3.3 draw_from_discard, 3.5 "
        "go_out_requires_discard, 3.7 first_go_around_go_out, 3.9 ace_points ace_low_run_points "
        "joker_points, 3.11 deal_pool pool_tie, 3.12 dealt_rummy_check, 3.13 max_deals "
        "target_score scoring, 3.15 max_go_arounds"
    )

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
        default=FirstGoAroundGoOut.FIRST_PLAYER_ONLY, converter=FirstGoAroundGoOut
    )
    deal_pool: int = attrs.field(default=30, validator=whole(0, maximum=MAX_POINTS))
    pool_tie: PoolTie = attrs.field(default=PoolTie.CARRY_OVER, converter=PoolTie)
    dealt_rummy_check: bool = attrs.field(default=False, validator=flag)
    max_deals: int | None = attrs.field(
        default=10, validator=whole(1, maximum=MAX_COUNT, optional=True)
    )
    target_score: int = attrs.field(default=500, validator=whole(1, maximum=MAX_POINTS))
    scoring: Scoring = attrs.field(default=Scoring.ALL_PLAYERS, converter=Scoring)
    max_go_arounds: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_COUNT, optional=True)
    )
    ace_points: int = attrs.field(default=15, validator=whole(0, maximum=MAX_CARD_POINTS))
    ace_low_run_points: int = attrs.field(default=1, validator=whole(0, maximum=MAX_CARD_POINTS))
    joker_points: int = attrs.field(default=15, validator=whole(0, maximum=MAX_CARD_POINTS))

    def check_settings(self) -> None:
        """R9: at most 8 jokers a pack; 2 to 26 cards a hand with ``dealt_rummy_check``.

        A one-card hand would always go out at once (3.12), so no deal would reach a turn;
        beyond 26 cards the check of each dealt hand costs seconds.
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
        self.check_deal(self.min_players)

    # -- what the game is ---------------------------------------------------------------------

    def make_meld_rules(self) -> MeldRules:
        """Groups of 3–4 different suits, runs with the ace high or low, no wrap (rule 3.6)."""
        return _MELD_RULES

    def make_card_points(self) -> CardPoints:
        """2–10 pip value, J Q K 10, ace 15 (1 as the low end of a run), joker 15 (rule 3.9)."""
        return CardPoints(
            ace=self.ace_points,
            face=10,
            joker=self.joker_points,
            ace_low_run=self.ace_low_run_points,
        )

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """Two packs and two jokers; 1 pack and 2 jokers (2–4 players) or 2 and 4 for ``None``."""
        many = players >= 5
        decks = self.decks if self.decks is not None else (2 if many else 1)
        jokers = self.jokers if self.jokers is not None else (4 if many else 2)
        return make_deck(decks=decks, jokers=jokers)

    def hand_size_for(self, players: int) -> int:
        """Thirteen cards; with ``hand_size=None``, 13 for two players and 7 for more."""
        if self.hand_size is not None:
            return self.hand_size
        return 13 if players == 2 else 7

    # -- the match ----------------------------------------------------------------------------

    def new_detail(self, players: int) -> TurkishDetail:
        """Nothing melded or laid off yet (the record is new at every deal; the pool is kept)."""
        zeros = (0,) * players
        return TurkishDetail(
            melded_points=zeros, melded_cards=zeros, laid_off_points=zeros, laid_off_cards=zeros
        )

    def turn_up(self, rest: tuple[Card, ...]) -> dict[str, Any]:
        """With ``start_discard_pile``, one card face up starts the discard pile (3.2)."""
        if self.start_discard_pile:
            return {"discard_pile": rest[:1], "stock": rest[1:]}
        return {"stock": rest}

    def start(self, state: State) -> State:
        """Deal the first deal (dealt by the last seat) and put its pool in."""
        return self._deal(self._add_pool(state), state.dealer, 1)

    def _add_pool(self, state: State) -> State:
        """The deal's pool is put in (3.9), beside any pool carried over (3.11)."""
        return state.replace(detail=evolve(state.detail, pot=state.detail.pot + self.deal_pool))

    def _deal(self, state: State, dealer: int, deal_number: int) -> State:
        """Shuffle and deal; apply the dealt-hand check (3.12) when the table plays it."""
        while True:
            detail = evolve(self.new_detail(state.player_count), pot=state.detail.pot)
            state = self.deal(state, dealer=dealer, deal_number=deal_number, detail=detail)
            shown = self._dealt_hands(state) if self.dealt_rummy_check else []
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
                state = self._add_pool(state)
                continue
            names = ", ".join(player_name(entry[0]) for entry in lowest)
            ended_by = (
                f"dealt hands of {names} tie with leftovers worth {best}: nobody scores, "
                f"the pool of {state.detail.pot} carries over and the deal is dealt again"
            )
            state = self.record_deal(
                state, (0,) * state.player_count, ended_by=ended_by, ending="redeal"
            )

    def _dealt_hands(self, state: State) -> list[_Shown]:
        """Who can go out with the dealt hand: (player, leftover value, melds, leftover card)."""
        rules, points = state.meld_rules, self.card_points
        found: list[_Shown] = []
        for player in state.players_in:
            hand = state.hands[player]
            if not self.go_out_requires_discard:
                whole_hand = arrange(hand, rules, points, require=_ALL_MELDED)
                if whole_hand is not None:
                    found.append((player, 0, whole_hand.melds, None))
                    continue
            if arrange(hand, rules, points, discard=True, require=_ALL_MELDED) is None:
                continue
            # The leftover worth the fewest points (then the lowest card) is the one shown.
            for card in sorted(set(hand), key=lambda card: (points.of(card), card.index)):
                rest = arrange(remove_cards(hand, (card,)), rules, points, require=_ALL_MELDED)
                if rest is not None:
                    found.append((player, points.of(card), rest.melds, card))
                    break
        return found

    def _go_out_with_dealt_hand(
        self,
        state: State,
        player: int,
        melds: tuple[Meld, ...],
        leftover: Card | None,
    ) -> State:
        state = self.apply_lay_down(state, LayDown(player=player, melds=melds), end=False)
        if leftover is not None:
            hands = list(state.hands)
            hands[player] = ()
            state = state.replace(hands=tuple(hands), discard_pile=(*state.discard_pile, leftover))
        ended_by = f"{player_name(player)} went out with the dealt hand"
        return self._score_deal(
            state.replace(phase=Phase.PLAY),
            went_out=player,
            ended_by=ended_by,
            ending="went_out_dealt_hand",
        )

    # -- legality -----------------------------------------------------------------------------

    def _in_first_go_around(self, state: State) -> bool:
        return state.detail.turn_index < len(state.players_in)

    def _cards_to_keep(self, state: State) -> int:
        """How many cards the current player must keep in hand after laying down or off."""
        window = self.first_go_around_go_out
        if self._in_first_go_around(state) and (
            window is FirstGoAroundGoOut.NOBODY
            or (window is FirstGoAroundGoOut.FIRST_PLAYER_ONLY and state.detail.turn_index != 0)
        ):
            return 2
        return 1 if self.go_out_requires_discard else 0

    def _keep_refusal(self, state: State, player: int, left: int) -> str | None:
        keep = self._cards_to_keep(state)
        if left >= keep:
            return None
        if keep == 2:
            if self.first_go_around_go_out is FirstGoAroundGoOut.NOBODY:
                why = "nobody may go out during the first go-around"
            else:
                why = "during the first go-around only the first player may go out"
            return f"{player_name(player)} must keep at least 2 cards in hand: {why}"
        return f"{player_name(player)} must keep a card to discard: going out requires a discard"

    def _owed_refusal(
        self,
        state: State,
        hand: Sequence[Card],
        table: Sequence[Meld],
        melded: Sequence[Card],
    ) -> str | None:
        """A meld that leaves the card owed from the discard pile with no way to meld is refused."""
        owed = state.detail.must_meld
        if owed is None or owed in melded:
            return None
        if self._can_still_meld(hand, table, owed, self._cards_to_keep(state)):
            return None
        return f"that would leave no way to meld {owed}, taken from the discard pile"

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
        rules = self.meld_rules
        if len(hand) - 1 >= keep:
            for meld in table:
                if card in extension_cards(meld, rules):  # it has a way onto the meld
                    return True
        if len(hand) - rules.min_size < keep:
            return False
        return may_meld_card(hand, card, rules)

    def phase_refusal(self, state: State, action: Action) -> str:
        """A move of no phase here is "not a move of turkish500"."""
        if any(isinstance(action, kind) for kinds in self.phase_actions.values() for kind in kinds):
            return super().phase_refusal(state, action)
        return f"{type(action).__name__} is not a move of {self.name}"

    def candidates_take_discard(self, state: State, player: int) -> Iterable[Action]:
        """The discard pile by how many cards are taken."""
        if not self.draw_from_discard:
            return ()
        return [TakeDiscard(player=player, count=n) for n in range(1, len(state.discard_pile) + 1)]

    def refuse_take_discard(self, state: State, action: TakeDiscard) -> str | None:
        """3.3 and 3.14: the deepest card taken must be melded this turn."""
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
                f"and {player_name(action.player)} could not meld it"
            )
        return None

    def refuse_lay_down(self, state: State, action: LayDown) -> str | None:
        """3.4–3.7: legal melds of the hand, keeping what the turn must keep."""
        refusal = super().refuse_lay_down(state, action)
        if refusal is not None:
            return refusal
        laid = [card for meld in action.melds for card in meld.cards]
        hand = state.hands[action.player]
        # The hand holds every card laid (the base refusal checked), so this many are left.
        refusal = self._keep_refusal(state, action.player, len(hand) - len(laid))
        if refusal is not None or not self._owes_other(state, laid):
            return refusal
        rest = remove_cards(hand, laid)
        return self._owed_refusal(state, rest, (*state.table, *action.melds), laid)

    def refuse_lay_off(self, state: State, action: LayOff) -> str | None:
        """3.6: a card that extends a table meld, keeping what the turn must keep."""
        refusal = super().refuse_lay_off(state, action)
        if refusal is not None:
            return refusal
        hand = state.hands[action.player]
        refusal = self._keep_refusal(state, action.player, len(hand) - 1)
        if refusal is not None or not self._owes_other(state, (action.card,)):
            return refusal
        rest = remove_cards(hand, (action.card,))
        table = list(state.table)
        way = lay_off_way(table[action.meld_index], action, state.meld_rules)
        assert not isinstance(way, str)  # the base refusal found it
        table[action.meld_index] = way.meld
        return self._owed_refusal(state, rest, table, (action.card,))

    def _owes_other(self, state: State, melded: Sequence[Card]) -> bool:
        """Whether a card taken from the pile is still owed once ``melded`` are melded.

        Only then can :meth:`_owed_refusal` refuse.
        """
        owed = state.detail.must_meld
        return owed is not None and owed not in melded

    def refuse_discard(self, state: State, action: Discard) -> str | None:
        """3.5: a card of the hand, once a card taken from the pile is melded."""
        refusal = super().refuse_discard(state, action)
        owed = state.detail.must_meld
        if refusal is None and owed is not None:
            return f"cannot discard yet: {owed}, taken from the discard pile, must be melded first"
        return refusal

    # -- applying -----------------------------------------------------------------------------

    def apply_take_discard(self, state: State, action: TakeDiscard) -> State:
        """The deepest card taken is owed: it must be melded this turn."""
        owed = state.discard_pile[-action.count]
        state = super().apply_take_discard(state, action)
        return state.replace(detail=evolve(state.detail, must_meld=owed))

    def apply_lay_down(self, state: State, action: LayDown, *, end: bool = True) -> State:
        """The melds score for the player (3.10); a player left with no cards goes out."""
        laid = [card for meld in action.melds for card in meld.cards]
        detail = state.detail
        player = action.player
        earned = sum(meld.points(self.card_points) for meld in action.melds)
        state = (
            super()
            .apply_lay_down(state, action)
            .replace(
                detail=evolve(
                    detail,
                    must_meld=None if detail.must_meld in laid else detail.must_meld,
                    melded_points=added(detail.melded_points, player, earned),
                    melded_cards=added(detail.melded_cards, player, len(laid)),
                )
            )
        )
        return self._after_meld(state, player) if end else state

    def apply_lay_off(self, state: State, action: LayOff) -> State:
        """The card scores at its place for the player (R1); an empty hand goes out."""
        way = lay_off_way(state.table[action.meld_index], action, state.meld_rules)
        assert not isinstance(way, str)  # verified
        detail = state.detail
        player = action.player
        state = (
            super()
            .apply_lay_off(state, action)
            .replace(
                detail=evolve(
                    detail,
                    must_meld=None if detail.must_meld == action.card else detail.must_meld,
                    laid_off_points=added(
                        detail.laid_off_points, player, self._lay_off_credit(action.card, way)
                    ),
                    laid_off_cards=added(detail.laid_off_cards, player, 1),
                )
            )
        )
        return self._after_meld(state, player)

    def _after_meld(self, state: State, player: int) -> State:
        if state.hands[player]:
            return state
        return self._end_deal(
            state, went_out=player, ended_by=f"{player_name(player)} went out", ending="went_out"
        )

    def end_turn(self, state: State, player: int, **changes: Any) -> State:
        """After a discard: out, the go-around limit (3.8), the next turn, the stock (3.8).

        ``changes``: the discard's hands and pile, made with the next turn's fields.
        """
        if not changes.get("hands", state.hands)[player]:
            return self._end_deal(
                state.replace(**changes),
                went_out=player,
                ended_by=f"{player_name(player)} went out",
                ending="went_out",
            )
        turn_index = state.detail.turn_index + 1
        limit = self.max_go_arounds
        if limit is not None and turn_index >= limit * len(state.players_in):
            rounds = "go-around" if limit == 1 else "go-arounds"
            return self._end_deal(
                state.replace(**changes),
                went_out=None,
                ended_by=f"{limit} {rounds} played",
                ending="round_limit",
            )
        detail = evolve(state.detail, turn_index=turn_index, must_meld=None)
        state = self.next_turn(state, player, detail=detail, **changes)
        upcoming = state.to_act[0]
        if not state.stock and not self.legal_actions(state, upcoming):
            ended_by = f"the stock ran out and {player_name(upcoming)} cannot draw"
            return self._end_deal(state, went_out=None, ended_by=ended_by, ending="stock_out")
        return state

    # -- scoring ------------------------------------------------------------------------------

    def _end_deal(self, state: State, *, went_out: int | None, ended_by: str, ending: str) -> State:
        """Score the deal, then deal the next one unless the match is over."""
        state = self._score_deal(state, went_out=went_out, ended_by=ended_by, ending=ending)
        if state.is_over:
            return state
        state = self._add_pool(state)
        return self._deal(state, self._next_dealer(state), state.deal_number + 1)

    def _next_dealer(self, state: State) -> int:
        """R6: the deal passes to the left after every deal."""
        return next_player(state.players_in, state.dealer)

    def _score_deal(
        self, state: State, *, went_out: int | None, ended_by: str, ending: str
    ) -> State:
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
            why = "no single winner" if winner is None else f"{player_name(winner)} won"
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
        pot = state.detail.pot
        if winner is not None and pot:
            how = "went out" if went_out is not None else "best score of the deal"
            lines.append(ScoreLine(player=winner, points=pot, reason=f"the pool: {how}"))
            pot = 0
        elif tied and pot and self.pool_tie is PoolTie.SPLIT:
            share = pot // len(tied)
            reason = "a share of the pool: tie for the best score"
            lines.extend(ScoreLine(player=player, points=share, reason=reason) for player in tied)
            pot -= share * len(tied)
        if tied and pot:
            ended_by += f"; the best scores tie, so the pool of {pot} carries over"
        points = added_lines((0,) * state.player_count, lines)
        state = self.record_deal(
            state,
            points,
            lines=lines,
            ended_by=ended_by,
            ending=ending,
            detail=evolve(state.detail, pot=pot),
        )
        scores = state.scores
        top = max(scores[player] for player in players_in)
        if top >= self.target_score or (
            self.max_deals is not None and state.deal_number >= self.max_deals
        ):
            # Rule 3.13: the highest total wins; an exact tie at the top is a shared win.
            return self.end_match(state, [p for p in players_in if scores[p] == top])
        return state

    def _player_lines(self, state: State, player: int) -> list[ScoreLine]:
        """Rule 3.10 for one player: melded, laid off, left in hand."""
        detail = state.detail
        hand = state.hands[player]
        parts = (
            ("melded", detail.melded_cards[player], detail.melded_points[player], ""),
            ("laid off", detail.laid_off_cards[player], detail.laid_off_points[player], ""),
            ("", len(hand), -hand_points(hand, self.card_points), " left in hand"),
        )
        return [
            ScoreLine(player=player, points=points, reason=f"{verb} {_cards(count)}{rest}".strip())
            for verb, count, points, rest in parts
            if count
        ]

    # -- automatic play and information ------------------------------------------------------

    def auto_action(self, state: GameState) -> Action:
        """Draw from the stock; meld a card owed from the discard pile; discard the highest card."""
        player = state.to_act[0]
        actions = self.legal_actions(state, player)
        owed = state.detail.must_meld
        if state.phase is Phase.DRAW:
            return DrawStock(player=player) if state.stock else actions[0]
        if owed is not None:
            return next(action for action in actions if _melds_card(action, owed))
        values = self.card_points.values
        discards = [action for action in actions if isinstance(action, Discard)]
        return max(discards, key=lambda action: (values[action.card.index], action.card.index))

    def replace_facts(self, state: State, facts: Mapping[str, Any]) -> State:
        """The pool (``pot``); a 500 table has no open card or multiplier."""
        if facts.keys() - {"pot"}:
            return super().replace_facts(state, dict.fromkeys(facts.keys() - {"pot"}))
        return state.replace(detail=evolve(state.detail, pot=facts["pot"]))

    def public_info(self, state: GameState, player: int) -> TurkishPublic:
        """The card owed from the pile, the cards to keep (3.5, 3.7), melded/laid-off points."""
        detail = state.detail
        return TurkishPublic(
            must_meld=detail.must_meld,
            cards_to_keep=self._cards_to_keep(state),
            melded_points=detail.melded_points,
            laid_off_points=detail.laid_off_points,
            pot=detail.pot,
        )

    def greedy_action(self, observation: Observation) -> Action | None:
        """Take discards that gain, meld a card owed first; the rest is GreedyBot's own play."""
        actions = observation.legal_actions
        if observation.phase is Phase.DRAW and actions:
            return self._greedy_draw(observation, actions)
        public = observation.public
        owed = public.must_meld if isinstance(public, TurkishPublic) else None
        if observation.phase is not Phase.PLAY or owed is None:
            return None
        paying = [action for action in actions if _melds_card(action, owed)]
        return max(paying, key=lambda action: _meld_action_points(action, self.card_points))

    def _greedy_draw(self, observation: Observation, actions: Sequence[Action]) -> Action:
        """Take from the discard pile when the hand, after this turn's discard, is worth more."""
        takes = [a for a in actions if isinstance(a, TakeDiscard) and a.count <= 8]
        draw = next((action for action in actions if isinstance(action, DrawStock)), None)
        if not takes:
            return draw or actions[0]
        hand, pile = observation.hand, observation.discard_pile
        now = self._hand_value(hand, discard=False)
        gains = [
            (self._hand_value((*hand, *pile[-a.count :]), discard=True) - now, a) for a in takes
        ]
        gain, best = max(gains, key=lambda item: item[0])
        return best if gain > 0 or draw is None else draw

    def _hand_value(self, hand: Sequence[Card], *, discard: bool) -> int:
        """Points the best arrangement melds minus its deadwood (after a discard, if asked)."""
        best = arrange(hand, self.meld_rules, self.card_points, discard=discard)
        melded = sum(meld.points(self.card_points) for meld in best.melds)
        return melded - best.deadwood_points

    def match_statistics(self, state: GameState) -> tuple[tuple[str, int], ...]:
        """Deals ended by going out, and those gone out with the dealt hand (3.12)."""
        went_out = dealt_hand = 0
        for record in state.deal_results:
            dealt_hand += record.ending == "went_out_dealt_hand"
            went_out += record.ending in {"went_out", "went_out_dealt_hand"}
        return (("went out", went_out), ("went out with the dealt hand", dealt_hand))


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
    """Turkish 500 rummy played to 300 (3.14)."""

    name: ClassVar[str] = "turkish300"
    title: ClassVar[str] = "Turkish 300 rummy"
    aliases: ClassVar[tuple[str, ...]] = ("300_remi",)
    target_score: int = attrs.field(default=300, validator=whole(1, maximum=MAX_POINTS))


@attrs.frozen(kw_only=True)
class Turkish500Cutthroat(Turkish500):
    """Cutthroat Turkish 500: no pool, and only the deal's winner scores (3.14)."""

    name: ClassVar[str] = "turkish500_cutthroat"
    title: ClassVar[str] = "Turkish 500 rummy, cutthroat"
    aliases: ClassVar[tuple[str, ...]] = ("500_acimasiz", "turkish_cutthroat")
    deal_pool: int = attrs.field(default=0, validator=whole(0, maximum=MAX_POINTS))
    scoring: Scoring = attrs.field(default=Scoring.WINNER_ONLY, converter=Scoring)


@attrs.frozen(kw_only=True)
class Rummy500(Turkish500):
    """Classic 500 Rum for 2–8 players (3.14).

    54 or 108 cards, 13 or 7 each, an up-card; any discard may be taken with every card above
    it; no pool, no deal limit.

    >>> Rummy500().hand_size_for(3), len(Rummy500().deck_for(4)), Rummy500().deal_pool
    (7, 54, 0)
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
        default=FirstGoAroundGoOut.ANYONE, converter=FirstGoAroundGoOut
    )
    deal_pool: int = attrs.field(default=0, validator=whole(0, maximum=MAX_POINTS))
    max_deals: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_COUNT, optional=True)
    )
