"""The ``rummylib`` command line.

``rummylib check CARDS`` says whether the cards form a meld and how its jokers read::

    $ rummylib check "Ah 2h * 4h"
    Ah 2h *=3h 4h is a run; the joker stands for 3h

Exit codes: 0 success, 1 "no" (not a meld), 2 bad input (a one-line error, no traceback).
Colour comes from :mod:`rich` when it is installed (``pip install 'rummylib[cli]'``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rummylib.cards import parse_cards
from rummylib.errors import InvalidMeldError, RummyError
from rummylib.melds import AceRule, Meld, MeldRules

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

    def say(self, text: str, style: str = "") -> None:
        if self._console is None:
            print(text)
        else:
            from rich.markup import escape  # noqa: PLC0415

            self._console.print(f"[{style}]{escape(text)}[/]" if style else escape(text))


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


def _check(args: argparse.Namespace, printer: _Printer) -> int:
    cards = parse_cards(" ".join(args.cards))
    rules = MeldRules(ace=args.ace, joker_beside_ace=args.joker_beside_ace)
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
        help="is this a meld?",
        description="Say whether the cards form a meld, and what each joker stands for.",
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
    check.set_defaults(handler=_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code.

    >>> main(["check", "7h 8h 9h"])
    7h 8h 9h is a run
    0
    >>> main(["check", "7h 8h"])
    7h 8h is not a meld: too few cards (2, at least 3)
    1
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
