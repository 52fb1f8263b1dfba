"""Listing and checking agree in every variant, fast paths included.

:meth:`Variant.legal_actions` skips the refusal for candidates marked
:func:`~rummylib.engine.lists_legal`, and :meth:`GameState.apply` skips verifying an action it
listed itself. These tests hold both shortcuts to the refusals they stand in for.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import VARIANTS, new_game
from rummylib.actions import (
    Action,
    DeclineRebuy,
    Discard,
    DrawStock,
    Drop,
    Knock,
    Pass,
    Rebuy,
    Show,
    TakeDiscard,
)
from rummylib.cards import CARDS
from rummylib.engine import Variant, _listing, discard_action, lists_legal
from rummylib.errors import IllegalActionError
from rummylib.state import GameState

NAMES = sorted(VARIANTS)


def _players(name: str, rng: random.Random) -> int:
    cls = VARIANTS[name]
    return rng.randint(cls.min_players, min(cls.max_players, 4))


def _meldless(state: GameState) -> list[Action]:
    found: list[Action] = []
    for player in range(state.player_count):
        found += [DrawStock(player=player), TakeDiscard(player=player)]
        found += [Knock(player=player), Pass(player=player)]
        found += [Discard(player=player, card=card) for card in CARDS]
        found += [Drop(player=player), *(Show(player=player, discard=card) for card in CARDS)]
        found += [Rebuy(player=player), DeclineRebuy(player=player)]
    return found


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 300))
def test_every_listed_action_passes_its_refusal(name: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = new_game(name, players=_players(name, rng), seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        listed = state.legal_actions()
        for action in listed:
            state.variant.verify(state, action)  # the refusal itself, not the shortcut
        listed_set = set(listed)
        for action in _meldless(state):
            assert state.is_legal(action) == (action in listed_set), action
        state = state.apply(rng.choice(listed))


def test_apply_verifies_an_action_it_did_not_list() -> None:
    state = new_game("gin", players=2, seed=3)
    stranger = Discard(player=0, card=state.hands[0][0])  # the upcard is on offer
    assert stranger not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="not a move of the first_upcard phase"):
        state.apply(stranger)


def test_apply_verifies_an_action_before_anything_is_listed() -> None:
    state = new_game("gin", players=2, seed=3)
    stranger = Discard(player=0, card=state.hands[0][0])
    with pytest.raises(IllegalActionError, match="not a move of the first_upcard phase"):
        state.apply(stranger)  # nothing listed yet: the refusal is asked
    assert state.apply(Pass(player=0)) == state.apply(state.legal_actions()[-1])


def test_apply_verifies_an_action_of_a_player_with_nothing_listed() -> None:
    state = new_game("rummy101", players=2, seed=3)
    assert state.legal_actions(1) == ()
    with pytest.raises(IllegalActionError, match="it is p1's turn, not p2's"):
        state.apply(DrawStock(player=1))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 200))
def test_discards_are_one_per_distinct_card_in_card_order(name: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = new_game(name, players=_players(name, rng), seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    for player in range(state.player_count):
        listed = list(Variant.candidates_discard(state.variant, state, player))
        distinct = sorted(set(state.hands[player]), key=lambda card: card.index)
        assert listed == [Discard(player=player, card=card) for card in distinct]
        assert all(
            isinstance(action, Discard) and action is discard_action(player, action.card)
            for action in listed
        )


def test_discards_of_a_seat_past_the_made_ones_are_made_afresh() -> None:
    state = new_game("rummy101", players=2, seed=3)
    hand = state.hands[0]
    seats = state.replace(hands=(*state.hands, *[()] * 7, hand))  # seat 9 holds hand 0
    listed = list(Variant.candidates_discard(state.variant, seats, 9))
    distinct = sorted(set(hand), key=lambda card: card.index)
    assert listed == [Discard(player=9, card=card) for card in distinct]


def test_an_equal_action_made_afresh_is_applied_as_the_listed_one() -> None:
    state = new_game("rummy101", players=2, seed=3)
    listed = state.legal_actions()[0]
    fresh = DrawStock(player=listed.player)
    assert fresh == listed
    assert state.apply(fresh) == state.apply(listed)


class _Loose(Variant):
    """A variant whose refusal is overridden below a marked candidates hook."""

    def refuse_discard(self, state: GameState, action: Discard) -> str | None:
        return "never"


class _Marked(_Loose):
    @lists_legal
    def candidates_discard(self, state: GameState, player: int) -> list[Action]:
        return []


def test_a_refusal_overridden_below_the_mark_filters_again() -> None:
    # Variant's own discards are marked; _Loose overrides the refusal, so they are filtered.
    assert _listing(_Loose, "discard")[1] is not None
    # _Marked marks its own hook below the refusal it answers to: listed as they come.
    assert _listing(_Marked, "discard")[1] is None
    # The draw is marked where its refusal is defined, on Variant.
    assert _listing(Variant, "draw_stock")[1] is None
