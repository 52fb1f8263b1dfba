"""Meld rules, melds, and finding the melds in a hand.

A meld is a **group** (cards of one rank, by default all suits different) or a **run**
(consecutive cards of one suit). Jokers are wild: each stands for exactly one card, the one its
position implies. :class:`MeldRules` holds the constraints that differ between variants.

>>> from rummylib import AceRule, Meld, MeldRules, parse_cards, parse_meld
>>> israeli = MeldRules(joker_beside_ace=False)
>>> print(Meld.from_cards(parse_cards("* 2h 3h"), israeli))
2h 3h *=4h
>>> is_meld(parse_cards("Ah * 3h"), israeli)
False
"""

from __future__ import annotations

from rummylib.melds._extend import Extension, extensions
from rummylib.melds._extend import extension_cards as extension_cards
from rummylib.melds._find import canonical_melds, find_melds
from rummylib.melds._rules import (
    AceRule,
    Meld,
    MeldKind,
    MeldRules,
    RunEnd,
    is_meld,
    parse_meld,
)
from rummylib.melds._rules import (
    rank_at as rank_at,
)
from rummylib.melds._rules import (
    reading_of as reading_of,
)
from rummylib.melds._rules import (
    wild_bits as wild_bits,
)
from rummylib.melds._rules import (
    wild_cards as wild_cards,
)
from rummylib.melds._rules import (
    without_wild as without_wild,
)

__all__ = [
    "AceRule",
    "Extension",
    "Meld",
    "MeldKind",
    "MeldRules",
    "RunEnd",
    "canonical_melds",
    "extensions",
    "find_melds",
    "is_meld",
    "parse_meld",
]
