"""rummylib.simulate (issue 16): the same records from every backend, errors, JSON/CSV, CLI."""

from __future__ import annotations

import concurrent.futures
import csv
import io
import json
import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from rummylib import new_game, records
from rummylib.actions import Action
from rummylib.bots import Bot, GreedyBot, RandomBot, play
from rummylib.cards import Rank
from rummylib.cli import main
from rummylib.errors import ConfigurationError
from rummylib.registry import VARIANTS
from rummylib.simulate import (
    MAX_PROCESS_WORKERS,
    MatchRecord,
    SimulationResult,
    match_seed,
    read_csv,
    record_path,
    seat_seed,
    simulate,
    wilson_interval,
)
from rummylib.state import GameState
from rummylib.variants import get_variant
from rummylib.views import Observation

# Small runs: few matches, and few actions for the slow greedy Carousel solver.
MAX_ACTIONS = {"carousel": 40}
# The built-in variants (Ray's workers do not see the test session's example plugin).
BUILT_IN = sorted(name for name, cls in VARIANTS.items() if cls.__module__.startswith("rummylib."))


def options(variant: str, **extra: object) -> dict[str, Any]:
    return {
        "players": 2,
        "bots": "greedy",
        "matches": 4,
        "seed": 11,
        "max_actions": MAX_ACTIONS.get(variant, 150),
        **extra,
    }


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # The ray extra is optional: the README's plain `pip install -e '.[test]'` lacks it, and the
    # tests that need it are skipped there, saying so. .ci/run installs it, so they run in CI.
    ray = pytest.importorskip(
        "ray", reason="the ray extra is not installed (pip install -e '.[ray]')"
    )
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        yield
    finally:
        ray.shutdown()


# -- one match, whatever runs it ----------------------------------------------------------------


def test_a_record_is_the_match_new_game_and_play_give() -> None:
    result = simulate("rummy71", players=3, bots="greedy", matches=2, seed=4, backend="serial")
    for index, record in enumerate(result.records):
        state = play(
            new_game("rummy71", players=3, seed=match_seed(4, index)),
            [GreedyBot()] * 3,
        )
        assert record.index == index
        assert record.seed == match_seed(4, index)
        assert state.result is not None
        assert record.winners == state.result.winners
        assert record.scores == state.scores
        assert record.deals == len(state.deal_results)
        assert record.actions == len(state.history)
        assert record.is_finished
        assert record.error is None


def test_match_seeds_depend_on_the_seed_and_the_index_only() -> None:
    seeds = {match_seed(seed, index) for seed in range(20) for index in range(50)}
    assert len(seeds) == 1000  # unlike seed * k + index, no two runs share a match
    assert match_seed(3, 7) == match_seed(3, 7)


def test_more_matches_start_with_the_same_matches() -> None:
    few = simulate("rummy71", **options("rummy71", matches=2, backend="serial"))
    more = simulate("rummy71", **options("rummy71", matches=4, backend="process"))
    assert more.records[:2] == few.records


@pytest.mark.parametrize("workers", [1, 3])
def test_any_number_of_process_workers_gives_the_serial_records(workers: int) -> None:
    serial = simulate("rummy101", **options("rummy101", matches=5, backend="serial"))
    pooled = simulate(
        "rummy101", **options("rummy101", matches=5, backend="process", workers=workers)
    )
    assert pooled.records == serial.records
    assert pooled.workers == workers


@pytest.mark.usefixtures("local_ray")
@pytest.mark.parametrize("variant", BUILT_IN)
def test_serial_process_and_ray_agree_on_every_variant(variant: str) -> None:
    serial = simulate(variant, **options(variant, matches=3, backend="serial"))
    pooled = simulate(variant, **options(variant, matches=3, backend="process", workers=2))
    on_ray = simulate(variant, **options(variant, matches=3, backend="ray"))
    assert [record.index for record in serial.records] == [0, 1, 2]
    assert pooled.records == serial.records
    assert on_ray.records == serial.records
    assert on_ray.backend == "ray"
    assert on_ray.workers == 2  # the local Ray's CPUs
    names = [name for name, _ in serial.records[0].statistics]
    assert names == [name for name, _ in serial.summary.statistics]


def test_every_built_in_variant_is_tested() -> None:
    assert len(BUILT_IN) == 13  # the seven of wave 1, gin, the four Indian formats, Rummikub


def test_variant_statistics_are_named_by_the_variant() -> None:
    expected = {
        "rummy101": ["rebuys", "frish proposed", "frish accepted"],
        "carousel": ["knocks", "went out"],
        "turkish500": ["went out", "went out with the dealt hand"],
    }
    for variant, names in expected.items():
        state = new_game(variant, players=2, seed=1)
        assert [name for name, _ in state.variant.match_statistics(state)] == names


def test_settings_reach_every_match() -> None:
    result = simulate(
        "rummy101", **options("rummy101", matches=1, backend="serial"), settings={"stake": 5}
    )
    assert result.settings["stake"] == 5
    direct = simulate(
        get_variant("rummy101", stake=5), **options("rummy101", matches=1, backend="serial")
    )
    assert direct.records == result.records


# -- errors --------------------------------------------------------------------------------------


class TouchyBot:
    """Plays greedily, but raises the first time it holds three kings."""

    def __init__(self, seed: int) -> None:
        self._greedy = GreedyBot()

    def choose(self, observation: Observation) -> Action:
        if sum(card.rank == Rank.KING for card in observation.hand) >= 3:
            msg = "boom: three kings"
            raise ValueError(msg)
        return self._greedy.choose(observation)


def touchy_bots() -> list[Bot]:
    return [GreedyBot(), TouchyBot(0)]


def crashes(seed: int, index: int, max_actions: int) -> bool:
    state = new_game("rummy71", players=2, seed=match_seed(seed, index))
    try:
        play(state, touchy_bots(), max_actions=max_actions)
    except ValueError:
        return True
    return False


@pytest.mark.parametrize("backend", ["serial", "process"])
def test_a_crashing_bot_is_its_matches_error_and_the_run_goes_on(backend: str) -> None:
    seed, matches, limit = 2, 6, 400
    expected = [crashes(seed, index, limit) for index in range(matches)]
    assert any(expected)
    assert not all(expected)  # the seed gives both kinds of match
    result = simulate(
        "rummy71",
        players=2,
        bots=["greedy", TouchyBot],
        matches=matches,
        seed=seed,
        max_actions=limit,
        backend=backend,  # type: ignore[arg-type]
        workers=2,
    )
    assert len(result.records) == matches
    assert [record.error is not None for record in result.records] == expected
    for record in result.records:
        if record.error is not None:
            assert record.error == "ValueError: boom: three kings"
            assert not record.is_finished
            assert record.winners == ()
    assert result.summary.errors == sum(expected)
    assert result.bots == ("greedy", "TouchyBot")


class BoomBot:
    """Plays greedily, then raises at its 41st choice."""

    def __init__(self, seed: int) -> None:
        self._greedy = GreedyBot()
        self._choices = 0

    def choose(self, observation: Observation) -> Action:
        self._choices += 1
        if self._choices > 40:
            msg = "boom at my 41st choice"
            raise ValueError(msg)
        return self._greedy.choose(observation)


def state_before_p1s_41st_choice(seed: int) -> GameState:
    """Gin with two greedy bots, one action at a time, up to p1's 41st choice."""
    state = new_game("gin", players=2, seed=seed)
    choices = 0
    while True:
        assert not state.is_over  # the match must still be on when BoomBot raises
        if state.to_act[0] == 0:
            choices += 1
            if choices == 41:
                return state
        state = play(state, [GreedyBot(), GreedyBot()], max_actions=1)


@pytest.mark.parametrize("backend", ["serial", "process"])
def test_a_match_stopped_by_an_error_keeps_its_deals_actions_and_game_record(
    backend: str, tmp_path: Path
) -> None:
    result = simulate(
        "gin",
        players=2,
        bots=[BoomBot, "greedy"],
        matches=2,
        seed=3,
        backend=backend,  # type: ignore[arg-type]
        workers=2,
        save_records=tmp_path,
    )
    for record in result.records:
        before = state_before_p1s_41st_choice(record.seed)
        assert record.error == "ValueError: boom at my 41st choice"
        assert record.actions == len(before.history) > 40
        assert record.deals == len(before.deal_results)
        assert record.statistics == before.variant.match_statistics(before)
        assert (record.is_finished, record.winners, record.scores) == (False, (), ())
        assert record.record_error is None
        saved = records.load(record_path(tmp_path, record.index))
        assert saved.final_state == before  # the game record up to the error
    assert result.summary.errors == 2


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ({"backend": "gpu"}, "unknown backend 'gpu'; backends: serial, process, ray"),
        ({"bots": "clever"}, "unknown bot 'clever'; bots: greedy, random"),
        ({"bots": ["greedy"] * 3}, "3 bots for 2 players"),
        ({"matches": 0}, "matches must be at least 1, not 0"),
        ({"workers": 0}, "workers must be at least 1, not 0"),
        ({"players": 9}, "rummy71 is for 2 to 6 players, not 9"),
        ({"settings": {"colour": "red"}}, "unknown setting 'colour' for rummy71"),
        ({"max_actions": -1}, "max_actions must be at least 1, not -1"),
        ({"max_actions": 0}, "max_actions must be at least 1, not 0"),
        ({"max_actions": "x"}, "max_actions must be None or a whole number, not 'x'"),
        ({"max_actions": 2.5}, "max_actions must be None or a whole number, not 2.5"),
        ({"max_actions": True}, "max_actions must be None or a whole number, not True"),
        ({"seed": None}, "seed must be a whole number, not None"),
        ({"seed": True}, "seed must be a whole number, not True"),
        ({"seed": "1"}, "seed must be a whole number, not '1'"),
        ({"seed": 1.0}, "seed must be a whole number, not 1.0"),
        ({"bots": None}, "bots must be a bot name, a bot factory or a sequence of them"),
        ({"bots": 3}, "bots must be a bot name, a bot factory or a sequence of them"),
        (
            {"bots": GreedyBot()},
            "not a GreedyBot instance: pass a factory that makes a fresh bot from a seed",
        ),
        (
            {"bots": ["greedy", GreedyBot()]},
            "a bot must be a name or a factory, not a GreedyBot instance: pass a factory",
        ),
        (
            {"backend": "process", "workers": MAX_PROCESS_WORKERS + 1},
            f"workers must be at most 1024 for the process backend, not {MAX_PROCESS_WORKERS + 1}",
        ),
    ],
)
def test_bad_arguments_are_refused_before_any_match(
    argument: dict[str, object], message: str, tmp_path: Path
) -> None:
    def no_match_may_run(count: int) -> None:
        pytest.fail("a match ran before the arguments were checked")

    arguments: dict[str, Any] = {
        **options("rummy71", backend="serial"),
        "progress": no_match_may_run,
        "save_records": tmp_path / "records",
        **argument,
    }
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        simulate("rummy71", **arguments)
    assert not (tmp_path / "records").exists()  # not even the records directory was made


def test_a_factory_that_does_not_pickle_is_refused_up_front_on_the_process_backend() -> None:
    class LocalBot(GreedyBot):  # a class made in a function does not pickle
        def __init__(self, seed: int) -> None:
            super().__init__()

    for factory in (lambda seed: GreedyBot(), LocalBot):
        with pytest.raises(ConfigurationError) as caught:
            simulate("rummy71", **options("rummy71", bots=["greedy", factory], workers=1))
        message = str(caught.value)
        assert message.startswith(f"the bot factory {factory.__qualname__} cannot be sent")
        assert message.endswith(
            "define it at module level, or use backend='serial' or backend='ray'"
        )
        # The serial backend sends nothing to other processes: the same factory plays there.
        arguments = options("rummy71", bots=["greedy", factory], matches=1, backend="serial")
        serial = simulate("rummy71", **arguments)
        assert serial.records[0].error is None


# -- Ctrl-C ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["serial", "process"])
def test_ctrl_c_keeps_the_matches_played_so_far(backend: str) -> None:
    reference = simulate("rummy71", **options("rummy71", matches=8, backend="serial"))
    seen: list[int] = []

    def ctrl_c_after_two(count: int) -> None:
        seen.append(count)
        if sum(seen) >= 2:
            raise KeyboardInterrupt

    result = simulate(
        "rummy71",
        **options("rummy71", matches=8, backend=backend, workers=2),
        progress=ctrl_c_after_two,
    )
    assert result.is_interrupted
    assert 2 <= len(result.records) < 8
    by_index = {record.index: record for record in reference.records}
    for record in result.records:
        assert record == by_index[record.index]


# Seat 1's seeds in match 0 of a run with seed 11: the fast matches of the Ctrl-C tests below.
FAST_SEEDS = {seat_seed(match_seed(11, 0), 1)}


class SlowUnlessFirstBot:
    """Greedy; but a second a move in every match but the first of seed 11 (a minute a match)."""

    def __init__(self, seed: int) -> None:
        self._greedy = GreedyBot()
        self._slow = seed not in FAST_SEEDS

    def choose(self, observation: Observation) -> Action:
        if self._slow:
            time.sleep(1.0)
        return self._greedy.choose(observation)


def test_ctrl_c_on_the_process_backend_stops_the_running_chunks_between_actions() -> None:
    reference = simulate("rummy71", **options("rummy71", matches=1, backend="serial"))

    def ctrl_c(count: int) -> None:
        raise KeyboardInterrupt

    result = simulate(
        "rummy71",
        **options("rummy71", bots=["greedy", SlowUnlessFirstBot], backend="process", workers=2),
        progress=ctrl_c,  # after match 0, the only fast one, in a chunk of its own
    )
    assert result.is_interrupted
    # Match 0 only: the matches being played were dropped, where the workers used to play
    # their chunks to the end (a minute or more of slow moves) and hand them in.
    assert result.records == reference.records


@pytest.mark.usefixtures("local_ray")
def test_ctrl_c_on_ray_without_progress_keeps_the_finished_chunks() -> None:
    # Chunks of one match each on two CPUs: matches 0 and 1 are fast and run first; match 2's
    # bot, once they have had time to end, sends Ctrl-C to this process; 2 and 3 are slow.
    driver = os.getpid()
    fast = {seat_seed(match_seed(11, index), 1) for index in (0, 1)}
    ctrl_c_seed = seat_seed(match_seed(11, 2), 1)

    class SlowBot:
        def __init__(self, seed: int) -> None:
            self.greedy = GreedyBot()
            self.slow = seed not in fast
            if seed == ctrl_c_seed:
                time.sleep(3.0)  # time enough for matches 0 and 1, even on a loaded machine
                os.kill(driver, signal.SIGINT)

        def choose(self, observation: Observation) -> Action:
            if self.slow:
                time.sleep(0.1)
            return self.greedy.choose(observation)

    reference = simulate("rummy71", **options("rummy71", matches=2, backend="serial"))
    result = simulate(
        "rummy71", **options("rummy71", bots=["greedy", SlowBot], backend="ray", workers=2)
    )
    assert result.is_interrupted
    assert result.workers == 2  # said even when interrupted
    assert result.records  # the finished chunks are kept
    assert set(result.records) <= set(reference.records)


# -- workers --------------------------------------------------------------------------------------


def test_no_more_worker_processes_start_than_there_are_chunks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[int | None] = []
    pool = concurrent.futures.ProcessPoolExecutor

    class CountingPool(pool):  # type: ignore[valid-type, misc]
        def __init__(self, max_workers: int | None = None, **kwargs: Any) -> None:
            started.append(max_workers)
            super().__init__(max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", CountingPool)
    result = simulate("rummy71", **options("rummy71", matches=2, backend="process", workers=30))
    assert started == [2]  # two matches: two chunks of one
    assert result.workers == 2
    assert result.records == simulate("rummy71", **options("rummy71", matches=2)).records


# -- game records ---------------------------------------------------------------------------------


def test_a_records_directory_with_a_folder_where_a_record_goes_is_refused_up_front(
    tmp_path: Path,
) -> None:
    record_path(tmp_path, 1).mkdir()
    with pytest.raises(ConfigurationError, match=r"cannot write match 1's record: .* not a file"):
        simulate("gin", **options("gin", matches=3, backend="serial"), save_records=tmp_path)
    assert not record_path(tmp_path, 0).exists()  # no match ran
    # Past the matches asked for, such a folder is in nobody's way.
    result = simulate("gin", **options("gin", matches=1, backend="serial"), save_records=tmp_path)
    assert result.records[0].record_error is None
    assert record_path(tmp_path, 0).is_file()


def test_a_records_directory_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="cannot make the records directory"):
        simulate("gin", **options("gin", backend="serial"), save_records=tmp_path / "file")


def test_a_record_that_cannot_be_written_mid_run_is_said_and_the_counts_add_up(
    tmp_path: Path,
) -> None:
    def block_match_1s_record(count: int) -> None:
        if not record_path(tmp_path, 1).exists():
            record_path(tmp_path, 1).mkdir()  # after match 0, as a full disk would

    plain = simulate("gin", **options("gin", matches=3, backend="serial", max_actions=None))
    result = simulate(
        "gin",
        **options("gin", matches=3, backend="serial", max_actions=None),
        progress=block_match_1s_record,
        save_records=tmp_path,
    )
    failed = result.records[1]
    assert failed.record_error is not None
    assert failed.record_error.startswith("cannot write the record: ")
    assert failed.error is None  # the match itself is sound: it counts as usual
    assert attrs.evolve(failed, record_error=None) == plain.records[1]
    assert [r.record_error for r in (result.records[0], result.records[2])] == [None, None]
    summary = result.summary
    assert (summary.played, summary.finished, summary.unfinished, summary.errors) == (3, 3, 0, 0)
    assert summary.record_errors == 1
    assert summary.seat_win_rates == plain.summary.seat_win_rates
    assert SimulationResult.from_json(result.to_json()).records == result.records
    assert read_csv(result.to_csv()) == result.records


# -- replaying a match ----------------------------------------------------------------------------


def test_a_match_with_random_bots_replays_from_its_seed_and_the_seat_seeds() -> None:
    result = simulate(
        "rummy71", **options("rummy71", bots=["random", RandomBot], matches=2, backend="serial")
    )
    for record in result.records:
        state = play(
            new_game("rummy71", players=2, seed=record.seed),
            [RandomBot(seed=seat_seed(record.seed, seat)) for seat in range(2)],
            max_actions=result.max_actions,
        )
        assert record.actions == len(state.history) == result.max_actions
        assert record.scores == state.scores
        assert record.statistics == state.variant.match_statistics(state)
    assert seat_seed(7, 0) != seat_seed(7, 1) != seat_seed(8, 1)


# -- summary -------------------------------------------------------------------------------------


def test_wilson_interval_matches_published_values() -> None:
    # Newcombe (1998), table I: 81/263 -> 0.2553-0.3662; 0/10 -> 0-0.2775; 50/100 -> .4038-.5962
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    low, high = wilson_interval(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)


def test_summary_counts_shared_wins_unfinished_matches_and_errors() -> None:
    records = (
        MatchRecord(index=0, seed=1, winners=(0,), deals=2, actions=10, is_finished=True),
        MatchRecord(index=1, seed=2, winners=(0, 1), deals=4, actions=30, is_finished=True),
        MatchRecord(index=2, seed=3, deals=6, actions=50, statistics=(("knocks", 2),)),
        MatchRecord(index=3, seed=4, error="ValueError: x", statistics=()),
        # Finished, but its game record could not be written: finished all the same.
        MatchRecord(
            index=4, seed=5, winners=(2,), is_finished=True, record_error="cannot write: full"
        ),
    )
    result = SimulationResult(
        variant="carousel",
        settings={},
        players=3,
        bots=("greedy", "random", "greedy"),
        seed=0,
        matches=5,
        max_actions=50,
        backend="serial",
        workers=1,
        records=records,
        elapsed=2.0,
    )
    summary = result.summary
    assert (summary.played, summary.finished, summary.unfinished, summary.errors) == (5, 3, 1, 1)
    assert summary.record_errors == 1
    assert [rate.wins for rate in summary.seat_win_rates] == [1.5, 0.5, 1.0]
    assert [rate.matches for rate in summary.seat_win_rates] == [3, 3, 3]
    assert summary.seat_win_rates[0].rate == 0.5
    bots = dict(summary.bot_win_rates)
    # Per bot: the share of the 3 finished matches a seat of that bot won (issue 28: with
    # two greedy seats, 2.5 of 6 seat-matches read as a rate below the bot's real one).
    assert (bots["greedy"].wins, bots["greedy"].matches) == (2.5, 3)
    assert (bots["random"].wins, bots["random"].matches) == (0.5, 3)
    assert summary.deals_per_match == 12 / 5
    assert summary.actions_per_second == 45.0
    assert summary.statistics == (("knocks", 2),)
    assert str(summary.seat_win_rates[1]).startswith("16.7% (")
    assert summary.to_dict()["record_errors"] == 1


def test_finished_unfinished_and_errors_add_up_to_played_even_for_old_records() -> None:
    # Before record_error, a record that could not be written was the match's error, on a
    # finished match: it counted as finished and as an error (unfinished -1).
    old = MatchRecord(
        index=0, seed=1, winners=(0,), is_finished=True, error="cannot write the record: x"
    )
    result = SimulationResult(
        variant="gin",
        settings={},
        players=2,
        bots=("greedy", "greedy"),
        seed=0,
        matches=1,
        max_actions=None,
        backend="serial",
        workers=1,
        records=(old,),
        elapsed=1.0,
    )
    summary = result.summary
    assert (summary.played, summary.finished, summary.unfinished, summary.errors) == (1, 0, 0, 1)


# -- JSON and CSV ---------------------------------------------------------------------------------


def small_result() -> SimulationResult:
    return simulate("rummy101", **options("rummy101", matches=3, backend="serial"))


def test_json_round_trip() -> None:
    result = small_result()
    text = result.to_json()
    assert SimulationResult.from_json(text) == result
    data = json.loads(text)
    assert data["variant"] == "rummy101"
    assert len(data["records"]) == 3
    assert data["records"][1]["seed"] == match_seed(11, 1)
    assert data["summary"]["played"] == 3
    assert set(data["summary"]["statistics"]) == {"rebuys", "frish proposed", "frish accepted"}
    assert len(data["summary"]["seat_win_rates"]) == 2


def test_csv_round_trip() -> None:
    result = small_result()
    text = result.to_csv()
    assert read_csv(text) == result.records
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 3
    assert list(rows[0]) == [
        "index",
        "seed",
        "winners",
        "scores",
        "deals",
        "actions",
        "is_finished",
        "error",
        "record_error",
        "rebuys",
        "frish proposed",
        "frish accepted",
    ]
    for row, record in zip(rows, result.records, strict=True):
        assert row["winners"] == " ".join(str(seat) for seat in record.winners)
        assert int(row["seed"]) == record.seed


def test_json_and_csv_written_before_record_error_are_read() -> None:
    result = small_result()
    data = json.loads(result.to_json())
    for record in data["records"]:
        del record["record_error"]
    assert SimulationResult.from_json(json.dumps(data)) == result
    rows = list(csv.reader(io.StringIO(result.to_csv())))
    assert rows[0][8] == "record_error"
    old = io.StringIO()
    csv.writer(old, lineterminator="\n").writerows(row[:8] + row[9:] for row in rows)
    assert read_csv(old.getvalue()) == result.records


def test_bad_json_and_csv_are_refused() -> None:
    with pytest.raises(ValueError, match="not a simulation result"):
        SimulationResult.from_json('{"variant": "rummy71"}')
    with pytest.raises(ValueError, match="not a simulation CSV"):
        read_csv("a,b\n1,2\n")


# -- the command line ----------------------------------------------------------------------------


def test_cli_writes_json_and_csv_with_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json, out_csv = tmp_path / "run.json", tmp_path / "run.csv"
    argv = ["simulate", "--variant", "rummy101", "--players", "2", "--matches", "3"]
    argv += ["--seed", "11", "--max-actions", "150", "--workers", "2", "--backend", "process"]
    argv += ["--set", "stake=5", "--set", "first_rebuy_mandatory=false"]
    code = main([*argv, "--json", str(out_json), "--csv", str(out_csv)])
    out = capsys.readouterr().out
    assert code == 1  # no match finishes within 150 actions: said, and exit 1 (issue 17)
    saved = SimulationResult.from_json(out_json.read_text(encoding="utf-8"))
    assert saved.settings["stake"] == 5
    assert saved.settings["first_rebuy_mandatory"] is False
    assert (saved.backend, saved.workers) == ("process", 2)
    library = simulate(
        "rummy101",
        **options("rummy101", matches=3, backend="serial"),
        settings={"stake": 5, "first_rebuy_mandatory": False},
    )
    assert saved.records == library.records
    assert read_csv(out_csv.read_text(encoding="utf-8")) == library.records
    for figure in ("rebuys", "frish proposed", "frish accepted", "process (2 workers)"):
        assert figure in out


def test_cli_shows_only_the_variants_own_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--variant", "carousel", "--players", "2", "--matches", "1"]
    assert main([*argv, "--max-actions", "40", "--backend", "serial"]) == 1  # none finished
    out = capsys.readouterr().out
    assert "knocks" in out
    assert "went out" in out
    assert "rebuys" not in out
    assert "frish" not in out


def test_cli_text_settings_and_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--variant", "rummy101", "--players", "2", "--matches", "1"]
    argv += ["--backend", "serial", "--max-actions", "50"]
    # Not JSON, so read as text: the variant reads its own choices.
    assert main([*argv, "--set", "frish_window=never"]) == 1  # read; no match finished
    capsys.readouterr()
    assert main([*argv, "--set", "colour=red"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummylib: unknown setting 'colour' for rummy101")
    assert err.count("\n") == 1
    assert main([*argv, "--set", "stake"]) == 2
    err = capsys.readouterr().err
    assert "bad setting 'stake': expected key=value" in err
    assert main([*argv, "--backend", "gpu"]) == 2
    assert "invalid choice: 'gpu'" in capsys.readouterr().err


def test_cli_unwritable_output_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--variant", "rummy71", "--players", "2", "--matches", "1"]
    missing = tmp_path / "no" / "such" / "dir" / "run.json"
    assert main([*argv, "--backend", "serial", "--json", str(missing)]) == 2
    assert "rummylib: cannot write --json" in capsys.readouterr().err


@pytest.mark.usefixtures("local_ray")
def test_cli_ray_backend_uses_the_running_ray(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "ray.json"
    argv = ["simulate", "--variant", "rummy71", "--players", "2", "--matches", "4"]
    argv += ["--seed", "11", "--max-actions", "150", "--backend", "ray"]
    assert main([*argv, "--json", str(out_json)]) == 0
    assert "ray (2 workers)" in capsys.readouterr().out
    saved = SimulationResult.from_json(out_json.read_text(encoding="utf-8"))
    assert saved.records == simulate("rummy71", **options("rummy71", backend="serial")).records
