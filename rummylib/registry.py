"""The registry of variants: every game rummylib knows, built in or added by a plugin.

The built-in variants register themselves when :mod:`rummylib.variants` is imported (which
``import rummylib`` does). A package adds its own by declaring an entry point in the group
``rummylib.variants``::

    [project.entry-points."rummylib.variants"]
    knock7 = "mypackage.knock:KnockSeven"

Entry points are read on the first look-up, so installing the package is enough:
:func:`get_variant`, :func:`~rummylib.state.new_game`, :data:`VARIANTS` and
``rummylib variants`` all find the new variant. A plugin that cannot be loaded (an import
error, a class that is not a :class:`~rummylib.engine.Variant`, a name already taken) is left
out with a :class:`PluginWarning` naming its entry point; the other variants are unaffected.
:func:`register_variant` registers a class directly, for variants defined in a script.

>>> VARIANTS["rummy101"].name
'rummy101'
>>> get_variant("Rummy-101").elimination_threshold
101
"""

from __future__ import annotations

import importlib.metadata
import warnings
from collections.abc import Iterator, Mapping
from typing import Any, Final, TypeVar

import attrs

from rummylib.engine import Variant
from rummylib.errors import ConfigurationError, UnknownVariantError, shorten

__all__ = [
    "ENTRY_POINT_GROUP",
    "MAX_NAME_LENGTH",
    "VARIANTS",
    "PluginWarning",
    "get_variant",
    "register_variant",
    "with_settings",
]

#: The entry-point group that plugin packages declare their variants in.
ENTRY_POINT_GROUP: Final = "rummylib.variants"

#: The longest text :func:`get_variant` reads as a name; no registered name or alias comes
#: near it, so a longer one is refused without being read.
MAX_NAME_LENGTH: Final = 100

_V = TypeVar("_V", bound=type[Variant])


class PluginWarning(UserWarning):
    """A variant plugin could not be registered; the message names its entry point."""


def _fold(name: str) -> str:
    """A name as looked up: lower case, letters and digits only (``Rummy-101`` is ``rummy101``)."""
    return "".join(char for char in name.lower() if char.isalnum())


class _Registry(Mapping[str, type[Variant]]):
    """Variant classes by registered name; plugins are loaded on the first read."""

    def __init__(self, group: str = ENTRY_POINT_GROUP) -> None:
        self._group = group
        self._classes: dict[str, type[Variant]] = {}
        self._folded: dict[str, str] = {}  # folded name or alias -> registered name
        self._plugins_loaded = False

    def register(self, cls: type[Variant]) -> None:
        if not isinstance(cls, type) or not issubclass(cls, Variant):
            msg = f"only a Variant subclass can be registered, not {shorten(cls)}"
            raise ConfigurationError(msg)
        name = cls.name
        if not isinstance(name, str) or not name or _fold(name) != name.replace("_", ""):
            msg = (
                f"a variant's name must be lower-case letters, digits and '_', "
                f"not {shorten(name)} ({cls.__qualname__})"
            )
            raise ConfigurationError(msg)
        # Aliases belong to the class that declares them, not to its subclasses.
        aliases: tuple[str, ...] = cls.__dict__.get("aliases", ())
        keys = [_fold(name), *(_fold(alias) for alias in aliases)]
        for key in keys:
            taken = self._folded.get(key)
            if taken is not None and self._classes[taken] is not cls:
                msg = f"the name {key!r} of {cls.__qualname__} is taken by variant {taken!r}"
                raise ConfigurationError(msg)
        self._classes[name] = cls
        for key in keys:
            self._folded[key] = name

    def find(self, name: str) -> type[Variant] | None:
        self._load_plugins()
        registered = self._folded.get(_fold(name))
        return None if registered is None else self._classes[registered]

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for entry in importlib.metadata.entry_points(group=self._group):
            where = f"entry point {entry.name!r} ({entry.value}) of group {self._group!r}"
            try:
                cls = entry.load()
            except Exception as error:
                message = f"variant plugin left out: {where} failed to load: {error!r}"
                warnings.warn(message, PluginWarning, stacklevel=2)
                continue
            try:
                self.register(cls)
            except ConfigurationError as error:
                warnings.warn(
                    f"variant plugin left out: {where}: {error}", PluginWarning, stacklevel=2
                )

    def __getitem__(self, name: str) -> type[Variant]:
        self._load_plugins()
        return self._classes[name]

    def __iter__(self) -> Iterator[str]:
        self._load_plugins()
        return iter(sorted(self._classes))

    def __len__(self) -> int:
        self._load_plugins()
        return len(self._classes)

    def __repr__(self) -> str:
        return f"<variants: {', '.join(self)}>"


_REGISTRY: Final = _Registry()

#: Every registered variant class by name (built-in and plugin variants), read-only.
VARIANTS: Mapping[str, type[Variant]] = _REGISTRY


def register_variant(cls: _V) -> _V:
    """Register a variant class under its ``name`` (and ``aliases``); usable as a decorator.

    For a variant defined in a script or a notebook (a package declares an entry point
    instead)::

        @register_variant
        @attrs.frozen(kw_only=True)
        class Rummy151(Rummy101):
            name: ClassVar[str] = "rummy151"
            elimination_threshold: int = 151

    after which ``get_variant("rummy151")`` and ``new_game("rummy151", players=3)`` work.

    >>> register_variant(str)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: only a Variant subclass can be registered, not <class 'str'>

    Registering the same class again does nothing.

    Raises:
        ConfigurationError: ``cls`` is not a :class:`~rummylib.engine.Variant` subclass, its
            name is malformed, or its name or an alias is taken by another variant.
    """
    _REGISTRY.register(cls)
    return cls


def get_variant(name: str, /, **settings: Any) -> Variant:
    """The variant called ``name`` (any case; aliases allowed) with the given settings.

    ``name`` is positional only, so a setting called ``name`` is refused as unknown rather
    than mistaken for the variant's name.

    >>> get_variant("rummy101", stake=5).stake
    5
    >>> get_variant("carousel", name="x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: unknown setting 'name' for carousel; settings: ...

    Raises:
        UnknownVariantError: no variant has that name; the message lists the known ones.
        ConfigurationError: a setting is unknown or has a bad value.
    """
    if not isinstance(name, str):
        msg = f"variant name must be text, not {shorten(name)}"
        raise UnknownVariantError(msg)
    cls = _REGISTRY.find(name) if len(name) <= MAX_NAME_LENGTH else None
    if cls is None:
        msg = f"unknown variant {shorten(name)}; known: {', '.join(_REGISTRY)}"
        raise UnknownVariantError(msg)
    _check_setting_names(cls, settings)
    return cls(**settings)


def with_settings(variant: Variant, /, **settings: Any) -> Variant:
    """``variant`` with some settings changed (each checked as :func:`get_variant` checks it).

    >>> with_settings(get_variant("carousel"), target_score=100).target_score
    100

    Raises:
        ConfigurationError: a setting is unknown or has a bad value.
    """
    _check_setting_names(type(variant), settings)
    return attrs.evolve(variant, **settings)


def _check_setting_names(cls: type[Variant], settings: dict[str, Any]) -> None:
    known = {field.name for field in attrs.fields(cls) if field.init}
    unknown = sorted(set(settings) - known, key=str)
    if unknown:
        msg = (
            f"unknown setting {shorten(unknown[0])} for {cls.name}; "
            f"settings: {', '.join(sorted(known))}"
        )
        raise ConfigurationError(msg)
