r"""The ``rummylib`` argument parser, its help texts made safe for reStructuredText.

sphinx-argparse (``docs/cli.rst``) reads every help text as reStructuredText, where ``*`` and
a backquote start markup: the help of ``check`` says a joker is written ``*`` or ``*=3h``.
:func:`parser` is :func:`rummylib.cli._parser` with those characters escaped, so the page
shows the help word for word, as ``--help`` prints it.

>>> commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
>>> print(next(a.help for a in commands.choices["check"]._actions if a.dest == "cards"))
cards such as "Ah 2h \* 4h" (\* is a joker; \*=3h declares what it stands for)
"""

from __future__ import annotations

import argparse
import re

from rummylib import cli

__all__ = ["parser"]

_MARKUP = re.compile(r"([*`|\\])")


def _escape(text: str | None) -> str | None:
    # A backslash before the second hyphen keeps "--arrange" from becoming an en dash.
    return None if text is None else _MARKUP.sub(r"\\\1", text).replace("--", "-\\-")


def _escape_parser(parser: argparse.ArgumentParser) -> None:
    parser.description = _escape(parser.description)
    parser.epilog = _escape(parser.epilog)
    for action in parser._actions:
        if action.help is not argparse.SUPPRESS:
            action.help = _escape(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                choice.help = _escape(choice.help)
            for subparser in dict.fromkeys(action.choices.values()):
                _escape_parser(subparser)


def parser() -> argparse.ArgumentParser:
    """The command line's parser, for sphinx-argparse, with markup characters escaped."""
    made = cli._parser()
    _escape_parser(made)
    return made
