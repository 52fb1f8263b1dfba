"""Gin Rummy (docs/rules/gin.rst, section 4), rule by rule.

Decks are stacked with :func:`deal`: player 0's ten cards, player 1's ten, the upcard, then the
top of the stock; the rest of the stock follows in canonical deck order. Expected deadwood and
scores are worked out by hand in the comments, never with the code under test.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import (
    ConfigurationError,
    GameState,
    IllegalActionError,
    Meld,
    Phase,
    get_variant,
    is_meld,
    make_deck,
    new_game,
    parse_card,
    parse_cards,
)
from rummylib.actions import (
    Action,
    Discard,
    DrawStock,
    Knock,
    LayDown,
    LayOff,
    Pass,
    TakeDiscard,
)
from rummylib.bots import GreedyBot, RandomBot, play
from rummylib.state import stack_deck
from rummylib.strategies import games
from rummylib.testing import assert_cards_conserved
from rummylib.variants.gin import RULES, GinDetail, GinPhase, GinRummy, least_deadwood

ONE_DEAL = GinRummy(target_score=None)
State = GameState[GinDetail]

# Player 0 holds three melds and Kc; the upcard 5d lets it knock with 5 (discarding Kc).
KNOCKER = "2s 3s 4s 7c 7d 7h 9h Th Jh Kc"
# Player 1: 5s fits 2s-4s, 8h and Qh fit 9h-Jh, Qc Qd Qh is a group; 4d 6d 9c 2c Ac are 22.
DEFENDER = "5s 8h Qh Qc Qd 4d 6d 9c 2c Ac"


def deal(
    first: str, second: str, upcard: str, stock: Sequence[str] = (), variant: GinRummy = ONE_DEAL
) -> State:
    deck = stack_deck(variant, [first, second], face_up=upcard, stock=" ".join(stock))
    return new_game(variant, players=2, seed=0, deck=deck)


def meld(text: str) -> Meld:
    return Meld.from_cards(parse_cards(text), RULES)


def lay(state: State, player: int, *melds: str) -> State:
    for text in melds:
        state = state.apply(LayDown(player=player, melds=(meld(text),)))
    return state


def knocked(state: State, discard: str, *melds: str) -> State:
    """Player 0 takes the upcard, knocks, discards and lays its melds, then passes."""
    state = state.apply(TakeDiscard(player=0)).apply(Knock(player=0))
    state = state.apply(Discard(player=0, card=parse_card(discard)))
    return lay(state, 0, *melds).apply(Pass(player=0))


def knock_deal(variant: GinRummy = ONE_DEAL) -> State:
    """The knock deal up to the defender's lay-offs (the knocker keeps 5d: 5 points)."""
    state = deal(KNOCKER, DEFENDER, "5d", variant=variant)
    return knocked(state, "Kc", "2s 3s 4s", "7c 7d 7h", "9h Th Jh")


def reason(state: State, action: Action) -> str:
    with pytest.raises(IllegalActionError) as refusal:
        state.verify(action)
    return str(refusal.value)


# -- 4.1 setup ---------------------------------------------------------------------------------


def test_rule_4_1_ten_cards_each_an_upcard_and_a_stock_of_31() -> None:
    state = new_game("gin", players=2, seed=3)
    assert [len(hand) for hand in state.hands] == [10, 10]
    assert (len(state.discard_pile), len(state.stock)) == (1, 31)
    assert Counter(state.all_cards()) == Counter(make_deck())
    assert state.phase is GinPhase.FIRST_UPCARD
    assert (state.dealer, state.to_act) == (1, (0,))


def test_rule_4_1_two_players_only() -> None:
    with pytest.raises(ConfigurationError, match=r"^gin is for 2 players, not 3$"):
        new_game("gin", players=3)


def test_rule_4_1_registered_as_gin_and_gin_rummy() -> None:
    assert get_variant("gin_rummy") == get_variant("GIN") == GinRummy()


# -- 4.2 melds and points ----------------------------------------------------------------------


def test_rule_4_2_ace_is_low_only() -> None:
    assert RULES.ace.value == "low"
    assert is_meld(parse_cards("Ah 2h 3h"), RULES)
    assert not is_meld(parse_cards("Qh Kh Ah"), RULES)
    assert not is_meld(parse_cards("Kh Ah 2h"), RULES)


def test_rule_4_2_least_deadwood_of_ten_and_of_eleven_cards() -> None:
    # 2s-4s, 7c 7d 7h and 9h-Jh meld; Kc is 10.
    assert least_deadwood(parse_cards(KNOCKER)) == 10
    # With 5d, the best discard is Kc: 5 left.
    assert least_deadwood(parse_cards(KNOCKER + " 5d")) == 5
    # Player 1: Qc Qd Qh melds; 5s 8h 4d 6d 9c 2c Ac are 5+8+4+6+9+2+1 = 35.
    assert least_deadwood(parse_cards(DEFENDER)) == 35


# -- 4.3 the first upcard ------------------------------------------------------------------------


def test_rule_4_3_the_non_dealer_then_the_dealer_may_take_the_first_upcard() -> None:
    state = deal(KNOCKER, DEFENDER, "5d")
    assert state.legal_actions() == (TakeDiscard(player=0), Pass(player=0))
    assert reason(state, DrawStock(player=0)) == "p1 must take the first upcard or pass"
    state = state.apply(Pass(player=0))
    assert state.legal_actions() == (TakeDiscard(player=1), Pass(player=1))
    taken = state.apply(TakeDiscard(player=1))
    assert (taken.phase, taken.to_act, len(taken.hands[1])) == (Phase.PLAY, (1,), 11)


def test_rule_4_3_after_two_passes_the_non_dealer_draws_from_the_stock() -> None:
    state = deal(KNOCKER, DEFENDER, "5d", stock=["Ks"]).apply(Pass(player=0)).apply(Pass(player=1))
    assert state.legal_actions() == (DrawStock(player=0),)
    assert reason(state, TakeDiscard(player=0)) == (
        "both players passed the upcard: p1 draws from stock"
    )
    assert reason(state, Pass(player=0)) == "both players passed the upcard: p1 draws from stock"
    state = state.apply(DrawStock(player=0))
    assert state.hands[0][-1] == parse_card("Ks")
    assert state.discard_pile == (parse_card("5d"),)  # the upcard stays as the discard


# -- 4.4 the turn --------------------------------------------------------------------------------


def test_rule_4_4_draw_the_upcard_or_the_stock_then_discard_any_card() -> None:
    state = deal(KNOCKER, DEFENDER, "Ks").apply(TakeDiscard(player=0))
    discards = [a.card for a in state.legal_actions() if isinstance(a, Discard)]
    assert len(discards) == 11
    assert parse_card("Ks") in discards  # the card just taken may be thrown back
    state = state.apply(Discard(player=0, card=parse_card("2s")))
    assert (state.phase, state.legal_actions()) == (
        Phase.DRAW,
        (TakeDiscard(player=1), DrawStock(player=1)),
    )


# -- 4.5 knocking --------------------------------------------------------------------------------


def test_rule_4_5_knock_needs_the_knock_card_after_the_best_discard() -> None:
    state = deal(KNOCKER, DEFENDER, "5d").apply(TakeDiscard(player=0))
    assert Knock(player=0) in state.legal_actions()  # 5 after discarding Kc
    high = deal(KNOCKER, DEFENDER, "Kd").apply(TakeDiscard(player=0))
    # Kc and Kd: discarding either leaves 10, still a knock.
    assert Knock(player=0) in high.legal_actions()
    far = deal("2s 3s 4s 7c 7d 7h 9h Th Qs Kc", DEFENDER, "Ks").apply(TakeDiscard(player=0))
    # 9h Th Qs Kc Ks: discard a king, 9 + 10 + 10 + 10 = 39 are left.
    assert reason(far, Knock(player=0)) == (
        "cannot knock: the best discard leaves 39 points of deadwood, over the knock card (10)"
    )


def test_rule_4_5_the_knocker_discards_a_card_that_keeps_the_knock() -> None:
    state = deal(KNOCKER, DEFENDER, "5d").apply(TakeDiscard(player=0)).apply(Knock(player=0))
    assert state.phase is GinPhase.KNOCK_DISCARD
    # Kc leaves 5d (5), 5d leaves Kc (10); any melded card leaves far more.
    assert {a.card for a in state.legal_actions() if isinstance(a, Discard)} == set(
        parse_cards("5d Kc")
    )
    assert reason(state, Discard(player=0, card=parse_card("7c"))) == (
        "discarding 7c leaves 29 points of deadwood, over the knock card (10)"
    )


def test_rule_4_5_the_knocker_lays_melds_that_keep_the_knock_then_passes() -> None:
    state = deal(KNOCKER, DEFENDER, "5d").apply(TakeDiscard(player=0)).apply(Knock(player=0))
    state = state.apply(Discard(player=0, card=parse_card("Kc")))
    assert state.phase is GinPhase.KNOCKER_MELDS
    listed = {str(a.melds[0]) for a in state.legal_actions() if isinstance(a, LayDown)}
    assert listed == {"2s 3s 4s", "7c 7d 7h", "9h Th Jh"}
    # All ten cards are 9 + 21 + 29 + 5 = 64 points: too many to stop laying.
    assert reason(state, Pass(player=0)) == (
        "64 points are left unmelded, over the knock card (10): lay melds"
    )
    state = lay(state, 0, "2s 3s 4s", "7c 7d 7h")
    assert reason(state, Pass(player=0)) == (
        "34 points are left unmelded, over the knock card (10): lay melds"
    )
    state = lay(state, 0, "9h Th Jh").apply(Pass(player=0))
    assert (state.phase, state.to_act) == (GinPhase.LAYOFF, (1,))


def test_rule_4_5_a_lay_down_may_carry_several_melds_but_must_keep_the_knock() -> None:
    hand, other = "2c 3c 4c 7s 8s 9s 7c 7d 7h As", "5s 8h Qh Qc Qd 4d 6d 9c Ah Kc"
    state = deal(hand, other, "Kd").apply(TakeDiscard(player=0)).apply(Knock(player=0))
    state = state.apply(Discard(player=0, card=parse_card("Kd")))
    listed = {str(a.melds[0]) for a in state.legal_actions() if isinstance(a, LayDown)}
    assert listed == {"2c 3c 4c", "7s 8s 9s", "7c 7d 7h"}
    # The four sevens break 7s 8s 9s: 8s 9s As are 18 points whatever is laid next.
    assert reason(state, LayDown(player=0, melds=(meld("7c 7d 7h 7s"),))) == (
        "melds leave 18 points of deadwood, over the knock card (10)"
    )
    several = (meld("2c 3c 4c"), meld("7s 8s 9s"), meld("7c 7d 7h"))
    state = state.apply(LayDown(player=0, melds=several))
    assert state.hands[0] == (parse_card("As"),)
    assert state.legal_actions() == (Pass(player=0),)  # 1 point left


def test_rule_4_5_gin_skips_the_lay_offs() -> None:
    state = deal("2s 3s 4s 7c 7d 7h 9h Th Jh Qh", "Ac 2c 3c 5h 5d 5c Qs Qd Kh 4d", "Kc")
    state = knocked(state, "Kc", "2s 3s 4s", "7c 7d 7h", "9h Th Jh Qh")
    assert (state.phase, state.to_act) == (GinPhase.DEFENDER_MELDS, (1,))
    assert not any(isinstance(a, LayOff) for a in state.legal_actions())


# -- 4.6 Oklahoma --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("upcard", "ace", "knock_card"),
    [("Kd", 1, 10), ("7s", 1, 7), ("2d", 0, 2), ("As", 1, 1), ("As", 0, 0)],
)
def test_rule_4_6_oklahoma_the_first_upcard_sets_the_knock_card(
    upcard: str, ace: int, knock_card: int
) -> None:
    variant = GinRummy(target_score=None, oklahoma=True, oklahoma_ace=ace, knock_card=4)
    state = deal(KNOCKER, DEFENDER, upcard, variant=variant)
    assert state.detail.knock_card == knock_card
    assert dict(state.observation(1).public)["knock_card"] == knock_card


def test_rule_4_6_oklahoma_knock_at_five_with_a_five_upcard() -> None:
    variant = GinRummy(target_score=None, oklahoma=True)
    state = deal(KNOCKER, DEFENDER, "5d", variant=variant).apply(TakeDiscard(player=0))
    state = state.apply(Knock(player=0))
    # Kc leaves 5 (legal at 5); 5d would leave Kc, 10 > 5.
    assert state.legal_actions() == (Discard(player=0, card=parse_card("Kc")),)


# -- 4.7 the defender ------------------------------------------------------------------------------


def test_rule_4_7_the_defender_lays_off_on_both_ends_of_runs() -> None:
    state = knock_deal()
    offs = {(str(a.card), a.meld_index) for a in state.legal_actions() if isinstance(a, LayOff)}
    assert offs == {("5s", 0), ("8h", 2), ("Qh", 2)}
    state = state.apply(LayOff(player=1, card=parse_card("5s"), meld_index=0))
    assert str(state.table[0]) == "2s 3s 4s 5s"
    state = state.apply(Pass(player=1))
    assert state.phase is GinPhase.DEFENDER_MELDS
    assert reason(state, LayOff(player=1, card=parse_card("8h"), meld_index=2)) == (
        "LayOff is not a move of the defender_melds phase"
    )


def test_rule_4_7_the_defender_may_extend_a_run_any_number_of_cards() -> None:
    state = deal("6s 7s 8s 2c 3c 4c 2d 3d 4d Ah", "9s Ts Js Kc Qd Kh Qh Jd Jc 5c", "5h")
    state = knocked(state, "5h", "6s 7s 8s", "2c 3c 4c", "2d 3d 4d")
    for card in ("9s", "Ts", "Js"):
        state = state.apply(LayOff(player=1, card=parse_card(card), meld_index=0))
    assert str(state.table[0]) == "6s 7s 8s 9s Ts Js"


def test_rule_4_7_the_defender_completes_a_group_of_three() -> None:
    state = deal("2s 3s 4s 7c 7d 7h 9h Th Jh 8c", "7s Ac 2c 3c 5h 5d 5c Qs Qd 4d", "Kc")
    state = knocked(state, "Kc", "2s 3s 4s", "7c 7d 7h", "9h Th Jh")
    assert state.legal_actions()[0] == LayOff(player=1, card=parse_card("7s"), meld_index=1)


# -- 4.8 scoring ---------------------------------------------------------------------------------


def test_rule_4_8_the_knocker_scores_the_deadwood_difference() -> None:
    state = knock_deal()
    state = state.apply(LayOff(player=1, card=parse_card("5s"), meld_index=0))
    state = state.apply(LayOff(player=1, card=parse_card("8h"), meld_index=2))
    state = lay(state.apply(Pass(player=1)), 1, "Qc Qd Qh").apply(Pass(player=1))
    # Knocker 5 (5d); defender 4d 6d 9c 2c Ac = 22: the knocker scores 17.
    assert state.result is not None
    assert state.result.scores == (17, -17)
    assert state.result.winners == (0,)
    (record,) = state.deal_results
    assert record.ended_by == "p1 knocked with 5 against 22"
    assert [str(line) for line in record.lines] == [
        "p1: +17 (deadwood difference)",
        "p2: -17 (deadwood difference)",
    ]


def test_rule_4_8_laying_off_a_melded_card_costs_the_defender() -> None:
    state = knock_deal()
    state = state.apply(LayOff(player=1, card=parse_card("Qh"), meld_index=2)).apply(Pass(player=1))
    state = state.apply(Pass(player=1))
    # Qc Qd no longer meld: 5s 8h Qc Qd 4d 6d 9c 2c Ac = 5+8+20+22 = 55; 55 - 5 = 50.
    assert state.result is not None
    assert state.result.scores == (50, -50)


def test_rule_4_8_gin_scores_the_difference_and_the_gin_bonus() -> None:
    state = deal("2s 3s 4s 7c 7d 7h 9h Th Jh Qh", "Ac 2c 3c 5h 5d 5c Qs Qd Kh 4d", "Kc")
    state = knocked(state, "Kc", "2s 3s 4s", "7c 7d 7h", "9h Th Jh Qh")
    state = lay(state, 1, "Ac 2c 3c", "5c 5d 5h").apply(Pass(player=1))
    # Qs Qd Kh 4d = 34 (no lay-off of Kh on gin), + 25.
    assert state.result is not None
    assert state.result.scores == (59, -59)
    assert state.deal_results[0].ended_by == "p1 went gin"


def undercut_deal(variant: GinRummy = ONE_DEAL, knocker_card: str = "8c") -> State:
    """Player 0 knocks with ``knocker_card``; player 1 melds all but 4d (4)."""
    hand = f"2s 3s 4s 7c 7d 7h 9h Th Jh {knocker_card}"
    state = deal(hand, "Ac 2c 3c 5h 5d 5c Qs Qd Qh 4d", "Kc", variant=variant)
    state = knocked(state, "Kc", "2s 3s 4s", "7c 7d 7h", "9h Th Jh").apply(Pass(player=1))
    return lay(state, 1, "Ac 2c 3c", "5c 5d 5h", "Qd Qh Qs").apply(Pass(player=1))


def test_rule_4_8_an_undercut_scores_the_difference_and_the_undercut_bonus() -> None:
    state = undercut_deal()
    # Knocker 8 (8c), defender 4 (4d): the defender scores 8 - 4 + 25 = 29.
    assert state.result is not None
    assert state.result.scores == (-29, 29)
    assert state.result.winners == (1,)
    assert state.deal_results[0].ended_by == "p1 knocked with 8 against 4 and was undercut"


def test_rule_4_8_equal_deadwood_scores_nothing_or_is_an_undercut() -> None:
    state = undercut_deal(knocker_card="4c")
    assert state.result is not None
    assert state.result.scores == (0, 0)
    assert state.result.winners == (0, 1)
    assert state.deal_results[0].ended_by == "p1 knocked with 4 against 4: a tie"
    gra = undercut_deal(GinRummy(target_score=None, undercut_on_tie=True), knocker_card="4c")
    assert gra.result is not None
    assert gra.result.scores == (-25, 25)


def test_rule_4_8_bonuses_are_settings() -> None:
    variant = GinRummy(target_score=None, undercut_bonus=10)
    state = undercut_deal(variant)
    assert state.result is not None
    assert state.result.scores == (-14, 14)


# -- 4.9 the wall --------------------------------------------------------------------------------


def wall_deal(second: str = "2c 3c 4c 7d 7s 7h 9h Th Jh Kc", last: str = "5d") -> State:
    """Both pass the upcard, then each draws from the stock and throws the card drawn back.

    Player 0's 15th draw, the 29th from the stock, leaves two cards and is ``last`` (5d).
    """
    hands = ("Kd Qd Jd 9c 8c 6h 5h 3s 2s As", second)
    used = set(parse_cards(f"{' '.join(hands)} Ks {last}"))
    rest = [str(card) for card in make_deck() if card not in used]
    state = deal(*hands, "Ks", stock=[*rest[:28], last]).apply(Pass(player=0)).apply(Pass(player=1))
    while len(state.stock) > 2:
        player = state.to_act[0]
        state = state.apply(DrawStock(player=player))
        state = state.apply(Discard(player=player, card=state.hands[player][-1]))
    return state


def test_rule_4_9_at_the_wall_the_player_may_knock_with_the_upcard_or_pass() -> None:
    state = wall_deal()
    assert (state.phase, state.to_act, state.discard_pile[-1]) == (
        GinPhase.WALL,
        (1,),
        parse_card("5d"),
    )
    # Player 1 with 5d: discard Kc, 5 left.
    assert state.legal_actions() == (Knock(player=1), Pass(player=1))
    knocked_at_wall = state.apply(Knock(player=1))
    assert parse_card("5d") in knocked_at_wall.hands[1]
    assert knocked_at_wall.phase is GinPhase.KNOCK_DISCARD
    assert state.variant.phase_words(state) == (
        "the stock is down to two cards (the wall): knock now, or the deal is a draw"
    )
    drawn = state.apply(Pass(player=1))
    assert drawn.result is not None
    assert drawn.result.scores == (0, 0)
    assert drawn.deal_results[0].ended_by == "the stock is down to 2 cards and p2 passed: a draw"


def test_rule_4_9_the_wall_without_a_knock_says_the_deal_is_a_draw() -> None:
    # The wall deal with Kh for Jh in p2's hand and Qs for 5d: 39 points of deadwood at best.
    state = wall_deal("2c 3c 4c 7d 7s 7h 9h Th Kh Kc", "Qs")
    assert (state.phase, state.legal_actions()) == (GinPhase.WALL, (Pass(player=1),))
    assert state.variant.phase_words(state) == (
        "the stock is down to two cards (the wall): you cannot knock, the deal is a draw"
    )


# -- 4.10 OpenSpiel's guards -----------------------------------------------------------------------


def test_rule_4_10_two_upcards_thrown_back_in_a_row_draw_the_deal() -> None:
    state = deal(KNOCKER, DEFENDER, "Ks").apply(TakeDiscard(player=0))
    state = state.apply(Discard(player=0, card=parse_card("Ks"))).apply(TakeDiscard(player=1))
    state = state.apply(Discard(player=1, card=parse_card("Ks")))
    assert state.result is not None
    assert state.deal_results[0].ended_by == "both players threw back the upcard they took: a draw"


def test_rule_4_10_one_thrown_back_upcard_does_not_draw() -> None:
    state = deal(KNOCKER, DEFENDER, "Ks").apply(TakeDiscard(player=0))
    state = state.apply(Discard(player=0, card=parse_card("Ks"))).apply(TakeDiscard(player=1))
    state = state.apply(Discard(player=1, card=parse_card("Ac"))).apply(TakeDiscard(player=0))
    state = state.apply(Discard(player=0, card=parse_card("Ac")))
    assert not state.is_over


def test_rule_4_10_the_fiftieth_upcard_taken_draws_the_deal() -> None:
    state = deal(KNOCKER, DEFENDER, "Ks").apply(TakeDiscard(player=0))  # not counted
    state = state.apply(Discard(player=0, card=state.hands[0][0]))
    for _ in range(49):
        player = state.to_act[0]
        state = state.apply(TakeDiscard(player=player))
        state = state.apply(Discard(player=player, card=state.hands[player][0]))
    assert (state.is_over, state.detail.upcard_takes) == (False, 49)
    state = state.apply(TakeDiscard(player=state.to_act[0]))
    assert state.result is not None
    assert state.deal_results[0].ended_by == "the upcard was taken 50 times: a draw"


# -- 4.11 the match ----------------------------------------------------------------------------


def test_rule_4_11_the_loser_of_a_deal_deals_the_next() -> None:
    state = knock_deal(GinRummy()).apply(Pass(player=1)).apply(Pass(player=1))
    # The defender passes twice: 5s 8h Qh Qc Qd 4d 6d 9c 2c Ac = 5+8+30+22 = 65; 65 - 5 = 60.
    assert state.scores == (60, 0)
    assert (state.deal_number, state.dealer, state.to_act) == (2, 1, (0,))
    assert state.phase is GinPhase.FIRST_UPCARD
    undercut = undercut_deal(GinRummy())
    assert undercut.scores == (0, 29)
    assert (undercut.dealer, undercut.to_act) == (0, (1,))


def test_rule_4_11_a_drawn_deal_is_dealt_again_by_the_same_dealer() -> None:
    state = wall_deal()
    match = new_game(GinRummy(), players=2, seed=0, deck=state.deck)
    for action in state.history:
        match = match.apply(action)
    match = match.apply(Pass(player=1))
    assert (match.deal_number, match.dealer, match.scores, match.is_over) == (2, 1, (0, 0), False)
    assert len(match.stock) == 31  # a fresh shuffle


def test_rule_4_11_the_match_ends_at_the_target_with_game_and_box_bonuses() -> None:
    state = knock_deal(GinRummy(target_score=50)).apply(Pass(player=1)).apply(Pass(player=1))
    # 60 >= 50: the winner adds 100 for the game and 25 for its one deal won.
    assert state.result is not None
    assert state.result.scores == (185, 0)
    assert state.result.winners == (0,)
    assert [str(line) for line in state.result.lines] == [
        "p1: +100 (game bonus)",
        "p1: +25 (box bonus x1)",
    ]


def test_rule_4_11_greedy_players_finish_a_match_to_100() -> None:
    state = play(new_game("gin", players=2, seed=11), [GreedyBot(), GreedyBot()])
    assert state.result is not None
    (winner,) = state.result.winners
    assert state.scores[winner] >= 100 + 100 + 25
    stats = dict(state.variant.match_statistics(state))
    assert stats["knocks"] >= 1
    assert stats["knocks"] >= stats["gins"] + stats["undercuts"]


# -- settings ------------------------------------------------------------------------------------


def test_settings_defaults_and_ranges() -> None:
    assert get_variant("gin").settings() == {
        "knock_card": 10,
        "oklahoma": False,
        "oklahoma_ace": 1,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "undercut_on_tie": False,
        "target_score": 100,
        "box_bonus": 25,
        "game_bonus": 100,
    }
    assert GinRummy(knock_card=0).knock_card == 0
    bad = {
        "knock_card": (-1, 11),
        "oklahoma_ace": (-1, 2),
        "gin_bonus": (-1, 10**7),
        "target_score": (0, True),
    }
    for name, values in bad.items():
        for value in values:
            with pytest.raises(ConfigurationError, match=name):
                get_variant("gin", **{name: value})
    with pytest.raises(ConfigurationError, match="oklahoma must be True or False, not 1"):
        get_variant("gin", oklahoma=1)


# -- properties ----------------------------------------------------------------------------------


def meld_free_actions(state: State) -> list[Action]:
    """Every action without melds either player could try now."""
    found: list[Action] = []
    for player in (0, 1):
        found += [DrawStock(player=player), TakeDiscard(player=player)]
        found += [Pass(player=player), Knock(player=player)]
        found += [Discard(player=player, card=card) for card in make_deck()]
        found += [
            LayOff(player=player, card=card, meld_index=index)
            for card in make_deck()
            for index in range(len(state.table))
        ]
    return found


@settings(max_examples=30)
@given(games(ONE_DEAL))
def test_every_listed_action_is_legal_and_listing_matches_checking(state: State) -> None:
    listed = state.legal_actions()
    assert all(state.is_legal(action) for action in listed)
    for action in meld_free_actions(state):
        assert state.is_legal(action) == (action in listed), action


@settings(max_examples=20)
@given(games(ONE_DEAL, phase=[GinPhase.LAYOFF, GinPhase.KNOCKER_MELDS, GinPhase.WALL]))
def test_knock_phases_list_only_legal_actions(state: State) -> None:
    listed = state.legal_actions()
    assert listed
    assert all(state.is_legal(action) for action in listed)
    for action in meld_free_actions(state):
        assert state.is_legal(action) == (action in listed), action


@settings(max_examples=25)
@given(st.integers(0, 2**32 - 1))
def test_random_deals_end_within_openspiel_bound_keeping_every_card(seed: int) -> None:
    state = new_game(ONE_DEAL, players=2, seed=seed)
    bot, deck = RandomBot(seed=seed), Counter(make_deck())
    while not state.is_over:
        state = state.apply(bot.choose(state.observation(state.to_act[0])))
        assert_cards_conserved(state, deck)
    assert len(state.history) < 300
    assert state.result is not None
    assert sum(state.result.scores) == 0
    assert GameState.from_json(state.to_json()) == state


def test_random_play_never_mutates_a_state() -> None:
    rng = random.Random(4)
    state = new_game("gin", players=2, seed=4)
    for _ in range(200):
        before = state.to_json()
        after = state.apply(rng.choice(state.legal_actions()))
        assert state.to_json() == before
        state = after
