"""The Hypothesis strategies of rummylib.strategies produce what they promise."""

from __future__ import annotations

import collections.abc
import dataclasses
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import typing
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

from rummylib import (
    JOKER,
    AceRule,
    Card,
    CardPoints,
    ConfigurationError,
    GameState,
    IllegalActionError,
    Meld,
    MeldKind,
    MeldRules,
    Observation,
    Rank,
    Variant,
    format_cards,
    get_variant,
    hand_points,
    is_meld,
    make_deck,
    new_game,
    parse_card,
    parse_cards,
)
from rummylib import Phase as GamePhase
from rummylib._hypothesis_plugin import REGISTERED_TYPES
from rummylib.actions import (
    ACTION_TYPES,
    Action,
    DeclareRummy,
    Discard,
    DrawStock,
    Knock,
    LayDown,
    LayOff,
    PlayerAction,
    Show,
    TakeDiscard,
    spec_of,
)
from rummylib.bots import GreedyBot, play
from rummylib.strategies import (
    DEFAULT_HAND_SIZE,
    Refusal,
    actions,
    card_points,
    cards,
    for_type,
    games,
    hands,
    illegal_actions,
    legal_actions,
    meld_rules,
    melds,
    observations,
    sorted_deal,
    variants,
)
from rummylib.variants import VARIANTS

# find() without the example database, so earlier runs cannot change what it returns, and
# without the "explain" phase, which replays many variations of the shrunk example.
# derandomize: a find() that searches a large space is not left to luck.
FRESH = settings(
    max_examples=2000, database=None, phases=[Phase.generate, Phase.shrink], derandomize=True
)
# find() that only shows a value exists: no shrinking.
REACH = settings(FRESH, phases=[Phase.generate])


@given(cards())
def test_cards_are_cards_of_the_deck(card: Card) -> None:
    assert isinstance(card, Card)
    assert card in make_deck(jokers=1)


@given(cards(jokers=False))
def test_cards_without_jokers_are_natural(card: Card) -> None:
    assert not card.is_joker
    assert card in make_deck()


def test_cards_reach_every_card() -> None:
    assert find(cards(), lambda card: card.is_joker, settings=FRESH) == JOKER
    assert find(cards(), lambda card: str(card) == "Ks", settings=FRESH) == Card(13, "s")


def test_cards_bad_argument() -> None:
    with pytest.raises(ConfigurationError, match="jokers must be True or False, not 1"):
        cards(jokers=1)  # type: ignore[arg-type]


def assert_dealt_from(hand: tuple[Card, ...], decks: int, jokers: int) -> None:
    assert isinstance(hand, tuple)
    assert all(isinstance(card, Card) for card in hand)
    # A sub-multiset of the deck: no card more often than the deck holds it.
    assert not Counter(hand) - Counter(make_deck(decks, jokers))


@given(hands())
def test_hands_default_size(hand: tuple[Card, ...]) -> None:
    low, high = DEFAULT_HAND_SIZE
    assert (low, high) == (0, 14)
    assert low <= len(hand) <= high
    assert_dealt_from(hand, 1, 0)


@given(hands(size=13, decks=2, jokers=4))
def test_hands_exact_size_from_two_packs(hand: tuple[Card, ...]) -> None:
    assert len(hand) == 13
    assert_dealt_from(hand, 2, 4)


@given(st.data(), st.integers(1, 3), st.integers(0, 6))
def test_hands_size_range_fits_any_deck(data: st.DataObject, decks: int, jokers: int) -> None:
    deck_size = 52 * decks + jokers
    # Small hands, and hands that take (nearly) the whole deck.
    low = data.draw(st.integers(0, 20) | st.integers(deck_size - 5, deck_size), label="low")
    high = data.draw(st.integers(low, min(deck_size, low + 5)), label="high")
    hand = data.draw(hands(size=(low, high), decks=decks, jokers=jokers), label="hand")
    assert low <= len(hand) <= high
    assert_dealt_from(hand, decks, jokers)


@given(hands(size=54, jokers=2))
def test_hands_may_take_the_whole_deck(hand: tuple[Card, ...]) -> None:
    assert Counter(hand) == Counter(make_deck(jokers=2))


def test_hands_reach_both_copies_of_a_card() -> None:
    def twice(hand: tuple[Card, ...]) -> bool:
        return max(Counter(hand).values(), default=0) == 2

    hand = find(hands(size=(0, 30), decks=2), twice, settings=REACH)
    assert twice(hand)
    assert_dealt_from(hand, 2, 0)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"size": 53}, "size 53 does not fit a deck of 52 cards"),
        ({"size": -1}, "size -1 does not fit a deck of 52 cards"),
        ({"size": (5, 3)}, r"size \(5, 3\) does not fit a deck of 52 cards"),
        ({"size": (0, 107), "decks": 2, "jokers": 2}, r"size \(0, 107\) does not fit"),
        ({"size": 3.0}, "size must be a whole number or a"),
        ({"size": (1, 2, 3)}, "size must be a whole number or a"),
        ({"size": True}, "size must be a whole number or a"),
        ({"decks": 0}, "decks must be a whole number of at least 1, not 0"),
        ({"jokers": -1}, "jokers must be a whole number of at least 0, not -1"),
    ],
)
def test_hands_bad_arguments(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        hands(**arguments)  # type: ignore[arg-type]


@given(meld_rules())
def test_meld_rules_are_valid(rules: MeldRules) -> None:
    assert isinstance(rules, MeldRules)
    # Rebuilding the rules from their fields runs every validator again.
    assert MeldRules(**attrs.asdict(rules, recurse=False)) == rules
    assert 2 <= rules.min_size <= rules.max_group_size
    if rules.group_distinct_suits:
        assert rules.max_group_size <= 4
    assert rules.min_naturals >= 1
    assert rules.max_run_size is None or rules.max_run_size >= rules.min_size


def test_meld_rules_shrink_to_the_defaults() -> None:
    assert find(meld_rules(), lambda rules: True, settings=FRESH) == MeldRules()


def no_joker_beside_ace(rules: MeldRules) -> bool:
    return not rules.joker_beside_ace


def large_relaxed_groups(rules: MeldRules) -> bool:
    return not rules.group_distinct_suits and rules.max_group_size > 4


def two_card_melds(rules: MeldRules) -> bool:
    return rules.min_size == 2


def several_naturals(rules: MeldRules) -> bool:
    return rules.min_naturals > 1


def short_runs(rules: MeldRules) -> bool:
    return rules.max_run_size is not None and rules.max_run_size < 13


@pytest.mark.parametrize(
    "condition",
    [
        no_joker_beside_ace,
        large_relaxed_groups,
        two_card_melds,
        several_naturals,
        short_runs,
        *[lambda rules, ace=ace: rules.ace is ace for ace in AceRule],
    ],
)
def test_meld_rules_reach_every_setting(condition: Callable[[MeldRules], bool]) -> None:
    assert condition(find(meld_rules(), condition, settings=REACH))


@given(st.data())
def test_melds_are_valid_for_their_rules(data: st.DataObject) -> None:
    rules = data.draw(meld_rules(), label="rules")
    meld = data.draw(melds(rules), label="meld")
    assert isinstance(meld, Meld)
    assert meld.is_valid(rules)
    naturals = [card for card in meld.cards if not card.is_joker]
    assert len(naturals) >= rules.min_naturals
    if meld.kind is MeldKind.GROUP:
        assert len(meld.cards) <= rules.max_group_size
    else:
        assert len(meld.cards) <= rules.longest_run
    if not rules.joker_beside_ace and meld.kind is MeldKind.RUN:
        for offset, stands in enumerate(meld.stands_for):
            if stands.rank == Rank.ACE:
                assert not meld.cards[offset].is_joker
                neighbours = meld.cards[max(offset - 1, 0) : offset + 2]
                assert JOKER not in neighbours


ISRAELI = MeldRules(joker_beside_ace=False)


def ranks_of(meld: Meld) -> list[Rank | None]:
    return [stands.rank for stands in meld.stands_for]


def run_with_joker_and_ace(meld: Meld) -> bool:
    return meld.kind is MeldKind.RUN and meld.joker_count > 0 and Rank.ACE in ranks_of(meld)


def group_with_two_jokers(meld: Meld) -> bool:
    return meld.kind is MeldKind.GROUP and meld.joker_count == 2


def run_round_the_corner(meld: Meld) -> bool:
    ranks = ranks_of(meld)
    return meld.kind is MeldKind.RUN and len(ranks) < 13 and {Rank.KING, Rank.TWO} <= set(ranks)


def run_of_thirteen(meld: Meld) -> bool:
    return meld.kind is MeldKind.RUN and len(meld.cards) == 13


def group_repeating_a_card(meld: Meld) -> bool:
    naturals = [card for card in meld.cards if not card.is_joker]
    return meld.kind is MeldKind.GROUP and len(set(naturals)) < len(naturals)


@pytest.mark.parametrize(
    ("rules", "condition"),
    [
        (MeldRules(), run_with_joker_and_ace),
        (ISRAELI, run_with_joker_and_ace),
        (MeldRules(), group_with_two_jokers),
        (MeldRules(ace=AceRule.WRAP), run_round_the_corner),
        (MeldRules(), run_of_thirteen),
        (MeldRules(group_distinct_suits=False, max_group_size=8), group_repeating_a_card),
    ],
)
def test_melds_reach_the_interesting_cases(
    rules: MeldRules, condition: Callable[[Meld], bool]
) -> None:
    meld = find(melds(rules), condition, settings=REACH)
    assert condition(meld)
    meld.check(rules)


def test_melds_of_rules_without_melds_is_empty() -> None:
    # min_naturals 5 is above every meld size these rules allow (groups 4, runs 4).
    assert melds(MeldRules(min_naturals=5, max_run_size=4)).is_empty
    # meld_rules() can draw such rules too: min_naturals 4, groups and runs of at most 3.
    assert melds(MeldRules(min_naturals=4, max_group_size=3, max_run_size=3)).is_empty
    assert not melds(MeldRules(min_naturals=4, max_group_size=3, max_run_size=4)).is_empty


def test_melds_bad_argument() -> None:
    with pytest.raises(ConfigurationError, match="rules must be a MeldRules, not None"):
        melds(None)  # type: ignore[arg-type]


@given(melds(MeldRules(ace=AceRule.LOW, max_run_size=5)))
def test_melds_respect_the_run_size_and_ace(meld: Meld) -> None:
    if meld.kind is MeldKind.RUN:
        assert 3 <= len(meld.cards) <= 5
        # Ace low only: an ace is the first card of the reading.
        assert all(
            stands.rank != Rank.ACE or offset == 0 for offset, stands in enumerate(meld.stands_for)
        )


# -- card points -------------------------------------------------------------------------------


@given(card_points())
def test_card_points_are_valid(points: CardPoints) -> None:
    # Rebuilding from the fields runs every validator again.
    fields = attrs.asdict(points, recurse=False, filter=lambda field, value: field.init)
    assert CardPoints(**fields) == points
    assert 0 <= points.ace <= 25
    assert 0 <= points.face <= 25
    assert 0 <= points.joker <= 25
    assert points.ace_low_run is None or 0 <= points.ace_low_run <= 25


def test_card_points_shrink_to_the_defaults() -> None:
    assert find(card_points(), lambda points: True, settings=FRESH) == CardPoints()


@pytest.mark.parametrize(
    "condition",
    [
        lambda points: points.ace == 15 and points.ace_low_run == 1,
        lambda points: points.joker == 25,
        lambda points: points.face == 0,
    ],
)
def test_card_points_reach_every_setting(condition: Callable[[CardPoints], bool]) -> None:
    assert condition(find(card_points(), condition, settings=REACH))


# -- actions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", list(ACTION_TYPES.values()), ids=list(ACTION_TYPES))
def test_actions_of_each_class(cls: type[Action]) -> None:
    action = find(actions(cls), lambda action: True, settings=FRESH)
    assert type(action) is cls
    assert action.player == 0


@settings(max_examples=50)
@given(actions(players=3))
def test_actions_are_well_formed(action: Action) -> None:
    assert isinstance(action, PlayerAction)
    assert 0 <= action.player < 3
    # Every field passed the action's own validators: rebuilding it gives the same action.
    assert attrs.evolve(action) == action


def test_actions_shrink_to_the_first_draw() -> None:
    assert find(actions(), lambda action: True, settings=FRESH) == DrawStock(player=0)


def test_actions_reach_melds_and_jokers() -> None:
    def declaration_with_two_melds(action: Action) -> bool:
        return isinstance(action, DeclareRummy) and len(action.melds) == 2

    found = find(actions(DeclareRummy), declaration_with_two_melds, settings=REACH)
    assert all(meld.is_valid(MeldRules()) for meld in found.melds)
    lay_off = find(actions(LayOff), lambda a: a.stands_for is not None, settings=REACH)
    assert not lay_off.stands_for.is_joker


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"action_type": str}, "action_type must be an action class, not <class 'str'>"),
        ({"players": 0}, "players must be a whole number of at least 1, not 0"),
        ({"players": True}, "players must be a whole number of at least 1, not True"),
    ],
)
def test_actions_bad_arguments(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        actions(**arguments)  # type: ignore[arg-type]


# -- the sorted deal ---------------------------------------------------------------------------

CLUBS = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"
DIAMONDS = "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd"


def test_sorted_deal_deals_each_player_a_block_of_the_deck() -> None:
    state = new_game("rummy101", players=2, seed=0, deck=sorted_deal("rummy101", 2))
    assert state.hands == (parse_cards(CLUBS), parse_cards(DIAMONDS))
    assert state.open_card == parse_card("Ah")
    assert state.stock[:3] == parse_cards("2h 3h 4h")
    carousel = new_game("carousel", players=3, seed=0, deck=sorted_deal("carousel", 3))
    assert [format_cards(hand) for hand in carousel.hands] == [
        "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc",
        "Jc Qc Kc Ad 2d 3d 4d 5d 6d 7d",
        "8d 9d Td Jd Qd Kd Ah 2h 3h 4h",
    ]
    assert carousel.stock[0] == parse_card("5h")


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_sorted_deal_is_the_whole_deck_of_every_variant(name: str) -> None:
    variant = get_variant(name)
    for players in (variant.min_players, variant.max_players):
        deck = sorted_deal(name, players)
        assert Counter(deck) == Counter(variant.deck_for(players))
        state = new_game(variant, players=players, seed=0, deck=deck)
        assert state.hands[0][:3] == parse_cards("Ac 2c 3c")


def test_sorted_deal_bad_players() -> None:
    with pytest.raises(ConfigurationError, match="rummy101 is for 2 to 6 players, not 7"):
        sorted_deal("rummy101", 7)


# -- games steered to a wanted state -----------------------------------------------------------

# Steering plays dozens of greedy moves per example: a few examples each.
STEERED = settings(max_examples=6, deadline=None)


@STEERED
@given(games("rummy101", phase=GamePhase.SHOW_MELDS))
def test_games_reach_the_israeli_window_after_a_declaration(state: GameState) -> None:
    assert state.phase is GamePhase.SHOW_MELDS
    assert any(isinstance(action, DeclareRummy) for action in state.history)
    assert state.current_player is None
    assert state.to_act


@settings(STEERED, max_examples=3)  # Carousel's greedy moves are the slowest
@given(games("carousel", players=2, phase=GamePhase.KNOCK_CHOICE))
def test_games_reach_the_carousel_knock_choice(state: GameState) -> None:
    assert state.phase is GamePhase.KNOCK_CHOICE
    player = state.current_player
    assert player is not None
    # Rule 2.11: a knock needs at most knock_limit points in hand (5 by default).
    assert hand_points(state.hands[player], state.variant.card_points) <= 5
    assert Knock(player=player) in state.legal_actions()


@STEERED
@given(games("turkish500", where=lambda state: state.table))
def test_games_reach_a_turkish_table_with_melds(state: GameState) -> None:
    assert state.table
    for meld in state.table:
        assert meld.is_valid(state.variant.meld_rules)


@STEERED
@given(games("rummy71", players=3, phase=[GamePhase.FRISH_VOTE, GamePhase.SHOW_MELDS]))
def test_games_reach_any_of_several_phases(state: GameState) -> None:
    assert state.phase in {GamePhase.FRISH_VOTE, GamePhase.SHOW_MELDS}
    assert state.player_count == 3


def test_games_shrink_to_a_declaration_on_the_first_turn() -> None:
    wanted = games("rummy101", players=2, phase=GamePhase.SHOW_MELDS)
    state = find(wanted, lambda state: True, settings=FRESH)
    assert state.hands[1] == parse_cards(DIAMONDS)  # the sorted deal
    first, declaration = state.history
    assert first == DrawStock(player=0)
    assert isinstance(declaration, DeclareRummy)
    assert declaration.player == 0
    assert declaration.discard == parse_card("2h")  # the top of the stock
    shown = Counter(card for meld in declaration.melds for card in meld.cards)
    assert shown == Counter(parse_cards(CLUBS))
    assert state.to_act == (1,)


def test_games_shrink_to_a_lay_down_on_the_first_turn() -> None:
    state = find(games("turkish500", where=lambda s: s.table), lambda s: True, settings=FRESH)
    first, lay_down = state.history
    assert first == DrawStock(player=0)
    assert isinstance(lay_down, LayDown)
    assert lay_down.player == 0
    assert not Counter(lay_down.melds[0].cards) - Counter(parse_cards(CLUBS))
    assert state.player_count == 2


def test_games_play_on_within_the_wanted_states() -> None:
    wanted = games("turkish500", players=2, where=lambda state: state.table)
    state = find(wanted, lambda state: len(state.table) >= 3, settings=REACH)
    assert len(state.table) >= 3


def test_games_reject_a_state_out_of_reach() -> None:
    # No moves allowed, and the deal is not in the play phase: every example is rejected.
    unreachable = games("rummy101", players=2, phase=GamePhase.PLAY, max_actions=0)
    with pytest.raises((NoSuchExample, Unsatisfiable)):
        find(unreachable, lambda state: True, settings=settings(FRESH, max_examples=5))
    # Without moves, a wanted state must be the deal itself.
    in_the_deal = games("rummy101", players=2, phase=GamePhase.DRAW, max_actions=0)
    dealt = find(in_the_deal, lambda state: True, settings=FRESH)
    assert dealt.history == ()


def test_games_without_a_wanted_state_keep_to_max_actions() -> None:
    state = find(games("carousel", max_actions=4), lambda s: len(s.history) == 4, settings=REACH)
    assert len(state.history) == 4
    assert find(games(), lambda state: True, settings=FRESH).history == ()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"phase": "draw"}, "phase must be a Phase or a collection of them, not 'draw'"),
        ({"phase": []}, "phase must be a Phase or a collection of them, not []"),
        ({"phase": [GamePhase.DRAW, 1]}, "phase must be a Phase or a collection of them"),
        ({"where": 3}, "where must be a predicate on states, not 3"),
        ({"max_actions": -1}, "max_actions must be a whole number of at least 0, not -1"),
        ({"max_actions_after": True}, "max_actions_after must be a whole number of at least 0"),
        ({"variant": "rummy101", "players": 9}, "rummy101 is for 2 to 6 players, not 9"),
    ],
)
def test_games_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        games(**arguments)


# -- observations ------------------------------------------------------------------------------


@STEERED
@given(observations("rummy101", players=3, phase=GamePhase.SHOW_MELDS))
def test_observations_of_a_wanted_state(observation: Observation) -> None:
    assert isinstance(observation, Observation)
    assert observation.phase is GamePhase.SHOW_MELDS
    assert 0 <= observation.player < 3
    assert len(observation.hand) == observation.hand_sizes[observation.player]


def test_observations_reach_every_seat_and_shrink_to_the_first() -> None:
    assert find(observations("carousel"), lambda seen: True, settings=FRESH).player == 0
    seen = find(observations("carousel", players=4), lambda seen: seen.player == 3, settings=REACH)
    assert seen.player == 3
    assert len(seen.hand_sizes) == 4


# -- legal and illegal actions -----------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(games(max_actions=40), st.data())
def test_legal_actions_are_legal(state: GameState, data: st.DataObject) -> None:
    if state.is_over:
        assert legal_actions(state).is_empty
        return
    action = data.draw(legal_actions(state), label="action")
    state.verify(action)
    player = state.to_act[-1]
    mine = data.draw(legal_actions(state, player, reorder_melds=False), label="mine")
    assert mine.player == player
    assert mine in state.legal_actions(player)


def after_sorted_draw() -> GameState:
    """Rummy 101, the sorted deal: player 1 has drawn and may declare thirteen clubs."""
    state = new_game("rummy101", players=2, seed=0, deck=sorted_deal("rummy101", 2))
    return state.apply(DrawStock(player=0))


def test_legal_actions_give_melds_in_other_orders() -> None:
    state = after_sorted_draw()

    def reordered(action: Action) -> bool:
        return isinstance(action, DeclareRummy) and action not in state.legal_actions()

    declaration = find(legal_actions(state), reordered, settings=REACH)
    state.verify(declaration)
    assert isinstance(declaration, DeclareRummy)
    # The same melds as a listed declaration, in another order (not listed itself, above).
    listed = [action for action in state.legal_actions() if isinstance(action, DeclareRummy)]
    assert any(Counter(action.melds) == Counter(declaration.melds) for action in listed)


def test_legal_actions_of_someone_who_may_not_act_are_empty() -> None:
    state = new_game("rummy101", players=2, seed=5)
    assert legal_actions(state, 1).is_empty
    assert find(legal_actions(state), lambda action: True, settings=FRESH) == DrawStock(player=0)


def assert_refused_as_built(state: GameState, action: Action, kind: Refusal) -> None:
    """``action`` is refused, and it breaks the rule ``kind`` says."""
    with pytest.raises(IllegalActionError):
        state.verify(action)
    player = action.player
    if kind is Refusal.MATCH_OVER:
        assert state.is_over
        return
    assert not state.is_over
    if kind is Refusal.NO_SUCH_PLAYER:
        assert player >= state.player_count
        return
    assert player < state.player_count
    if kind is Refusal.NOT_YOUR_TURN:
        assert player not in state.to_act
        return
    assert player in state.to_act
    hand = state.hands[player]
    if kind is Refusal.WRONG_PHASE:
        assert type(action) not in {type(listed) for listed in state.legal_actions(player)}
    elif kind is Refusal.CARD_NOT_HELD:
        assert isinstance(action, Discard | LayOff | DeclareRummy | Show)
        card = action.discard if isinstance(action, DeclareRummy | Show) else action.card
        assert card not in hand
    elif kind is Refusal.NO_SUCH_MELD:
        assert isinstance(action, LayOff)
        assert not 0 <= action.meld_index < len(state.table)
    elif kind is Refusal.INVALID_MELD:
        field = spec_of(type(action)).melds
        assert field is not None
        melds = getattr(action, field)
        assert any(not is_meld(meld.cards, state.meld_rules) for meld in melds), action
    else:
        assert kind is Refusal.BAD_COUNT
        assert isinstance(action, TakeDiscard)
        assert not 1 <= action.count <= len(state.discard_pile)


@settings(max_examples=20, deadline=None)
@given(games(max_actions=40), st.data())
def test_illegal_actions_are_refused_for_the_reason_given(
    state: GameState, data: st.DataObject
) -> None:
    action, kind = data.draw(illegal_actions(state), label="illegal")
    assert_refused_as_built(state, action, kind)


def finished_match() -> GameState:
    final = play(new_game("turkish300", players=2, seed=1), [GreedyBot()] * 2)
    assert final.is_over
    return final


@pytest.mark.parametrize(
    ("make_state", "kind"),
    [
        (lambda: new_game("rummy101", players=2, seed=5), Refusal.NOT_YOUR_TURN),
        (lambda: new_game("rummy101", players=2, seed=5), Refusal.WRONG_PHASE),
        (lambda: new_game("turkish500", players=2, seed=5), Refusal.BAD_COUNT),
        (lambda: new_game("carousel", players=2, seed=5), Refusal.NO_SUCH_MELD),
        (lambda: new_game("carousel", players=3, seed=5), Refusal.NO_SUCH_PLAYER),
        (after_sorted_draw, Refusal.CARD_NOT_HELD),
        (finished_match, Refusal.MATCH_OVER),
        (after_sorted_draw, Refusal.INVALID_MELD),
    ],
)
def test_illegal_actions_reach_every_kind(
    make_state: Callable[[], GameState], kind: Refusal
) -> None:
    state = make_state()
    action, found = find(illegal_actions(state, kind), lambda pair: True, settings=FRESH)
    assert found is kind
    assert_refused_as_built(state, action, kind)


def test_illegal_actions_try_each_kind_about_as_often() -> None:
    # In the play phase a card not held is one of dozens of actions, a bad count one of a
    # few: drawn by kind first (as the machine draws, step after step), each kind comes up.
    state = new_game("rummy101", players=2, seed=5).apply(DrawStock(player=0))
    strategy = illegal_actions(state)
    kinds: Counter[Refusal] = Counter()

    @settings(max_examples=60, database=None, deadline=None, derandomize=True)
    @given(st.data())
    def collect(data: st.DataObject) -> None:
        for _ in range(20):
            kinds[data.draw(strategy)[1]] += 1

    collect()
    assert len(kinds) == 7, kinds
    assert min(kinds.values()) >= sum(kinds.values()) // (2 * len(kinds)), kinds


def test_illegal_actions_shrink_to_a_move_out_of_turn() -> None:
    state = new_game("rummy101", players=2, seed=5)
    found = find(illegal_actions(state), lambda pair: True, settings=FRESH)
    assert found == (DrawStock(player=1), Refusal.NOT_YOUR_TURN)


def test_illegal_actions_of_kinds_the_state_has_not_are_empty() -> None:
    state = new_game("rummy101", players=2, seed=5)
    assert illegal_actions(state, Refusal.MATCH_OVER).is_empty
    assert not illegal_actions(finished_match(), [Refusal.MATCH_OVER]).is_empty
    with pytest.raises(ConfigurationError, match="kinds must be a Refusal or a collection"):
        illegal_actions(state, "match_over")  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None, database=None)
@given(games(players=3))
def test_games_with_a_player_count_and_no_variant_draw_variants_that_seat_it(
    state: GameState,
) -> None:
    assert state.player_count == 3
    assert state.variant.name != "gin"


def test_variants_of_a_player_count_seat_it() -> None:
    drawn: set[str] = set()

    @settings(max_examples=60, database=None, deadline=None)
    @given(variants(players=6))
    def collect(variant: Variant) -> None:
        drawn.add(variant.name)

    collect()
    seat_six = {name for name, cls in VARIANTS.items() if cls.min_players <= 6 <= cls.max_players}
    assert "gin" not in seat_six
    assert drawn == seat_six
    for bad, message in [
        (99, "no registered variant seats 99 players"),
        (True, "players must be a whole number"),
    ]:
        with pytest.raises(ConfigurationError, match=message):
            variants(players=bad)
    with pytest.raises(ConfigurationError, match="no registered variant seats 99 players"):
        games(players=99)


# -- type strategies (the hypothesis entry point) ----------------------------------------------


@pytest.mark.parametrize("thing", REGISTERED_TYPES, ids=lambda thing: thing.__name__)
def test_every_registered_type_resolves(thing: type[Any]) -> None:
    value = find(st.from_type(thing), lambda value: True, settings=FRESH)
    assert isinstance(value, thing)
    assert isinstance(find(for_type(thing), lambda value: True, settings=FRESH), thing)


def test_for_type_covers_the_types_of_the_issue() -> None:
    core = {cls for cls in ACTION_TYPES.values() if cls.__module__ == "rummylib.actions"}
    wanted = {Card, Meld, MeldRules, CardPoints, Variant, GameState, *core}
    assert wanted <= set(REGISTERED_TYPES)
    # Classes registered after Hypothesis loaded the plugin (a variant's, a plugin's) resolve
    # too: the plugin registers each as it is registered.
    for cls in ACTION_TYPES.values():
        assert type(find(st.from_type(cls), lambda action: True, settings=FRESH)) is cls
    with pytest.raises(ConfigurationError, match="rummylib registers no strategy for"):
        for_type(int)


@dataclasses.dataclass
class _UsersOwn:  # a user's class, nothing of rummylib's
    payload: object


@pytest.mark.parametrize(
    "strategy",
    [st.from_type(object), st.from_type(collections.abc.Hashable), st.builds(_UsersOwn)],  # type: ignore[type-abstract]
    ids=["object", "Hashable", "a dataclass with an object field"],
)
def test_the_plugin_leaves_types_that_are_not_rummylib_s_to_hypothesis(
    strategy: st.SearchStrategy[Any],
) -> None:
    # Hypothesis asks every resolver about a base class; ours must answer NotImplemented.
    drawn: list[object] = []

    @settings(max_examples=20, database=None, deadline=None)
    @given(strategy)
    def draw(value: object) -> None:
        drawn.append(value)

    draw()
    assert drawn


@pytest.mark.parametrize("thing", [GameState[Any], Variant[Any]], ids=str)
def test_generic_forms_resolve_as_their_class(thing: Any) -> None:
    value = find(st.from_type(thing), lambda value: True, settings=FRESH)
    assert isinstance(value, typing.get_origin(thing))


def test_the_entry_point_is_declared() -> None:
    hooks = importlib.metadata.entry_points(group="hypothesis")
    assert "rummylib._hypothesis_plugin:setup" in {hook.value for hook in hooks}


@settings(max_examples=10, deadline=None)
@given(card=..., rules=..., action=..., state=...)
def test_given_infers_rummylib_types_from_annotations(
    card: Card, rules: MeldRules, action: Discard, state: GameState
) -> None:
    assert card in make_deck(jokers=1)
    assert rules.min_size >= 2
    assert isinstance(action.card, Card)
    assert state.all_cards() == Counter(state.variant.deck_for(state.player_count))


FRESH_INTERPRETER = """
import json, sys
import rummylib
report = {"hypothesis_after_rummylib": "hypothesis" in sys.modules}
from hypothesis import find, settings, strategies as st
report["strategies_after_hypothesis"] = "rummylib.strategies" in sys.modules
from rummylib import Card
fixed = settings(database=None, max_examples=1000, derandomize=True)  # jokers are 1 card in 53
card = find(st.from_type(Card), lambda card: card.is_joker, settings=fixed)
report["card"] = str(card)
report["strategies_after_use"] = "rummylib.strategies" in sys.modules
print(json.dumps(report))
"""


def test_from_type_works_in_a_fresh_interpreter_without_importing_strategies() -> None:
    environment = dict(os.environ)
    environment.pop("HYPOTHESIS_NO_PLUGINS", None)
    completed = subprocess.run(
        [sys.executable, "-c", FRESH_INTERPRETER],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
        timeout=120,
    )
    report = json.loads(completed.stdout)
    assert report == {
        "hypothesis_after_rummylib": False,  # import rummylib does not import Hypothesis
        "strategies_after_hypothesis": False,  # the plugin registers without importing it
        "card": "*",
        "strategies_after_use": True,  # imported on first use
    }
