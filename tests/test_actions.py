"""Action records: every malformed field is refused the same way, naming the field."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummylib import JOKER, GameState, IllegalActionError, MeldRules, new_game, parse_card
from rummylib.actions import (
    AnswerFrish,
    DeclareRummy,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Rearrange,
    TakeDiscard,
    canonical_action,
)
from rummylib.melds import RunEnd, parse_meld

SEVEN = parse_card("7h")


@pytest.mark.parametrize(
    ("cls", "fields", "field"),
    [
        (TakeDiscard, {"count": "2"}, "count"),
        (TakeDiscard, {"count": True}, "count"),
        (TakeDiscard, {"count": 1.0}, "count"),
        (LayOff, {"card": SEVEN, "meld_index": None}, "meld_index"),
        (LayOff, {"card": SEVEN, "meld_index": True}, "meld_index"),
        (LayOff, {"card": SEVEN, "meld_index": 0, "stands_for": "7h"}, "stands_for"),
        (LayOff, {"card": SEVEN, "meld_index": 0, "end": "middle"}, "end"),
        (AnswerFrish, {"accept": "yes"}, "accept"),
        (AnswerFrish, {"accept": 1}, "accept"),
        (Discard, {"card": "7h"}, "card"),
        (LayDown, {"melds": "7h 8h 9h"}, "melds"),
        (DeclareRummy, {"discard": SEVEN, "melds": [None]}, "meld"),
    ],
)
def test_defect_a_malformed_field_raises_illegal_action_error_naming_it(
    cls: Any, fields: dict[str, object], field: str
) -> None:
    with pytest.raises(IllegalActionError, match=rf"^bad {field} "):
        cls(player=0, **fields)


@pytest.mark.parametrize("player", ["0", True, -1, 1.0, None])
def test_defect_a_malformed_player_raises_illegal_action_error(player: Any) -> None:
    with pytest.raises(IllegalActionError, match=r"^bad player "):
        DrawStock(player=player)


def test_defect_an_accepted_action_always_reloads_from_a_save() -> None:
    # True == 1 used to be accepted as a count, saved as `true`, and then refused on loading:
    # booleans are refused now, and a game whose moves were accepted reloads.
    rng = random.Random(8)
    state = new_game("rummy500", players=2, seed=8)
    taken = 0
    while taken < 3 and not state.is_over:
        legal = state.legal_actions()
        takes = [action for action in legal if isinstance(action, TakeDiscard)]
        action = takes[0] if takes else rng.choice(legal)
        taken += isinstance(action, TakeDiscard)
        state = state.apply(action)
    assert taken == 3
    assert GameState.from_json(state.to_json()) == state


def test_defect_messages_cut_long_input() -> None:
    with pytest.raises(IllegalActionError) as caught:
        TakeDiscard(player=0, count="x" * 10_000_000)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 200


def test_lay_off_end_reads_its_text_value() -> None:
    assert LayOff(player=0, card=SEVEN, meld_index=0, end="low").end is RunEnd.LOW
    assert LayOff(player=0, card=JOKER, meld_index=1, stands_for=SEVEN).end is None


def test_r10_canonical_action_orders_the_cards_of_each_meld() -> None:
    rules = MeldRules()
    written = Rearrange(
        player=1, table=[parse_meld("9h 7h 8h", rules), parse_meld("Kd *=Kc Ks", rules)]
    )
    canonical = canonical_action(written)
    assert [str(meld) for meld in canonical.table] == ["7h 8h 9h", "*=Kc Kd Ks"]  # type: ignore[attr-defined]
    assert canonical_action(canonical) is canonical
    assert canonical_action(DrawStock(player=0)) == DrawStock(player=0)
