"""Hypothesis plugin: rummylib's type strategies, registered through Hypothesis's entry point.

``pyproject.toml`` declares ``setup`` in the entry-point group ``hypothesis``; Hypothesis calls
it once, at the end of ``import hypothesis``. It registers a strategy for each of
:data:`REGISTERED_TYPES`, so ``st.from_type(Card)`` and ``@given`` with type annotations work
once rummylib is installed, with no import of :mod:`rummylib.strategies`.

Registration is lazy twice over. ``import rummylib`` never imports this module (nor
Hypothesis): only Hypothesis does. And this module registers *resolvers*, functions Hypothesis
calls the first time it needs a strategy for one of the types; only then is
:mod:`rummylib.strategies` imported, to build it (:func:`~rummylib.strategies.for_type`).
Setting ``HYPOTHESIS_NO_PLUGINS`` turns every Hypothesis plugin off, this one included.

>>> from hypothesis import find, settings
>>> from hypothesis import strategies as st
>>> fixed = settings(database=None, max_examples=1000, derandomize=True)  # jokers are 1 in 53
>>> find(st.from_type(Card), lambda card: card.is_joker, settings=fixed)
Card.parse('*')
"""

from __future__ import annotations

import contextlib
import importlib
import typing
from typing import TYPE_CHECKING, Any, Final

from rummylib.actions import ACTION_TYPES, PlayerAction, on_register
from rummylib.cards import Card
from rummylib.engine import Variant
from rummylib.errors import ConfigurationError
from rummylib.melds import Meld, MeldRules
from rummylib.scoring import CardPoints
from rummylib.state import GameState
from rummylib.views import Observation

if TYPE_CHECKING:
    from hypothesis import strategies as st

__all__ = ["REGISTERED_TYPES", "setup"]

#: Every type this plugin registers a strategy for when Hypothesis loads it; an action class
#: registered later (a plugin's, with :func:`~rummylib.actions.register_action`) gets its
#: strategy as it is registered.
REGISTERED_TYPES: Final[tuple[type[Any], ...]] = (
    Card,
    Meld,
    MeldRules,
    CardPoints,
    Variant,
    GameState,
    Observation,
    PlayerAction,
    *ACTION_TYPES.values(),
)


def _resolve(thing: type[Any]) -> st.SearchStrategy[Any]:
    """The strategy for ``thing``, built by :mod:`rummylib.strategies` on first use.

    Hypothesis also asks for types that are not rummylib's: a base class (``object``,
    ``Hashable``) gathers the strategies registered for its subclasses, asking each resolver.
    The answer for those is ``NotImplemented``, which leaves them to Hypothesis.

    The module is looked up by name here, not imported at the top: this function runs only
    when Hypothesis first needs the strategy, which keeps ``import hypothesis`` (which loads
    this plugin) from importing :mod:`rummylib.strategies`, a module that imports Hypothesis.
    """
    target = typing.get_origin(thing) or thing
    if isinstance(target, type) and issubclass(target, REGISTERED_TYPES):
        strategies = importlib.import_module("rummylib.strategies")
        with contextlib.suppress(ConfigurationError):  # a class it has no strategy for
            strategy: st.SearchStrategy[Any] = strategies.for_type(target)
            return strategy
    # Hypothesis's signal to resolve the type some other way (typed as a strategy there).
    return typing.cast("st.SearchStrategy[Any]", NotImplemented)


def setup() -> None:
    """Register a resolver for each of :data:`REGISTERED_TYPES` (Hypothesis calls this).

    Calling it again registers the same resolvers again, which changes nothing.

    >>> from hypothesis import strategies as st
    >>> setup()
    >>> st.from_type(MeldRules).is_empty
    False
    """
    # Imported here, not at the top: Hypothesis runs this hook while ``import hypothesis`` is
    # still going on, and a module that imported Hypothesis at its top would then be loaded
    # half-initialised when it is imported first (by pytest's doctest collection, say).
    from hypothesis import strategies as st  # noqa: PLC0415  (see above)

    for thing in (*REGISTERED_TYPES, *ACTION_TYPES.values()):
        st.register_type_strategy(thing, _resolve)
    on_register(_register_later)


def _register_later(cls: type[PlayerAction]) -> None:
    from hypothesis import strategies as st  # noqa: PLC0415  (loaded: setup ran)

    st.register_type_strategy(cls, _resolve)
