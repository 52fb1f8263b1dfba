"""Names of a package imported on first use (:pep:`562`), for ``rummylib`` and its variants.

>>> import sys
>>> get, names = lazy_names("json", {"dumps": "json"}, set(), {})
>>> get("dumps") is sys.modules["json"].dumps, "dumps" in names()
(True, True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str,
    names: Mapping[str, str],
    modules: Collection[str],
    namespace: dict[str, Any],
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__``.

    ``names`` maps each public name to the module that defines it, ``modules`` are the
    package's submodules reached as attributes; ``namespace`` is the package's ``globals()``,
    where each name is kept once imported (so ``__getattr__`` runs once per name).
    """

    def __getattr__(name: str) -> Any:  # noqa: N807  (the module hook's own name)
        if name in names:
            value = getattr(importlib.import_module(names[name]), name)
        elif name in modules:
            value = importlib.import_module(f"{package}.{name}")
        else:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(namespace.keys() | names.keys() | set(modules))

    return __getattr__, __dir__
