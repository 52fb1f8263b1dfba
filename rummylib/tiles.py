"""Rummikub tiles as text: ``k7 b13 o1 r10 *`` (RULES 7.1).

A tile is a colour letter and a number: ``k`` black, ``b`` blue, ``o`` orange, ``r`` red, then
1 to 13; the joker is ``*`` (``J`` reads too). Inside the library a tile is a
:class:`~rummylib.cards.Card` (number 1 is the ace, 11–13 the jack, queen and king), one suit
per colour, so the meld rules, the solvers and the engine serve Rummikub unchanged; only what
people read and write is tiles.

>>> tiles = parse_tiles("k7 b13 o1 r10 *")
>>> format_tiles(tiles)
'k7 b13 o1 r10 *'
>>> [str(card) for card in tiles]  # the cards inside
['7s', 'Kd', 'Ac', 'Th', '*']

A :class:`Notation` writes and reads a variant's cards: :data:`CARD_NOTATION` the usual
``7h``, :data:`TILE_NOTATION` tiles. Records, ``rummylib play`` and error messages of a
variant use its :attr:`Variant.notation <rummylib.engine.Variant.notation>`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from rummylib.cards import CARDS, JOKER, Card, Suit, parse_card
from rummylib.errors import NotationError, shorten
from rummylib.melds import Meld, MeldRules, parse_meld

__all__ = [
    "CARD_NOTATION",
    "COLOURS",
    "TILE_NOTATION",
    "Notation",
    "TileNotation",
    "format_tile",
    "format_tiles",
    "parse_tile",
    "parse_tiles",
]

#: Each colour letter and the suit that carries it inside the library.
COLOURS: Final = {"k": Suit.SPADES, "b": Suit.DIAMONDS, "o": Suit.CLUBS, "r": Suit.HEARTS}
#: Each colour letter's name.
COLOUR_NAMES: Final = {"k": "black", "b": "blue", "o": "orange", "r": "red"}
_LETTER_OF: Final = {suit: letter for letter, suit in COLOURS.items()}
_TILE: Final = re.compile(r"([a-z])([0-9]{1,2})")
_SEPARATORS: Final = re.compile(r"[\s,]+")
_RED: Final = frozenset({Suit.HEARTS, Suit.DIAMONDS})
_JOKER_WORDS: Final = frozenset({"*", "j", "jk", "joker"})
#: A card named in a meld's refusal (``gap at 5c``, ``duplicate card in a group: 7s``).
_CARD_TOKEN: Final = re.compile(r"(?<![\w=*])[2-9TJQKA][cdhs](?![\w])")
#: A meld refusal's words in cards and in tiles, the longer phrases first (see
#: :meth:`TileNotation.reason`).
_TILE_REASONS: Final = (
    ("the ace ranks low only (A-2-3), not high", "a 1 is low only (1-2-3), not high"),
    ("the ace ranks high only (Q-K-A), not low", "a 1 is high only (12-13-1), not low"),
    ("wraps past the ace", "wraps past 13 to 1"),
    ("joker standing for an ace", "joker standing for a 1"),
    ("joker beside an ace", "joker beside a 1"),
    ("natural cards", "numbered tiles"),
    ("natural card", "numbered tile"),
    ("cards", "tiles"),
    ("card", "tile"),
    ("suits", "colours"),
    ("suit", "colour"),
    ("ranks", "numbers"),
    ("rank", "number"),
)
#: The suit order of :data:`rummylib.cards.CARDS` (clubs, diamonds, hearts, spades).
_SUIT_INDEX: Final = {suit: number for number, suit in enumerate(Suit)}


def parse_tile(text: str) -> Card:
    """Read one tile: a colour letter (``k b o r``) and a number 1–13, or ``*`` for a joker.

    Any case is accepted; the number is in ASCII digits.

    >>> parse_tile("K7"), parse_tile("*"), parse_tile("J")
    (Card.parse('7s'), Card.parse('*'), Card.parse('*'))
    >>> parse_tile("g7")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad tile 'g7': unknown colour 'g' (k, b, o or r)
    >>> parse_tile("r14")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad tile 'r14': numbers run from 1 to 13

    Raises:
        NotationError: the text is not exactly one tile.
    """
    if not isinstance(text, str):
        msg = f"bad tile {shorten(text)}: expected text such as 'k7'"
        raise NotationError(msg)
    token = text.strip()
    folded = token.lower()
    if folded in _JOKER_WORDS:
        return JOKER
    match = _TILE.fullmatch(folded)
    if match is None:
        msg = f"bad tile {shorten(token)}: expected a colour and a number, like 'k7', or '*'"
        raise NotationError(msg)
    letter, digits = match.groups()
    suit = COLOURS.get(letter)
    if suit is None:
        msg = f"bad tile {shorten(token)}: unknown colour {letter!r} (k, b, o or r)"
        raise NotationError(msg)
    number = int(digits)
    if not 1 <= number <= 13:
        msg = f"bad tile {shorten(token)}: numbers run from 1 to 13"
        raise NotationError(msg)
    return CARDS[13 * _SUIT_INDEX[suit] + number - 1]


def parse_tiles(text: str) -> tuple[Card, ...]:
    """Read tiles separated by spaces and/or commas, in the order written.

    >>> format_tiles(parse_tiles("k1, k2 k3 *"))
    'k1 k2 k3 *'
    >>> parse_tiles("")
    ()

    Raises:
        NotationError: a token is not a tile; the message names it.
    """
    if not isinstance(text, str):
        msg = f"bad tiles {shorten(text)}: expected text such as 'k7 b7 o7'"
        raise NotationError(msg)
    return tuple(parse_tile(token) for token in _SEPARATORS.split(text.strip()) if token)


def format_tile(card: Card) -> str:
    """One tile as text: its colour letter and number, ``*`` for the joker.

    >>> format_tile(parse_card("Qh")), format_tile(JOKER)
    ('r12', '*')
    """
    if card.rank is None or card.suit is None:
        return "*"
    return f"{_LETTER_OF[card.suit]}{int(card.rank)}"


def format_tiles(cards: Iterable[Card]) -> str:
    """Tiles as text separated by single spaces; the inverse of :func:`parse_tiles`.

    >>> from rummylib import parse_cards
    >>> format_tiles(parse_cards("As Ks *"))
    'k1 k13 *'
    """
    return " ".join(format_tile(card) for card in cards)


class Notation:
    """How a variant's cards are written and read: ``7h``, ``*=7d`` (the usual notation).

    Subclasses change :meth:`card` and :meth:`parse`; melds and lists of cards follow.

    >>> from rummylib import parse_meld
    >>> CARD_NOTATION.meld(parse_meld("7h 7c *", MeldRules()))
    '7h 7c *=7d'
    """

    #: What one card is called in messages ("card" or "tile").
    noun: str = "card"
    #: What one meld is called in messages ("meld" or "set").
    meld_noun: str = "meld"
    #: What the cards still to draw are called ("stock" or "pool").
    stock: str = "stock"
    #: What a player's cards are called ("hand" or "rack").
    hand: str = "hand"
    #: What a card's rank and suit are called ("rank" and "suit", or "number" and "colour").
    rank: str = "rank"
    suit: str = "suit"

    def card(self, card: Card) -> str:
        """One card as text."""
        return str(card)

    def colour(self, card: Card) -> str:
        """The colour a picture or a terminal draws the card in: ``"red"`` or ``"black"``."""
        return "red" if card.suit in _RED else "black"

    def parse(self, token: str) -> Card:
        """One card from text.

        Raises:
            NotationError: the token is not one card.
        """
        return parse_card(token)

    def reason(self, reason: str) -> str:
        """A meld's refusal (:attr:`~rummylib.errors.InvalidMeldError.reason`) in these words.

        The refusals are written in cards; this notation leaves them as they are.
        """
        return reason

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards as text separated by single spaces."""
        return " ".join(self.card(card) for card in cards)

    def parse_cards(self, text: str) -> tuple[Card, ...]:
        """Cards separated by spaces and/or commas.

        Raises:
            NotationError: a token is not a card.
        """
        return tuple(self.parse(token) for token in _SEPARATORS.split(text.strip()) if token)

    def meld_tokens(self, meld: Meld) -> tuple[str, ...]:
        """The meld, one token per card; a substitute written ``*=x`` with what it stands for."""
        card = self.card
        return tuple(
            card(natural) if natural is stands else f"{card(natural)}={card(stands)}"
            for natural, stands in zip(meld.cards, meld.stands_for, strict=True)
        )

    def meld(self, meld: Meld) -> str:
        """The meld as text (``7h 7c *=7d``)."""
        return " ".join(self.meld_tokens(meld))

    def melds(self, melds: Sequence[Meld]) -> str:
        """Melds as text, ``|`` between them, as records write them."""
        return " | ".join(self.meld(meld) for meld in melds)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class TileNotation(Notation):
    """Rummikub's tiles, ``k7 b13 o1 r10 *``.

    >>> from rummylib import parse_meld
    >>> TILE_NOTATION.meld(parse_meld("7s 7d *", MeldRules()))
    'k7 b7 *=o7'
    """

    noun = "tile"
    meld_noun = "set"
    stock = "pool"
    hand = "rack"
    rank = "number"
    suit = "colour"

    def card(self, card: Card) -> str:
        """One tile as text (:func:`format_tile`)."""
        return format_tile(card)

    def colour(self, card: Card) -> str:
        """The tile's colour: ``"black"``, ``"blue"``, ``"orange"`` or ``"red"``."""
        if card.suit is None:
            return "black"
        return COLOUR_NAMES[_LETTER_OF[card.suit]]

    def reason(self, reason: str) -> str:
        """A meld's refusal in tiles: its cards, ranks, suits and aces as tiles, numbers, colours.

        >>> TILE_NOTATION.reason("duplicate card in a group: 7s")
        'duplicate tile in a group: k7'
        >>> TILE_NOTATION.reason("the ace ranks low only (A-2-3), not high")
        'a 1 is low only (1-2-3), not high'
        """
        for card_words, tile_words in _TILE_REASONS:
            reason = reason.replace(card_words, tile_words)
        return _CARD_TOKEN.sub(lambda match: format_tile(parse_card(match.group())), reason)

    def parse(self, token: str) -> Card:
        """One tile from text (:func:`parse_tile`).

        Raises:
            NotationError: the token is not one tile.
        """
        return parse_tile(token)


#: The usual card notation.
CARD_NOTATION: Final = Notation()
#: Rummikub's tile notation.
TILE_NOTATION: Final = TileNotation()


def read_meld(text: str, rules: MeldRules, notation: Notation) -> Meld:
    """A meld written in ``notation``, read as :func:`~rummylib.melds.parse_meld` reads one.

    Each token is rewritten in card notation (``*=o7`` becomes ``*=7c``); jokers that say
    what they stand for keep it, the others get the reading that agrees with them.

    >>> read_meld("k7 b7 *=o7", MeldRules(), TILE_NOTATION)
    Meld(group: 7s 7d *=7c)
    >>> read_meld("k7 * k9", MeldRules(), TILE_NOTATION)
    Meld(run: 7s *=8s 9s)
    >>> read_meld("k7=k8 k9 k10", MeldRules(), TILE_NOTATION)
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad meld token 'k7=k8': only a joker may declare a tile

    Raises:
        NotationError: a token is not a card of ``notation``.
        InvalidMeldError: the cards are not a meld under ``rules``.
    """
    if notation is CARD_NOTATION:
        return parse_meld(text, rules)
    tokens: list[str] = []
    written: dict[str, str] = {}  # each token in card notation -> as the text wrote it
    for token in text.split():
        left, equals, right = token.partition("=")
        if equals and not (left and right):
            example = notation.card(parse_card("3h"))
            msg = f"bad meld token {shorten(token)}: write a declared joker as '*={example}'"
            raise NotationError(msg)
        parts = (left, right) if equals else (left,)
        rewritten = "=".join(str(notation.parse(part)) for part in parts)
        written[rewritten] = token
        tokens.append(rewritten)
    try:
        return parse_meld(" ".join(tokens), rules)
    except NotationError as error:
        # parse_meld names the tokens it rewrote, in cards: the refusal names the text's own
        message = str(error)
        for rewritten, token in written.items():
            message = message.replace(shorten(rewritten), shorten(token))
        raise NotationError(notation.reason(message)) from None
