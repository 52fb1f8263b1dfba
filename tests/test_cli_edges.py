"""Rough edges of the command line a newcomer meets (issue 28, issue 30 item 6)."""

from __future__ import annotations

import pytest

from rummylib.cli import main
from rummylib.errors import ConfigurationError
from rummylib.simulate import simulate
from rummylib.variants import VARIANTS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_under_a_variant_without_jokers_refuses_a_joker(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "check", "--variant", "gin", "7h * 9h")
    assert (code, out) == (2, "")
    assert err == "rummylib: gin is played without jokers: '*' is no card of its deck\n"
    code, _, err = run(capsys, "check", "--variant", "gin", "--arrange", "7h * 9h Kd")
    assert code == 2
    assert "gin is played without jokers" in err


def test_check_under_a_variant_with_jokers_still_reads_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "check", "--variant", "rummy101", "7h * 9h")
    assert (code, out) == (0, "7h *=8h 9h is a run; the joker stands for 8h\n")


def test_a_bare_rummylib_lists_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 2
    assert out == ""
    for command in ("check", "simulate", "play", "replay", "variants"):
        assert f"\n    {command} " in err
    assert err.startswith("usage: rummylib")
    assert "rummylib: a command is needed" in err


def test_variants_name_gives_the_range_of_a_numeric_setting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "variants", "gin")
    assert code == 0
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("│")}
    assert "0 to 10" in lines["knock_card"]
    assert "0 to 1" in lines["oklahoma_ace"]
    assert "1 to 1000000, null" in lines["target_score"]
    assert "true" in lines["oklahoma"]


#: The built-in variants (a plugin's own validators may say nothing of their range).
BUILT_IN = sorted(name for name, cls in VARIANTS.items() if cls.__module__.startswith("rummylib."))


@pytest.mark.parametrize("name", BUILT_IN)
def test_variants_name_gives_every_numeric_settings_range(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # a number or null (a number, or none: Rummikub's target_score) says what it may be
    code, out, _ = run(capsys, "variants", name)
    assert code == 0
    rows = [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in out.splitlines()
        if line.startswith("│")
    ]
    assert rows
    for setting, default, others, *_ in rows:
        if default == "null" or default.lstrip("-").isdigit():
            shown = " to " in others or " or more" in others
            assert shown, f"{name}.{setting}: no range shown ({others!r})"


def test_the_example_plugins_settings_show_their_range(capsys: pytest.CaptureFixture[str]) -> None:
    # examples/plugin declares its settings with rummylib.engine.whole, which the table reads
    if "knock7" not in VARIANTS:
        pytest.skip("the example plugin is not installed (pip install -e examples/plugin)")
    code, out, _ = run(capsys, "variants", "knock7")
    assert code == 0
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("│")}
    assert "0 to 50" in lines["knock_limit"]
    assert "0 to 50" in lines["fold_penalty"]


@pytest.mark.parametrize("count", ["99999999999999999999", "10000001"])
def test_simulate_refuses_more_matches_than_its_maximum(
    capsys: pytest.CaptureFixture[str], count: str
) -> None:
    code, out, err = run(capsys, "simulate", "--matches", count, "--backend", "serial")
    assert (code, out) == (2, "")
    assert err == (
        f"rummylib: argument --matches: must be a whole number from 1 to 10000000, not {count!r}\n"
    )


def test_simulate_api_refuses_more_matches_than_its_maximum() -> None:
    with pytest.raises(
        ConfigurationError, match=r"^matches must be at most 10000000, not 10000001$"
    ):
        simulate("gin", players=2, bots="random", matches=10_000_001, seed=1, backend="serial")


def test_a_bot_that_won_every_match_has_a_win_rate_of_100_percent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Two greedy seats against two random ones: greedy wins every Turkish 500 match here.
    argv = ["simulate", "--variant", "turkish500", "--players", "4", "--matches", "6"]
    code, out, _ = run(capsys, *argv, "--bots", "greedy,random,greedy,random", "--seed", "3")
    assert code == 0
    rows = [line for line in out.splitlines() if "greedy" in line and "│" in line]
    seat_wins = sum(float(line.split("│")[2]) for line in rows[:2])
    per_bot = rows[-1]
    assert seat_wins == 6
    assert "100.0%" in per_bot


def test_serve_is_a_command_with_the_web_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "rummylib serve" in out
    assert "--records DIR" in out
