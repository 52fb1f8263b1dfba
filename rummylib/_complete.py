"""Every Israeli declaration of a hand, by the public solver (private; kept for its tests).

No variant uses this module: Israeli rummy lists its declarations with
``arrange(..., require=Requirement(complete=True))`` itself
(:meth:`IsraeliRummy.candidates_declare_rummy
<rummylib.variants.israeli.IsraeliRummy.candidates_declare_rummy>`), and the fast relaxation
tests that used to live here are in :mod:`rummylib._meldable`, below the solver, where that
requirement uses them. ``tests/test_complete.py`` imports :func:`declarations` and the tables'
names from here, so they stay importable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummylib._meldable import (
    _fits,
    _split,
    _starts,
    _suit_cost,
    _suit_tables,
    _tables_for,
    may_meld_all,
    may_meld_card,
    meldable_discards,
)
from rummylib.arrangement import Requirement, arrange
from rummylib.cards import Card
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

#: Every card but the discard melded (Israeli rule 1.11).
_COMPLETE: Final = Requirement(complete=True)


def declarations(
    hand: Sequence[Card], rules: MeldRules, points: CardPoints, keep: Card | None = None
) -> tuple[tuple[Card, tuple[Meld, ...]], ...]:
    """Each natural card but ``keep`` whose discard leaves a complete hand, with its melds.

    In card index order; the melds are those :func:`~rummylib.arrangement.arrange` gives
    the rest of the hand. One call with ``discard=True`` rules most hands out at once.

    >>> from rummylib import CardPoints, MeldRules, parse_cards
    >>> hand = parse_cards("Ah 2h 3h 7c 7d 7s Kd *")
    >>> found = declarations(hand, MeldRules(joker_beside_ace=False), CardPoints())
    >>> [(str(card), [str(meld) for meld in melds]) for card, melds in found]
    [('Kd', ['7c 7d *=7h 7s', 'Ah 2h 3h'])]
    """
    allowed = sorted({card for card in hand if not card.is_joker and card != keep}, key=_index)
    if not allowed or (
        arrange(
            hand, rules, points, discard=True, can_discard=allowed.__contains__, require=_COMPLETE
        )
        is None
    ):
        return ()
    found = []
    for card in allowed:
        rest = list(hand)
        rest.remove(card)
        best = arrange(rest, rules, points, require=_COMPLETE)
        if best is not None:
            found.append((card, best.melds))
    return tuple(found)


def _index(card: Card) -> int:
    return card.index
