"""The ``rummylib`` command line.

``rummylib simulate`` lets bots play matches and sums them up::

    $ rummylib simulate --variant rummy101 --players 4 --matches 200 --seed 1 --bots greedy

``rummylib check CARDS`` says whether the cards form a meld and how its jokers read::

    $ rummylib check "Ah 2h * 4h"
    Ah 2h *=3h 4h is a run; the joker stands for 3h

``rummylib check --arrange CARDS`` arranges a hand (``--points``, ``--discard``)::

    $ rummylib check --arrange "7c 7d 7h 8h 9h Ks"
    7h 8h 9h | deadwood 7c 7d Ks (24 points)

``rummylib variants`` lists the variants, their player ranges and settings.

Exit codes: 0 success, 1 "no" (not a meld; with ``--arrange``, deadwood left), 2 bad input (a
one-line error, no traceback).
Progress bars, tables and colour come from :mod:`rich` when it is installed
(``pip install 'rummylib[cli]'``); without it the output is plain text.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from rummylib.actions import Action, AnswerFrish, ProposeFrish, TimeExpired
from rummylib.arrangement import arrange, format_arrangement
from rummylib.bots import Bot, GreedyBot, RandomBot, play
from rummylib.cards import parse_cards
from rummylib.errors import ConfigurationError, InvalidMeldError, RummyError
from rummylib.melds import AceRule, Meld, MeldRules
from rummylib.scoring import CardPoints
from rummylib.state import new_game
from rummylib.variants import VARIANTS, get_variant

__all__ = ["main"]

EXIT_OK = 0
EXIT_NO = 1
EXIT_BAD_INPUT = 2


class _Printer:
    """Prints with rich markup when rich is installed, plain text otherwise."""

    def __init__(self) -> None:
        try:
            from rich.console import Console  # noqa: PLC0415  (rich is an optional extra)
        except ImportError:
            self._console = None
        else:
            self._console = Console(highlight=False)

    def table(self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        if self._console is None:
            widths = [
                max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))
            ]
            print(title)
            for row in [headers, *rows]:
                print(
                    "  ".join(
                        str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)
                    )
                )
            return
        from rich.table import Table  # noqa: PLC0415

        table = Table(title=title)
        for header in headers:
            table.add_column(header)
        for row in rows:
            table.add_row(*row)
        self._console.print(table)

    def progress(self, total: int, label: str) -> _Progress:
        return _Progress(self._console, total, label)

    def say(self, text: str, style: str = "") -> None:
        if self._console is None:
            print(text)
        else:
            from rich.markup import escape  # noqa: PLC0415

            # soft_wrap: a long verdict stays one line when output is not a terminal.
            self._console.print(
                f"[{style}]{escape(text)}[/]" if style else escape(text), soft_wrap=True
            )


class _Progress:
    """A rich progress bar, or nothing without rich (or when output is not a terminal)."""

    def __init__(self, console: object, total: int, label: str) -> None:
        self._bar: Any = None
        if console is not None and getattr(console, "is_terminal", False):
            from rich.progress import Progress  # noqa: PLC0415

            self._bar = Progress(console=console, transient=True)  # type: ignore[arg-type]
            self._task = self._bar.add_task(label, total=total)

    def __enter__(self) -> _Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def advance(self) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def _make_bots(spec: str, players: int, seed: int) -> list[Bot]:
    names = [name.strip().lower() for name in spec.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        msg = f"--bots names {len(names)} bots for {players} players"
        raise ConfigurationError(msg)
    bots: list[Bot] = []
    for seat, name in enumerate(names):
        if name == "greedy":
            bots.append(GreedyBot())
        elif name == "random":
            bots.append(RandomBot(seed=seed * 1000 + seat))
        else:
            msg = f"unknown bot {name!r}: use greedy or random"
            raise ConfigurationError(msg)
    return bots


def _frish_counts(history: Sequence[Action]) -> tuple[int, int]:
    proposals = accepted = 0
    answers: list[bool] | None = None
    for action in (*history, None):
        if isinstance(action, AnswerFrish) and answers is not None:
            answers.append(action.accept)
            continue
        if isinstance(action, TimeExpired) and answers is not None:
            answers.append(False)  # no answer in time counts as a refusal (rule 1.18)
            continue
        if answers:
            accepted += all(answers)
        answers = None
        if isinstance(action, ProposeFrish):
            proposals += 1
            answers = []
    return proposals, accepted


def _simulate(args: argparse.Namespace, printer: _Printer) -> int:
    variant = get_variant(args.variant)
    players = variant.check_players(args.players)
    if args.matches < 1:
        msg = f"--matches must be at least 1, not {args.matches}"
        raise ConfigurationError(msg)
    wins = [0.0] * players
    deals = actions = rebuys = unfinished = proposals = accepted = 0
    deal_points: list[float] = []
    started = time.perf_counter()
    with printer.progress(args.matches, f"{variant.name} x{players}") as progress:
        for match in range(args.matches):
            seed = args.seed * 100_003 + match
            bots = _make_bots(args.bots, players, seed)
            state = play(
                new_game(variant, players=players, seed=seed), bots, max_actions=args.max_actions
            )
            actions += len(state.history)
            asked, yes = _frish_counts(state.history)
            proposals += asked
            accepted += yes
            records = state.deal_results
            deals += len(records)
            for record in records:
                scored = [points for points in record.points if points]
                if record.lines:
                    deal_points.append(sum(scored) / max(1, len(record.lines)))
            if state.result is None:
                unfinished += 1
            else:
                for winner in state.result.winners:
                    wins[winner] += 1 / len(state.result.winners)
                rebuys += sum("rebuy for" in line.reason for line in state.result.lines)
            progress.advance()
    elapsed = max(time.perf_counter() - started, 1e-9)
    finished = args.matches - unfinished
    printer.table(
        f"{variant.name}: {args.matches} matches, {players} players, bots {args.bots}",
        ["seat", "wins", "win share"],
        [
            [f"p{seat + 1}", f"{wins[seat]:g}", f"{wins[seat] / max(finished, 1):.1%}"]
            for seat in range(players)
        ],
    )
    rows = [
        ["matches finished", f"{finished} of {args.matches}"],
        ["deals per match", f"{deals / args.matches:.2f}"],
        [
            "mean points per player per deal",
            f"{sum(deal_points) / len(deal_points):.1f}" if deal_points else "-",
        ],
        ["rebuys", str(rebuys)],
        ["frish proposed / accepted", f"{proposals} / {accepted}"],
        ["matches/s", f"{args.matches / elapsed:.2f}"],
        ["actions/s", f"{actions / elapsed:,.0f}"],
    ]
    printer.table("summary", ["figure", "value"], rows)
    return EXIT_OK


def _variants(args: argparse.Namespace, printer: _Printer) -> int:
    rows = []
    for name, cls in sorted(VARIANTS.items()):
        settings = cls().settings()
        text = ", ".join(f"{key}={value!r}" for key, value in settings.items())
        rows.append([name, f"{cls.min_players}-{cls.max_players}", text])
    printer.table("variants", ["name", "players", "settings (defaults)"], rows)
    return EXIT_OK


def _describe(meld: Meld) -> str:
    jokers = [
        str(stands)
        for card, stands in zip(meld.cards, meld.stands_for, strict=True)
        if card.is_joker
    ]
    text = f"{meld} is a {meld.kind.value}"
    if len(jokers) == 1:
        text += f"; the joker stands for {jokers[0]}"
    elif jokers:
        text += f"; the jokers stand for {' '.join(jokers)}"
    return text


def _points(text: str) -> CardPoints:
    """Read ``--points``: ``name=value`` pairs separated by commas, such as ``ace=1,face=10``."""
    values: dict[str, int] = {}
    for item in text.split(","):
        name, equals, value = item.strip().partition("=")
        if not equals or name not in _POINT_NAMES or not value.strip().isdigit():
            names = ", ".join(_POINT_NAMES)
            msg = f"bad points {item.strip()!r}: expected name=number with a name among {names}"
            raise ConfigurationError(msg)
        values[name] = int(value)
    return CardPoints(**values)


_POINT_NAMES = ("ace", "face", "joker", "ace_low_run")


def _check(args: argparse.Namespace, printer: _Printer) -> int:
    cards = parse_cards(" ".join(args.cards))
    rules = MeldRules(ace=args.ace, joker_beside_ace=args.joker_beside_ace)
    if args.arrange:
        best = arrange(cards, rules, _points(args.points), discard=args.discard)
        printer.say(format_arrangement(best), "green" if best.is_complete else "")
        return EXIT_OK if best.is_complete else EXIT_NO
    if args.discard:
        msg = "--discard needs --arrange"
        raise ConfigurationError(msg)
    try:
        meld = Meld.from_cards(cards, rules)
    except InvalidMeldError as error:
        printer.say(str(error), "red")
        return EXIT_NO
    printer.say(_describe(meld), "green")
    return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummylib", description="The rules of rummy games, exactly and fast."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="is this a meld? (or, with --arrange, how do these cards meld best?)",
        description="Say whether the cards form a meld, and what each joker stands for; "
        "with --arrange, split them into melds and deadwood as well as possible.",
    )
    check.add_argument("cards", nargs="+", help='cards such as "Ah 2h * 4h" (* is a joker)')
    check.add_argument(
        "--ace",
        choices=[rule.value for rule in AceRule],
        default=AceRule.LOW_OR_HIGH.value,
        help="where an ace may stand in a run (default: %(default)s)",
    )
    check.add_argument(
        "--joker-beside-ace",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="may a joker sit next to an ace in a run or stand for one (default: yes)",
    )
    check.add_argument(
        "--arrange",
        action="store_true",
        help="arrange the cards as a hand: the best melds, the deadwood and its points "
        "(exit 0 when every card melds, 1 when deadwood is left)",
    )
    check.add_argument(
        "--points",
        default="ace=1,face=10,joker=0",
        help="with --arrange: card values, as name=value pairs among ace, face (J Q K), "
        "joker, ace_low_run; 2-10 count their pips (default: %(default)s)",
    )
    check.add_argument(
        "--discard",
        action="store_true",
        help="with --arrange: set the best card aside first (a discard, any card)",
    )
    check.set_defaults(handler=_check)
    simulate = commands.add_parser(
        "simulate",
        help="let bots play matches and sum them up",
        description="Bots play whole matches; prints wins per seat and match figures.",
    )
    simulate.add_argument("--variant", default="rummy101", help="default: %(default)s")
    simulate.add_argument("--players", type=int, default=4, help="default: %(default)s")
    simulate.add_argument("--matches", type=int, default=20, help="default: %(default)s")
    simulate.add_argument("--seed", type=int, default=1, help="default: %(default)s")
    simulate.add_argument(
        "--bots",
        default="greedy",
        help="greedy or random, or one per seat separated by commas (default: %(default)s)",
    )
    simulate.add_argument(
        "--max-actions",
        type=int,
        default=50_000,
        help="give up a match after this many actions (default: %(default)s)",
    )
    simulate.set_defaults(handler=_simulate)
    variants = commands.add_parser("variants", help="list the variants and their settings")
    variants.set_defaults(handler=_variants)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code.

    >>> main(["check", "7h 8h 9h"])
    7h 8h 9h is a run
    0
    >>> main(["check", "7h 8h"])
    7h 8h is not a meld: too few cards (2, at least 3)
    1
    >>> main(["check", "--arrange", "7c 7d 7h 8h 9h Ks"])
    7h 8h 9h | deadwood 7c 7d Ks (24 points)
    1
    >>> main(["check", "--arrange", "--discard", "--ace", "low", "As 2s 3s * Kd"])
    As 2s 3s *=4s | no deadwood | discard Kd
    0
    """
    args = _parser().parse_args(argv)
    printer = _Printer()
    try:
        code: int = args.handler(args, printer)
    except RummyError as error:
        print(f"rummylib: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
