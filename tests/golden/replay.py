"""Read a golden playthrough file and replay it through the rules as they are now.

:func:`replay` builds the match from the file's header, then at every step checks the
step's lines (:mod:`tests.golden.steps`) against the state: the phase and who acts, the
listed legal actions, every seat's observation digest; then applies the file's action
(read with the record parser, :func:`rummylib._notation.parse_line`) and, at the end,
compares the match result. The first difference raises :class:`GoldenMismatchError`, naming the
file, the step, the line and what differed, expected against got.

>>> from tests.golden.playthrough import find_golden
>>> golden = read(find_golden("gin-2p").path)
>>> golden.variant, golden.players, golden.steps[0].number
('gin', 2, 0)
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from rummylib import GameState, IllegalActionError, RummyError, new_game
from rummylib._notation import ActionLine, parse_line
from rummylib.actions import Action, DrawStock
from tests.golden import steps

__all__ = [
    "GoldenFile",
    "GoldenFormatError",
    "GoldenMismatchError",
    "Step",
    "read",
    "replay",
    "state_at",
]

#: The kinds of step line, in their order within a step.
_KINDS: Final = ("phase", "legal", "seen", "move")
#: The most differing lines a listing mismatch shows.
_SHOWN: Final = 12


class GoldenFormatError(ValueError):
    """A golden file that does not follow the format; the message names the line."""


class GoldenMismatchError(AssertionError):
    """The rules now differ from a golden file; the message says where and how."""


@attrs.frozen(kw_only=True)
class Step:
    """One step of a golden file: its lines, each with its line number in the file."""

    number: int
    phase: tuple[int, str]
    legal: tuple[tuple[int, str], ...] = ()
    seen: tuple[int, str] | None = None
    move: tuple[int, str] | None = None


@attrs.frozen(kw_only=True)
class GoldenFile:
    """A golden file as read: the header's match, the steps, the result lines."""

    path: Path
    variant: str
    players: int
    seed: int
    settings: dict[str, Any] = attrs.field(factory=dict)
    steps: tuple[Step, ...] = ()
    result: tuple[tuple[int, str], ...] = ()
    result_line: int = 0

    def new_game(self) -> GameState:
        """The match as the header says it is dealt."""
        return new_game(self.variant, players=self.players, seed=self.seed, **self.settings)


def _settings(text: str, where: str) -> dict[str, Any]:
    if text == "defaults":
        return {}
    try:
        return dict(tomllib.loads(f"settings = {text}")["settings"])
    except (tomllib.TOMLDecodeError, TypeError, ValueError) as error:
        msg = f"{where}: settings must be 'defaults' or a TOML inline table, not {text!r}"
        raise GoldenFormatError(msg) from error


def read(path: Path) -> GoldenFile:  # noqa: PLR0912  (one branch per kind of line)
    """Read a golden file.

    Raises:
        GoldenFormatError: a line does not follow the format.
    """
    header: dict[str, str] = {}
    found: dict[int, dict[str, Any]] = {}
    result: list[tuple[int, str]] = []
    result_line = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.name} line {number}"
        if not line.strip() or line.startswith("#"):
            continue
        head, _, rest = line.partition(" ")
        if head in {"result", "deal"}:
            result_line = result_line or number
            result.append((number, line))
        elif head.isdigit():
            if result:
                msg = f"{where}: a step line after the result"
                raise GoldenFormatError(msg)
            step = found.setdefault(int(head), {"legal": []})
            kind, _, text = rest.partition(" ")
            if kind not in _KINDS:
                msg = f"{where}: a step line is one of {', '.join(_KINDS)}, not {kind!r}"
                raise GoldenFormatError(msg)
            if kind == "legal":
                step["legal"].append((number, text))
            elif kind in step:
                msg = f"{where}: a second {kind!r} line for step {head}"
                raise GoldenFormatError(msg)
            else:
                # The phase line keeps its first word, as steps.turn_line writes it.
                step[kind] = (number, rest if kind == "phase" else text)
        elif line[0].isalpha() and ": " in line:
            name, _, value = line.partition(": ")
            header[name] = value
        else:
            msg = f"{where}: not a header, step or result line: {line[:60]!r}"
            raise GoldenFormatError(msg)
    if sorted(found) != list(range(len(found))):
        msg = f"{path.name}: the steps must be numbered 0, 1, 2, … without gaps"
        raise GoldenFormatError(msg)
    try:
        parsed = [
            Step(number=n, **{k: (tuple(v) if k == "legal" else v) for k, v in found[n].items()})
            for n in sorted(found)
        ]
        return GoldenFile(
            path=path,
            variant=header["variant"],
            players=int(header["players"]),
            seed=int(header["seed"]),
            settings=_settings(header.get("settings", "defaults"), path.name),
            steps=tuple(parsed),
            result=tuple(result),
            result_line=result_line,
        )
    except (KeyError, TypeError, ValueError) as error:
        msg = f"{path.name}: a bad header or a step without its phase line ({error})"
        raise GoldenFormatError(msg) from error


#: The repository's root: a file under it is named by its path from there.
_ROOT: Final = Path(__file__).resolve().parents[2]


def _name(path: Path) -> str:
    """``tests/golden/gin-2p.txt`` for a file of the repository, else the path as given."""
    try:
        return path.resolve().relative_to(_ROOT).as_posix()
    except ValueError:
        return str(path)


def _fail(golden: GoldenFile, step: int | None, line: int, what: str) -> GoldenMismatchError:
    where = _name(golden.path) + ("" if step is None else f", step {step}")
    return GoldenMismatchError(f"{where} (line {line}): {what}")


def _turn_difference(expected: str, got: str) -> str:
    """The first part of the phase line that differs, by name."""
    names = ("phase", "current player", "players to act", "clock", "engine's auto_action")
    wanted, seen = expected.split(" | "), got.split(" | ")
    for index in range(max(len(wanted), len(seen))):
        left = wanted[index] if index < len(wanted) else "(nothing)"
        right = seen[index] if index < len(seen) else "(nothing)"
        if left != right:
            name = names[index] if index < len(names) else "part"
            return (
                f"the {name} differs\n  expected: {left}\n  got:      {right}\n"
                f"  whole line expected: {expected}\n  whole line got:      {got}"
            )
    return f"the phase line differs\n  expected: {expected}\n  got:      {got}"  # pragma: no cover


def _listing_difference(expected: Sequence[str], got: Sequence[str]) -> str:
    missing = [action for action in expected if action not in got]
    extra = [action for action in got if action not in expected]
    parts = ["the listed legal actions differ"]
    if missing:
        parts.append("  in the file, not listed now: " + "; ".join(missing[:_SHOWN]))
    if extra:
        parts.append("  listed now, not in the file: " + "; ".join(extra[:_SHOWN]))
    if not missing and not extra:
        diff = difflib.unified_diff(list(expected), list(got), "file", "now", lineterm="", n=1)
        parts.append("  the same actions in another order (or repeated):")
        parts += [f"    {line}" for line in list(diff)[:_SHOWN]]
    return "\n".join(parts)


def _seen_difference(state: GameState, expected: str, got: str) -> str:
    wanted, seen = expected.split(), got.split()
    if len(wanted) != len(seen):
        return f"expected {len(wanted)} observation digests, got {len(seen)} seats"
    for seat, (left, right) in enumerate(zip(wanted, seen, strict=True)):
        if left != right:
            text = steps.observation_text(state.observation(seat)).replace("\n", "\n    ")
            return (
                f"p{seat + 1}'s observation differs (digest expected {left}, got {right});\n"
                f"  p{seat + 1}'s observation now (see tests/golden/steps.py):\n    {text}"
            )
    return "the observation digests differ"  # pragma: no cover


def _action(golden: GoldenFile, state: GameState, step: int, line: int, text: str) -> Action:
    """The file's action, read as a record line; a stock draw's card is checked."""
    try:
        item = parse_line(
            text,
            rules=state.variant.meld_rules,
            players=state.player_count,
            notation=state.variant.notation,
        )
    except RummyError as error:
        raise _fail(golden, step, line, f"cannot read the action {text!r}: {error}") from None
    if not isinstance(item, ActionLine):
        raise _fail(golden, step, line, f"not an action: {text!r}")
    action = item.action
    if isinstance(action, DrawStock) and item.drawn is not None:
        top = state.stock[0] if state.stock else None
        if top != item.drawn:
            what = f"the stock draw takes {top}, the file says {item.drawn}"
            raise _fail(golden, step, line, what)
    return action


def _check_step(golden: GoldenFile, state: GameState, step: Step, clock: int | None) -> None:
    number = step.number
    turn = steps.turn_line(state, clock)
    if turn != step.phase[1]:
        raise _fail(golden, number, step.phase[0], _turn_difference(step.phase[1], turn))
    listing = steps.legal_lines(state)
    expected = [text for _, text in step.legal]
    if listing != expected:
        line = step.legal[0][0] if step.legal else step.phase[0]
        raise _fail(golden, number, line, _listing_difference(expected, listing))
    if step.seen is None:
        raise _fail(golden, number, step.phase[0], "the step has no 'seen' line")
    seen = steps.seen_line(state)
    if seen != step.seen[1]:
        raise _fail(golden, number, step.seen[0], _seen_difference(state, step.seen[1], seen))


def replay(path: Path) -> GameState:
    """Replay a golden file; return the final state.

    Raises:
        GoldenMismatchError: the rules now differ from the file (the message says where and how).
        GoldenFormatError: the file does not follow the format.
    """
    golden = read(path)
    state = golden.new_game()
    clock: int | None = None
    for step in golden.steps:
        _check_step(golden, state, step, clock)
        clock = steps.clock_number(state)
        if step.move is None:
            if not state.is_over:
                what = f"the file ends here, but the match goes on (to act: {state.to_act})"
                raise _fail(golden, step.number, step.phase[0], what)
            continue
        line, text = step.move
        if state.is_over:
            raise _fail(golden, step.number, line, f"the match is over, the file plays {text!r}")
        action = _action(golden, state, step.number, line, text)
        try:
            state = state.apply(action)
        except IllegalActionError as error:
            what = f"the file's action {text!r} is refused now: {error}"
            raise _fail(golden, step.number, line, what) from None
    if not state.is_over:
        raise _fail(golden, None, golden.result_line, "the match is not over after the last step")
    got = steps.result_lines(state)
    expected = [text for _, text in golden.result]
    if got != expected:
        for index in range(max(len(got), len(expected))):
            left = expected[index] if index < len(expected) else "(nothing)"
            right = got[index] if index < len(got) else "(nothing)"
            if left != right:
                line = golden.result[index][0] if index < len(golden.result) else 0
                what = f"the match result differs\n  expected: {left}\n  got:      {right}"
                raise _fail(golden, None, line, what)
    return state


def state_at(path: Path, number: int) -> GameState:
    """The state at step ``number`` of a golden file, its actions applied without checks.

    Raises:
        GoldenFormatError: the file has no such step.
    """
    golden = read(path)
    state = golden.new_game()
    if not 0 <= number < len(golden.steps):
        msg = f"{path.name} has steps 0 to {len(golden.steps) - 1}, not {number}"
        raise GoldenFormatError(msg)
    for step in golden.steps[:number]:
        assert step.move is not None
        line, text = step.move
        state = state.apply(_action(golden, state, step.number, line, text))
    return state
