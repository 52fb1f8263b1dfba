"""Carousel (RULES.md section 2): each rule as a named test, the scoring examples, the move finder
against a brute-force oracle, and the engine invariants under random play.

Stacked decks: ``carousel_deck(hands, stock=...)`` deals the given hands one card at a time
round-robin from player 0 and puts ``stock`` on top of the stock. Expected numbers are worked
out by hand in the comments.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given, settings
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
    Rank,
    _words,
    find_melds,
    format_cards,
    get_variant,
    hand_points,
    new_game,
    parse_cards,
    parse_meld,
)
from rummylib import table as table_module
from rummylib.actions import Action, DrawStock, Knock, Pass, Rearrange
from rummylib.bots import Bot, GreedyBot, RandomBot
from rummylib.cards import CARDS
from rummylib.table import rearrangement_refusal
from rummylib.variants import carousel as carousel_module
from rummylib.variants.carousel import (
    Carousel,
    CarouselDetail,
    JokerReplacementSource,
    best_play,
    carousel_deck,
    hand_melds,
)

RULES = Carousel().meld_rules
POINTS = Carousel().card_points


def melds(*texts: str) -> tuple[Meld, ...]:
    return tuple(parse_meld(text, RULES) for text in texts)


def start(hands: Sequence[str], stock: str = "", **settings: object) -> GameState:
    """A match whose first deal deals exactly these hands, with ``stock`` on top."""
    variant = get_variant("carousel", **settings)
    return new_game(variant, players=len(hands), seed=0, deck=carousel_deck(hands, stock=stock))


def draw(state: GameState) -> GameState:
    player = state.current_player
    assert player is not None
    return state.apply(DrawStock(player=player))


def meld(state: GameState, *texts: str) -> GameState:
    player = state.current_player
    assert player is not None
    return state.apply(Rearrange(player=player, table=(*state.table, *melds(*texts))))


def refusal(state: GameState, action: Action) -> str:
    with pytest.raises(IllegalActionError) as error:
        state.verify(action)
    return str(error.value)


# ------------------------------------------------------------------------------------------
# Setup (2.1–2.3) and settings


def test_rule_2_1_deck_by_player_count() -> None:
    # two players: one pack and one joker; three to five: two packs and two jokers
    assert Counter(new_game("carousel", players=2, seed=1).all_cards())[JOKER] == 1
    assert new_game("carousel", players=2, seed=1).all_cards().total() == 53
    for players in (3, 4, 5):
        cards = new_game("carousel", players=players, seed=1).all_cards()
        assert cards.total() == 106
        assert cards[JOKER] == 2
        assert cards[parse_cards("7h")[0]] == 2
    for players in (1, 6):
        with pytest.raises(ConfigurationError, match="2 to 5 players"):
            new_game("carousel", players=players, seed=1)


def test_rule_2_2_ten_cards_no_discard_pile_player_after_dealer_starts() -> None:
    state = new_game("carousel", players=3, seed=4)
    assert [len(hand) for hand in state.hands] == [10, 10, 10]
    assert len(state.stock) == 106 - 30
    assert state.discard_pile == ()
    assert state.open_card is None
    assert (state.dealer, state.current_player, state.phase) == (2, 0, Phase.DRAW)
    # the next deal is dealt by the next seat, and the player after it starts
    state = state.replace(hands=(parse_cards("Ac"), *state.hands[1:]))
    state = state.apply(Knock(player=0))
    assert (state.deal_number, state.dealer, state.current_player) == (2, 0, 1)
    assert [len(hand) for hand in state.hands] == [10, 10, 10]


def test_rule_2_2_stacked_deck_deals_round_robin_from_player_0() -> None:
    hands = ["5h 6h 7h 8h 9h Th Jh Qh Kh 2c", "4c 6c 8c Tc Qc 2d 4d 6d 8d Td"]
    state = start(hands, stock="Ac 3d")
    assert [format_cards(hand) for hand in state.hands] == hands
    assert format_cards(state.stock[:2]) == "Ac 3d"


def test_rule_2_3_card_points() -> None:
    # joker 25; J, Q, K 10; 2–10 pip value; ace 1: 25 + 10 + 10 + 10 + 10 + 2 + 1 = 68
    assert hand_points(parse_cards("* Kh Qd Jc Th 2s Ac"), POINTS) == 68
    points = get_variant("carousel", joker_points=50, ace_points=11).card_points
    assert hand_points(parse_cards("* Ac 7h"), points) == 50 + 11 + 7


def test_settings_defaults_names_and_refusals() -> None:
    assert get_variant("carousel").settings() == {
        "knock_limit": 5,
        "knock_timing": "any_time_in_turn",
        "joker_replacement_source": "hand_or_table",
        "on_stock_exhausted": "final_meld_turn",
        "knock_tie_award": "each_full",
        "tie_award": "each_full",
        "target_score": 150,
        "joker_points": 25,
        "ace_points": 1,
        "face_points": 10,
        "going_out_bonus": 25,
        "knock_beaten_bonus": 10,
        "target_bonus": 100,
        "deal_won_bonus": 25,
    }
    variant = get_variant(
        "carousel", knock_timing="after_draw", joker_replacement_source="hand_only"
    )
    assert isinstance(variant, Carousel)
    assert variant.joker_replacement_source is JokerReplacementSource.HAND_ONLY
    named = "bad setting 'never': expected one of 'any_time_in_turn', .* for knock_timing$"
    with pytest.raises(ConfigurationError, match=named):
        get_variant("carousel", knock_timing="never")
    with pytest.raises(ConfigurationError, match="knock_limit must be a whole number"):
        get_variant("carousel", knock_limit=-1)
    with pytest.raises(ConfigurationError, match="unknown setting"):
        get_variant("carousel", discard_pile=True)
    assert get_variant("Vrtuljak").name == "carousel"


# ------------------------------------------------------------------------------------------
# Melds and the shared table (2.4, 2.5)

STAGE = ["5h 6h 7h 8h 2c 9s 9d Kc Qd Jd", "5c 5d 3c 4c 6c 2d 3d 4d Th Tc"]


def staged() -> GameState:
    """p1 has laid 5h 6h 7h 8h; p2 has drawn Ks and must now meld or draw."""
    state = start(STAGE, stock="As Ks")
    state = meld(draw(state), "5h 6h 7h 8h")
    return draw(state)


def test_rule_2_4_groups_distinct_suits_runs_ace_high_or_low_no_wrap() -> None:
    assert RULES.ace.value == "low_or_high"
    assert parse_meld("Qs Ks As", RULES).kind is MeldKind.RUN
    assert parse_meld("As 2s 3s", RULES).kind is MeldKind.RUN
    for text, reason in (
        ("Ks As 2s", "wraps past the ace"),
        ("7h 7h 7d", "duplicate card in a group: 7h"),
        ("7h 7d 7c 7s 7h", "group too large"),
    ):
        with pytest.raises(ValueError, match=reason):
            parse_meld(text, RULES)


def test_rule_2_5_a_meld_action_may_rearrange_the_whole_table() -> None:
    state = staged()
    # split p1's run: 5c 5d join the 5h, the rest stays a run
    new = melds("5c 5d 5h", "6h 7h 8h")
    after = state.apply(Rearrange(player=1, table=new))
    assert after.table == new
    assert len(after.hands[1]) == 10 + 1 - 2
    assert after.current_player == 0


def test_rule_2_5_first_meld_needs_three_cards_from_hand() -> None:
    state = draw(start(STAGE, stock="As"))
    two = Meld(MeldKind.RUN, parse_cards("5h 6h"), parse_cards("5h 6h"))
    assert refusal(state, Rearrange(player=0, table=(two,))) == (
        "5h 6h is not a meld: too few cards (2, at least 3)"
    )


def test_rule_2_5a_refused_when_no_card_from_hand_is_played() -> None:
    state = staged()
    same = melds("5h 6h 7h 8h")
    assert refusal(state, Rearrange(player=1, table=same)) == "no card from hand was played"
    assert refusal(state, Rearrange(player=1, table=())) == "no card from hand was played"


def test_rule_2_5b_refused_when_a_table_card_goes_back_to_a_hand() -> None:
    state = staged()
    new = melds("5h 6h 7h", "2d 3d 4d")
    assert refusal(state, Rearrange(player=1, table=new)) == "8h left the table"
    # Every card that left is named, the first one first (in card order).
    gone = melds("2d 3d 4d")
    assert refusal(state, Rearrange(player=1, table=gone)) == ("5h left the table (and 6h, 7h, 8h)")


def test_rule_2_5c_refused_when_a_meld_is_not_valid() -> None:
    state = staged()
    gap = Meld(MeldKind.RUN, parse_cards("3c 4c 6c"), parse_cards("3c 4c 6c"))
    new = (*melds("5h 6h 7h 8h"), gap)
    assert refusal(state, Rearrange(player=1, table=new)) == "3c 4c 6c is not a meld: gap at 5c"


def test_rule_2_5_refused_when_the_cards_are_not_in_hand() -> None:
    state = staged()
    new = melds("5h 6h 7h 8h 9h")
    assert refusal(state, Rearrange(player=1, table=new)) == (
        "the new table has cards the player does not hold: 9h"
    )


# ------------------------------------------------------------------------------------------
# The turn (2.6–2.8)

TURN = ["5h 6h 7h 8h 9h Th Jh Qh Kh 2c", "4c 6c 8c Tc Qc 2d 4d 6d 8d Td"]


def test_rule_2_6_draw_one_then_a_meld_action_ends_the_turn() -> None:
    state = start(TURN, stock="Qd 3d")
    assert state.legal_actions() == (DrawStock(player=0),)
    assert refusal(state, Pass(player=0)) == "p1 must draw a card first"
    state = draw(state)
    assert state.phase is Phase.PLAY
    assert refusal(state, Pass(player=0)) == ("p1 cannot pass while the stock lasts: draw or meld")
    state = meld(state, "5h 6h 7h 8h 9h Th Jh Qh Kh")
    # 2c Qd = 12 points left: no knock, p2 draws next
    assert (state.phase, state.current_player) == (Phase.DRAW, 1)
    assert format_cards(state.hands[0]) == "2c Qd"


def test_rule_2_7_without_a_meld_a_second_draw_then_a_meld_action() -> None:
    state = draw(draw(start(TURN, stock="Qd Jd 3d")))
    assert (state.phase, state.current_player, len(state.hands[0])) == (Phase.PLAY, 0, 12)
    state = meld(state, "5h 6h 7h 8h")
    assert (state.phase, state.current_player, len(state.hands[0])) == (Phase.DRAW, 1, 8)


def test_rule_2_8_third_draw_ends_the_turn_without_a_meld() -> None:
    state = draw(draw(draw(start(TURN, stock="Qd Jd 3d 5d"))))
    assert (state.phase, state.current_player, len(state.hands[0])) == (Phase.DRAW, 1, 13)
    assert refusal(state, Rearrange(player=0, table=melds("5h 6h 7h"))) == (
        "it is p2's turn, not p1's"
    )


def test_rules_2_6_to_2_8_the_prompt_says_which_draw_and_that_the_third_is_the_last() -> None:
    state = start(TURN, stock="Qd Jd 3d 5d")
    assert _words.prompt(state, 0) == "draw from the stock"
    state = draw(state)
    assert _words.prompt(state, 0).startswith("draw a second card from the stock or play")
    state = draw(state)
    assert _words.prompt(state, 0).startswith(
        "draw a third and last card from the stock (no play after it) or play"
    )
    assert _words.prompt(draw(state), 1) == "draw from the stock"  # p2's first draw


# ------------------------------------------------------------------------------------------
# Jokers (2.9, 2.10)

JOKER_DEAL = ["7s 8s * 9h 9d 9c 9s 2c 3c Kd", "Ts Js Qs Tc Jc 5d 5h 6h 4c 4d"]


def joker_table(**settings: object) -> GameState:
    """p1 laid 7s 8s *=9s and 9s 9h 9d 9c; p2 has drawn Ks."""
    state = start(JOKER_DEAL, stock="Ah Ks", **settings)
    state = meld(draw(state), "7s 8s *=9s", "9c 9d 9h 9s")
    return draw(state)


def test_rule_2_9_a_table_joker_may_move_only_as_the_same_card() -> None:
    state = joker_table()
    # the joker moves into the group, still as 9s; the natural 9s takes its place in the run
    moved = melds("7s 8s 9s Ts", "9c 9d 9h *=9s")
    assert state.apply(Rearrange(player=1, table=moved)).table == moved
    # without the 9s on the table, the joker may not change what it stands for
    deal = ["7s 8s * 9h 9d 9c 2c 3c Kd Kc", "Ts Js Qs Tc Jc 5d 5h 6h 4c 4d"]
    state = draw(meld(draw(start(deal, stock="Ah Ks")), "7s 8s *=9s", "9c 9d 9h"))
    changed = melds("*=6s 7s 8s", "9c 9d 9h", "Ts Js Qs")
    assert refusal(state, Rearrange(player=1, table=changed)) == (
        "the joker declared as 9s changed to 6s"
    )


def test_rule_2_10_a_natural_card_from_the_table_may_replace_a_joker() -> None:
    # hand_or_table: the 9s leaves the group for the joker's place; the joker, freed, starts
    # a new run as Qc with Tc Jc from the hand
    new = melds("7s 8s 9s", "9c 9d 9h", "Tc Jc *=Qc")
    state = joker_table()
    after = state.apply(Rearrange(player=1, table=new))
    assert after.table == new
    state = joker_table(joker_replacement_source="hand_only")
    assert refusal(state, Rearrange(player=1, table=new)) == (
        "the joker declared as 9s changed to Qc (only a 9s from the hand may take its place)"
    )


def test_rule_2_10_a_natural_card_from_the_hand_may_replace_a_joker() -> None:
    deal = ["7s 8s * 9h 9d 9c 2c 3c Kd Kc", "Ts 9s Qs Tc Jc 5d 5h 6h 4c 4d"]
    for source in ("hand_or_table", "hand_only"):
        state = start(deal, stock="Ah Ks", joker_replacement_source=source)
        state = draw(meld(draw(state), "7s 8s *=9s"))
        new = melds("7s 8s 9s", "Tc Jc *=Qc")
        assert state.apply(Rearrange(player=1, table=new)).table == new


def test_rule_2_10_the_freed_joker_must_be_placed_again_at_once() -> None:
    deal = ["7s 8s * 9h 9d 9c 2c 3c Kd Kc", "Ts 9s Qs Tc Jc 5d 5h 6h 4c 4d"]
    state = start(deal, stock="Ah Ks")
    state = draw(meld(draw(state), "7s 8s *=9s"))
    assert refusal(state, Rearrange(player=1, table=melds("7s 8s 9s"))) == (
        "a joker left the table"
    )
    # Removal is checked before the melds (2.5b before 2.5c): an invalid meld is enough.
    spades = Meld(MeldKind.RUN, parse_cards("9s Ts Qs"), parse_cards("9s Ts Qs"))
    assert refusal(state, Rearrange(player=1, table=(spades,))) == (
        "7s left the table (and 8s, a joker)"
    )


def test_rule_2_9_a_joker_played_from_hand_names_its_card() -> None:
    state = draw(start(JOKER_DEAL, stock="Ah Ks"))
    listed = [
        action.table[0]
        for action in state.legal_actions()
        if isinstance(action, Rearrange) and len(action.table) == 1
    ]
    # the listed lay-down reads the joker as 9s; any other legal reading may be played
    assert parse_meld("7s 8s *=9s", RULES) in listed
    assert parse_meld("*=6s 7s 8s", RULES) not in listed
    state = state.apply(Rearrange(player=0, table=melds("*=6s 7s 8s")))
    assert [str(meld) for meld in state.table] == ["*=6s 7s 8s"]


# ------------------------------------------------------------------------------------------
# Knocking (2.11)

# p1 melds 5h…Kh after drawing Ac and keeps 2c Ac = 3 points; p2 holds 68:
# 4 + 6 + 8 + 10 + 10 + 2 + 4 + 6 + 8 + 10 = 68
KNOCK_STOCK = "Ac 3d 5d 7d Ad As 2s"


def after_meld(**settings: object) -> GameState:
    return meld(draw(start(TURN, stock=KNOCK_STOCK, **settings)), "5h 6h 7h 8h 9h Th Jh Qh Kh")


def test_rule_2_11_knock_right_after_the_meld_action() -> None:
    state = after_meld()
    assert state.phase is Phase.KNOCK_CHOICE
    assert state.legal_actions() == (Pass(player=0), Knock(player=0))
    assert (
        refusal(state, DrawStock(player=0)) == "DrawStock is not a move of the knock_choice phase"
    )
    state = state.apply(Knock(player=0))
    record = state.deal_results[0]
    assert record.ended_by == "p1 knocked with 3"
    # 68 − 3 = 65
    assert record.points == (65, 0)
    assert state.scores == (65, 0)


def test_rule_2_11_knock_before_the_first_draw_and_after_a_draw() -> None:
    state = after_meld().apply(Pass(player=0))
    # p2 draws 3d 5d 7d and the turn ends: 68 + 15 = 83 points
    state = draw(draw(draw(state)))
    assert state.legal_actions() == (DrawStock(player=0), Knock(player=0))
    assert state.apply(Knock(player=0)).deal_results[0].points == (83 - 3, 0)
    # after drawing Ad: 2c Ac Ad = 4 points, still a knock
    state = draw(state)
    assert Knock(player=0) in state.legal_actions()
    assert state.apply(Knock(player=0)).deal_results[0].points == (83 - 4, 0)


def test_rule_2_11_knock_timing_start_of_turn() -> None:
    state = after_meld(knock_timing="start_of_turn")
    # no knock right after the meld action: the turn passes on
    assert (state.phase, state.current_player) == (Phase.DRAW, 1)
    state = draw(draw(draw(state)))
    assert Knock(player=0) in state.legal_actions()
    state = draw(state)
    assert Knock(player=0) not in state.legal_actions()
    assert refusal(state, Knock(player=0)) == (
        "cannot knock: at this table a player knocks only at the start of the turn"
    )


def test_rule_2_11_knock_timing_after_draw() -> None:
    state = after_meld(knock_timing="after_draw")
    assert state.phase is Phase.KNOCK_CHOICE
    state = draw(draw(draw(state.apply(Pass(player=0)))))
    assert state.legal_actions() == (DrawStock(player=0),)
    assert refusal(state, Knock(player=0)) == (
        "cannot knock: at this table a player knocks only after drawing"
    )
    assert Knock(player=0) in draw(state).legal_actions()


def test_rule_2_11_knock_limit() -> None:
    state = after_meld(knock_limit=2)
    assert (state.phase, state.current_player) == (Phase.DRAW, 1)
    state = draw(draw(draw(state)))
    assert refusal(state, Knock(player=0)) == (
        "cannot knock: p1 holds 3 points; a knock needs at most 2"
    )


def test_rule_2_11_knock_choice_after_the_third_draw() -> None:
    state = after_meld(knock_limit=10).apply(Pass(player=0))
    state = draw(draw(draw(state)))
    # p1 draws Ad, As, 2s: 3 + 1 + 1 + 2 = 7 points, and the third draw ends the turn
    state = draw(draw(draw(state)))
    assert (state.phase, state.current_player) == (Phase.KNOCK_CHOICE, 0)
    assert state.legal_actions() == (Pass(player=0), Knock(player=0))
    assert state.apply(Pass(player=0)).current_player == 1


# ------------------------------------------------------------------------------------------
# Going out (2.12) and the stock running out (2.13)


def test_rule_2_12_going_out_ends_the_deal_with_a_bonus() -> None:
    hands = ["5h 6h 7h 8h 9h Th Jh Qh Kh 2c", "4c 6c 8c Tc Qc 2d 4d 6d 8d Td"]
    state = draw(draw(start(hands, stock="3c Ac")))
    state = meld(state, "Ac 2c 3c", "5h 6h 7h 8h 9h Th Jh Qh Kh")
    record = state.deal_results[0]
    assert record.ended_by == "p1 went out"
    # p2's 68 points, +25 for going out
    assert record.points == (68 + 25, 0)
    assert [line.reason for line in record.lines] == [
        "won the deal with 0: p2 68−0=68",
        "went out",
    ]
    assert state.deal_number == 2


def test_rule_2_13_every_player_gets_a_final_meld_turn_the_last_drawer_last() -> None:
    state = new_game(get_variant("carousel", target_score=10_000), players=3, seed=7)
    # 76 cards in the stock: 25 turns of three draws, then p2 takes the last card first thing
    for _ in range(25 * 3):
        state = draw(state)
    assert (state.current_player, len(state.stock)) == (1, 1)
    state = draw(state)
    assert state.phase is Phase.PLAY
    assert state.legal_actions()[0] == Pass(player=1)
    assert refusal(state, DrawStock(player=1)) == "the stock is empty"
    state = state.apply(Pass(player=1))
    assert (state.phase, state.current_player) == (Phase.FINAL_TURN, 2)
    assert state.detail.final_turns == (2, 0, 1)
    # the words a player reads: no knock happened, the stock ran out
    assert _words.prompt(state, 2) == (
        "the stock ran out: this is your final turn, without drawing: pass or play to the table "
        "(write the whole new table)"
    )
    assert "final turns to take (the stock ran out): p3, p1, p2" in (
        state.observation(2).public.lines()
    )
    assert refusal(state, DrawStock(player=2)) == (
        "DrawStock is not a move of the final_turn phase"
    )
    assert refusal(state, Knock(player=2)) == "cannot knock: no knocking in the final_turn phase"
    assert state.auto_action() == Pass(player=2)
    for player in (2, 0):
        state = state.apply(Pass(player=player))
    assert (state.current_player, state.deal_number) == (1, 1)
    state = state.apply(Pass(player=1))
    assert state.deal_results[0].ended_by == "the stock ran out"
    assert state.deal_number == 2


def test_rule_2_13_a_meld_action_in_the_final_turn() -> None:
    state = new_game("carousel", players=2, seed=3)
    # 33 cards: eleven turns of three draws; p1 takes the last card with its third draw, so
    # p2 has the first final turn and p1 the last
    for _ in range(33):
        state = draw(state)
    assert (state.phase, state.current_player, state.detail.final_turns) == (
        Phase.FINAL_TURN,
        1,
        (1, 0),
    )
    melding = [action for action in state.legal_actions() if isinstance(action, Rearrange)]
    assert melding
    before = len(state.hands[1])
    state = state.apply(melding[0])
    assert (state.phase, state.current_player) == (Phase.FINAL_TURN, 0)
    assert len(state.hands[1]) == before - len(melding[0].table[0].cards)


# ------------------------------------------------------------------------------------------
# Scoring (2.14–2.18)

THREE = [
    "5h 6h 7h 8h 9h Th Jh Qh 2c 3c",
    "5s 6s 7s 8s 9s Ts Js Qs Ac 2d",
    "4c 6c 8c Tc 4d 6d 8d Td 9c 9d",
]


def three_players(p2_left: str = "Ac 2d", **settings: object) -> GameState:
    """p1 melds down to 2c 3c (5), p2 down to its last two cards, p3 draws three times."""
    hands = [THREE[0], THREE[1].replace("Ac 2d", p2_left), THREE[2]]
    state = start(hands, stock="Kh Ks 2h 3h 4h", **settings)
    state = meld(draw(state), "5h 6h 7h 8h 9h Th Jh Qh Kh").apply(Pass(player=0))
    state = meld(draw(state), "5s 6s 7s 8s 9s Ts Js Qs Ks")
    if state.phase is Phase.KNOCK_CHOICE:
        state = state.apply(Pass(player=1))
    # p3: 4 + 6 + 8 + 10 + 4 + 6 + 8 + 10 + 9 + 9 = 74, + 2h 3h 4h = 83
    return draw(draw(draw(state)))


def test_rule_2_15_two_players_the_winner_scores_the_difference() -> None:
    state = after_meld().apply(Knock(player=0))
    assert state.deal_results[0].lines[0].reason == "won the deal with 3: p2 68−3=65"
    assert state.scores == (65, 0)


def test_rule_2_17_three_players_an_undercut_beats_the_knock() -> None:
    state = three_players().apply(Knock(player=0))
    record = state.deal_results[0]
    # p2 holds Ac 2d = 3 against the knocker's 5: (5 − 3) + (83 − 3) = 82, +10
    assert record.points == (0, 92, 0)
    assert [str(line) for line in record.lines] == [
        "p2: +82 (won the deal with 3: p1 5−3=2, p3 83−3=80)",
        "p2: +10 (undercut p1's knock (3 against 5))",
    ]


def test_rule_2_17_a_tie_with_the_knocker_beats_the_knock() -> None:
    state = three_players(p2_left="2d 3d").apply(Knock(player=0))
    # p2 holds 2d 3d = 5, the knocker's count: (5 − 5) + (83 − 5) = 78, +10
    assert state.deal_results[0].points == (0, 88, 0)
    assert str(state.deal_results[0].lines[1]) == "p2: +10 (tied p1's knock (5 against 5))"


def test_rule_2_15_the_knocker_with_the_lowest_count_wins_without_bonus() -> None:
    state = three_players(p2_left="2d 4d").apply(Knock(player=0))
    # p2 holds 6: the knocker's 5 is lowest: (6 − 5) + (83 − 5) = 79
    assert state.deal_results[0].points == (79, 0, 0)
    assert len(state.deal_results[0].lines) == 1


FOUR = [
    "5h 6h 7h 8h 9h Th Jh Qh 2c 3c",
    "5s 6s 7s 8s 9s Ts Js Qs 2d 3d",
    "5d 6d 7d 8d 9d Td Jd Qd 2h 3h",
    "4c 6c 8c Tc 4s 6s 8s Ts 9c 9h",
]


@pytest.mark.parametrize("award", ["each_full", "split"])
def test_rule_2_17_two_players_tie_with_the_knocker(award: str) -> None:
    state = start(FOUR, stock="Kh Ks Kd 2s 3s 4s", knock_tie_award=award)
    for player, suit in enumerate("hsd"):
        run = " ".join(f"{rank}{suit}" for rank in "56789TJQK")
        state = meld(draw(state), run).apply(Pass(player=player))
    # p4: 4 + 6 + 8 + 10 + 4 + 6 + 8 + 10 + 9 + 9 = 74, + 2s 3s 4s = 83
    state = draw(draw(draw(state))).apply(Knock(player=0))
    # p2 and p3 hold 5, as the knocker does: each scores (5 − 5) + (5 − 5) + (83 − 5) = 78,
    # +10 = 88 (each_full); split: they share one winner's 88, 44 each
    record = state.deal_results[0]
    if award == "each_full":
        assert record.points == (0, 88, 88, 0)
        assert [line.points for line in record.lines] == [78, 10, 78, 10]
    else:
        assert record.points == (0, 44, 44, 0)
        assert record.lines[0].reason == (
            "shared the deal (p2 p3) with 5: 88 split 2 ways, rounded down"
        )
    assert state.detail.deals_won == (0, 1, 1, 0)


def stock_out(hands: Sequence[str], last: str, **settings: object) -> GameState:
    """The deal with these hands (changed in place) and one card left; everyone passes."""
    state = new_game(get_variant("carousel", **settings), players=len(hands), seed=2)
    state = state.replace(hands=tuple(parse_cards(hand) for hand in hands), stock=parse_cards(last))
    state = draw(state).apply(Pass(player=0))
    for player in range(1, len(hands)):
        state = state.apply(Pass(player=player))
    return state.apply(Pass(player=0))


@pytest.mark.parametrize(("award", "points"), [("each_full", 20), ("split", 10)])
def test_rule_2_17_ties_for_lowest_without_a_knock(award: str, points: int) -> None:
    # p1 holds 9 + the 1 it draws = 10, p2 10, p3 30: each tied player scores
    # (10 − 10) + (30 − 10) = 20 (each_full) or 20 split two ways (split)
    state = stock_out(["9c", "Tc", "Td Th Ts"], "Ac", tie_award=award)
    record = state.deal_results[0]
    assert record.ended_by == "the stock ran out"
    assert record.points == (points, points, 0)
    assert state.detail.deals_won == (1, 1, 0)


def test_rule_2_14_the_count_is_every_card_left_in_hand_melds_included() -> None:
    # p1 holds a meld it never laid down: it still counts, 7 + 8 + 9 = 24 against p2's 20
    state = stock_out(["7h 8h", "Td Th"], "9h")
    assert state.deal_results[0].points == (0, 4)


def test_rule_2_18_the_match_ends_with_bonuses() -> None:
    state = after_meld()
    state = state.replace(scores=(100, 60), detail=attrs.evolve(state.detail, deals_won=(1, 2)))
    state = state.apply(Knock(player=0))
    # p1: 100 + 65 = 165 ≥ 150: +100, and 2 deals won: +50 → 315; p2: 60 + 2 x 25 = 110
    assert state.is_over
    assert state.result is not None
    assert state.result.scores == (315, 110)
    assert state.scores == (315, 110)
    assert state.result.winners == (0,)
    assert [str(line) for line in state.result.lines] == [
        "p1: +100 (reached 150 (165))",
        "p1: +50 (won 2 deals x25)",
        "p2: +50 (won 2 deals x25)",
    ]
    assert state.phase is Phase.MATCH_OVER
    assert state.legal_actions() == ()


def test_rule_2_18_a_tie_in_the_final_totals_is_a_shared_win() -> None:
    state = after_meld()
    # p1: 100 + 65 + 100 + 2 x 25 = 315; p2: 165 + 100 + 2 x 25 = 315
    state = state.replace(scores=(100, 165), detail=attrs.evolve(state.detail, deals_won=(1, 2)))
    state = state.apply(Knock(player=0))
    assert state.result is not None
    assert state.result.scores == (315, 315)
    assert state.result.winners == (0, 1)


def test_rule_2_18_target_score_setting() -> None:
    state = after_meld(target_score=60).apply(Knock(player=0))
    # 65 ≥ 60: +100, +25 for the deal
    assert state.result is not None
    assert state.result.scores == (190, 0)


# ------------------------------------------------------------------------------------------
# Observations, automatic play and the greedy bot


def test_observation_and_auto_action() -> None:
    state = start(TURN, stock="Qd 3d")
    observation = state.observation(1)
    assert observation.hand == state.hands[1]
    assert observation.legal_actions == ()
    assert dict(observation.public) == {"draws": 0, "final_turns": (), "deals_won": (0, 0)}
    assert state.auto_action() == DrawStock(player=0)
    state = draw(state)
    assert state.auto_action() == DrawStock(player=0)
    assert dict(state.observation(1).public)["draws"] == 1
    assert after_meld().auto_action() == Pass(player=0)


def test_greedy_bot_melds_with_best_play_and_knocks() -> None:
    state = draw(start(TURN, stock=KNOCK_STOCK))
    action = GreedyBot().choose(state.observation(0))
    play = best_play(state.table, state.hands[0], RULES, objective="points")
    assert play is not None
    assert action == Rearrange(player=0, table=play.table)
    state = state.apply(action)
    assert GreedyBot().choose(state.observation(0)) == Knock(player=0)


# ------------------------------------------------------------------------------------------
# The move finder against a brute-force oracle

# Positions are small: a few ranks at both ends (so aces go high and low), three suits, two
# packs, up to two jokers.
SMALL_RANKS = (1, 2, 3, 4, 5, 11, 12, 13)
SMALL_SUITS = (0, 1, 2)


def card_at(suit: int, rank: int) -> Card:
    return CARDS[suit * 13 + rank - 1]


Shape = tuple[tuple[Card, ...], tuple[Card, ...]]


def with_jokers(slots: Sequence[Card], jokers: int) -> list[Shape]:
    """The ways to fill these slots with small-deck naturals and at most ``jokers`` jokers."""
    shapes = []
    for count in range(min(jokers, len(slots) - 1) + 1):
        for chosen in itertools.combinations(range(len(slots)), count):
            naturals = [card for n, card in enumerate(slots) if n not in chosen]
            if all(
                card.rank in SMALL_RANKS and card.index // 13 in SMALL_SUITS for card in naturals
            ):
                shapes.append((tuple(naturals), tuple(slots[n] for n in chosen)))
    return shapes


@functools.cache
def meld_shapes(jokers: int) -> tuple[Shape, ...]:
    """Every (naturals, joker identities) that is a legal Carousel meld over the small deck.

    Written independently of the solver: runs are windows of positions 1…14 (14 is the high
    ace) of length 3–13 within one suit, groups are 3–4 distinct suits of one rank; any slots
    (but at least one natural) may be jokers.
    """
    shapes = []
    for suit in SMALL_SUITS:
        for low in range(1, 15):
            for high in range(low + 2, min(low + 12, 14) + 1):
                slots = [card_at(suit, 1 if p == 14 else p) for p in range(low, high + 1)]
                shapes += with_jokers(slots, jokers)
    for rank in SMALL_RANKS:
        for size in (3, 4):
            for suits in itertools.combinations(range(4), size):
                shapes += with_jokers([card_at(suit, rank) for suit in suits], jokers)
    return tuple(shapes)


class Oracle:
    """The joker identities with which a multiset of cards can be cut into melds."""

    def __init__(self, jokers: int) -> None:
        self.jokers = jokers
        self.shapes = meld_shapes(jokers)
        self.by_card: dict[Card, list[tuple[Counter[Card], tuple[Card, ...]]]] = {}
        for naturals, identities in self.shapes:
            for card in set(naturals):
                self.by_card.setdefault(card, []).append((Counter(naturals), identities))

    @functools.cache  # noqa: B019  (one oracle per position)
    def readings(self, naturals: tuple[Card, ...], jokers: int) -> frozenset[tuple[Card, ...]]:
        if not naturals:
            return frozenset({()}) if jokers == 0 else frozenset()
        counts = Counter(naturals)
        lowest = min(counts, key=lambda card: card.index)
        found: set[tuple[Card, ...]] = set()
        for needed, identities in self.by_card.get(lowest, []):
            if len(identities) > jokers or needed - counts:
                continue
            rest = tuple(sorted((counts - needed).elements(), key=lambda card: card.index))
            for tail in self.readings(rest, jokers - len(identities)):
                found.add(tuple(sorted((*identities, *tail), key=lambda card: card.index)))
        return frozenset(found)


def oracle_best(
    table: Sequence[Meld],
    hand: Sequence[Card],
    *,
    jokers: str,
    source: str = "hand_or_table",
    objective: str = "cards",
) -> int:
    """The most cards (or points) a legal meld action can play, by trying every subset."""
    table_cards = Counter(card for meld in table for card in meld.cards)
    declared = Counter(
        stands
        for meld in table
        for card, stands in zip(meld.cards, meld.stands_for, strict=True)
        if card.is_joker
    )
    hand_jokers = sum(card.is_joker for card in hand)
    oracle = Oracle(table_cards[JOKER] + hand_jokers)
    naturals = [card for card in hand if not card.is_joker]
    best = 0
    seen: set[tuple[Card, ...]] = set()
    for size in range(len(naturals) + 1):
        for chosen in itertools.combinations(naturals, size):
            key = tuple(sorted(chosen, key=lambda card: card.index))
            if key in seen:
                continue
            seen.add(key)
            for joker_count in range(hand_jokers + 1):
                played = list(chosen) + [JOKER] * joker_count
                if not played:
                    continue
                value = len(played) if objective == "cards" else hand_points(played, POINTS)
                if value <= best:
                    continue
                final = table_cards + Counter(chosen)
                final_naturals = tuple(
                    sorted(
                        (final - Counter({JOKER: final[JOKER]})).elements(), key=lambda c: c.index
                    )
                )
                total_jokers = table_cards[JOKER] + joker_count
                for identities in oracle.readings(final_naturals, total_jokers):
                    if jokers == "free" or keeps_identities(
                        declared, Counter(identities), final, Counter(chosen), source
                    ):
                        best = value
                        break
    return best


def keeps_identities(
    declared: Counter[Card],
    identities: Counter[Card],
    final: Counter[Card],
    from_hand: Counter[Card],
    source: str,
) -> bool:
    """Rule 2.10, written out: every joker that no longer stands for X is replaced by an X."""
    for card, count in declared.items():
        lost = count - identities[card]
        if lost <= 0:
            continue
        available = from_hand[card] if source == "hand_only" else final[card]
        if available < lost:
            return False
    return True


def random_position(seed: int) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """A small table of legal melds (jokers declared) and a hand of 2–6 cards."""
    rng = random.Random(seed)
    pool = Counter({card_at(suit, rank): 2 for suit in SMALL_SUITS for rank in SMALL_RANKS})
    jokers_left = rng.choice((0, 1, 1, 2, 2))
    table: list[Meld] = []
    for _ in range(rng.randint(0, 3)):
        options = [
            (naturals, identities)
            for naturals, identities in meld_shapes(jokers_left)
            if len(naturals) + len(identities) <= 5 and not Counter(naturals) - pool
        ]
        if not options:
            break
        naturals, identities = rng.choice(options)
        pool -= Counter(naturals)
        jokers_left -= len(identities)
        table.append(shape_meld(naturals, identities))
    hand = rng.sample(sorted(pool.elements(), key=lambda card: card.index), rng.randint(2, 6))
    hand += [JOKER] * (jokers_left if rng.random() < 0.7 else 0)
    return tuple(table), tuple(hand)


def shape_meld(naturals: Sequence[Card], identities: Sequence[Card]) -> Meld:
    fixed = list(naturals) + list(identities)
    is_group = len({card.rank for card in fixed}) == 1
    ace_high = any(card.rank == 13 for card in fixed)

    def order(item: tuple[Card, Card]) -> int:
        stands = item[1]
        if is_group:
            return stands.index
        return 14 if stands.rank == 1 and ace_high else int(stands.rank or 0)

    items = sorted(
        [(card, card) for card in naturals] + [(JOKER, card) for card in identities], key=order
    )
    kind = MeldKind.GROUP if is_group else MeldKind.RUN
    if len(fixed) >= 3 and is_group and len({card.suit for card in fixed}) == 1:
        kind = MeldKind.RUN  # pragma: no cover
    return Meld(kind, [item[0] for item in items], [item[1] for item in items])


MODES = [
    ("locked", "hand_or_table", "cards"),
    ("locked", "hand_only", "cards"),
    ("locked", "hand_or_table", "points"),
    ("free", "hand_or_table", "cards"),
    ("free", "hand_or_table", "points"),
]


@given(st.integers(0, 10**9), st.sampled_from(MODES))
@settings(deadline=None)
def test_best_play_matches_a_brute_force_oracle(seed: int, mode: tuple[str, str, str]) -> None:
    table, hand = random_position(seed)
    jokers, source, objective = mode
    play = best_play(table, hand, RULES, objective=objective, jokers=jokers, replacement=source)
    expected = oracle_best(table, hand, jokers=jokers, source=source, objective=objective)
    got = 0 if play is None else (play.card_count if objective == "cards" else play.points)
    assert got == expected, (jokers, source, objective, [str(m) for m in table], hand)
    if play is None:
        return
    # the answer is a legal meld action: checked by the variant (locked) or by hand (free)
    if jokers == "locked":
        Carousel(joker_replacement_source=source).check_rearrangement(table, hand, play.table)
    else:
        for meld in play.table:
            meld.check(RULES)
    new_cards = Counter(card for meld in play.table for card in meld.cards)
    old_cards = Counter(card for meld in table for card in meld.cards)
    assert new_cards == old_cards + Counter(play.played)
    assert not Counter(play.played) - Counter(hand)


def test_best_play_examples() -> None:
    # nothing fits
    assert best_play((), parse_cards("2c 9h Kd"), RULES) is None
    assert best_play(melds("5h 6h 7h"), (), RULES) is None
    # a run rebuilt: 4h joins the low end, 9h and Th the top
    play = best_play(melds("5h 6h 7h 8h"), parse_cards("4h 9h Th Kc"), RULES)
    assert play is not None
    assert [str(meld) for meld in play.table] == ["4h 5h 6h 7h 8h 9h Th"]
    assert (format_cards(play.played), play.points) == ("4h 9h Th", 23)
    # one joker: 2d 3d *=4d 5d 6d is five cards worth 41, Jc Qc *=Kc three worth 45
    hand = parse_cards("2d 3d 5d 6d Jc Qc *")
    most_cards = best_play((), hand, RULES, objective="cards")
    most_points = best_play((), hand, RULES, objective="points")
    assert most_cards is not None
    assert most_points is not None
    assert (most_cards.card_count, most_cards.points) == (5, 41)
    assert (most_points.card_count, most_points.points) == (3, 45)


def test_best_play_locked_joker_needs_its_card() -> None:
    table = melds("*=4s 5s 6s 7s")
    # free identities: the joker may leave 5s 6s 7s to make 9c 9h *=9d; locked it may not
    hand = parse_cards("9c 9h")
    assert best_play(table, hand, RULES, jokers="locked") is None
    free = best_play(table, hand, RULES, jokers="free")
    assert free is not None
    assert free.card_count == 2
    # with the 4s in hand the joker is freed
    locked = best_play(table, parse_cards("9c 9h 4s"), RULES)
    assert locked is not None
    assert locked.card_count == 3


def test_best_play_when_a_freed_joker_has_nowhere_to_go() -> None:
    # the 7s would fill the group, but the joker it frees fits in no meld: nothing to play
    table = melds("7c 7d 7h *=7s")
    for jokers in ("locked", "free"):
        assert best_play(table, parse_cards("7s"), RULES, jokers=jokers) is None
    # with Kd Qd in hand the joker goes to Qd Kd *=Ad (or *=Jd), and all three cards go down
    play = best_play(table, parse_cards("7s Qd Kd"), RULES)
    assert play is not None
    assert play.card_count == 3


def test_best_play_refuses_unsupported_rules() -> None:
    for rules, reason in (
        (MeldRules(ace="wrap"), "ace=wrap"),
        (MeldRules(joker_beside_ace=False), "joker_beside_ace=False"),
        (MeldRules(min_size=4, max_group_size=4), "min_size=4"),
        (MeldRules(max_run_size=4), "max_run_size=4"),
    ):
        with pytest.raises(ConfigurationError, match=reason):
            best_play((), parse_cards("2c 3c 4c"), rules)
    with pytest.raises(ConfigurationError, match="3 jokers"):
        best_play((), parse_cards("2c * * *"), RULES)
    with pytest.raises(ConfigurationError, match="objective"):
        best_play((), parse_cards("2c"), RULES, objective="speed")
    with pytest.raises(ConfigurationError, match="jokers"):
        best_play((), parse_cards("2c"), RULES, jokers="wild")


def test_best_play_with_aces_low_only_and_capped_runs() -> None:
    rules = MeldRules(ace="low", max_run_size=5)
    play = best_play((), parse_cards("Qh Kh Ah 2h 3h 4h 5h 6h"), rules)
    assert play is not None
    # Q K A is not a run with aces low: A…6 is cut into two runs of at most 5
    assert [str(meld) for meld in play.table] == ["Ah 2h 3h", "4h 5h 6h"]
    high = best_play((), parse_cards("Qh Kh Ah 2h"), MeldRules(ace="high"))
    assert high is not None
    assert [str(meld) for meld in high.table] == ["Qh Kh Ah"]


def test_hand_melds_is_the_one_find_melds() -> None:
    # Carousel's faster scan became find_melds itself (tested against brute force in
    # tests/test_melds.py); the old name stays importable.
    assert hand_melds is find_melds


# ------------------------------------------------------------------------------------------
# The engine under random play with random rearrangements


def random_action(state: GameState, rng: random.Random) -> Action:
    """A random legal action; in a meld phase, sometimes the best rearrangement instead."""
    player = state.to_act[0]
    variant = state.variant
    assert isinstance(variant, Carousel)
    if state.phase in {Phase.PLAY, Phase.FINAL_TURN} and rng.random() < 0.5:
        objective = rng.choice(("cards", "points"))
        play = best_play(
            state.table,
            state.hands[player],
            RULES,
            objective=objective,
            replacement=variant.joker_replacement_source,
        )
        if play is not None:
            return Rearrange(player=player, table=play.table)
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("players", [2, 3, 5])
def test_engine_invariants_under_random_play(players: int) -> None:
    rng = random.Random(players)
    variant = get_variant("carousel", target_score=60)
    state = new_game(variant, players=players, seed=players)
    deck = Counter(state.variant.deck_for(players))
    for step in range(250):
        if state.is_over:
            assert GameState.from_json(state.to_json()) == state
            state = new_game(variant, players=players, seed=players * 100 + step)
        assert state.all_cards() == deck
        legal = state.legal_actions()
        assert all(state.legal_actions(player) for player in state.to_act)  # R9
        for action in rng.sample(legal, min(4, len(legal))):
            state.verify(action)
        player = state.to_act[0]
        probes: list[Action] = [DrawStock(player=player), Knock(player=player), Pass(player=player)]
        for probe in probes:
            assert (probe in legal) == state.is_legal(probe)
        action = random_action(state, rng)
        before = state.to_json()
        after = state.apply(action)
        assert state.to_json() == before  # apply never changes the old state
        if isinstance(action, Rearrange) and after.deal_number == state.deal_number:
            # the cards that left the hand are exactly the cards that joined the table
            left = Counter(state.hands[action.player]) - Counter(after.hands[action.player])
            joined = Counter(c for m in after.table for c in m.cards) - Counter(
                c for m in state.table for c in m.cards
            )
            assert left == joined
            assert left
        state = after
    assert GameState.from_json(state.to_json()) == state


def test_random_bot_match_to_the_end() -> None:
    state = new_game(get_variant("carousel", target_score=40), players=2, seed=11)
    bots: list[Bot] = [RandomBot(seed=1), GreedyBot()]
    for _ in range(2000):
        if state.is_over:
            break
        player = state.to_act[0]
        state = state.apply(bots[player].choose(state.observation(player)))
    assert state.is_over
    assert state.result is not None
    assert max(state.result.scores) >= 40
    assert sum(1 for line in state.result.lines if "reached" in line.reason) >= 1
    assert isinstance(state.detail, CarouselDetail)
    assert GameState.from_json(state.to_json()) == state


# -- points settled on review (RULES.md section 5) ---------------------------------------------


def test_r10_a_rearrangement_is_stored_in_canonical_readings() -> None:
    state = joker_table()
    written = state.apply(Rearrange(player=1, table=melds("Ts 8s 7s 9s", "*=9s 9h 9d 9c")))
    ordered = state.apply(Rearrange(player=1, table=melds("7s 8s 9s Ts", "9c 9d 9h *=9s")))
    assert [str(meld) for meld in written.table] == ["7s 8s 9s Ts", "9c 9d 9h *=9s"]
    assert written == ordered
    assert GameState.from_json(written.to_json()) == written


def test_the_table_solver_lives_in_the_core_and_keeps_its_old_import_path() -> None:
    assert carousel_module.best_play is table_module.best_play
    assert carousel_module.Play is table_module.Play
    assert carousel_module.JokerReplacementSource is table_module.JokerReplacementSource


# ------------------------------------------------------------------------------------------
# The move finder with wild cards (DESIGN.md section 11): a card of a wild rank is a joker
# anywhere but in its own natural place, where it is itself.


def oracle_best_wild(
    table: Sequence[Meld],
    hand: Sequence[Card],
    rules: MeldRules,
    *,
    jokers: str,
    source: str,
    objective: str,
) -> int:
    """``oracle_best`` where each wild card on the final table is read as itself or a joker."""
    wild = rules.wild_ranks

    def is_wild(card: Card) -> bool:
        return not card.is_joker and card.rank in wild

    table_cards = Counter(card for meld in table for card in meld.cards)
    declared = Counter(
        stands
        for meld in table
        for card, stands in zip(meld.cards, meld.stands_for, strict=True)
        if card is not stands
    )
    capable = sum(count for card, count in table_cards.items() if card.is_joker or is_wild(card))
    capable += sum(card.is_joker or is_wild(card) for card in hand)
    oracle = Oracle(capable)
    best = 0
    seen: set[tuple[int, ...]] = set()
    for size in range(1, len(hand) + 1):
        for chosen in itertools.combinations(hand, size):
            key = tuple(sorted(card.index for card in chosen))
            if key in seen:
                continue
            seen.add(key)
            value = (
                len(chosen)
                if objective == "cards"
                else hand_points(chosen, POINTS, wild_ranks=wild)
            )
            if value <= best:
                continue
            final = table_cards + Counter(chosen)
            wild_cards = sorted(
                (card for card in final.elements() if is_wild(card)), key=lambda c: c.index
            )
            plain = [card for card in final.elements() if not card.is_joker and not is_wild(card)]
            if any(
                fits(
                    oracle,
                    declared,
                    final,
                    Counter(chosen),
                    plain,
                    wild_cards,
                    roles,
                    jokers,
                    source,
                )
                for roles in itertools.product((False, True), repeat=len(wild_cards))
            ):
                best = value
    return best


def fits(  # noqa: PLR0917  (the oracle's position, spelled out)
    oracle: Oracle,
    declared: Counter[Card],
    final: Counter[Card],
    from_hand: Counter[Card],
    plain: Sequence[Card],
    wild_cards: Sequence[Card],
    roles: Sequence[bool],
    jokers: str,
    source: str,
) -> bool:
    """Whether the final cards meld with these wild cards as jokers (``True``) or themselves."""
    naturals = [
        *plain,
        *(card for card, as_joker in zip(wild_cards, roles, strict=True) if not as_joker),
    ]
    natural_counts = Counter(naturals)
    joker_count = final[JOKER] + sum(roles)
    ordered = tuple(sorted(naturals, key=lambda card: card.index))
    for identities in oracle.readings(ordered, joker_count):
        if jokers == "free":
            return True
        new = Counter(identities)
        if all(
            (
                min(from_hand[card], natural_counts[card])
                if source == "hand_only"
                else natural_counts[card]
            )
            >= count - new[card]
            for card, count in declared.items()
        ):
            return True
    return False


def random_wild_position(
    seed: int,
) -> tuple[tuple[Meld, ...], tuple[Card, ...], MeldRules]:
    """A small position with a wild rank and at most two cards that may be jokers.

    Drawn as :func:`random_position` draws one; then some printed jokers become wild cards
    standing in (on the table, for the same card; in the hand, as themselves).
    """
    rng = random.Random(seed)
    for attempt in range(1000):
        table, hand = random_position(seed * 1000 + attempt)
        rank = rng.choice(SMALL_RANKS)
        rules = attrs.evolve(RULES, wild_ranks={rank})
        capable = sum(
            card.is_joker or card.rank == rank
            for card in (*hand, *(card for meld in table for card in meld.cards))
        )
        if capable <= 2:
            break

    def wild_card() -> Card:
        return card_at(rng.choice(SMALL_SUITS), rank)

    converted = []
    for meld in table:
        cards = [
            wild_card() if card.is_joker and rng.random() < 0.5 else card for card in meld.cards
        ]
        converted.append(Meld(meld.kind, cards, meld.stands_for))
    hand = tuple(wild_card() if card.is_joker and rng.random() < 0.5 else card for card in hand)
    return tuple(converted), hand, rules


@given(st.integers(0, 10**9), st.sampled_from(MODES))
@settings(deadline=None)
def test_best_play_with_wild_cards_matches_a_brute_force_oracle(
    seed: int, mode: tuple[str, str, str]
) -> None:
    table, hand, rules = random_wild_position(seed)
    jokers, source, objective = mode
    play = best_play(table, hand, rules, objective=objective, jokers=jokers, replacement=source)
    expected = oracle_best_wild(
        table, hand, rules, jokers=jokers, source=source, objective=objective
    )
    got = 0 if play is None else (play.card_count if objective == "cards" else play.points)
    shown = [str(meld) for meld in table], format_cards(hand), sorted(rules.wild_ranks)
    assert got == expected, (mode, shown)
    if play is None:
        return
    if jokers == "locked":
        refusal = rearrangement_refusal(
            table, hand, play.table, rules, JokerReplacementSource(source)
        )
        assert refusal is None, shown
    for meld in play.table:
        meld.check(rules)
    new_cards = Counter(card for meld in play.table for card in meld.cards)
    old_cards = Counter(card for meld in table for card in meld.cards)
    assert new_cards == old_cards + Counter(play.played)
    assert not Counter(play.played) - Counter(hand)
    assert play.points == hand_points(play.played, POINTS, wild_ranks=rules.wild_ranks)


def test_best_play_wild_examples() -> None:
    sevens = attrs.evolve(RULES, wild_ranks={Rank.SEVEN})
    # A wild 7c from the hand stands in for 6h: 5h 7c=6h 7h 8h; the 7h stays itself.
    play = best_play((parse_meld("7h 8h 9h", sevens),), parse_cards("5h 7c"), sevens)
    assert play is not None
    assert format_cards(play.played) == "7c 5h"
    [meld] = play.table
    assert (format_cards(meld.stands_for), meld.is_pure) == ("5h 6h 7h 8h 9h", False)
    # The wild 7c of 6c 7c 8c could stand in for Kc beside Kd Ks, but then 6c 8c would be no
    # meld: only 9c can go down.
    table = (parse_meld("6c 7c 8c", sevens),)
    play = best_play(table, parse_cards("Kd Ks 9c"), sevens)
    assert play is not None
    assert play.card_count == 1  # 9c; the kings need a third card
    # Locked: a wild card standing for 5s keeps that identity unless a natural 5s joins.
    table = (parse_meld("4s 7d=5s 6s", sevens),)
    assert best_play(table, parse_cards("9c 9h"), sevens) is None
    freed = best_play(table, parse_cards("9c 9h 5s"), sevens)
    assert freed is not None
    assert freed.card_count == 3
    assert sorted(str(meld) for meld in freed.table) == ["4s 5s 6s", "9c 7d=9d 9h"]


def test_best_play_counts_wild_cards_towards_its_joker_limit() -> None:
    sevens = attrs.evolve(RULES, wild_ranks={Rank.SEVEN})
    with pytest.raises(ConfigurationError, match=r"4 jokers and wild cards with min_naturals=1"):
        best_play((parse_meld("7c 7d 7h", sevens),), parse_cards("*"), sevens)


def test_rule_2_10_the_table_solver_is_asked_with_the_table_s_joker_replacement_rule() -> None:
    # The env's listed plays and every other caller of best_play read the variant's rule
    # through Variant.joker_replacement, never the setting by name.
    from rummylib import get_variant  # noqa: PLC0415
    from rummylib.table import JokerReplacementSource  # noqa: PLC0415

    for source in JokerReplacementSource:
        variant = get_variant("carousel", joker_replacement_source=source.value)
        assert variant.joker_replacement() is source
    assert get_variant("gin").joker_replacement() is JokerReplacementSource.HAND_OR_TABLE
