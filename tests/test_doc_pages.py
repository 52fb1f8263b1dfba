"""The documentation as a newcomer meets it (issue 17): what the pages must name and link."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from rummylib.variants import VARIANTS

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = REPO_ROOT / "docs"


def built_in_variants() -> list[str]:
    """The registered names defined by rummylib itself (plugins have their own docs)."""
    return sorted(name for name, cls in VARIANTS.items() if cls.__module__.startswith("rummylib."))


@pytest.mark.parametrize("name", built_in_variants())
def test_the_home_page_links_every_built_in_variant(name: str) -> None:
    # One click from the home page: a row of the games table with a link to its rules.
    index = (DOCS / "index.rst").read_text(encoding="utf-8")
    row = re.search(rf"   \* - ``{name}``\n(?:     - .*\n)+", index)
    assert row, f"no row for {name} in docs/index.rst"
    assert re.search(r":(doc|ref):`", row.group(0)), row.group(0)


def test_the_installation_page_names_every_extra() -> None:
    with (REPO_ROOT / "pyproject.toml").open("rb") as file:
        extras = tomllib.load(file)["project"]["optional-dependencies"]
    page = (DOCS / "installation.rst").read_text(encoding="utf-8")
    for extra in extras:
        assert re.search(rf"   \* - ``{extra}``\n", page), f"extra {extra!r} not in the table"


def reader_pages() -> list[Path]:
    return sorted([*DOCS.rglob("*.rst"), REPO_ROOT / "README.md", REPO_ROOT / "CHANGELOG.md"])


@pytest.mark.parametrize("page", reader_pages(), ids=lambda page: page.name)
def test_pages_name_only_files_a_reader_can_open(page: Path) -> None:
    # RULES.md, DESIGN.md and the seed texts are not in the repository.
    text = page.read_text(encoding="utf-8")
    for name in ("RULES.md", "DESIGN.md", "seeds/", "seed text"):
        assert name not in text, f"{page.relative_to(REPO_ROOT)} mentions {name}"


def test_the_changelog_keeps_an_unreleased_section_first() -> None:
    # Keep a Changelog: the unreleased changes on top, then versions, newest first.
    versions = re.findall(
        r"^## \[([^\]]+)\]", (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M
    )
    assert versions[0] == "Unreleased"
    with (REPO_ROOT / "pyproject.toml").open("rb") as file:
        assert tomllib.load(file)["project"]["version"] in versions
