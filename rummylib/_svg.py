"""Drawing cards as SVG text: the private engine behind :mod:`rummylib.svg` and the reprs.

This module imports nothing from rummylib, so every layer may import it at module top: the
``_repr_svg_`` methods of :class:`~rummylib.cards.Card`, :class:`~rummylib.melds.Meld`,
:class:`~rummylib.arrangement.Arrangement` and :class:`~rummylib.views.Observation` (and
``GameState._repr_html_``) are one line each that call in here.

It works on plain values: a card is its notation (``"7h"``, ``"Th"``, ``"*"``, or ``"*=3h"`` for
a joker standing for the three of hearts), and the composite pictures read the objects they
draw through the small protocols below (attributes only), never through rummylib's classes.

Every picture is one ``<svg>`` element with a ``viewBox`` (one unit is one pixel at natural
size, a card is 60 by 84), ``role="img"``, an ``aria-label`` in words and a ``<title>`` in card
notation. Each face is a ``<g class="card">`` holding its own ``<title>`` (the card's notation)
and ``aria-label`` (the card in words); face-down cards are ``<g class="back">`` and empty
places ``<g class="slot">``. Nothing depends on fonts but the rank letters and captions: the
suit pips are paths, so hearts never turn into emoji.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from html import escape as _escape
from typing import Any, Final, NamedTuple, Protocol

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "arrangement",
    "card",
    "cards",
    "host_view",
    "host_view_html",
    "meld",
    "observation",
    "table",
    "words",
]

#: The size of a card in picture units (pixels at natural size): a poker card's 5 : 7.
CARD_WIDTH: Final = 60
CARD_HEIGHT: Final = 84
_GAP: Final = 6  # between the cards of one block
_BLOCK_GAP: Final = 20  # between blocks (melds, piles)
_MARGIN: Final = 6
_CAPTION: Final = 16  # height of a caption line above a block
_HEADING: Final = 20  # height of a heading line above a section
_SECTION_GAP: Final = 8
_PER_LINE: Final = 14  # the most cards side by side: a full Israeli hand
# Wide enough for a 14-card Israeli declaration split into five blocks on one line.
_LINE_WIDTH: Final = 1000
_CHAR_WIDTH: Final = 7.0  # a generous average advance of the 12-unit caption font

_FONT: Final = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
_RED: Final = "#c62828"
_BLACK: Final = "#1b1b1b"
_JOKER_INK: Final = "#6a1b9a"
_JOKER_GOLD: Final = "#f4b400"
_HIGHLIGHT: Final = "#1e88e5"
_BACK: Final = "#234f96"

_RANK_LABELS: Final = {
    "A": "A",
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    "J": "J",
    "Q": "Q",
    "K": "K",
}
_RANK_WORDS: Final = {
    "A": "ace",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
}
_SUIT_WORDS: Final = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}

# Suit shapes in a 100-unit box centred on the origin (point up), drawn with paths rather
# than font glyphs so that they look the same everywhere.
_CLUB_LOBES: Final = "".join(
    f"M{x - 21},{y}a21,21 0 1,0 42,0a21,21 0 1,0 -42,0Z" for x, y in ((0, -26), (-24, 10), (24, 10))
)
_SUIT_PATHS: Final = {
    "h": (
        "M0,44C-18,26 -50,4 -50,-20C-50,-38 -37,-50 -24,-50C-12,-50 -4,-43 0,-32"
        "C4,-43 12,-50 24,-50C37,-50 50,-38 50,-20C50,4 18,26 0,44Z"
    ),
    "d": "M0,-50Q14,-22 38,0Q14,22 0,50Q-14,22 -38,0Q-14,-22 0,-50Z",
    "s": (
        "M0,-50C-18,-28 -50,-10 -50,12C-50,30 -36,38 -24,38C-14,38 -7,33 -4,27"
        "C-5,38 -10,45 -20,50L20,50C10,45 5,38 4,27C7,33 14,38 24,38"
        "C36,38 50,30 50,12C50,-10 18,-28 0,-50Z"
    ),
    "c": _CLUB_LOBES + "M-5,0L5,0C5,26 10,42 20,50L-20,50C-10,42 -5,26 -5,0ZM0,-12L-16,12L16,12Z",
}


def _star_path() -> str:
    points = []
    for corner in range(10):
        radius = 50 if corner % 2 == 0 else 20
        angle = math.pi * corner / 5 - math.pi / 2
        points.append(f"{radius * math.cos(angle):.1f},{radius * math.sin(angle):.1f}")
    return "M" + "L".join(points) + "Z"


_STAR: Final = _star_path()

# Where the pips of 2 to 10 go: (column, row) with columns 0 1 2 (left, middle, right) and rows
# as fractions of the pip area from top (0) to bottom (1), as on a classic card.
_THIRD: Final = 1 / 3
_PIP_PLACES: Final[dict[str, tuple[tuple[int, float], ...]]] = {
    "2": ((1, 0), (1, 1)),
    "3": ((1, 0), (1, 0.5), (1, 1)),
    "4": ((0, 0), (2, 0), (0, 1), (2, 1)),
    "5": ((0, 0), (2, 0), (1, 0.5), (0, 1), (2, 1)),
    "6": ((0, 0), (2, 0), (0, 0.5), (2, 0.5), (0, 1), (2, 1)),
    "7": ((0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (0, 1), (2, 1)),
    "8": ((0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (1, 0.75), (0, 1), (2, 1)),
    "9": (
        (0, 0),
        (2, 0),
        (0, _THIRD),
        (2, _THIRD),
        (1, 0.5),
        (0, 2 * _THIRD),
        (2, 2 * _THIRD),
        (0, 1),
        (2, 1),
    ),
    "T": (
        (0, 0),
        (2, 0),
        (1, _THIRD / 2),
        (0, _THIRD),
        (2, _THIRD),
        (0, 2 * _THIRD),
        (2, 2 * _THIRD),
        (1, 1 - _THIRD / 2),
        (0, 1),
        (2, 1),
    ),
}
_PIP_COLUMNS: Final = (21.0, 30.0, 39.0)
_PIP_TOP: Final = 17.0
_PIP_BOTTOM: Final = 67.0
_PIP_SIZE: Final = 11.5


class _Face(NamedTuple):
    """One card token read: rank letter and suit letter, ``None`` for a joker's own."""

    token: str
    rank: str | None
    suit: str | None
    #: For a joker (or a wild card standing in), the (rank, suit) letters of the card it
    #: stands for, if declared.
    declared: tuple[str, str] | None


def _safe(text: str) -> str:
    """Text made safe for XML content and double-quoted attributes (apostrophes stay)."""
    return _escape(text, quote=False).replace('"', "&quot;")


def _read(token: str) -> _Face:
    """Read a card token: ``7h``, ``Th``, ``*``, ``*=3h`` or ``7d=3h`` (a wild card)."""
    if token == "*":
        return _Face(token, None, None, None)
    if "=" in token:
        card, _, natural = token.partition("=")
        face = _read(card)
        stands = _read(natural)
        if stands.rank is None or stands.suit is None or face.declared is not None:
            msg = f"bad card token {token!r}: a joker stands for a natural card"
            raise ValueError(msg)
        return _Face(token, face.rank, face.suit, (stands.rank, stands.suit))
    if len(token) == 2 and token[0] in _RANK_LABELS and token[1] in _SUIT_WORDS:
        return _Face(token, token[0], token[1], None)
    msg = f"bad card token {token!r}: expected notation such as 7h, Th, *, *=3h or 7d=3h"
    raise ValueError(msg)


def words(token: str) -> str:
    """A card token in words, for screen readers.

    >>> words("Th"), words("*"), words("*=3h")
    ('ten of hearts', 'joker', 'joker as three of hearts')
    >>> words("7d=3h")
    'seven of diamonds as three of hearts'
    """
    face = _read(token)
    name = (
        "joker"
        if face.rank is None or face.suit is None
        else f"{_RANK_WORDS[face.rank]} of {_SUIT_WORDS[face.suit]}"
    )
    if face.declared is not None:
        rank, suit = face.declared
        return f"{name} as {_RANK_WORDS[rank]} of {_SUIT_WORDS[suit]}"
    return name


def _ink(suit: str) -> str:
    return _RED if suit in "dh" else _BLACK


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _pip(suit: str, x: float, y: float, size: float, *, upside_down: bool = False) -> str:
    turn = " rotate(180)" if upside_down else ""
    scale = _number(size / 100)
    return (
        f'<path d="{_SUIT_PATHS[suit]}" '
        f'transform="translate({_number(x)} {_number(y)}){turn} scale({scale})"/>'
    )


def _star(x: float, y: float, size: float, fill: str, stroke: str) -> str:
    scale = _number(size / 100)
    return (
        f'<path d="{_STAR}" fill="{fill}" stroke="{stroke}" stroke-width="{_number(6)}" '
        f'stroke-linejoin="round" transform="translate({_number(x)} {_number(y)}) '
        f'scale({scale})"/>'
    )


def _rank_text(label: str, x: float, y: float, size: float, *, serif: bool = False) -> str:
    squeeze = ""
    if len(label) > 1:  # "10" in the width of one letter, as on printed cards
        squeeze = f' textLength="{_number(size * 0.9)}" lengthAdjust="spacingAndGlyphs"'
    family = "DejaVu Serif, Georgia, Times New Roman, serif" if serif else _FONT
    return (
        f'<text x="{_number(x)}" y="{_number(y)}" font-family="{family}" '
        f'font-size="{_number(size)}" font-weight="bold" text-anchor="middle"{squeeze}>'
        f"{label}</text>"
    )


def _corner(face: _Face) -> str:
    """The index in the top left corner; the bottom right one is the same turned round."""
    if face.rank is None or face.suit is None:
        return _star(8.5, 12, 14, _JOKER_INK, _JOKER_INK) + (
            f'<text x="8.5" y="27" font-family="{_FONT}" font-size="7" font-weight="bold" '
            f'text-anchor="middle" fill="{_JOKER_INK}">JK</text>'
        )
    return _rank_text(_RANK_LABELS[face.rank], 8.5, 18, 16) + _pip(face.suit, 8.5, 27, 11)


def _middle(face: _Face) -> str:
    if face.rank is None or face.suit is None:
        return _joker_middle(face)
    if face.declared is not None:  # a wild card standing in: its own corners, the card it is
        return _stand_in_middle(face.declared, "WILD")
    if face.rank == "A":
        return _pip(face.suit, 30, 42, 30)
    if face.rank in "JQK":
        return (
            f'<rect x="15.5" y="12.5" width="29" height="59" rx="2" fill="none" '
            f'stroke="{_ink(face.suit)}" stroke-width="1"/>'
            + _pip(face.suit, 30, 23, 12)
            + _rank_text(face.rank, 30, 51.5, 24, serif=True)
            + _pip(face.suit, 30, 61, 12, upside_down=True)
        )
    span = _PIP_BOTTOM - _PIP_TOP
    return "".join(
        _pip(
            face.suit,
            _PIP_COLUMNS[column],
            _PIP_TOP + row * span,
            _PIP_SIZE,
            upside_down=row > 0.5,
        )
        for column, row in _PIP_PLACES[face.rank]
    )


def _joker_middle(face: _Face) -> str:
    if face.declared is None:
        return _star(30, 40, 34, _JOKER_GOLD, _JOKER_INK) + (
            f'<text x="30" y="70" font-family="{_FONT}" font-size="8.5" font-weight="bold" '
            f'text-anchor="middle" letter-spacing="0.5" fill="{_JOKER_INK}">JOKER</text>'
        )
    return _stand_in_middle(face.declared, "JOKER")


def _stand_in_middle(declared: tuple[str, str], word: str) -> str:
    """The middle of a joker or a wild card standing for ``declared``: the word, the card."""
    rank, suit = declared
    ink = _ink(suit)
    return (
        f'<text x="31" y="17.5" font-family="{_FONT}" font-size="7.5" font-weight="bold" '
        f'text-anchor="middle" letter-spacing="0.4" fill="{_JOKER_INK}">{word}</text>'
        f'<rect x="15.5" y="22.5" width="29" height="44" rx="4" fill="#ffffff" stroke="{ink}" '
        f'stroke-width="1.5" stroke-dasharray="3 2"/>'
        f'<g fill="{ink}">'
        + _rank_text(_RANK_LABELS[rank], 30, 46, 21)
        + _pip(suit, 30, 57, 14)
        + "</g>"
    )


def _face_group(token: str, x: float, y: float, *, highlight: bool = False) -> str:
    """One card face, its top left corner at (x, y)."""
    face = _read(token)
    label = words(token) + (", highlighted" if highlight else "")
    is_joker = face.rank is None or face.suit is None
    ink = _JOKER_INK if is_joker else _ink(face.suit or "")
    background = "#faf5ff" if is_joker else "#ffffff"
    stroke = (
        f'stroke="{_HIGHLIGHT}" stroke-width="3"'
        if highlight
        else f'stroke="{_JOKER_INK if is_joker else "#8a8a8a"}" stroke-width="1"'
    )
    classes = "card highlight" if highlight else "card"
    corner = _corner(face)
    return (
        f'<g class="{classes}" role="img" aria-label="{_safe(label)}" '
        f'transform="translate({_number(x)} {_number(y)})">'
        f"<title>{_safe(token)}</title>"
        f'<rect x="0.5" y="0.5" width="{CARD_WIDTH - 1}" height="{CARD_HEIGHT - 1}" rx="5" '
        f'fill="{background}" {stroke}/>'
        f'<g fill="{ink}">{corner}'
        f'<g transform="rotate(180 {CARD_WIDTH / 2:g} {CARD_HEIGHT / 2:g})">{corner}</g>'
        f"{_middle(face)}</g></g>"
    )


def _back_group(text: str, label: str, x: float, y: float) -> str:
    """A face-down card with ``text`` (a count) written on it."""
    return (
        f'<g class="back" role="img" aria-label="{_safe(label)}" '
        f'transform="translate({_number(x)} {_number(y)})">'
        f"<title>{_safe(label)}</title>"
        f'<rect x="0.5" y="0.5" width="{CARD_WIDTH - 1}" height="{CARD_HEIGHT - 1}" rx="5" '
        f'fill="#ffffff" stroke="#8a8a8a" stroke-width="1"/>'
        f'<rect x="4" y="4" width="{CARD_WIDTH - 8}" height="{CARD_HEIGHT - 8}" rx="3" '
        f'fill="{_BACK}"/>'
        f'<path d="M30,10L50,42L30,74L10,42Z" fill="none" stroke="#9fb8e3" stroke-width="1.5"/>'
        f'<text x="30" y="48" font-family="{_FONT}" font-size="17" font-weight="bold" '
        f'text-anchor="middle" fill="#ffffff">{_safe(text)}</text></g>'
    )


def _slot_group(label: str, x: float, y: float) -> str:
    """An empty place (an empty stock, no melds, an empty hand): a dashed outline."""
    return (
        f'<g class="slot" role="img" aria-label="{_safe(label)}" '
        f'transform="translate({_number(x)} {_number(y)})">'
        f"<title>{_safe(label)}</title>"
        f'<rect x="1" y="1" width="{CARD_WIDTH - 2}" height="{CARD_HEIGHT - 2}" rx="5" '
        f'fill="none" stroke="currentColor" stroke-opacity="0.45" stroke-width="1.5" '
        f'stroke-dasharray="4 3"/></g>'
    )


# -- tiles (Rummikub) -------------------------------------------------------------------------

#: Each tile colour letter: its ink and its name (rule 7.1 of the rules pages).
_TILE_INKS: Final = {"k": "#1b1b1b", "b": "#1565c0", "o": "#e65100", "r": "#c62828"}
_TILE_COLOURS: Final = {"k": "black", "b": "blue", "o": "orange", "r": "red"}
_TILE_FACE: Final = "#fbf3dc"
_TILE_EDGE: Final = "#b59f6b"


def _read_tile(token: str) -> tuple[str, int] | None:
    """A tile token ``k7`` as (colour, number); ``None`` for the joker ``*``."""
    if token == "*":
        return None
    colour, digits = token[:1], token[1:]
    if colour in _TILE_INKS and digits.isdigit() and 1 <= int(digits) <= 13:
        return colour, int(digits)
    msg = f"bad tile token {token!r}: expected a colour and a number such as k7, or *"
    raise ValueError(msg)


def tile_words(token: str) -> str:
    """A tile token in words, for screen readers.

    >>> tile_words("b13"), tile_words("*"), tile_words("*=o7")
    ('blue thirteen', 'joker', 'joker as orange seven')
    """
    tile, _, stands = token.partition("=")
    face = _read_tile(tile)
    name = "joker" if face is None else f"{_TILE_COLOURS[face[0]]} {_NUMBER_WORDS[face[1]]}"
    if stands:
        declared = _read_tile(stands)
        if declared is None:
            msg = f"bad tile token {token!r}: a joker stands for a numbered tile"
            raise ValueError(msg)
        return f"{name} as {_TILE_COLOURS[declared[0]]} {_NUMBER_WORDS[declared[1]]}"
    return name


_NUMBER_WORDS: Final = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
    13: "thirteen",
}


def _tile_joker_face(x: float, y: float, size: float) -> str:
    """The joker's smiling face, centred on (x, y)."""
    r = size / 2
    return (
        f'<circle cx="{_number(x)}" cy="{_number(y)}" r="{_number(r)}" fill="none" '
        f'stroke="{_RED}" stroke-width="{_number(size / 12)}"/>'
        f'<circle cx="{_number(x - r * 0.38)}" cy="{_number(y - r * 0.25)}" '
        f'r="{_number(r * 0.13)}" fill="{_BLACK}"/>'
        f'<circle cx="{_number(x + r * 0.38)}" cy="{_number(y - r * 0.25)}" '
        f'r="{_number(r * 0.13)}" fill="{_BLACK}"/>'
        f'<path d="M{_number(x - r * 0.5)},{_number(y + r * 0.2)} '
        f'Q{_number(x)},{_number(y + r * 0.75)} {_number(x + r * 0.5)},{_number(y + r * 0.2)}" '
        f'fill="none" stroke="{_BLACK}" stroke-width="{_number(size / 14)}" '
        f'stroke-linecap="round"/>'
    )


def _tile_group(token: str, x: float, y: float, *, highlight: bool = False) -> str:
    """One tile, its top left corner at (x, y): the number in its colour, or the joker."""
    tile, _, stands = token.partition("=")
    face = _read_tile(tile)
    label = tile_words(token) + (", highlighted" if highlight else "")
    stroke = (
        f'stroke="{_HIGHLIGHT}" stroke-width="3"'
        if highlight
        else f'stroke="{_TILE_EDGE}" stroke-width="1.5"'
    )
    classes = "tile highlight" if highlight else "tile"
    if face is None and stands:
        declared = _read_tile(stands)
        if declared is None:
            msg = f"bad tile token {token!r}: a joker stands for a numbered tile"
            raise ValueError(msg)
        colour, number = declared
        ink = _TILE_INKS[colour]
        middle = (
            _tile_joker_face(30, 20, 20)
            + f'<rect x="12.5" y="36.5" width="35" height="38" rx="4" fill="#ffffff" '
            f'stroke="{ink}" stroke-width="1.5" stroke-dasharray="3 2"/>'
            + f'<g fill="{ink}">'
            + _rank_text(str(number), 30, 64, 22)
            + "</g>"
        )
    elif face is None:
        middle = _tile_joker_face(30, 40, 34)
    else:
        colour, number = face
        ink = _TILE_INKS[colour]
        middle = (
            f'<g fill="{ink}">'
            + _rank_text(str(number), 30, 48, 30)
            + f'<circle cx="30" cy="63" r="4.5" fill="none" stroke="{ink}" stroke-width="1.5"/>'
            + "</g>"
        )
    return (
        f'<g class="{classes}" role="img" aria-label="{_safe(label)}" '
        f'transform="translate({_number(x)} {_number(y)})">'
        f"<title>{_safe(token)}</title>"
        f'<rect x="0.75" y="0.75" width="{CARD_WIDTH - 1.5}" height="{CARD_HEIGHT - 1.5}" '
        f'rx="7" fill="{_TILE_FACE}" {stroke}/>'
        f"{middle}</g>"
    )


# -- layout ------------------------------------------------------------------------------------


class _Item(NamedTuple):
    """One card-sized thing in a block: a face, a face-down card or an empty place."""

    kind: str  # "face", "tile", "back" or "slot"
    text: str  # the token of a face, the count written on a back
    label: str = ""  # the words of a back or a slot
    highlight: bool = False


class _Block(NamedTuple):
    """Cards that belong together (a meld, a pile), with a caption above them."""

    caption: str
    items: tuple[_Item, ...]
    group_label: str = ""  # the aria-label of the block's <g>; none if empty
    continued: bool = False  # the rest of a block cut at the end of a line: on a new line


class _Section(NamedTuple):
    """Blocks under one heading, flowing left to right and onto new lines."""

    heading: str
    blocks: tuple[_Block, ...]
    empty_text: str = ""  # written instead of blocks when there are none


def _faces(
    tokens: Sequence[str], highlight: Collection[int] = (), *, tiles: bool = False
) -> tuple[_Item, ...]:
    kind = "tile" if tiles else "face"
    return tuple(
        _Item(kind, token, highlight=position in highlight) for position, token in enumerate(tokens)
    )


def _text_width(text: str) -> float:
    return len(text) * _CHAR_WIDTH


def _split(block: _Block) -> list[_Block]:
    """A block too long for one line, cut into lines of at most ``_PER_LINE`` cards."""
    if len(block.items) <= _PER_LINE:
        return [block]
    return [
        _Block(
            block.caption if start == 0 else "",
            block.items[start : start + _PER_LINE],
            block.group_label + (", continued" if start and block.group_label else ""),
            continued=start > 0,
        )
        for start in range(0, len(block.items), _PER_LINE)
    ]


def _block_width(block: _Block) -> float:
    count = max(1, len(block.items))
    cards_width = count * CARD_WIDTH + (count - 1) * _GAP
    return max(cards_width, _text_width(block.caption))


def _draw_block(block: _Block, x: float, y: float, has_caption_line: bool) -> list[str]:
    parts: list[str] = []
    if block.caption:
        parts.append(
            f'<text class="caption" x="{_number(x)}" y="{_number(y + 12)}" '
            f'font-family="{_FONT}" font-size="12" fill="currentColor">'
            f"{_safe(block.caption)}</text>"
        )
    top = y + (_CAPTION if has_caption_line else 0)
    if block.group_label:
        parts.append(f'<g class="group" aria-label="{_safe(block.group_label)}">')
    for number, item in enumerate(block.items):
        left = x + number * (CARD_WIDTH + _GAP)
        if item.kind == "face":
            parts.append(_face_group(item.text, left, top, highlight=item.highlight))
        elif item.kind == "tile":
            parts.append(_tile_group(item.text, left, top, highlight=item.highlight))
        elif item.kind == "back":
            parts.append(_back_group(item.text, item.label, left, top))
        else:
            parts.append(_slot_group(item.label, left, top))
    if block.group_label:
        parts.append("</g>")
    return parts


def _draw_section(section: _Section, y: float) -> tuple[list[str], float, float]:
    """Draw a section from height ``y``; returns its elements, its height and its width."""
    parts: list[str] = []
    height = 0.0
    width = 0.0
    if section.heading:
        parts.append(
            f'<text class="heading" x="{_MARGIN}" y="{_number(y + 14)}" font-family="{_FONT}" '
            f'font-size="13" font-weight="bold" fill="currentColor">'
            f"{_safe(section.heading)}</text>"
        )
        height += _HEADING
        width = _text_width(section.heading) * 1.1
    blocks = [piece for block in section.blocks for piece in _split(block)]
    if not blocks:
        if section.empty_text:
            parts.append(
                f'<text class="caption" x="{_MARGIN}" y="{_number(y + height + 12)}" '
                f'font-family="{_FONT}" font-size="12" font-style="italic" '
                f'fill="currentColor">{_safe(section.empty_text)}</text>'
            )
            height += _CAPTION + 4
            width = max(width, _text_width(section.empty_text))
        return parts, height, width
    lines: list[list[_Block]] = [[]]
    used = 0.0
    for block in blocks:
        needed = _block_width(block)
        if lines[-1] and (block.continued or used + _BLOCK_GAP + needed > _LINE_WIDTH):
            lines.append([])
            used = 0.0
        used += (_BLOCK_GAP if lines[-1] else 0) + needed
        lines[-1].append(block)
    for line_number, line in enumerate(lines):
        has_caption_line = any(block.caption for block in line)
        x = float(_MARGIN)
        for block in line:
            parts.extend(_draw_block(block, x, y + height, has_caption_line))
            x += _block_width(block) + _BLOCK_GAP
        width = max(width, x - _BLOCK_GAP - _MARGIN)
        height += (_CAPTION if has_caption_line else 0) + CARD_HEIGHT
        if line_number < len(lines) - 1:
            height += _GAP * 2
    return parts, height, width


def _picture(sections: Sequence[_Section], title: str, label: str, kind: str) -> str:
    """The whole ``<svg>``: sections stacked top to bottom."""
    parts: list[str] = []
    y = float(_MARGIN)
    width = float(CARD_WIDTH)
    for number, section in enumerate(sections):
        if number:
            y += _SECTION_GAP
        drawn, height, section_width = _draw_section(section, y)
        parts.extend(drawn)
        y += height
        width = max(width, section_width)
    total_width = math.ceil(width + 2 * _MARGIN)
    total_height = math.ceil(y + _MARGIN)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rummylib {kind}" '
        f'viewBox="0 0 {total_width} {total_height}" width="{total_width}" '
        f'height="{total_height}" style="max-width:100%;height:auto" role="img" '
        f'aria-label="{_safe(label)}"><title>{_safe(title)}</title>' + "".join(parts) + "</svg>"
    )


def _spoken(tokens: Sequence[str]) -> str:
    return ", ".join(words(token) for token in tokens)


# -- pictures of plain values --------------------------------------------------------------------


def card(token: str, *, tiles: bool = False) -> str:
    """One card (or, with ``tiles``, one Rummikub tile such as ``k7``).

    >>> card("Th").count('class="card"'), card("b13", tiles=True).count('class="tile"')
    (1, 1)
    """
    kind = _TILES if tiles else _PLAIN
    face = _Block("", kind.faces([token]))
    return _picture([_Section("", (face,))], token, kind.say(token), kind.noun)


def cards(tokens: Sequence[str], highlight: Collection[int] = (), *, tiles: bool = False) -> str:
    """Cards side by side (fourteen to a line); ``highlight`` holds positions to outline.

    >>> picture = cards(["7h", "8h", "*"], highlight={2})
    >>> picture.count('class="card"'), picture.count('class="card highlight"')
    (2, 1)
    """
    kind = _TILES if tiles else _PLAIN
    none = f"no {kind.noun}s"
    title = " ".join(tokens) if tokens else none
    label = kind.spoken(tokens) if tokens else none
    blocks = (_Block("", _faces(tokens, highlight, tiles=tiles)),) if tokens else ()
    return _picture([_Section("", blocks, none)], title, label, f"{kind.noun}s")


def meld(tokens: Sequence[str], *, tiles: bool = False) -> str:
    """A meld, in notation tokens with jokers as ``*=card`` (tiles: a set, ``*=o7``).

    >>> "joker as three of hearts" in meld(["2h", "*=3h", "4h"])
    True
    >>> "joker as orange seven" in meld(["k7", "b7", "*=o7"], tiles=True)
    True
    """
    kind = _TILES if tiles else _PLAIN
    text = " ".join(tokens)
    block = _Block("", kind.faces(tokens), group_label=f"{kind.meld_noun} {text}")
    label = f"{kind.meld_noun}: " + kind.spoken(tokens)
    return _picture([_Section("", (block,))], text, label, kind.meld_noun)


class _MeldLike(Protocol):
    def declared_tokens(self) -> tuple[str, ...]: ...


class _Valued(Protocol):
    @property
    def value(self) -> object: ...


class _NotationLike(Protocol):
    """How a variant writes its cards (``rummylib.tiles.Notation``): tokens and nouns."""

    noun: str
    meld_noun: str
    stock: str
    hand: str

    def card(self, card: Any) -> str: ...
    def meld_tokens(self, meld: Any) -> tuple[str, ...]: ...


class _Named(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def aside_label(self) -> str: ...
    @property
    def notation(self) -> _NotationLike: ...


class _Cards(NamedTuple):
    """Cards or tiles: how to name them, draw them and say them."""

    tiles: bool
    name: Any  # one card to its token
    tokens: Any  # one meld to its tokens
    noun: str
    meld_noun: str
    stock: str
    hand: str

    def say(self, token: str) -> str:
        return tile_words(token) if self.tiles else words(token)

    def spoken(self, tokens: Sequence[str]) -> str:
        return ", ".join(self.say(token) for token in tokens)

    def faces(self, tokens: Sequence[str]) -> tuple[_Item, ...]:
        return _faces(tokens, tiles=self.tiles)


def _cards_of(variant: _Named) -> _Cards:
    notation = variant.notation
    return _Cards(
        tiles=notation.noun == "tile",
        name=notation.card,
        tokens=notation.meld_tokens,
        noun=notation.noun,
        meld_noun=notation.meld_noun,
        stock=notation.stock,
        hand=notation.hand,
    )


#: Plain cards, for the pictures drawn without a variant (a table of melds).
_PLAIN: Final = _Cards(
    tiles=False,
    name=str,
    tokens=lambda meld: meld.declared_tokens(),
    noun="card",
    meld_noun="meld",
    stock="stock",
    hand="hand",
)
_TILES: Final = _PLAIN._replace(tiles=True, noun="tile", meld_noun="set", stock="pool", hand="rack")


class _ArrangementLike(Protocol):
    @property
    def melds(self) -> Sequence[_MeldLike]: ...
    @property
    def deadwood(self) -> Sequence[object]: ...
    @property
    def deadwood_points(self) -> int: ...
    @property
    def discard(self) -> object: ...


class _TableLike(Protocol):
    """What the observation and the host view share: the public facts of a table."""

    @property
    def variant(self) -> _Named: ...
    @property
    def discard_pile(self) -> Sequence[object]: ...
    @property
    def aside(self) -> Sequence[object]: ...
    @property
    def table(self) -> Sequence[_MeldLike]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def players_in(self) -> Sequence[int]: ...
    @property
    def phase(self) -> _Valued: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def to_act(self) -> Sequence[int]: ...
    @property
    def deal_number(self) -> int: ...


class _FactsLike(Protocol):
    def lines(self) -> list[str]: ...


class _ObservationLike(_TableLike, Protocol):
    @property
    def public(self) -> _FactsLike: ...
    @property
    def player(self) -> int: ...
    @property
    def hand(self) -> Sequence[object]: ...
    @property
    def hand_sizes(self) -> Sequence[int]: ...
    @property
    def stock_size(self) -> int: ...


class _StateLike(_TableLike, Protocol):
    @property
    def hands(self) -> Sequence[Sequence[object]]: ...
    @property
    def stock(self) -> Sequence[object]: ...


def _meld_blocks(melds: Sequence[_MeldLike], kind: _Cards = _PLAIN) -> tuple[_Block, ...]:
    blocks = []
    for each in melds:
        tokens = kind.tokens(each)
        label = f"{kind.meld_noun} {' '.join(tokens)}"
        blocks.append(_Block("", kind.faces(tokens), group_label=label))
    return tuple(blocks)


def _melds_text(melds: Sequence[_MeldLike], kind: _Cards = _PLAIN) -> str:
    return "; ".join(" ".join(kind.tokens(each)) for each in melds)


def _melds_spoken(melds: Sequence[_MeldLike], kind: _Cards = _PLAIN) -> str:
    return "; ".join(kind.spoken(kind.tokens(each)) for each in melds)


def table(melds: Sequence[_MeldLike], *, notation: _NotationLike | None = None) -> str:
    """The melds on a table, side by side, wrapping onto new lines.

    With a tile ``notation`` (Rummikub) the sets are drawn as tiles.

    >>> table([]).count(">empty table</text>")
    1
    """
    kind = _PLAIN if notation is None else _cards_of_notation(notation)
    title = "table: " + (_melds_text(melds, kind) or "empty")
    label = "table: " + (_melds_spoken(melds, kind) or "empty")
    section = _Section("", _meld_blocks(melds, kind), "empty table")
    return _picture([section], title, label, "table")


def _cards_of_notation(notation: _NotationLike) -> _Cards:
    base = _TILES if notation.noun == "tile" else _PLAIN
    return base._replace(name=notation.card, tokens=notation.meld_tokens)


def _points(value: int) -> str:
    return f"{value} point" if value == 1 else f"{value} points"


def arrangement(arranged: _ArrangementLike) -> str:
    """Melds side by side, then the deadwood apart with its points, then any discard."""
    melds = tuple(arranged.melds)
    deadwood = tuple(str(each) for each in arranged.deadwood)
    blocks = list(_meld_blocks(melds))
    if blocks:
        blocks[0] = blocks[0]._replace(caption="melds" if deadwood else "melds, no deadwood")
    else:
        blocks.append(_Block("no melds", (_Item("slot", "", "no melds"),)))
    points = _points(arranged.deadwood_points)
    if deadwood:
        blocks.append(_Block(f"deadwood, {points}", _faces(deadwood), group_label="deadwood"))
    elif not melds:
        blocks.append(_Block("no deadwood", (_Item("slot", "", "no deadwood"),)))
    title = "melds " + (_melds_text(melds) or "none")
    label = "melds: " + (_melds_spoken(melds) or "none")
    if deadwood:
        title += f"; deadwood {' '.join(deadwood)} ({points})"
        label += f"; deadwood, {points}: {_spoken(deadwood)}"
    else:
        title += "; no deadwood"
        label += "; no deadwood"
    if arranged.discard is not None:
        token = str(arranged.discard)
        blocks.append(_Block("discard", _faces([token]), group_label="discard"))
        title += f"; discard {token}"
        label += f"; discard: {words(token)}"
    return _picture([_Section("", tuple(blocks))], title, label, "arrangement")


def _status(variant: str, deal_number: int, phase: object, current: int | None) -> str:
    phase_text = str(phase).replace("_", " ")
    turn = f", p{current + 1} to play" if current is not None else ""
    return f"{variant}, deal {deal_number}: {phase_text}{turn}"


def _player_caption(
    seat: int, score: int, players_in: Sequence[int], to_act: Sequence[int], suffix: str = ""
) -> str:
    caption = f"p{seat + 1}{suffix}, score {score}"
    if seat not in players_in:
        caption += ", out"
    elif seat in to_act:
        caption += ", to act"
    return caption


def _middle_blocks(
    stock_size: int,
    discard_pile: Sequence[object],
    aside: Sequence[object],
    label: str,
    kind: _Cards = _PLAIN,
) -> tuple[list[_Block], list[str], list[str]]:
    """Stock, discard pile top and the cards turned face up; with their notation and words.

    The cards turned face up (the Indian wild card, the Israeli open card) are captioned
    with the variant's :attr:`~rummylib.engine.Variant.aside_label`.

    An empty discard pile is left out: Carousel has none at all, and elsewhere it is empty
    only until the first discard.
    """
    word, noun = kind.stock, kind.noun
    stock = f"{word}, {stock_size} {noun}s" if stock_size != 1 else f"{word}, 1 {noun}"
    blocks = [
        _Block(
            f"{word} {stock_size}",
            (
                (_Item("back", str(stock_size), stock),)
                if stock_size
                else (_Item("slot", "", f"empty {word}"),)
            ),
        )
    ]
    titles = [f"{word} {stock_size}"]
    spoken = [stock]
    if discard_pile:
        top = kind.name(discard_pile[-1])
        blocks.append(_Block(f"discard pile {len(discard_pile)}", kind.faces([top])))
        titles.append(f"discard pile top {top} ({len(discard_pile)})")
        spoken.append(f"discard pile of {len(discard_pile)}, top {kind.say(top)}")
    if aside:
        tokens = [kind.name(card) for card in aside]
        blocks.append(_Block(label, kind.faces(tokens)))
        titles.append(f"{label} {' '.join(tokens)}")
        spoken.append(f"{label} {kind.spoken(tokens)}")
    return blocks, titles, spoken


def observation(seen: _ObservationLike) -> str:
    """One player's view: the others' hand sizes and scores, the piles, the table, the hand."""
    me = seen.player
    kind = _cards_of(seen.variant)
    noun = kind.noun
    others = [seat for seat in range(len(seen.hand_sizes)) if seat != me]
    player_blocks = []
    titles = []
    spoken = []
    for seat in others:
        size = seen.hand_sizes[seat]
        held = f"p{seat + 1} holds {size} {noun}{'' if size == 1 else 's'}"
        caption = _player_caption(seat, seen.scores[seat], seen.players_in, seen.to_act)
        item = _Item("back", str(size), held) if size else _Item("slot", "", held)
        player_blocks.append(_Block(caption, (item,)))
        titles.append(f"p{seat + 1} {size} {noun}s score {seen.scores[seat]}")
        spoken.append(f"{held}, score {seen.scores[seat]}")
    middle, middle_titles, middle_spoken = _middle_blocks(
        seen.stock_size, seen.discard_pile, seen.aside, seen.variant.aside_label, kind
    )
    hand = tuple(kind.name(each) for each in seen.hand)
    table_melds = tuple(seen.table)
    mine = _player_caption(me, seen.scores[me], seen.players_in, seen.to_act, " (you)")
    status = _status(seen.variant.name, seen.deal_number, seen.phase.value, seen.current_player)
    sections = [
        _Section(f"p{me + 1}'s view — {status}", tuple(player_blocks)),
        _Section("", tuple(middle)),
        _Section("table", _meld_blocks(table_melds, kind), f"no {kind.meld_noun}s on the table"),
        *_facts_section(seen.public.lines()),
        _Section(
            f"{mine}, {len(hand)} {noun}s in {kind.hand}",
            (_Block("", kind.faces(hand), group_label=kind.hand),) if hand else (),
            f"no {noun}s in {kind.hand}",
        ),
    ]
    title = (
        f"p{me + 1}'s view: {kind.hand} {' '.join(hand) or 'empty'}; "
        f"table {_melds_text(table_melds, kind) or 'empty'}; " + "; ".join(middle_titles + titles)
    )
    label = (
        f"p{me + 1}'s view, {status}. {kind.hand.capitalize()}: "
        f"{kind.spoken(hand) or 'empty'}. "
        f"Table: {_melds_spoken(table_melds, kind) or 'empty'}. "
        + ". ".join(middle_spoken + spoken)
    )
    return _picture(sections, title, label, "observation")


def _facts_section(facts: Sequence[str]) -> tuple[_Section, ...]:
    """The variant's public facts as one section of text, or none where it has none."""
    return (_Section("facts", (), "; ".join(facts)),) if facts else ()


def host_view(state: _StateLike) -> str:
    """The whole state as the host sees it: every hand, the piles and the table."""
    status = _status(state.variant.name, state.deal_number, state.phase.value, state.current_player)
    kind = _cards_of(state.variant)
    noun = kind.noun
    player_sections = []
    titles = []
    spoken = []
    for seat, held in enumerate(state.hands):
        tokens = tuple(kind.name(each) for each in held)
        caption = _player_caption(seat, state.scores[seat], state.players_in, state.to_act)
        group = f"p{seat + 1}'s {kind.hand}"
        player_sections.append(
            _Section(
                f"{caption}, {len(tokens)} {noun}s",
                (_Block("", kind.faces(tokens), group_label=group),) if tokens else (),
                f"no {noun}s",
            )
        )
        titles.append(f"p{seat + 1} {' '.join(tokens) or f'no {noun}s'}")
        spoken.append(f"p{seat + 1}: {kind.spoken(tokens) or f'no {noun}s'}")
    middle, middle_titles, middle_spoken = _middle_blocks(
        len(state.stock), state.discard_pile, state.aside, state.variant.aside_label, kind
    )
    table_melds = tuple(state.table)
    sections = [
        _Section(f"Host view — {status}", ()),
        *player_sections,
        _Section("", tuple(middle)),
        _Section("table", _meld_blocks(table_melds, kind), f"no {kind.meld_noun}s on the table"),
    ]
    title = (
        "host view: "
        + "; ".join(titles + middle_titles)
        + f"; table {_melds_text(table_melds, kind) or 'empty'}"
    )
    label = (
        f"Host view of the whole game, every {kind.hand} shown, {status}. "
        + ". ".join(spoken + middle_spoken)
        + f". Table: {_melds_spoken(table_melds, kind) or 'empty'}."
    )
    return _picture(sections, title, label, "host-view")


def host_view_html(state: _StateLike) -> str:
    """:func:`host_view` in a labelled HTML ``<figure>``, for notebooks."""
    return (
        '<figure class="rummylib host-view" style="margin:0">'
        "<figcaption><strong>Host view</strong> (the whole state, every hand shown: "
        "not for players)</figcaption>" + host_view(state) + "</figure>"
    )
