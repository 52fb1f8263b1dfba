"""The built-in variants, registered in :mod:`rummylib.registry` when this package is imported.

The registry's names are re-exported here, where they have always been importable:

>>> from rummylib.variants import get_variant
>>> get_variant("Rummy-101").elimination_threshold
101
>>> get_variant("rummy101", stake=5).stake
5
>>> get_variant("canasta")
Traceback (most recent call last):
...
rummylib.errors.UnknownVariantError: unknown variant 'canasta'; known: carousel, gin, ...
>>> get_variant("carousel", name="x")
Traceback (most recent call last):
...
rummylib.errors.ConfigurationError: unknown setting 'name' for carousel; settings: ...
"""

from __future__ import annotations

from rummylib.engine import Variant
from rummylib.registry import VARIANTS, get_variant, register_variant
from rummylib.variants.carousel import Carousel
from rummylib.variants.gin import GinRummy
from rummylib.variants.israeli import IsraeliRummy, Rummy71, Rummy101
from rummylib.variants.turkish import Rummy500, Turkish300, Turkish500, Turkish500Cutthroat

__all__ = [
    "VARIANTS",
    "GinRummy",
    "IsraeliRummy",
    "Rummy71",
    "Rummy101",
    "Variant",
    "get_variant",
    "register_variant",
]

for _builtin in (
    Rummy71,
    Rummy101,
    Carousel,
    Turkish500,
    Turkish300,
    Turkish500Cutthroat,
    Rummy500,
    GinRummy,
):
    register_variant(_builtin)
