"""The exception hierarchy of rummylib.

Every error rummylib raises is a :class:`RummyError`, and each one also subclasses the
builtin exception a caller who never heard of rummylib would expect, so ``except ValueError``
keeps working.

>>> from rummylib import parse_card
>>> try:
...     parse_card("1x")
... except ValueError as error:
...     print(error)
bad card '1x': unknown rank '1'
"""

from __future__ import annotations

import reprlib
from typing import Final

__all__ = [
    "ConfigurationError",
    "IllegalActionError",
    "InvalidMeldError",
    "NotationError",
    "RummyError",
    "UnknownVariantError",
    "shorten",
]

#: How many characters of an input :func:`shorten` keeps by default.
SHORTEN_LIMIT: Final = 80


class _ShortRepr(reprlib.Repr):
    """A :mod:`reprlib` repr that never builds the text of a huge number."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() <= 256:
            return super().repr_int(x, level)
        digits = int(x.bit_length() * 0.30103) + 1
        sign = "negative " if x < 0 else ""
        return f"<a {sign}number of about {digits} digits>"


def _short_repr(limit: int) -> _ShortRepr:
    short = _ShortRepr()
    short.maxlevel = 3
    short.maxstring = short.maxother = short.maxlong = limit
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = short.maxfrozenset = 8
    short.maxdeque = short.maxarray = 8
    return short


def shorten(value: object, limit: int = SHORTEN_LIMIT) -> str:
    """The repr of ``value`` for an error message, cut after about ``limit`` characters.

    Error messages name the input they refuse; :func:`shorten` keeps a huge input (a 10 MB
    name, a number of a million digits, a deeply nested list) from making a huge message. A
    cut text ends with "…" and says how long the input was. It never raises.

    >>> shorten("rummy101")
    "'rummy101'"
    >>> shorten("x" * 1000, limit=10)
    "'xxxxxxxxxx'… (1000 characters)"
    >>> shorten(10**1000)
    '<a number of about 1001 digits>'
    >>> shorten([[[[[1]]]]])
    '[[[[...]]]]'
    """
    try:
        if isinstance(value, str | bytes | bytearray):
            if len(value) <= limit:
                return repr(value)
            unit = "characters" if isinstance(value, str) else "bytes"
            return f"{value[:limit]!r}… ({len(value)} {unit})"
        text = _short_repr(limit).repr(value)
        if len(text) > limit + 20:
            text = f"{text[:limit]}…"
        return text
    except Exception:  # a message must never fail because of its input
        return f"<{type(value).__name__}>"


class RummyError(Exception):
    """Base class of every error raised by rummylib.

    >>> issubclass(NotationError, RummyError)
    True
    """


class NotationError(RummyError, ValueError):
    """Card or meld text that cannot be read; the message names the bad token.

    >>> from rummylib import parse_cards
    >>> parse_cards("7h 8z")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad card '8z': unknown suit 'z'
    """


class InvalidMeldError(RummyError, ValueError):
    """Cards that do not form a meld under the given rules; the message says why.

    >>> from rummylib import Meld, MeldRules, parse_cards
    >>> Meld.from_cards(parse_cards("7h 8h"), MeldRules())
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidMeldError: 7h 8h is not a meld: too few cards (2, at least 3)
    """

    @property
    def reason(self) -> str:
        """The message after ``is not a meld:``, which says why without the cards (or all of it).

        >>> InvalidMeldError("7h 8h is not a meld: too few cards (2, at least 3)").reason
        'too few cards (2, at least 3)'
        """
        message = str(self)
        _, found, reason = message.partition(" is not a meld: ")
        return reason if found else message


class IllegalActionError(RummyError, ValueError):
    """An action that the rules do not allow in the current state.

    The state it was tried on is left unchanged.

    >>> issubclass(IllegalActionError, ValueError)
    True
    """


class ConfigurationError(RummyError, ValueError):
    """A bad setting for a rule set, a scoring table or a variant.

    >>> from rummylib import MeldRules
    >>> MeldRules(min_size=5, max_group_size=4)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: max_group_size 4 is below min_size 5
    """


class UnknownVariantError(RummyError, LookupError):
    """A variant name that is not registered; the message lists the known names.

    >>> issubclass(UnknownVariantError, LookupError)
    True
    """
