"""Validators and converters for settings (meld rules, card points, variant tables).

One place for the checks every settings class needs, so every bad value gets the same kind of
message: ``min_size must be a whole number of at least 2, not 1``.
"""

from __future__ import annotations

import enum
from typing import Any, TypeVar

import attrs

from rummylib.errors import ConfigurationError

_Choice = TypeVar("_Choice", bound=enum.Enum)


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
    except ValueError:
        allowed = ", ".join(repr(member.value) for member in values)
        msg = f"bad setting {value!r}: expected one of {allowed}"
        raise ConfigurationError(msg) from None


def whole(minimum: int, *, optional: bool = False, unit: str = "") -> Any:
    """A validator for whole-number settings of at least ``minimum``.

    With ``optional`` it also accepts ``None``; ``unit`` names what is counted in the message
    (``"points"``: "a whole number of points").
    """
    kind = f"a whole number of {unit}" if unit else "a whole number"
    if optional:
        kind = f"None or {kind}"

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if optional and value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            msg = f"{attribute.name} must be {kind} of at least {minimum}, not {value!r}"
            raise ConfigurationError(msg)

    return check


def flag(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A validator for True/False settings."""
    if not isinstance(value, bool):
        msg = f"{attribute.name} must be True or False, not {value!r}"
        raise ConfigurationError(msg)
