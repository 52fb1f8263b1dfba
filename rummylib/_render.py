"""A game state as plain text, the way the host sees it: every hand face up.

:func:`render` writes one line for the game and the turn, one per seat (its score and every
card it holds, in the order received), then the stock, the discard pile, the cards turned
face up (the Israeli open card) and the melds on the table, each numbered as
:class:`~rummylib.actions.LayOff` names them. Seats
are 0-based in the API and written ``p1``, ``p2``… in text, as in every message of rummylib.

It shows every hand, so it is for the host, a log or a test, never for a player: a player's
view is :meth:`GameState.observation() <rummylib.state.GameState.observation>`. The same
view as a picture is :func:`rummylib.svg.host_view`.

>>> from rummylib import new_game
>>> from rummylib._render import render
>>> print(render(new_game("rummy101", players=2, seed=5)))  # doctest: +ELLIPSIS
rummy101, deal 1: draw, p1 to play
p1 (to act), score 0, 13 cards: ...
p2, score 0, 13 cards: ...
stock: 81 cards
open card: ...
table: no melds
facts: multiplier: 2; pot: 2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummylib.cards import Card

if TYPE_CHECKING:
    from rummylib.state import GameState

__all__ = ["render"]


def _seat(player: int) -> str:
    """A seat as text: seat 0 is ``p1``."""
    return f"p{player + 1}"


def _seats(players: Sequence[int]) -> str:
    return ", ".join(_seat(player) for player in players)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _status(state: GameState) -> str:
    """``rummy101, deal 1: draw, p1 to play``: the game, the deal, the phase and whose move."""
    text = f"{state.variant.name}, deal {state.deal_number}: {state.phase.value.replace('_', ' ')}"
    if state.current_player is not None:
        text += f", {_seat(state.current_player)} to play"
    elif state.to_act:  # several players answer at once (a vote, a window) or nobody's turn
        text += f", {_seats(state.to_act)} to act"
    result = state.result
    if result is not None and result.winners:
        text += f"; {'winner' if len(result.winners) == 1 else 'winners'} {_seats(result.winners)}"
    return text


def _player(state: GameState, seat: int) -> str:
    """One seat: whether it must act or is out, its score and its cards."""
    marks = []
    if seat not in state.players_in:
        marks.append("out")
    elif seat in state.to_act:
        marks.append("to act")
    name = _seat(seat) + (f" ({', '.join(marks)})" if marks else "")
    hand: Sequence[Card] = state.hands[seat]
    notation = state.variant.notation
    noun = notation.noun
    cards = f"{_count(len(hand), noun)}: {notation.cards(hand)}" if hand else f"no {noun}s"
    return f"{name}, score {state.scores[seat]}, {cards}"


def render(state: GameState) -> str:
    """The whole state as text for the host: the turn, every hand, the piles and the table.

    A line is left out where it would say nothing: an empty discard pile (Carousel has none),
    and the cards turned face up (under the variant's
    :attr:`~rummylib.engine.Variant.aside_label`) or set aside face down where there are
    none. The last line holds the variant's public facts
    (:meth:`~rummylib.engine.Variant.public_info`: the Israeli multiplier and pot, …), where
    it has any.

    Args:
        state: the state to show.

    Returns:
        Several lines, without a final newline.
    """
    notation = state.variant.notation
    noun = notation.noun
    lines = [_status(state)]
    lines.extend(_player(state, seat) for seat in range(len(state.hands)))
    lines.append(f"{notation.stock}: {_count(len(state.stock), noun)}")
    if state.discard_pile:
        pile = state.discard_pile
        top = notation.card(pile[-1])
        lines.append(f"discard pile: {_count(len(pile), noun)}, top {top}")
    if state.aside:
        lines.append(f"{state.variant.aside_label}: {notation.cards(state.aside)}")
    if state.hidden:
        lines.append(f"set aside face down: {_count(len(state.hidden), noun)}")
    if state.table:
        lines.append("table:")
        lines.extend(f"  {index}: {notation.meld(meld)}" for index, meld in enumerate(state.table))
    else:
        lines.append(f"table: no {notation.meld_noun}s")
    facts = state.variant.public_info(state, state.to_act[0] if state.to_act else 0).lines()
    if facts:
        lines.append("facts: " + "; ".join(facts))
    return "\n".join(lines)
