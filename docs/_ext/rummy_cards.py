"""The ``rummy-cards`` directive: pictures of cards drawn by :mod:`rummylib.svg` at build time.

The pages write cards in notation and the build draws them, so no picture is ever drawn by
hand or goes stale::

    .. rummy-cards:: Ah 2h *=3h 4h
       :caption: A run with a joker standing for the three.

    .. rummy-cards:: 7s 8s *=9s | Tc Jc *=Qc
       :caption: Two melds on a table.

    .. rummy-cards:: 7c 7d 7s 6h 7h 8h 9h Ks 2d 3d * 5d
       :arrange: rummy101
       :discard:

    .. rummy-cards:: 3h 4h 5h 6h Ts Js 7d 9c 9d 9h Kc Ks 2c Kd
       :arrange: indian_points
       :wild: 7
       :require: min_runs=2 min_pure_runs=1 complete
       :discard:

The argument is cards in notation. Without ``*=``, ``|`` or ``:arrange:`` they are drawn side by
side (:func:`rummylib.svg.cards`, ``:highlight:`` outlining some of them). ``*=3h`` is a joker
declared as the three of hearts, ``7d=Qs`` a wild card standing for the queen of spades; ``|``
separates melds. Cards with a declared joker or wild card, or several groups, are drawn as
melds (:func:`rummylib.svg.meld`, :func:`rummylib.svg.table`) exactly as written, legal or not,
since a rules page also shows what is refused. ``:arrange: VARIANT`` arranges the cards under
that variant's meld rules and card points, ``:discard:`` setting the best card aside first, and
draws the arrangement (:func:`rummylib.svg.arrangement`). With it, ``:wild: RANKS`` makes those
ranks wild (``MeldRules.wild_ranks``: the Indian deal's wild card, which the variant's own rules
do not know), and ``:require:`` asks for the best arrangement that meets a
:class:`~rummylib.arrangement.Requirement`, its fields written ``name=number`` or, for a flag,
its bare name; the build fails if no arrangement meets it.

With ``:tiles:`` the argument is Rummikub tiles (``k7 b7 *=o7 | r1 r2 r3``) and the picture
draws tiles.

The HTML builders get the SVG inline (its titles and ``aria-label`` intact); other builders get
the notation as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar

import attrs
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import ExtensionMetadata

from rummylib import (
    Card,
    NotationError,
    Rank,
    Requirement,
    RummyError,
    _svg,
    arrange,
    get_variant,
    parse_card,
    svg,
)
from rummylib.melds import Meld, MeldKind
from rummylib.tiles import TILE_NOTATION

__all__ = ["RummyCards", "read_groups", "read_ranks", "read_requirement", "setup"]

_SEPARATORS = re.compile(r"[\s,]+")


def read_groups(
    text: str, read: Callable[[str], Card] = parse_card
) -> list[list[tuple[Card, Card | None]]]:
    """Read the directive's argument: groups split by ``|``, cards as (card, declared) pairs.

    ``declared`` is the card a joker written ``*=3h``, or a wild card written ``7d=3h``, stands
    for, else ``None``. ``read`` reads one token (:func:`~rummylib.tiles.parse_tile` for tiles).

    >>> [[f"{card}:{declared}" for card, declared in group] for group in read_groups("7h *=8h|Ks")]
    [['7h:None', '*:8h'], ['Ks:None']]
    >>> [f"{card}:{declared}" for card, declared in read_groups("9c 9d 7h=9s")[0]]
    ['9c:None', '9d:None', '7h:9s']
    >>> read_groups("7h *=*")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad card '*=*': a joker stands for a natural card

    Raises:
        NotationError: a token is not a card, or a joker or wild card is declared as a joker.
    """
    groups = []
    for part in text.split("|"):
        group: list[tuple[Card, Card | None]] = []
        for token in _SEPARATORS.split(part.strip()):
            if not token:
                continue
            if "=" in token:
                face, _, stands = token.partition("=")
                declared = read(stands)
                if declared.is_joker:
                    msg = f"bad card {token!r}: a joker stands for a natural card"
                    raise NotationError(msg)
                group.append((read(face), declared))
            else:
                group.append((read(token), None))
        groups.append(group)
    return groups


_RANKS: dict[str, Rank] = {rank.letter: rank for rank in Rank}


def read_ranks(text: str) -> frozenset[Rank]:
    """Read the ``:wild:`` option: ranks in card notation (``A 2 … 9 T J Q K``).

    >>> sorted(read_ranks("7 A"))
    [<Rank.ACE: 1>, <Rank.SEVEN: 7>]
    >>> read_ranks("10")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad rank '10': expected one of A23456789TJQK

    Raises:
        NotationError: a token is not a rank.
    """
    ranks = set()
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        if token.upper() not in _RANKS:
            msg = f"bad rank {token!r}: expected one of {''.join(_RANKS)}"
            raise NotationError(msg)
        ranks.add(_RANKS[token.upper()])
    return frozenset(ranks)


def read_requirement(text: str) -> Requirement:
    """Read the ``:require:`` option: ``min_runs=N``, ``min_pure_runs=N`` and ``complete``.

    >>> read_requirement("min_runs=2 min_pure_runs=1 complete")
    Requirement(min_runs=2, min_pure_runs=1, complete=True)
    >>> read_requirement("x")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad requirement 'x': not min_runs=N, min_pure_runs=N or complete

    Raises:
        NotationError: a token is none of these.
        ConfigurationError: a number is out of the requirement's bounds.
    """
    numbers = {"min_runs": 0, "min_pure_runs": 0}
    complete = False
    for token in _SEPARATORS.split(text.strip()):
        name, _, value = token.partition("=")
        if token == "complete":
            complete = True
        elif name in numbers and value.isdigit():
            numbers[name] = int(value)
        elif token:
            msg = f"bad requirement {token!r}: not min_runs=N, min_pure_runs=N or complete"
            raise NotationError(msg)
    return Requirement(
        min_runs=numbers["min_runs"], min_pure_runs=numbers["min_pure_runs"], complete=complete
    )


def _as_meld(group: list[tuple[Card, Card | None]]) -> Meld:
    """The group as written, as a meld reading (not checked against any rules)."""
    stands_for = []
    for card, declared in group:
        if card.is_joker and declared is None:
            msg = "write every joker of a meld with the card it stands for, as *=3h"
            raise NotationError(msg)
        stands_for.append(declared if declared is not None else card)
    same_rank = len({stands.rank for stands in stands_for}) == 1
    kind = MeldKind.GROUP if same_rank else MeldKind.RUN
    return Meld(kind, tuple(card for card, _ in group), tuple(stands_for))


def draw(
    text: str,
    *,
    variant: str | None = None,
    discard: bool = False,
    highlight: str = "",
    wild: str = "",
    require: str = "",
    tiles: bool = False,
) -> str:
    """The SVG picture the directive puts on the page (``tiles``: Rummikub tiles, ``k7``).

    >>> svg.read_cards(draw("Ah 2h *=3h 4h"))
    ('Ah', '2h', '*=3h', '4h')
    >>> svg.read_cards(draw("Kd 7c 7d 7h", variant="rummy101", discard=True))
    ('7c', '7d', '7h', 'Kd')
    >>> svg.read_cards(draw("Ts Js 7d 2c", variant="indian_points", discard=True, wild="7"))
    ('Ts', 'Js', '7d=Qs', '2c')
    >>> svg.read_cards(draw("k7 b7 *=o7 | r1 r2 r3", tiles=True))
    ('k7', 'b7', '*=o7', 'r1', 'r2', 'r3')
    >>> draw("2h 3h 4h 9c 9d 9s", variant="indian_points", require="min_runs=2")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: no arrangement of these cards meets 'min_runs=2'

    Raises:
        RummyError: the cards or the options cannot be read, the variant is unknown, or no
            arrangement meets the requirement.
    """
    notation = TILE_NOTATION if tiles else None
    groups = read_groups(text, TILE_NOTATION.parse if tiles else parse_card)
    has_declared = any(declared is not None for group in groups for _, declared in group)
    if variant is not None:
        if tiles:
            msg = ":arrange: draws cards, not tiles"
            raise NotationError(msg)
        if len(groups) > 1 or has_declared:
            msg = ":arrange: takes plain cards: no | and no *=card"
            raise NotationError(msg)
        rules = get_variant(variant)
        meld_rules = rules.meld_rules
        if wild:
            meld_rules = attrs.evolve(meld_rules, wild_ranks=read_ranks(wild))
        hand = [card for card, _ in groups[0]]
        if not require:
            return svg.arrangement(arrange(hand, meld_rules, rules.card_points, discard=discard))
        requirement = read_requirement(require)
        best = arrange(hand, meld_rules, rules.card_points, discard=discard, require=requirement)
        if best is None:
            msg = f"no arrangement of these cards meets {require!r}"
            raise NotationError(msg)
        return svg.arrangement(best)
    if discard or wild or require:
        msg = ":discard:, :wild: and :require: need :arrange:"
        raise NotationError(msg)
    if len(groups) == 1 and not has_declared:
        read = TILE_NOTATION.parse if tiles else parse_card
        marks = [read(token) for token in _SEPARATORS.split(highlight.strip()) if token]
        return svg.cards([card for card, _ in groups[0]], highlight=marks, notation=notation)
    if highlight:
        msg = ":highlight: is for plain cards, not melds"
        raise NotationError(msg)
    if len(groups) == 1:
        return svg.meld(_as_meld(groups[0]), notation=notation)
    return svg.table([_as_meld(group) for group in groups], notation=notation)


class RummyCards(SphinxDirective):
    """The ``rummy-cards`` directive.

    Options: caption, arrange, discard, highlight, wild, require, tiles.
    """

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec: ClassVar[dict[str, Callable[[str], object]]] = {
        "caption": directives.unchanged,
        "arrange": directives.unchanged_required,
        "discard": directives.flag,
        "highlight": directives.unchanged,
        "wild": directives.unchanged_required,
        "require": directives.unchanged_required,
        "tiles": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        """Draw the picture; a bad argument is reported as an error at its line."""
        text = self.arguments[0]
        try:
            picture = draw(
                text,
                variant=self.options.get("arrange"),
                discard="discard" in self.options,
                highlight=self.options.get("highlight", ""),
                wild=self.options.get("wild", ""),
                require=self.options.get("require", ""),
                tiles="tiles" in self.options,
            )
        except RummyError as error:
            raise self.error(f"rummy-cards {text!r}: {error}") from None
        for module in (_svg, svg):  # redraw this page when the drawing code changes
            self.env.note_dependency(str(module.__file__))
        html = addnodes.only(expr="html")
        html += nodes.raw("", f'<div class="rummy-cards">{picture}</div>', format="html")
        other = addnodes.only(expr="not html")
        other += nodes.literal_block(text, text)
        figure = nodes.figure("", html, other, classes=["rummy-cards"])
        caption = self.options.get("caption")
        if caption:
            inline, messages = self.state.inline_text(caption, self.lineno)
            figure += nodes.caption(caption, "", *inline)
            return [figure, *messages]
        return [figure]


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the directive."""
    app.add_directive("rummy-cards", RummyCards)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
