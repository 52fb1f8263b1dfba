"""The built-in variants, one module each, and the registry's names where they have always been.

:mod:`rummylib.registry` knows every built-in variant by name and imports its module on the
first look-up, so importing this package imports no variant module. The variant classes are
still importable from here (``from rummylib.variants import Rummy101``): the first use of one
imports its module. The registry's names are re-exported too:

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
>>> from rummylib.variants import Turkish300
>>> Turkish300.name
'turkish300'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rummylib._lazy import lazy_names
from rummylib.engine import Variant
from rummylib.registry import VARIANTS, get_variant, register_variant

if TYPE_CHECKING:  # what __getattr__ gives, for type checkers (the ``as`` ones as before)
    from rummylib.variants.carousel import Carousel as Carousel
    from rummylib.variants.gin import GinRummy
    from rummylib.variants.indian import IndianDeals as IndianDeals
    from rummylib.variants.indian import IndianPoints as IndianPoints
    from rummylib.variants.indian import IndianPool101 as IndianPool101
    from rummylib.variants.indian import IndianPool201 as IndianPool201
    from rummylib.variants.indian import IndianRummy as IndianRummy
    from rummylib.variants.israeli import IsraeliRummy, Rummy71, Rummy101
    from rummylib.variants.rummikub import Rummikub as Rummikub
    from rummylib.variants.turkish import Rummy500 as Rummy500
    from rummylib.variants.turkish import Turkish300 as Turkish300
    from rummylib.variants.turkish import Turkish500 as Turkish500
    from rummylib.variants.turkish import Turkish500Cutthroat as Turkish500Cutthroat

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

#: The names this package gives on first use, each with the module that defines it.
_LAZY: Final = {
    "Carousel": "rummylib.variants.carousel",
    "GinRummy": "rummylib.variants.gin",
    "IndianDeals": "rummylib.variants.indian",
    "IndianPoints": "rummylib.variants.indian",
    "IndianPool101": "rummylib.variants.indian",
    "IndianPool201": "rummylib.variants.indian",
    "IndianRummy": "rummylib.variants.indian",
    "IsraeliRummy": "rummylib.variants.israeli",
    "Rummy71": "rummylib.variants.israeli",
    "Rummy101": "rummylib.variants.israeli",
    "Rummikub": "rummylib.variants.rummikub",
    "Rummy500": "rummylib.variants.turkish",
    "Turkish300": "rummylib.variants.turkish",
    "Turkish500": "rummylib.variants.turkish",
    "Turkish500Cutthroat": "rummylib.variants.turkish",
}
#: The variant modules, which ``rummylib.variants.<module>`` reaches without importing it first.
_MODULES: Final = frozenset({"carousel", "gin", "indian", "israeli", "rummikub", "turkish"})


#: The package's ``__getattr__`` (names imported on first use) and ``__dir__``.
__getattr__, __dir__ = lazy_names(__name__, _LAZY, _MODULES, globals())
