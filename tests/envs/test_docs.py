"""The tables of docs/howto/learn-to-play.rst are the code's: blocks, numberings, layout."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

from rummylib.actions import Action
from rummylib.engine import PhaseBase
from rummylib.variants.gin import GinRummy

pytest.importorskip("numpy", reason="rummylib.envs needs the rl extra (numpy)")

from rummylib.envs.encoding import ActionTable, ObservationEncoder
from rummylib.registry import get_variant


@attrs.frozen(kw_only=True)
class _Undeclared(GinRummy):
    """Gin whose rules, as a plugin might, declare no phase_actions."""

    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {}


PAGE = Path(__file__).resolve().parents[2] / "docs" / "howto" / "learn-to-play.rst"
BUILT_IN = ["rummy71", "rummy101", "carousel", "turkish500", "turkish300"]
BUILT_IN += ["turkish500_cutthroat", "rummy500", "gin"]
BUILT_IN += ["indian_points", "indian_pool101", "indian_pool201", "indian_deals"]


def _list_table_rows(text: str, first_header: str) -> list[list[str]]:
    """The rows of the list-table whose first header cell is ``first_header``."""
    start = text.index(f"   * - {first_header}\n")
    rows: list[list[str]] = []
    for line in text[start:].splitlines():
        if line.startswith("   * - "):
            rows.append([line[len("   * - ") :]])
        elif line.startswith("     - "):
            rows[-1].append(line[len("     - ") :])
        elif line.startswith("       ") and rows:
            rows[-1][-1] += " " + line.strip()
        elif line.strip() and not line.startswith("   "):
            break
    return rows[1:]


def test_the_block_table_is_the_code() -> None:
    rows = _list_table_rows(PAGE.read_text(encoding="utf-8"), "block")
    for name in BUILT_IN:  # their modules register their own kinds (alone, this test needs it)
        get_variant(name)
    table = ActionTable(_Undeclared())  # a variant that declares no phases: every block
    # The page lists the built-in kinds' blocks; a plugin's (the example's fold) come after.
    blocks = [block for block in table.blocks if block.kind.__module__.startswith("rummylib.")]
    assert table.blocks[: len(blocks)] == tuple(blocks)
    names = [row[0].strip("`") for row in rows]
    assert names == [block.name for block in blocks]
    for row, block in zip(rows, blocks, strict=True):
        assert row[2].startswith(block.meaning), (row, block.meaning)
        assert f"rummylib.actions.{block.kind.__name__}" in row[2]


@pytest.mark.parametrize("name", BUILT_IN)
def test_each_variant_table_is_the_code(name: str) -> None:
    text = PAGE.read_text(encoding="utf-8")
    variant = get_variant(name)
    table = ActionTable.for_variant(variant)
    encoder = ObservationEncoder(variant, variant.min_players)
    header = re.search(rf"^\.\. csv-table:: ``{name}``: (\d+) numbers; phases (.*)$", text, re.M)
    assert header is not None, f"no table for {name}"
    assert int(header.group(1)) == table.size
    phases = re.findall(r"``(\w+)``", header.group(2))
    assert phases == [phase.value for phase in encoder.phases]  # type: ignore[attr-defined]
    body = text[header.end() :].split("\n\n", 2)[1]
    rows = [re.findall(r'"([^"]*)"', line) for line in body.splitlines()]
    assert [(span, block.strip("`")) for span, block in rows] == [
        (span, block) for span, block, _ in table.rows()
    ]


def test_the_layout_table_is_the_code() -> None:
    rows = _list_table_rows(PAGE.read_text(encoding="utf-8"), "name")
    encoder = ObservationEncoder(get_variant("rummy101"), 4)
    assert [row[0].strip("`") for row in rows] == list(encoder.layout)
