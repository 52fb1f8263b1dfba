"""Pictures of cards, hands, melds, arrangements, tables and games, as SVG text.

Every function returns one ``<svg>`` element as a string: no dependency, nothing written
anywhere. A picture has a ``viewBox`` and scales to any size (at its natural size a card is
60 pixels wide; it stays readable at 40). Faces are classic: the rank and a suit pip in two
corners, the pips of 2 to 10 laid out as on printed cards, red hearts and diamonds, black clubs
and spades, framed court cards, and a violet joker with a star. A joker in a meld shows the card
it stands for in a dashed frame.

Each card is a ``<g class="card">`` element with the card's notation as its ``<title>`` and
the card in words as its ``aria-label``; the picture as a whole carries a ``<title>`` in
notation and an ``aria-label`` in words, so a screen reader and a test can read it
(:func:`read_cards` does).

>>> from rummylib import MeldRules, parse_meld, svg
>>> picture = svg.meld(parse_meld("Ah 2h *=3h 4h", MeldRules()))
>>> picture[:40]
'<svg xmlns="http://www.w3.org/2000/svg" '
>>> svg.read_cards(picture)
('Ah', '2h', '*=3h', '4h')

In a notebook, cards, melds, arrangements and observations show themselves as these pictures
(``_repr_svg_``), and a :class:`~rummylib.state.GameState` shows the host's view of the whole
state (``_repr_html_``, every hand face up, labelled as such).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from xml.etree import ElementTree

from rummylib import _svg
from rummylib.arrangement import Arrangement
from rummylib.cards import Card
from rummylib.errors import InvalidMeldError, NotationError
from rummylib.melds import Meld
from rummylib.state import GameState
from rummylib.tiles import CARD_NOTATION, Notation
from rummylib.views import Observation

__all__ = [
    "arrangement",
    "card",
    "cards",
    "host_view",
    "meld",
    "observation",
    "read_cards",
    "table",
]

_SVG_NAMESPACE: Final = "{http://www.w3.org/2000/svg}"


def _checked(card: object) -> Card:
    if not isinstance(card, Card):
        msg = f"bad card {card!r}: expected a Card"
        raise NotationError(msg)
    return card


def _checked_meld(meld: object) -> Meld:
    if not isinstance(meld, Meld):
        msg = f"bad meld {meld!r}: expected a Meld"
        raise InvalidMeldError(msg)
    return meld


def card(card: Card, *, stands_for: Card | None = None, notation: Notation | None = None) -> str:
    """One card; with Rummikub's :data:`~rummylib.tiles.TILE_NOTATION`, one tile.

    ``stands_for`` draws a joker (or, in cards, a wild card) with the card it stands for, as
    a meld on the table shows it (``*=8h``).

    >>> from rummylib import JOKER, parse_card, svg
    >>> picture = svg.card(parse_card("Th"))
    >>> 'viewBox="0 0 72 96"' in picture, svg.read_cards(picture)
    (True, ('Th',))
    >>> 'aria-label="ten of hearts"' in picture
    True
    >>> svg.read_cards(svg.card(JOKER, stands_for=parse_card("8h")))
    ('*=8h',)
    >>> svg.card("Th")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad card 'Th': expected a Card

    Raises:
        NotationError: ``card`` or ``stands_for`` is not a :class:`~rummylib.cards.Card`,
            ``stands_for`` is a joker, or (in tiles) a numbered tile stands for another.
    """
    name = CARD_NOTATION if notation is None else notation
    tiles = name.noun == "tile"
    token = name.card(_checked(card))
    if stands_for is not None:
        if _checked(stands_for).is_joker:
            msg = f"bad stands_for {stands_for!r}: a joker stands for a natural {name.noun}"
            raise NotationError(msg)
        if tiles and not card.is_joker:
            msg = f"bad stands_for for {token}: only a joker stands for another tile"
            raise NotationError(msg)
        token = f"{token}={name.card(stands_for)}"
    return _svg.card(token, tiles=tiles)


def cards(
    cards: Iterable[Card],
    *,
    highlight: Iterable[Card | int] = (),
    notation: Notation | None = None,
) -> str:
    """Cards side by side, in the order given, fourteen to a line.

    Args:
        cards: the cards, such as a hand.
        highlight: cards to outline in blue: a :class:`~rummylib.cards.Card` outlines every
            copy of that card, a number the card at that position (0 is the first).
        notation: how to draw them: cards (the default) or, with
            :data:`~rummylib.tiles.TILE_NOTATION`, Rummikub tiles.

    >>> from rummylib import svg
    >>> from rummylib.tiles import TILE_NOTATION, parse_tiles
    >>> svg.read_cards(svg.cards(parse_tiles("k7 b13 *"), notation=TILE_NOTATION))
    ('k7', 'b13', '*')

    >>> from rummylib import parse_card, parse_cards, svg
    >>> picture = svg.cards(parse_cards("7h 8h * Ks"), highlight=[parse_card("Ks"), 0])
    >>> svg.read_cards(picture), picture.count('class="card highlight"')
    (('7h', '8h', '*', 'Ks'), 2)
    >>> svg.cards(parse_cards("7h 8h"), highlight=[2])
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad highlight 2: the cards have positions 0 to 1

    Raises:
        NotationError: an entry of ``cards`` is not a card, or a highlight is neither a card
            nor the position of one.
    """
    shown = tuple(_checked(each) for each in cards)
    positions: set[int] = set()
    for mark in highlight:
        if isinstance(mark, Card):
            positions.update(number for number, each in enumerate(shown) if each == mark)
        elif isinstance(mark, int) and not isinstance(mark, bool) and 0 <= mark < len(shown):
            positions.add(mark)
        else:
            msg = f"bad highlight {mark!r}: the cards have positions 0 to {len(shown) - 1}"
            raise NotationError(msg)
    name = CARD_NOTATION if notation is None else notation
    tiles = name.noun == "tile"
    return _svg.cards([name.card(each) for each in shown], positions, tiles=tiles)


def meld(meld: Meld, *, notation: Notation | None = None) -> str:
    """A meld, each joker drawn with the card it stands for (tiles with a tile ``notation``).

    >>> from rummylib import MeldRules, parse_meld, svg
    >>> picture = svg.meld(parse_meld("7c *=7d 7h", MeldRules()))
    >>> svg.read_cards(picture)
    ('7c', '*=7d', '7h')
    >>> 'aria-label="joker as seven of diamonds"' in picture
    True

    Raises:
        InvalidMeldError: ``meld`` is not a :class:`~rummylib.melds.Meld`.
    """
    name = CARD_NOTATION if notation is None else notation
    return _svg.meld(name.meld_tokens(_checked_meld(meld)), tiles=name.noun == "tile")


def arrangement(arrangement: Arrangement) -> str:
    """An arrangement: the melds side by side, then the deadwood apart, then any discard.

    The deadwood is captioned with its points; an empty part is an empty dashed place.

    >>> from rummylib import CardPoints, MeldRules, arrange, parse_cards, svg
    >>> best = arrange(parse_cards("7c 7d 7h 8h 9h Ks"), MeldRules(), CardPoints())
    >>> picture = svg.arrangement(best)
    >>> svg.read_cards(picture)
    ('7h', '8h', '9h', '7c', '7d', 'Ks')
    >>> "deadwood, 24 points" in picture
    True
    """
    return _svg.arrangement(arrangement)


def table(melds: Iterable[Meld], *, notation: Notation | None = None) -> str:
    """The melds on a table, side by side and wrapping onto new lines.

    With :data:`~rummylib.tiles.TILE_NOTATION` the sets are drawn as Rummikub tiles.

    >>> from rummylib import MeldRules, parse_meld, svg
    >>> rules = MeldRules()
    >>> picture = svg.table([parse_meld("7s 8s *=9s", rules), parse_meld("Tc Jc Qc", rules)])
    >>> svg.read_cards(picture)
    ('7s', '8s', '*=9s', 'Tc', 'Jc', 'Qc')
    >>> svg.read_cards(svg.table([]))
    ()

    Raises:
        InvalidMeldError: an entry of ``melds`` is not a :class:`~rummylib.melds.Meld`.
    """
    return _svg.table([_checked_meld(each) for each in melds], notation=notation)


def observation(observation: Observation) -> str:
    """One player's view of the table, drawn from an observation.

    The picture shows the others' hand sizes and scores, the stock, the top of the discard
    pile, the open card, the table and the player's own hand. The other players' cards are drawn
    face down with their number, never their faces.

    >>> from rummylib import new_game, svg
    >>> view = new_game("rummy101", players=3, seed=8).observation(2)
    >>> picture = svg.observation(view)
    >>> cards_shown = svg.read_cards(picture)
    >>> len(cards_shown), cards_shown[0] == str(view.open_card)  # the open card, 13 in hand
    (14, True)
    >>> "p3's view" in picture, picture.count('class="back"')  # two hands and the stock
    (True, 3)
    """
    return _svg.observation(observation)


def host_view(state: GameState) -> str:
    """The whole state as the host sees it: every hand face up, the piles and the table.

    Not for players' eyes: a player's picture is :func:`observation`. A
    :class:`~rummylib.state.GameState` in a notebook shows this picture under a caption that
    says so.

    >>> from rummylib import new_game, svg
    >>> state = new_game("rummy101", players=2, seed=5)
    >>> picture = svg.host_view(state)
    >>> len(svg.read_cards(picture)), "Host view" in picture  # two hands and the open card
    (27, True)
    """
    return _svg.host_view(state)


def read_cards(picture: str) -> tuple[str, ...]:
    """The notation of every card face in a picture, in drawing order.

    Reads the ``<title>`` of each ``<g class="card">`` (and Rummikub ``<g class="tile">``)
    element (jokers in melds as ``*=card``); face-down cards and empty places are not cards.

    >>> from rummylib import parse_cards, svg
    >>> svg.read_cards(svg.cards(parse_cards("Ah * Kd")))
    ('Ah', '*', 'Kd')
    >>> svg.read_cards("<svg")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad picture: not SVG text (unclosed token: line 1, column 0)

    Raises:
        NotationError: the text is not XML.
    """
    try:
        root = ElementTree.fromstring(picture)
    except ElementTree.ParseError as error:
        msg = f"bad picture: not SVG text ({error})"
        raise NotationError(msg) from None
    return tuple(
        element.findtext(f"{_SVG_NAMESPACE}title", "")
        for element in root.iter(f"{_SVG_NAMESPACE}g")
        if {"card", "tile"} & set(element.get("class", "").split())
    )
