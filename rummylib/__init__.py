"""rummylib: the rules of rummy games, exactly and fast.

>>> import rummylib
>>> rummylib.is_meld(rummylib.parse_cards("Ah 2h * 4h"), rummylib.MeldRules())
True
"""

from __future__ import annotations

from rummylib.arrangement import Arrangement, arrange
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
from rummylib.scoring import CardPoints, DealResult, MatchResult, ScoreLine, hand_points
from rummylib.state import GameState, Phase, new_game, stack_deck
from rummylib.variants import VARIANTS, Variant, get_variant
from rummylib.views import Observation

__all__ = [
    "JOKER",
    "VARIANTS",
    "AceRule",
    "Arrangement",
    "Card",
    "CardPoints",
    "ConfigurationError",
    "DealResult",
    "GameState",
    "IllegalActionError",
    "InvalidMeldError",
    "MatchResult",
    "Meld",
    "MeldKind",
    "MeldRules",
    "NotationError",
    "Observation",
    "Phase",
    "Rank",
    "RummyError",
    "ScoreLine",
    "Suit",
    "UnknownVariantError",
    "Variant",
    "arrange",
    "find_melds",
    "format_cards",
    "get_variant",
    "hand_points",
    "is_meld",
    "make_deck",
    "new_game",
    "parse_card",
    "parse_cards",
    "parse_meld",
    "sort_by_rank",
    "sort_by_suit",
    "stack_deck",
]

__version__ = "0.1.0"
