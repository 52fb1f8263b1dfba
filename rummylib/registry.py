"""The registry of variants: every game rummylib knows, built in or added by a plugin.

The built-in variants are registered by name here, each with the module that defines it, and a
module is imported on the first look-up of one of its variants (``import rummylib`` imports
none of them): :func:`get_variant` and ``VARIANTS[name]`` import the one module they need, and
so do ``VARIANTS.values()`` and ``VARIANTS.items()`` for all. Listing the names
(``list(VARIANTS)``, ``name in VARIANTS``) imports nothing. A package adds its own variants by
declaring an entry point in the group ``rummylib.variants``::

    [project.entry-points."rummylib.variants"]
    knock7 = "mypackage.knock:KnockSeven"

Entry points are read on the first look-up (or listing), so installing the package is enough:
:func:`get_variant`, :func:`~rummylib.state.new_game`, :data:`VARIANTS` and
``rummylib variants`` all find the new variant. A plugin that cannot be loaded (an import
error, a class that is not a :class:`~rummylib.engine.Variant`, a name already taken) is left
out with a :class:`PluginWarning` naming its entry point; the other variants are unaffected.
That holds for anything a plugin raises while it is imported, :class:`SystemExit` included
(only :class:`KeyboardInterrupt` goes through).
A plugin cannot take the name or an alias of a built-in variant, imported yet or not.
:func:`register_variant` registers a class directly, for variants defined in a script.

>>> VARIANTS["rummy101"].name
'rummy101'
>>> get_variant("Rummy-101").elimination_threshold
101
"""

from __future__ import annotations

import enum
import importlib
import threading
import warnings
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar

import attrs

from rummylib.actions import action_classes
from rummylib.engine import Variant, add_phase_source
from rummylib.errors import ConfigurationError, UnknownVariantError, shorten

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

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


#: The built-in variants: registered name -> (``"module:Class"``, the aliases that class
#: declares). A module is imported on the first look-up of one of its variants; the names and
#: aliases are taken from the start, so that no plugin can claim one. tests/test_import.py holds
#: this table to the classes themselves.
_BUILT_IN: Final[Mapping[str, tuple[str, tuple[str, ...]]]] = {
    "rummy71": ("rummylib.variants.israeli:Rummy71", ("rami71", "israeli71")),
    "rummy101": ("rummylib.variants.israeli:Rummy101", ("rami101", "israeli101", "israeli")),
    "carousel": ("rummylib.variants.carousel:Carousel", ("manipulation_rummy", "vrtuljak")),
    "turkish500": ("rummylib.variants.turkish:Turkish500", ("turkish", "500_remi")),
    "turkish300": ("rummylib.variants.turkish:Turkish300", ("300_remi",)),
    "turkish500_cutthroat": (
        "rummylib.variants.turkish:Turkish500Cutthroat",
        ("500_acimasiz", "turkish_cutthroat"),
    ),
    "rummy500": ("rummylib.variants.turkish:Rummy500", ("500_rum", "rum500", "500rummy")),
    "gin": ("rummylib.variants.gin:GinRummy", ("gin_rummy",)),
    "indian_points": (
        "rummylib.variants.indian:IndianPoints",
        ("indian", "points_rummy", "indian_rummy"),
    ),
    "indian_pool101": ("rummylib.variants.indian:IndianPool101", ("pool101", "pool_rummy")),
    "indian_pool201": ("rummylib.variants.indian:IndianPool201", ("pool201",)),
    "indian_deals": ("rummylib.variants.indian:IndianDeals", ("deals_rummy",)),
    "rummikub": ("rummylib.variants.rummikub:Rummikub", ("rummy_tiles",)),
}


class PluginWarning(UserWarning):
    """A variant plugin could not be registered; the message names its entry point."""


def _fold(name: str) -> str:
    """A name as looked up: lower case, letters and digits only (``Rummy-101`` is ``rummy101``)."""
    return "".join(char for char in name.lower() if char.isalnum())


def _entry_points(group: str) -> tuple[EntryPoint, ...]:
    """The installed entry points of ``group``.

    :mod:`importlib.metadata` is imported here, on the first look-up, rather than with this
    module: importing it takes about 30 ms (issue #12), more than the engine core.
    """
    import importlib.metadata  # noqa: PLC0415  (deferred on purpose, see above)

    return tuple(importlib.metadata.entry_points(group=group))


class _Registry(Mapping[str, type[Variant]]):
    """Variant classes by registered name; plugins are loaded on the first read.

    ``built_in`` names variants by ``"module:Class"`` (as ``_BUILT_IN`` does); each is
    imported on its first look-up. A registry made with a group of its own and no
    ``built_in`` (as the tests make) holds only what is registered into it.
    """

    def __init__(
        self,
        group: str = ENTRY_POINT_GROUP,
        built_in: Mapping[str, tuple[str, tuple[str, ...]]] | None = None,
    ) -> None:
        self._group = group
        self._classes: dict[str, type[Variant]] = {}  # registered name -> class, once imported
        self._folded: dict[str, str] = {}  # folded name or alias -> registered name
        self._built_in: dict[str, str] = {}  # registered name -> "module:Class"
        self._plugins_loaded = False
        self._plugins_loading = False
        # Held while the plugins load: another thread waits for all of them, and a plugin
        # that looks a variant up while it is being imported (the same thread) goes on.
        self._plugin_lock = threading.RLock()
        for name, (where, aliases) in (built_in or {}).items():
            keys = [_fold(name), *(_fold(alias) for alias in aliases)]
            for key in keys:
                if key in self._folded:
                    msg = f"the name {key!r} of {where} is taken by variant {self._folded[key]!r}"
                    raise ConfigurationError(msg)
            self._built_in[name] = where
            for key in keys:
                self._folded[key] = name

    def _holds(self, name: str, cls: type[Variant]) -> bool:
        """Whether ``cls`` may be registered as ``name``, which is taken.

        It may if it is the class registered (a built-in one, imported or not), or that class
        defined again by the same code (a notebook cell run again).
        """
        registered = self._classes.get(name)
        if registered is not None:
            return registered is cls or (
                name not in self._built_in
                and (registered.__module__, registered.__qualname__)
                == (cls.__module__, cls.__qualname__)
            )
        return self._built_in.get(name) == f"{cls.__module__}:{cls.__qualname__}"

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
        declared: Mapping[object, Iterable[type]] = getattr(cls, "phase_actions", {})
        for kinds in declared.values():
            for kind in kinds:
                if kind not in action_classes():
                    msg = (
                        f"{cls.__qualname__} allows {getattr(kind, '__name__', shorten(kind))}, "
                        "an action class that is not registered: decorate it with "
                        "rummylib.actions.register_action"
                    )
                    raise ConfigurationError(msg)
        # Aliases belong to the class that declares them, not to its subclasses.
        aliases: tuple[str, ...] = cls.__dict__.get("aliases", ())
        keys = [_fold(name), *(_fold(alias) for alias in aliases)]
        for key in keys:
            taken = self._folded.get(key)
            if taken is not None and not self._holds(taken, cls):
                msg = f"the name {key!r} of {cls.__qualname__} is taken by variant {taken!r}"
                raise ConfigurationError(msg)
        if self._classes.get(name) is cls:
            return  # the identical class again: nothing changes
        # A class defined again replaces the old one, with the aliases it declares now.
        for key in [key for key, held in self._folded.items() if held == name]:
            if key not in keys and name not in self._built_in:
                del self._folded[key]
        self._classes[name] = cls
        for key in keys:
            self._folded[key] = name

    def _class(self, name: str) -> type[Variant]:
        """The class registered as ``name``, importing a built-in one's module the first time.

        Raises:
            KeyError: no variant is registered as ``name``.
        """
        cls = self._classes.get(name)
        if cls is not None:
            return cls
        module, _, qualname = self._built_in[name].partition(":")
        cls = getattr(importlib.import_module(module), qualname)
        self.register(cls)
        return self._classes[name]

    def find(self, name: str) -> type[Variant] | None:
        self._load_plugins()
        registered = self._folded.get(_fold(name))
        return None if registered is None else self._class(registered)

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        with self._plugin_lock:
            if self._plugins_loaded or self._plugins_loading:
                return  # loaded meanwhile, or a plugin of this thread's loading looks up
            self._plugins_loading = True
            try:
                self._read_plugins()
            finally:
                self._plugins_loaded = True
                self._plugins_loading = False

    def _read_plugins(self) -> None:
        for entry in _entry_points(self._group):
            where = f"entry point {entry.name!r} ({entry.value}) of group {self._group!r}"
            try:
                cls = entry.load()
            except KeyboardInterrupt:
                raise  # the user stops the program: not the plugin's failure to report
            except BaseException as error:  # SystemExit too: a plugin never ends the program
                message = f"variant plugin left out: {where} failed to load: {error!r}"
                warnings.warn(message, PluginWarning, stacklevel=2)
                continue
            try:
                self.register(cls)
            except ConfigurationError as error:
                warnings.warn(
                    f"variant plugin left out: {where}: {error}", PluginWarning, stacklevel=2
                )
            except Exception as error:  # the class itself fails (a metaclass that raises)
                message = f"variant plugin left out: {where} cannot be registered: {error!r}"
                warnings.warn(message, PluginWarning, stacklevel=2)

    def __getitem__(self, name: str) -> type[Variant]:
        self._load_plugins()
        return self._class(name)

    def __contains__(self, name: object) -> bool:
        self._load_plugins()
        return name in self._classes or name in self._built_in

    def __iter__(self) -> Iterator[str]:
        self._load_plugins()
        return iter(sorted(self._classes.keys() | self._built_in.keys()))

    def __len__(self) -> int:
        self._load_plugins()
        return len(self._classes.keys() | self._built_in.keys())

    def __repr__(self) -> str:
        return f"<variants: {', '.join(self)}>"


_REGISTRY: Final = _Registry(built_in=_BUILT_IN)
# The built-in variants declare their own phases; an old name such as Phase.FRISH_VOTE needs
# their modules imported (rummylib.engine names no variant, so the registry says where).
add_phase_source(lambda: [_REGISTRY._class(name) for name in _BUILT_IN])

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

    Registering the same class again does nothing; a class of the same module and name
    defined again (a notebook cell run again) replaces the one registered, with its aliases.
    Any other class under a registered name or alias is a clash.

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
    _check_settings(cls, settings)
    return cls(**settings)


def with_settings(variant: Variant, /, **settings: Any) -> Variant:
    """``variant`` with some settings changed (each checked as :func:`get_variant` checks it).

    >>> with_settings(get_variant("carousel"), target_score=100).target_score
    100

    Raises:
        ConfigurationError: a setting is unknown or has a bad value.
    """
    _check_settings(type(variant), settings)
    return attrs.evolve(variant, **settings)


def _check_settings(cls: type[Variant], settings: dict[str, Any]) -> None:
    """Refuse an unknown setting, and a choice setting's bad value naming the setting.

    An enum's own converter cannot name the setting it reads ("bad setting 'never': expected
    one of …"), so a setting whose converter is an :class:`enum.Enum` class is read here
    first, and its refusal ends with the setting's name ("… for knock_timing").
    """
    fields = {field.name: field for field in attrs.fields(cls) if field.init}
    known = set(fields)
    unknown = sorted(set(settings) - known, key=str)
    if unknown:
        msg = (
            f"unknown setting {shorten(unknown[0])} for {cls.name}; "
            f"settings: {', '.join(sorted(known))}"
        )
        raise ConfigurationError(msg)
    for key, value in settings.items():
        converter = fields[key].converter
        if not (isinstance(converter, type) and issubclass(converter, enum.Enum)):
            continue
        try:
            converter(value)
        except (ConfigurationError, ValueError, TypeError):
            allowed = ", ".join(repr(member.value) for member in converter)
            msg = f"bad setting {shorten(value)}: expected one of {allowed} for {key}"
            raise ConfigurationError(msg) from None
