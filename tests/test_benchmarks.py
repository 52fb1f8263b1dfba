"""The benchmark scripts run: each ``main`` with tiny arguments prints its tables.

Nothing here is timed or compared with a figure: the scripts measure, these tests only check
that they still run against the package as it is (and write the JSON the docs page is built
from).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    """Import ``benchmarks/<name>.py`` by path (``benchmarks/`` is not a package)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TINY_ENGINE = ["--variants", "gin", "--matches", "2", "--actions", "200", "--block", "100"]


def test_bench_engine_prints_a_row_per_variant_and_player_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "figures.json"
    status = load("bench_engine").main([*TINY_ENGINE, "--deals", "1", "--json", str(output)])
    assert status == 0
    printed = capsys.readouterr().out
    assert "µs/action" in printed
    assert "worst block" in printed
    assert "greedy deals/s" in printed
    (row,) = json.loads(output.read_text(encoding="utf-8"))["rows"]
    assert (row["variant"], row["players"], row["actions"], row["matches"]) == ("gin", 2, 400, 2)
    assert row["blocks"] == 4
    assert row["greedy_deals"] >= 1


def test_bench_engine_counts_only_whole_blocks() -> None:
    figures = load("bench_engine").random_play("gin", 2, matches=1, cap=50, block=1000, seed=1)
    assert figures["actions"] == 50
    assert figures["blocks"] == 0
    assert figures["worst_block_us"] is None


def test_bench_engine_compares_two_pythonpaths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both sides are this checkout: the point is that the child runs and the columns fill.
    output = tmp_path / "compare.json"
    repo = str(BENCHMARKS.parent)
    argv = [*TINY_ENGINE, "--deals", "0", "--compare", repo, "--rounds", "1"]
    assert load("bench_engine").main([*argv, "--json", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "µs before" in printed
    (row,) = json.loads(output.read_text(encoding="utf-8"))["rows"]
    assert row["before"]["actions"] == row["after"]["actions"] == 400
    assert row["random_speedup"] > 0


def test_bench_engine_peer_prints_each_rows_ratio_to_openspiel_gin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyspiel", reason="--peer times OpenSpiel's gin_rummy (open-spiel)")
    output = tmp_path / "peer.json"
    argv = [*TINY_ENGINE, "--deals", "0", "--peer", "--peer-games", "2", "--peer-rounds", "1"]
    assert load("bench_engine").main([*argv, "--json", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "µs/action" in printed  # the default table is printed as before
    assert "OpenSpiel" in printed
    assert printed.strip().splitlines()[-1].split()[:2] == ["gin", "2"]
    figures = json.loads(output.read_text(encoding="utf-8"))
    peer = figures["peer"]
    assert peer["library"] == "OpenSpiel gin_rummy"
    assert (peer["games"], peer["rounds"]) == (2, 1)
    assert peer["decisions"] > 0
    (row,) = figures["rows"]
    assert row["peer_ratio"] == pytest.approx(row["random_us"] / peer["random_us"])


def test_bench_engine_peer_says_so_without_pyspiel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` raises ImportError
    output = tmp_path / "peer.json"
    argv = [*TINY_ENGINE, "--deals", "0", "--peer", "--json", str(output)]
    assert load("bench_engine").main(argv) == 0
    printed = capsys.readouterr().out
    assert "µs/action" in printed
    assert "pyspiel is not installed" in printed
    figures = json.loads(output.read_text(encoding="utf-8"))
    assert figures["peer"] is None
    assert figures["rows"][0]["peer_ratio"] is None


def test_bench_engine_peer_does_not_combine_with_compare() -> None:
    with pytest.raises(SystemExit) as refused:
        load("bench_engine").main(["--peer", "--compare", str(BENCHMARKS.parent)])
    assert refused.value.code == 2


def test_bench_memory_prints_memory_and_json_tables(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "gin:2", "--lengths", "100,200", "--repeat", "1", "--attempts", "1"]
    assert load("bench_memory").main(argv) == 0
    printed = capsys.readouterr().out
    assert "B/action" in printed
    assert "from_json µs/act" in printed
    table = printed.split("Saving and loading")[1]
    assert [line.split()[2] for line in table.splitlines() if line.startswith("gin 2p")] == [
        "100",
        "200",
    ]


def test_bench_import_prints_what_the_import_adds(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("bench_import").main(["--runs", "1"]) == 0
    assert "import rummylib adds" in capsys.readouterr().out


def test_plot_engine_draws_a_bar_pair_per_row(tmp_path: Path) -> None:
    figures = {
        "rows": [
            {
                "variant": "gin",
                "players": 2,
                "before": {"random_us": 45.5},
                "after": {"random_us": 20.0},
            },
            {
                "variant": "carousel",
                "players": 4,
                "before": {"random_us": 2214.0},
                "after": {"random_us": 212.0},
            },
        ]
    }
    source = tmp_path / "figures.json"
    source.write_text(json.dumps(figures), encoding="utf-8")
    out = tmp_path / "chart.svg"
    assert load("plot_engine").main([str(source), str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert svg.count("<rect") == 4
    assert "gin (2p)" in svg
    assert "carousel (4p)" in svg
    assert "2.3&#215;" in svg  # 45.5 / 20.0
    assert "10.4&#215;" in svg  # 2214 / 212


def test_plot_engine_refuses_figures_without_before_and_after(tmp_path: Path) -> None:
    source = tmp_path / "figures.json"
    source.write_text(json.dumps({"rows": [{"variant": "gin"}]}), encoding="utf-8")
    assert load("plot_engine").main([str(source), str(tmp_path / "x.svg")]) == 2


def test_compare_envs_prints_the_gin_comparison_and_a_row_per_variant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("pettingzoo", reason="compare_envs needs the rl extra")
    module = load("compare_envs")
    assert module.main(["--seconds", "0.05", "--rounds", "1", "--variants", "gin"]) == 0
    out = capsys.readouterr().out
    assert "rummylib PettingZoo env" in out
    assert "RLCard" in out  # the ratio, or how to install RLCard
    assert out.strip().splitlines()[-1].split()[0] == "gin"
    # The fixed-length run that --instructions counts under valgrind.
    assert module.main(["--run-steps", "rummylib", "40"]) == 0
    assert module.pettingzoo_run("gin", seconds=None, steps=40, seed=1, one_deal=True) > 0


# -- the soak: a bounded slice of it runs here (benchmarks/soak.py runs it at scale) -----------

SOAK_SLICE = ["--variants", "gin,rummy500,indian_pool101,carousel", "--players", "2"]


def soak_table(path: Path) -> dict[str, dict[str, str]]:
    import csv  # noqa: PLC0415

    with path.open(encoding="utf-8") as file:
        return {row["variant"]: row for row in csv.DictReader(file)}


def test_soak_slice_plays_whole_matches_with_every_check_and_no_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "soak.csv"
    args = [*SOAK_SLICE, "--matches", "1", "--backend", "serial", "--csv", str(table)]
    assert load("soak").main(args) == 0
    printed = capsys.readouterr().out
    assert "FAILED" not in printed
    rows = soak_table(table)
    assert set(rows) == {"gin", "rummy500", "indian_pool101", "carousel", "total"}
    for name, row in rows.items():
        assert row["matches"] == row["finished"] == ("4" if name == "total" else "1"), row
        assert int(row["failures"]) == 0
        # Every step checks cards, turn, listing both ways, observation and leak: 6 per action.
        assert int(row["checks"]) > 6 * int(row["actions"]) > 0, row


def test_soak_gives_the_same_figures_on_the_process_backend(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    soak = load("soak")
    # Worker processes find the batches' function by its module, as a script's __main__.
    monkeypatch.setitem(sys.modules, soak.__name__, soak)
    tables = {}
    for backend in ("serial", "process"):
        table = tmp_path / f"{backend}.csv"
        args = ["--variants", "indian_points,knock7", "--matches", "3", "--batch", "1"]
        assert soak.main([*args, "--backend", backend, "--workers", "2", "--csv", str(table)]) == 0
        tables[backend] = {
            name: {key: value for key, value in row.items() if key != "cpu hours"}
            for name, row in soak_table(table).items()
        }
    assert tables["serial"] == tables["process"]
    assert tables["serial"]["indian_points"]["players"] == "2-4"  # matches 0, 1, 2: 2, 3, 4


def test_soak_says_why_it_skips_the_ray_backend_without_ray(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed: the ray backend runs")
    assert load("soak").main(["--variants", "gin", "--backend", "ray"]) == 0
    assert "skipped: the ray backend needs Ray" in capsys.readouterr().out


def test_soak_reports_a_failed_check_with_a_replay_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    soak = load("soak")
    monkeypatch.setattr(soak, "check_cards", lambda state, deck: "cards not conserved: planted")
    args = ["--variants", "indian_points", "--players", "2", "--backend", "serial"]
    assert soak.main(args) == 1
    printed = capsys.readouterr().out
    assert "FAILED cards: indian_points, 1 match(es)" in printed
    assert "planted" in printed
    assert "--match-seed 100003" in printed
