"""``rummylib check ... --svg FILE`` (issue 14): the picture of the meld or the arrangement."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from rummylib.cli import main

NS = "{http://www.w3.org/2000/svg}"


def card_titles(path: Path) -> list[str]:
    root = ElementTree.fromstring(path.read_text(encoding="utf-8"))
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox")
    return [
        g.findtext(f"{NS}title") or ""
        for g in root.iter(f"{NS}g")
        if "card" in g.get("class", "").split()
    ]


def test_check_svg_writes_the_meld_with_the_jokers_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "meld.svg"
    assert main(["check", "Ah 2h * 4h", "--svg", str(picture)]) == 0
    assert capsys.readouterr().out == "Ah 2h *=3h 4h is a run; the joker stands for 3h\n"
    assert card_titles(picture) == ["Ah", "2h", "*=3h", "4h"]


def test_check_svg_writes_the_arrangement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "hand.svg"
    assert main(["check", "--arrange", "7c 7d 7h 8h 9h Ks", "--svg", str(picture)]) == 1
    assert capsys.readouterr().out == "7h 8h 9h | deadwood 7c 7d Ks (24 points)\n"
    assert card_titles(picture) == ["7h", "8h", "9h", "7c", "7d", "Ks"]
    assert "deadwood, 24 points" in picture.read_text(encoding="utf-8")


def test_check_svg_of_cards_that_are_no_meld_draws_the_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "cards.svg"
    assert main(["check", "3c 4c 6c", "--svg", str(picture)]) == 1
    assert capsys.readouterr().out == "3c 4c 6c is not a meld: gap at 5c\n"
    assert card_titles(picture) == ["3c", "4c", "6c"]


def test_check_without_svg_writes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["check", "7h 8h 9h"]) == 0
    capsys.readouterr()
    assert list(tmp_path.iterdir()) == []


def test_check_svg_to_an_unwritable_place_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no such folder" / "meld.svg"
    assert main(["check", "7h 8h 9h", "--svg", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"rummylib: cannot write --svg {missing}: ")
    assert not missing.exists()


def test_check_svg_bad_cards_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "bad.svg"
    assert main(["check", "7h 8x", "--svg", str(picture)]) == 2
    assert "bad card '8x'" in capsys.readouterr().err
    assert not picture.exists()
