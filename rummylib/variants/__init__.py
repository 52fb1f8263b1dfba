"""The registry of variants.

>>> from rummylib.variants import get_variant
>>> get_variant("Rummy-101").elimination_threshold
101
>>> get_variant("rummy101", stake=5).stake
5
>>> get_variant("gin")
Traceback (most recent call last):
...
rummylib.errors.UnknownVariantError: unknown variant 'gin'; known: ...rummy101, rummy500, ...
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from rummylib.errors import UnknownVariantError
from rummylib.variants.base import Variant
from rummylib.variants.carousel import Carousel
from rummylib.variants.israeli import IsraeliRummy, Rummy71, Rummy101
from rummylib.variants.turkish import Rummy500, Turkish300, Turkish500, Turkish500Cutthroat

__all__ = ["VARIANTS", "IsraeliRummy", "Rummy71", "Rummy101", "Variant", "get_variant"]

#: Every registered variant class by name.
VARIANTS: Mapping[str, type[Variant]] = MappingProxyType(
    {
        cls.name: cls
        for cls in (
            Rummy71,
            Rummy101,
            Carousel,
            Turkish500,
            Turkish300,
            Turkish500Cutthroat,
            Rummy500,
        )
    }
)

_ALIASES: Mapping[str, str] = MappingProxyType(
    {alias: cls.name for cls in VARIANTS.values() for alias in cls.aliases}
)


def _fold(name: str) -> str:
    return "".join(char for char in name.lower() if char.isalnum() or char == "_")


def get_variant(name: str, **settings: Any) -> Variant:
    """The variant called ``name`` (any case; aliases allowed) with the given settings.

    Raises:
        UnknownVariantError: no variant has that name; the message lists the known ones.
        ConfigurationError: a setting is unknown or has a bad value.
    """
    if not isinstance(name, str):
        msg = f"variant name must be text, not {name!r}"
        raise UnknownVariantError(msg)
    folded = _fold(name).replace("_", "")
    for known, cls in VARIANTS.items():
        if folded == known.replace("_", ""):
            return _build(cls, settings)
    for alias, known in _ALIASES.items():
        if folded == _fold(alias).replace("_", ""):
            return _build(VARIANTS[known], settings)
    msg = f"unknown variant {name!r}; known: {', '.join(sorted(VARIANTS))}"
    raise UnknownVariantError(msg)


def _build(cls: type[Variant], settings: dict[str, Any]) -> Variant:
    import attrs  # noqa: PLC0415

    from rummylib.errors import ConfigurationError  # noqa: PLC0415

    known = {field.name for field in attrs.fields(cls) if field.init}
    unknown = sorted(set(settings) - known)
    if unknown:
        msg = f"unknown setting {unknown[0]!r} for {cls.name}; settings: {', '.join(sorted(known))}"
        raise ConfigurationError(msg)
    return cls(**settings)
