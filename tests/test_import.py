"""What ``import rummylib`` imports, and the names that are imported on first use (issue #12).

The structure is checked in fresh interpreters (``sys.modules`` of this test process already
holds every module the suite has used): ``import rummylib`` imports no variant module, no
arrangement solver and no :mod:`importlib.metadata`; each look-up imports only what it needs.
How long an import takes is measured by ``benchmarks/bench_import.py``, never here.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import rummylib
import rummylib.variants
from rummylib import get_variant
from rummylib.registry import _BUILT_IN, VARIANTS, PluginWarning, _Registry

ROOT = Path(__file__).resolve().parents[1]

VARIANT_MODULES = {
    "rummylib.variants.carousel",
    "rummylib.variants.gin",
    "rummylib.variants.israeli",
    "rummylib.variants.turkish",
}
#: Imported on first use only: the variants, the arrangement solver, and what the core never needs.
LAZY_MODULES = VARIANT_MODULES | {
    "rummylib.arrangement",
    "rummylib._arrange",
    "rummylib._complete",
    "rummylib.table",
    "rummylib.bots",
    "rummylib.cli",
    "rummylib.simulate",
    "rummylib.records",
}


def fresh(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; it binds ``result``, which comes back through JSON.

    ``code`` runs after ``import sys, json`` and then prints ``result``. The repository comes
    first on the path, so the interpreter imports this checkout's rummylib.
    """
    program = "import json, sys\n" + textwrap.dedent(code) + "\nprint(json.dumps(result))\n"
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def modules(value: object) -> set[str]:
    assert isinstance(value, list)
    return {str(name) for name in value}


def test_import_rummylib_imports_no_module_of_the_game_until_a_name_is_used() -> None:
    result = fresh(
        """
        before = set(sys.modules)
        import rummylib
        imported = sorted(set(sys.modules) - before)
        rummylib.GameState
        result = {
            "file": rummylib.__file__,
            "before": sorted(before),
            "imported": imported,
            "after": sorted(sys.modules),
        }
        """
    )
    # The same package as this test process imports: the source tree, or an installed wheel
    # (the compiled build's run, .ci/run).
    assert result["file"] == rummylib.__file__
    imported = modules(result["imported"])
    # Only the package and the few lines that import its names on first use.
    assert {name for name in imported if name.startswith("rummylib")} == {
        "rummylib",
        "rummylib._lazy",
    }
    assert not {"attr", "attrs"} & imported
    after = modules(result["after"])
    assert "rummylib.state" in after  # the first use of a name imports its module ...
    assert not LAZY_MODULES & after  # ... and nothing that waits for a use of its own
    if "importlib.metadata" not in modules(result["before"]):
        assert "importlib.metadata" not in after  # plugins are read on the first look-up


def test_every_public_name_comes_from_the_module_that_defines_it() -> None:
    assert set(rummylib._LAZY) == set(rummylib.__all__)
    assert len(rummylib.__all__) == len(set(rummylib.__all__))
    for name, module in rummylib._LAZY.items():
        assert getattr(rummylib, name) is getattr(importlib.import_module(module), name)
        assert name in dir(rummylib)
    for name in rummylib._SUBMODULES:
        assert getattr(rummylib, name) is importlib.import_module(f"rummylib.{name}")


def test_a_look_up_imports_the_one_variant_module_it_needs() -> None:
    result = fresh(
        """
        import rummylib
        threshold = rummylib.get_variant("Israeli").elimination_threshold
        after_israeli = sorted(name for name in sys.modules if name.startswith("rummylib."))
        rummylib.VARIANTS["gin"]
        after_gin = sorted(name for name in sys.modules if name.startswith("rummylib."))
        result = {"threshold": threshold, "israeli": after_israeli, "gin": after_gin}
        """
    )
    assert result["threshold"] == 101
    variants = modules(result["israeli"]) & VARIANT_MODULES
    assert variants <= {"rummylib.variants.israeli"} | plugin_imports()
    assert "rummylib.variants.israeli" in variants
    assert "rummylib.variants.gin" in modules(result["gin"])
    assert "rummylib.variants.turkish" not in modules(result["gin"]) - plugin_imports()


def plugin_imports() -> set[str]:
    """Variant modules that the installed plugins import themselves (none for knock7)."""
    loaded = fresh(
        """
        import rummylib.registry
        registry = rummylib.registry._Registry()  # the installed plugins, no built-in variant
        list(registry)
        result = {"modules": sorted(sys.modules)}
        """
    )
    return modules(loaded["modules"]) & VARIANT_MODULES


def test_listing_the_names_imports_no_variant_module() -> None:
    result = fresh(
        """
        from rummylib.registry import _BUILT_IN, _Registry
        registry = _Registry(group="rummylib.tests.no_such_group", built_in=_BUILT_IN)
        names = list(registry)
        result = {
            "names": names,
            "count": len(registry),
            "has": "gin" in registry and "gin_rummy" not in registry,
            "modules": sorted(sys.modules),
        }
        """
    )
    assert result["names"] == sorted(_BUILT_IN)
    assert result["count"] == len(_BUILT_IN)
    assert result["has"] is True  # registered names are in it; aliases are not keys
    assert not modules(result["modules"]) & VARIANT_MODULES


def test_lazy_names_of_rummylib_and_rummylib_variants_work_in_a_fresh_interpreter() -> None:
    result = fresh(
        """
        from rummylib import *
        from rummylib.variants import Rummy101, Turkish300
        import rummylib, rummylib.variants
        missing = [name for name in rummylib.__all__ if name not in globals()]
        result = {
            "missing": missing,
            "arrange": arrange.__module__,
            "same": rummylib.VARIANTS["rummy101"] is Rummy101,
            "turkish300": Turkish300.name,
            "module": rummylib.variants.carousel.Carousel.name,
            "dir": sorted(set(rummylib.__all__) - set(dir(rummylib))),
        }
        """
    )
    assert result == {
        "missing": [],
        "arrange": "rummylib.arrangement",
        "same": True,
        "turkish300": "turkish300",
        "module": "carousel",
        "dir": [],
    }


def test_a_moved_phase_name_is_found_before_its_variant_is_imported() -> None:
    result = fresh(
        """
        from rummylib import Phase
        before = "rummylib.variants.israeli" in sys.modules
        result = {
            "before": before,
            "attribute": Phase.SHOW_MELDS.value,
            "value": type(Phase("frish_vote")).__name__,
            "gin": Phase("first_upcard").name,
        }
        """
    )
    assert result == {
        "before": False,
        "attribute": "show_melds",
        "value": "IsraeliPhase",
        "gin": "FIRST_UPCARD",
    }


@pytest.mark.parametrize("name", sorted(_BUILT_IN))
def test_every_built_in_variant_is_found_by_its_name_and_aliases(name: str) -> None:
    where, aliases = _BUILT_IN[name]
    cls = VARIANTS[name]
    assert f"{cls.__module__}:{cls.__qualname__}" == where
    assert cls.name == name
    assert cls.__dict__.get("aliases", ()) == aliases  # the table is the class's own
    assert type(get_variant(name)) is cls
    for alias in aliases:
        assert type(get_variant(alias.upper().replace("_", "-"))) is cls


def test_the_names_of_rummylib_variants_are_its_variant_classes() -> None:
    for name, module in rummylib.variants._LAZY.items():
        cls = getattr(rummylib.variants, name)
        assert cls.__module__ == module
        assert cls.__name__ == name
        assert name in dir(rummylib.variants)
    assert {
        f"{cls.__module__}:{cls.__qualname__}"
        for name, cls in vars(rummylib.variants).items()
        if name in rummylib.variants._LAZY and name not in {"IsraeliRummy", "IndianRummy"}
    } == {where for where, _ in _BUILT_IN.values()}
    with pytest.raises(AttributeError, match="has no attribute 'Canasta'"):
        _ = rummylib.variants.Canasta
    with pytest.raises(AttributeError, match="has no attribute 'canasta'"):
        _ = rummylib.canasta
    assert set(rummylib.__all__) <= set(dir(rummylib))


def test_a_plugin_cannot_take_a_built_in_name_whose_module_is_not_imported_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A registry of its own, with the built-in table and none of its classes imported into it:
    # the clash is found from the table alone.
    (tmp_path / "plugin_clash.py").write_text(
        textwrap.dedent(
            """
            from typing import ClassVar
            import attrs
            from rummylib.engine import Variant

            @attrs.frozen(kw_only=True)
            class Gin(Variant):
                name: ClassVar[str] = "gin"

            @attrs.frozen(kw_only=True)
            class Alias(Variant):
                name: ClassVar[str] = "mine"
                aliases: ClassVar[tuple[str, ...]] = ("Israeli",)
            """
        )
    )
    info = tmp_path / "plugin_clash-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin_clash\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[test.clash]\ngin = plugin_clash:Gin\nmine = plugin_clash:Alias\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = _Registry(group="test.clash", built_in=_BUILT_IN)
    assert not registry._classes
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = list(registry)
    messages = sorted(str(warning.message) for warning in caught)
    assert all(warning.category is PluginWarning for warning in caught)
    assert len(messages) == 2
    assert "the name 'gin' of Gin is taken by variant 'gin'" in messages[0]
    assert "the name 'israeli' of Alias is taken by variant 'rummy101'" in messages[1]
    assert names == sorted(_BUILT_IN)
    assert registry["gin"] is VARIANTS["gin"]
    assert registry.find("israeli") is VARIANTS["rummy101"]
    with pytest.raises(KeyError):
        registry["mine"]


def test_a_built_in_class_registered_by_hand_before_its_look_up_is_the_same_variant() -> None:
    registry = _Registry(group="rummylib.tests.no_such_group", built_in=_BUILT_IN)
    registry.register(rummylib.variants.Rummy101)  # accepted: it is the class the table names
    assert registry["rummy101"] is rummylib.variants.Rummy101
    assert registry.find("rami101") is rummylib.variants.Rummy101
