"""Cards set aside face up or face down, per-deal meld rules, and the after_deal hook.

A small variant built on the example plugin (seven-card knock rummy) uses each: after the deal
it turns the top of the stock face up beside it (``aside``) and plays the deal under rules of
its own (groups of two), and a player who folds puts their hand face down (``hidden``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

import attrs
import pytest

from rummylib import GameState, IllegalActionError, MeldRules, new_game
from rummylib.actions import ACTION_TYPES, DrawStock
from rummylib.records import dumps, loads
from rummylib.registry import register_variant
from rummylib.testing import assert_cards_conserved, assert_no_leak, hide_from
from rummylib.variants import VARIANTS

KnockSeven: Any = VARIANTS["knock7"]
Rummy500: Any = VARIANTS["rummy500"]
Fold: Any = ACTION_TYPES["fold"]
PAIRS = MeldRules(min_size=2, ace="low")


@attrs.frozen(kw_only=True)
class FaceDownFold(KnockSeven):  # type: ignore[misc]
    """knock7 with a card set aside face up each deal, pairs as melds, folds face down."""

    name: ClassVar[str] = "test_zones"

    def after_deal(self, state: GameState) -> GameState:
        return state.replace(aside=state.stock[:1], stock=state.stock[1:], meld_rules=PAIRS)

    def apply_fold(self, state: GameState, action: Any) -> GameState:
        hands = list(state.hands)
        hidden, hands[action.player] = hands[action.player], ()
        state = state.replace(hands=tuple(hands), hidden=(*state.hidden, *hidden))
        return super().apply_fold(state, action)  # type: ignore[no-any-return]


@pytest.fixture(autouse=True)
def _test_variants(registry_restored: None) -> None:
    """The two variants of this module, registered for each test (records find them by name)."""
    register_variant(FaceDownFold)
    register_variant(PairsRummy500)


def folded(seed: int = 2) -> tuple[GameState, GameState]:
    """A three-seat deal before and after p2's fold on their first turn."""
    state = new_game("test_zones", players=3, seed=seed).apply(DrawStock(player=0))
    state = state.apply(state.legal_actions(0)[0])
    return state, state.apply(Fold(player=1))


def test_after_deal_sets_a_card_aside_and_the_rules_of_the_deal() -> None:
    state = new_game("test_zones", players=3, seed=2)
    plain = new_game("knock7", players=3, seed=2)
    assert state.aside == plain.stock[:1]
    assert state.stock == plain.stock[1:]
    assert state.meld_rules is PAIRS
    assert plain.meld_rules is plain.variant.meld_rules
    assert state.all_cards() == Counter(state.variant.deck_for(3))
    seen = state.observation(1)
    assert seen.aside == state.aside
    assert seen.meld_rules is PAIRS
    assert "set aside face up: " + str(state.aside[0]) in state.render()


@attrs.frozen(kw_only=True)
class PairsRummy500(Rummy500):  # type: ignore[misc]
    """Classic 500 rummy where, deal by deal, two cards of a rank make a meld."""

    name: ClassVar[str] = "test_pairs500"

    def after_deal(self, state: GameState) -> GameState:
        return state.replace(meld_rules=attrs.evolve(state.variant.meld_rules, min_size=2))


def test_the_engine_lays_down_by_the_rules_of_the_deal() -> None:
    from rummylib.actions import LayDown, canonical_action  # noqa: PLC0415
    from rummylib.melds import Meld, MeldKind  # noqa: PLC0415

    for seed in range(40):
        state = new_game("test_pairs500", players=2, seed=seed).apply(DrawStock(player=0))
        ranks = Counter(card.rank for card in state.hands[0])
        pair = [rank for rank, count in ranks.items() if count == 2]
        if pair:
            break
    cards = [card for card in state.hands[0] if card.rank == pair[0]]
    action = LayDown(player=0, melds=[Meld(MeldKind.GROUP, cards, cards)])
    assert state.meld_rules.min_size == 2
    assert state.is_legal(action)
    assert canonical_action(action) in state.legal_actions(0)
    plain = state.replace(meld_rules=None)  # the table's own rules: three cards at least
    assert plain.meld_rules is plain.variant.meld_rules
    assert not plain.is_legal(action)


def test_a_folded_hand_lies_face_down_counted_and_unseen() -> None:
    before, after = folded()
    assert after.hands[1] == ()
    assert Counter(after.hidden) == Counter(before.hands[1])
    assert_cards_conserved(after, before.all_cards())
    for seat in range(3):
        seen = after.observation(seat)
        assert seen.hidden_count == 7
        assert not set(after.hidden) & set(seen.hand) - set(after.hands[seat])
        assert_no_leak(after, seat)
    assert "set aside face down: 7 cards" in after.render()


def test_hide_from_reshuffles_the_face_down_cards_too() -> None:
    _, after = folded()
    twins = [hide_from(after, 0, random.Random(seed)) for seed in range(8)]
    assert all(len(twin.hidden) == 7 for twin in twins)
    assert any(twin.hidden != after.hidden for twin in twins)


def test_json_saves_and_records_keep_the_zones() -> None:
    _, after = folded()
    assert GameState.from_json(after.to_json()) == after
    assert loads(dumps(after)).final_state == after


@pytest.mark.parametrize("key", ["aside", "hidden"])
def test_a_save_whose_zone_was_edited_is_refused(key: str) -> None:
    import json  # noqa: PLC0415

    from rummylib.errors import RummyError  # noqa: PLC0415

    _, after = folded()
    data = json.loads(after.to_json())
    data["snapshot"][key] = "Ks"
    with pytest.raises(RummyError, match=f"the snapshot's {key} does not match its actions"):
        GameState.from_json(json.dumps(data))


def test_a_save_from_before_the_zones_loads() -> None:
    import json  # noqa: PLC0415

    state = new_game("knock7", players=2, seed=1).apply(DrawStock(player=0))
    data = json.loads(state.to_json())
    del data["snapshot"]["aside"], data["snapshot"]["hidden"]
    assert GameState.from_json(json.dumps(data)) == state


def test_rule_6_7_the_engine_lays_off_a_wild_card_as_a_joker_or_as_itself() -> None:
    # The engine's lay-off rules read the deal's rules: with the sevens wild (6.3), a 7d may
    # join 4h 5h 6h standing for the 7h, the 7h as itself, and a natural king names nothing.
    from rummylib import Rank, parse_card, parse_cards  # noqa: PLC0415
    from rummylib.actions import LayDown, LayOff  # noqa: PLC0415
    from rummylib.melds import Meld, MeldKind  # noqa: PLC0415

    state = new_game("test_pairs500", players=2, seed=1)
    wild = attrs.evolve(state.variant.meld_rules, wild_ranks=frozenset({Rank.SEVEN}))
    run = parse_cards("4h 5h 6h")
    hands = (
        (*run, *parse_cards("7d 7h Kc")),
        *state.hands[1:],
    )
    state = state.replace(meld_rules=wild, hands=hands).apply(DrawStock(player=0))
    state = state.apply(LayDown(player=0, melds=[Meld(MeldKind.RUN, run, run)]))
    as_seven_h = LayOff(player=0, card=parse_card("7d"), meld_index=0, stands_for=parse_card("7h"))
    assert as_seven_h in state.legal_actions(0)
    assert state.is_legal(LayOff(player=0, card=parse_card("7h"), meld_index=0))
    king = LayOff(player=0, card=parse_card("Kc"), meld_index=0, stands_for=parse_card("7h"))
    with pytest.raises(IllegalActionError, match="only a joker or a wild card names the card"):
        state.apply(king)
    after = state.apply(as_seven_h)
    assert str(after.table[0]) == "4h 5h 6h 7d=7h"
    assert not after.table[0].is_pure
    assert after.table[0].stands_for[-1] == parse_card("7h")
