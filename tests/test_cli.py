"""The ``rummylib check`` command (issue 2): exit codes 0 meld, 1 not a meld, 2 bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rummylib.cli import main

REPO_ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_valid_run_names_what_the_joker_stands_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "Ah 2h * 4h")
    assert code == 0
    assert out == "Ah 2h *=3h 4h is a run; the joker stands for 3h\n"
    assert err == ""


def test_check_valid_group(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "7h 7c 7d")
    assert code == 0
    assert out == "7c 7d 7h is a group\n"


def test_check_two_jokers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "9c * Jc *")
    assert code == 0
    # Jokers go into the gap first, then above the highest natural card.
    assert out == "9c *=Tc Jc *=Qc is a run; the jokers stand for Tc Qc\n"


def test_check_cards_as_several_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "Ah", "2h", "*", "4h")
    assert code == 0
    assert out.startswith("Ah 2h *=3h 4h is a run")


def test_check_not_a_meld_gives_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "3c 4c 6c")
    assert code == 1
    assert out == "3c 4c 6c is not a meld: gap at 5c\n"
    assert err == ""


def test_check_too_few_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "7h 8h")
    assert code == 1
    assert "too few cards (2, at least 3)" in out


@pytest.mark.parametrize(
    ("text", "token"), [("Ah 2h 3x", "3x"), ("Ah 11h 3h", "11h"), ("jokr Ah 2h", "jokr")]
)
def test_check_bad_card_is_a_one_line_error_naming_the_token(
    capsys: pytest.CaptureFixture[str], text: str, token: str
) -> None:
    code, out, err = run(capsys, text)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.endswith("\n")
    assert f"'{token}'" in err
    assert "Traceback" not in err


def test_check_ace_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "Qh Kh Ah")[0] == 0
    code, out, _ = run(capsys, "Qh Kh Ah", "--ace", "low")
    assert code == 1
    assert "the ace ranks low only (A-2-3), not high" in out
    code, out, _ = run(capsys, "Ah 2h 3h", "--ace", "high")
    assert code == 1
    assert "the ace ranks high only (Q-K-A), not low" in out
    assert run(capsys, "Kh Ah 2h")[0] == 1
    code, out, _ = run(capsys, "Kh Ah 2h", "--ace", "wrap")
    assert code == 0
    assert out == "Kh Ah 2h is a run\n"


def test_check_bad_ace_rule_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["check", "Qh Kh Ah", "--ace", "sideways"])
    assert caught.value.code == 2
    assert "sideways" in capsys.readouterr().err


def test_check_joker_beside_ace(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "Ah * 3h")
    assert code == 0
    assert out == "Ah *=2h 3h is a run; the joker stands for 2h\n"
    code, out, _ = run(capsys, "Ah * 3h", "--no-joker-beside-ace")
    assert code == 1
    assert out == "Ah * 3h is not a meld: joker beside an ace\n"
    code, out, _ = run(capsys, "* 2h 3h", "--no-joker-beside-ace")
    assert code == 0
    assert out == "2h 3h *=4h is a run; the joker stands for 4h\n"
    assert run(capsys, "Ah * 3h", "--joker-beside-ace")[0] == 0


def test_check_long_output_stays_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # Core bug: rich wraps the line at 80 columns when output is not a terminal.
    code, out, _ = run(capsys, "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc * * * *")
    assert code == 1
    assert out == (
        "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc * * * * is not a meld: "
        "run too long (16 cards, at most 13)\n"
    )


def test_python_dash_m_rummylib_check() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "rummylib", "check", "Ah 2h * 4h"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == "Ah 2h *=3h 4h is a run; the joker stands for 3h\n"
    assert completed.stderr == ""
