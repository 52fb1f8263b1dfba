"""Soak test: whole seeded matches of every variant, every engine invariant at every step.

Run from the repository root::

    python benchmarks/soak.py [--matches 1] [--seed 1] [--variants rummy101,carousel]
                              [--players 2,4] [--backend serial|process|ray] [--workers N]
                              [--max-actions 100000] [--match-seed S] [--csv FILE]

For every registered variant (:data:`rummylib.variants.VARIANTS`, or ``--variants``) it plays
``--matches`` whole matches, spread evenly over every player count the variant allows (2 to its
maximum, or those of ``--players``): match ``i`` has seed ``SEED*100003+i`` and the ``i``-th
player count in turn. A match is played to its end, by a seeded policy that takes the
:class:`~rummylib.bots.GreedyBot` move three times in four and a uniform choice over
``legal_actions()`` otherwise (uniform play alone rarely finishes a Rummy 71/101 hand). The
only cap is the engine's own guard, :func:`rummylib.bots.play`'s 100,000 actions: a match still
going then is a failure ("finished"). Before each action, and on the final state, it checks:

* **cards**: ``state.all_cards()`` is the variant's deck for that player count;
* **to act**: while the match is not over someone is to act, and everyone in ``to_act`` has a
  legal action;
* **listed legal**: every listed action of every player passes ``is_legal``;
* **listed iff legal**: for the moves that carry no melds (draws, takes, discards, knock, pass,
  give up, Frish, rebuys, lay-offs), a constructed candidate set of every player's moves is
  legal exactly when it is listed. The candidates: every such move with no card, taking 1 to
  all of the discard pile (and -1, 0, one too many), discarding each card in hand (and one
  not in hand), laying off each hand card on a sample of the table's melds (as itself, at
  either end of a run or none, a joker standing for a sample of cards; and onto melds that do
  not exist), and the listed moves themselves;
* **observation** / **leak**: every seat's observation is that seat's view of the state
  (:func:`rummylib.testing.assert_consistent_observation`) and does not change when the cards
  it may not see are dealt otherwise (:func:`rummylib.testing.assert_no_leak`);
* **apply**: applying the chosen action neither raises nor changes the old state;
* **json** / **pickle** / **record**: ``GameState.from_json(state.to_json()) == state``,
  ``pickle.loads(pickle.dumps(state)) == state`` and the game record
  (:func:`rummylib.records.dumps` then :func:`~rummylib.records.loads`) replays to ``state``,
  at random steps (the gaps grow with the match, since each costs a replay or a walk of the
  whole history) and at the end.

``--backend process`` (the default) runs the matches in ``--workers`` processes
(default: the CPU count), ``ray`` as Ray tasks (Ray is optional: without it the script says so
and skips the run), ``serial`` in this process; the figures are the same for any backend, the
hours apart. ``--match-seed`` replays the one match of a failure report.

The script prints a line per variant (matches, player counts, finished, actions, invariant
checks, failures, hours of CPU) and then every failure kind with the first time it happened,
and a command that replays that one match; ``--csv`` also writes the table (the reliability
page of the docs includes it). It exits with 1 if any check failed, 130 when interrupted
(Ctrl-C prints the table so far).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import importlib
import importlib.util
import os
import pickle
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummylib import GameState, new_game
from rummylib.actions import (
    Action,
    AnswerFrish,
    DeclineRebuy,
    Discard,
    DrawStock,
    GiveUp,
    Knock,
    LayOff,
    Pass,
    ProposeFrish,
    Rebuy,
    TakeDiscard,
    TakeOpenCard,
)
from rummylib.bots import GreedyBot
from rummylib.cards import CARDS, JOKER_INDEX, Card
from rummylib.errors import RummyError
from rummylib.records import dumps, loads
from rummylib.testing import assert_consistent_observation, assert_no_leak
from rummylib.variants import VARIANTS, get_variant

NATURALS = CARDS[:JOKER_INDEX]
#: The engine's own guard on a match's length: rummylib.bots.play's default.
ENGINE_CAP = 100_000
#: How often the policy takes the greedy bot's move rather than a uniform choice.
GREEDY_SHARE = 0.75
#: How many table melds the lay-off candidates of a step try every hand card on.
LAY_OFF_MELDS = 3
#: Which end of a run a lay-off goes to, where the engine's LayOff has an ``end`` field.
ENDS = (None, "low", "high") if "end" in attrs.fields_dict(LayOff) else (None,)
#: Actions that carry no melds: for these, "legal" and "listed" must agree exactly.
MELDLESS = (
    DrawStock,
    TakeDiscard,
    TakeOpenCard,
    Discard,
    Knock,
    Pass,
    GiveUp,
    ProposeFrish,
    AnswerFrish,
    Rebuy,
    DeclineRebuy,
    LayOff,
)


class Failure(NamedTuple):
    variant: str
    players: int
    seed: int
    step: int
    check: str
    message: str


class Soak:
    """One match's checks: counts them and records the failures."""

    def __init__(self, variant: str, players: int, seed: int, failures: list[Failure]) -> None:
        self.variant = variant
        self.players = players
        self.seed = seed
        self.failures = failures
        self.checks = 0
        self.failed = 0
        self.seen: set[str] = set()  # failure kinds already recorded for this match

    def check(self, name: str, step: int, test: Callable[..., str | None], *args: Any) -> bool:
        """Run ``test(*args)``: it returns ``None`` when the check holds, else what went wrong."""
        self.checks += 1
        try:
            problem = test(*args)
        except Exception as error:  # any exception is a failure to report, with its step
            problem = f"raised {type(error).__name__}: {short(str(error))}"
        if problem is None:
            return True
        self.failed += 1
        if name not in self.seen:  # the same defect tends to repeat at every later step
            self.seen.add(name)
            failure = Failure(self.variant, self.players, self.seed, step, name, problem)
            self.failures.append(failure)
        return False


def short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else f"{text[:limit]}…"


def cards_of(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in sorted(cards, key=lambda card: card.index))


def check_cards(state: GameState, deck: Counter[Card]) -> str | None:
    held = state.all_cards()
    if held == deck:
        return None
    extra = cards_of((held - deck).elements()) or "none"
    missing = cards_of((deck - held).elements()) or "none"
    return f"cards not conserved: extra {extra}; missing {missing}"


def check_to_act(state: GameState) -> str | None:
    if state.is_over:
        return None
    if not state.to_act:
        return f"the match is not over but no one is to act ({state.phase.value})"
    for player in state.to_act:
        if not state.legal_actions(player):
            return f"p{player + 1} is to act ({state.phase.value}) but has no legal action"
    return None


def check_listed_legal(state: GameState) -> str | None:
    for player in range(state.player_count):
        for action in state.legal_actions(player):
            if not state.is_legal(action):
                try:
                    state.verify(action)
                except RummyError as error:
                    reason = str(error)
                else:  # pragma: no cover  (is_legal and verify disagree)
                    reason = "verify accepts it"
                return f"listed but illegal: {action!r} ({short(reason)})"
    return None


def candidates(state: GameState, player: int, sample: random.Random) -> list[Action]:
    """Meldless moves ``player`` might try now: the listed ones and many that must be refused."""
    hand = state.hands[player]
    distinct = sorted(set(hand), key=lambda card: card.index)
    moves: list[Action] = [
        DrawStock(player=player),
        TakeOpenCard(player=player),
        Knock(player=player),
        Pass(player=player),
        GiveUp(player=player),
        ProposeFrish(player=player),
        AnswerFrish(player=player, accept=False),
        AnswerFrish(player=player, accept=True),
        Rebuy(player=player),
        DeclineRebuy(player=player),
    ]
    moves += [
        TakeDiscard(player=player, count=count) for count in range(-1, len(state.discard_pile) + 2)
    ]
    moves += [Discard(player=player, card=card) for card in distinct]
    absent = next((card for card in CARDS if card not in hand), None)
    if absent is not None:
        moves.append(Discard(player=player, card=absent))
    melds = range(len(state.table))
    if distinct:  # a meld that is not there, and a player not to act: one card is enough
        for index in (-1, len(melds), *(() if player in state.to_act else melds)):
            moves.append(LayOff(player=player, card=distinct[0], meld_index=index))
    if player not in state.to_act:
        return moves
    # Every hand card on a few melds of the table (a sample: every card on every meld at
    # every step would cost most of the soak, and the melds change little from step to step).
    for index in sample.sample(melds, min(LAY_OFF_MELDS, len(melds))):
        for card in distinct:
            # A natural card as itself, or standing for itself; a joker standing for a sample
            # of naturals (all 52 on every meld at every step would cost most of the soak).
            readings = sample.sample(NATURALS, 4) if card.is_joker else [card]
            for stands in (None, *readings):
                ends = ENDS if stands is None else (sample.choice(ENDS),)
                for end in ends:
                    extra = {} if end is None else {"end": end}
                    moves.append(
                        LayOff(
                            player=player, card=card, meld_index=index, stands_for=stands, **extra
                        )
                    )
    return moves


def check_listed_iff_legal(state: GameState, sample: random.Random) -> str | None:
    for player in range(state.player_count):
        listed = {action for action in state.legal_actions(player) if isinstance(action, MELDLESS)}
        # The listed moves are tried too: "listed legal" checks them, and they are often the
        # very readings (a joker laid off as a given card) the sampled candidates miss.
        for action in {*candidates(state, player, sample), *listed}:
            legal = state.is_legal(action)
            if legal and action not in listed:
                return f"legal but not listed: {action!r}"
            if not legal and action in listed:
                return f"listed but illegal: {action!r}"
    return None


_FIELDS = (
    "match",
    "phase",
    "current_player",
    "to_act",
    "hands",
    "stock",
    "discard_pile",
    "aside",
    "hidden",
    "table",
    "detail",
)


def snapshot(state: GameState) -> tuple[bytes, tuple[Any, ...]]:
    """A deep copy of the state's fields (the history apart) and the identity of its history."""
    log = state.log
    marks = (log, None if log is None else log.length, None if log is None else log.action)
    return pickle.dumps(tuple(getattr(state, name) for name in _FIELDS)), marks


def check_unchanged(state: GameState, before: tuple[bytes, tuple[Any, ...]]) -> str | None:
    blob, marks = before
    log = state.log
    if marks != (log, None if log is None else log.length, None if log is None else log.action):
        return "apply changed the old state's history"
    old = pickle.loads(blob)
    for name, value in zip(_FIELDS, old, strict=True):
        if getattr(state, name) != value:
            return f"apply changed the old state's {name}"
    return None


def check_json(state: GameState) -> str | None:
    text = state.to_json()
    loaded = GameState.from_json(text)
    if loaded != state:
        return "GameState.from_json(state.to_json()) != state"
    if loaded.to_json() != text:
        return "the loaded state saves to different JSON"
    return None


def check_pickle(state: GameState) -> str | None:
    loaded = pickle.loads(pickle.dumps(state))
    if loaded != state:
        return "pickle.loads(pickle.dumps(state)) != state"
    if loaded.legal_actions() != state.legal_actions():
        return "the unpickled state lists other legal actions"
    return None


def apply_into(state: GameState, action: Action, after: list[GameState]) -> None:
    after.append(state.apply(action))


def check_step(
    soak: Soak, state: GameState, step: int, deck: Counter[Card], sample: random.Random
) -> bool:
    """The per-step checks; ``False`` if play cannot go on from this state."""
    soak.check("cards", step, check_cards, state, deck)
    can_go_on = soak.check("to act", step, check_to_act, state)
    soak.check("listed legal", step, check_listed_legal, state)
    soak.check("listed iff legal", step, check_listed_iff_legal, state, sample)
    return can_go_on


def next_check(step: int, points: random.Random) -> int:
    """The next step to round-trip at: the gaps grow with the match, so that a whole match
    costs about two replays of itself per kind of round trip, not one per step."""
    return step + points.randint(max(8, step // 2), max(16, 2 * step))


def check_observations(state: GameState, step: int) -> str | None:
    for player in range(state.player_count):
        try:
            assert_consistent_observation(state, player, state.observation(player))
        except AssertionError as error:
            return str(error)
    return None


def check_leaks(state: GameState, step: int) -> str | None:
    for player in range(state.player_count):
        try:
            assert_no_leak(state, player, seed=step)
        except AssertionError as error:
            return str(error)
    return None


def check_record(state: GameState) -> str | None:
    text = dumps(state)
    record = loads(text)
    if record.final_state != state:
        return "loads(dumps(state)).final_state != state"
    if dumps(record.final_state) != text:
        return "the replayed state writes another record"
    return None


class Policy:
    """The seeded policy of one match: greedy three times in four, else a uniform choice."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(f"soak-policy:{seed}")
        self.greedy = GreedyBot()

    def choose(self, state: GameState) -> Action:
        if self.random.random() < GREEDY_SHARE:
            return self.greedy.choose(state.observation(state.to_act[0]))
        return self.random.choice(state.legal_actions())


def play_match(
    variant: str, players: int, seed: int, max_actions: int, failures: list[Failure]
) -> tuple[bool, int, Soak]:
    """Play one soaked match to its end; returns (finished, actions applied, its checks)."""
    soak = Soak(variant, players, seed, failures)
    policy = Policy(seed)
    # When to round-trip and which lay-offs to try: a generator apart from the policy's.
    points = random.Random(f"soak-points:{seed}")
    state = new_game(variant, players=players, seed=seed)
    deck = Counter(state.variant.deck_for(players))
    due = dict.fromkeys(ROUND_TRIPS, 0)
    step = 0
    while True:
        if not check_step(soak, state, step, deck, points):
            break
        soak.check("observation", step, check_observations, state, step)
        soak.check("leak", step, check_leaks, state, step)
        for name, check in ROUND_TRIPS.items():
            if step == due[name]:
                soak.check(name, step, check, state)
                due[name] = next_check(step, points)
        if state.is_over or step >= max_actions:
            break
        action = policy.choose(state)
        before = snapshot(state)
        after: list[GameState] = []
        if not soak.check("apply", step, apply_into, state, action, after):
            break
        soak.check("apply", step, check_unchanged, state, before)
        state = after[0]
        step += 1
    for name, check in ROUND_TRIPS.items():
        if step != due[name]:  # the final state, unless it was just round-tripped
            soak.check(name, step, check, state)
    soak.check("finished", step, check_finished, state, max_actions)
    return state.is_over, step, soak


def check_finished(state: GameState, max_actions: int) -> str | None:
    if state.is_over:
        return None
    return f"the match is not over after {max_actions} actions"


ROUND_TRIPS: dict[str, Callable[[GameState], str | None]] = {
    "json": check_json,
    "pickle": check_pickle,
    "record": check_record,
}


def match_seed(base: int, index: int) -> int:
    return base * 100_003 + index


class Job(NamedTuple):
    """A batch of matches of one variant: (players, seed) each."""

    variant: str
    matches: tuple[tuple[int, int], ...]
    max_actions: int


class Figures(NamedTuple):
    variant: str
    players: tuple[int, ...]
    matches: int
    finished: int
    actions: int
    checks: int
    failures: int
    seconds: float
    failed: tuple[Failure, ...]


def run_job(job: Job) -> Figures:
    """Play a batch (in a worker process, a Ray task or here); its figures and failures."""
    started = time.process_time()
    failures: list[Failure] = []
    finished = actions = checks = failed = 0
    for players, seed in job.matches:
        over, steps, soak = play_match(job.variant, players, seed, job.max_actions, failures)
        finished += over
        actions += steps
        checks += soak.checks
        failed += soak.failed
    seconds = time.process_time() - started
    counts = tuple(sorted({players for players, _ in job.matches}))
    return Figures(
        job.variant,
        counts,
        len(job.matches),
        finished,
        actions,
        checks,
        failed,
        seconds,
        tuple(failures),
    )


def merge(parts: Sequence[Figures]) -> Figures:
    first = parts[0]
    return Figures(
        first.variant,
        tuple(sorted({count for part in parts for count in part.players})),
        sum(part.matches for part in parts),
        sum(part.finished for part in parts),
        sum(part.actions for part in parts),
        sum(part.checks for part in parts),
        sum(part.failures for part in parts),
        sum(part.seconds for part in parts),
        tuple(failure for part in parts for failure in part.failed),
    )


def jobs_of(
    variant: str, counts: Sequence[int], seeds: Sequence[int], max_actions: int, size: int
) -> list[Job]:
    """The variant's matches in batches of ``size``: match i plays the i-th count in turn."""
    matches = [(counts[index % len(counts)], seed) for index, seed in enumerate(seeds)]
    return [
        Job(variant, tuple(matches[start : start + size]), max_actions)
        for start in range(0, len(matches), size)
    ]


def run_serial(jobs: Sequence[Job], workers: int) -> Iterator[Figures]:
    return (run_job(job) for job in jobs)


def run_processes(jobs: Sequence[Job], workers: int) -> Iterator[Figures]:
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
    try:
        yield from pool.map(run_job, jobs)
    finally:  # interrupted: the batches not started are dropped, not waited for
        pool.shutdown(wait=True, cancel_futures=True)


def run_ray(jobs: Sequence[Job], workers: int) -> Iterator[Figures]:
    ray: Any = importlib.import_module("ray")
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(run_job)
        pending = [remote.remote(job) for job in jobs]
        for ref in pending:  # in job order, as the other backends
            yield ray.get(ref)
    finally:
        ray.shutdown()


BACKENDS: dict[str, Callable[[Sequence[Job], int], Iterator[Figures]]] = {
    "serial": run_serial,
    "process": run_processes,
    "ray": run_ray,
}

HEADERS = (
    "variant",
    "players",
    "matches",
    "finished",
    "actions",
    "checks",
    "failures",
    "cpu hours",
)


def print_row(cells: Sequence[object]) -> None:
    widths = (22, 7, 8, 8, 11, 13, 8, 9)
    print("  ".join(str(cell).rjust(width) for cell, width in zip(cells, widths, strict=True)))
    sys.stdout.flush()


def cells_of(row: Figures) -> list[object]:
    counts = row.players
    players = (
        "-" if not counts else str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    )
    return [
        row.variant,
        players,
        row.matches,
        row.finished,
        row.actions,
        row.checks,
        row.failures,
        f"{row.seconds / 3600:.3f}",
    ]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    def at_least(minimum: int) -> Callable[[str], int]:
        def read(text: str) -> int:
            try:
                value = int(text)
            except ValueError:
                value = minimum - 1
            if value < minimum:
                msg = f"must be a whole number of at least {minimum}, not {text!r}"
                raise argparse.ArgumentTypeError(msg)
            return value

        return read

    def names(text: str) -> list[str]:
        try:
            return [get_variant(name.strip()).name for name in text.split(",")]
        except RummyError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    def counts(text: str) -> list[int]:
        return [at_least(1)(part) for part in text.split(",")]

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--matches",
        type=at_least(1),
        default=1,
        help="whole matches per variant, spread over its player counts (default: %(default)s)",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="match i has seed SEED*100003+i (default: 1)"
    )
    parser.add_argument(
        "--variants", type=names, default=sorted(VARIANTS), help="a,b,... (default: all)"
    )
    parser.add_argument(
        "--players", type=counts, help="player counts a,b,... (default: all each variant allows)"
    )
    parser.add_argument(
        "--backend", choices=sorted(BACKENDS), default="process", help="(default: %(default)s)"
    )
    parser.add_argument(
        "--workers",
        type=at_least(1),
        default=os.cpu_count() or 1,
        help="processes or Ray CPUs (default: the CPU count)",
    )
    parser.add_argument(
        "--batch",
        type=at_least(1),
        default=10,
        help="matches per task handed to a worker (default: %(default)s)",
    )
    parser.add_argument(
        "--max-actions",
        type=at_least(0),
        default=ENGINE_CAP,
        help="the guard: a match not over after this many actions fails (default: %(default)s,"
        " the cap of rummylib.bots.play)",
    )
    parser.add_argument(
        "--match-seed", type=int, help="play only the match of this seed (from a failure report)"
    )
    parser.add_argument("--csv", type=Path, help="also write the table to this CSV file")
    return parser.parse_args(argv)


def write_csv(path: Path, rows: Sequence[Figures]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(HEADERS)
        writer.writerows(cells_of(row) for row in rows)


def report_failures(rows: Sequence[Figures]) -> int:
    """Print every failure kind with its first case; return how many kinds failed."""
    kinds: dict[tuple[str, str], list[Failure]] = {}
    for row in rows:
        for failure in row.failed:
            kinds.setdefault((failure.variant, failure.check), []).append(failure)
    for (variant, check), found in kinds.items():
        first = found[0]
        print(
            f"\nFAILED {check}: {variant}, {len(found)} match(es); first: {first.players} "
            f"players, match seed {first.seed}, step {first.step}:\n  {first.message}\n"
            f"  replay: python benchmarks/soak.py --backend serial --variants {variant} "
            f"--players {first.players} --match-seed {first.seed}"
        )
    return len(kinds)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    plans: list[tuple[str, list[int]]] = []
    for name in args.variants:
        cls = VARIANTS[name]
        allowed = range(cls.min_players, cls.max_players + 1)
        chosen = [players for players in (args.players or allowed) if players in allowed]
        if chosen:
            plans.append((name, chosen))
    if not plans:
        print("soak: no variant allows those player counts", file=sys.stderr)
        return 2
    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        print("soak: skipped: the ray backend needs Ray (pip install 'rummylib[ray]')")
        return 0
    if args.match_seed is not None:
        seeds = [args.match_seed]
    else:
        seeds = [match_seed(args.seed, index) for index in range(args.matches)]
    jobs = [
        job
        for name, chosen in plans
        for job in jobs_of(name, chosen, seeds, args.max_actions, args.batch)
    ]
    print(
        f"soak: {len(seeds)} whole match(es) per variant, backend {args.backend}, "
        f"{args.workers} worker(s)"
    )
    print_row(HEADERS)
    parts: dict[str, list[Figures]] = {}
    rows: list[Figures] = []
    interrupted = False
    wall = time.perf_counter()
    try:
        for figures in BACKENDS[args.backend](jobs, args.workers):
            parts.setdefault(figures.variant, []).append(figures)
            done = parts[figures.variant]
            if sum(part.matches for part in done) == len(seeds):
                rows.append(merge(done))
                print_row(cells_of(rows[-1]))
    except KeyboardInterrupt:
        interrupted = True
        print("soak: interrupted", file=sys.stderr)
    total = Figures(
        "total",
        (),
        *(sum(getattr(row, field) for row in rows) for field in Figures._fields[2:8]),
        (),
    )
    print_row(cells_of(total))
    print(f"soak: {time.perf_counter() - wall:.0f} s of wall time")
    if args.csv is not None:
        write_csv(args.csv, [*rows, total])
    failed = report_failures(rows)
    if interrupted:
        return 130
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # a crash of the soak itself, not a failed check: show where
        traceback.print_exc()
        sys.exit(3)
