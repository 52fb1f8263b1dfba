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

__all__ = [
    "ConfigurationError",
    "IllegalActionError",
    "InvalidMeldError",
    "NotationError",
    "RummyError",
    "UnknownVariantError",
]


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
