"""Turkish 500 rummy and its presets: RULES.md section 3, rule by rule.

Decks are stacked with :func:`stacked`: the hands as written, dealt one card at a time
round-robin from player 0, then the face-up card (``rummy500``), then the stock top first;
the rest of the stock follows in canonical deck order. Expected scores are worked out by hand
in the comments, never with the code under test.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    Card,
    ConfigurationError,
    GameState,
    IllegalActionError,
    Meld,
    MeldKind,
    MeldRules,
    Phase,
    ScoreLine,
    find_melds,
    format_cards,
    get_variant,
    make_deck,
    new_game,
    parse_card,
    parse_cards,
    parse_meld,
)
from rummylib.actions import (
    Action,
    Discard,
    DrawStock,
    Knock,
    LayDown,
    LayOff,
    TakeDiscard,
)
from rummylib.bots import GreedyBot, RandomBot, play
from rummylib.state import stack_deck
from rummylib.variants.base import Variant
from rummylib.variants.turkish import (
    FirstGoAroundGoOut,
    PoolTie,
    Rummy500,
    Scoring,
    Turkish300,
    Turkish500,
    Turkish500Cutthroat,
)

RULES = MeldRules()
PRESETS = ("turkish500", "turkish300", "turkish500_cutthroat", "rummy500")


# -- helpers ---------------------------------------------------------------------------------


def stacked(
    variant: Variant, hands: Sequence[str], *, up: str = "", stock: str = ""
) -> tuple[Card, ...]:
    """The full deck that deals ``hands``, turns ``up`` face up and puts ``stock`` on top."""
    return stack_deck(variant, hands, face_up=up, stock=stock)


def game(
    name: str, hands: Sequence[str], *, up: str = "", stock: str = "", **settings: Any
) -> GameState:
    variant = get_variant(name, **settings)
    deck = stacked(variant, hands, up=up, stock=stock)
    return new_game(variant, players=len(hands), seed=0, deck=deck)


def meld(text: str) -> Meld:
    return parse_meld(text, RULES)


def draw(player: int) -> DrawStock:
    return DrawStock(player=player)


def lay(player: int, *melds: str) -> LayDown:
    return LayDown(player=player, melds=[meld(text) for text in melds])


def off(player: int, card: str, index: int, stands_for: str | None = None) -> LayOff:
    stands = None if stands_for is None else parse_card(stands_for)
    return LayOff(player=player, card=parse_card(card), meld_index=index, stands_for=stands)


def throw(player: int, card: str) -> Discard:
    return Discard(player=player, card=parse_card(card))


def run(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def refused(state: GameState, action: Action) -> str:
    """The refusal message, checking that the refusal left the state as it was."""
    before = state.replace()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    assert state == before
    assert not state.is_legal(action)
    return str(caught.value)


def public(state: GameState, name: str) -> object:
    return dict(state.variant.public_info(state, 0))[name]


# -- setup: rules 3.1 and 3.2 ------------------------------------------------------------------


def test_rule_3_1_two_packs_two_jokers_thirteen_cards_each() -> None:
    state = new_game("turkish500", players=2, seed=0)
    assert state.all_cards() == Counter(make_deck(decks=2, jokers=2))
    assert state.all_cards().total() == 106
    assert [len(hand) for hand in state.hands] == [13, 13]
    assert len(state.stock) == 106 - 26
    six = new_game("turkish500", players=6, seed=0)
    assert [len(hand) for hand in six.hands] == [13] * 6
    assert len(six.stock) == 106 - 78
    with pytest.raises(ConfigurationError, match="turkish500 is for 2 to 6 players, not 7"):
        new_game("turkish500", players=7, seed=0)


def test_rule_3_1_a_hand_size_the_deck_cannot_deal_is_refused() -> None:
    variant = get_variant("turkish500", hand_size=40)
    assert len(new_game(variant, players=2, seed=0).stock) == 106 - 80
    message = "106 cards cannot deal 40 cards to 3 players and leave a stock"
    with pytest.raises(ConfigurationError, match=message):
        new_game(variant, players=3, seed=0)
    with pytest.raises(ConfigurationError, match="hand_size must be None or a whole number"):
        get_variant("turkish500", hand_size=0)


def test_rule_3_2_player_after_the_dealer_starts_and_the_pile_starts_empty() -> None:
    state = new_game("turkish500", players=3, seed=0)
    assert (state.dealer, state.current_player, state.discard_pile) == (2, 0, ())
    # A deal of one go-around: each player draws and discards once, then the next deal.
    state = new_game(get_variant("turkish500", max_go_arounds=1), players=3, seed=0)
    for _ in range(6):
        state = state.apply(state.auto_action())
    assert state.deal_number == 2
    assert (state.dealer, state.current_player, state.discard_pile) == (0, 1, ())


def test_rule_3_2_classic_500_turns_a_card_up_to_start_the_pile() -> None:
    variant = get_variant("rummy500")
    deck = stacked(
        variant,
        ["Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc", "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd"],
        up="7s",
        stock="Kh",
    )
    state = new_game(variant, players=2, seed=0, deck=deck)
    assert state.discard_pile == (parse_card("7s"),)
    assert state.stock[0] == parse_card("Kh")
    assert state.all_cards().total() == 54  # one pack and 2 jokers for two players
    assert len(state.stock) == 54 - 26 - 1
    three = new_game("rummy500", players=3, seed=0)
    assert [len(hand) for hand in three.hands] == [7, 7, 7]  # 7 cards with 3+ players
    assert three.all_cards().total() == 54
    five = new_game("rummy500", players=5, seed=0)
    assert five.all_cards() == Counter(make_deck(decks=2, jokers=4))  # 108 for 5+
    assert len(new_game("rummy500", players=8, seed=0).hands) == 8


# -- the turn: rules 3.3 to 3.7 ----------------------------------------------------------------

JUNK_5 = "2c 5d 9s Jc 4h"  # no meld, and no two cards of one rank or close in one suit


def test_rule_3_3_the_discard_pile_is_dead() -> None:
    state = game("turkish500", ["7h 8h Kc Qd 3s", JUNK_5], stock="6c 6d", hand_size=5)
    state = run(state, draw(0), throw(0, "Kc"))
    assert state.discard_pile == (parse_card("Kc"),)
    message = refused(state, TakeDiscard(player=1))
    assert message == "the discard pile is dead: cards are drawn from the stock only"
    assert state.legal_actions() == (draw(1),)


def rummy500_with_pile() -> GameState:
    """p1 holds 7h 8h 8c 8d; on p1's second turn the pile is 3s 6h Kc (Kc on top)."""
    state = game("rummy500", ["7h 8h 8c 8d", "2c 5d 9s Jc"], up="3s", stock="6h Kc", hand_size=4)
    return run(state, draw(0), throw(0, "6h"), draw(1), throw(1, "Kc"))


def test_rule_3_3_rummy500_takes_a_discard_with_every_card_above_it() -> None:
    state = rummy500_with_pile()
    assert format_cards(state.discard_pile) == "3s 6h Kc"
    # Only taking 6h (with Kc above it) lets p1 meld the deepest card: 6h 7h 8h.
    assert state.legal_actions() == (draw(0), TakeDiscard(player=0, count=2))
    message = refused(state, TakeDiscard(player=0, count=1))
    assert message == (
        "cannot take Kc: the deepest card taken must be melded this turn, and p1 could not meld it"
    )
    assert refused(state, TakeDiscard(player=0, count=3)).startswith("cannot take 3s:")
    assert refused(state, TakeDiscard(player=0, count=4)) == (
        "cannot take 4 cards: the discard pile holds 3"
    )
    state = state.apply(TakeDiscard(player=0, count=2))
    assert format_cards(state.hands[0]) == "7h 8h 8c 8d 6h Kc"
    assert format_cards(state.discard_pile) == "3s"
    assert public(state, "must_meld") == parse_card("6h")


def test_rule_3_3_rummy500_the_deepest_card_taken_must_be_melded_that_turn() -> None:
    state = rummy500_with_pile().apply(TakeDiscard(player=0, count=2))
    assert refused(state, throw(0, "Kc")) == (
        "cannot discard yet: 6h, taken from the discard pile, must be melded first"
    )
    assert not any(isinstance(action, Discard) for action in state.legal_actions())
    assert "must meld this turn: 6h (taken from the pile)" in state.observation(1).public.lines()
    # The group of eights would leave 6h 7h with no meld.
    assert refused(state, lay(0, "8c 8d 8h")) == (
        "that would leave no way to meld 6h, taken from the discard pile"
    )
    state = state.apply(lay(0, "6h 7h 8h"))
    assert public(state, "must_meld") is None
    state = state.apply(throw(0, "Kc"))
    assert state.current_player == 1


def test_rule_3_8_rummy500_a_legal_take_from_the_pile_keeps_the_deal_going() -> None:
    state = game(
        "rummy500",
        [CLUBS_HEARTS, DIAMONDS_SPADES],
        up="Qh",
        stock="Kh Qs Ks",
        decks=1,
        jokers=0,
        hand_size=24,
    )
    state = run(state, draw(0), throw(0, "2c"), draw(1), throw(1, "2d"), draw(0), throw(0, "3c"))
    assert state.stock == ()
    assert format_cards(state.discard_pile) == "Qh 2c 2d 3c"
    # p2 can meld each deepest card: 3c with 3d 3s, 2d in Ad 2d 3d, 2c with 2d 2s, Qh with Qd Qs.
    assert (state.deal_number, state.phase, state.current_player) == (1, Phase.DRAW, 1)
    assert state.legal_actions() == tuple(
        TakeDiscard(player=1, count=count) for count in range(1, 5)
    )
    assert refused(state, draw(1)) == "the stock is empty"


def test_rule_3_4_lay_off_on_anyones_meld_is_credited_to_whoever_lays_off() -> None:
    state = game(
        "turkish500",
        ["7h 8h 9h Kc 2d", "Th 4c 5s Qd 3d"],
        stock="4d 5d",
        hand_size=5,
        max_go_arounds=1,
    )
    state = run(state, draw(0), lay(0, "7h 8h 9h"), throw(0, "Kc"), draw(1))
    assert off(1, "Th", 0) in state.legal_actions()
    state = state.apply(off(1, "Th", 0))
    assert str(state.table[0]) == "7h 8h 9h Th"
    assert public(state, "melded_points") == (24, 0)  # 7 + 8 + 9
    assert public(state, "laid_off_points") == (0, 10)
    state = state.apply(throw(1, "Qd"))  # the one go-around ends the deal
    record = state.deal_results[0]
    # p1: 24 melded − (2d + 4d = 6) = 18; p2: 10 laid off − (4c 5s 3d 5d = 17) = −7.
    # Nobody went out: the best score, p1's 18, takes the pool of 30.
    assert record.lines == (
        ScoreLine(player=0, points=24, reason="melded 3 cards"),
        ScoreLine(player=0, points=-6, reason="2 cards left in hand"),
        ScoreLine(player=1, points=10, reason="laid off 1 card"),
        ScoreLine(player=1, points=-17, reason="4 cards left in hand"),
        ScoreLine(player=0, points=30, reason="the pool: best score of the deal"),
    )
    assert record.points == (48, -7)
    assert record.ended_by == "1 go-around played"
    assert state.scores == (48, -7)
    assert (state.deal_number, state.pot) == (2, 30)


def test_rule_3_4_a_joker_laid_off_names_its_card_and_stays() -> None:
    state = game("turkish500", ["7h 8h 9h Kc 2d", "* Th 5s Qd 3d"], stock="4d 5d", hand_size=5)
    state = run(state, draw(0), lay(0, "7h 8h 9h"), throw(0, "Kc"), draw(1))
    lay_offs = [action for action in state.legal_actions() if isinstance(action, LayOff)]
    assert lay_offs == [off(1, "Th", 0), off(1, "*", 0, "6h"), off(1, "*", 0, "Th")]
    assert refused(state, off(1, "*", 0)) == (
        "a joker laid off must name the card it stands for (stands_for)"
    )
    assert (
        refused(state, off(1, "*", 0, "Jh"))
        == "cannot lay off *=Jh on meld 0 (7h 8h 9h): gap at Th"
    )
    assert refused(state, off(1, "Th", 0, "Th")) == "only a joker names the card it stands for"
    assert refused(state, off(1, "Th", 1)) == "there is no meld 1 on the table (it holds 1)"
    state = state.apply(off(1, "*", 0, "Th"))
    assert str(state.table[0]) == "7h 8h 9h *=Th"
    assert GameState.from_json(state.to_json()) == state
    assert public(state, "laid_off_points") == (0, 15)  # a joker is worth 15
    # Table melds are never rearranged: the natural Th cannot take the joker's place.
    assert refused(state, off(1, "Th", 0)).endswith("duplicate rank in a run: Th")


def test_rule_3_5_going_out_by_melding_the_last_card() -> None:
    state = game("turkish500", ["7h 8h 9h 4c 4d", JUNK_5], stock="4s", hand_size=5)
    state = run(state, draw(0), lay(0, "7h 8h 9h", "4c 4d 4s"))
    record = state.deal_results[0]
    assert record.ended_by == "p1 went out"
    # p1: 24 + 12 melded + the pool of 30 = 66; p2: −(2 + 5 + 9 + 10 + 4) = −30.
    assert record.points == (66, -30)
    assert ScoreLine(player=0, points=30, reason="the pool: went out") in record.lines
    assert state.deal_number == 2


def test_rule_3_5_going_out_with_a_final_discard() -> None:
    state = game("turkish500", ["7h 8h 9h Th 2c", "3c 5d 9s Jc 4h"], stock="Jh", hand_size=5)
    # Any written form of a meld is accepted; the table keeps it in reading order.
    backwards = parse_cards("Jh Th 9h 8h 7h")
    state = run(state, draw(0), LayDown(player=0, melds=[Meld(MeldKind.RUN, backwards, backwards)]))
    assert str(state.table[0]) == "7h 8h 9h Th Jh"
    state = state.apply(throw(0, "2c"))
    record = state.deal_results[0]
    assert record.ended_by == "p1 went out"
    # p1: 7 + 8 + 9 + 10 + 10 = 44 melded + 30 pool; p2: −(3 + 5 + 9 + 10 + 4) = −31.
    assert record.points == (74, -31)


def test_rule_3_5_go_out_requires_discard_keeps_a_card_to_discard() -> None:
    state = game(
        "turkish500",
        ["7h 8h 9h 4c 4d", JUNK_5],
        stock="4s",
        hand_size=5,
        go_out_requires_discard=True,
    )
    state = state.apply(draw(0))
    assert refused(state, lay(0, "7h 8h 9h", "4c 4d 4s")) == (
        "p1 must keep a card to discard: going out requires a discard"
    )
    state = state.apply(lay(0, "7h 8h 9h"))
    assert refused(state, lay(0, "4c 4d 4s")).startswith("p1 must keep a card to discard")
    assert state.apply(throw(0, "4s")).current_player == 1


def test_rule_3_6_groups_of_different_suits_runs_without_wrapping() -> None:
    state = game(
        "turkish500",
        ["Kh Ah 2h 7d 7d 7c Qs Ks", "2c 5d 9s Jc 4h 6c 8d Tc"],
        stock="As",
        hand_size=8,
    )
    state = state.apply(draw(0))
    twins = Meld(MeldKind.GROUP, parse_cards("7c 7d 7d"), parse_cards("7c 7d 7d"))
    assert refused(state, LayDown(player=0, melds=[twins])) == (
        "cannot lay down 7c 7d 7d: duplicate card in a group: 7d"
    )
    wrap = Meld(MeldKind.RUN, parse_cards("Kh Ah 2h"), parse_cards("Kh Ah 2h"))
    assert refused(state, LayDown(player=0, melds=[wrap])) == (
        "cannot lay down Kh Ah 2h: wraps past the ace"
    )
    assert refused(state, LayDown(player=0, melds=[])) == "lay down at least one meld"
    assert refused(state, lay(0, "Js Qs Ks")) == "the melds use cards p1 does not hold: Js"
    state = state.apply(lay(0, "Qs Ks As"))  # the ace high
    assert str(state.table[0]) == "Qs Ks As"
    wrap = Meld(MeldKind.RUN, (parse_card("2h"), JOKER, parse_card("Kh")), parse_cards("2h Ah Kh"))
    assert refused(state, LayDown(player=0, melds=[wrap])).endswith("wraps past the ace")


def first_go_around(**settings: Any) -> GameState:
    """p2 could meld five hearts on the first go-around, p1 a run of four on turn 1."""
    return game(
        "turkish500",
        ["7c 8c 9c Tc 2d", "7h 8h 9h Th Jh"],
        stock="5s 6s 3d 4d Kd",
        hand_size=5,
        **settings,
    )


def test_rule_3_7_only_the_first_player_may_go_out_in_the_first_go_around() -> None:
    state = run(first_go_around(), draw(0), throw(0, "5s"), draw(1))
    assert dict(state.variant.public_info(state, 1))["cards_to_keep"] == 2
    assert refused(state, lay(1, "7h 8h 9h Th Jh")) == (
        "p2 must keep at least 2 cards in hand: "
        "during the first go-around only the first player may go out"
    )
    state = state.apply(lay(1, "7h 8h 9h Th"))  # keeps Jh and 6s
    assert refused(state, off(1, "Jh", 0)).startswith("p2 must keep at least 2 cards in hand")
    assert not any(isinstance(action, LayOff) for action in state.legal_actions())
    state = run(state, throw(1, "6s"), draw(0), throw(0, "3d"), draw(1))
    state = run(state, off(1, "Jh", 0), throw(1, "4d"))  # the second go-around: p2 goes out
    assert state.deal_results[0].ended_by == "p2 went out"


def test_rules_3_5_and_3_7_the_cards_to_keep_say_why() -> None:
    # The facts line a player reads beside the prompt (play, the web table).
    state = run(first_go_around(), draw(0), throw(0, "5s"), draw(1))
    assert "cards to keep: 2 (no going out in the first go-around)" in (
        state.observation(1).public.lines()
    )
    discard = run(first_go_around(go_out_requires_discard=True), draw(0), throw(0, "5s"))
    discard = run(discard, draw(1), throw(1, "6s"), draw(0))  # the second go-around
    assert "cards to keep: 1 (going out needs a discard)" in discard.observation(0).public.lines()
    free = run(first_go_around(), draw(0), throw(0, "5s"), draw(1), throw(1, "6s"), draw(0))
    assert not [line for line in free.observation(0).public.lines() if "keep" in line]


def test_rule_3_7_the_first_player_may_go_out_at_once() -> None:
    state = game("turkish500", ["7h 8h 9h Th 2c", JUNK_5], stock="Jh", hand_size=5)
    state = run(state, draw(0), lay(0, "7h 8h 9h Th Jh"), throw(0, "2c"))
    assert state.deal_results[0].ended_by == "p1 went out"


def test_rule_3_7_nobody_and_anyone() -> None:
    nobody = game(
        "turkish500",
        ["7h 8h 9h Th 2c", JUNK_5],
        stock="Jh",
        hand_size=5,
        first_go_around_go_out="nobody",
    ).apply(draw(0))
    assert refused(nobody, lay(0, "7h 8h 9h Th Jh")) == (
        "p1 must keep at least 2 cards in hand: nobody may go out during the first go-around"
    )
    anyone = run(first_go_around(first_go_around_go_out="anyone"), draw(0), throw(0, "5s"))
    anyone = run(anyone, draw(1), lay(1, "7h 8h 9h Th Jh"), throw(1, "6s"))
    assert anyone.deal_results[0].ended_by == "p2 went out"


# -- ending a deal and scoring: rules 3.8 to 3.12 ----------------------------------------------

# One pack, no jokers, 24 cards each: four cards of stock.
CLUBS_HEARTS = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh"
DIAMONDS_SPADES = "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js"


def short_stock(**settings: Any) -> GameState:
    return game(
        "turkish500",
        [CLUBS_HEARTS, DIAMONDS_SPADES],
        stock="Qh Kh Qs Ks",
        decks=1,
        jokers=0,
        hand_size=24,
        **settings,
    )


def test_rule_3_8_the_deal_ends_when_the_stock_is_empty_and_nobody_can_draw() -> None:
    state = run(short_stock(), draw(0), throw(0, "Qh"), draw(1), throw(1, "Ad"))
    state = run(state, draw(0), throw(0, "Qs"), draw(1))
    assert state.stock == ()
    state = state.apply(throw(1, "Ks"))
    record = state.deal_results[0]
    assert record.ended_by == "the stock ran out and p1 cannot draw"
    # p1 holds clubs (15 + 54 + 30 = 99) and hearts A–J (15 + 54 + 10 = 79): −178.
    # p2 held the same 178, took Kh (+10), threw Ad (−15): −173, the best, takes the pool.
    assert record.points == (-178, -173 + 30)
    assert state.deal_number == 2


def test_rule_3_9_ace_is_1_as_the_low_end_of_a_run_and_15_elsewhere() -> None:
    state = game(
        "turkish500",
        ["Ah 2h 3h Qs Ks As *", "Ac 5d 9s Jc Kd 3c 7d"],
        stock="4c 8c",
        hand_size=7,
        max_go_arounds=1,
    )
    state = state.apply(draw(0)).apply(lay(0, "Ah 2h 3h"))
    assert public(state, "melded_points") == (6, 0)  # 1 + 2 + 3
    state = state.apply(lay(0, "Qs Ks As"))
    assert public(state, "melded_points") == (6 + 35, 0)  # 10 + 10 + 15
    state = run(state, throw(0, "4c"), draw(1), throw(1, "8c"))
    # p1: 41 melded − the joker (15) = 26, the best score: + 30 pool.
    # p2: −(Ac 15 + 5 + 9 + Jc 10 + Kd 10 + 3 + 7) = −59: a negative deal score.
    assert state.deal_results[0].points == (56, -59)
    assert state.scores == (56, -59)


def test_rule_3_9_an_ace_laid_off_below_a_two_counts_1() -> None:
    state = game("turkish500", ["2d 3d 4d Kc 9s", "Ad Ac 5s Qd 3c"], stock="6c 7c", hand_size=5)
    state = run(state, draw(0), lay(0, "2d 3d 4d"), throw(0, "Kc"), draw(1))
    state = state.apply(off(1, "Ad", 0))
    assert str(state.table[0]) == "Ad 2d 3d 4d"
    assert public(state, "laid_off_points") == (0, 1)


def test_rule_3_11_the_pool_carries_over_on_a_tie() -> None:
    state = run(short_stock(), draw(0), throw(0, "Qh"), draw(1), throw(1, "Kh"))
    state = run(state, draw(0), throw(0, "Qs"), draw(1), throw(1, "Ks"))
    record = state.deal_results[0]
    # Both hands are worth 178 (see the stock test): equal best scores.
    assert record.points == (-178, -178)
    assert record.ended_by.endswith("the best scores tie, so the pool of 30 carries over")
    assert (state.deal_number, state.pot) == (2, 60)
    # Deal 2 (shuffled) ends the same way; whoever scores best takes both pools.
    for _ in range(8):
        state = state.apply(state.auto_action())
    pool = [line for line in state.deal_results[1].lines if "pool" in line.reason]
    assert [line.points for line in pool] == [60]
    assert (state.deal_number, state.pot) == (3, 30)


def test_rule_3_11_pool_tie_split_shares_the_pool() -> None:
    state = short_stock(pool_tie="split")
    state = run(state, draw(0), throw(0, "Qh"), draw(1), throw(1, "Kh"))
    state = run(state, draw(0), throw(0, "Qs"), draw(1), throw(1, "Ks"))
    assert state.deal_results[0].points == (-178 + 15, -178 + 15)
    assert state.pot == 30  # only deal 2's contribution


def test_rule_3_12_a_dealt_hand_that_melds_goes_out_at_once() -> None:
    hands = ["7h 8h 9h 4c 4d 4s Kc", "2c 5d 9s Jc 4h 6c 8d"]
    state = game("turkish500", hands, hand_size=7, dealt_rummy_check=True)
    record = state.deal_results[0]
    assert record.ended_by == "p1 went out with the dealt hand"
    # p1 melds 24 + 12, leaves out Kc, takes the pool; p2: −(2+5+9+10+4+6+8) = −44.
    assert record.points == (36 + 30, -44)
    assert state.deal_number == 2
    unchecked = game("turkish500", hands, hand_size=7)
    assert (unchecked.deal_number, unchecked.deal_results) == (1, ())


def test_rule_3_12_the_smaller_leftover_goes_out() -> None:
    hands = ["7h 8h 9h 4c 4d 4s Kc", "2c 3c 4c Td Jd Qd 5h"]
    state = game("turkish500", hands, hand_size=7, dealt_rummy_check=True)
    record = state.deal_results[0]
    # p2's leftover 5h (5 points) beats p1's Kc (10): p2 melds 2+3+4 + 10+10+10 = 39.
    # p1 keeps all 7 cards: −(7+8+9+4+4+4+10) = −46.
    assert record.ended_by == "p2 went out with the dealt hand"
    assert record.points == (-46, 39 + 30)


def test_rule_3_12_a_dealt_hand_that_melds_completely_leaves_nothing_over() -> None:
    hands = ["7h 8h 9h 4c 4d 4s 4h", "2c 3c 4h Td Jd Qd 5h"]
    state = game("turkish500", hands, hand_size=7, dealt_rummy_check=True)
    record = state.deal_results[0]
    # p1 melds everything: 24 + 16 = 40, with no leftover to discard; p2 (2c 3c 4h 5h is no
    # run) does not qualify and keeps −(2+3+4+10+10+10+5) = −44.
    assert record.ended_by == "p1 went out with the dealt hand"
    assert record.points == (40 + 30, -44)


def test_rule_3_12_equal_leftovers_deal_again() -> None:
    hands = ["7h 8h 9h 4c 4d 4s Kc", "2c 3c 4c Td Jd Qd Qh"]
    state = game("turkish500", hands, hand_size=7, dealt_rummy_check=True)
    (record,) = state.deal_results
    assert record.points == (0, 0)
    assert record.ended_by == (
        "dealt hands of p1, p2 tie with leftovers worth 10: nobody scores, "
        "the pool of 30 carries over and the deal is dealt again"
    )
    assert (state.deal_number, state.pot, state.phase) == (1, 30, Phase.DRAW)
    assert state.hands != game("turkish500", hands, hand_size=7).hands


# -- the match: rules 3.13 to 3.15 -------------------------------------------------------------


def going_out(name: str = "turkish500", **settings: Any) -> GameState:
    """p1 goes out on the first turn scoring 66 (see the rule 3.5 test); p2 scores −30."""
    return game(name, ["7h 8h 9h 4c 4d", JUNK_5], stock="4s", hand_size=5, **settings)


def test_rule_3_13_the_match_ends_after_the_deal_reaching_500() -> None:
    state = going_out().replace(scores=(440, 0))
    state = run(state, draw(0), lay(0, "7h 8h 9h", "4c 4d 4s"))
    assert state.is_over
    assert state.phase is Phase.MATCH_OVER
    assert state.scores == (506, -30)  # 440 + 66
    assert state.result is not None
    assert state.result.winners == (0,)
    assert state.legal_actions() == ()
    assert refused(state, draw(1)) == "the match is over"
    short = going_out().replace(scores=(433, 0))
    short = run(short, draw(0), lay(0, "7h 8h 9h", "4c 4d 4s"))
    assert (short.is_over, short.scores, short.deal_number) == (False, (499, -30), 2)


def test_rule_3_13_turkish300_ends_at_300() -> None:
    state = going_out("turkish300").replace(scores=(234, 0))
    state = run(state, draw(0), lay(0, "7h 8h 9h", "4c 4d 4s"))
    assert state.is_over
    assert state.scores == (300, -30)  # 234 + 66 reaches 300 exactly


def test_rule_3_13_the_match_ends_after_the_tenth_deal_a_tie_is_shared() -> None:
    state = going_out().replace(deal_number=9, scores=(10, 106))
    state = run(state, draw(0), lay(0, "7h 8h 9h", "4c 4d 4s"))
    assert (state.is_over, state.deal_number) == (False, 10)
    state = going_out().replace(deal_number=10, scores=(10, 106))
    state = run(state, draw(0), lay(0, "7h 8h 9h", "4c 4d 4s"))
    assert state.is_over
    assert state.scores == (76, 76)  # 10 + 66 and 106 − 30
    assert state.result is not None
    assert state.result.winners == (0, 1)
    assert [record.deal_number for record in state.result.deals] == [10]


def test_rule_3_14_cutthroat_has_no_pool_and_only_the_winner_scores() -> None:
    state = game(
        "turkish500_cutthroat",
        ["7h 8h 9h Kc 2d", "Th 4c 5s Qd 3d"],
        stock="4d 5d",
        hand_size=5,
        max_go_arounds=1,
    )
    assert state.pot == 0
    state = run(state, draw(0), lay(0, "7h 8h 9h"), throw(0, "Kc"), draw(1))
    state = run(state, off(1, "Th", 0), throw(1, "Qd"))
    record = state.deal_results[0]
    # As in the lay-off test, p1 scores 18 and p2 −7, but only the winner p1 counts.
    assert record.points == (18, 0)
    assert record.lines[-1] == ScoreLine(
        player=1, points=0, reason="only the deal's winner scores (p1 won; -7 not counted)"
    )
    assert (state.scores, state.pot) == ((18, 0), 0)


def test_rule_3_14_presets() -> None:
    base = get_variant("turkish500").settings()
    assert base == {
        "decks": 2,
        "jokers": 2,
        "hand_size": 13,
        "draw_from_discard": False,
        "start_discard_pile": False,
        "go_out_requires_discard": False,
        "first_go_around_go_out": "first_player_only",
        "deal_pool": 30,
        "pool_tie": "carry_over",
        "dealt_rummy_check": False,
        "max_deals": 10,
        "target_score": 500,
        "scoring": "all_players",
        "max_go_arounds": None,
        "ace_points": 15,
        "ace_low_run_points": 1,
        "joker_points": 15,
    }
    assert get_variant("turkish300").settings() == {**base, "target_score": 300}
    assert get_variant("turkish500_cutthroat").settings() == {
        **base,
        "deal_pool": 0,
        "scoring": "winner_only",
    }
    assert get_variant("rummy500").settings() == {
        **base,
        "decks": None,
        "jokers": None,
        "hand_size": None,
        "draw_from_discard": True,
        "start_discard_pile": True,
        "deal_pool": 0,
        "max_deals": None,
        "first_go_around_go_out": "anyone",
    }
    assert (Turkish500.max_players, Rummy500.min_players, Rummy500.max_players) == (6, 2, 8)
    assert isinstance(get_variant("Turkish-300"), Turkish300)
    assert isinstance(get_variant("500_acimasiz"), Turkish500Cutthroat)
    assert Turkish500(scoring="winner_only").scoring is Scoring.WINNER_ONLY
    assert Turkish500(pool_tie="split").pool_tie is PoolTie.SPLIT
    anyone = Turkish500(first_go_around_go_out="anyone")
    assert anyone.first_go_around_go_out is FirstGoAroundGoOut.ANYONE
    named = "bad setting 'tie': expected one of 'carry_over', 'split' for pool_tie$"
    with pytest.raises(ConfigurationError, match=named):
        get_variant("turkish500", pool_tie="tie")
    with pytest.raises(ConfigurationError, match="draw_from_discard must be True or False"):
        get_variant("turkish500", draw_from_discard="yes")


def test_rule_3_14_card_points_follow_the_settings() -> None:
    points = get_variant("turkish500", ace_points=11, joker_points=25).card_points
    assert (points.of(parse_card("Ad")), points.of(JOKER), points.ace_in_low_run) == (11, 25, 1)


def test_rule_3_15_max_go_arounds_caps_a_deal() -> None:
    state = new_game(get_variant("turkish500", max_go_arounds=2), players=3, seed=0)
    for _ in range(2 * 3 * 2 - 1):  # two go-arounds of draw + discard, but the last discard
        state = state.apply(state.auto_action())
    assert (state.deal_number, state.deal_results) == (1, ())
    state = state.apply(state.auto_action())
    assert state.deal_number == 2
    assert state.deal_results[0].ended_by == "2 go-arounds played"


# -- turns, refusals, automatic play, bots -----------------------------------------------------


def test_refusals_name_the_reason_and_leave_the_state_equal() -> None:
    state = game("turkish500", ["7h 8h 9h Kc 2d", JUNK_5], stock="4d", hand_size=5)
    assert refused(state, draw(1)) == "it is p1's turn, not p2's"
    assert refused(state, throw(0, "Kc")) == "p1 must draw a card first"
    assert refused(state, lay(0, "7h 8h 9h")) == "p1 must draw a card first"
    assert refused(state, Knock(player=0)) == "Knock is not a move of turkish500"
    assert refused(state, DrawStock(player=5)) == "there is no player p6 at this 2-seat table"
    state = state.apply(draw(0))
    assert refused(state, draw(0)) == "p1 has already drawn this turn"
    assert refused(state, throw(0, "As")) == "As is not in p1's hand"
    assert refused(state, off(0, "Kc", 0)) == "there is no meld 0 on the table (it holds 0)"


def test_auto_action_draws_melds_what_is_owed_and_discards_the_highest_card() -> None:
    state = game("turkish500", ["7h 8h 9h Kc 2d", JUNK_5], stock="*", hand_size=5)
    assert state.auto_action() == draw(0)
    state = state.apply(draw(0))
    assert state.auto_action() == throw(0, "*")  # 15 points, the highest
    owed = rummy500_with_pile().apply(TakeDiscard(player=0, count=2))
    assert owed.auto_action() == lay(0, "6h 7h 8h")


def test_greedy_bot_lays_down_lays_off_and_discards_its_worst_card() -> None:
    state = game("turkish500", ["7h 8h 9h Kc 2d", "Th 4c 5s Qd 3d"], stock="4d 5d", hand_size=5)
    bot = GreedyBot()
    assert bot.choose(state.observation(0)) == draw(0)
    state = state.apply(draw(0))
    assert bot.choose(state.observation(0)) == lay(0, "7h 8h 9h")
    state = state.apply(lay(0, "7h 8h 9h"))
    assert bot.choose(state.observation(0)) == throw(0, "Kc")  # Kc 10, 4d 4, 2d 2
    state = run(state, throw(0, "Kc"), draw(1))
    assert bot.choose(state.observation(1)) == off(1, "Th", 0)


def test_greedy_bot_takes_a_discard_it_can_meld_in_rummy500() -> None:
    state = game("rummy500", ["7h 8h Qc 2d", "2c 5d 9s Jc"], up="3s", stock="6h Kc", hand_size=4)
    state = run(state, draw(0), throw(0, "6h"), draw(1), throw(1, "Kc"))
    assert state.legal_actions() == (draw(0), TakeDiscard(player=0, count=2))
    bot = GreedyBot()
    assert bot.choose(state.observation(0)) == TakeDiscard(player=0, count=2)
    state = state.apply(TakeDiscard(player=0, count=2))
    assert bot.choose(state.observation(0)) == lay(0, "6h 7h 8h")


@pytest.mark.parametrize("name", PRESETS)
def test_greedy_bots_finish_a_match_of_every_preset(name: str) -> None:
    variant = get_variant(name, max_deals=2)
    final = play(new_game(variant, players=3, seed=7), [GreedyBot()] * 3)
    assert final.is_over
    assert final.result is not None
    assert len(final.result.deals) == 2
    for record in final.result.deals:
        totals = [0, 0, 0]
        for line in record.lines:
            totals[line.player] += line.points
        assert tuple(totals) == record.points
    assert final.scores == tuple(
        sum(record.points[player] for record in final.result.deals) for player in range(3)
    )


# -- engine invariants under random play -------------------------------------------------------


def probes(state: GameState) -> list[Action]:
    """Actions without melds to hold against the legal list, legal or not."""
    found: list[Action] = []
    for player in range(state.player_count):
        found.append(draw(player))
        found.extend(
            TakeDiscard(player=player, count=count) for count in range(len(state.discard_pile) + 2)
        )
        cards = {*state.hands[player], JOKER, parse_card("Ac")}
        found.extend(Discard(player=player, card=card) for card in cards)
        for index in range(len(state.table) + 1):
            for card in cards:
                stands: list[Card | None] = [None] if card.is_joker else [None, card]
                for meld_ in state.table[index : index + 1]:
                    stands.extend(meld_.stands_for[:1] + meld_.stands_for[-1:])
                found.extend(
                    LayOff(player=player, card=card, meld_index=index, stands_for=stand)
                    for stand in stands
                )
    return found


CASES = [
    (name, players, settings)
    for name in PRESETS
    for players, settings in ((2, {}), (3, {"max_go_arounds": 2, "max_deals": 2}))
] + [("rummy500", 5, {"max_go_arounds": 3, "max_deals": 2})]


@pytest.mark.parametrize(("name", "players", "settings"), CASES)
def test_engine_invariants_under_random_play(
    name: str, players: int, settings: dict[str, Any]
) -> None:
    variant = get_variant(name, **settings)
    deck = Counter(variant.deck_for(players))
    state = new_game(variant, players=players, seed=players)
    chooser = random.Random(players)
    for step in range(90):
        if state.is_over:
            break
        assert state.all_cards() == deck
        legal = state.legal_actions()
        assert all(state.legal_actions(player) for player in state.to_act)  # R9
        for action in legal:
            state.verify(action)
        if step % 6 == 0:
            for action in probes(state):
                assert state.is_legal(action) == (action in legal), action
        before = state.replace()
        after = state.apply(chooser.choice(legal))
        assert state == before
        state = after
    assert state.all_cards() == deck
    assert GameState.from_json(state.to_json()) == state


def test_random_play_reaches_the_end_of_short_matches() -> None:
    for name in PRESETS:
        variant = get_variant(name, max_go_arounds=1, max_deals=3)
        final = play(new_game(variant, players=2, seed=3), [RandomBot(1), RandomBot(2)])
        assert final.is_over
        assert final.result is not None
        assert len(final.result.deals) >= 3
        assert final.all_cards() == Counter(variant.deck_for(2))
        assert GameState.from_json(final.to_json()) == final


#: Few distinct cards, so hands often hold runs, groups, aces at both ends and jokers.
DENSE = parse_cards("Ah 2h 3h 4h Qh Kh As 2s Ks 7c 7d 7h *")


@given(st.lists(st.sampled_from(DENSE), min_size=1, max_size=10), st.data())
def test_a_card_can_be_melded_exactly_when_find_melds_finds_a_meld_with_it(
    hand: list[Card], data: st.DataObject
) -> None:
    card = data.draw(st.sampled_from(hand))
    variant = get_variant("rummy500")
    assert isinstance(variant, Turkish500)
    expected = any(card in found.cards for found in find_melds(hand, RULES))
    assert variant._can_still_meld(hand, (), card, 0) == expected


# -- points settled on review (RULES.md section 5) ---------------------------------------------


def low_ace_run_on_the_table(second_hand: str) -> GameState:
    """p1 has laid down Ah…Qh (ace low, worth 1) and discarded; p2 has drawn."""
    state = game(
        "turkish500",
        ["Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh 5c", second_hand],
        stock="4d 5d",
        max_go_arounds=1,
    )
    state = run(state, draw(0), lay(0, "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh"), throw(0, "5c"))
    return state.apply(draw(1))


def test_r1_a_king_laid_off_on_a_low_ace_run_credits_only_its_own_value() -> None:
    state = low_ace_run_on_the_table("Kh 2c 3c 4c 6c 7c 8c 9s Ts Js Qs Ks 2s")
    # 1 (the low ace) + 2…9 (44) + T J Q (30) = 75.
    assert public(state, "melded_points") == (75, 0)
    state = state.apply(off(1, "Kh", 0))
    assert str(state.table[0]) == "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    # The king is worth 10; the ace already on the table is not re-valued (it stays 1 to p1).
    assert public(state, "laid_off_points") == (0, 10)
    assert public(state, "melded_points") == (75, 0)


def test_r1_a_joker_laid_off_as_a_king_credits_15() -> None:
    state = low_ace_run_on_the_table("* 2c 3c 4c 6c 7c 8c 9s Ts Js Qs Ks 2s")
    state = state.apply(off(1, "*", 0, "Kh"))
    assert str(state.table[0]) == "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh *=Kh"
    assert public(state, "laid_off_points") == (0, 15)


def test_r1_a_thirteen_card_run_laid_down_reads_its_ace_high() -> None:
    state = game(
        "turkish500",
        ["Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "2c 3c 4c 6c 7c 8c 9s Ts Js Qs Ks 2s 5c"],
        stock="4d 5d",
    )
    state = run(state, draw(0), lay(0, "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"))
    # The ace admits both readings and reads high: 15 + 2…9 (44) + T J Q K (40) = 99.
    assert public(state, "melded_points") == (99, 0)


def high_run_without_its_ace() -> GameState:
    """p1 has laid down 2h…Kh; p2 holds Ah and a joker and has drawn."""
    state = game(
        "turkish500",
        ["2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 5c", "Ah * 3c 4c 6c 7c 8c 9s Ts Js Qs Ks 2s"],
        stock="4d 5d",
        max_go_arounds=1,
    )
    state = run(state, draw(0), lay(0, "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"), throw(0, "5c"))
    return state.apply(draw(1))


def test_defect_an_ace_beside_a_two_to_king_run_is_listed_once_per_end() -> None:
    state = high_run_without_its_ace()
    ah, joker = parse_card("Ah"), JOKER
    lay_offs = [action for action in state.legal_actions() if isinstance(action, LayOff)]
    assert len(lay_offs) == len(set(lay_offs))
    assert lay_offs == [
        LayOff(player=1, card=ah, meld_index=0, end="low"),
        LayOff(player=1, card=ah, meld_index=0, end="high"),
        LayOff(player=1, card=joker, meld_index=0, stands_for=ah, end="low"),
        LayOff(player=1, card=joker, meld_index=0, stands_for=ah, end="high"),
    ]
    assert refused(state, off(1, "Ah", 0)) == (
        "Ah fits both ends of meld 0 (2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh): "
        "say which with end='low' or end='high'"
    )
    with pytest.raises(IllegalActionError, match="bad end 'sideways'"):
        LayOff(player=1, card=ah, meld_index=0, end="sideways")


def test_r1_an_ace_laid_off_low_is_worth_1_and_high_15() -> None:
    state = high_run_without_its_ace()
    low = state.apply(LayOff(player=1, card=parse_card("Ah"), meld_index=0, end="low"))
    high = state.apply(LayOff(player=1, card=parse_card("Ah"), meld_index=0, end="high"))
    assert public(low, "laid_off_points") == (0, 1)
    assert public(high, "laid_off_points") == (0, 15)
    assert low.table == high.table  # the same 13 cards; only where the ace went differs
    as_joker = state.apply(
        LayOff(player=1, card=JOKER, meld_index=0, stands_for=parse_card("Ah"), end="low")
    )
    assert public(as_joker, "laid_off_points") == (0, 15)
    assert GameState.from_json(high.to_json()) == high


def test_defect_end_is_refused_where_a_card_has_one_place() -> None:
    state = low_ace_run_on_the_table("Kh 2c 3c 4c 6c 7c 8c 9s Ts Js Qs Ks 2s")
    assert refused(state, LayOff(player=1, card=parse_card("Kh"), meld_index=0, end="high")) == (
        "Kh fits only one end of meld 0 (Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh): leave end out"
    )


def test_defect_a_joker_standing_for_a_joker_is_refused_not_raised() -> None:
    state = low_ace_run_on_the_table("* 2c 3c 4c 6c 7c 8c 9s Ts Js Qs Ks 2s")
    action = LayOff(player=1, card=JOKER, meld_index=0, stands_for=JOKER)
    assert state.is_legal(action) is False
    assert refused(state, action) == "cannot lay off *=*: a joker must stand for a natural card"


def test_defect_deals_that_end_at_once_follow_each_other_without_recursion() -> None:
    # A one-card hand always "melds except one card", so with the dealt-hand check every deal
    # ends before its first turn. Such a table is refused now (R9); the variant is forced into
    # that shape here to show deals follow in a loop: the old code recursed once per deal and
    # died with RecursionError after about 330 deals.
    variant = get_variant("turkish500", dealt_rummy_check=True, max_deals=1000)
    object.__setattr__(variant, "hand_size", 1)
    object.__setattr__(variant, "target_score", 10**9)
    state = new_game(variant, players=2, seed=3)
    assert state.is_over
    assert state.deal_number == 1000
    assert all(
        "with the dealt hand" in record.ended_by or "tie" in record.ended_by
        for record in state.deal_results
    )


def test_issue_30_rummy500_lay_off_end_none_is_listed_where_one_end_takes_the_card() -> None:
    # The reading DESIGN and LayOff state: ``end`` names an end only where both ends of a
    # run take the card (an ace beside 2…K); elsewhere the one form is end=None, listed and
    # legal, and an explicit end is refused with the reason.
    hands = ["8h 9h Th 2c 3s 4d 5c 6s 7d 8c 9s Jd Kc", "7h Jh 2d 3c 4s 5d 6c 8d 9c Ts Qd Ks Ac"]
    state = game("rummy500", hands, up="Qc", stock="4h 5h 6h")
    state = run(state, draw(0), lay(0, "8h 9h Th"), throw(0, "2c"), draw(1))
    listed = [action for action in state.legal_actions() if isinstance(action, LayOff)]
    seven = LayOff(player=1, card=parse_card("7h"), meld_index=0, end=None)
    jack = LayOff(player=1, card=parse_card("Jh"), meld_index=0, end=None)
    assert listed == [seven, jack]
    assert state.is_legal(seven)
    for side in ("low", "high"):
        assert refused(state, attrs.evolve(seven, end=side)) == (
            "7h fits only one end of meld 0 (8h 9h Th): leave end out"
        )
    # Every form with every end agrees with the listing.
    for card in set(state.hands[1]):
        for end in (None, "low", "high"):
            action = LayOff(player=1, card=card, meld_index=0, end=end)
            assert state.is_legal(action) == (action in listed), action
