"""The text of a golden playthrough: the lines of each step, the digests, the result.

Both the writer (:mod:`tests.golden.playthrough`) and the replay (:mod:`tests.golden.replay`)
build a step's lines here from a :class:`~rummylib.state.GameState`, so a file and its replay
cannot disagree about the format. A step ``N`` (0 is the state as dealt) is these lines, each
starting with ``N``:

* ``N phase NAME | current pX | to act pX pY | clock pX 60+60s new | auto ACTION`` — the
  phase's name (lower case), :attr:`~rummylib.state.GameState.current_player` (``-`` for none),
  :attr:`~rummylib.state.GameState.to_act`, the host's
  :meth:`~rummylib.state.GameState.turn_clock` where one runs (its players, seconds, grace,
  and ``new`` when its number differs from the previous step's: a new clock started) and the
  engine's :meth:`~rummylib.state.GameState.auto_action`;
* ``N legal ACTION``, one line for each action in ``state.legal_actions(p)`` of every player
  ``p`` in ``to_act``, in that order, written in record notation
  (:func:`rummylib._notation.format_action`); ``N legal pX none`` for a player to act who has
  none;
* ``N seen D1 D2 …`` — the digest of every seat's observation, p1 first, acting or not
  (:func:`digest`);
* ``N move ACTION`` — the action taken, in record notation; a stock draw names the card drawn
  (``p1 draw stock 7h``), a host event is ``h timeout p2``. The last step (the match is over)
  has no ``move`` line.

The file ends with the match result (:func:`result_lines`): the winners, the final scores,
the payouts and the match-level score lines, then each deal's ending, points and score lines.

**What the digest holds.** :func:`observation_text` writes one ``name=value`` line for each of
these :class:`~rummylib.views.Observation` fields, sorted by name: ``player``, ``hand`` (in the
order received), ``hand_sizes``, ``stock_size``, ``discard_pile`` (top last), ``open_card``,
``table`` (each meld as its ``str``: cards as laid, every joker with the card it stands for,
``*=9c``), ``scores``, ``players_in``, ``phase`` (the member's name, lower case),
``current_player``, ``to_act``, ``deal_number``, ``dealer``, ``multiplier``, ``pot``,
``legal_actions`` (record notation, in listed order), and one line for each of the variant's
public facts (``observation.public``, read as ``(name, value)`` pairs, which a tuple of pairs
and a typed record both give). Names share one namespace: a public fact with the name and value
of a field above (``open_card``, ``multiplier``, ``pot`` moving into the variant's record) adds
nothing, one with the name of a field but another value is written ``public.NAME``, and a field
the observation no longer has is taken from the public fact of that name. ``variant`` (the
table's rules) is left out: the file's header names the game and its settings. Values are
written by :func:`render`: seats as 0-based numbers, cards as ``7h``, ``None`` as ``-``, enum
members as their values, sequences as ``[a, b]``. The digest is the first 16 hex digits of the
SHA-256 of that text. Nothing is taken from ``repr()`` or pickles, so moving a class to another
module, or turning ``public`` into a record of the same names and values, leaves every digest
as it was; a change of what a player sees changes it.

>>> from rummylib import new_game
>>> state = new_game("rummy101", players=2, seed=5)
>>> print(turn_line(state, None))
phase draw | current p1 | to act p1 | clock p1 60+60s new | auto p1 draw stock
>>> [line for line in observation_text(state.observation(1)).splitlines() if "stock" in line]
['stock_size=81']
>>> len(digest(state.observation(0)))
16
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Mapping, Sequence
from typing import Final

from rummylib import Card, GameState, Observation
from rummylib._notation import format_action
from rummylib.actions import Action, DrawStock, PlayerAction
from rummylib.melds import Meld
from rummylib.scoring import ScoreLine

__all__ = [
    "OBSERVATION_FIELDS",
    "action_text",
    "clock_number",
    "digest",
    "legal_lines",
    "observation_text",
    "render",
    "result_lines",
    "seats",
    "seen_line",
    "turn_line",
]

#: The :class:`~rummylib.views.Observation` fields the digest holds (besides ``public``).
OBSERVATION_FIELDS: Final = (
    "player",
    "hand",
    "hand_sizes",
    "stock_size",
    "discard_pile",
    "open_card",
    "table",
    "scores",
    "players_in",
    "phase",
    "current_player",
    "to_act",
    "deal_number",
    "dealer",
    "multiplier",
    "pot",
    "legal_actions",
)
#: Hex digits of the SHA-256 kept as a digest.
DIGEST_LENGTH: Final = 16


def render(value: object) -> str:  # noqa: PLR0911  (one branch per kind of value)
    """The canonical text of a value in an observation.

    >>> from rummylib import parse_cards
    >>> render(None), render(True), render((0, 2)), render(parse_cards("7h *"))
    ('-', 'true', '[0, 2]', '[7h, *]')
    >>> render(object())
    Traceback (most recent call last):
    ...
    TypeError: no canonical text for a object: teach tests/golden/steps.py:render to write it

    Raises:
        TypeError: a kind of value the digest does not know yet; decide how to write it.
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return render(value.value)
    if isinstance(value, int | str):
        return str(value)
    if isinstance(value, Card | Meld | ScoreLine):
        return str(value)
    if isinstance(value, PlayerAction):
        return format_action(value)
    if isinstance(value, Mapping):
        items = sorted(f"{render(key)}={render(item)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(sorted(render(item) for item in value)) + "}"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(render(item) for item in value) + "]"
    msg = (
        f"no canonical text for a {type(value).__name__}: "
        "teach tests/golden/steps.py:render to write it"
    )
    raise TypeError(msg)


_MISSING: Final = object()


def observation_text(observation: Observation) -> str:
    """The canonical text of an observation, one ``name=value`` line per fact, sorted."""
    facts: dict[str, str] = {}
    for name in OBSERVATION_FIELDS:
        value = getattr(observation, name, _MISSING)
        if value is _MISSING:
            continue  # moved out of the observation: its public fact of that name stands in
        facts[name] = observation.phase.name.lower() if name == "phase" else render(value)
    for name, value in observation.public:
        text = render(value)
        if facts.get(name) == text:
            continue  # the same fact, kept both as a field and as a public fact
        facts[f"public.{name}" if name in facts else name] = text
    return "\n".join(f"{name}={facts[name]}" for name in sorted(facts))


def digest(observation: Observation) -> str:
    """The first 16 hex digits of the SHA-256 of :func:`observation_text`."""
    text = observation_text(observation).encode()
    return hashlib.sha256(text).hexdigest()[:DIGEST_LENGTH]


def seats(players: Sequence[int]) -> str:
    """Seats as text writes them: ``p1 p3``, or ``-`` for none.

    >>> seats((0, 2)), seats(())
    ('p1 p3', '-')
    """
    return " ".join(f"p{player + 1}" for player in players) or "-"


def clock_number(state: GameState) -> int | None:
    """The number of the clock that runs now, or ``None`` where none runs."""
    clock = state.turn_clock()
    return None if clock is None else clock.number


def turn_line(state: GameState, previous_clock: int | None) -> str:
    """The phase, whose turn, who acts, the clock and the engine's move (the step's first line).

    ``previous_clock`` is :func:`clock_number` of the step before (``None`` for none): the
    clock is marked ``new`` when its number changed.
    """
    current = "-" if state.current_player is None else f"p{state.current_player + 1}"
    parts = [
        f"phase {state.phase.name.lower()}",
        f"current {current}",
        f"to act {seats(state.to_act)}",
    ]
    clock = state.turn_clock()
    if clock is not None:
        fresh = " new" if clock.number != previous_clock else ""
        parts.append(f"clock {seats(clock.players)} {clock.seconds}+{clock.grace_seconds}s{fresh}")
    if not state.is_over:
        auto = format_action(state.auto_action(), notation=state.variant.notation)
        parts.append(f"auto {auto}")
    return " | ".join(parts)


def legal_lines(state: GameState) -> list[str]:
    """The listed legal actions of every player to act, in record notation (the variant's)."""
    lines = []
    for player in state.to_act:
        actions = state.legal_actions(player)
        notation = state.variant.notation
        written = [format_action(action, notation=notation) for action in actions]
        lines += written or [f"p{player + 1} none"]
    return lines


def seen_line(state: GameState) -> str:
    """The digest of every seat's observation, p1 first."""
    return " ".join(digest(state.observation(player)) for player in range(state.player_count))


def action_text(state: GameState, action: Action) -> str:
    """``action`` in record notation, with the card a stock draw takes from ``state``."""
    drawn = state.stock[0] if isinstance(action, DrawStock) and state.stock else None
    return format_action(action, drawn=drawn, notation=state.variant.notation)


def result_lines(state: GameState) -> list[str]:
    """How the match ended: standings, then every deal's ending, points and score lines."""
    result = state.result
    if result is None:
        msg = "the match is not over"
        raise ValueError(msg)
    lines = [
        f"result winners {seats(result.winners)}",
        f"result scores {' '.join(map(str, result.scores))}",
        f"result payouts {' '.join(map(str, result.payouts))}",
        *(f"result line {line}" for line in result.lines),
    ]
    for deal in result.deals:
        points = " ".join(map(str, deal.points))
        lines.append(f"deal {deal.deal_number} | {deal.ended_by} | points {points}")
        lines += [f"deal {deal.deal_number} line {line}" for line in deal.lines]
    return lines
