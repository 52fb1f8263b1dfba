"""Bots play many matches, on one core, on every core, or on a Ray cluster.

:func:`simulate` plays ``matches`` matches of one variant and returns a
:class:`SimulationResult`: one :class:`MatchRecord` per match and a :class:`Summary` with win
rates and their 95% confidence intervals (Wilson score intervals, see :class:`WinRate`).

Every match gets its own seed, derived from ``(seed, match_index)`` alone (:func:`match_seed`),
and its bots are made afresh for it, so a match plays the same whichever backend runs it, in
whichever order, with however many workers: the records of a run are identical to those of a
serial run with the same seed.

>>> from rummylib.simulate import simulate
>>> result = simulate("rummy71", players=2, bots="greedy", matches=3, seed=1, backend="serial")
>>> [record.index for record in result.records], result.summary.finished
([0, 1, 2], 3)
>>> result.records == simulate(
...     "rummy71", players=2, bots="greedy", matches=3, seed=1, backend="process", workers=2
... ).records
True

Backends:

- ``"serial"``: in this process, one match after another.
- ``"process"``: a ``concurrent.futures.ProcessPoolExecutor`` with ``workers`` processes
  (default ``os.cpu_count()``, at most :data:`MAX_PROCESS_WORKERS`, and never more than there
  are chunks); matches go out in chunks of consecutive indices, so each task costs one small
  message each way.
- ``"ray"`` (``pip install 'rummylib[ray]'``): one Ray task per chunk, on the Ray that is
  already initialised (a local one or a cluster joined with ``ray.init(address=...)``), else
  on one started with ``ray.init(**ray_init)``. Each chunk's records are collected as it
  finishes (``ray.wait``, then ``ray.get`` of the finished chunks).
"""

from __future__ import annotations

import concurrent.futures
import csv
import functools
import hashlib
import io
import json
import math
import multiprocessing
import os
import pickle
import re
import signal
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any, Literal, TypeAlias

import attrs

from rummylib import records
from rummylib.actions import Action
from rummylib.bots import Bot, GreedyBot, RandomBot, play
from rummylib.engine import Variant
from rummylib.errors import ConfigurationError, RummyError, shorten
from rummylib.registry import get_variant
from rummylib.state import GameState, new_game
from rummylib.views import Observation

__all__ = [
    "BOT_NAMES",
    "MAX_PROCESS_WORKERS",
    "BotFactory",
    "MatchRecord",
    "SimulationResult",
    "Summary",
    "WinRate",
    "match_seed",
    "read_csv",
    "record_path",
    "seat_seed",
    "simulate",
    "wilson_interval",
]

#: Makes the bot of one seat for one match from that seat's seed
#: (:class:`~rummylib.bots.RandomBot` is one). With the ``"process"`` backend it must pickle
#: (a module-level function or class).
BotFactory: TypeAlias = Callable[[int], Bot]

Backend: TypeAlias = Literal["serial", "process", "ray"]


def _greedy(seed: int) -> Bot:
    return GreedyBot()


def _random(seed: int) -> Bot:
    return RandomBot(seed=seed)


#: The bots :func:`simulate` knows by name.
BOT_NAMES: Mapping[str, BotFactory] = {"greedy": _greedy, "random": _random}

_BACKENDS = ("serial", "process", "ray")

#: The most ``workers`` the ``"process"`` backend accepts: a process per CPU is the useful
#: most, and more than this is a mistake (a typo, or a cluster's size meant for ``"ray"``).
MAX_PROCESS_WORKERS = 1024
_Z95 = 1.959963984540054  # the 97.5% point of the standard normal distribution


def _derive(*parts: int) -> int:
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def match_seed(seed: int, index: int) -> int:
    """The seed of match number ``index`` (from 0) in a simulation with ``seed``.

    A 64-bit hash of both numbers: neighbouring seeds and indices give unrelated matches.

    >>> match_seed(1, 0) == match_seed(1, 0) != match_seed(1, 1)
    True
    >>> 0 <= match_seed(1, 0) < 2**64
    True
    """
    return _derive(seed, index)


def seat_seed(seed: int, seat: int) -> int:
    """The seed the bot factory of ``seat`` (from 0) gets in the match whose seed is ``seed``.

    With it any match of a simulation replays, whatever its bots: ``play(new_game(variant,
    players=players, seed=record.seed), [factory(seat_seed(record.seed, seat)) for seat,
    factory in enumerate(factories)], max_actions=result.max_actions)`` reaches the state
    ``record`` describes (a built-in bot's factory is :data:`BOT_NAMES` ``[name]``).

    >>> seat_seed(5, 0) == seat_seed(5, 0) != seat_seed(5, 1)
    True
    """
    return _derive(seed, seat)


def wilson_interval(successes: float, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``successes`` out of ``trials``.

    ``z=1.96`` (the default) gives the 95% interval. Unlike the normal ("Wald") interval it
    stays inside 0…1 and is sound for rates near 0 or 1 and for small counts. No trials: the
    whole range.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 10)[0], wilson_interval(0, 0)
    (0.0, (0.0, 1.0))
    """
    if trials <= 0:
        return (0.0, 1.0)
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen(kw_only=True)
class MatchRecord:
    """What happened in one simulated match.

    Attributes:
        index: the match's number in the simulation, from 0.
        seed: the match's seed (:func:`match_seed`): ``new_game(variant, players=players,
            seed=seed)`` with the bots the factories make from :func:`seat_seed(seed, seat)
            <seat_seed>` replays it.
        winners: the winners (several on a shared win); empty if the match did not finish.
        scores: the match totals per seat when it ended or was given up; empty after an error.
        deals: deals scored (up to the error, after one).
        actions: actions applied (up to the error, after one).
        is_finished: the match ended under the rules (``False``: given up after
            ``max_actions`` actions, or stopped by an error).
        statistics: the variant's own counts (:meth:`Variant.match_statistics
            <rummylib.engine.Variant.match_statistics>`), such as rebuys or knocks (up to the
            error, after one).
        error: why the match stopped, if a bot or the engine raised (``"TypeName: message"``).
        record_error: why the match's game record could not be written (``save_records``);
            the match itself, and the rest of this record, are sound.

    >>> MatchRecord(
    ...     index=0, seed=7, winners=(1,), scores=(20, 0), deals=3, actions=90, is_finished=True
    ... ).winners
    (1,)
    """

    index: int
    seed: int
    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    deals: int = 0
    actions: int = 0
    is_finished: bool = False
    statistics: tuple[tuple[str, int], ...] = ()
    error: str | None = None
    record_error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON values (tuples as lists).

        >>> MatchRecord(index=0, seed=7).to_dict()["statistics"]
        []
        """
        return {
            "index": self.index,
            "seed": self.seed,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "deals": self.deals,
            "actions": self.actions,
            "is_finished": self.is_finished,
            "statistics": [[name, count] for name, count in self.statistics],
            "error": self.error,
            "record_error": self.record_error,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchRecord:
        """The record :meth:`to_dict` made.

        >>> record = MatchRecord(index=2, seed=9, statistics=(("knocks", 1),))
        >>> MatchRecord.from_dict(record.to_dict()) == record
        True
        """
        return cls(
            index=int(data["index"]),
            seed=int(data["seed"]),
            winners=tuple(int(seat) for seat in data["winners"]),
            scores=tuple(int(score) for score in data["scores"]),
            deals=int(data["deals"]),
            actions=int(data["actions"]),
            is_finished=bool(data["is_finished"]),
            statistics=tuple((str(name), int(count)) for name, count in data["statistics"]),
            error=None if data["error"] is None else str(data["error"]),
            # Results written before record_error existed lack it.
            record_error=None if data.get("record_error") is None else str(data["record_error"]),
        )


@attrs.frozen(kw_only=True)
class WinRate:
    """A win rate with its 95% confidence interval (Wilson score interval).

    A shared win counts ``1 / len(winners)`` to each winner. ``low``–``high`` is the range
    the true rate lies in with 95% confidence, if the matches are independent: it narrows as
    ``1 / sqrt(matches)``.

    Attributes:
        wins: wins, shared wins as fractions.
        matches: the finished matches counted (seat-matches, for a bot at several seats).
        rate: ``wins / matches`` (0 without matches).
        low: the lower end of the 95% interval.
        high: the upper end of the 95% interval.

    >>> rate = WinRate.of(30, 100)
    >>> rate.rate, round(rate.low, 3), round(rate.high, 3)
    (0.3, 0.219, 0.396)
    """

    wins: float
    matches: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, wins: float, matches: int) -> WinRate:
        """The rate of ``wins`` in ``matches``, with its interval."""
        low, high = wilson_interval(wins, matches)
        return cls(
            wins=wins, matches=matches, rate=wins / matches if matches else 0.0, low=low, high=high
        )

    def __str__(self) -> str:
        """``30.0% (21.9–39.6%)``."""
        return f"{self.rate:.1%} ({self.low:.1%}–{self.high:.1%})"


@attrs.frozen(kw_only=True)
class Summary:
    """The figures of a simulation, from its records.

    Every match played counts once in ``finished``, ``unfinished`` or ``errors``: the three
    add up to ``played``.

    Attributes:
        played: matches played (a record each).
        finished: matches that ended under the rules.
        unfinished: matches given up after ``max_actions`` actions.
        errors: matches stopped by an error.
        record_errors: matches whose game record could not be written (``save_records``);
            they count as finished, unfinished or stopped by an error all the same.
        seat_win_rates: per seat, its win rate over the finished matches.
        bot_win_rates: per bot name (in seat order of first appearance), its win rate over the
            seats it held in finished matches.
        deals_per_match: mean deals per played match (0 without matches).
        actions: actions applied in all matches.
        statistics: the variant's counts summed over all matches.
        elapsed: seconds the simulation took.
        matches_per_second: ``played / elapsed``.
        actions_per_second: ``actions / elapsed``.
    """

    played: int
    finished: int
    unfinished: int
    errors: int
    seat_win_rates: tuple[WinRate, ...]
    bot_win_rates: tuple[tuple[str, WinRate], ...]
    deals_per_match: float
    actions: int
    statistics: tuple[tuple[str, int], ...]
    elapsed: float
    matches_per_second: float
    actions_per_second: float
    record_errors: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain JSON values."""
        fields = ("played", "finished", "unfinished", "errors", "record_errors")
        return {
            **{field: getattr(self, field) for field in fields},
            "deals_per_match": self.deals_per_match,
            "seat_win_rates": [attrs.asdict(rate) for rate in self.seat_win_rates],
            "bot_win_rates": {name: attrs.asdict(rate) for name, rate in self.bot_win_rates},
            "actions": self.actions,
            "statistics": dict(self.statistics),
            "elapsed": self.elapsed,
            "matches_per_second": self.matches_per_second,
            "actions_per_second": self.actions_per_second,
        }


@attrs.frozen(kw_only=True)
class SimulationResult:
    """The records of a simulation, what it was asked to do, and its :attr:`summary`.

    Attributes:
        variant: the variant's registered name.
        settings: the table's settings (:meth:`Variant.settings
            <rummylib.engine.Variant.settings>`).
        players: players per match.
        bots: the bot of each seat, by name (a factory's ``__qualname__``).
        seed: the simulation's seed.
        matches: matches asked for.
        max_actions: the action limit per match.
        backend: the backend that ran it.
        workers: processes or Ray tasks at a time (1 for ``"serial"``).
        records: one per match played, in index order.
        elapsed: seconds the simulation took.
        is_interrupted: stopped by Ctrl-C (:class:`KeyboardInterrupt`): :attr:`records` holds
            the matches finished before it.
    """

    variant: str
    settings: Mapping[str, Any]
    players: int
    bots: tuple[str, ...]
    seed: int
    matches: int
    max_actions: int | None
    backend: str
    workers: int
    records: tuple[MatchRecord, ...]
    elapsed: float
    is_interrupted: bool = False

    @property
    def summary(self) -> Summary:
        """Win rates per seat and per bot, deals per match, speed, the variant's counts."""
        records = self.records
        wins = [0.0] * self.players
        finished = 0
        for record in records:
            if record.is_finished and record.error is None:
                finished += 1
                for winner in record.winners:
                    wins[winner] += 1 / len(record.winners)
        bot_wins: dict[str, list[float]] = {}
        for seat, name in enumerate(self.bots):
            tally = bot_wins.setdefault(name, [0.0, 0])
            tally[0] += wins[seat]
            tally[1] += finished
        totals: dict[str, int] = {}
        for record in records:
            for name, count in record.statistics:
                totals[name] = totals.get(name, 0) + count
        errors = sum(record.error is not None for record in records)
        record_errors = sum(record.record_error is not None for record in records)
        actions = sum(record.actions for record in records)
        elapsed = max(self.elapsed, 1e-9)
        return Summary(
            played=len(records),
            finished=finished,
            unfinished=len(records) - finished - errors,
            errors=errors,
            seat_win_rates=tuple(WinRate.of(won, finished) for won in wins),
            bot_win_rates=tuple(
                (name, WinRate.of(won, int(seats))) for name, (won, seats) in bot_wins.items()
            ),
            deals_per_match=sum(r.deals for r in records) / len(records) if records else 0.0,
            actions=actions,
            statistics=tuple(totals.items()),
            elapsed=self.elapsed,
            matches_per_second=len(records) / elapsed,
            actions_per_second=actions / elapsed,
            record_errors=record_errors,
        )

    def to_json(self, *, indent: int | None = None) -> str:
        """The whole result as JSON: what was asked, every record, the summary.

        :meth:`from_json` reads it back (the summary is recomputed from the records).

        >>> result = simulate(
        ...     "carousel", players=2, bots="greedy", matches=2, seed=3, backend="serial"
        ... )
        >>> SimulationResult.from_json(result.to_json()) == result
        True
        """
        data = {
            field.name: getattr(self, field.name)
            for field in attrs.fields(SimulationResult)
            if field.name != "records"
        }
        data["settings"] = dict(self.settings)
        data["bots"] = list(self.bots)
        data["records"] = [record.to_dict() for record in self.records]
        data["summary"] = self.summary.to_dict()
        return json.dumps(data, indent=indent)

    @classmethod
    def from_json(cls, text: str) -> SimulationResult:
        """The result :meth:`to_json` wrote.

        Raises:
            ConfigurationError: the text is not such JSON.
        """
        try:
            data = json.loads(text)
            return cls(
                variant=str(data["variant"]),
                settings={str(key): _tuples(value) for key, value in data["settings"].items()},
                players=int(data["players"]),
                bots=tuple(str(name) for name in data["bots"]),
                seed=int(data["seed"]),
                matches=int(data["matches"]),
                max_actions=None if data["max_actions"] is None else int(data["max_actions"]),
                backend=str(data["backend"]),
                workers=int(data["workers"]),
                records=tuple(MatchRecord.from_dict(record) for record in data["records"]),
                elapsed=float(data["elapsed"]),
                is_interrupted=bool(data["is_interrupted"]),
            )
        except (ValueError, TypeError, KeyError) as error:
            msg = f"not a simulation result: {shorten(str(error))}"
            raise ConfigurationError(msg) from None

    def csv_columns(self) -> tuple[str, ...]:
        """The columns of :meth:`to_csv`: the record fields, then one per variant count."""
        names: dict[str, None] = {}
        for record in self.records:
            names.update(dict.fromkeys(name for name, _ in record.statistics))
        return (*_CSV_FIELDS, *names)

    def to_csv(self) -> str:
        """One row per match; seats in ``winners`` and ``scores`` separated by spaces.

        Finished is ``1`` or ``0``; an empty ``error`` or ``record_error`` cell means none.
        The variant's counts follow as one column each.

        >>> result = simulate(
        ...     "rummy71", players=2, bots="greedy", matches=2, seed=1, backend="serial"
        ... )
        >>> print(result.to_csv().splitlines()[0])
        index,seed,winners,scores,deals,actions,is_finished,error,record_error,rebuys,...
        """
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        columns = self.csv_columns()
        writer.writerow(columns)
        for record in self.records:
            counts = dict(record.statistics)
            writer.writerow(
                [
                    record.index,
                    record.seed,
                    " ".join(map(str, record.winners)),
                    " ".join(map(str, record.scores)),
                    record.deals,
                    record.actions,
                    int(record.is_finished),
                    record.error or "",
                    record.record_error or "",
                    *(counts.get(name, "") for name in columns[len(_CSV_FIELDS) :]),
                ]
            )
        return out.getvalue()


_CSV_FIELDS = (
    *("index", "seed", "winners", "scores", "deals", "actions", "is_finished", "error"),
    "record_error",
)
#: The fixed columns of a CSV written before ``record_error`` existed (read all the same).
_OLD_CSV_FIELDS = _CSV_FIELDS[:-1]


# -- playing matches -----------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class _Job:
    """Everything a worker needs to play a range of matches (small, so it pickles cheaply)."""

    variant: Variant
    players: int
    bots: tuple[str | BotFactory, ...]
    seed: int
    max_actions: int | None
    #: Where to write each match's record (:mod:`rummylib.records`), if anywhere.
    records_dir: str | None = None


def record_path(directory: str | os.PathLike[str], index: int) -> Path:
    """The file :func:`simulate` writes match ``index``'s record to, with ``save_records``.

    >>> record_path("out", 7).as_posix()
    'out/match-000007.toml'
    """
    return Path(directory) / f"match-{index:06d}.toml"


def _save(job: _Job, index: int, state: GameState) -> str | None:
    """Write the match's record if the job asks for it; the error, if it cannot."""
    if job.records_dir is None:
        return None
    try:
        records.dump(state, record_path(job.records_dir, index))
    except (OSError, RummyError) as error:
        return f"cannot write the record: {getattr(error, 'strerror', None) or error}"
    return None


_RECORD_NAME = re.compile(r"match-(\d{6,})\.toml")


def _records_dir(directory: str | os.PathLike[str], matches: int) -> str:
    """``directory``, made if missing and checked writable, as an absolute path for workers.

    Raises:
        ConfigurationError: it cannot be made or written to, or something other than a file
            is where a match's record goes.
    """
    shown = os.fspath(directory)
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        msg = f"cannot make the records directory {shown}: {error.strerror or error}"
        raise ConfigurationError(msg) from None
    try:
        probe, name = tempfile.mkstemp(dir=directory, prefix=".rummylib-probe-")
        os.close(probe)
        os.unlink(name)
    except OSError as error:
        msg = f"cannot write to the records directory {shown}: {error.strerror or error}"
        raise ConfigurationError(msg) from None
    with os.scandir(directory) as entries:
        for entry in entries:
            found = _RECORD_NAME.fullmatch(entry.name)
            if found and int(found[1]) < matches and not entry.is_file():
                msg = f"cannot write match {int(found[1])}'s record: {entry.path} is not a file"
                raise ConfigurationError(msg)
    return os.fspath(Path(directory).resolve())


def _factory(spec: str | BotFactory) -> BotFactory:
    return BOT_NAMES[spec] if isinstance(spec, str) else spec


#: Seconds between a worker's looks at the parent's stop event (Ctrl-C waits about this long).
_STOP_CHECK = 0.05


class _Stopped(Exception):  # noqa: N818  (a signal to the worker, not a failure)
    """Ctrl-C in the parent: the worker drops the match it is playing and returns."""


class _Watched:
    """A seat's bot, as :func:`~rummylib.bots.play` sees it: every action it picks is noted.

    With ``stop`` (the ``"process"`` backend's workers), it checks before a move whether the
    parent asked to stop, at most every :data:`_STOP_CHECK` seconds (reading the event costs
    about as much as a fast bot's move, a clock reading a twentieth of that).
    """

    __slots__ = ("_bot", "_check_at", "_chosen", "_stop")

    def __init__(self, bot: Bot, chosen: list[Action], stop: Event | None) -> None:
        self._bot = bot
        self._chosen = chosen
        self._stop = stop
        self._check_at = 0.0

    def choose(self, observation: Observation) -> Action:
        if self._stop is not None:
            now = time.monotonic()
            if now >= self._check_at:
                self._check_at = now + _STOP_CHECK
                if self._stop.is_set():
                    raise _Stopped
        action = self._bot.choose(observation)
        self._chosen.append(action)
        return action


def _play_match(
    state: GameState, bots: Sequence[Bot], max_actions: int | None, stop: Event | None
) -> tuple[GameState, Exception | None]:
    """:func:`~rummylib.bots.play`, and the error that stopped the match, if any.

    After an error the state is the last one reached before it (the actions the bots picked,
    applied again up to the one that failed, if it was an action), so the record of a match a
    bot stopped has its real deals and actions.

    Raises:
        _Stopped: ``stop`` was set (checked before every move).
    """
    chosen: list[Action] = []
    watched = [_Watched(bot, chosen, stop) for bot in bots]
    try:
        return play(state, watched, max_actions=max_actions), None
    except _Stopped:
        raise
    except Exception as error:  # a crashing bot stops its match, never the run
        for action in chosen:
            try:
                state = state.apply(action)
            except Exception:  # the action the engine refused: the state stays before it
                break
        return state, error


def _play_one(job: _Job, index: int, stop: Event | None = None) -> MatchRecord:
    seed = match_seed(job.seed, index)
    state = new_game(job.variant, players=job.players, seed=seed)
    failure: Exception | None
    try:
        bots = [_factory(spec)(seat_seed(seed, seat)) for seat, spec in enumerate(job.bots)]
    except Exception as error:  # a factory that raises stops its match only
        failure = error
    else:
        state, failure = _play_match(state, bots, job.max_actions, stop)
    common: dict[str, Any] = {
        "index": index,
        "seed": seed,
        "deals": len(state.deal_results),
        "actions": len(state.history),
        "statistics": job.variant.match_statistics(state),
        "record_error": _save(job, index, state),  # every match, up to its error if any
    }
    if failure is not None:
        return MatchRecord(**common, error=f"{type(failure).__name__}: {failure}")
    result = state.result
    return MatchRecord(
        **common,
        winners=() if result is None else result.winners,
        scores=state.scores,
        is_finished=state.is_over,
    )


#: In a worker process of the ``"process"`` backend: ``"stop"``, the event the parent sets on
#: Ctrl-C (see :func:`_start_worker`).
_WORKER: dict[str, Event] = {}


def _start_worker(stop: Event) -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent alone handles it, and
    # tells the workers to stop through ``stop``.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["stop"] = stop


def _play_chunk(job: _Job, start: int, end: int) -> list[MatchRecord]:
    """The records of matches ``start`` to ``end - 1``; fewer if the parent says stop."""
    stop = _WORKER.get("stop")
    played: list[MatchRecord] = []
    for index in range(start, end):
        try:
            played.append(_play_one(job, index, stop))
        except _Stopped:
            break
    return played


def _chunks(matches: int, workers: int) -> list[tuple[int, int]]:
    # Many small chunks: the load stays balanced and progress moves.
    size = max(1, min(32, matches // (workers * 16)))
    return [(start, min(start + size, matches)) for start in range(0, matches, size)]


def _serial(
    job: _Job, matches: int, done: list[MatchRecord], progress: Callable[[int], object] | None
) -> None:
    for index in range(matches):
        done.append(_play_one(job, index))  # one append: a match counts whole or not at all
        if progress is not None:
            progress(1)


def _process(
    job: _Job,
    chunks: Sequence[tuple[int, int]],
    workers: int,
    done: list[MatchRecord],
    progress: Callable[[int], object] | None,
) -> None:
    """Play the chunks on a pool of ``workers`` processes."""
    context = multiprocessing.get_context()
    stop = context.Event()
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(stop,)
    )
    futures = [pool.submit(_play_chunk, job, *chunk) for chunk in chunks]
    try:
        for future in concurrent.futures.as_completed(futures):
            played = future.result()
            done.extend(played)
            if progress is not None:
                progress(len(played))
    except KeyboardInterrupt:
        # The running chunks stop before their next action and return the matches they
        # finished; the match each was playing is dropped, the chunks not started are not.
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        counted = {record.index for record in done}
        for future in futures:
            if future.done() and not future.cancelled() and future.exception() is None:
                done.extend(r for r in future.result() if r.index not in counted)
        raise
    finally:
        stop.set()  # after an error too: the pool shuts down without playing on
        pool.shutdown(wait=True, cancel_futures=True)


@functools.lru_cache(maxsize=1)
def _ray_task(ray: Any) -> Any:
    """The Ray remote function that plays a chunk, made once per process."""
    return ray.remote(_play_chunk)


_RAY_POLL = 0.2  # seconds between collections of the finished Ray tasks


def _start_ray(workers: int | None, ray_init: Mapping[str, Any] | None) -> tuple[Any, int]:
    """Ray, initialised, and the CPUs to plan for: ``workers``, else the cluster's."""
    try:
        import ray  # noqa: PLC0415  (optional extra)
    except ImportError:
        msg = "the ray backend needs Ray: pip install 'rummylib[ray]'"
        raise ConfigurationError(msg) from None
    if not ray.is_initialized():
        ray.init(**dict(ray_init or {}))
    if workers is None:
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
        workers = max(1, int(resources.get("CPU", 1)))
    return ray, workers


def _ray(
    ray: Any,
    job: _Job,
    chunks: Sequence[tuple[int, int]],
    done: list[MatchRecord],
    progress: Callable[[int], object] | None,
) -> None:
    """Play the chunks as Ray tasks, one a chunk."""
    job_ref = ray.put(job)
    task = _ray_task(ray)
    # The chunks not collected yet (a dict keeps them in order): with or without progress,
    # each chunk's records go into ``done`` as it finishes, so Ctrl-C loses none of them.
    outstanding = {task.remote(job_ref, *chunk): None for chunk in chunks}
    try:
        while outstanding:
            ready, _ = ray.wait(list(outstanding), num_returns=len(outstanding), timeout=_RAY_POLL)
            for ref, played in zip(ready, ray.get(ready), strict=True):
                done.extend(played)
                del outstanding[ref]
                if progress is not None:
                    progress(len(played))
    except KeyboardInterrupt:
        counted = {record.index for record in done}
        finished, running = (
            ray.wait(list(outstanding), num_returns=len(outstanding), timeout=0, fetch_local=False)
            if outstanding
            else ([], [])
        )
        for ref in running:
            ray.cancel(ref)
        for ref in finished:
            try:
                played = ray.get(ref)
            except Exception:  # a failed task has nothing to keep
                continue
            done.extend(r for r in played if r.index not in counted)
        raise


def simulate(
    variant: Variant | str,
    *,
    players: int,
    bots: str | BotFactory | Sequence[str | BotFactory],
    matches: int,
    seed: int,
    settings: Mapping[str, Any] | None = None,
    workers: int | None = None,
    backend: Backend = "process",
    max_actions: int | None = 100_000,
    progress: Callable[[int], object] | None = None,
    ray_init: Mapping[str, Any] | None = None,
    save_records: str | os.PathLike[str] | None = None,
) -> SimulationResult:
    """Let bots play ``matches`` matches and return every record and the summary.

    Every argument is checked before the first match starts. Ctrl-C
    (:class:`KeyboardInterrupt`) does not lose the work done: the result holds every match
    finished so far and says :attr:`~SimulationResult.is_interrupted`. The match each worker
    is playing is dropped: ``"serial"`` stops at once; ``"process"`` tells its workers to stop
    before their next action, so it returns within about 50 ms and one bot move per worker,
    keeping the matches its running chunks finished; ``"ray"`` cancels its running tasks and
    keeps the chunks that finished.

    >>> result = simulate(
    ...     "rummy101",
    ...     players=3,
    ...     bots=["greedy", "random", "greedy"],
    ...     matches=2,
    ...     seed=5,
    ...     backend="serial",
    ...     max_actions=2_000,
    ... )
    >>> result.bots, len(result.records), [name for name, _ in result.summary.bot_win_rates]
    (('greedy', 'random', 'greedy'), 2, ['greedy', 'random'])
    >>> simulate("rummy101", players=2, bots="clever", matches=1, seed=1)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: unknown bot 'clever'; bots: greedy, random

    Args:
        variant: a :class:`~rummylib.engine.Variant` or a registered name.
        players: players per match.
        bots: one bot for every seat, or a sequence of one per seat: a name from
            :data:`BOT_NAMES` (``"greedy"``, ``"random"``) or a :data:`BotFactory`, called
            with the seat's own seed (:func:`seat_seed`) for every match. A factory, not a
            bot: pass ``MyBot`` (a class taking the seed), not ``MyBot()``.
        matches: how many matches (at least 1).
        seed: the seed the matches' seeds come from (:func:`match_seed`): a whole number
            (``None`` is refused; there is no unseeded run).
        settings: the table's settings, applied to ``variant`` (see ``rummylib variants``).
        workers: processes (``"process"``, default ``os.cpu_count()``, at most
            :data:`MAX_PROCESS_WORKERS`) or the number of CPUs to plan the chunks for
            (``"ray"``, default: the cluster's); ignored by ``"serial"``. No more processes
            start than there are chunks of matches (:attr:`SimulationResult.workers` says
            how many did).
        backend: ``"serial"``, ``"process"`` or ``"ray"``.
        max_actions: give a match up after this many actions, at least 1 (``None``: never);
            it counts as unfinished.
        progress: called with a count of matches each time some finish.
        ray_init: keyword arguments for ``ray.init`` when Ray is not initialised yet
            (``{"address": "auto"}`` joins a running cluster).
        save_records: a directory to write every match's game record to
            (:mod:`rummylib.records`, one file per match named by :func:`record_path`; a match
            stopped by an error is written up to the error); it is made if missing, and must
            be writable. With ``"ray"`` on a cluster, every worker must reach it. A record
            that cannot be written all the same (a full disk) is said in the match's
            :attr:`~MatchRecord.record_error` and counted in
            :attr:`Summary.record_errors`; the match counts as usual.

    Returns:
        The records in index order and what the simulation was asked to do.

    Raises:
        ConfigurationError: a bad variant setting, player count, bot, match count, seed,
            action limit, worker count, backend or records directory; a bot factory that
            does not pickle, for ``"process"``; or Ray missing for ``"ray"``.
        UnknownVariantError: no variant has that name.
    """
    if isinstance(variant, str):
        variant = get_variant(variant, **dict(settings or {}))
    elif settings:
        variant = get_variant(variant.name, **{**variant.settings(), **settings})
    players = variant.check_players(players)
    specs = _bot_specs(bots, players)
    _check_numbers(matches=matches, seed=seed, workers=workers, max_actions=max_actions)
    if backend not in _BACKENDS:
        msg = f"unknown backend {shorten(backend)}; backends: {', '.join(_BACKENDS)}"
        raise ConfigurationError(msg)
    if backend == "process":
        if workers is not None and workers > MAX_PROCESS_WORKERS:
            limit = MAX_PROCESS_WORKERS
            msg = f"workers must be at most {limit} for the process backend, not {workers}"
            raise ConfigurationError(msg)
        _check_pickles(specs)
    job = _Job(
        variant=variant,
        players=players,
        bots=specs,
        seed=seed,
        max_actions=max_actions,
        records_dir=None if save_records is None else _records_dir(save_records, matches),
    )
    done: list[MatchRecord] = []
    interrupted = False
    used = 1
    started = time.perf_counter()
    try:
        if backend == "serial":
            _serial(job, matches, done, progress)
        elif backend == "process":
            used = min(workers or os.cpu_count() or 1, MAX_PROCESS_WORKERS)
            chunks = _chunks(matches, used)
            used = min(used, len(chunks))  # never more processes than chunks
            _process(job, chunks, used, done, progress)
        else:
            ray, used = _start_ray(workers, ray_init)
            chunks = _chunks(matches, used)
            used = min(used, len(chunks))  # never more tasks at a time than chunks
            _ray(ray, job, chunks, done, progress)
    except KeyboardInterrupt:
        interrupted = True
    elapsed = time.perf_counter() - started
    return SimulationResult(
        variant=variant.name,
        settings=variant.settings(),
        players=players,
        bots=tuple(_label(spec) for spec in specs),
        seed=seed,
        matches=matches,
        max_actions=max_actions,
        backend=backend,
        workers=used,
        records=tuple(sorted(done, key=lambda record: record.index)),
        elapsed=elapsed,
        is_interrupted=interrupted,
    )


def _bot_specs(
    bots: str | BotFactory | Sequence[str | BotFactory], players: int
) -> tuple[str | BotFactory, ...]:
    """One bot name or factory per seat, checked."""
    specs: tuple[str | BotFactory, ...]
    if isinstance(bots, str) or callable(bots):
        specs = (bots,)
    elif isinstance(bots, Sequence):
        specs = tuple(bots)
    else:
        msg = (
            "bots must be a bot name, a bot factory or a sequence of them (one per seat), "
            f"not {_shown_bot(bots)}"
        )
        raise ConfigurationError(msg)
    if len(specs) == 1:
        specs *= players
    if len(specs) != players:
        msg = f"{len(specs)} bots for {players} players"
        raise ConfigurationError(msg)
    for spec in specs:
        if isinstance(spec, str) and spec not in BOT_NAMES:
            msg = f"unknown bot {shorten(spec)}; bots: {', '.join(BOT_NAMES)}"
            raise ConfigurationError(msg)
        if not isinstance(spec, str) and not callable(spec):
            msg = f"a bot must be a name or a factory, not {_shown_bot(spec)}"
            raise ConfigurationError(msg)
    return specs


def _shown_bot(value: object) -> str:
    """``value`` for an error message, with a hint when it is a bot rather than a factory."""
    if hasattr(value, "choose") and not isinstance(value, type):
        return (
            f"a {type(value).__qualname__} instance: pass a factory that makes a fresh bot "
            "from a seed (a class taking the seed, or a module-level function) or a bot name "
            f"({', '.join(BOT_NAMES)})"
        )
    return shorten(value)


def _check_numbers(*, matches: object, seed: object, workers: object, max_actions: object) -> None:
    """Refuse a count, seed or limit that is not a whole number in range."""
    checks: tuple[tuple[str, object, int | None, bool], ...] = (
        # name, value, the least allowed (None: any), whether None is allowed
        ("matches", matches, 1, False),
        ("seed", seed, None, False),
        ("workers", workers, 1, True),
        ("max_actions", max_actions, 1, True),
    )
    for name, value, least, optional in checks:
        if value is None and optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            expected = "None or a whole number" if optional else "a whole number"
            msg = f"{name} must be {expected}, not {shorten(value)}"
            raise ConfigurationError(msg)
        if least is not None and value < least:
            msg = f"{name} must be at least {least}, not {value}"
            raise ConfigurationError(msg)


def _check_pickles(specs: Sequence[str | BotFactory]) -> None:
    """Refuse a bot factory the process backend cannot send to its workers."""
    for spec in specs:
        if isinstance(spec, str):
            continue
        try:
            pickle.dumps(spec)
        except Exception as error:  # pickling fails in many ways
            msg = (
                f"the bot factory {_label(spec)} cannot be sent to the process backend's "
                f"workers ({type(error).__name__}: {error}): define it at module level, "
                "or use backend='serial' or backend='ray'"
            )
            raise ConfigurationError(msg) from None


def _tuples(value: Any) -> Any:
    """JSON lists back as the tuples settings hold."""
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def _label(spec: str | BotFactory) -> str:
    return spec if isinstance(spec, str) else getattr(spec, "__qualname__", repr(spec))


def read_csv(text: str) -> tuple[MatchRecord, ...]:
    """The records :meth:`SimulationResult.to_csv` wrote.

    >>> result = simulate(
    ...     "turkish500", players=2, bots="greedy", matches=2, seed=1, backend="serial"
    ... )
    >>> read_csv(result.to_csv()) == result.records
    True

    Raises:
        ConfigurationError: the text is not such CSV.
    """
    reader = csv.DictReader(io.StringIO(text))
    columns = tuple(reader.fieldnames or ())
    fixed = next(
        (
            len(fields)
            for fields in (_CSV_FIELDS, _OLD_CSV_FIELDS)
            if columns[: len(fields)] == fields
        ),
        None,
    )
    if fixed is None:
        msg = f"not a simulation CSV: columns {shorten(', '.join(columns))}"
        raise ConfigurationError(msg)
    try:
        return tuple(
            MatchRecord(
                index=int(row["index"]),
                seed=int(row["seed"]),
                winners=tuple(int(seat) for seat in row["winners"].split()),
                scores=tuple(int(score) for score in row["scores"].split()),
                deals=int(row["deals"]),
                actions=int(row["actions"]),
                is_finished=row["is_finished"] == "1",
                statistics=tuple((name, int(row[name])) for name in columns[fixed:] if row[name]),
                error=row["error"] or None,
                record_error=row.get("record_error") or None,
            )
            for row in reader
        )
    except (ValueError, TypeError, AttributeError) as error:
        msg = f"not a simulation CSV: {shorten(str(error))}"
        raise ConfigurationError(msg) from None
