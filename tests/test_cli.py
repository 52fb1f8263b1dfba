"""The ``rummylib check`` command (issue 2): exit codes 0 meld, 1 not a meld, 2 bad input."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any, ClassVar, NoReturn

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummylib import cli, get_variant
from rummylib.cli import main
from rummylib.simulate import simulate
from rummylib.variants.israeli import Rummy101

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


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ("rummy71", "* Ah 2h"),
            "'rummy71' is a variant, not a card: rummylib check --variant rummy71 * Ah 2h",
        ),
        (
            ("Vrtuljak", "7h", "8h", "9h"),
            "'Vrtuljak' is a variant, not a card: rummylib check --variant Vrtuljak 7h 8h 9h",
        ),
        (
            ("rummikub",),
            "'rummikub' is a variant, not a card: rummylib check --variant rummikub CARDS",
        ),
    ],
)
def test_check_a_variant_written_as_a_card_is_shown_the_option(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], expected: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", f"rummylib: {expected}\n")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ("simulate", "carousel", "--matches", "2"),
            "unrecognized arguments: carousel; 'carousel' is a variant: "
            "rummylib simulate --variant carousel --matches 2",
        ),
        (
            ("play", "--players", "2", "Vrtuljak"),
            "unrecognized arguments: Vrtuljak; 'Vrtuljak' is a variant: "
            "rummylib play --players 2 --variant Vrtuljak",
        ),
        (
            ("simulate", "--games", "3"),
            "unrecognized arguments: --games 3 (rummylib simulate --help lists the options)",
        ),
        (  # serve has no --variant: no such advice
            ("serve", "gin"),
            "unrecognized arguments: gin (rummylib serve --help lists the options)",
        ),
    ],
)
def test_a_stray_argument_is_refused_with_the_fix(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], expected: str
) -> None:
    # `rummylib variants carousel` takes the name bare; simulate and play take --variant.
    code = main(list(argv))
    captured = capsys.readouterr()
    assert (code, captured.out, captured.err) == (2, "", f"rummylib: {expected}\n")


def test_check_a_variant_name_after_variant_is_a_bad_card(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "--variant", "gin", "rummy71", "7h")
    assert code == 2
    assert err.startswith("rummylib: bad card 'rummy71'")


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
        (
            "--matches",
            "0",
            "argument --matches: must be a whole number from 1 to 10000000, not '0'",
        ),
        (
            "--matches",
            "-5",
            "argument --matches: must be a whole number from 1 to 10000000, not '-5'",
        ),
        ("--matches", "1e3", "argument --matches: must be a whole number from 1 to 10000000, not"),
        ("--seed", "lucky", "argument --seed: must be a whole number, not 'lucky'"),
        ("--seed", "", "argument --seed: must be a whole number, not ''"),
        ("--max-actions", "0", "argument --max-actions: must be a whole number of at least 1"),
        ("--max-actions", "-1", "argument --max-actions: must be a whole number of at least 1"),
        ("--max-actions", "many", "argument --max-actions: must be a whole number of at least"),
        ("--variant", "canasta", "argument --variant: unknown variant 'canasta'; known: carousel,"),
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


# -- a newcomer's command line (issue 17) -----------------------------------------------------

# The registered names of the contract (DESIGN.md section 5), written out rather than read from
# the registry the command line lists them from.
CORE_VARIANTS = (
    "carousel",
    "rummy101",
    "rummy500",
    "rummy71",
    "turkish300",
    "turkish500",
    "turkish500_cutthroat",
)


def test_version_is_the_version_in_pyproject(capsys: pytest.CaptureFixture[str]) -> None:
    with (REPO_ROOT / "pyproject.toml").open("rb") as file:
        version = tomllib.load(file)["project"]["version"]
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"rummylib {version}\n"


def test_variants_lists_each_game_on_one_short_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\brummy101\W+Rummy 101\W+2-6\b", out)
    assert re.search(r"\bcarousel\W+Carousel\W+2-5\b", out)
    assert re.search(r"\brummy500\W+500 Rum\W+2-8\b", out)
    for name in CORE_VARIANTS:
        assert name in out
    # No wall of settings: those are for ``variants NAME``, which the list points to.
    assert "elimination_threshold" not in out
    assert "rummylib variants NAME" in out


def setting_row(out: str, name: str) -> list[str]:
    """The cells of one row of a settings table (rich or plain), the setting name first."""
    for line in out.splitlines():
        cells = [cell.strip() for cell in re.split(r"[│┃]| {2,}", line) if cell.strip()]
        if cells and cells[0] == name:
            return cells
    raise AssertionError(f"no row for {name!r} in:\n{out}")


def test_variants_name_shows_every_setting_with_its_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["variants", "RUMMY71"]) == 0  # any case, as get_variant reads names
    out = capsys.readouterr().out
    assert out.startswith("rummy71: Rummy 71, 2-6 players\n")
    # Defaults and rule numbers as docs/rules/israeli.rst lists them, written as --set reads
    # them (JSON or text).
    assert setting_row(out, "elimination_threshold") == [
        "elimination_threshold",
        "71",
        "1 to 1000000",
        "1.20",
    ]
    assert setting_row(out, "open_card_after_window") == [
        "open_card_after_window",
        "dead",
        "bottom_of_stock",
        "1.6",
    ]
    assert setting_row(out, "joker_beside_ace") == ["joker_beside_ace", "false", "true", "1.13"]
    assert setting_row(out, "max_multiplier") == [
        "max_multiplier",
        "null",
        "1 to 1000000, null",
        "1.18",
    ]
    assert setting_row(out, "rebuy_stakes") == ["rebuy_stakes", "[1, 2]", "1.22"]
    assert setting_row(out, "frish_window") == [
        "frish_window",
        "first_go_around",
        "never",
        "1.18",
    ]


@pytest.mark.parametrize(
    ("variant", "setting", "rule"),
    [
        ("carousel", "knock_limit", "2.11"),
        ("turkish500", "deal_pool", "3.11"),
        ("gin", "oklahoma", "4.6"),
    ],
)
def test_every_variant_names_the_rule_of_its_settings(
    variant: str, setting: str, rule: str
) -> None:
    cls = type(get_variant(variant))
    assert cls.rule_of(setting) == rule
    assert cls.rule_of("no_such_setting") is None
    unnamed = [name for name in cls().settings() if cls.rule_of(name) is None]
    assert unnamed == []


def test_variants_name_shows_a_two_player_game_as_2_players(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    @attrs.frozen(kw_only=True)
    class HeadsUp(Rummy101):
        """Rummy 101 for two."""

        name: ClassVar[str] = "headsup"
        title: ClassVar[str] = "Heads-up 101"
        max_players: ClassVar[int] = 2

    monkeypatch.setattr(cli, "get_variant", lambda name: HeadsUp())
    assert main(["variants", "headsup"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("headsup: Heads-up 101, 2 players\nRummy 101 for two.\n")


def test_variants_name_shows_the_rule_numbers_fields_carry(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    @attrs.frozen(kw_only=True)
    class Numbered(Rummy101):
        """Rummy 101 whose stake names its rule (:class:`~rummylib.variants.israeli.Rummy101`)."""

        name: ClassVar[str] = "numbered"
        stake: int = attrs.field(default=3, metadata={"rule": "1.19"})

    monkeypatch.setattr(cli, "get_variant", lambda name: Numbered())
    assert main(["variants", "numbered"]) == 0
    out = capsys.readouterr().out
    # The docstring's first line, without its markup.
    assert "\nRummy 101 whose stake names its rule (Rummy101).\n" in out
    assert setting_row(out, "stake") == ["stake", "3", "1.19"]
    assert "rule" in setting_row(out, "setting")


def test_variants_unknown_name_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    err = assert_one_line_error(capsys, ["variants", "canasta"])
    assert err.startswith("rummylib: argument NAME: unknown variant 'canasta'; known: carousel")


def test_simulate_help_lists_the_variant_names(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    help_text = " ".join(out.split())  # argparse wraps lines
    for name in CORE_VARIANTS:
        assert re.search(rf"\b{name}\b", help_text), name
    assert "(default: rummy101)" in help_text


@pytest.mark.parametrize(
    ("argv", "code", "out"),
    [
        (["Ah * 3h"], 0, "Ah *=2h 3h is a run; the joker stands for 2h\n"),
        # Rule 1.13: jokers keep away from aces in Rummy 71 / 101.
        (["--variant", "rummy101", "Ah * 3h"], 1, "Ah * 3h is not a meld: joker beside an ace\n"),
        (["--variant", "carousel", "Ah * 3h"], 0, "Ah *=2h 3h is a run; the joker stands for 2h\n"),
        # --ace and --joker-beside-ace change the variant's rules.
        (["--variant", "rummy101", "--joker-beside-ace", "Ah * 3h"], 0, "Ah *=2h 3h is a run; "),
        (["--variant", "rummy101", "Qh Kh Ah"], 0, "Qh Kh Ah is a run\n"),
        (["--variant", "rummy101", "--ace", "low", "Qh Kh Ah"], 1, "Qh Kh Ah is not a meld: "),
    ],
)
def test_check_under_a_variants_meld_rules(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: int, out: str
) -> None:
    got_code, got_out, err = run(capsys, *argv)
    assert (got_code, err) == (code, "")
    assert got_out.startswith(out)


def test_check_arrange_counts_the_variants_card_points(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # An ace in hand counts 1 by default and 15 in Turkish 500 (rule 3.9).
    assert run(capsys, "--arrange", "7c 7d 7h Ah") == (
        1,
        "7c 7d 7h | deadwood Ah (1 point)\n",
        "",
    )
    assert run(capsys, "--variant", "turkish500", "--arrange", "7c 7d 7h Ah") == (
        1,
        "7c 7d 7h | deadwood Ah (15 points)\n",
        "",
    )
    # --points still wins over the variant's values.
    code, out, _ = run(
        capsys, "--variant", "turkish500", "--arrange", "7c 7d 7h Ah", "--points", "ace=2"
    )
    assert (code, out) == (1, "7c 7d 7h | deadwood Ah (2 points)\n")


def test_check_arrange_discard_keeps_to_what_the_variant_lets_go(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Without a variant the spare card may be the joker; rule 1.9 never lets a joker go.
    assert run(capsys, "--arrange", "--discard", "7c 7d 7h *")[1] == (
        "7c 7d 7h | no deadwood | discard *\n"
    )
    code, out, _ = run(capsys, "--variant", "rummy101", "--arrange", "--discard", "7c 7d 7h *")
    assert code == 0
    assert out.startswith("7c 7d *=7")
    assert not out.endswith("discard *\n")


def test_check_unknown_variant_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    err = assert_one_line_error(capsys, ["check", "--variant", "canasta", "7h 8h 9h"])
    assert "argument --variant: unknown variant 'canasta'; known: carousel" in err


@pytest.mark.parametrize(
    ("cards", "code", "out"),
    [
        ("Ah 2h *=3h 4h", 0, "Ah 2h *=3h 4h is a run; the joker stands for 3h\n"),
        # Said in canonical order (the run from its low end), as the table stores it.
        ("*=3h Ah 2h", 0, "Ah 2h *=3h is a run; the joker stands for 3h\n"),
        ("9c *=Tc Jc *", 0, "9c *=Tc Jc *=Qc is a run; the jokers stand for Tc Qc\n"),
        ("7c *=7d 7h", 0, "7c *=7d 7h is a group; the joker stands for 7d\n"),
        ("7h 8h *=Th", 1, "7h 8h *=Th is not a meld: gap at 9h\n"),
    ],
)
def test_check_reads_declared_jokers(
    capsys: pytest.CaptureFixture[str], cards: str, code: int, out: str
) -> None:
    assert run(capsys, cards) == (code, out, "")


def test_check_declared_joker_under_the_israeli_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--variant", "rummy71", "Ah *=2h 3h") == (
        1,
        "Ah *=2h 3h is not a meld: joker beside an ace\n",
        "",
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "*=3x 4h 5h"], "rummylib: bad card '3x': unknown suit 'x'\n"),
        (["check", "7h=3h 8h 9h"], "only a joker may declare a card"),
        (["check", "*= 4h 5h"], "write a declared joker as '*=3h'"),
        (["check", "--arrange", "Ah *=2h 3h Kd"], "--arrange reads a hand: write the declared"),
    ],
)
def test_check_bad_declared_jokers_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in assert_one_line_error(capsys, argv)


def test_simulate_title_says_1_match_and_stays_on_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--variant", "carousel", "--players", "2", "--matches", "1"]
    assert main([*argv, "--backend", "serial"]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "carousel: 1 match, 2 players, bots greedy" in lines
    assert "matches" not in lines[0]


@pytest.mark.parametrize(("variant", "players"), [("gin", 2), ("rummy101", 4)])
def test_simulate_seats_four_players_or_as_near_as_the_variant_allows(
    capsys: pytest.CaptureFixture[str], variant: str, players: int
) -> None:
    # Gin is for two players: the default of four must not refuse to simulate it.
    argv = ["simulate", "--variant", variant, "--matches", "1", "--backend", "serial"]
    assert main(argv) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert f"{variant}: 1 match, {players} players, bots greedy" in lines


def test_simulate_with_mixed_bots_names_the_bot_in_each_seat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--variant", "carousel", "--players", "4", "--matches", "1"]
    assert main([*argv, "--bots", "greedy,random,random,greedy", "--backend", "serial"]) == 0
    out = capsys.readouterr().out
    title = "carousel: 1 match, 4 players, bots p1 greedy, p2 random, p3 random, p4 greedy"
    assert title in [line.strip() for line in out.splitlines()]
    for seat, bot in [("p1", "greedy"), ("p2", "random"), ("p3", "random"), ("p4", "greedy")]:
        assert re.search(rf"\b{seat}\b.*\b{bot}\b", out)


def test_simulate_where_no_match_finished_says_so_and_exits_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # No Carousel match ends within 10 actions: a deal alone takes more.
    argv = ["simulate", "--variant", "carousel", "--players", "2", "--matches", "2"]
    code = main([*argv, "--max-actions", "10", "--backend", "serial"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err == (
        "rummylib: no match finished within 10 actions; a higher --max-actions lets them end\n"
    )
    assert re.search(r"matches finished\W+0 of 2\b", captured.out)  # the summary still shows


@pytest.mark.parametrize(
    ("outputs", "message"),
    [
        (
            ["--json", "{tmp}/missing/run.json"],
            "cannot write --json .*: there is no folder .*/missing",
        ),
        (["--csv", "{tmp}"], "cannot write --csv .*: it is a folder"),
        (
            ["--json", "{tmp}/run.out", "--csv", "{tmp}/run.out"],
            "cannot write --csv .*: --json writes the same file",
        ),
    ],
)
def test_simulate_refuses_an_output_it_cannot_write_before_playing(
    outputs: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*args: object, **kwargs: object) -> None:
        pytest.fail("a match was played before the outputs were checked")

    monkeypatch.setattr(cli, "simulate", never)
    argv = ["simulate", "--variant", "gin", "--players", "2", "--matches", "3"]
    assert main([*argv, *(part.format(tmp=tmp_path) for part in outputs)]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(f"rummylib: {message}\n", err), err


class _Failing:
    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, observation: object) -> NoReturn:
        msg = "this bot always fails"
        raise RuntimeError(msg)


def test_simulate_where_every_match_stopped_with_an_error_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played = simulate

    def with_failing_bots(variant: object, **options: Any) -> object:
        return played(variant, **{**options, "bots": [_Failing]})  # type: ignore[arg-type]

    monkeypatch.setattr(cli, "simulate", with_failing_bots)
    argv = ["simulate", "--variant", "gin", "--players", "2", "--matches", "2"]
    assert main([*argv, "--backend", "serial"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "rummylib: no match finished: every match stopped with an error (the first are listed "
        "above)\n"
    )


def test_simulate_says_which_game_records_could_not_be_written_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played = simulate
    folder = tmp_path / "records"

    def blocking_match_1s_record(variant: object, **options: Any) -> object:
        def block(count: int) -> None:  # after match 0, as a full disk would
            (folder / "match-000001.toml").mkdir(exist_ok=True)

        return played(variant, **{**options, "progress": block})  # type: ignore[arg-type]

    monkeypatch.setattr(cli, "simulate", blocking_match_1s_record)
    argv = ["simulate", "--variant", "gin", "--players", "2", "--matches", "3"]
    code = main([*argv, "--backend", "serial", "--save-records", str(folder)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err == "rummylib: 1 game record could not be written (listed above)\n"
    assert re.search(r"game records not written\W+1\b", captured.out)
    assert "match 1's game record: cannot write the record" in captured.out
    assert sorted(path.name for path in folder.iterdir() if path.is_file()) == [
        "match-000000.toml",
        "match-000002.toml",
    ]
