"""Reading a game record: :func:`loads` and :func:`load` check every entry, then replay."""

from __future__ import annotations

import datetime
import os
import re
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any, Final

import attrs

from rummylib import _notation
from rummylib._notation import ActionLine, DealerLine, Item
from rummylib.actions import (
    DrawStock,
)
from rummylib.cards import Card
from rummylib.engine import Variant
from rummylib.errors import NotationError, RummyError, shorten
from rummylib.records._model import (
    _KNOWN_KEYS,
    _NONE,
    _SEEDLESS,
    FORMAT,
    MAX_ACTIONS,
    MAX_BYTES,
    METADATA_KEYS,
    VERSION,
    RecordError,
    _Block,
    _read_metadata,
    _read_names,
    _Setup,
    _Step,
)
from rummylib.records._replay import Record, _run
from rummylib.registry import get_variant
from rummylib.state import new_game

# -- reading ------------------------------------------------------------------------------------


def _key_line(lines: Sequence[str], key: str, table: str | None = None) -> int:
    """The line (from 1) where ``key`` is set, else 1: for the messages about the header."""
    pattern = re.compile(rf"""\s*["']?{re.escape(key)}["']?\s*=""")
    dotted = (
        re.compile(rf"""\s*{re.escape(table)}\s*\.\s*{re.escape(key)}\s*=""") if table else None
    )
    in_table = table is None
    for number, text in enumerate(lines, 1):
        stripped = text.strip()
        if stripped.startswith("["):
            in_table = table is not None and stripped.strip("[] ") == table
            continue
        if dotted is not None and dotted.match(text):
            return number
        if in_table and pattern.match(text):
            return number
    return 1


_ARRAY_TOKEN: Final = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'  # a multi-line basic string
    r"|'''.*?'''"  # a multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"'  # a basic string
    r"|'[^'\n]*'"  # a literal string
    r"|#[^\n]*"  # a comment
    r"|\]|\n",  # the end of the array, a new line
    re.DOTALL,
)


def _element_lines(lines: Sequence[str], count: int) -> list[int]:
    """The line of each string of the top-level ``actions`` array, read off the text.

    :mod:`tomllib` gives no positions: this scans the array's strings (basic and literal,
    single- and multi-line) and comments. If the scan does not find ``count`` strings, every
    action is placed on the ``actions`` line.
    """
    start = _key_line(lines, "actions")
    text = "\n".join(lines[start - 1 :])
    found: list[int] = []
    line = start
    for match in _ARRAY_TOKEN.finditer(text, text.find("[") + 1):
        token = match.group()
        if token == "]":
            break
        if token[0] in "\"'":
            found.append(line)
        line += token.count("\n")
    return found if len(found) == count else [start] * count


_BOM: Final = "\ufeff"


def _too_large(size: int) -> NotationError:
    return NotationError(f"line 1: a record has at most {MAX_BYTES} bytes, not {size}")


def _parse_toml(text: object) -> tuple[dict[str, Any], list[str]]:
    """Decode and parse a record's text, refusing it whole before parsing when it is too large.

    One byte-order mark at the start (which some editors write) is skipped.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_BYTES:
            raise _too_large(len(text))
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            msg = f"line 1: a record is UTF-8 text ({error.reason} at byte {error.start})"
            raise NotationError(msg) from None
    elif not isinstance(text, str):
        msg = f"line 1: expected the text of a record, not {type(text).__name__}"
        raise NotationError(msg)
    elif len(text) > MAX_BYTES:  # at least one byte a character: too large without encoding
        raise _too_large(len(text.encode("utf-8", "surrogatepass")))
    elif not text.isascii() and (size := len(text.encode("utf-8", "surrogatepass"))) > MAX_BYTES:
        raise _too_large(size)
    text = text.removeprefix(_BOM)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"line (\d+)", message)
        line = int(match.group(1)) if match else 1
        msg = f"line {line}: not TOML: {shorten(message, limit=200)}"
        raise NotationError(msg) from None
    except ValueError:  # an integer past int()'s digit limit: tomllib says no line
        limit = sys.get_int_max_str_digits()
        long_number = re.compile(rf"[0-9_]{{{limit + 1},}}")
        line = next((n for n, row in enumerate(text.splitlines(), 1) if long_number.search(row)), 1)
        msg = f"line {line}: not TOML: an integer of more than {limit} digits"
        raise NotationError(msg) from None
    except RecursionError:
        msg = "line 1: not TOML: nested too deeply"
        raise NotationError(msg) from None
    return data, text.splitlines()


@attrs.frozen(kw_only=True)
class _Header:
    variant: Variant
    players: int
    names: tuple[str, ...] | None
    seed: int | None
    deck: tuple[Card, ...] | None
    view: int | None
    metadata: dict[str, object]
    actions: list[object]


class _Fail:
    """Errors about the header, each on the line of the entry it is about."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines

    def __call__(self, key: str, message: str, table: str | None = None) -> NotationError:
        return NotationError(f"line {_key_line(self.lines, key, table)}: {message}")


def _read_variant(data: dict[str, Any], fail: _Fail) -> Variant:
    """The variant with the record's settings (each bounded by the variant, R9)."""
    name = data["variant"]
    if not isinstance(name, str):
        raise fail("variant", f"variant must be a variant's name, not {shorten(name)}")
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        raise fail("settings", "settings must be a table of name = value")
    values: dict[str, object] = {}
    for key, value in settings.items():
        if isinstance(value, dict | datetime.date | datetime.time) or (
            isinstance(value, list) and any(isinstance(item, list | dict) for item in value)
        ):
            message = f"bad setting {key}: {shorten(value)} is no setting's value"
            raise fail(key, message, "settings")
        values[key] = None if value == _NONE else value
    try:
        return get_variant(name, **values)
    except RummyError as error:
        bad_key = next((key for key in settings if key in str(error)), None)
        if bad_key is None:
            raise fail("variant", str(error)) from None
        raise fail(bad_key, str(error), "settings") from None


def _read_view(data: dict[str, Any], players: int, fail: _Fail) -> int | None:
    if "view" not in data:
        return None
    text = data["view"]
    match = re.fullmatch(r"p([1-9][0-9]{0,2})", text) if isinstance(text, str) else None
    if match is None or int(match.group(1)) > players:
        raise fail("view", f"view must name a player, p1 to p{players}, not {shorten(text)}")
    if "seed" in data or "deck" in data:
        raise fail("view", "a player's view has no seed and no deck: they would show every card")
    return int(match.group(1)) - 1


def _read_deck(data: dict[str, Any], variant: Variant, players: int, fail: _Fail) -> Any:
    if "deck" not in data:
        return None
    text = data["deck"]
    if not isinstance(text, str) or len(text) > _notation.MAX_LINE:
        raise fail("deck", "deck must be the cards of the first deal's deck, as text")
    try:
        deck = variant.notation.parse_cards(text)
        new_game(variant, players=players, seed=_SEEDLESS, deck=deck)
    except RummyError as error:
        raise fail("deck", str(error)) from None
    return deck


def _header(data: dict[str, Any], lines: Sequence[str]) -> _Header:
    """Check everything above the actions, cheapest first, before a card is dealt."""
    fail = _Fail(lines)
    if data.get("format") != FORMAT:
        msg = f"format must be {FORMAT!r}, not {shorten(data.get('format'))}"
        raise fail("format", msg)
    version = data.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise fail("version", f"version must be {VERSION}, not {shorten(version)}")
    for key in ("variant", "players", "actions"):
        if key not in data:
            raise fail("format", f"a record needs {key!r}")
    metadata_entries = {
        key: value for key, value in data.items() if key not in _KNOWN_KEYS or key in METADATA_KEYS
    }
    try:
        metadata = _read_metadata(metadata_entries)
    except NotationError as error:
        key = next(iter(k for k in metadata_entries if not k.startswith("_")), "format")
        raise fail(key, str(error)) from None
    variant = _read_variant(data, fail)
    try:
        players = variant.check_players(data["players"])
    except RummyError as error:
        raise fail("players", str(error)) from None
    names = None
    if "names" in data:
        try:
            names = _read_names(data["names"], players)
        except NotationError as error:
            raise fail("names", str(error)) from None
    view = _read_view(data, players, fail)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise fail("seed", f"seed must be a whole number, not {shorten(seed)}")
    deck = _read_deck(data, variant, players, fail)
    actions = data["actions"]
    if not isinstance(actions, list):
        raise fail("actions", "actions must be a list of lines such as 'p1 draw stock'")
    if len(actions) > MAX_ACTIONS:
        raise fail("actions", f"a record has at most {MAX_ACTIONS} actions, not {len(actions)}")
    return _Header(
        variant=variant,
        players=players,
        names=names,
        seed=seed,
        deck=deck,
        view=view,
        metadata=metadata,
        actions=actions,
    )


def _parse_items(
    header: _Header, lines: Sequence[str]
) -> tuple[list[tuple[int, Item]], list[RecordError]]:
    numbers = _element_lines(lines, len(header.actions))
    rules = header.variant.meld_rules
    items: list[tuple[int, Item]] = []
    errors: list[RecordError] = []
    for number, entry in zip(numbers, header.actions, strict=True):
        if not isinstance(entry, str):
            errors.append(RecordError(number, f"an action is a line of text, not {shorten(entry)}"))
            continue
        try:
            item = _notation.parse_line(
                entry, rules=rules, players=header.players, notation=header.variant.notation
            )
        except RummyError as error:
            errors.append(RecordError(number, str(error)))
            continue
        if header.view is None and isinstance(item, DealerLine) and None in item.cards:
            message = "a host's record shows every card: '??' belongs in a player's view"
            errors.append(RecordError(number, message))
            continue
        items.append((number, item))
    return items, errors


def _group(  # noqa: PLR0911, PLR0912, PLR0915  (one branch per kind of dealer line)
    items: Sequence[tuple[int, Item]], view: int | None
) -> tuple[_Block | None, list[_Step], RecordError | None]:
    """Gather the dealer lines into blocks around the actions; stop at the first misfit."""
    opening: _Block | None = None
    steps: list[_Step] = []
    shows: list[tuple[int, int, tuple[Card | None, ...]]] = []
    block: dict[str, Any] | None = None  # the block being read
    pending: _Step | None = None  # the last action, whose block may follow

    def close() -> _Block | None:
        nonlocal block
        if block is None:
            return None
        made = _Block(**block)
        block = None
        return made

    def flush() -> None:
        nonlocal pending, opening
        made = close()
        if pending is None:
            opening = made if made is not None else opening
        else:
            steps.append(attrs.evolve(pending, block=made))
            pending = None

    for number, item in items:
        if isinstance(item, ActionLine):
            flush()
            if (
                isinstance(item.action, DrawStock)
                and item.drawn is None
                and view == item.action.player
            ):
                message = f"in p{view + 1}'s view, p{view + 1}'s draws name the card drawn"
                return opening, steps, RecordError(number, message)
            pending = _Step(
                line=number,
                action=item.action,
                drawn=item.drawn,
                face_down=item.face_down,
                shows=tuple(shows),
            )
            shows = []
            continue
        kind = item.kind
        if kind == "show":  # ?? stands for a card set face down (an Indian finishing card)
            if item.player == view:
                message = "a player's own hand is not shown to them at the count"
                return opening, steps, RecordError(number, message)
            flush()
            assert item.player is not None
            shows.append((number, item.player, item.cards))
            continue
        if shows:
            return opening, steps, RecordError(number, "'d show' lines go just before an action")
        if kind in {"deal", "restock"}:
            if (
                block is not None
                or (pending is None and opening is not None)
                or (pending is None and steps)
            ):
                return opening, steps, RecordError(number, f"'d {kind}' must follow an action")
            if kind == "restock" and pending is None:
                return opening, steps, RecordError(number, "'d restock' must follow an action")
            block = {"line": number, "kind": kind, "number": item.number}
            if kind == "restock":
                block["stock"] = (number, item.cards)
            continue
        if block is None or block["kind"] != "deal":
            return opening, steps, RecordError(number, f"'d {kind}' belongs after 'd deal N'")
        if kind == "hand":
            if any(player == item.player for _, player, _ in block.get("hands", ())):
                return (
                    opening,
                    steps,
                    RecordError(number, f"p{(item.player or 0) + 1} is dealt twice"),
                )
            block["hands"] = (*block.get("hands", ()), (number, item.player, item.cards))
        else:
            # 'd open' is the Israeli word for the cards set aside face up (Variant.aside_word).
            field = {"open": "aside", "aside": "aside", "pile": "pile", "stock": "stock"}[kind]
            if field in block:
                return opening, steps, RecordError(number, f"a deal has one 'd {kind}' line")
            block[field] = (number, item.cards)
    if shows:
        return opening, steps, RecordError(shows[0][0], "'d show' lines go just before an action")
    flush()
    return opening, steps, None


def loads(text: str | bytes, *, strict: bool = True) -> Record:
    """Read a record and replay it through the rules.

    With ``strict=False`` a record with bad lines is kept up to its first bad line (the
    longest valid part), and :attr:`Record.errors` lists the problems with their lines: every
    line that cannot be read, and the first that the rules refuse. A record whose header
    (format, variant, settings, players, …) is bad cannot be kept in part: it raises whatever
    ``strict`` says.

    >>> from rummylib.records import dumps, loads
    >>> from rummylib import new_game
    >>> text = dumps(new_game("rummy101", players=2, seed=5)).replace("seed = 5", "seed = 6")
    >>> loads(text)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: line 8: p1's hand is not the one dealt: the rules deal ...
    >>> loads(text, strict=False).errors[0].line
    8

    The text is refused before it is parsed when it is larger than
    :data:`~rummylib.records.MAX_BYTES` (8 MiB of UTF-8); a byte-order mark at its start is
    skipped.

    Raises:
        NotationError: the text is not a record or is too large, or (with ``strict``) a line
            of it is bad; the message starts with the line's number.
    """
    data, lines = _parse_toml(text)
    header = _header(data, lines)
    items, errors = _parse_items(header, lines)
    first_bad = min((error.line for error in errors), default=None)
    if first_bad is not None:
        items = [(number, item) for number, item in items if number < first_bad]
    opening, steps, misfit = _group(items, header.view)
    if misfit is not None:
        errors.append(misfit)
    setup = _Setup(
        variant=header.variant,
        players=header.players,
        seed=header.seed,
        deck=header.deck,
        view=header.view,
    )
    kept, final, deals, stop = _run(setup, opening, steps)
    if stop is not None:
        errors.append(RecordError(stop.line, stop.message))
    errors.sort(key=lambda error: error.line)
    if errors and strict:
        raise NotationError(str(errors[0]))
    return Record(
        variant=header.variant,
        players=header.players,
        names=header.names,
        seed=header.seed,
        deck=header.deck,
        view=header.view,
        metadata=MappingProxyType(header.metadata),
        errors=tuple(errors),
        deals=deals,
        setup=setup,
        opening=opening,
        steps=tuple(kept),
        final=final,
    )


def load(file: str | os.PathLike[str] | IO[str] | IO[bytes], *, strict: bool = True) -> Record:
    """Read a record (see :func:`loads`) from a path or an open file.

    >>> from rummylib.records import dumps, loads
    >>> import io
    >>> from rummylib import new_game
    >>> load(io.StringIO(dumps(new_game("rummy500", players=2, seed=1)))).seed
    1
    >>> load("no/such/record.toml")
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: cannot read no/such/record.toml: No such file or directory

    Raises:
        NotationError: the file cannot be read, is larger than
            :data:`~rummylib.records.MAX_BYTES`, or its text is not a valid record.
    """
    # Never more than the limit and one byte is read: a larger file is refused unread.
    if isinstance(file, str | os.PathLike):
        try:
            with Path(file).open("rb") as opened:
                text: str | bytes = opened.read(MAX_BYTES + 1)
        except OSError as error:
            msg = f"cannot read {os.fspath(file)}: {error.strerror or error}"
            raise NotationError(msg) from None
    else:
        text = file.read(MAX_BYTES + 1)
    if len(text) > MAX_BYTES:
        msg = f"line 1: a record has at most {MAX_BYTES} bytes; this file has more"
        raise NotationError(msg)
    return loads(text, strict=strict)
