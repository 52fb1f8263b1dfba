"""Stale words and small edges of the pages a newcomer reads first (issue 28)."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from rummylib.variants import VARIANTS

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = REPO_ROOT / "docs"
BUILT_IN = sorted(name for name, cls in VARIANTS.items() if cls.__module__.startswith("rummylib."))
GAMES = ("Rummy 71", "101", "Carousel", "Turkish 500", "Gin Rummy", "500 Rum", "Indian")


def readme_headline() -> str:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("\n\n")[1]


def test_the_pyproject_description_names_every_game() -> None:
    with (REPO_ROOT / "pyproject.toml").open("rb") as file:
        description = tomllib.load(file)["project"]["description"]
    for game in GAMES:
        assert game in description, game


def test_the_readme_headline_names_the_games_their_count_and_who_it_is_for() -> None:
    headline = " ".join(readme_headline().split())
    for game in GAMES:
        assert game in headline, game
    assert f"{len(BUILT_IN)} built-in variants" in headline
    for reader in ("game servers", "bots", "test suites"):
        assert reader in headline, reader


def test_the_readme_says_what_the_cli_extra_is_needed_for() -> None:
    text = " ".join((REPO_ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`play` and `replay` need it" in text


def test_the_performance_page_has_no_words_of_its_making() -> None:
    page = (DOCS / "performance.rst").read_text(encoding="utf-8")
    for stale in ("issue 15", "at the start of this work", "start of this work"):
        assert stale not in " ".join(page.split()), stale


def test_the_cli_page_does_not_add_a_second_default() -> None:
    # The options' help says "(default: 20)"; sphinx-argparse would add "Default: 20" again.
    page = (DOCS / "cli.rst").read_text(encoding="utf-8")
    directive = re.search(r"\.\. argparse::\n(?:   :.*\n)+", page)
    assert directive is not None
    assert ":nodefault:" in directive.group(0)


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.rst")), ids=lambda page: page.name)
def test_no_page_imports_a_private_module(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"(from|import) rummylib(\.\w+)*\._\w+", text)


def code_lines(text: str) -> list[str]:
    """The lines of doctests and indented literal blocks of a page."""
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith((">>>", "...")):
            lines.append(line)
            inside = False
        elif line.rstrip().endswith("::") or line.startswith(".. code-block"):
            inside = True
        elif inside and (line.startswith("   ") or not line.strip()):
            lines.append(line.strip())
        else:
            inside = False
    return lines


def test_the_record_format_pages_code_fits_its_box() -> None:
    text = (DOCS / "reference" / "record-format.rst").read_text(encoding="utf-8")
    wide = [line for line in code_lines(text) if len(line) > 80]
    assert wide == []


def load_conf(monkeypatch: pytest.MonkeyPatch, *, hypothesis: bool) -> Any:
    """docs/conf.py as Sphinx runs it, with or without Hypothesis importable."""
    if not hypothesis:
        monkeypatch.setitem(sys.modules, "hypothesis", None)  # import hypothesis fails
    spec = importlib.util.spec_from_file_location("docs_conf", DOCS / "conf.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_build_mocks_hypothesis_only_when_it_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert load_conf(monkeypatch, hypothesis=False).autodoc_mock_imports == ["hypothesis"]
    monkeypatch.undo()
    assert not hasattr(load_conf(monkeypatch, hypothesis=True), "autodoc_mock_imports")


def test_a_class_made_by_the_library_shows_no_private_constructor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hide = load_conf(monkeypatch, hypothesis=True)._hide_private_signature
    record = "(*, variant: Variant, setup: _Setup, steps: tuple[_Step, ...])"
    assert hide(None, "class", "rummylib.records.Record", None, None, record, None) == ("", None)
    plain = "(*, min_size: int = 3)"
    assert hide(None, "class", "rummylib.melds.MeldRules", None, None, plain, None) is None
