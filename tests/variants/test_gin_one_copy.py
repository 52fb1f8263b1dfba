"""Gin's take and discard make the state in one copy: held to the engine's way, and the rules'.

:meth:`GinRummy.apply_discard` hands the discard's fields to :meth:`GinRummy.end_turn` instead
of copying the state twice, and :meth:`GinRummy.apply_take_discard` takes the upcard and
records it in one copy. Each is compared with the straightforward computation: the engine's
own effect followed by gin's bookkeeping, and the turn's end written out as the rules say it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
from hypothesis import given, settings

from rummylib import GameState, Phase, new_game
from rummylib.actions import Action, Discard, TakeDiscard
from rummylib.engine import Variant
from rummylib.strategies import games
from rummylib.variants.gin import MAX_UPCARD_TAKES, WALL, GinDetail, GinPhase, GinRummy

State = GameState[GinDetail]
ONE_DEAL = GinRummy(target_score=None)
MATCH = GinRummy()


def two_copy_discard(variant: GinRummy, state: State, action: Discard) -> State:
    """The engine's discard: the card goes to the pile in one copy, then end_turn copies that."""
    after: State = Variant.apply_discard(variant, state, action)
    return after


def rules_turn_end(variant: GinRummy, state: State, player: int) -> State:
    """The end of a turn after a discard (``state`` has it), each step as the rules say it."""
    if state.phase is GinPhase.KNOCK_DISCARD:
        return state.replace(phase=GinPhase.KNOCKER_MELDS)
    detail = state.detail
    threw_back = state.discard_pile[-1] == detail.taken
    if threw_back and detail.threw_back:
        return variant._end(state, "both players threw back the upcard they took: a draw", "void")
    detail = attrs.evolve(detail, taken=None, threw_back=threw_back)
    if len(state.stock) == WALL:
        other = 1 - player
        return state.replace(
            phase=GinPhase.WALL, current_player=other, to_act=(other,), detail=detail
        )
    return variant.next_turn(state, player, detail=detail)


def rules_discard(variant: GinRummy, state: State, action: Discard) -> State:
    """The card leaves the hand for the pile, then the turn ends as the rules say."""
    hands = list(state.hands)
    hand = list(hands[action.player])
    hand.remove(action.card)
    hands[action.player] = tuple(hand)
    discarded = state.replace(hands=tuple(hands), discard_pile=(*state.discard_pile, action.card))
    return rules_turn_end(variant, discarded, action.player)


def two_copy_take(variant: GinRummy, state: State, action: TakeDiscard) -> State:
    """The engine's take of the upcard, then gin's count of it in a second copy."""
    takes = state.detail.upcard_takes + (state.phase is Phase.DRAW)
    if takes == MAX_UPCARD_TAKES:
        return variant._end(state, f"the upcard was taken {MAX_UPCARD_TAKES} times: a draw", "void")
    detail = attrs.evolve(state.detail, upcard_takes=takes, taken=state.discard_pile[-1])
    taken: State = Variant.apply_take_discard(variant, state, action)
    return taken.replace(detail=detail)


def check_one_copy_effects(state: State) -> None:
    variant = state.variant
    assert isinstance(variant, GinRummy)
    for action in state.legal_actions():
        if isinstance(action, Discard):
            one_copy = variant.apply_discard(state, action)
            assert one_copy == two_copy_discard(variant, state, action), action
            assert one_copy == rules_discard(variant, state, action), action
        elif isinstance(action, TakeDiscard):
            assert variant.apply_take_discard(state, action) == two_copy_take(
                variant, state, action
            )


def upcard_loving_play(variant: GinRummy, seed: int, steps: int) -> Iterator[State]:
    """Random play that mostly takes the upcard and throws it straight back.

    Plain random play seldom ends a deal on two thrown-back upcards; this play does.
    """
    rng = random.Random(seed)
    state: State = new_game(variant, players=2, seed=seed)
    for _ in range(steps):
        if state.is_over:
            return
        yield state
        listed = state.legal_actions()
        takes: list[Action] = [a for a in listed if isinstance(a, TakeDiscard)]
        back: list[Action] = [
            a for a in listed if isinstance(a, Discard) and a.card == state.detail.taken
        ]
        preferred = takes or back
        action: Action = (
            rng.choice(preferred) if preferred and rng.random() < 0.6 else rng.choice(listed)
        )
        state = state.apply(action)


def test_one_copy_effects_equal_the_two_copy_ones_along_upcard_loving_play() -> None:
    guard_ended_a_deal = False
    for seed in range(12):
        for state in upcard_loving_play(MATCH if seed % 2 else ONE_DEAL, seed, 400):
            check_one_copy_effects(state)
            ends = [result.ended_by for result in state.deal_results]
            guard_ended_a_deal |= any(end.startswith("both players threw back") for end in ends)
    assert guard_ended_a_deal


@settings(max_examples=40, deadline=None)
@given(games(ONE_DEAL, phase=[Phase.PLAY, Phase.DRAW, GinPhase.FIRST_UPCARD, GinPhase.WALL]))
def test_one_copy_effects_equal_the_two_copy_ones_in_turn_phases(state: State) -> None:
    check_one_copy_effects(state)


@settings(max_examples=15, deadline=None)
@given(games(ONE_DEAL, phase=GinPhase.KNOCK_DISCARD))
def test_the_knockers_discard_in_one_copy_equals_the_two_copy_one(state: State) -> None:
    assert any(isinstance(action, Discard) for action in state.legal_actions())
    check_one_copy_effects(state)


def test_end_turn_called_as_the_engine_calls_it_still_ends_the_turn() -> None:
    # A state that already has the discard, and no discard fields: the engine's own call.
    state: State = new_game(ONE_DEAL, players=2, seed=7)
    state = state.apply(TakeDiscard(player=0))
    card = state.hands[0][0]
    discarded = state.replace(
        hands=(state.hands[0][1:], state.hands[1]), discard_pile=(*state.discard_pile, card)
    )
    assert ONE_DEAL.end_turn(discarded, 0) == rules_turn_end(ONE_DEAL, discarded, 0)
    assert ONE_DEAL.end_turn(discarded, 0) == ONE_DEAL.apply_discard(
        state, Discard(player=0, card=card)
    )


def test_a_subclass_overriding_end_turn_gets_the_engine_s_discard() -> None:
    seen: list[int] = []

    class Counting(GinRummy):  # a plugin's gin that adds a rule at the end of each turn
        def end_turn(self, state: State, player: int) -> State:  # type: ignore[override]
            seen.append(len(state.discard_pile))
            return super().end_turn(state, player)

    game = Counting(target_score=None)
    state: State = new_game(game, players=2, seed=5)
    state = state.apply(TakeDiscard(player=0))
    card = state.hands[0][0]
    after = state.apply(Discard(player=0, card=card))
    assert seen == [1]  # called once, with the discard already on the pile
    assert after.discard_pile[-1] is card
    assert after.to_act == (1,)
