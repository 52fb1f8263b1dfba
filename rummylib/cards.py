"""Cards, the joker, card notation and decks.

A card is a value: two copies of the same card (from two packs) compare equal, so a hand is a
multiset. Cards are written as rank then suit, ``"7h"``, ``"Th"`` (ten), ``"Ac"``; the joker is
``"*"``.

>>> from rummylib import parse_cards, format_cards, sort_by_suit
>>> hand = parse_cards("Ks 7h, 10h 8h * 7c")
>>> format_cards(sort_by_suit(hand))
'7c 7h 8h Th Ks *'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import Any, Final

import attrs

from rummylib import _svg
from rummylib._settings import MAX_DECKS, MAX_JOKERS
from rummylib.errors import ConfigurationError, NotationError, shorten

__all__ = [
    "JOKER",
    "Card",
    "Rank",
    "Suit",
    "format_cards",
    "make_deck",
    "parse_card",
    "parse_cards",
    "sort_by_rank",
    "sort_by_suit",
]


class Suit(enum.Enum):
    """The four suits, in their canonical order (clubs, diamonds, hearts, spades).

    >>> Suit("h")
    <Suit.HEARTS: 'h'>
    """

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        """The suit as a unicode symbol.

        >>> Suit.SPADES.symbol
        '♠'
        """
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS: Final = {
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.SPADES: "♠",
}
_SUIT_ORDER: Final = {suit: number for number, suit in enumerate(Suit)}


class Rank(enum.IntEnum):
    """The thirteen ranks; the ace is 1 (whether it also ranks high is a meld rule).

    >>> Rank.QUEEN, int(Rank.ACE)
    (<Rank.QUEEN: 12>, 1)
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The rank as written in card notation (``A 2 … 9 T J Q K``).

        >>> Rank.TEN.letter
        'T'
        """
        return _RANK_LETTERS[self - 1]


_RANK_LETTERS: Final = "A23456789TJQK"

#: The number of distinct natural cards; :attr:`Card.index` of the joker.
JOKER_INDEX: Final = 52


def _check_rank(card: Card, attribute: attrs.Attribute[Rank | None], value: object) -> None:
    if value is not None and not isinstance(value, Rank):
        msg = f"bad card rank {shorten(value)}: use a Rank (1 = ace … 13 = king)"
        raise NotationError(msg)


def _check_suit(card: Card, attribute: attrs.Attribute[Suit | None], value: object) -> None:
    if value is not None and not isinstance(value, Suit):
        msg = f"bad card suit {shorten(value)}: use a Suit"
        raise NotationError(msg)


def _to_rank(value: Rank | int | None) -> Rank | None:
    if value is None or isinstance(value, Rank):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 13:
        return Rank(value)
    msg = f"bad card rank {shorten(value)}: ranks are 1 (ace) to 13 (king)"
    raise NotationError(msg)


def _to_suit(value: Suit | str | None) -> Suit | None:
    if value is None or isinstance(value, Suit):
        return value
    if isinstance(value, str) and value.lower() in _SUIT_BY_TEXT:
        return _SUIT_BY_TEXT[value.lower()]
    msg = f"bad card suit {shorten(value)}: suits are c, d, h, s"
    raise NotationError(msg)


@attrs.frozen(eq=False, repr=False)
class Card:
    """A playing card: a rank and a suit, or neither for the joker.

    Cards are values: two copies of a card compare equal and hash alike. There is deliberately
    no ordering, because where the ace ranks depends on the variant; use :func:`sort_by_rank`
    or :func:`sort_by_suit`, or :attr:`index` for a canonical order.

    >>> Card(Rank.SEVEN, Suit.HEARTS) == parse_card("7h")
    True
    >>> Card(7, "h").is_joker, JOKER.is_joker
    (False, True)
    >>> Card(Rank.SEVEN, None)
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad card: a card has both a rank and a suit, or neither (joker)
    """

    rank: Rank | None = attrs.field(converter=_to_rank, validator=_check_rank)
    suit: Suit | None = attrs.field(converter=_to_suit, validator=_check_suit)
    #: Canonical number of the card, ``13 * suit + rank - 1`` (0 = Ac … 51 = Ks); 52 = joker.
    index: int = attrs.field(init=False, eq=False, repr=False, hash=False)
    #: ``1 << index``: the card as a bit, for hands kept as bit masks.
    bit: int = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            msg = "bad card: a card has both a rank and a suit, or neither (joker)"
            raise NotationError(msg)
        if self.rank is None or self.suit is None:
            index = JOKER_INDEX
        else:
            index = 13 * _SUIT_ORDER[self.suit] + self.rank - 1
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)

    def __new__(cls, rank: Rank | int | None = None, suit: Suit | str | None = None) -> Card:
        """The one object of the card: equality of cards is identity, checked in C.

        The rules' hot paths (``card in hand``, :func:`~rummylib.engine.remove_cards`) lean
        on it. A bad card gets an object of its own, so that ``__init__`` raises its error.

        >>> Card(7, "h") is parse_card("7h")
        True
        """
        if _CANONICAL:
            try:
                rank, suit = _to_rank(rank), _to_suit(suit)
            except NotationError:
                return object.__new__(cls)
            if rank is None and suit is None:
                return _CANONICAL[JOKER_INDEX]
            if rank is not None and suit is not None:
                return _CANONICAL[13 * _SUIT_ORDER[suit] + rank - 1]
        return object.__new__(cls)

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Pickle, copy and deepcopy give back the one object of the card.
        return (_card_at, (self.index,))

    @property
    def is_joker(self) -> bool:
        """Whether this card is the joker.

        >>> parse_card("*").is_joker
        True
        """
        return self.index == JOKER_INDEX

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with the given :attr:`index` (0 = Ac … 51 = Ks, 52 = joker).

        >>> Card.from_index(0), Card.from_index(52)
        (Card.parse('Ac'), Card.parse('*'))
        """
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= JOKER_INDEX:
            msg = f"bad card index {shorten(index)}: indexes are 0 to 52"
            raise NotationError(msg)
        return CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card; the same as :func:`parse_card`.

        >>> Card.parse("qs")
        Card.parse('Qs')
        """
        return parse_card(text)

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "*"
        return self.rank.letter + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # Pretty printers (IPython, Hypothesis's failure reports) would list the fields.
        printer.text(repr(self))

    def _repr_svg_(self) -> str:  # a notebook shows the card as a picture (rummylib.svg)
        return _svg.card(str(self))


def _make_cards() -> tuple[Card, ...]:
    naturals = [Card(rank, suit) for suit in Suit for rank in Rank]
    return (*naturals, Card(None, None))


#: The one object of each card, once they are made (see Card.__new__).
_CANONICAL: tuple[Card, ...] = ()

#: Every distinct card, indexed by :attr:`Card.index`.
CARDS: Final = _make_cards()
_CANONICAL = CARDS


def _card_at(index: int) -> Card:
    return CARDS[index]


#: The joker.
JOKER: Final = CARDS[JOKER_INDEX]

_SUIT_BY_TEXT: Final = {
    **{suit.value: suit for suit in Suit},
    **{symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()},
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
_RANK_BY_TEXT: Final = {
    **{letter.lower(): Rank(number) for number, letter in enumerate(_RANK_LETTERS, 1)},
    "10": Rank.TEN,
}
_JOKER_WORDS: Final = frozenset({"*", "jk", "joker"})
_SEPARATORS: Final = re.compile(r"[\s,]+")


def _read_card(token: str) -> Card:
    """Read one token already stripped of separators."""
    folded = token.lower()
    if folded in _JOKER_WORDS:
        return JOKER
    if len(folded) < 2:
        msg = f"bad card {token!r}: expected a rank and a suit, like '7h', or '*' for a joker"
        raise NotationError(msg)
    rank_text, suit_text = folded[:-1], folded[-1]
    rank = _RANK_BY_TEXT.get(rank_text)
    if rank is None:
        msg = f"bad card {shorten(token)}: unknown rank {shorten(token[:-1])}"
        raise NotationError(msg)
    suit = _SUIT_BY_TEXT.get(suit_text)
    if suit is None:
        msg = f"bad card {shorten(token)}: unknown suit {shorten(token[-1])}"
        raise NotationError(msg)
    return CARDS[13 * _SUIT_ORDER[suit] + rank - 1]


def parse_card(text: str) -> Card:
    """Read one card: rank (``A 2…9 T 10 J Q K``) then suit (``c d h s`` or ``♣♦♥♠``).

    Any case is accepted. The joker is ``*``, ``jk`` or ``joker``.

    >>> parse_card("10♥"), parse_card("joker")
    (Card.parse('Th'), Card.parse('*'))
    >>> parse_card("11h")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad card '11h': unknown rank '11'

    Raises:
        NotationError: the text is not exactly one card.
    """
    if not isinstance(text, str):
        msg = f"bad card {shorten(text)}: expected text such as '7h'"
        raise NotationError(msg)
    token = text.strip()
    if not token or _SEPARATORS.search(token):
        msg = f"bad card {shorten(text)}: expected exactly one card"
        raise NotationError(msg)
    return _read_card(token)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces and/or commas, in the order written.

    >>> format_cards(parse_cards("Ah, 2h 3♥ JOKER"))
    'Ah 2h 3h *'
    >>> parse_cards("")
    ()
    >>> parse_cards("Ah 2h 3x")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad card '3x': unknown suit 'x'

    Raises:
        NotationError: a token is not a card; the message names it.
    """
    if not isinstance(text, str):
        msg = f"bad cards {shorten(text)}: expected text such as '7h 8h 9h'"
        raise NotationError(msg)
    return tuple(parse_card(token) for token in _SEPARATORS.split(text.strip()) if token)


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards in canonical notation, separated by single spaces.

    The inverse of :func:`parse_cards`.

    >>> format_cards([JOKER, Card(Rank.TEN, Suit.CLUBS)])
    '* Tc'
    """
    return " ".join(str(card) for card in cards)


def make_deck(decks: int = 1, jokers: int = 0) -> tuple[Card, ...]:
    """A new, unshuffled deck of ``decks`` packs and ``jokers`` jokers.

    Canonical order: for each pack, clubs, diamonds, hearts, spades, each from ace to king;
    then the jokers.

    >>> deck = make_deck(decks=2, jokers=4)
    >>> len(deck), format_cards(deck[:3]), format_cards(deck[-5:])
    (108, 'Ac 2c 3c', 'Ks * * * *')
    >>> make_deck(decks=0)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: decks must be a whole number of at least 1, not 0
    >>> make_deck(decks=10**9)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: decks must be at most 4, not 1000000000

    Raises:
        ConfigurationError: ``decks`` is not from 1 to 4 or ``jokers`` not from 0 to 32 (the
            bounds of every variant's deck, review point R9 of the rules pages).
    """
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        msg = f"decks must be a whole number of at least 1, not {shorten(decks)}"
        raise ConfigurationError(msg)
    if isinstance(jokers, bool) or not isinstance(jokers, int) or jokers < 0:
        msg = f"jokers must be a whole number of at least 0, not {shorten(jokers)}"
        raise ConfigurationError(msg)
    for name, value, most in (("decks", decks, MAX_DECKS), ("jokers", jokers, MAX_JOKERS)):
        if value > most:
            msg = f"{name} must be at most {most}, not {shorten(value)}"
            raise ConfigurationError(msg)
    return CARDS[:JOKER_INDEX] * decks + (JOKER,) * jokers


def _rank_key(card: Card) -> tuple[int, int]:
    if card.rank is None or card.suit is None:
        return (99, 99)
    return (card.rank, _SUIT_ORDER[card.suit])


def sort_by_rank(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Sort for groups ("777"): by rank (ace low), then suit; jokers last.

    >>> format_cards(sort_by_rank(parse_cards("7h * 2c 7c Ks")))
    '2c 7c 7h Ks *'
    """
    return tuple(sorted(cards, key=_rank_key))


def sort_by_suit(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Sort for runs ("789"): by suit, then rank (ace low); jokers last.

    >>> format_cards(sort_by_suit(parse_cards("7h * 2c 8h Ks")))
    '2c 7h 8h Ks *'
    """
    return tuple(sorted(cards, key=lambda card: card.index))
