"""The ``rummylib`` command line.

``rummylib simulate`` lets bots play matches and sums them up::

    $ rummylib simulate --variant rummy101 --players 4 --matches 200 --seed 1 --bots greedy

``rummylib check CARDS`` says whether the cards form a meld and how its jokers read; a joker
may declare what it stands for (``*=3h``), and ``--variant NAME`` checks under that variant's
meld rules::

    $ rummylib check "Ah 2h * 4h"
    Ah 2h *=3h 4h is a run; the joker stands for 3h
    $ rummylib check --variant rummy101 "Ah * 3h"
    Ah * 3h is not a meld: joker beside an ace

``rummylib check --arrange CARDS`` arranges a hand (``--points``, ``--discard``)::

    $ rummylib check --arrange "7c 7d 7h 8h 9h Ks"
    7h 8h 9h | deadwood 7c 7d Ks (24 points)

``rummylib variants`` lists the variants and their player ranges; ``rummylib variants NAME``
shows one variant's settings with their defaults. ``rummylib --version`` prints the version.

``rummylib simulate`` gives up a match after ``--max-actions`` actions (random bots in Rummy
71/101 can go on for a very long time) and counts it as unfinished. It runs on every core
(``--backend process``, ``--workers N``), in one process (``--backend serial``) or on Ray
(``--backend ray``) with the same results for the same ``--seed``; ``--set key=value`` sets a
table setting, ``--json FILE`` and ``--csv FILE`` save every match (:mod:`rummylib.simulate`),
``--save-records DIR`` writes every match's game record (:mod:`rummylib.records`). An output
file that could not be written (its folder missing, the two options naming one file) is refused
before the first match, and each file is written whole or not at all: a write that fails keeps
the old file.
Ctrl-C stops it cleanly: it prints the summary of the matches played so far and exits with 130.

``rummylib play`` seats you at p1 against bots (``--variant``, ``--players`` (3, or as near
as the variant allows), ``--seed``, ``--bots greedy,random``, ``--resume FILE``); it says
what you may do in the variant's words, ``help`` lists the moves of the phase at hand with an
example each, and without a terminal it reads one command per line. ``--json`` is for a
program: one move a line in, one JSON object a line out (the command-line page documents
them). ``rummylib replay FILE`` checks a game record and prints its score sheet and the
winner (``--deal N``: one deal's actions; ``--step``: one action at a time)::

    $ rummylib replay tests/data/gin.toml --deal 1

Exit codes: 0 success, 1 "no" (not a meld; with ``--arrange``, deadwood left; with
``simulate``, no match finished), 2 bad input (a one-line error ``rummylib: ...`` on stderr, no
traceback), 130 interrupted (Ctrl-C).
Progress bars, tables and colour come from :mod:`rich` when it is installed
(``pip install 'rummylib[cli]'``); without it the output is plain text.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import inspect
import json
import os
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, cast

import attrs

from rummylib import _play, _words, svg, web
from rummylib._files import write_text
from rummylib.arrangement import arrange, format_arrangement
from rummylib.cards import JOKER
from rummylib.errors import ConfigurationError, InvalidMeldError, NotationError, RummyError
from rummylib.melds import AceRule, MeldRules
from rummylib.scoring import CardPoints
from rummylib.simulate import BOT_NAMES, MAX_MATCHES, SimulationResult, simulate
from rummylib.tiles import CARD_NOTATION
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
        from rich.markup import escape  # noqa: PLC0415
        from rich.table import Table  # noqa: PLC0415

        # The title goes on a line of its own: as the table's title, rich would wrap it to the
        # table's width ("4 / players").
        self._console.print(f"[bold]{escape(title)}[/]", soft_wrap=True)
        table = Table()
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


#: The players ``rummylib simulate`` seats unless told: four, or as near as the variant
#: allows (two in gin).
SIMULATE_PLAYERS = 4


def _simulate(args: argparse.Namespace, printer: _Printer) -> int:
    variant: Variant = args.variant
    if args.settings:
        variant = get_variant(variant.name, **{**variant.settings(), **dict(args.settings)})
    players = args.players
    if players is None:
        players = min(max(SIMULATE_PLAYERS, variant.min_players), variant.max_players)
    players = variant.check_players(players)
    names: tuple[str, ...] = args.bots
    if len(names) not in {1, players}:  # refused before any match
        msg = f"--bots names {len(names)} bots for {players} players"
        raise ConfigurationError(msg)
    outputs = (("--json", args.json), ("--csv", args.csv))
    _check_outputs([(option, path) for option, path in outputs if path is not None])
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
            save_records=args.save_records,
        )
    _summarise(printer, result)
    for option, path, text in (
        ("--json", args.json, result.to_json),
        ("--csv", args.csv, result.to_csv),
    ):
        if path is not None:
            try:
                write_text(path, text())  # an old file is kept if this fails
            except OSError as error:
                msg = f"cannot write {option} {path}: {error.strerror or error}"
                raise ConfigurationError(msg) from None
    if result.is_interrupted:
        print(
            f"rummylib: interrupted after {len(result.records)} of {args.matches} matches",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    if result.summary.record_errors:  # --save-records promised every match
        count = _count(result.summary.record_errors, "game record")
        print(f"rummylib: {count} could not be written (listed above)", file=sys.stderr)
        return EXIT_BAD_INPUT
    summary = result.summary
    if summary.played and not summary.finished:
        if summary.unfinished:
            limit = "" if result.max_actions is None else f" within {result.max_actions:,} actions"
            reason = f"{limit}; a higher --max-actions lets them end"
        else:
            reason = ": every match stopped with an error (the first are listed above)"
        print(f"rummylib: no match finished{reason}", file=sys.stderr)
        return EXIT_NO
    return EXIT_OK


def _check_outputs(outputs: Sequence[tuple[str, str]]) -> None:
    """Refuse output files that could not be written, before any match is played."""
    seen: dict[Path, str] = {}
    for option, path in outputs:
        target = Path(path)
        folder = target.parent
        problem = None
        if target.is_dir():
            problem = "it is a folder"
        elif not folder.is_dir():
            problem = f"there is no folder {folder}"
        elif not os.access(folder, os.W_OK):
            problem = f"the folder {folder} is not writable"
        elif target.resolve() in seen:
            problem = f"{seen[target.resolve()]} writes the same file"
        if problem is not None:
            msg = f"cannot write {option} {path}: {problem}"
            raise ConfigurationError(msg)
        seen[target.resolve()] = option


def _count(number: int, noun: str) -> str:
    """``1 match``, ``2 matches``: a count and its noun, singular or plural."""
    plural = noun + ("es" if noun.endswith(("s", "ch")) else "s")
    return f"{number} {noun if number == 1 else plural}"


def _summarise(printer: _Printer, result: SimulationResult) -> None:
    summary = result.summary
    count, asked = summary.played, result.matches
    matches = (
        f"{count} of {_count(asked, 'match')}" if result.is_interrupted else _count(count, "match")
    )
    if len(set(result.bots)) == 1:
        bots = f"bots {result.bots[0]}"
    else:  # mixed bots: name the bot in each seat
        bots = "bots " + ", ".join(f"p{seat + 1} {bot}" for seat, bot in enumerate(result.bots))
    printer.table(
        f"{result.variant}: {matches}, {_count(result.players, 'player')}, {bots}",
        ["seat", "wins", "win rate (95% interval)", "bot"],
        [
            [f"p{seat + 1}", f"{rate.wins:g}", str(rate), result.bots[seat]]
            for seat, rate in enumerate(summary.seat_win_rates)
        ],
    )
    if len(summary.bot_win_rates) > 1:
        printer.table(
            "per bot (the matches won by any of its seats)",
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
        *(
            [["game records not written", str(summary.record_errors)]]
            if summary.record_errors
            else []
        ),
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
    unsaved = [record for record in result.records if record.record_error is not None]
    for record in unsaved[:_ERRORS_SHOWN]:
        printer.say(f"match {record.index}'s game record: {record.record_error}", "red")


def _variants(args: argparse.Namespace, printer: _Printer) -> int:
    if args.name is not None:
        return _variant_settings(args.name, printer)
    rows = [[name, cls.title or name, _players(cls)] for name, cls in sorted(VARIANTS.items())]
    printer.table("variants", ["name", "game", "players"], rows)
    printer.say("rummylib variants NAME shows a variant's settings and their defaults.")
    return EXIT_OK


def _players(cls: type[Variant]) -> str:
    """A variant's player range: ``2-6``, or ``2`` when that is the only count."""
    low, high = cls.min_players, cls.max_players
    return str(low) if low == high else f"{low}-{high}"


_ROLE = re.compile(r":[\w:]+:`~?([^`<]*?)(?: <[^>]*>)?`")  # :class:`~x.Y` in a docstring


def _plain(text: str) -> str:
    """A docstring line without its reStructuredText markup."""
    return _ROLE.sub(lambda match: match.group(1).rpartition(".")[2], text).replace("``", "")


def _variant_settings(variant: Variant, printer: _Printer) -> int:
    """``rummylib variants NAME``: one variant's settings, defaults and rule numbers."""
    cls = type(variant)
    summary = _plain((inspect.getdoc(cls) or "").partition("\n")[0])
    printer.say(f"{variant.name}: {cls.title or variant.name}, {_players(cls)} players")
    if summary:
        printer.say(summary)
    fields = attrs.fields_dict(cls)
    values = _words.setting_values(variant)
    rows = []
    for name, default in variant.settings().items():
        rule = type(variant).rule_of(name) or (
            fields[name].metadata.get("rule", "") if name in fields else ""
        )
        rows.append([name, _words.setting_text(default), values[name], str(rule)])
    headers = ["setting", "default", "other values", "rule"]
    if not any(row[3] for row in rows):  # a variant that names no rule numbers
        headers, rows = headers[:3], [row[:3] for row in rows]
    printer.table(f"settings of {variant.name} (rummylib simulate --set KEY=VALUE)", headers, rows)
    return EXIT_OK


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


def _whole_number(minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number, from ``minimum`` to ``maximum`` if given."""
    if maximum is not None:
        kind = f"a whole number from {minimum} to {maximum}"
    elif minimum is not None:
        kind = f"a whole number of at least {minimum}"
    else:
        kind = "a whole number"

    def read(text: str) -> int:
        value = _read_whole(text)
        if (
            value is None
            or (minimum is not None and value < minimum)
            or (maximum is not None and value > maximum)
        ):
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
    # Only the whole-number fields are named here (numbered_faces is no --points name).
    return CardPoints(**cast("dict[str, Any]", values))


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
            write_text(path, picture)
        except OSError as error:
            msg = f"cannot write --svg {path}: {error.strerror or error}"
            raise ConfigurationError(msg) from None


def _check_rules(args: argparse.Namespace) -> MeldRules:
    """The meld rules of ``check``: the variant's (or the shared core's), then ``--ace`` etc."""
    variant: Variant | None = args.variant
    rules = MeldRules() if variant is None else variant.meld_rules
    changes: dict[str, Any] = {}
    if args.ace is not None:
        changes["ace"] = args.ace
    if args.joker_beside_ace is not None:
        changes["joker_beside_ace"] = args.joker_beside_ace
    return attrs.evolve(rules, **changes) if changes else rules


def _has_jokers(variant: Variant) -> bool:
    """Whether a printed joker is in the variant's deck at some player count."""
    players = range(type(variant).min_players, type(variant).max_players + 1)
    return any(JOKER in variant.deck_for(count) for count in players)


def _names_variant(token: str) -> bool:
    """Whether ``token`` is a variant's name or alias (``check rummy71 …`` for ``--variant``)."""
    try:
        get_variant(token)
    except RummyError:
        return False
    return True


def _check(args: argparse.Namespace, printer: _Printer) -> int:
    text = " ".join(args.cards)
    tokens = text.replace(",", " ").split()
    declared = [token for token in tokens if "=" in token]  # jokers as parse_meld reads them
    variant: Variant | None = args.variant
    # A variant's own notation: Rummikub's tiles (``k7 b7 *=o7``).
    notation = CARD_NOTATION if variant is None else variant.notation
    try:
        cards = notation.parse_cards(" ".join(token.partition("=")[0] for token in tokens))
    except NotationError:
        named = next((token for token in tokens if _names_variant(token)), None)
        if named is None or variant is not None:
            raise
        rest = " ".join(token for token in tokens if token != named) or "CARDS"
        msg = f"{_quote(named)} is a variant, not a card: rummylib check --variant {named} {rest}"
        raise ConfigurationError(msg) from None
    if not cards:
        msg = "no cards given"
        raise ConfigurationError(msg)
    rules = _check_rules(args)
    if variant is not None and any(card.is_joker for card in cards) and not _has_jokers(variant):
        msg = f"{variant.name} is played without jokers: '*' is no card of its deck"
        raise ConfigurationError(msg)
    if args.arrange:
        if notation is not CARD_NOTATION:
            msg = f"--arrange reads cards, not {notation.noun}s"
            raise ConfigurationError(msg)
        if declared:
            msg = f"--arrange reads a hand: write the declared joker {_quote(declared[0])} as *"
            raise ConfigurationError(msg)
        if args.points is not None:
            points = args.points
        else:
            points = CardPoints() if variant is None else variant.card_points
        can_discard = None if variant is None else variant.may_ever_discard
        best = arrange(cards, rules, points, discard=args.discard, can_discard=can_discard)
        _save_svg(args.svg, svg.arrangement(best))
        printer.say(format_arrangement(best), "green" if best.is_complete else "")
        return EXIT_OK if best.is_complete else EXIT_NO
    for option, given in (("--discard", args.discard), ("--points", args.points is not None)):
        if given:
            msg = f"{option} needs --arrange"
            raise ConfigurationError(msg)
    try:
        meld = _words.checked_meld(text, rules, notation)
    except InvalidMeldError as error:
        _save_svg(args.svg, svg.cards(cards, notation=notation))
        printer.say(str(error), "red")
        return EXIT_NO
    _save_svg(args.svg, svg.meld(meld, notation=notation))
    printer.say(_words.describe_meld(meld, notation), "green")
    return EXIT_OK


def _play_module() -> Any:
    """:mod:`rummylib._play`, which needs rich (the ``cli`` extra)."""
    if not _play.HAVE_RICH:
        msg = "play and replay need rich: pip install 'rummylib[cli]'"
        raise ConfigurationError(msg)
    return _play


#: The players ``rummylib play`` seats unless told: three (so that a Rummy 101 match goes on
#: past its first elimination), or as near as the variant allows (two in gin).
PLAY_PLAYERS = 3


def _play_command(args: argparse.Namespace, printer: _Printer) -> int:
    variant = args.variant
    players = args.players
    if players is None:
        players = min(max(PLAY_PLAYERS, variant.min_players), variant.max_players)
    code: int = _play_module().play(
        variant,
        players=players,
        seed=args.seed,
        bots=args.bots,
        resume=args.resume,
        machine=args.json,
    )
    return code


def _serve_command(args: argparse.Namespace, printer: _Printer) -> int:
    """``rummylib serve``: the web tables (:mod:`rummylib.web`, the ``web`` extra)."""
    code: int = web.serve(args)
    return code


def _replay_command(args: argparse.Namespace, printer: _Printer) -> int:
    code: int = _play_module().replay(args.file, deal=args.deal, step=args.step)
    return code


def _add_play_commands(commands: Any) -> None:
    """The ``play`` and ``replay`` subcommands (their work is in :mod:`rummylib._play`)."""
    play = commands.add_parser(
        "play",
        help="play against bots in the terminal",
        description="Play a match as p1 against bots. Type 'help' for the commands; moves "
        "are record lines without the player (draw stock, discard 7h, meld | 7h 8h 9h). "
        "When standard input is not a terminal, one command is read per line.",
    )
    play.add_argument("--variant", type=_variant, default="rummy101", help="default: %(default)s")
    play.add_argument(
        "--players",
        type=_whole_number(),
        default=None,
        help="how many players, you and the bots (default: 3, or as near as the variant "
        "allows, so that in Rummy 101 an elimination and a rebuy play out before the match "
        "ends)",
    )
    play.add_argument(
        "--seed", type=_whole_number(), help="the same seed deals the same cards (default: random)"
    )
    play.add_argument(
        "--bots",
        type=_bot_names,
        default="greedy",
        help="the bots at the other seats: greedy or random, or one per seat separated by "
        "commas (default: %(default)s)",
    )
    play.add_argument(
        "--resume", metavar="FILE", help="continue the match of a record saved with 'save FILE'"
    )
    play.add_argument(
        "--json",
        action="store_true",
        help="machine mode, for a program that plays: one move a line in, one JSON object a "
        "line out (observation, event, prompt with the legal moves, error); exits 0 when the "
        "match ends",
    )
    play.set_defaults(handler=_play_command)
    replay = commands.add_parser(
        "replay",
        help="check a game record and print its score sheet",
        description="Check a game record (rummylib.records) against the rules and print the "
        "score sheet deal by deal; --deal N lists one deal's actions, --step steps through "
        "the match one action at a time.",
    )
    replay.add_argument("file", metavar="FILE", help="a record, such as one from --save-records")
    replay.add_argument(
        "--deal", type=_whole_number(1), metavar="N", help="list the actions of deal N"
    )
    replay.add_argument(
        "--step", action="store_true", help="show one action at a time (Enter for the next)"
    )
    replay.set_defaults(handler=_replay_command)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, ``rummylib: ...``, with exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"rummylib: {message}\n")


def _version() -> str:
    """The installed version of rummylib."""
    try:
        return importlib.metadata.version("rummylib")
    except importlib.metadata.PackageNotFoundError:  # imported from a work tree, not installed
        return "(not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rummylib", description="The rules of rummy games, exactly and fast.")
    parser.add_argument("--version", action="version", version=f"rummylib {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = ", ".join(sorted(VARIANTS))
    check = commands.add_parser(
        "check",
        help="is this a meld? (or, with --arrange, how do these cards meld best?)",
        description="Say whether the cards form a meld, and what each joker stands for; "
        "with --arrange, split them into melds and deadwood as well as possible.",
    )
    check.add_argument(
        "cards",
        nargs="+",
        help='cards such as "Ah 2h * 4h" (* is a joker; *=3h declares what it stands for)',
    )
    check.add_argument(
        "--variant",
        type=_variant,
        metavar="NAME",
        help="check under this variant's meld rules (with --arrange: its card points, and "
        f"only cards it lets a player discard as --discard); one of {names}",
    )
    check.add_argument(
        "--ace",
        choices=[rule.value for rule in AceRule],
        help="where an ace may stand in a run (default: the variant's, or "
        f"{AceRule.LOW_OR_HIGH.value})",
    )
    check.add_argument(
        "--joker-beside-ace",
        action=argparse.BooleanOptionalAction,
        help="may a joker sit next to an ace in a run or stand for one (default: the "
        "variant's, or yes)",
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
        "joker, ace_low_run; 2-10 count their pips (default: the variant's, or "
        "ace=1,face=10,joker=0)",
    )
    check.add_argument(
        "--discard",
        action="store_true",
        help="with --arrange: set the best card aside first, as a discard (any card, or one "
        "the --variant lets a player discard)",
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
        "--variant",
        type=_variant,
        default="rummy101",
        metavar="NAME",
        help=f"the game: {names} (default: %(default)s)",
    )
    simulate.add_argument(
        "--players",
        type=_whole_number(),
        default=None,
        help="how many players, as many as the variant allows (see rummylib variants; "
        "default: 4, or as near as the variant allows)",
    )
    simulate.add_argument(
        "--matches",
        type=_whole_number(1, MAX_MATCHES),
        default=20,
        help=f"how many matches, at most {MAX_MATCHES:,} (default: %(default)s)",
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
    simulate.add_argument(
        "--save-records",
        metavar="DIR",
        help="also write every match's game record (rummylib.records) to DIR, one file per "
        "match, match-000000.toml first",
    )
    simulate.set_defaults(handler=_simulate)
    _add_play_commands(commands)
    serve = commands.add_parser(
        "serve",
        help="serve web tables where people and bots play in a browser",
        description="Serve web tables of any variant where people (a link per seat) and bots "
        "play in a browser; every table writes its record as it goes (the web extra).",
    )
    web.build_parser(serve)
    serve.set_defaults(handler=_serve_command)
    variants = commands.add_parser(
        "variants",
        help="list the variants, or show one variant's settings",
        description="List the variants and their player ranges; with a NAME, show that "
        "variant's settings, their defaults and the rules they come from.",
    )
    variants.add_argument(
        "name",
        nargs="?",
        type=_variant,
        metavar="NAME",
        help=f"a variant: {names}",
    )
    variants.set_defaults(handler=_variants)
    return parser


def _unrecognized(args: argparse.Namespace, argv: Sequence[str], extra: Sequence[str]) -> str:
    """The refusal of arguments no option takes, pointing at ``--variant`` for a variant's name.

    ``rummylib simulate carousel`` (as ``rummylib variants carousel`` is written) means
    ``--variant carousel``: the refusal writes the whole command so; anything else points at
    the command's ``--help``.
    """
    words = " ".join(extra)
    named = next((token for token in extra if _names_variant(token)), None)
    if named is not None and hasattr(args, "variant") and args.command:
        at = list(argv).index(named)
        fixed = [*argv[:at], "--variant", named, *argv[at + 1 :]]
        fix = shlex.join(["rummylib", *fixed])
        return f"unrecognized arguments: {words}; {_quote(named)} is a variant: {fix}"
    where = f"rummylib {args.command} --help" if args.command else "rummylib --help"
    return f"unrecognized arguments: {words} ({where} lists the options)"


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
        given = list(sys.argv[1:] if argv is None else argv)
        args, extra = _parser().parse_known_args(given)
    except SystemExit as stop:  # argparse exits on bad usage (2) and after --help (0)
        return stop.code if isinstance(stop.code, int) else EXIT_BAD_INPUT
    if extra:
        print(f"rummylib: {_unrecognized(args, given, extra)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.command is None:  # a bare ``rummylib``: the usage and the list of commands
        print(_parser().format_help(), file=sys.stderr)
        print("rummylib: a command is needed (rummylib COMMAND --help)", file=sys.stderr)
        return EXIT_BAD_INPUT
    printer = _Printer()
    try:
        code: int = args.handler(args, printer)
    except RummyError as error:
        print(f"rummylib: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
