"""The old home of :mod:`rummylib.engine`, kept so that existing imports keep working.

>>> from rummylib.variants.base import Variant
>>> from rummylib.engine import Variant as EngineVariant
>>> Variant is EngineVariant
True
"""

from __future__ import annotations

from rummylib.engine import (
    Phase,
    TurnClock,
    Variant,
    deal_cards,
    next_player,
    remove_cards,
    shuffled,
)

__all__ = [
    "Phase",
    "TurnClock",
    "Variant",
    "deal_cards",
    "next_player",
    "remove_cards",
    "shuffled",
]
