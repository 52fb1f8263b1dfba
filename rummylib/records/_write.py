"""Writing a game record: :func:`dumps` and :func:`dump`."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import IO, Any

import attrs
import tomli_w

from rummylib import _notation
from rummylib._files import write_text
from rummylib._notation import DealerLine
from rummylib.actions import (
    Action,
    DrawStock,
)
from rummylib.cards import Card
from rummylib.engine import Variant
from rummylib.errors import RummyError
from rummylib.records._model import (
    _NONE,
    FORMAT,
    VERSION,
    _check_view_player,
    _is_new_deal,
    _read_metadata,
    _read_names,
)
from rummylib.scoring import DealResult
from rummylib.state import GameState, new_game

# -- writing ------------------------------------------------------------------------------------


def _settings(variant: Variant) -> dict[str, object]:
    """The settings that differ from the variant's defaults, as TOML values."""
    defaults = type(variant)().settings()
    changed: dict[str, object] = {}
    for name, value in variant.settings().items():
        if value == defaults.get(name):
            continue
        if value is None:
            changed[name] = _NONE
        elif isinstance(value, tuple):
            changed[name] = list(value)
        else:
            changed[name] = value
    return changed


def _hide(cards: Sequence[Card], shown: bool) -> tuple[Card | None, ...]:
    return tuple(cards) if shown else (None,) * len(cards)


def _face_up(
    hand: Sequence[Card], seat: int, action: Action, before: GameState, result: DealResult | None
) -> tuple[Card | None, ...]:
    """The hand of ``seat`` as the count after ``action`` shows it, ``None`` for a card unseen.

    A hand the deal's result still holds is shown whole. A hand it does not hold shows only
    the cards that went to the table and those the action names (a declaration's discard):
    the rest were set face down (a dropped hand, an Indian show's finishing card, the hand of
    the last player left in a deal).
    """
    if result is None or result.hands[seat]:
        return tuple(hand)
    seen = Counter(card for meld in result.table for card in meld.cards)
    seen -= Counter(card for meld in before.table for card in meld.cards)
    if seat == action.player:
        down = type(action).face_down
        seen.update(
            value
            for field in attrs.fields(type(action))
            if field.name != down and isinstance(value := getattr(action, field.name), Card)
        )
    shown: list[Card | None] = []
    for card in hand:
        if seen[card]:
            seen[card] -= 1
            shown.append(card)
        else:
            shown.append(None)
    return tuple(shown)


def _deal_lines(state: GameState, view: int | None) -> list[str]:
    notation = state.variant.notation
    lines = [_notation.format_dealer(DealerLine("deal", number=state.deal_number))]
    for seat, hand in enumerate(state.hands):
        if hand:
            cards = _hide(hand, view is None or view == seat)
            hand_line = DealerLine("hand", player=seat, cards=cards)
            lines.append(_notation.format_dealer(hand_line, notation))
    if state.aside:
        word = state.variant.aside_word
        lines.append(_notation.format_dealer(DealerLine(word, cards=state.aside), notation))
    if state.discard_pile:
        pile = DealerLine("pile", cards=state.discard_pile)
        lines.append(_notation.format_dealer(pile, notation))
    stock = _hide(state.stock, view is None)
    lines.append(_notation.format_dealer(DealerLine("stock", cards=stock), notation))
    return lines


def _result_comment(result: DealResult) -> str:
    points = ", ".join(f"p{seat + 1} {points:+d}" for seat, points in enumerate(result.points))
    ended = f": {result.ended_by}" if result.ended_by else ""
    return f"# deal {result.deal_number}{ended}; {points}"


def _action_lines(state: GameState, view: int | None) -> list[str]:
    """The ``actions`` of the record of ``state``: token lines and comment lines (``#``)."""
    current = new_game(state.variant, players=state.player_count, seed=state.seed, deck=state.deck)
    notation = state.variant.notation
    lines = _deal_lines(current, view)
    for action in state.history:
        after = current.apply(action)
        ends = len(after.deal_results) > len(current.deal_results) or (
            after.is_over and not current.is_over
        )
        if view is not None and ends:  # the count: every hand is shown, but cards set face down
            ended = after.deal_results[len(current.deal_results) :]
            for seat, hand in enumerate(current.hands):
                if hand and seat != view:
                    cards = _face_up(hand, seat, action, current, ended[0] if ended else None)
                    if any(card is not None for card in cards):
                        show = DealerLine("show", player=seat, cards=cards)
                        lines.append(_notation.format_dealer(show, notation))
        drawn = None
        if isinstance(action, DrawStock) and (view is None or view == action.player):
            drawn = current.stock[0] if current.stock else None
        face_down = view is not None and view != action.player and action.face_down is not None
        lines.append(
            _notation.format_action(action, drawn=drawn, face_down=face_down, notation=notation)
        )
        lines.extend(
            _result_comment(result) for result in after.deal_results[len(current.deal_results) :]
        )
        if after.result is not None and current.result is None:
            winners = ", ".join(f"p{seat + 1}" for seat in after.result.winners)
            scores = ", ".join(map(str, after.result.scores))
            lines.append(f"# match over: won by {winners or 'nobody'}; scores {scores}")
        if after.shuffle_count > current.shuffle_count:
            if _is_new_deal(current, after, action):
                lines.extend(_deal_lines(after, view))
            else:
                stock = _hide(after.stock, view is None)
                restock = DealerLine("restock", cards=stock)
                lines.append(_notation.format_dealer(restock, notation))
        current = after
    if current != state:
        msg = "cannot write a record of a state that its history does not reach from new_game"
        raise RummyError(msg)
    return lines


def _render_actions(lines: Sequence[str]) -> str:
    rendered = ["actions = ["]
    for line in lines:
        if line.startswith("#"):
            rendered.append(f"    {line}")
        else:
            rendered.append(f"    {tomli_w.dumps({'x': line})[4:].rstrip()},")
    rendered.append("]")
    return "\n".join(rendered) + "\n"


def dumps(
    state: GameState,
    *,
    view: int | None = None,
    names: Sequence[str] | None = None,
    metadata: Mapping[str, object] | None = None,
) -> str:
    """The record of the match that led to ``state``, as TOML text.

    Args:
        state: any state of a match started with :func:`~rummylib.state.new_game`.
        view: write the record as this player saw it: the other hands and the stock as
            ``??``, no seed (the cards players show at the count of a deal are written, as
            they are laid face up then). ``None``: the host's record of every card.
        names: the players' names, ``p1`` first.
        metadata: ``event``, ``site``, ``date``, ``table``, ``time_control`` and entries of
            your own whose names start with ``_``.

    >>> from rummylib import new_game
    >>> text = dumps(new_game("rummy101", players=2, seed=5), view=0)
    >>> print(text[text.index("actions") :], end="")
    actions = [
        "d deal 1",
        "d hand p1 7h 9c 4c 2h 8h 6h Jc Qh 2h Ks 4d 7d 5h",
        "d hand p2 ??x13",
        "d open Qd",
        "d stock ??x81",
    ]

    Raises:
        RummyError: ``state`` was not reached by play from :func:`~rummylib.state.new_game`,
            or a name or a metadata entry is not allowed.
    """
    if view is not None:
        _check_view_player(view, state.player_count)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": state.variant.name,
        "players": state.player_count,
    }
    if names is not None:
        header["names"] = list(_read_names(list(names), state.player_count))
    if view is None:
        header["seed"] = state.seed
        if state.deck is not None:
            header["deck"] = state.variant.notation.cards(state.deck)
    else:
        header["view"] = f"p{view + 1}"
    tables: dict[str, Any] = {}  # TOML tables come after the top-level entries
    for key, value in _read_metadata(dict(metadata or {})).items():
        (tables if isinstance(value, dict) else header)[key] = value
    settings = _settings(state.variant)
    if settings:
        tables["settings"] = settings
    lines = _action_lines(state, view)
    text = tomli_w.dumps(header) + _render_actions(lines)
    if tables:
        text += "\n" + tomli_w.dumps(tables)
    return text


def dump(
    state: GameState,
    file: str | os.PathLike[str] | IO[str],
    *,
    view: int | None = None,
    names: Sequence[str] | None = None,
    metadata: Mapping[str, object] | None = None,
) -> None:
    """Write the record of ``state`` (see :func:`dumps`) to a path or an open text file.

    A path is written whole or not at all: the file it names is replaced only once the whole
    record is written.

    >>> import io
    >>> from rummylib import new_game
    >>> file = io.StringIO()
    >>> dump(new_game("rummy500", players=2, seed=1), file)
    >>> file.getvalue().splitlines()[0]
    'format = "rummylib-record"'
    """
    text = dumps(state, view=view, names=names, metadata=metadata)
    if isinstance(file, str | os.PathLike):
        write_text(file, text)  # whole or not at all: an old record is never half replaced
    else:
        file.write(text)
