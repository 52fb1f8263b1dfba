"""Every Israeli declaration of a hand: the fast tables, then the solver (private).

The relaxation tests and their tables are in :mod:`rummylib._meldable`, which does not import
the solver; their names are still importable from here.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from rummylib._meldable import (
    _LAST_TABLES,
    _coarse,
    _fits,
    _fitting_bits,
    _split,
    _starts,
    _suit_cost,
    _suit_tables,
    _tables_for,
    may_meld_all,
    may_meld_card,
    meldable_discards,
)
from rummylib.arrangement import arrange
from rummylib.cards import CARDS, JOKER, JOKER_INDEX, Card
from rummylib.melds import Meld, MeldRules
from rummylib.scoring import CardPoints

# The tables' names, still importable from here (the tests of the tables import them so).
__all__ = [
    "_fits",
    "_split",
    "_starts",
    "_suit_cost",
    "_suit_tables",
    "_tables_for",
    "declarations",
    "may_meld_all",
    "may_meld_card",
    "meldable_discards",
]


def declarations(
    hand: Sequence[Card], rules: MeldRules, points: CardPoints, keep: Card | None = None
) -> tuple[tuple[Card, tuple[Meld, ...]], ...]:
    """Each natural card but ``keep`` whose discard leaves a complete hand, with its melds.

    In card index order; the melds are those :func:`~rummylib.arrangement.arrange` gives
    the rest of the hand. This is the Israeli declaration (jokers are never discarded): the
    tables of :func:`meldable_discards` rule most hands out in microseconds, and the few that
    pass are arranged and remembered (a bounded memo keyed on the cards, the card kept, the
    rules and the points).

    >>> from rummylib import CardPoints, MeldRules, parse_cards
    >>> hand = parse_cards("Ah 2h 3h 7c 7d 7s Kd *")
    >>> found = declarations(hand, MeldRules(joker_beside_ace=False), CardPoints())
    >>> [(str(card), [str(meld) for meld in melds]) for card, melds in found]
    [('Kd', ['7c 7d *=7h 7s', 'Ah 2h 3h'])]
    """
    last = _LAST_TABLES[0]
    tables = last[1] if last is not None and last[0] is rules else _tables_for(rules)
    split = None if tables is None else _split(hand)
    if tables is None or split is None:
        held = {card.index for card in hand} - {JOKER_INDEX}
        if keep is not None:
            held.discard(keep.index)
        allowed = [CARDS[index] for index in sorted(held)]
        return _arranged(hand, meldable_discards(hand, rules, allowed), rules, points)
    first, second, jokers = split
    if tables[3] and not _coarse(first, jokers, tables, True):  # most hands end here
        return ()
    if not _fits(first, second, jokers, tables, free=True):
        return ()
    allowed_bits = first if keep is None else first & ~(1 << keep.index)
    return _declarations(first, second, jokers, allowed_bits, rules, points)


@functools.lru_cache(maxsize=256)
def _declarations(  # noqa: PLR0917  (the memo's key)
    first: int, second: int, jokers: int, allowed: int, rules: MeldRules, points: CardPoints
) -> tuple[tuple[Card, tuple[Meld, ...]], ...]:
    tables = _tables_for(rules)
    assert tables is not None
    hand = [CARDS[index] for index in (*_indexes(first), *_indexes(second))]
    hand += [JOKER] * jokers
    fitting = _fitting_bits(first, second, jokers, allowed, tables)
    return _arranged(hand, [CARDS[index] for index in _indexes(fitting)], rules, points)


def _arranged(
    hand: Sequence[Card], discards: Iterable[Card], rules: MeldRules, points: CardPoints
) -> tuple[tuple[Card, tuple[Meld, ...]], ...]:
    """The discards that leave a complete arrangement, with its melds."""
    found = []
    for card in discards:
        rest = list(hand)
        rest.remove(card)
        best = arrange(rest, rules, points)
        if best.is_complete:
            found.append((card, best.melds))
    return tuple(found)


def _indexes(bits: int) -> list[int]:
    """The positions of the set bits, ascending."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found
