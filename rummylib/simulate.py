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
  (default ``os.cpu_count()``); matches go out in chunks of consecutive indices, so each
  task costs one small message each way.
- ``"ray"`` (``pip install 'rummylib[ray]'``): one Ray task per chunk, on the Ray that is
  already initialised (a local one or a cluster joined with ``ray.init(address=...)``), else
  on one started with ``ray.init(**ray_init)``.
"""

from __future__ import annotations

import concurrent.futures
import csv
import functools
import hashlib
import io
import json
import math
import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeAlias

import attrs

from rummylib import records
from rummylib.bots import Bot, GreedyBot, RandomBot, play
from rummylib.engine import Variant
from rummylib.errors import ConfigurationError, RummyError, shorten
from rummylib.registry import get_variant
from rummylib.state import GameState, new_game

__all__ = [
    "BOT_NAMES",
    "BotFactory",
    "MatchRecord",
    "SimulationResult",
    "Summary",
    "WinRate",
    "match_seed",
    "read_csv",
    "record_path",
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
        seed: the match's seed (:func:`match_seed`); ``new_game(variant, seed=seed)`` and the
            same bots replay it.
        winners: the winners (several on a shared win); empty if the match did not finish.
        scores: the match totals per seat when it ended or was given up; empty after an error.
        deals: deals scored.
        actions: actions applied.
        is_finished: the match ended under the rules (``False``: given up after
            ``max_actions`` actions, or stopped by an error).
        statistics: the variant's own counts (:meth:`Variant.match_statistics
            <rummylib.engine.Variant.match_statistics>`), such as rebuys or knocks.
        error: why the match stopped, if a bot or the engine raised (``"TypeName: message"``).

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

    Attributes:
        played: matches played (a record each).
        finished: matches that ended under the rules.
        unfinished: matches given up after ``max_actions`` actions.
        errors: matches stopped by an error.
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

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain JSON values."""
        return {
            **{
                field: getattr(self, field)
                for field in ("played", "finished", "unfinished", "errors", "deals_per_match")
            },
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
            if record.is_finished and record.winners:
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

        Finished is ``1`` or ``0``; an empty ``error`` cell means none. The variant's counts
        follow as one column each.

        >>> result = simulate(
        ...     "rummy71", players=2, bots="greedy", matches=2, seed=1, backend="serial"
        ... )
        >>> print(result.to_csv().splitlines()[0])
        index,seed,winners,scores,deals,actions,is_finished,error,rebuys,frish proposed,...
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
                    *(counts.get(name, "") for name in columns[len(_CSV_FIELDS) :]),
                ]
            )
        return out.getvalue()


_CSV_FIELDS = ("index", "seed", "winners", "scores", "deals", "actions", "is_finished", "error")


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


def _records_dir(directory: str | os.PathLike[str]) -> str:
    """``directory``, made if missing, as an absolute path the workers can use."""
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        msg = f"cannot make the records directory {os.fspath(directory)}: {error.strerror}"
        raise ConfigurationError(msg) from None
    return os.fspath(Path(directory).resolve())


def _factory(spec: str | BotFactory) -> BotFactory:
    return BOT_NAMES[spec] if isinstance(spec, str) else spec


def _play_one(job: _Job, index: int) -> MatchRecord:
    seed = match_seed(job.seed, index)
    state = new_game(job.variant, players=job.players, seed=seed)
    try:
        bots = [_factory(spec)(_derive(seed, seat)) for seat, spec in enumerate(job.bots)]
        state = play(state, bots, max_actions=job.max_actions)
    except Exception as error:  # a crashing bot stops its match, never the run
        return MatchRecord(
            index=index,
            seed=seed,
            deals=len(state.deal_results),
            actions=len(state.history),
            error=f"{type(error).__name__}: {error}",
        )
    result = state.result
    return MatchRecord(
        index=index,
        seed=seed,
        winners=() if result is None else result.winners,
        scores=state.scores,
        deals=len(state.deal_results),
        actions=len(state.history),
        is_finished=state.is_over,
        statistics=job.variant.match_statistics(state),
        error=_save(job, index, state),
    )


def _play_chunk(job: _Job, start: int, stop: int) -> list[MatchRecord]:
    return [_play_one(job, index) for index in range(start, stop)]


def _ignore_sigint() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent alone handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(matches: int, workers: int) -> list[tuple[int, int]]:
    # Many small chunks: the load stays balanced, progress moves and Ctrl-C waits little.
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
    matches: int,
    workers: int,
    done: list[MatchRecord],
    progress: Callable[[int], object] | None,
) -> None:
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    futures = [pool.submit(_play_chunk, job, *chunk) for chunk in _chunks(matches, workers)]
    try:
        for future in concurrent.futures.as_completed(futures):
            records = future.result()
            done.extend(records)
            if progress is not None:
                progress(len(records))
    except KeyboardInterrupt:
        pool.shutdown(wait=True, cancel_futures=True)  # the running chunks still finish
        counted = {record.index for record in done}
        for future in futures:
            if future.done() and not future.cancelled() and future.exception() is None:
                done.extend(r for r in future.result() if r.index not in counted)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@functools.lru_cache(maxsize=1)
def _ray_task(ray: Any) -> Any:
    """The Ray remote function that plays a chunk, made once per process."""
    return ray.remote(_play_chunk)


def _ray(
    job: _Job,
    *,
    matches: int,
    workers: int | None,
    done: list[MatchRecord],
    progress: Callable[[int], object] | None,
    ray_init: Mapping[str, Any] | None,
) -> int:
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
    job_ref = ray.put(job)
    task = _ray_task(ray)
    refs = [task.remote(job_ref, *chunk) for chunk in _chunks(matches, workers)]
    pending = list(refs)
    try:
        while pending and progress is not None:
            ready, pending = ray.wait(pending, num_returns=1)
            progress(sum(len(records) for records in ray.get(ready)))
        for records in ray.get(refs):  # one get over every reference
            done.extend(records)
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref)
        finished = set(refs) - set(pending)
        for ref in refs:
            if ref in finished:
                done.extend(ray.get(ref))
        raise
    return workers


def simulate(  # noqa: PLR0912
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

    Ctrl-C (:class:`KeyboardInterrupt`) does not lose the work done: the result holds the
    matches played so far and says :attr:`~SimulationResult.is_interrupted`.

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
        bots: one bot for every seat, or one per seat: a name from :data:`BOT_NAMES`
            (``"greedy"``, ``"random"``) or a :data:`BotFactory`, called with the seat's own
            seed for every match.
        matches: how many matches (at least 1).
        seed: the seed the matches' seeds come from (:func:`match_seed`).
        settings: the table's settings, applied to ``variant`` (see ``rummylib variants``).
        workers: processes (``"process"``, default ``os.cpu_count()``) or the number of
            CPUs to plan the chunks for (``"ray"``, default: the cluster's CPUs); ignored by
            ``"serial"``.
        backend: ``"serial"``, ``"process"`` or ``"ray"``.
        max_actions: give a match up after this many actions (``None``: never); it counts as
            unfinished.
        progress: called with a count of matches each time some finish.
        ray_init: keyword arguments for ``ray.init`` when Ray is not initialised yet
            (``{"address": "auto"}`` joins a running cluster).
        save_records: a directory to write every match's game record to
            (:mod:`rummylib.records`, one file per match named by :func:`record_path`); it
            is made if missing. With ``"ray"`` on a cluster, every worker must reach it.

    Returns:
        The records in index order and what the simulation was asked to do.

    Raises:
        ConfigurationError: a bad variant setting, player count, bot, match count, worker
            count or backend (or Ray missing for ``"ray"``).
        UnknownVariantError: no variant has that name.
    """
    if isinstance(variant, str):
        variant = get_variant(variant, **dict(settings or {}))
    elif settings:
        variant = get_variant(variant.name, **{**variant.settings(), **settings})
    players = variant.check_players(players)
    specs: tuple[str | BotFactory, ...]
    specs = (bots,) if isinstance(bots, str) or callable(bots) else tuple(bots)
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
            msg = f"a bot must be a name or a factory, not {shorten(spec)}"
            raise ConfigurationError(msg)
    for name, value, least in (("matches", matches, 1), ("workers", workers, 1)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            msg = f"{name} must be a whole number, not {shorten(value)}"
            raise ConfigurationError(msg)
        if value is not None and value < least:
            msg = f"{name} must be at least {least}, not {value}"
            raise ConfigurationError(msg)
    if backend not in _BACKENDS:
        msg = f"unknown backend {shorten(backend)}; backends: {', '.join(_BACKENDS)}"
        raise ConfigurationError(msg)
    job = _Job(
        variant=variant,
        players=players,
        bots=specs,
        seed=seed,
        max_actions=max_actions,
        records_dir=None if save_records is None else _records_dir(save_records),
    )
    done: list[MatchRecord] = []
    interrupted = False
    used = 1
    started = time.perf_counter()
    try:
        if backend == "serial":
            _serial(job, matches, done, progress)
        elif backend == "process":
            used = workers or os.cpu_count() or 1
            _process(job, matches, used, done, progress)
        else:
            used = _ray(
                job,
                matches=matches,
                workers=workers,
                done=done,
                progress=progress,
                ray_init=ray_init,
            )
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
    if columns[: len(_CSV_FIELDS)] != _CSV_FIELDS:
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
                statistics=tuple(
                    (name, int(row[name])) for name in columns[len(_CSV_FIELDS) :] if row[name]
                ),
                error=row["error"] or None,
            )
            for row in reader
        )
    except (ValueError, TypeError, AttributeError) as error:
        msg = f"not a simulation CSV: {shorten(str(error))}"
        raise ConfigurationError(msg) from None
