"""rummylib: the rules of rummy games, exactly and fast.

>>> import rummylib
>>> rummylib.is_meld(rummylib.parse_cards("Ah 2h * 4h"), rummylib.MeldRules())
True

``import rummylib`` imports nothing but this list of names: each name is imported with its
module on first use (:pep:`562`), so a program pays only for what it uses. The variants are
imported one by one on their first look-up (:mod:`rummylib.registry`), and so is the
arrangement solver (:mod:`rummylib.arrangement`).

>>> hand = rummylib.parse_cards("7h 7s 7d Kc")
>>> rummylib.arrange(hand, rummylib.MeldRules(), rummylib.CardPoints()).deadwood_points
10
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rummylib._lazy import lazy_names

if TYPE_CHECKING:  # what __getattr__ gives, for type checkers and readers
    from rummylib.arrangement import Arrangement, Requirement, arrange
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
    "Requirement",
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

#: The modules of the public names, each with the names it gives.
_MODULES: Final = {
    "rummylib.arrangement": ("Arrangement", "Requirement", "arrange"),
    "rummylib.cards": (
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
    ),
    "rummylib.errors": (
        "ConfigurationError",
        "IllegalActionError",
        "InvalidMeldError",
        "NotationError",
        "RummyError",
        "UnknownVariantError",
    ),
    "rummylib.melds": (
        "AceRule",
        "Meld",
        "MeldKind",
        "MeldRules",
        "find_melds",
        "is_meld",
        "parse_meld",
    ),
    "rummylib.scoring": ("CardPoints", "DealResult", "MatchResult", "ScoreLine", "hand_points"),
    "rummylib.state": ("GameState", "Phase", "new_game", "stack_deck"),
    "rummylib.variants": ("VARIANTS", "Variant", "get_variant"),
    "rummylib.views": ("Observation",),
}
#: Each public name with the module that defines it.
_LAZY: Final = {name: module for module, names in _MODULES.items() for name in names}
#: The modules that ``import rummylib`` used to import, still reachable as attributes
#: (``rummylib.state.GameState``) without an import of their own.
_SUBMODULES: Final = frozenset(
    {
        "actions",
        "arrangement",
        "cards",
        "engine",
        "errors",
        "melds",
        "registry",
        "scoring",
        "state",
        "table",
        "variants",
        "views",
    }
)


#: The package's ``__getattr__`` (names imported on first use) and ``__dir__``.
__getattr__, __dir__ = lazy_names(__name__, _LAZY, _SUBMODULES, globals())
