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

``rummylib simulate`` gives up a match after ``--max-actions`` actions (random bots in Rummy
71/101 can go on for a very long time) and counts it as unfinished. It runs on every core
(``--backend process``, ``--workers N``), in one process (``--backend serial``) or on Ray
(``--backend ray``) with the same results for the same ``--seed``; ``--set key=value`` sets a
table setting, ``--json FILE`` and ``--csv FILE`` save every match (:mod:`rummylib.simulate`).
Ctrl-C stops it cleanly: it prints the summary of the matches played so far and exits with 130.

Exit codes: 0 success, 1 "no" (not a meld; with ``--arrange``, deadwood left), 2 bad input (a
one-line error ``rummylib: ...`` on stderr, no traceback), 130 interrupted (Ctrl-C).
Progress bars, tables and colour come from :mod:`rich` when it is installed
(``pip install 'rummylib[cli]'``); without it the output is plain text.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from rummylib import svg
from rummylib.arrangement import arrange, format_arrangement
from rummylib.cards import parse_cards
from rummylib.errors import ConfigurationError, InvalidMeldError, RummyError
from rummylib.melds import AceRule, Meld, MeldRules
from rummylib.scoring import CardPoints
from rummylib.simulate import BOT_NAMES, SimulationResult, simulate
from rummylib.variants import VARIANTS, Variant, get_variant

__all__ = ["main"]

EXIT_OK = 0
EXIT_NO = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a program stopped by Ctrl-C

_BOT_NAMES = tuple(BOT_NAMES)
_ERRORS_SHOWN = 5  # the first errors are printed after the summary; all are in --json/--csv


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

    def advance(self, count: int = 1) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, count)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def _simulate(args: argparse.Namespace, printer: _Printer) -> int:
    variant: Variant = args.variant
    if args.settings:
        variant = get_variant(variant.name, **{**variant.settings(), **dict(args.settings)})
    players = variant.check_players(args.players)
    names: tuple[str, ...] = args.bots
    if len(names) not in {1, players}:  # refused before any match
        msg = f"--bots names {len(names)} bots for {players} players"
        raise ConfigurationError(msg)
    with printer.progress(args.matches, f"{variant.name} x{players}") as progress:
        result = simulate(
            variant,
            players=players,
            bots=names,
            matches=args.matches,
            seed=args.seed,
            workers=args.workers,
            backend=args.backend,
            max_actions=args.max_actions,
            progress=progress.advance,
        )
    _summarise(printer, result)
    for option, path, text in (
        ("--json", args.json, result.to_json),
        ("--csv", args.csv, result.to_csv),
    ):
        if path is not None:
            try:
                Path(path).write_text(text(), encoding="utf-8")
            except OSError as error:
                msg = f"cannot write {option} {path}: {error.strerror or error}"
                raise ConfigurationError(msg) from None
    if result.is_interrupted:
        print(
            f"rummylib: interrupted after {len(result.records)} of {args.matches} matches",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    return EXIT_OK


def _summarise(printer: _Printer, result: SimulationResult) -> None:
    summary = result.summary
    count, asked = summary.played, result.matches
    matches = f"{count} of {asked} matches" if result.is_interrupted else f"{count} matches"
    bots = ",".join(dict.fromkeys(result.bots))
    printer.table(
        f"{result.variant}: {matches}, {result.players} players, bots {bots}",
        ["seat", "wins", "win rate (95% interval)", "bot"],
        [
            [f"p{seat + 1}", f"{rate.wins:g}", str(rate), result.bots[seat]]
            for seat, rate in enumerate(summary.seat_win_rates)
        ],
    )
    if len(summary.bot_win_rates) > 1:
        printer.table(
            "per bot (over the seats it held)",
            ["bot", "seats", "wins", "win rate (95% interval)"],
            [
                [name, str(result.bots.count(name)), f"{rate.wins:g}", str(rate)]
                for name, rate in summary.bot_win_rates
            ],
        )
    limit = "no limit" if result.max_actions is None else f"{result.max_actions:,} actions"
    rows = [
        [
            "matches played",
            f"{count} of {asked}" + (" (interrupted)" if result.is_interrupted else ""),
        ],
        ["matches finished", f"{summary.finished} of {count}"],
        [f"unfinished after {limit}", str(summary.unfinished)],
        ["errors", str(summary.errors)],
        ["deals per match", f"{summary.deals_per_match:.2f}" if count else "-"],
        *([name, str(total)] for name, total in summary.statistics),
        [
            "backend",
            f"{result.backend} ({result.workers} worker{'s' if result.workers > 1 else ''})",
        ],
        ["matches/s", f"{summary.matches_per_second:.2f}"],
        ["actions/s", f"{summary.actions_per_second:,.0f}"],
    ]
    printer.table("summary", ["figure", "value"], rows)
    shown = [record for record in result.records if record.error is not None][:_ERRORS_SHOWN]
    for record in shown:
        printer.say(f"match {record.index} (seed {record.seed}): {record.error}", "red")


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


_POINT_NAMES = ("ace", "face", "joker", "ace_low_run")
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: int() also reads "٣" and "1_0"


def _quote(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message, cut short if it is long."""
    return repr(text if len(text) <= limit else f"{text[:limit]}…")


def _read_whole(text: str) -> int | None:
    """``text`` as a whole number, or ``None`` if it is not one (or too long to be one)."""
    text = text.strip()
    if not _WHOLE_NUMBER.fullmatch(text):
        return None
    try:
        return int(text)
    except ValueError:  # more digits than int() reads (sys.get_int_max_str_digits)
        return None


def _whole_number(minimum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number, of at least ``minimum`` if one is given."""
    kind = "a whole number" if minimum is None else f"a whole number of at least {minimum}"

    def read(text: str) -> int:
        value = _read_whole(text)
        if value is None or (minimum is not None and value < minimum):
            msg = f"must be {kind}, not {_quote(text)}"
            raise argparse.ArgumentTypeError(msg)
        return value

    return read


def _points(text: str) -> CardPoints:
    """Read ``--points``: ``name=value`` pairs separated by commas, such as ``ace=1,face=10``.

    An argparse ``type=``: a bad value raises :class:`argparse.ArgumentTypeError`.
    """
    values: dict[str, int] = {}
    names = ", ".join(_POINT_NAMES)
    for item in text.split(","):
        name, equals, number = (part.strip() for part in item.partition("="))
        value = _read_whole(number)
        if not equals or name not in _POINT_NAMES or value is None or value < 0:
            msg = (
                f"bad points {_quote(item.strip())}: expected name=number (a whole number of at "
                f"least 0) with a name among {names}"
            )
            raise argparse.ArgumentTypeError(msg)
        if name in values:
            msg = f"bad points {_quote(text)}: {name} is given twice"
            raise argparse.ArgumentTypeError(msg)
        values[name] = value
    return CardPoints(**values)


def _variant(text: str) -> Variant:
    """Read ``--variant`` (an argparse ``type=``)."""
    try:
        return get_variant(text)
    except RummyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _bot_names(text: str) -> tuple[str, ...]:
    """Read ``--bots``: one bot name, or one per seat separated by commas (``type=``)."""
    names = tuple(name.strip().lower() for name in text.split(","))
    for name in names:
        if not name:
            msg = f"bad bots {_quote(text)}: a bot name is missing; use greedy or random"
            raise argparse.ArgumentTypeError(msg)
        if name not in _BOT_NAMES:
            msg = f"unknown bot {_quote(name)}: use greedy or random"
            raise argparse.ArgumentTypeError(msg)
    return names


def _setting(text: str) -> tuple[str, object]:
    """Read ``--set KEY=VALUE``: the value as a JSON literal if it parses, else as text."""
    key, equals, value = text.partition("=")
    key = key.strip()
    if not equals or not key:
        msg = f"bad setting {_quote(text)}: expected key=value"
        raise argparse.ArgumentTypeError(msg)
    try:
        parsed: object = json.loads(value)
    except ValueError:
        parsed = value
    return key, parsed


def _save_svg(path: str | None, picture: str) -> None:
    """Write ``check --svg FILE``; a file that cannot be written is bad input (exit 2)."""
    if path is not None:
        try:
            Path(path).write_text(picture, encoding="utf-8")
        except OSError as error:
            msg = f"cannot write --svg {path}: {error.strerror or error}"
            raise ConfigurationError(msg) from None


def _check(args: argparse.Namespace, printer: _Printer) -> int:
    cards = parse_cards(" ".join(args.cards))
    if not cards:
        msg = "no cards given"
        raise ConfigurationError(msg)
    rules = MeldRules(ace=args.ace, joker_beside_ace=args.joker_beside_ace)
    if args.arrange:
        points = CardPoints() if args.points is None else args.points
        best = arrange(cards, rules, points, discard=args.discard)
        _save_svg(args.svg, svg.arrangement(best))
        printer.say(format_arrangement(best), "green" if best.is_complete else "")
        return EXIT_OK if best.is_complete else EXIT_NO
    for option, given in (("--discard", args.discard), ("--points", args.points is not None)):
        if given:
            msg = f"{option} needs --arrange"
            raise ConfigurationError(msg)
    try:
        meld = Meld.from_cards(cards, rules)
    except InvalidMeldError as error:
        _save_svg(args.svg, svg.cards(cards))
        printer.say(str(error), "red")
        return EXIT_NO
    _save_svg(args.svg, svg.meld(meld))
    printer.say(_describe(meld), "green")
    return EXIT_OK


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, ``rummylib: ...``, with exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"rummylib: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rummylib", description="The rules of rummy games, exactly and fast.")
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
        type=_points,
        help="with --arrange: card values, as name=value pairs among ace, face (J Q K), "
        "joker, ace_low_run; 2-10 count their pips (default: ace=1,face=10,joker=0)",
    )
    check.add_argument(
        "--discard",
        action="store_true",
        help="with --arrange: set the best card aside first (a discard, any card)",
    )
    check.add_argument(
        "--svg",
        metavar="FILE",
        help="also write the picture (SVG) of the meld or the arrangement to FILE "
        "(of the cards alone when they are no meld)",
    )
    check.set_defaults(handler=_check)
    simulate = commands.add_parser(
        "simulate",
        help="let bots play matches and sum them up",
        description="Bots play whole matches; prints wins per seat and match figures.",
    )
    simulate.add_argument(
        "--variant", type=_variant, default="rummy101", help="default: %(default)s"
    )
    simulate.add_argument(
        "--players",
        type=_whole_number(),
        default=4,
        help="how many players, as many as the variant allows (see rummylib variants; "
        "default: %(default)s)",
    )
    simulate.add_argument(
        "--matches", type=_whole_number(1), default=20, help="default: %(default)s"
    )
    simulate.add_argument(
        "--seed",
        type=_whole_number(),
        default=1,
        help="the same seed plays the same matches (default: %(default)s)",
    )
    simulate.add_argument(
        "--bots",
        type=_bot_names,
        default="greedy",
        help="greedy or random, or one per seat separated by commas (default: %(default)s)",
    )
    simulate.add_argument(
        "--max-actions",
        type=_whole_number(1),
        default=100_000,
        help="give up a match after this many actions and count it as unfinished "
        "(default: %(default)s)",
    )
    simulate.add_argument(
        "--backend",
        choices=["serial", "process", "ray"],
        default="process",
        help="where the matches run: this process, a pool of processes, or Ray (pip install "
        "'rummylib[ray]'; a running cluster is joined when RAY_ADDRESS is set) "
        "(default: %(default)s)",
    )
    simulate.add_argument(
        "--workers",
        type=_whole_number(1),
        help="processes for --backend process (default: one per CPU); CPUs to plan for with "
        "--backend ray (default: the cluster's)",
    )
    simulate.add_argument(
        "--set",
        dest="settings",
        metavar="KEY=VALUE",
        type=_setting,
        action="append",
        default=[],
        help="a table setting (see rummylib variants), such as stake=5; the value is read as "
        "JSON when it is JSON (5, true, [1, 2]), as text otherwise; repeat for more",
    )
    simulate.add_argument(
        "--json", metavar="FILE", help="also write every match and the summary as JSON"
    )
    simulate.add_argument("--csv", metavar="FILE", help="also write one CSV row per match")
    simulate.set_defaults(handler=_simulate)
    variants = commands.add_parser("variants", help="list the variants and their settings")
    variants.set_defaults(handler=_variants)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code.

    Bad input gets a one-line message on stderr, ``rummylib: ...``, and exit code 2, whether
    the argument parser refuses a bad option value or usage, or the rules refuse the input:
    :func:`main` returns the code in every case, it never raises ``SystemExit``.

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
    >>> main(["check", ""])
    2
    """
    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:  # argparse exits on bad usage (2) and after --help (0)
        return stop.code if isinstance(stop.code, int) else EXIT_BAD_INPUT
    printer = _Printer()
    try:
        code: int = args.handler(args, printer)
    except RummyError as error:
        print(f"rummylib: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
