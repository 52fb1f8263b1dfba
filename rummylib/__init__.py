"""rummylib: the rules of rummy games, exactly and fast.

>>> import rummylib
>>> rummylib.is_meld(rummylib.parse_cards("Ah 2h * 4h"), rummylib.MeldRules())
True
"""

from __future__ import annotations

from rummylib.cards import (
    JOKER,
    Card,
    Rank,
    Suit,
    format_cards,
    make_deck,
    parse_card,
    parse_cards,
    sort_by_rank,
    sort_by_suit,
)
from rummylib.errors import (
    ConfigurationError,
    IllegalActionError,
    InvalidMeldError,
    NotationError,
    RummyError,
    UnknownVariantError,
)
from rummylib.melds import AceRule, Meld, MeldKind, MeldRules, find_melds, is_meld, parse_meld
from rummylib.scoring import CardPoints, hand_points

__all__ = [
    "JOKER",
    "AceRule",
    "Card",
    "CardPoints",
    "ConfigurationError",
    "IllegalActionError",
    "InvalidMeldError",
    "Meld",
    "MeldKind",
    "MeldRules",
    "NotationError",
    "Rank",
    "RummyError",
    "Suit",
    "UnknownVariantError",
    "find_melds",
    "format_cards",
    "hand_points",
    "is_meld",
    "make_deck",
    "parse_card",
    "parse_cards",
    "parse_meld",
    "sort_by_rank",
    "sort_by_suit",
]

__version__ = "0.1.0"
