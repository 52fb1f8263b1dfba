"""Soak test: seeded random matches of every variant, every engine invariant checked at every step.

Run from the repository root::

    python benchmarks/soak.py [--matches 1] [--seed 1] [--variants rummy101,carousel]
                              [--players 2,4] [--max-actions 2000] [--match-seed S]

For every registered variant (:data:`rummylib.variants.VARIANTS`, or ``--variants``) and every
player count it allows (or those of ``--players`` it allows), it plays ``--matches`` matches by
a seeded uniform choice over ``legal_actions()``. Before each action, and on the final state,
it checks:

* **cards**: ``state.all_cards()`` is the variant's deck for that player count;
* **to act**: while the match is not over someone is to act, and everyone in ``to_act`` has a
  legal action;
* **listed legal**: every listed action of every player passes ``is_legal``;
* **listed iff legal**: for the moves that carry no melds (draws, takes, discards, knock, pass,
  give up, Frish, rebuys, lay-offs), a constructed candidate set of every player's moves is
  legal exactly when it is listed. The candidates: every such move with no card, taking 1 to
  all of the discard pile (and -1, 0, one too many), discarding each card in hand (and one
  not in hand), laying off each hand card on a sample of the table's melds (as itself, at
  either end of a run, a joker standing for a sample of cards; and onto melds that do not
  exist), and the listed moves themselves;
* **apply**: applying the chosen action neither raises nor changes the old state;
* **json** / **pickle**: ``GameState.from_json(state.to_json()) == state`` and
  ``pickle.loads(pickle.dumps(state)) == state``, at random steps (the gaps grow with the
  match, since both cost a replay or a walk of the whole history) and at the end.

The defaults (one match per variant and player count, at most 2,000 actions each) take about
four minutes; a match costs about 2 to 12 ms per action. ``--match-seed`` replays the one
match of a failure report.

A match still going after ``--max-actions`` actions is counted as unfinished, not as a failure:
random play in Rummy 71/101 rarely completes a hand. The script prints a table (variant,
players, matches, finished, actions, invariant checks, failures, seconds) and then every
failure kind with the first time it happened, and a command that replays that one match; it
exits with 1 if any check failed, 130 when interrupted (Ctrl-C prints the table so far).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
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
from rummylib.cards import CARDS, JOKER_INDEX, Card
from rummylib.errors import RummyError
from rummylib.variants import VARIANTS, get_variant

NATURALS = CARDS[:JOKER_INDEX]
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


class Row(NamedTuple):
    variant: str
    players: int
    matches: int
    finished: int
    actions: int
    checks: int
    failures: int
    seconds: float


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
    "open_card",
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
    costs about two replays of itself, not one per step."""
    return step + points.randint(max(8, step // 2), max(16, 2 * step))


def play_match(
    variant: str, players: int, seed: int, max_actions: int, failures: list[Failure]
) -> tuple[bool, int, Soak]:
    """Play one soaked match; returns (finished, actions applied, its checks)."""
    soak = Soak(variant, players, seed, failures)
    policy = random.Random(f"soak-policy:{seed}")
    # When to round-trip and which lay-offs to try: a generator apart from the policy's.
    points = random.Random(f"soak-points:{seed}")
    state = new_game(variant, players=players, seed=seed)
    deck = Counter(state.variant.deck_for(players))
    next_json = next_pickle = 0
    step = 0
    while True:
        if not check_step(soak, state, step, deck, points):
            break
        if step == next_json:
            soak.check("json", step, check_json, state)
            next_json = next_check(step, points)
        if step == next_pickle:
            soak.check("pickle", step, check_pickle, state)
            next_pickle = next_check(step, points)
        if state.is_over or step >= max_actions:
            break
        action = policy.choice(state.legal_actions())
        before = snapshot(state)
        after: list[GameState] = []
        if not soak.check("apply", step, apply_into, state, action, after):
            break
        soak.check("apply", step, check_unchanged, state, before)
        state = after[0]
        step += 1
    if step != next_json:  # the final state, unless it was just round-tripped
        soak.check("json", step, check_json, state)
    if step != next_pickle:
        soak.check("pickle", step, check_pickle, state)
    return state.is_over, step, soak


def match_seed(base: int, index: int) -> int:
    return base * 100_003 + index


def run(
    variant: str,
    players: int,
    seeds: Sequence[int],
    max_actions: int,
    failures: list[Failure],
) -> Row:
    started = time.perf_counter()
    finished = actions = checks = failed = 0
    for seed in seeds:
        over, steps, soak = play_match(variant, players, seed, max_actions, failures)
        finished += over
        actions += steps
        checks += soak.checks
        failed += soak.failed
    seconds = time.perf_counter() - started
    return Row(variant, players, len(seeds), finished, actions, checks, failed, seconds)


HEADERS = ("variant", "players", "matches", "finished", "actions", "checks", "failures", "seconds")


def print_row(cells: Sequence[object]) -> None:
    widths = (22, 7, 7, 8, 9, 10, 8, 7)
    print("  ".join(str(cell).rjust(width) for cell, width in zip(cells, widths, strict=True)))
    sys.stdout.flush()


def print_row_of(row: Row) -> None:
    print_row([*row[:7], f"{row.seconds:.1f}"])


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
        help="matches per variant and player count (default: %(default)s)",
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
        "--max-actions",
        type=at_least(0),
        default=2000,
        help="actions per match before it counts as unfinished (default: %(default)s)",
    )
    parser.add_argument(
        "--match-seed", type=int, help="play only the match of this seed (from a failure report)"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    jobs = []
    for name in args.variants:
        cls = VARIANTS[name]
        allowed = range(cls.min_players, cls.max_players + 1)
        for players in args.players or allowed:
            if players in allowed:
                jobs.append((name, players))
    if not jobs:
        print("soak: no variant allows those player counts", file=sys.stderr)
        return 2
    if args.match_seed is not None:
        seeds = [args.match_seed]
    else:
        seeds = [match_seed(args.seed, index) for index in range(args.matches)]
    failures: list[Failure] = []
    rows: list[Row] = []
    print_row(HEADERS)
    interrupted = False
    try:
        for name, players in jobs:
            rows.append(run(name, players, seeds, args.max_actions, failures))
            print_row_of(rows[-1])
    except KeyboardInterrupt:
        interrupted = True
        print("soak: interrupted", file=sys.stderr)
    sums = [
        sum(getattr(row, field) for row in rows)
        for field in ("matches", "finished", "actions", "checks", "failures")
    ]
    print_row(["total", "", *sums, f"{sum(row.seconds for row in rows):.1f}"])
    kinds: dict[tuple[str, str], list[Failure]] = {}
    for failure in failures:
        kinds.setdefault((failure.variant, failure.check), []).append(failure)
    for (variant, check), found in kinds.items():
        first = found[0]
        print(
            f"\nFAILED {check}: {variant}, {len(found)} match(es); first: {first.players} "
            f"players, match seed {first.seed}, step {first.step}:\n  {first.message}\n"
            f"  replay: python benchmarks/soak.py --variants {variant} --players "
            f"{first.players} --match-seed {first.seed} --max-actions {args.max_actions}"
        )
    if interrupted:
        return 130
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # a crash of the soak itself, not a failed check: show where
        traceback.print_exc()
        sys.exit(3)
