"""What :func:`rummylib.simulate.simulate` returns: per-match records, win rates, summaries.

The seeds that make every match reproducible (:func:`match_seed`, :func:`seat_seed`) live
here too, and the CSV and JSON forms of a result. :mod:`rummylib.simulate` re-exports every
name; import them from there.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
from collections.abc import Mapping
from typing import Any

import attrs

from rummylib.errors import ConfigurationError, shorten

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
        bot_win_rates: per bot name (in seat order of first appearance), its win rate: the
            share of finished matches won by a seat it held (shared wins as fractions).
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
        # A bot's rate is the share of finished matches one of its seats won: with two
        # greedy seats of four, greedy winning every match is 100%, not 50% of seat-matches.
        bot_wins: dict[str, float] = {}
        for seat, name in enumerate(self.bots):
            bot_wins[name] = bot_wins.get(name, 0.0) + wins[seat]
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
                (name, WinRate.of(won, finished)) for name, won in bot_wins.items()
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

        >>> from rummylib.simulate import simulate
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

        >>> from rummylib.simulate import simulate
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


def _tuples(value: Any) -> Any:
    """JSON lists back as the tuples settings hold."""
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def read_csv(text: str) -> tuple[MatchRecord, ...]:
    """The records :meth:`SimulationResult.to_csv` wrote.

    >>> from rummylib.simulate import simulate
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
