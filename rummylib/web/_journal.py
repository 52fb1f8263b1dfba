"""A table's game record, kept as it goes: one step's lines are added, never the whole replay.

:func:`rummylib.records.dumps` replays a match from its start to write its record, which is
right for one save but costs a server a whole replay per move. A :class:`Journal` holds the
record's text in three parts (the header, the ``actions`` lines, the tables after them) and
adds the lines of each new action the way the record writer does for the host's view, so the
file on disk is a whole record after every move. ``tests/test_web.py`` holds its text to
``dumps`` of the same state, step by step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import tomli_w

from rummylib import records
from rummylib._files import write_text
from rummylib._notation import DealerLine, format_action, format_dealer
from rummylib.actions import Action, DrawStock
from rummylib.state import GameState

__all__ = ["Journal"]

_OPEN = "actions = [\n"


def _deal_lines(state: GameState) -> list[str]:
    """The dealer lines that start a deal, every card shown (the host's record)."""
    notation = state.variant.notation
    lines = [format_dealer(DealerLine("deal", number=state.deal_number))]
    lines.extend(
        format_dealer(DealerLine("hand", player=seat, cards=tuple(hand)), notation)
        for seat, hand in enumerate(state.hands)
        if hand
    )
    if state.aside:
        aside = DealerLine(state.variant.aside_word, cards=state.aside)
        lines.append(format_dealer(aside, notation))
    if state.discard_pile:
        lines.append(format_dealer(DealerLine("pile", cards=state.discard_pile), notation))
    lines.append(format_dealer(DealerLine("stock", cards=tuple(state.stock)), notation))
    return lines


def _is_new_deal(before: GameState, after: GameState, action: Action) -> bool:
    """Whether a shuffle dealt new hands (else it only made a new stock)."""
    if after.deal_number != before.deal_number:
        return True
    if len(after.deal_results) != len(before.deal_results):
        return True
    return any(
        after.hands[seat] != before.hands[seat]
        for seat in range(after.player_count)
        if seat != action.player
    )


def _rendered(line: str) -> str:
    if line.startswith("#"):
        return f"    {line}\n"
    return f"    {tomli_w.dumps({'x': line})[4:].rstrip()},\n"


class Journal:
    """The host's record of one table, written to ``path`` after every step.

    Args:
        start: the match as :func:`~rummylib.state.new_game` started it (no history).
        path: the record file; written whole or not at all each time.
        names: the players' names.
        metadata: the record's metadata (``table``, and entries of one's own).
    """

    def __init__(
        self,
        start: GameState,
        path: Path,
        *,
        names: Sequence[str],
        metadata: Mapping[str, object],
    ) -> None:
        if start.history:
            msg = "a journal starts from a match with no history"
            raise ValueError(msg)
        text = records.dumps(start, names=names, metadata=metadata)
        head, _, rest = text.partition(_OPEN)
        body, _, tail = rest.partition("]\n")
        self._head = head + _OPEN
        self._lines: list[str] = body.splitlines(keepends=True)
        self._tail = "]\n" + tail
        self.path = path
        self.state = start

    def add(self, action: Action) -> GameState:
        """Apply ``action`` (legal: :meth:`GameState.apply` checks it) and add its lines."""
        before = self.state
        after = before.apply(action)
        drawn = before.stock[0] if isinstance(action, DrawStock) and before.stock else None
        notation = before.variant.notation
        lines = [format_action(action, drawn=drawn, notation=notation)]
        for result in after.deal_results[len(before.deal_results) :]:
            points = ", ".join(
                f"p{seat + 1} {value:+d}" for seat, value in enumerate(result.points)
            )
            ended = f": {result.ended_by}" if result.ended_by else ""
            lines.append(f"# deal {result.deal_number}{ended}; {points}")
        if after.result is not None and before.result is None:
            winners = ", ".join(f"p{seat + 1}" for seat in after.result.winners)
            scores = ", ".join(map(str, after.result.scores))
            lines.append(f"# match over: won by {winners or 'nobody'}; scores {scores}")
        if after.shuffle_count > before.shuffle_count:
            if _is_new_deal(before, after, action):
                lines.extend(_deal_lines(after))
            else:
                restock = DealerLine("restock", cards=tuple(after.stock))
                lines.append(format_dealer(restock, notation))
        self._lines.extend(map(_rendered, lines))
        self.state = after
        return after

    def text(self) -> str:
        """The whole record as it stands."""
        return self._head + "".join(self._lines) + self._tail

    def write(self) -> None:
        """Write the record to :attr:`path` (whole or not at all)."""
        write_text(self.path, self.text())
