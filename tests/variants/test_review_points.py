"""The points settled on review, RULES.md section 5: R2 to R8, one or more tests each.

(R1, R9 and R10 have their own tests elsewhere.) Every position is built from a stacked deck
(:func:`rummylib.state.stack_deck`) and explicit actions; where a point can only be reached
from a constructed position (R7), the position is made with :meth:`GameState.replace`,
keeping every card of the deck somewhere. Expected values are worked out by hand from the
rules text in the comments, never computed by the code under test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from rummylib import (
    Card,
    GameState,
    IllegalActionError,
    Meld,
    Phase,
    get_variant,
    new_game,
    parse_card,
    parse_cards,
    parse_meld,
)
from rummylib.actions import (
    Action,
    DeclareRummy,
    Discard,
    Disconnect,
    DrawStock,
    GiveUp,
    Knock,
    LayDown,
    LayOff,
    Pass,
    Rearrange,
    Rebuy,
    TakeDiscard,
    TakeOpenCard,
)
from rummylib.state import stack_deck

# -- helpers ---------------------------------------------------------------------------------


def start(
    name: str,
    hands: Sequence[str],
    *,
    face_up: str = "",
    stock: str = "",
    **settings: Any,
) -> GameState:
    """A match of ``name`` whose first deal deals exactly these hands (player 0 first)."""
    variant = get_variant(name, **settings)
    deck = stack_deck(variant, hands, face_up=face_up, stock=stock)
    return new_game(variant, players=len(hands), seed=0, deck=deck)


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def melds(name: str, *texts: str) -> tuple[Meld, ...]:
    """Melds written as text under the rules of ``name``; jokers may be declared (``*=3h``)."""
    rules = get_variant(name).meld_rules
    return tuple(parse_meld(text, rules) for text in texts)


def refused(state: GameState, action: Action) -> None:
    """``action`` is refused, and the refusal leaves the state exactly as it was."""
    before = state.replace()
    text = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert not state.is_legal(action)
    assert state == before
    assert state.to_json() == text


def full_deck(state: GameState) -> Counter[Card]:
    return Counter(state.variant.deck_for(state.player_count))


def draw(player: int) -> DrawStock:
    return DrawStock(player=player)


def throw(player: int, card: str) -> Discard:
    return Discard(player=player, card=parse_card(card))


# -- R2: replacing a Carousel table joker is judged on the whole new table --------------------

# One pack and one joker (two players). p1 draws Ah and lays 7s 8s *=9s and the group
# 9c 9d 9h 9s (keeping 2c 3c Kd Ah = 16 points: no knock); p2 then draws Ks.
R2_TWO = ["7s 8s * 9h 9d 9c 9s 2c 3c Kd", "6s Js Qs Tc Jc 5d 5h 6h 4c 4d"]


def r2_two_players(**settings: Any) -> GameState:
    state = start("carousel", R2_TWO, stock="Ah Ks", **settings)
    state = play(state, draw(0), Rearrange(player=0, table=melds("carousel", *R2_LAID)))
    return state.apply(draw(1))


R2_LAID = ("7s 8s *=9s", "9c 9d 9h 9s")


def test_r2_a_natural_already_on_the_table_counts_as_the_replacement() -> None:
    state = r2_two_players()
    assert (state.phase, state.current_player) == (Phase.PLAY, 1)
    # p2 adds 6s and the joker becomes 5s; the natural 9s stays in the group, where it was.
    # Judged on the whole new table: it holds a natural 9s, which counts as the replacement.
    new = melds("carousel", "*=5s 6s 7s 8s", "9c 9d 9h 9s")
    assert state.is_legal(Rearrange(player=1, table=new))
    after = state.apply(Rearrange(player=1, table=new))
    assert [str(meld) for meld in after.table] == ["*=5s 6s 7s 8s", "9c 9d 9h 9s"]
    assert Counter(after.hands[1]) == Counter(parse_cards("Js Qs Tc Jc 5d 5h 6h 4c 4d Ks"))


def test_r2_hand_only_needs_the_natural_from_the_hand() -> None:
    # The same new table with joker_replacement_source="hand_only": no 9s came from the hand.
    state = r2_two_players(joker_replacement_source="hand_only")
    refused(state, Rearrange(player=1, table=melds("carousel", "*=5s 6s 7s 8s", "9c 9d 9h 9s")))


# Two packs and two jokers (three players). p1 draws Kd and lays 7s 8s *=9s, 9c 9d 9h *=9s
# and 9s Ts Js: both jokers stand for 9s and one natural 9s is on the table. p1 keeps Kd (10:
# no knock). p2 holds the other 9s and draws Kh.
R2_THREE = [
    "7s 8s * 9c 9d 9h * 9s Ts Js",
    "6s 9s 4h 5h 4c 5c Kc Qd Jd 2h",
    "Qc Jc Tc 8d 7d 3d 2d Ah Ad Ac",
]


def r2_two_jokers() -> GameState:
    state = start("carousel", R2_THREE, stock="Kd Kh")
    laid = melds("carousel", "7s 8s *=9s", "9c 9d 9h *=9s", "9s Ts Js")
    state = play(state, draw(0), Rearrange(player=0, table=laid))
    assert (state.phase, state.current_player) == (Phase.DRAW, 1)
    return state.apply(draw(1))


def test_r2_one_natural_replaces_one_joker() -> None:
    state = r2_two_jokers()
    # One joker leaves the group for 4h 5h *=6h: one 9s identity lost, one natural 9s on the
    # new table: legal.
    new = melds("carousel", "7s 8s *=9s", "9c 9d 9h", "9s Ts Js", "4h 5h *=6h")
    after = state.apply(Rearrange(player=1, table=new))
    assert after.table == new
    # The other way round: the natural 6s takes the run's joker, which goes to 4h 5h *=6h.
    new = melds("carousel", "6s 7s 8s", "9c 9d 9h *=9s", "9s Ts Js", "4h 5h *=6h")
    assert state.is_legal(Rearrange(player=1, table=new))


def test_r2_one_natural_cannot_replace_two_jokers() -> None:
    state = r2_two_jokers()
    # Both jokers lose their 9s identity, and the new table holds only one natural 9s.
    new = melds("carousel", "6s 7s 8s", "9c 9d 9h", "9s Ts Js", "4h 5h *=6h", "4c 5c *=6c")
    refused(state, Rearrange(player=1, table=new))
    # With p2's 9s added to the table there are two natural 9s: both jokers are replaced.
    new = melds("carousel", "6s 7s 8s 9s", "9c 9d 9h", "9s Ts Js", "4h 5h *=6h", "4c 5c *=6c")
    after = state.apply(Rearrange(player=1, table=new))
    assert after.table == new
    assert Counter(after.hands[1]) == Counter(parse_cards("Kc Qd Jd 2h Kh"))


# -- R3: a joker may stand for a card whose natural copy is on the table ----------------------


def test_r3_carousel_one_pack_joker_as_the_card_on_the_table() -> None:
    # One pack: p1 lays the group of all four eights; p2 lays 7s * 9s, where the joker can
    # only be 8s, the very card in the group.
    hands = ["8c 8d 8h 8s 2c 3c Kd Qd Jd 4h", "7s * 9s Kc Qc Jc Tc 5d 6d 2h"]
    state = start("carousel", hands, stock="Ah Ks")
    state = play(state, draw(0), Rearrange(player=0, table=melds("carousel", "8c 8d 8h 8s")))
    state = state.apply(draw(1))
    action = Rearrange(player=1, table=melds("carousel", "8c 8d 8h 8s", "7s *=8s 9s"))
    assert state.is_legal(action)
    assert action in state.legal_actions()  # a new meld from the hand is a listed meld action
    after = state.apply(action)
    assert [str(meld) for meld in after.table] == ["8c 8d 8h 8s", "7s *=8s 9s"]


def test_r3_rummy500_one_pack_lay_down_and_lay_off() -> None:
    # rummy500 with two players: one pack and two jokers. p1 lays 8c 8d 8s and Ts Js Qs and
    # discards Kd; p2 lays 7s * 9s (the joker can only be 8s, on the table in p1's group) and
    # lays the other joker off on Ts Js Qs as 9s (on the table in p2's own run).
    hands = ["8c 8d 8s Ts Js Qs 2h", "7s * 9s * 3c 5d Kh"]
    state = start("rummy500", hands, face_up="2d", stock="Kd 4h", hand_size=7)
    state = play(
        state,
        draw(0),
        LayDown(player=0, melds=melds("rummy500", "8c 8d 8s", "Ts Js Qs")),
        throw(0, "Kd"),
        draw(1),
    )
    lay_down = LayDown(player=1, melds=melds("rummy500", "7s *=8s 9s"))
    assert state.is_legal(lay_down)
    state = state.apply(lay_down)
    lay_off = LayOff(player=1, card=parse_card("*"), meld_index=1, stands_for=parse_card("9s"))
    assert state.is_legal(lay_off)
    assert lay_off in state.legal_actions()
    state = state.apply(lay_off)
    assert [str(meld) for meld in state.table] == ["8c 8d 8s", "*=9s Ts Js Qs", "7s *=8s 9s"]
    assert Counter(state.hands[1]) == Counter(parse_cards("3c 5d Kh 4h"))


def test_r3_israeli_declaration_with_a_natural_and_a_joker_for_the_same_card() -> None:
    # 8c 8d 8s | 7s *=8s 9s | 2h 3h 4h 5h | Kc Kd Kh, Qc drawn and discarded: the joker
    # stands for 8s next to the natural 8s of the group.
    hand = "8c 8d 8s 7s * 9s 2h 3h 4h 5h Kc Kd Kh"
    other = "Ts Js Qs Ks 6c 7c 8c 9c 2d 3d 4d 9h 5h"
    state = start("rummy101", [hand, other], face_up="Jh", stock="Qc").apply(draw(0))
    texts = ("8c 8d 8s", "7s *=8s 9s", "2h 3h 4h 5h", "Kc Kd Kh")
    action = DeclareRummy(player=0, discard=parse_card("Qc"), melds=melds("rummy101", *texts))
    assert state.is_legal(action)
    after = state.apply(action)
    assert after.phase is Phase.SHOW_MELDS
    assert Counter(str(meld) for meld in after.table) == Counter(texts)


# -- R4: no knocking in the final meld turns; they start after the last drawer -----------------

# Two players, one pack and a joker: 53 cards, 20 dealt, 33 in the stock. p1 never melds and
# draws three cards a turn; p2 melds 4h…9h and 4c 5c 6c on the first turn, keeping Ac 2d
# (3 points), then each turn draws one card that extends a run and adds it. Eight rounds use
# 8 x (3 + 1) = 32 cards; p1's ninth turn takes the last card as its first draw.
R4_HANDS = ["Kc Qc Jc Tc 9c Kd Qd Jd Td 9d", "4h 5h 6h 7h 8h 4c 5c 6c Ac 2d"]
R4_P2_DRAWS = ("9h", "Th", "Jh", "7c", "8c", "3h", "3c", "2c")
R4_P1_DRAWS = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ad 3d 4d 5d 6d 7d 8d Ah 2h Qh Kh *"


def r4_stock() -> str:
    p1 = R4_P1_DRAWS.split()
    rounds = [" ".join([*p1[3 * n : 3 * n + 3], card]) for n, card in enumerate(R4_P2_DRAWS)]
    return " ".join([*rounds, p1[-1]])


# p2's table after each of its turns: the hearts run, then the clubs run.
R4_TABLES = [
    ("4h 5h 6h 7h 8h 9h", "4c 5c 6c"),
    ("4h 5h 6h 7h 8h 9h Th", "4c 5c 6c"),
    ("4h 5h 6h 7h 8h 9h Th Jh", "4c 5c 6c"),
    ("4h 5h 6h 7h 8h 9h Th Jh", "4c 5c 6c 7c"),
    ("4h 5h 6h 7h 8h 9h Th Jh", "4c 5c 6c 7c 8c"),
    ("3h 4h 5h 6h 7h 8h 9h Th Jh", "4c 5c 6c 7c 8c"),
    ("3h 4h 5h 6h 7h 8h 9h Th Jh", "3c 4c 5c 6c 7c 8c"),
    ("3h 4h 5h 6h 7h 8h 9h Th Jh", "2c 3c 4c 5c 6c 7c 8c"),
]


def r4_final_turns(knock_timing: str) -> GameState:
    """The position when the final meld turns begin."""
    state = start(
        "carousel", R4_HANDS, stock=r4_stock(), knock_timing=knock_timing, target_score=10_000
    )
    for table in R4_TABLES:
        state = play(state, draw(0), draw(0), draw(0))
        assert (state.phase, state.current_player) == (Phase.DRAW, 1)
        state = state.apply(draw(1))
        state = state.apply(Rearrange(player=1, table=melds("carousel", *table)))
        assert Counter(state.hands[1]) == Counter(parse_cards("Ac 2d"))
        if state.phase is Phase.KNOCK_CHOICE:  # 3 points: a knock may be offered; p2 passes
            state = state.apply(Pass(player=1))
    assert len(state.stock) == 1
    state = state.apply(draw(0))  # the last card, p1's first draw of the turn
    assert state.stock == ()
    # p1 may still meld or pass; it passes, and the final meld turns begin with p2.
    return state.apply(Pass(player=0))


@pytest.mark.parametrize("knock_timing", ["any_time_in_turn", "start_of_turn", "after_draw"])
def test_r4_no_knock_in_the_final_meld_turns(knock_timing: str) -> None:
    state = r4_final_turns(knock_timing)
    # The player after the last drawer (p1) plays first: p2.
    assert (state.phase, state.current_player, state.to_act) == (Phase.FINAL_TURN, 1, (1,))
    # p2 holds Ac 2d, 3 points: within the knock limit, but no knock in a final meld turn.
    assert Counter(state.hands[1]) == Counter(parse_cards("Ac 2d"))
    assert Knock(player=1) not in state.legal_actions()
    refused(state, Knock(player=1))
    refused(state, draw(1))
    # p2 adds Ac below 2c…8c and holds 2d (2 points): still no knock, the turn passes to p1.
    table = melds("carousel", R4_TABLES[-1][0], "Ac 2c 3c 4c 5c 6c 7c 8c")
    state = state.apply(Rearrange(player=1, table=table))
    assert (state.phase, state.current_player, state.to_act) == (Phase.FINAL_TURN, 0, (0,))
    assert state.deal_number == 1
    refused(state, Knock(player=0))
    refused(state, Knock(player=1))
    # The last drawer plays last: after p1's final turn the deal is scored.
    state = state.apply(Pass(player=0))
    assert state.deal_number == 2
    # No knock, nobody went out: p2's 2 is lowest. p1 holds the other 35 cards: the pack
    # (4 x 85 = 340) and the joker (25) = 365, less p2's 18 cards: hearts 3–J (62), clubs
    # A–8 (36) and 2d (2) = 100, so 265. p2 scores 265 − 2 = 263, no bonus.
    assert state.deal_results[0].points == (0, 263)
    assert state.scores == (0, 263)


# -- R5: a rebuy never puts a player at or above the threshold --------------------------------

# P0_RUMMY declares with Ks (drawn) and Ac (discarded); the losers' best melds leave
# P1_HAND 50 points (x2 in the first deal = 100) and P3_HAND 14 (x2 = 28).
P0_RUMMY = "Ac 2c 3c 4c 5d 6d 7d 8d 9h 9s 9c Kh Kd"
P0_MELDS = ("2c 3c 4c", "5d 6d 7d 8d", "9h 9s 9c", "Kh Kd Ks")
P1_HAND = "2h 3h 4h 7s 7d 7c Qs Jd 5c 8s Th 6h Ad"
P3_HAND = "Ts Js Qs Ks 6c 7c 8c 9c 2d 3d 4d 9h 5h"


def israeli(name: str, scores: tuple[int, ...], **settings: Any) -> GameState:
    """Three players: p1 will declare; p2 pays 100, p3 28; totals before the deal ``scores``."""
    state = start(name, [P0_RUMMY, P1_HAND, P3_HAND], face_up="Jh", stock="Ks 5s", **settings)
    return state.replace(scores=scores)


def declare_and_give_up(state: GameState) -> GameState:
    declaration = DeclareRummy(
        player=0, discard=parse_card("Ac"), melds=melds("rummy101", *P0_MELDS)
    )
    return play(state, draw(0), declaration, GiveUp(player=1), GiveUp(player=2))


@pytest.mark.parametrize("rebuy_score", ["highest_remaining", "highest_remaining_plus_one"])
def test_r5_mandatory_rebuy_is_capped_below_the_threshold(rebuy_score: str) -> None:
    # p1 stays on 100 (declared), p2 goes 1 + 100 = 101 (out), p3 0 + 28 = 28. The highest
    # total still in is 100; plus one would be 101, the threshold, so both readings give 100.
    state = declare_and_give_up(israeli("rummy101", (100, 1, 0), rebuy_score=rebuy_score))
    assert state.scores == (100, 100, 28)
    assert state.players_in == (0, 1, 2)
    assert (state.phase, state.deal_number, state.pot) == (Phase.DRAW, 2, 4)


def test_r5_second_rebuy_is_capped_below_the_threshold() -> None:
    state = israeli("rummy101", (100, 1, 0), rebuy_score="highest_remaining_plus_one")
    state = state.replace(detail=attrs.evolve(state.detail, rebuys=(0, 1, 0)))
    state = declare_and_give_up(state)
    assert (state.phase, state.to_act) == (Phase.REBUY, (1,))
    state = state.apply(Rebuy(player=1))
    # Back in at min(100 + 1, 101 − 1) = 100, for two stakes: pot 3 + 2 = 5.
    assert state.scores == (100, 100, 28)
    assert (state.phase, state.deal_number, state.pot) == (Phase.DRAW, 2, 5)


def test_r5_rummy71_cap_is_70() -> None:
    # Threshold 71: p1 stays on 70, p2 goes 0 + 100 = 100 (out), p3 0 + 28 = 28. The highest
    # total still in is 70; plus one would be 71, so p2 is back in at 70.
    state = israeli("rummy71", (70, 0, 0), rebuy_score="highest_remaining_plus_one")
    state = declare_and_give_up(state)
    assert state.scores == (70, 70, 28)
    assert state.players_in == (0, 1, 2)
    assert state.result is None
    # Without the cap the plus-one reading is untouched below the threshold: 28 + 1 = 29.
    state = israeli("rummy71", (0, 0, 0), rebuy_score="highest_remaining_plus_one")
    state = declare_and_give_up(state)
    assert state.scores == (0, 29, 28)


# -- R6: Turkish dealt-hand ties, the cutthroat winner, the deal passing left -----------------

# p1's Kc and p2's Qh, 10 points each, are the leftovers of two dealt hands that meld.
R6_TIE = ["7h 8h 9h 4c 4d 4s Kc", "2c 3c 4c Td Jd Qd Qh"]


def test_r6_a_dealt_hand_tie_redeals_the_same_deal() -> None:
    state = start("turkish500", R6_TIE, hand_size=7, dealt_rummy_check=True)
    (record,) = state.deal_results
    assert (record.deal_number, record.points) == (1, (0, 0))
    # The same deal again: deal 1, the same dealer (the last seat) and first player, and no
    # second 30 in the pool.
    assert (state.deal_number, state.dealer, state.current_player) == (1, 1, 0)
    assert (state.phase, state.pot, state.scores) == (Phase.DRAW, 30, (0, 0))
    assert state.all_cards() == full_deck(state)
    # Lay the redealt deal out: p1 draws 4s, lays 7h 8h 9h Th and 4c 4d 4s, discards Kc.
    hands = ["7h 8h 9h Th 4c 4d Kc", "2c 5d 9s Jc 6h 8d 3s"]
    deck = stack_deck(state.variant, hands, stock="4s")
    state = state.replace(hands=tuple(parse_cards(hand) for hand in hands), stock=deck[14:])
    assert state.all_cards() == full_deck(state)
    melded = melds("turkish500", "7h 8h 9h Th", "4c 4d 4s")
    state = play(state, draw(0), LayDown(player=0, melds=melded), throw(0, "Kc"))
    record = state.deal_results[1]
    # Still deal 1. p1: 7 + 8 + 9 + 10 + 4 + 4 + 4 = 46 melded, + the pool of 30 (one deal's
    # worth); p2: −(2 + 5 + 9 + 10 + 6 + 8 + 3) = −43.
    assert (record.deal_number, record.points) == (1, (76, -43))
    assert [line.points for line in record.lines if line.player == 0][-1] == 30
    # Then the deal passes to the left: deal 2 is dealt by p1, p2 starts; a new pool of 30.
    assert (state.deal_number, state.dealer, state.current_player) == (2, 0, 1)
    assert (state.pot, state.scores) == (30, (76, -43))


def test_r6_cutthroat_the_player_who_went_out_wins_the_deal() -> None:
    # p1 draws Kc and throws it. p2 draws 6s, lays 9h Th Jh Qh Kh (49) and throws 8c,
    # keeping 7d 6s (13): a deal score of 49 − 13 = 36. p1 draws Kd, lays 2c 3c 4c 5c (14)
    # and 2d 3d 4d (9), throws Kd and is out with 23. p2's 36 is the best deal score, but the
    # winner is the player who went out: only p1 scores.
    hands = ["2c 3c 4c 5c 2d 3d 4d", "Kh Qh Jh Th 9h 8c 7d"]
    state = start("turkish500_cutthroat", hands, stock="Kc 6s Kd", hand_size=7)
    state = play(
        state,
        draw(0),
        throw(0, "Kc"),
        draw(1),
        LayDown(player=1, melds=melds("turkish500", "9h Th Jh Qh Kh")),
        throw(1, "8c"),
        draw(0),
        LayDown(player=0, melds=melds("turkish500", "2c 3c 4c 5c", "2d 3d 4d")),
        throw(0, "Kd"),
    )
    record = state.deal_results[0]
    assert record.points == (23, 0)
    assert state.scores == (23, 0)
    assert (state.deal_number, state.pot) == (2, 0)


# One pack, no jokers, 24 cards each, four cards of stock. Each hand is worth 178: clubs
# A–K 15 + 54 + 30 = 99 and hearts A–J 15 + 54 + 10 = 79 (diamonds and spades the same).
CLUBS_HEARTS = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh"
DIAMONDS_SPADES = "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js"


def test_r6_cutthroat_a_tie_without_anyone_out_has_no_winner() -> None:
    state = start(
        "turkish500_cutthroat",
        [CLUBS_HEARTS, DIAMONDS_SPADES],
        stock="Qh Kh Qs Ks",
        decks=1,
        jokers=0,
        hand_size=24,
    )
    # Each player draws a card and throws it back; after p2's second turn the stock is empty
    # and p1 cannot draw. Both score −178: the best scores tie, so nobody scores.
    state = play(state, draw(0), throw(0, "Qh"), draw(1), throw(1, "Kh"))
    state = play(state, draw(0), throw(0, "Qs"), draw(1), throw(1, "Ks"))
    record = state.deal_results[0]
    assert record.points == (0, 0)
    assert state.scores == (0, 0)
    assert (state.deal_number, state.dealer, state.current_player) == (2, 0, 1)


@pytest.mark.parametrize("name", ["turkish500", "turkish500_cutthroat", "rummy500"])
def test_r6_the_deal_passes_to_the_left_after_every_deal(name: str) -> None:
    state = new_game(get_variant(name, max_go_arounds=1), players=3, seed=4)
    seen = [(state.deal_number, state.dealer, state.current_player)]
    for _ in range(200):
        if state.deal_number == 4 or state.is_over:
            break
        number = state.deal_number
        state = state.apply(state.auto_action())
        if state.deal_number != number:
            seen.append((state.deal_number, state.dealer, state.current_player))
    # The last seat deals first; then p1, p2, p3 in turn, the player after the dealer first.
    assert seen == [(1, 2, 0), (2, 0, 1), (3, 1, 2), (4, 2, 0)]


# -- R7: a one-card discard pile cannot be reshuffled: the deal is void ------------------------


def r7_position(on_stock_exhausted: str, pile: int) -> GameState:
    """p1 to draw the last card of the stock (Ks) with ``pile`` cards on the discard pile.

    Such a position is not reached in play (the pile holds a card for every card drawn from
    the stock), so it is built: the other cards of the stock go to p2's hand.
    """
    state = start(
        "rummy101",
        [P0_RUMMY, P1_HAND],
        face_up="Jh",
        stock="Ks",
        on_stock_exhausted=on_stock_exhausted,
    )
    rest = state.stock[1:]
    state = state.replace(
        stock=state.stock[:1],
        discard_pile=rest[:pile],
        hands=(state.hands[0], (*state.hands[1], *rest[pile:])),
    )
    assert state.all_cards() == full_deck(state)
    return state


def test_r7_reshuffle_with_a_one_card_pile_voids_the_deal() -> None:
    after = {
        setting: play(r7_position(setting, pile=0), draw(0), throw(0, "Ks"))
        for setting in ("reshuffle", "void_deal")
    }
    state = after["reshuffle"]
    # The stock ran out and the pile is Ks alone: nothing to reshuffle. Void: nobody scores,
    # the same dealer (p2) deals the same deal again, still x2 as the first deal.
    (record,) = state.deal_results
    assert (record.deal_number, record.points) == (1, (0, 0))
    assert (state.deal_number, state.dealer, state.current_player) == (1, 1, 0)
    assert (state.phase, state.scores, state.multiplier) == (Phase.DRAW, (0, 0), 2)
    assert [len(hand) for hand in state.hands] == [13, 13]
    assert state.discard_pile == ()
    assert state.open_card is not None
    assert len(state.stock) == 108 - 26 - 1
    assert state.all_cards() == full_deck(state)
    # Exactly as with on_stock_exhausted="void_deal".
    void = after["void_deal"]
    for name in (
        "deal_results",
        "deal_number",
        "dealer",
        "phase",
        "current_player",
        "hands",
        "stock",
        "discard_pile",
        "open_card",
        "scores",
        "multiplier",
        "pot",
    ):
        assert getattr(state, name) == getattr(void, name), name


def test_r7_reshuffle_with_two_cards_keeps_the_deal_going() -> None:
    state = r7_position("reshuffle", pile=1)
    under = state.discard_pile[0]
    state = play(state, draw(0), throw(0, "Ks"))
    # The pile was one card and Ks on top: Ks stays, the other card is the new stock.
    assert (state.stock, state.discard_pile) == ((under,), (parse_card("Ks"),))
    assert (state.deal_results, state.deal_number, state.current_player) == ((), 1, 1)


# -- R8: auto-play draws from the stock, never a face-up card ----------------------------------


def test_r8_auto_play_ignores_the_open_card() -> None:
    # The open card is a joker, and p1 could take it; a disconnected p1 draws from the stock.
    state = start("rummy101", [P1_HAND, P3_HAND], face_up="*", stock="5s").apply(
        Disconnect(player=0)
    )
    assert state.is_legal(TakeOpenCard(player=0))
    assert state.auto_action() == DrawStock(player=0)
    state = state.apply(state.auto_action())
    assert state.hands[0][-1] == parse_card("5s")
    assert state.open_card == parse_card("*")
    # The second player's first turn is still in the first go-around: the same.
    state = play(state, state.auto_action(), Disconnect(player=1))
    assert state.current_player == 1
    assert state.is_legal(TakeOpenCard(player=1))
    assert state.auto_action() == DrawStock(player=1)


def test_r8_auto_play_ignores_the_top_discard() -> None:
    # p1 draws Ks and throws it; p2 holds P0_RUMMY, for which Ks on the pile is a rummy.
    state = start("rummy101", [P1_HAND, P0_RUMMY], face_up="Jh", stock="Ks 5s")
    state = play(state, draw(0), throw(0, "Ks"), Disconnect(player=1))
    assert state.discard_pile == (parse_card("Ks"),)
    assert state.is_legal(TakeDiscard(player=1))
    assert state.auto_action() == DrawStock(player=1)
    state = state.apply(state.auto_action())
    assert state.hands[1][-1] == parse_card("5s")
    assert state.discard_pile == (parse_card("Ks"),)
    # Connected or not, the engine's move for the player is the same draw from the stock.
    connected = play(
        start("rummy101", [P1_HAND, P0_RUMMY], face_up="Jh", stock="Ks 5s"),
        draw(0),
        throw(0, "Ks"),
    )
    assert connected.auto_action() == DrawStock(player=1)
