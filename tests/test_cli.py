"""The ``rummylib check`` command (issue 2): exit codes 0 meld, 1 not a meld, 2 bad input."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
    assert main(["check", "Qh Kh Ah", "--ace", "sideways"]) == 2
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


# -- bad input: one line on stderr, ``rummylib: ...``, exit 2 (issue 10) ----------------------


def exit_code(argv: list[str]) -> int:
    """The exit code of the command line: ``main`` returns it, never raising SystemExit."""
    return main(argv)


def assert_one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = exit_code(argv)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.out == ""
    assert captured.err.startswith("rummylib: ")
    assert captured.err.endswith("\n")
    assert captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err
    return captured.err


def test_check_points_with_a_superscript_digit_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "²".isdigit() is True but int("²") fails: this used to end in a traceback, exit 1.
    err = assert_one_line_error(capsys, ["check", "--arrange", "7h 8h 9h Kc", "--points", "ace=²"])
    assert "argument --points: bad points 'ace=²'" in err


@pytest.mark.parametrize(
    ("points", "named"),
    [
        ("ace=x", "'ace=x'"),
        ("ace=-1", "'ace=-1'"),
        ("ace=1.5", "'ace=1.5'"),
        ("ace=\u0661", "'ace=\u0661'"),  # an Arabic-Indic 1: int() reads it, the CLI must not
        ("ace=1_0", "'ace=1_0'"),
        ("ace", "'ace'"),
        ("=3", "'=3'"),
        ("king=10", "'king=10'"),
        ("ace=1,,face=2", "''"),
        ("", "''"),
        ("ace=1,ace=2", "ace is given twice"),
        ("ace=" + "9" * 5000, "'ace=9999"),  # more digits than int() reads
    ],
)
def test_check_bad_points_are_refused_by_name(
    capsys: pytest.CaptureFixture[str], points: str, named: str
) -> None:
    err = assert_one_line_error(capsys, ["check", "--arrange", "7h 8h 9h Kc", f"--points={points}"])
    assert "argument --points: bad points" in err
    assert named in err
    assert len(err) < 300  # a huge value is cut short in the message


def test_check_points_set_card_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--arrange", "7h 8h 9h Kc Ah", "--points", "face=5, ace=11")
    assert (code, out, err) == (1, "7h 8h 9h | deadwood Ah Kc (16 points)\n", "")
    code, out, _ = run(capsys, "--arrange", "Ah 2h 3h 9c", "--points", "ace=15,ace_low_run=1")
    assert (code, out) == (1, "Ah 2h 3h | deadwood 9c (9 points)\n")


@pytest.mark.parametrize("cards", [[""], [" "], ["", " , "]])
@pytest.mark.parametrize("arrange", [[], ["--arrange"], ["--arrange", "--discard"]])
def test_check_without_cards_says_no_cards_given(
    capsys: pytest.CaptureFixture[str], cards: list[str], arrange: list[str]
) -> None:
    err = assert_one_line_error(capsys, ["check", *arrange, *cards])
    assert err == "rummylib: no cards given\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--points", "ace=11", "7h 8h 9h"], "rummylib: --points needs --arrange\n"),
        (["check", "--discard", "7h 8h 9h"], "rummylib: --discard needs --arrange\n"),
        (["check", "7h 8h 9h", "--ace", "sideways"], "invalid choice: 'sideways'"),
        (["check"], "the following arguments are required: cards"),
        (["check", "7h 8h 9x"], "rummylib: bad card '9x': unknown suit 'x'\n"),
        ([], "the following arguments are required: COMMAND"),
        (["deal"], "invalid choice: 'deal'"),
        (["variants", "--all"], "unrecognized arguments: --all"),
    ],
)
def test_bad_usage_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in assert_one_line_error(capsys, argv)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--players", "0", "rummy101 is for 2 to 6 players, not 0"),
        ("--players", "-3", "rummy101 is for 2 to 6 players, not -3"),
        ("--players", "four", "argument --players: must be a whole number, not 'four'"),
        ("--players", "²", "argument --players: must be a whole number, not '²'"),
        ("--players", "2.0", "argument --players: must be a whole number, not '2.0'"),
        ("--matches", "0", "argument --matches: must be a whole number of at least 1, not '0'"),
        ("--matches", "-5", "argument --matches: must be a whole number of at least 1, not '-5'"),
        ("--matches", "1e3", "argument --matches: must be a whole number of at least 1, not"),
        ("--seed", "lucky", "argument --seed: must be a whole number, not 'lucky'"),
        ("--seed", "", "argument --seed: must be a whole number, not ''"),
        ("--max-actions", "0", "argument --max-actions: must be a whole number of at least 1"),
        ("--max-actions", "-1", "argument --max-actions: must be a whole number of at least 1"),
        ("--max-actions", "many", "argument --max-actions: must be a whole number of at least"),
        ("--variant", "gin", "argument --variant: unknown variant 'gin'; known: carousel,"),
        ("--variant", "", "argument --variant: unknown variant ''"),
        ("--bots", "clever", "argument --bots: unknown bot 'clever': use greedy or random"),
        ("--bots", "greedy,", "argument --bots: bad bots 'greedy,': a bot name is missing"),
        ("--bots", "", "argument --bots: bad bots '': a bot name is missing"),
        ("--bots", "greedy,random", "rummylib: --bots names 2 bots for 4 players\n"),
        ("--bots", "greedy,random,greedy,random,greedy", "names 5 bots for 4 players"),
    ],
)
def test_simulate_bad_option_values_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    err = assert_one_line_error(capsys, ["simulate", f"{option}={value}"])
    assert message in err


@given(text=st.text(max_size=40))
def test_check_never_ends_in_a_traceback(text: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = exit_code(["check", "--", text])
    assert code in {0, 1, 2}
    if code == 2:
        assert err.getvalue().startswith("rummylib: ")
        assert err.getvalue().count("\n") == 1
    else:
        assert err.getvalue() == ""
        assert out.getvalue().count("\n") == 1


@given(points=st.text(max_size=30))
def test_check_points_never_end_in_a_traceback(points: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = exit_code(["check", "--arrange", "7h 8h 9h Kc", f"--points={points}"])
    if code == 2:
        assert err.getvalue().startswith("rummylib: argument --points: bad points ")
        assert err.getvalue().count("\n") == 1
    else:
        assert code == 1
        assert out.getvalue().startswith("7h 8h 9h | deadwood Kc (")
