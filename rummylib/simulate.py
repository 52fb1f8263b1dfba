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
import functools
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
from typing import Any, Final, Literal, TypeAlias

import attrs

from rummylib import records
from rummylib._results import (
    MatchRecord,
    SimulationResult,
    Summary,
    WinRate,
    match_seed,
    read_csv,
    seat_seed,
    wilson_interval,
)
from rummylib.actions import Action
from rummylib.bots import Bot, GreedyBot, RandomBot, play
from rummylib.engine import Variant
from rummylib.errors import ConfigurationError, RummyError, shorten
from rummylib.registry import get_variant
from rummylib.state import GameState, new_game
from rummylib.views import Observation

__all__ = [
    "BOT_NAMES",
    "MAX_MATCHES",
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

#: The most matches one :func:`simulate` call plays (``rummylib simulate --matches`` too): a
#: run keeps a record of every match, and ten million of them fill a few gigabytes.
MAX_MATCHES: Final = 10_000_000

_BACKENDS = ("serial", "process", "ray")

#: The most ``workers`` the ``"process"`` backend accepts: a process per CPU is the useful
#: most, and more than this is a mistake (a typo, or a cluster's size meant for ``"ray"``).
MAX_PROCESS_WORKERS = 1024
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
        names = [
            f"p{seat + 1} {_label(spec)}"[: records.MAX_NAME] for seat, spec in enumerate(job.bots)
        ]
        records.dump(state, record_path(job.records_dir, index), names=names)
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
    checks: tuple[tuple[str, object, int | None, int | None, bool], ...] = (
        # name, value, the least and the most allowed (None: any), whether None is allowed
        ("matches", matches, 1, MAX_MATCHES, False),
        ("seed", seed, None, None, False),
        ("workers", workers, 1, None, True),
        ("max_actions", max_actions, 1, None, True),
    )
    for name, value, least, most, optional in checks:
        if value is None and optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            expected = "None or a whole number" if optional else "a whole number"
            msg = f"{name} must be {expected}, not {shorten(value)}"
            raise ConfigurationError(msg)
        if least is not None and value < least:
            msg = f"{name} must be at least {least}, not {value}"
            raise ConfigurationError(msg)
        if most is not None and value > most:
            msg = f"{name} must be at most {most}, not {shorten(value)}"
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


def _label(spec: str | BotFactory) -> str:
    return spec if isinstance(spec, str) else getattr(spec, "__qualname__", repr(spec))
