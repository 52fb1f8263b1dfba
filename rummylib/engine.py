"""The engine's variant seam: the :class:`Variant` base class and the mechanics variants share.

A :class:`Variant` is one frozen class: class-level data says what the game *is* (name, player
range, deck and deal size by player count); instance fields are a table's settings; its hook
methods carry the turn rules, which the state machine (:mod:`rummylib.state`) calls. Dealing,
shuffling, seat order and taking cards out of a hand are written once here.

This module used to be ``rummylib.variants.base``, which still re-exports it.

>>> from rummylib.variants import get_variant
>>> variant = get_variant("rummy101")
>>> variant.min_players, variant.max_players, len(variant.deck_for(4))
(2, 6, 108)
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar

import attrs

from rummylib.actions import Action
from rummylib.cards import Card, format_cards
from rummylib.errors import ConfigurationError, IllegalActionError, shorten
from rummylib.melds import MeldRules
from rummylib.scoring import CardPoints

if TYPE_CHECKING:
    from rummylib.state import GameState
    from rummylib.views import Observation

__all__ = [
    "Phase",
    "TurnClock",
    "Variant",
    "deal_cards",
    "next_player",
    "remove_cards",
    "shuffled",
]


class Phase(enum.Enum):
    """What the game is waiting for.

    >>> Phase("draw")
    <Phase.DRAW: 'draw'>
    """

    #: The current player must take a card.
    DRAW = "draw"
    #: The current player has taken a card and now melds, discards or declares.
    PLAY = "play"
    #: Every other player answers a Frish proposal (Israeli).
    FRISH_VOTE = "frish_vote"
    #: After a declaration, the other players show their melds or give up (Israeli).
    SHOW_MELDS = "show_melds"
    #: Eliminated players decide whether to buy back in (Israeli).
    REBUY = "rebuy"
    #: The stock ran out, and each player gets one last meld turn without drawing (Carousel).
    FINAL_TURN = "final_turn"
    #: The current player may knock now or pass (Carousel).
    KNOCK_CHOICE = "knock_choice"
    #: The match is over; :attr:`~rummylib.state.GameState.result` says how it ended.
    MATCH_OVER = "match_over"


@attrs.frozen(kw_only=True)
class TurnClock:
    """How long the players who must act now have; the host keeps the time.

    Returned by :meth:`GameState.turn_clock <rummylib.state.GameState.turn_clock>`. The host
    starts a timer when :attr:`number` changes and reports a
    :class:`~rummylib.actions.TimeExpired` for a player once ``seconds + grace_seconds`` have
    passed without their move.

    Attributes:
        players: whose clock runs (every player who must still act).
        seconds: the time allowed.
        grace_seconds: the extra time once ``seconds`` have run out (0: none).
        number: identifies this clock within the match; a new number means a new clock.

    >>> clock = TurnClock(players=(0,), seconds=60, grace_seconds=60, number=1)
    >>> clock.total_seconds
    120
    """

    players: tuple[int, ...]
    seconds: int
    grace_seconds: int = 0
    number: int = 0

    @property
    def total_seconds(self) -> int:
        """The time allowed, grace included."""
        return self.seconds + self.grace_seconds


@attrs.frozen(kw_only=True)
class Variant:
    """A rummy game: what it is (class data), a table's settings (fields), its rules (hooks).

    Subclasses set the class-level data, declare their settings as attrs fields with defaults
    and validators, and override the hooks. The engine never names a variant.
    """

    #: Registered name, e.g. ``"rummy101"``.
    name: ClassVar[str] = ""
    #: Human title for docs and the CLI.
    title: ClassVar[str] = ""
    #: Other names :func:`~rummylib.registry.get_variant` accepts.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Fewest players.
    min_players: ClassVar[int] = 2
    #: Most players.
    max_players: ClassVar[int] = 6

    # -- what the game is -------------------------------------------------------------------

    @property
    def meld_rules(self) -> MeldRules:
        """What counts as a meld at this table."""
        raise NotImplementedError

    @property
    def card_points(self) -> CardPoints:
        """What each card is worth at this table."""
        raise NotImplementedError

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """The deck, in canonical order, for ``players`` players."""
        raise NotImplementedError

    def hand_size_for(self, players: int) -> int:
        """How many cards each player is dealt."""
        raise NotImplementedError

    def settings(self) -> dict[str, object]:
        """The table's settings by name, enums as their string values.

        >>> from rummylib.variants import get_variant
        >>> get_variant("rummy71").settings()["elimination_threshold"]
        71
        """
        values: dict[str, object] = {}
        for field in attrs.fields(type(self)):
            if not field.init:
                continue
            value = getattr(self, field.name)
            values[field.name] = value.value if isinstance(value, enum.Enum) else value
        return values

    def check_players(self, players: object) -> int:
        """Return ``players`` if this variant can be played by that many, else raise."""
        if isinstance(players, bool) or not isinstance(players, int):
            msg = f"players must be a whole number, not {shorten(players)}"
            raise ConfigurationError(msg)
        if not self.min_players <= players <= self.max_players:
            msg = (
                f"{self.name} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
            raise ConfigurationError(msg)
        return players

    # -- hooks the engine calls -------------------------------------------------------------

    def start(self, state: GameState) -> GameState:
        """Set up the match on a fresh state (stakes, the first deal)."""
        raise NotImplementedError

    def legal_actions(self, state: GameState, player: int) -> tuple[Action, ...]:
        """The legal actions of ``player``, in canonical order."""
        raise NotImplementedError

    def verify(self, state: GameState, action: Action) -> None:
        """Raise :class:`~rummylib.errors.IllegalActionError` unless ``action`` is legal."""
        raise NotImplementedError

    def apply(self, state: GameState, action: Action) -> GameState:
        """The state after a verified ``action`` (history not yet appended)."""
        raise NotImplementedError

    def auto_action(self, state: GameState) -> Action:
        """The move the engine makes for a player who cannot act."""
        raise NotImplementedError

    def turn_clock(self, state: GameState) -> TurnClock | None:
        """The clock of the players who must act now; ``None`` (the default): no clock."""
        return None

    def public_info(self, state: GameState, player: int) -> tuple[tuple[str, object], ...]:
        """Variant-specific facts ``player`` may see, as (name, value) pairs."""
        return ()

    def greedy_action(self, observation: Observation) -> Action | None:
        """The variant's own greedy move for :class:`~rummylib.bots.GreedyBot`.

        ``None`` (the default) leaves the choice to the bot's generic logic.
        """
        return None

    def may_ever_discard(self, card: Card) -> bool:
        """Whether ``card`` can ever be a discard at this table (``True``, the default).

        For bots weighing a card they might take: a card the rules never let go of (an
        Israeli joker) is planned around, not thrown.
        """
        return True

    def match_statistics(self, state: GameState) -> tuple[tuple[str, int], ...]:
        """The variant's own counts for a match so far, as (name, count) pairs.

        :func:`rummylib.simulate.simulate` records them for every match and sums them in its
        summary (rebuys and Frish votes in Rummy 71/101, knocks in Carousel, ...). The names
        are short lowercase phrases, the same for every match of the variant, in a fixed
        order; a finished or an unfinished match (``state`` need not be over). The default:
        none.

        >>> from rummylib import new_game
        >>> Variant().match_statistics(new_game("rummy101", players=2, seed=1))
        ()
        """
        return ()


def shuffled(cards: Sequence[Card], seed: int, counter: int) -> tuple[Card, ...]:
    """The cards shuffled by the match's ``counter``-th shuffle.

    Every shuffle is derived from the match seed and its counter with a private
    :class:`random.Random`, so a seed replays the whole match and nothing global is touched.

    >>> deck = make_deck()
    >>> shuffled(deck, 7, 0) == shuffled(deck, 7, 0) != shuffled(deck, 7, 1)
    True
    """
    order = list(cards)
    random.Random(f"rummylib:{seed}:{counter}").shuffle(order)
    return tuple(order)


def deal_cards(
    deck: Sequence[Card], seats: Sequence[int], hand_size: int, player_count: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal ``hand_size`` cards to each seat, one at a time round-robin from the front.

    Returns the hands (an empty hand for seats not dealt in) and the rest of the deck.

    >>> hands, rest = deal_cards(make_deck()[:7], (0, 1), 3, 3)
    >>> [format_cards(hand) for hand in hands], format_cards(rest)
    (['Ac 3c 5c', '2c 4c 6c', ''], '7c')
    """
    needed = hand_size * len(seats)
    if needed > len(deck):
        msg = f"cannot deal {hand_size} cards to {len(seats)} players from {len(deck)} cards"
        raise ConfigurationError(msg)
    hands: list[tuple[Card, ...]] = [() for _ in range(player_count)]
    for offset, seat in enumerate(seats):
        hands[seat] = tuple(deck[offset : needed : len(seats)])
    return tuple(hands), tuple(deck[needed:])


def next_player(players_in: Sequence[int], player: int) -> int:
    """The player after ``player`` in playing order among ``players_in`` (seats in order).

    >>> next_player((0, 2, 3), 3), next_player((0, 2, 3), 0), next_player((0, 2, 3), 1)
    (0, 2, 2)
    """
    for seat in players_in:
        if seat > player:
            return seat
    return players_in[0]


def remove_cards(hand: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    """The hand without one copy of each of ``cards``; raise if any is missing.

    >>> format_cards(remove_cards(parse_cards("7h 8h 7h"), parse_cards("7h")))
    '8h 7h'
    """
    cards = tuple(cards)
    if len(cards) == 1 and cards[0] in hand:
        at = hand.index(cards[0])
        return (*hand[:at], *hand[at + 1 :])
    wanted = Counter(cards)
    missing = wanted - Counter(hand)
    if missing:
        names = format_cards(sorted(missing.elements(), key=lambda card: card.index))
        msg = f"not in hand: {names}"
        raise IllegalActionError(msg)
    kept = []
    for card in hand:
        if wanted[card]:
            wanted[card] -= 1
        else:
            kept.append(card)
    return tuple(kept)
