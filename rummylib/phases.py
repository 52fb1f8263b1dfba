"""Phases: what a game is waiting for.

The core :class:`Phase` holds the phases every game has; a variant declares the phases of its
own rules as a :class:`PhaseBase` subclass in its module. Phase values are unique across every
phase enum, so a phase reads back from its value whichever enum declares it.
:mod:`rummylib.engine` re-exports these names, their documented home.

>>> Phase("draw") is Phase.DRAW
True
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, ClassVar, Final

__all__ = ["Phase", "PhaseBase", "add_phase_source"]


class _PhaseType(enum.EnumType):
    """Phase enums share one namespace of values, so every phase reads back from its value."""

    _members: ClassVar[dict[str, PhaseBase]] = {}

    def __new__(
        metacls, cls: str, bases: tuple[type, ...], classdict: Any, **kwds: Any
    ) -> _PhaseType:
        made = super().__new__(metacls, cls, bases, classdict, **kwds)
        member: PhaseBase
        for member in made.__members__.values():
            metacls._members.setdefault(member.name, member)
            metacls._members.setdefault(member.value, member)
        return made

    def __call__(cls, value: Any, *args: Any, **kwds: Any) -> Any:
        try:
            return super().__call__(value, *args, **kwds)
        except ValueError:
            found = _known_phase(value) if not args and not kwds else None
            if found is None:
                raise
            return found

    def __getattr__(cls, name: str) -> PhaseBase:
        # Only reached when ordinary lookup fails: ``Phase.FRISH_VOTE`` (a phase that moved to
        # its variant's enum) still names it, as it did when every phase was a member of Phase.
        found = None if name.startswith("_") or not name.isupper() else _known_phase(name)
        if found is None:
            raise AttributeError(name)
        return found


#: Run once each, the first time a phase name is asked for that no phase enum imported so far
#: declares: the variant registry adds one that imports the built-in variants (which are
#: imported on first use), so ``Phase.FRISH_VOTE`` works before any Israeli game is made.
_PHASE_SOURCES: Final[list[Callable[[], object]]] = []


def add_phase_source(source: Callable[[], object]) -> None:
    """Have ``source`` run once, when a phase name no imported enum declares is looked up."""
    _PHASE_SOURCES.append(source)


def _known_phase(key: object) -> PhaseBase | None:
    if not isinstance(key, str):
        return None
    while key not in _PhaseType._members and _PHASE_SOURCES:
        _PHASE_SOURCES.pop()()
    return _PhaseType._members.get(key)


class PhaseBase(enum.Enum, metaclass=_PhaseType):
    """The base of every phase enum: what a game is waiting for.

    The core :class:`Phase` holds the phases every game has; a variant declares the phases of
    its own rules as a subclass in its module (``IsraeliPhase.FRISH_VOTE``,
    ``CarouselPhase.KNOCK_CHOICE``, ``GinPhase.FIRST_UPCARD``). Values are unique across all
    phase enums, so ``Phase("frish_vote")`` and ``Phase.FRISH_VOTE`` still name a phase that
    moved to its variant.

    >>> Phase("frish_vote").__class__.__name__, Phase.FRISH_VOTE.value
    ('IsraeliPhase', 'frish_vote')
    """

    # A phase is one object compared by identity: hash it by identity too, in C. (Enum's own
    # __hash__ hashes the name in Python, and the engine looks the phase up in every listing.)
    __hash__ = object.__hash__


class Phase(PhaseBase):
    """The phases every rummy game has.

    >>> Phase("draw")
    <Phase.DRAW: 'draw'>
    """

    #: The current player must take a card.
    DRAW = "draw"
    #: The current player has taken a card and now melds, discards or declares.
    PLAY = "play"
    #: The match is over; :attr:`~rummylib.state.GameState.result` says how it ended.
    MATCH_OVER = "match_over"
