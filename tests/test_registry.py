"""The variant registry: built-in variants, register_variant, and plugins by entry point.

Plugins are exercised for real: each test writes a small distribution (a ``.dist-info``
folder with an ``entry_points.txt``, as ``pip install`` leaves one) and the plugin's module
into a temporary folder on ``sys.path``, so :mod:`importlib.metadata` finds it as it finds an
installed package. Each test reads its own entry-point group through a registry of its own, so
nothing leaks into the registry the rest of the suite uses.
"""

from __future__ import annotations

import re
import textwrap
import threading
import time
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

from rummylib import ConfigurationError, UnknownVariantError, get_variant, new_game, registry
from rummylib.bots import RandomBot, play
from rummylib.cli import main
from rummylib.registry import VARIANTS, PluginWarning, _Registry, register_variant
from rummylib.variants import VARIANTS as VARIANTS_FROM_VARIANTS
from rummylib.variants import Rummy101

BUILT_IN = {
    "carousel",
    "rummy101",
    "rummy500",
    "rummy71",
    "turkish300",
    "turkish500",
    "turkish500_cutthroat",
}


def distribution(folder: Path, name: str, group: str, entries: dict[str, str]) -> None:
    """Lay out an installed distribution ``name`` declaring ``entries`` in ``group``."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    lines = [f"[{group}]", *(f"{key} = {value}" for key, value in entries.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")


def test_every_built_in_variant_is_registered() -> None:
    assert set(VARIANTS) >= BUILT_IN
    assert VARIANTS is VARIANTS_FROM_VARIANTS  # the old import path reads the same registry
    assert VARIANTS["rummy101"] is Rummy101


def test_the_example_plugin_is_found_and_plays_through_the_registry() -> None:
    # tests/conftest.py puts examples/plugin on the path as if it were installed (.ci/run also
    # pip-installs it): the registry finds it by its entry point alone.
    assert "knock7" in VARIANTS
    variant = get_variant("Knock7", knock_limit=5)
    assert variant.knock_limit == 5  # type: ignore[attr-defined]
    final = play(new_game("knock7", players=3, seed=4), [RandomBot(seed) for seed in range(3)])
    assert final.is_over
    assert final.all_cards().total() == 52
    with pytest.raises(ConfigurationError, match="knock_limit must be a whole number from 0 to 50"):
        get_variant("knock7", knock_limit=99)


def test_the_command_line_lists_the_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    assert "knock7" in capsys.readouterr().out


def test_a_plugin_entry_point_registers_its_variant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "plugin_ok.py").write_text(
        textwrap.dedent(
            """
            from typing import ClassVar
            import attrs
            from rummylib.variants import Rummy101

            @attrs.frozen(kw_only=True)
            class Rummy201(Rummy101):
                name: ClassVar[str] = "rummy201"
                aliases: ClassVar[tuple[str, ...]] = ("two-oh-one",)
                elimination_threshold: int = 201
            """
        )
    )
    distribution(tmp_path, "plugin_ok", "test.ok", {"rummy201": "plugin_ok:Rummy201"})
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = _Registry(group="test.ok")
    assert list(registry) == ["rummy201"]
    found = registry.find("Two-Oh-One")
    assert found is not None
    assert found().elimination_threshold == 201  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("module", "value", "message"),
    [
        ("raise ImportError('no such thing')", "plugin_bad:Game", r"failed to load: ImportError"),
        ("class Game:\n    pass", "plugin_bad:Game", r"only a Variant subclass can be registered"),
        (
            "from typing import ClassVar\nimport attrs\nfrom rummylib.variants import Rummy101\n"
            "@attrs.frozen(kw_only=True)\nclass Game(Rummy101):\n"
            "    name: ClassVar[str] = 'rummy101'",
            "plugin_bad:Game",
            r"the name 'rummy101' of Game is taken by variant 'rummy101'",
        ),
        ("x = 1", "plugin_bad:Missing", r"failed to load: AttributeError"),
        ("raise SystemExit(3)", "plugin_bad:Game", r"failed to load: SystemExit\(3\)"),
        ("import sys\nsys.exit('bye')", "plugin_bad:Game", r"failed to load: SystemExit\('bye'\)"),
        ("raise GeneratorExit", "plugin_bad:Game", r"failed to load: GeneratorExit"),
        (
            "class Meta(type):\n    @property\n    def name(cls):\n"
            "        raise RuntimeError('no')\n"
            "from rummylib.variants import Rummy101\nclass Game(Rummy101, metaclass=Meta):\n"
            "    pass",
            "plugin_bad:Game",
            r"RuntimeError\('no'\)",
        ),
    ],
)
def test_a_bad_plugin_is_left_out_with_a_warning_naming_its_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, value: str, message: str
) -> None:
    # A module name of its own per case: sys.modules would hand back an earlier case's module.
    name = f"plugin_bad_{len(module)}_{len(message)}"
    (tmp_path / f"{name}.py").write_text(module + "\n")
    distribution(tmp_path, name, "test.bad", {"broken": value.replace("plugin_bad", name)})
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = _Registry(group="test.bad")
    registry.register(Rummy101)  # a built-in, registered first as at import time
    with pytest.warns(PluginWarning, match=rf"entry point 'broken' \({name}:\w+\)") as caught:
        names = list(registry)
    assert names == ["rummy101"]  # the built-in is untouched
    assert len(caught) == 1
    assert str(caught[0].message).count("variant plugin left out") == 1
    assert re.search(message, str(caught[0].message))


@pytest.mark.usefixtures("registry_restored")
def test_a_plugin_exiting_while_imported_is_reported_and_variants_still_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 30 item 3: SystemExit escaped the registry, so len(VARIANTS) raised it.
    name = "plugin_exits_30"
    (tmp_path / f"{name}.py").write_text("raise SystemExit(7)\n")
    distribution(tmp_path, name, "test.exits", {"quits": f"{name}:Game"})
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = _Registry(group="test.exits")
    registry.register(Rummy101)
    with pytest.warns(PluginWarning, match=r"'quits'.*failed to load: SystemExit\(7\)"):
        assert len(registry) == 1
    assert registry.find("rummy101") is Rummy101


def test_a_plugin_interrupted_by_the_user_is_not_swallowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "plugin_interrupted_30"
    (tmp_path / f"{name}.py").write_text("raise KeyboardInterrupt\n")
    distribution(tmp_path, name, "test.interrupted", {"stops": f"{name}:Game"})
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(KeyboardInterrupt):
        list(_Registry(group="test.interrupted"))


@pytest.mark.usefixtures("registry_restored")
def test_registering_a_class_defined_again_by_the_same_code_is_not_a_clash() -> None:
    # A notebook cell run again defines a new class object with the same module and name.
    def define(threshold: int) -> type[Rummy101]:
        @attrs.frozen(kw_only=True)
        class Rummy141(Rummy101):
            name: ClassVar[str] = "rummy141_test"
            aliases: ClassVar[tuple[str, ...]] = ("one-four-one",)
            elimination_threshold: int = threshold

        return Rummy141

    first, second = define(141), define(142)
    assert first is not second
    assert register_variant(first) is first
    assert register_variant(first) is first  # the identical class: nothing changes
    assert VARIANTS["rummy141_test"] is first
    assert register_variant(second) is second  # the cell run again: its class is the one used
    assert VARIANTS["rummy141_test"] is second
    assert get_variant("one-four-one").elimination_threshold == 142  # type: ignore[attr-defined]

    @attrs.frozen(kw_only=True)
    class Rummy141(Rummy101):  # the same name, defined by other code: still a clash
        name: ClassVar[str] = "rummy141_test"

    with pytest.raises(ConfigurationError, match="is taken by variant 'rummy141_test'"):
        register_variant(Rummy141)
    assert VARIANTS["rummy141_test"] is second


@pytest.mark.usefixtures("registry_restored")
def test_a_class_defined_again_cannot_take_a_built_in_name() -> None:
    @attrs.frozen(kw_only=True)
    class Rummy101Again(Rummy101):
        name: ClassVar[str] = "rummy101"

    with pytest.raises(ConfigurationError, match="is taken by variant 'rummy101'"):
        register_variant(Rummy101Again)
    assert VARIANTS["rummy101"] is Rummy101


@pytest.mark.usefixtures("registry_restored")
def test_register_variant_adds_a_class_and_refuses_clashes() -> None:
    @attrs.frozen(kw_only=True)
    class Rummy131(Rummy101):
        name: ClassVar[str] = "rummy131_test"
        elimination_threshold: int = 131

    assert register_variant(Rummy131) is Rummy131
    assert register_variant(Rummy131) is Rummy131  # again: nothing changes
    assert get_variant("rummy131-test").elimination_threshold == 131  # type: ignore[attr-defined]

    @attrs.frozen(kw_only=True)
    class Impostor(Rummy101):
        name: ClassVar[str] = "rummy131_test"

    with pytest.raises(ConfigurationError, match="is taken by variant 'rummy131_test'"):
        register_variant(Impostor)

    @attrs.frozen(kw_only=True)
    class Shouting(Rummy101):
        name: ClassVar[str] = "SHOUT"

    with pytest.raises(ConfigurationError, match="lower-case letters, digits and '_'"):
        register_variant(Shouting)


def _code_block_after(page: Path, heading: str) -> str:
    """The first ``.. code-block:: python`` of ``page`` after the line ``heading``."""
    text = page.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    block = re.search(r"\.\. code-block:: python\n\n((?:   .*\n|\n)+)", text)
    assert block is not None, f"no python block after {heading!r} in {page.name}"
    return textwrap.dedent(block.group(1))


@pytest.mark.usefixtures("registry_restored")
def test_the_add_a_variant_page_s_subclass_keeps_the_setting_checked() -> None:
    page = Path(__file__).resolve().parent.parent / "docs" / "howto" / "add-a-variant.rst"
    exec(_code_block_after(page, "Without a package"), {})
    variant = get_variant("rummy151")
    assert (variant.title, variant.elimination_threshold) == ("Rummy 151", 151)  # type: ignore[attr-defined]
    with pytest.raises(ConfigurationError, match="elimination_threshold must be a whole number"):
        get_variant("rummy151", elimination_threshold=0)


KNOWN = "known: carousel, gin, indian_deals, indian_points, indian_pool101, indian_pool201, knock7"


def test_unknown_names_are_refused_with_the_known_ones_listed() -> None:
    with pytest.raises(
        UnknownVariantError,
        match="known: carousel, gin, indian_deals, indian_points, indian_pool101, indian_pool201, "
        "knock7",
    ):
        get_variant("gin-rummy-deluxe")
    with pytest.raises(UnknownVariantError, match=r"unknown variant 'x+'… \(10000 characters\)"):
        get_variant("x" * 10_000)


def test_settings_named_name_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="unknown setting 'name' for carousel"):
        get_variant("carousel", name="x")


def test_a_second_thread_waits_for_the_plugins_being_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = threading.Event()
    seen: list[bool] = []

    class Slow:
        name = "slow7"
        value = "slow:Plugin"

        def load(self) -> type:
            started.set()
            time.sleep(0.2)  # the other thread looks up meanwhile
            return type(registry.get_variant("gin"))

    monkeypatch.setattr(registry, "_entry_points", lambda group: (Slow(),))
    fresh = registry._Registry(group="rummylib.test.slow")
    loader = threading.Thread(target=lambda: fresh.find("anything"))
    loader.start()
    started.wait(5)
    seen.append(fresh._plugins_loaded)
    fresh.find("anything")  # waits for the loader, then sees every plugin
    seen.append(fresh._plugins_loaded)
    loader.join(5)
    assert seen == [False, True]
