"""Validators and converters for settings (meld rules, card points, variant tables).

One place for the checks every settings class needs, so every bad value gets the same kind of
message: ``min_size must be a whole number of at least 2, not 1``, or with an upper bound
``decks must be a whole number from 1 to 4, not 10``.

Every numeric setting of a variant has an upper bound (review point R9: no setting may make a
table too large to hold or a game without end); the bounds shared by several variants are the
constants below, and each variant's rules page lists the range of each of its settings.
"""

from __future__ import annotations

import enum
from typing import Any, Final, TypeVar

import attrs

from rummylib.errors import ConfigurationError, shorten

__all__ = [
    "MAX_CARD_POINTS",
    "MAX_COUNT",
    "MAX_DECKS",
    "MAX_HAND_SIZE",
    "MAX_JOKERS",
    "MAX_JOKERS_PER_DECK",
    "MAX_MULTIPLE",
    "MAX_POINTS",
    "MAX_SECONDS",
    "Choice",
    "WholeRange",
    "check_range",
    "flag",
    "read_choice",
    "whole",
]

#: The most packs of 52 cards in a deck (R9).
MAX_DECKS: Final = 4
#: The most jokers per pack (R9: ``jokers`` from 0 to 8 times ``decks``).
MAX_JOKERS_PER_DECK: Final = 8
#: The most jokers in any deck.
MAX_JOKERS: Final = MAX_JOKERS_PER_DECK * MAX_DECKS
#: The most cards any hand can be dealt: the largest deck (240 cards) split in two. Each
#: variant also refuses a hand size its own deck cannot deal.
MAX_HAND_SIZE: Final = (52 * MAX_DECKS + MAX_JOKERS) // 2
#: The most points a single card may be worth.
MAX_CARD_POINTS: Final = 1_000
#: The most points of a score, threshold, target, bonus, pool or stake.
MAX_POINTS: Final = 1_000_000
#: The longest clock, in seconds (a day).
MAX_SECONDS: Final = 86_400
#: The largest multiple: a first-deal multiplier, a rebuy's multiple of the stake.
MAX_MULTIPLE: Final = 1_000
#: The most of a counted thing that ends a match or a deal (deals, go-arounds, rebuys,
#: auto-played turns).
MAX_COUNT: Final = 1_000

_Choice = TypeVar("_Choice", bound=enum.Enum)


class Choice(enum.Enum):
    """The base of an enum setting: the class itself is the setting's converter.

    Called with a value that is none of its members' values, it raises
    :class:`~rummylib.errors.ConfigurationError` listing them (``converter=TheEnum``).
    """

    @classmethod
    def _missing_(cls, value: object) -> Choice:
        allowed = ", ".join(repr(member.value) for member in cls)
        msg = f"bad setting {shorten(value)}: expected one of {allowed}"
        raise ConfigurationError(msg)


def read_choice(values: type[_Choice], value: object) -> _Choice:
    """Read an enum setting from its string value, for a class's named converters.

    >>> from rummylib.melds import AceRule
    >>> read_choice(AceRule, "wrap")
    <AceRule.WRAP: 'wrap'>
    >>> read_choice(AceRule, "middle")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: bad setting 'middle': expected one of 'low', 'high', ...
    """
    try:
        return values(value)
    except (ValueError, TypeError):
        allowed = ", ".join(repr(member.value) for member in values)
        msg = f"bad setting {shorten(value)}: expected one of {allowed}"
        raise ConfigurationError(msg) from None


@attrs.frozen
class WholeRange:
    """The validator :func:`whole` makes; its bounds say what values a setting takes.

    >>> whole(0, maximum=10).describe()
    '0 to 10'
    """

    minimum: int
    maximum: int | None = None
    optional: bool = False
    unit: str = ""

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if self.optional and value is None:
            return
        check_range(
            attribute.name,
            value,
            self.minimum,
            self.maximum,
            optional=self.optional,
            unit=self.unit,
        )

    def describe(self) -> str:
        """The values, as ``rummylib variants NAME`` lists them: ``1 to 1000000, null``."""
        values = (
            f"{self.minimum} or more"
            if self.maximum is None
            else (f"{self.minimum} to {self.maximum}")
        )
        return f"{values}, null" if self.optional else values


def whole(
    minimum: int, *, maximum: int | None = None, optional: bool = False, unit: str = ""
) -> WholeRange:
    """A validator for whole-number settings from ``minimum`` to ``maximum`` (if given).

    With ``optional`` it also accepts ``None``; ``unit`` names what is counted in the message
    (``"points"``: "a whole number of points"). ``True`` and ``False`` are not numbers here.

    >>> import attrs
    >>> @attrs.frozen
    ... class Table:
    ...     decks: int = attrs.field(default=2, validator=whole(1, maximum=4))
    >>> Table(4).decks
    4
    >>> Table(0)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: decks must be a whole number from 1 to 4, not 0
    """
    return WholeRange(minimum, maximum, optional, unit)


def check_range(
    name: str,
    value: object,
    minimum: int,
    maximum: int | None = None,
    *,
    optional: bool = False,
    unit: str = "",
) -> None:
    """Refuse ``value`` unless it is a whole number from ``minimum`` to ``maximum``.

    For bounds that depend on another setting, which a field validator cannot see.

    >>> check_range("jokers", 20, 0, 16)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: jokers must be a whole number from 0 to 16, not 20
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < minimum
        or (maximum is not None and value > maximum)
    ):
        kind = f"a whole number of {unit}" if unit else "a whole number"
        if optional:
            kind = f"None or {kind}"
        allowed = f"of at least {minimum}" if maximum is None else f"from {minimum} to {maximum}"
        msg = f"{name} must be {kind} {allowed}, not {shorten(value)}"
        raise ConfigurationError(msg)


def flag(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A validator for True/False settings."""
    if not isinstance(value, bool):
        msg = f"{attribute.name} must be True or False, not {shorten(value)}"
        raise ConfigurationError(msg)
