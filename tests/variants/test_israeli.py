"""Rummy 71 / Rummy 101, rule by rule (RULES.md section 1, rules 1–17 and 19–24).

Every test builds its deal from a stacked deck: the hands we want, the open card, the top
of the stock, then the rest of the 108 cards. Expected numbers are worked out by hand in
the comments, never computed by the code under test. Rules 18 and 23–27 (Frish, the table,
clocks, disconnections, removals) are in ``test_israeli_table.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from rummylib import (
    Card,
    GameState,
    IllegalActionError,
    Meld,
    MeldKind,
    Phase,
    get_variant,
    is_meld,
    make_deck,
    new_game,
    parse_card,
    parse_cards,
    parse_meld,
    sort_by_rank,
    sort_by_suit,
)
from rummylib._complete import may_meld_all
from rummylib.actions import (
    Action,
    DeclareRummy,
    DeclineRebuy,
    Discard,
    DrawStock,
    GiveUp,
    LayOff,
    ProposeFrish,
    Rebuy,
    ShowMelds,
    TakeDiscard,
    TakeOpenCard,
)
from rummylib.arrangement import arrange
from rummylib.bots import GreedyBot
from rummylib.errors import ConfigurationError
from rummylib.melds import MeldRules
from rummylib.scoring import DealResult
from rummylib.state import stack_deck

DECK = make_deck(decks=2, jokers=4)

# Hands used throughout (13 cards each).
#
# P0_RUMMY: Ac 2c 3c 4c | 5d 6d 7d 8d | 9h 9s 9c | Kh Kd — with Ks it is a rummy; its best
#   melds leave Kh Kd = 20 points.
# P1_HAND: melds 2h 3h 4h and 7s 7d 7c; deadwood 6h Th 8s Qs Jd Ad 5c
#   = 6 + 10 + 8 + 10 + 10 + 1 + 5 = 50. All 13 cards: 2+3+4+6+10 + 7+8+10 + 7+10+1 + 7+5 = 80.
# P2_HAND: melds Qc Qd Qh and As 2s 3s 4s 5s; deadwood 9d Td 8c 6h Kc = 9+10+8+6+10 = 43.
# P3_HAND: melds Ts Js Qs Ks, 6c 7c 8c 9c, 2d 3d 4d; deadwood 9h 5h = 14.
P0_RUMMY = "Ac 2c 3c 4c 5d 6d 7d 8d 9h 9s 9c Kh Kd"
P1_HAND = "2h 3h 4h 7s 7d 7c Qs Jd 5c 8s Th 6h Ad"
P2_HAND = "Qc Qd Qh 2s 3s 4s 5s 9d Td 8c 6h Kc As"
P3_HAND = "Ts Js Qs Ks 6c 7c 8c 9c 2d 3d 4d 9h 5h"
P0_MELDS = ("2c 3c 4c", "5d 6d 7d 8d", "9h 9s 9c", "Kh Kd Ks")


def stacked(hands: Sequence[str], open_card: str, stock: str = "") -> tuple[Card, ...]:
    """A full 108-card deck that deals ``hands`` (player 0 first), then turns ``open_card``,
    with ``stock`` on top of the stock and every other card after it in canonical order."""
    return stack_deck("rummy101", hands, face_up=open_card, stock=stock)


def game(
    hands: Sequence[str], open_card: str = "Jh", stock: str = "Ks 5s", **settings: object
) -> GameState:
    """A Rummy 101 match whose first deal is stacked."""
    variant = get_variant("rummy101", **settings)
    return new_game(variant, players=len(hands), seed=0, deck=stacked(hands, open_card, stock))


def restack(
    state: GameState, hands: Mapping[int, str], open_card: str = "Jh", stock: str = "Ks 5s"
) -> GameState:
    """The same state with the deal's cards laid out as given (for later deals and redeals)."""
    new_hands = [parse_cards(hands.get(seat, "")) for seat in range(state.player_count)]
    front = [card for hand in new_hands for card in hand]
    front += [parse_card(open_card), *parse_cards(stock)]
    rest = Counter(DECK) - Counter(front)
    tail = []
    for card in DECK:
        if rest[card]:
            rest[card] -= 1
            tail.append(card)
    return state.replace(
        hands=tuple(new_hands),
        open_card=parse_card(open_card),
        stock=(*parse_cards(stock), *tail),
        discard_pile=(),
    )


def melds(*texts: str) -> tuple[Meld, ...]:
    """Melds written as text; jokers may be declared (``*=3h``)."""
    rules = get_variant("rummy101").meld_rules
    return tuple(parse_meld(text, rules) for text in texts)


def raw(text: str, kind: MeldKind = MeldKind.GROUP) -> Meld:
    """A meld of natural cards that need not be legal (to be refused)."""
    cards = parse_cards(text)
    return Meld(kind, cards, cards)


def declare(player: int, discard: str, *texts: str) -> DeclareRummy:
    return DeclareRummy(player=player, discard=parse_card(discard), melds=melds(*texts))


def discard(player: int, card: str) -> Discard:
    return Discard(player=player, card=parse_card(card))


def refused(state: GameState, action: Action, message: str) -> None:
    """``action`` is refused with exactly ``message`` and the state stays as it was."""
    before = state.replace()
    text = state.to_json()
    with pytest.raises(IllegalActionError) as error:
        state.apply(action)
    assert str(error.value) == message
    assert state == before
    assert state.to_json() == text
    assert not state.is_legal(action)
    assert action not in state.legal_actions()


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def p0_declares(state: GameState) -> GameState:
    """p1 (seat 0) draws Ks and declares with Ac as the finishing discard."""
    return play(state, DrawStock(player=0), declare(0, "Ac", *P0_MELDS))


# -- setup (rules 1–4) ---------------------------------------------------------------------


def test_rule_1_1_two_to_six_players() -> None:
    for players in (2, 6):
        assert new_game("rummy101", players=players, seed=1).player_count == players
    for players, message in ((1, "not 1"), (7, "not 7")):
        with pytest.raises(ConfigurationError) as error:
            new_game("rummy101", players=players, seed=1)
        assert str(error.value) == f"rummy101 is for 2 to 6 players, {message}"


def test_rule_1_2_two_packs_and_four_jokers() -> None:
    deck = Counter(get_variant("rummy71").deck_for(4))
    assert deck.total() == 108
    assert deck[parse_card("*")] == 4
    # 52 different natural cards, two of each: 104 + 4 jokers = 108.
    assert all(deck[card] == 2 for card in make_deck())
    assert len(deck) == 53


def test_rule_1_3_thirteen_cards_each_the_player_after_the_dealer_starts() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    assert [len(hand) for hand in state.hands] == [13, 13, 13]
    assert Counter(state.hands[1]) == Counter(parse_cards(P1_HAND))
    # The last seat deals the first deal, so seat 0 (p1) plays first.
    assert (state.dealer, state.current_player, state.to_act) == (2, 0, (0,))
    # Deal 1 ends: p1 declares, p2 pays 50 x2 = 100 and p3 43 x2 = 86, nobody reaches 101.
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    assert state.scores == (0, 100, 86)
    # Deal 2 is dealt by the next seat (p1), so p2 (seat 1) starts.
    assert (state.deal_number, state.dealer, state.current_player) == (2, 0, 1)


def test_rule_1_4_open_card_under_the_stock_and_an_empty_discard_pile() -> None:
    state = game([P0_RUMMY, P1_HAND], open_card="Jh", stock="Ks 5s")
    assert state.open_card == parse_card("Jh")
    assert state.discard_pile == ()
    # 108 − 26 dealt − 1 open card = 81 in the stock, Ks on top.
    assert len(state.stock) == 81
    assert state.stock[:2] == parse_cards("Ks 5s")
    assert state.observation(1).open_card == parse_card("Jh")


# -- the turn (rules 5–10) -----------------------------------------------------------------


def test_rule_1_5_open_card_only_in_first_go_around() -> None:
    state = game([P0_RUMMY, P1_HAND], open_card="Jh", stock="Ks 5s")
    assert TakeOpenCard(player=0) in state.legal_actions()
    state = play(state, DrawStock(player=0), discard(0, "Ks"))
    # p2's first turn is still in the first go-around.
    assert TakeOpenCard(player=1) in state.legal_actions()
    state = play(state, DrawStock(player=1), discard(1, "5s"))
    refused(state, TakeOpenCard(player=0), "the open card can only be taken in the first go-around")
    # Taking from the stock or the discard pile is still fine.
    assert state.legal_actions() == (DrawStock(player=0), TakeDiscard(player=0))


def test_rule_1_5_open_card_can_be_taken_once() -> None:
    state = game([P0_RUMMY, P1_HAND], open_card="Jh")
    state = play(state, TakeOpenCard(player=0), discard(0, "Kd"))
    assert state.open_card is None
    assert state.hands[0][-1] == parse_card("Jh")
    refused(state, TakeOpenCard(player=1), "the open card has already been taken")


def test_rule_1_6_open_card_dead_after_the_first_go_around() -> None:
    state = game([P0_RUMMY, P1_HAND], open_card="Jh", stock="Ks 5s")
    state = play(state, DrawStock(player=0), discard(0, "Ks"), DrawStock(player=1))
    state = state.apply(discard(1, "5s"))
    # 81 − 2 drawn = 79; the open card stays out of play, under the stock.
    assert state.open_card == parse_card("Jh")
    assert len(state.stock) == 79
    assert parse_card("Jh") not in state.stock[-2:]


def test_rule_1_6_open_card_bottom_of_stock_option() -> None:
    state = game(
        [P0_RUMMY, P1_HAND], open_card="Jh", stock="Ks 5s", open_card_after_window="bottom_of_stock"
    )
    state = play(state, DrawStock(player=0), discard(0, "Ks"), DrawStock(player=1))
    assert state.open_card == parse_card("Jh")  # p2 may still take it until their discard
    state = state.apply(discard(1, "5s"))
    # 79 + the open card = 80, and it is the last card of the stock.
    assert state.open_card is None
    assert len(state.stock) == 80
    assert state.stock[-1] == parse_card("Jh")


def test_rule_1_7_take_then_discard_or_declare() -> None:
    state = game([P0_RUMMY, P1_HAND])
    refused(state, discard(0, "Kd"), "p1 must take a card first")
    refused(state, declare(0, "Ac", *P0_MELDS), "p1 must take a card first")
    state = state.apply(DrawStock(player=0))
    assert state.phase is Phase.PLAY
    refused(state, DrawStock(player=0), "p1 has already taken a card this turn")
    refused(state, TakeOpenCard(player=0), "p1 has already taken a card this turn")
    kinds = {type(action) for action in state.legal_actions()}
    assert kinds == {Discard, DeclareRummy}
    state = state.apply(discard(0, "Kd"))
    assert (state.phase, state.current_player) == (Phase.DRAW, 1)
    assert state.discard_pile == (parse_card("Kd"),)


def test_rule_1_7_out_of_turn_is_refused() -> None:
    state = game([P0_RUMMY, P1_HAND])
    refused(state, DrawStock(player=1), "it is p1's turn, not p2's")


def test_rule_1_8_card_taken_face_up_not_discarded_nor_its_copy() -> None:
    # p1 holds a Jh and takes the open card, the other Jh.
    hand = "Jh 2c 3c 4c 5d 6d 7d 8d 9h 9s 9c Kh Kd"
    state = game([hand, P1_HAND], open_card="Jh")
    state = state.apply(TakeOpenCard(player=0))
    message = "cannot discard Jh: Jh was taken face up this turn and may not be discarded"
    refused(state, discard(0, "Jh"), message)
    assert parse_card("Jh") not in {a.card for a in state.legal_actions() if isinstance(a, Discard)}
    # p2 takes p1's discard, and may not throw it straight back.
    state = play(state, discard(0, "Kd"), TakeDiscard(player=1))
    refused(
        state,
        discard(1, "Kd"),
        "cannot discard Kd: Kd was taken face up this turn and may not be discarded",
    )
    # The rule lasts one turn: next turn the card may go.
    state = play(state, discard(1, "Qs"), DrawStock(player=0))
    assert state.is_legal(discard(0, "Jh"))


def test_rule_1_8_card_taken_face_up_not_the_finishing_card() -> None:
    # All 13 cards melded: Ac 2c 3c | 5d 6d 7d 8d | 9h 9s 9c | Kh Kd Ks.
    hand = "Ac 2c 3c 5d 6d 7d 8d 9h 9s 9c Kh Kd Ks"
    finish = declare(0, "Qs", "Ac 2c 3c", "5d 6d 7d 8d", "9h 9s 9c", "Kh Kd Ks")
    taken = game([hand, P1_HAND], open_card="Qs").apply(TakeOpenCard(player=0))
    refused(
        taken,
        finish,
        "cannot finish with Qs: Qs was taken face up this turn and may not be discarded",
    )
    # The same Qs drawn from the stock may finish the rummy.
    drawn = game([hand, P1_HAND], open_card="Jh", stock="Qs").apply(DrawStock(player=0))
    assert drawn.is_legal(finish)


def test_rule_1_9_joker_cannot_be_discarded() -> None:
    # 2c 3c 4c | 5d 6d 7d 8d | 9h 9s 9c | Kh Kd * — all melded; Qs comes from the stock.
    hand = "* 2c 3c 4c 5d 6d 7d 8d 9h 9s 9c Kh Kd"
    state = game([hand, P1_HAND], stock="Qs").apply(DrawStock(player=0))
    refused(state, discard(0, "*"), "cannot discard *: a joker may not be discarded")
    refused(
        state,
        declare(0, "*", "2c 3c 4c", "5d 6d 7d 8d", "9h 9s 9c"),
        "cannot finish with *: a joker may not be discarded",
    )
    assert all(
        not action.card.is_joker for action in state.legal_actions() if isinstance(action, Discard)
    )
    # The joker stays in a meld and Qs finishes.
    assert state.is_legal(declare(0, "Qs", "2c 3c 4c", "5d 6d 7d 8d", "9h 9s 9c", "Kh Kd *"))


def test_rule_1_10_nothing_is_laid_down_during_play() -> None:
    state = game([P0_RUMMY, P1_HAND])
    state = play(state, DrawStock(player=0), discard(0, "Ks"), DrawStock(player=1))
    assert state.table == ()
    assert not any(isinstance(action, LayOff) for action in state.legal_actions())


def test_rule_1_10_sorting_helpers_777_and_789() -> None:
    hand = parse_cards("8c 7h 9h 7c")
    assert sort_by_rank(hand) == parse_cards("7c 7h 8c 9h")  # "777": by rank
    assert sort_by_suit(hand) == parse_cards("7c 8c 7h 9h")  # "789": by suit, then rank


# -- melds and the declaration (rules 11–13) -----------------------------------------------


def test_rule_1_11_declaration_valid() -> None:
    state = game([P0_RUMMY, P1_HAND]).apply(DrawStock(player=0))
    action = declare(0, "Ac", *P0_MELDS)
    assert state.is_legal(action)
    listed = [a for a in state.legal_actions() if isinstance(a, DeclareRummy)]
    assert parse_card("Ac") in [a.discard for a in listed]
    after = state.apply(action)
    assert after.phase is Phase.SHOW_MELDS
    assert (after.current_player, after.to_act) == (None, (1,))
    assert after.hands[0] == ()
    assert after.discard_pile == (parse_card("Ac"),)
    # R10: the melds are stored in their canonical readings (groups by suit: c d h s).
    assert after.table == melds("2c 3c 4c", "5d 6d 7d 8d", "9c 9h 9s", "Kd Kh Ks")


def test_r10_the_same_declaration_written_in_other_orders_gives_equal_states() -> None:
    state = game([P0_RUMMY, P1_HAND]).apply(DrawStock(player=0))
    one = state.apply(declare(0, "Ac", *P0_MELDS))
    two = state.apply(declare(0, "Ac", "4c 2c 3c", "8d 7d 6d 5d", "9s 9c 9h", "Ks Kh Kd"))
    assert one == two
    assert [str(meld) for meld in two.table] == [
        "2c 3c 4c",
        "5d 6d 7d 8d",
        "9c 9h 9s",
        "Kd Kh Ks",
    ]


def test_rule_1_11_declaration_invalid_is_rejected_with_the_state_unchanged() -> None:
    state = game([P0_RUMMY, P1_HAND]).apply(DrawStock(player=0))
    # Discarding Kd leaves Kh Ks unmelded.
    refused(
        state,
        declare(0, "Kd", "Ac 2c 3c 4c", "5d 6d 7d 8d", "9h 9s 9c"),
        "not a rummy: every card but the discard must be melded (Kh Ks not melded)",
    )
    # A meld with a card the player does not hold.
    refused(
        state,
        declare(0, "Ac", "2c 3c 4c", "5d 6d 7d 8d", "9h 9s 9c", "Kh Kd Kc"),
        "not a rummy: every card but the discard must be melded (Ks not melded; Kc not in hand)",
    )
    # An invalid meld.
    invalid = DeclareRummy(
        player=0,
        discard=parse_card("Ac"),
        melds=(*melds("2c 3c 4c", "5d 6d 7d 8d"), raw("9h 9s 9c Kh"), raw("Kd Ks")),
    )
    refused(
        state,
        invalid,
        "9h 9s 9c Kh is not a meld: mixed suits and ranks: a group needs one rank, a run one suit",
    )


def test_rule_1_11_fourteen_cards_all_melded_still_discards_one() -> None:
    # With Ks all 14 cards meld (Ac-4c, 5d-8d, 999, KKK). One card must still be discarded,
    # keeping the rest valid: only an end of a four-card run can go — Ac, 4c, 5d or 8d.
    state = game([P0_RUMMY, P1_HAND]).apply(DrawStock(player=0))
    finishing = {
        action.discard for action in state.legal_actions() if isinstance(action, DeclareRummy)
    }
    assert finishing == set(parse_cards("Ac 4c 5d 8d"))
    broken = DeclareRummy(
        player=0,
        discard=parse_card("2c"),
        melds=(raw("Ac 3c 4c", MeldKind.RUN), *melds("5d 6d 7d 8d", "9h 9s 9c", "Kh Kd Ks")),
    )
    refused(state, broken, "Ac 3c 4c is not a meld: gap at 2c")


def test_rule_1_12_groups_and_runs() -> None:
    rules = get_variant("rummy101").meld_rules
    assert is_meld(parse_cards("7h 7c 7d"), rules)
    assert is_meld(parse_cards("7h 7c 7d 7s"), rules)
    assert not is_meld(parse_cards("7h 7h 7c"), rules)  # suits must differ
    assert not is_meld(parse_cards("7h 7c 7d 7s 7h"), rules)  # at most 4
    assert is_meld(parse_cards("Ah 2h 3h"), rules)  # ace low
    assert is_meld(parse_cards("Qh Kh Ah"), rules)  # ace high
    assert not is_meld(parse_cards("Kh Ah 2h"), rules)  # no wrap
    assert not is_meld(parse_cards("7h 8h 9c"), rules)  # one suit
    assert is_meld(parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"), rules)


def test_rule_1_12_ace_high_run_in_a_declaration() -> None:
    # Qh Kh Ah | 2c 3c 4c | 5d 6d 7d 8d | 9h 9s 9c — Ts from the stock is the discard.
    hand = "Qh Kh Ah 2c 3c 4c 5d 6d 7d 8d 9h 9s 9c"
    state = game([hand, P1_HAND], stock="Ts").apply(DrawStock(player=0))
    assert state.is_legal(declare(0, "Ts", "Qh Kh Ah", "2c 3c 4c", "5d 6d 7d 8d", "9h 9s 9c"))


def test_rule_1_13_joker_beside_ace_in_a_declaration_refused() -> None:
    # Ah * 3h | 5c 6c 7c 8c | 9d 9s 9c | Jd Qd Kd, 4s drawn and discarded: the joker would
    # have to stand for 2h, beside the ace.
    hand = "Ah 3h * 5c 6c 7c 8c 9d 9s 9c Jd Qd Kd"
    rest = ("5c 6c 7c 8c", "9d 9s 9c", "Jd Qd Kd")
    beside = DeclareRummy(
        player=0,
        discard=parse_card("4s"),
        melds=(parse_meld("Ah *=2h 3h", MeldRules()), *melds(*rest)),
    )
    state = game([hand, P1_HAND], stock="4s").apply(DrawStock(player=0))
    refused(state, beside, "Ah * 3h is not a meld: joker beside an ace")
    assert not any(isinstance(action, DeclareRummy) for action in state.legal_actions())
    # With joker_beside_ace=True only rule 0.4 applies, and the same declaration is a rummy.
    free = game([hand, P1_HAND], stock="4s", joker_beside_ace=True).apply(DrawStock(player=0))
    assert free.is_legal(beside)


def test_rule_1_13_a_set_is_a_meld_if_some_reading_is_legal() -> None:
    rules = get_variant("rummy101").meld_rules
    assert is_meld(parse_cards("* 2h 3h"), rules)  # as 2h 3h *=4h
    assert not is_meld(parse_cards("Ah * 3h"), rules)
    assert is_meld(parse_cards("Ah 2h * 4h"), rules)  # Ah 2h *=3h 4h
    assert is_meld(parse_cards("* Kh Ah"), rules)  # *=Qh Kh Ah
    assert is_meld(parse_cards("Ah Ad *"), rules)  # groups: jokers unrestricted
    # A declaration that reads {*, 2h, 3h} as *=Ah 2h 3h is accepted as 2h 3h *=4h.
    hand = "* 2h 3h 5c 6c 7c 8c 9d 9s 9c Jd Qd Kd"
    state = game([hand, P1_HAND], stock="4s").apply(DrawStock(player=0))
    action = DeclareRummy(
        player=0,
        discard=parse_card("4s"),
        melds=(
            parse_meld("*=Ah 2h 3h", MeldRules()),
            *melds("5c 6c 7c 8c", "9d 9s 9c", "Jd Qd Kd"),
        ),
    )
    after = state.apply(action)
    assert str(after.table[0]) == "2h 3h *=4h"


# -- after a declaration (rules 14–16) -----------------------------------------------------


def test_rule_1_14_declarer_scores_zero() -> None:
    state = play(p0_declares(game([P0_RUMMY, P1_HAND])), GiveUp(player=1))
    record = state.deal_results[0]
    assert record.points[0] == 0
    assert str(record.lines[0]) == "p1: +0 (declared rummy)"
    assert record.ended_by == "p1 declared rummy"


def test_rule_1_15_every_other_player_has_a_window() -> None:
    state = p0_declares(game([P0_RUMMY, P1_HAND, P2_HAND]))
    assert state.to_act == (1, 2)
    # Answers in any order; each ends only that player's window.
    state = state.apply(GiveUp(player=2))
    assert state.to_act == (1,)
    refused(state, GiveUp(player=2), "p3 cannot act now (show_melds)")
    refused(
        state,
        LayOff(player=1, card=parse_card("Ad"), meld_index=0),
        "LayOff is not a move of the show_melds phase",
    )
    state = state.apply(ShowMelds(player=1, melds=melds("7s 7d 7c")))
    assert state.deal_number == 2


def test_rule_1_15_best_arrangement_counts_by_default() -> None:
    # p2 shows only 7s 7d 7c, but the best melds (2h 3h 4h too) leave 50: 50 x2 = 100.
    declared = p0_declares(game([P0_RUMMY, P1_HAND]))
    shown = declared.apply(ShowMelds(player=1, melds=melds("7s 7d 7c")))
    gave_up = declared.apply(GiveUp(player=1))
    for state in (shown, gave_up):
        assert state.deal_results[0].points == (0, 100)
        assert str(state.deal_results[0].lines[1]) == (
            "p2: +100 (50 points left outside the best melds x2)"
        )


def test_rule_1_15_loser_melds_as_shown() -> None:
    declared = p0_declares(game([P0_RUMMY, P1_HAND], loser_melds="as_shown"))
    # Shown 7s 7d 7c (21 points) out of 80: 59 x2 = 118.
    state = declared.apply(ShowMelds(player=1, melds=melds("7s 7d 7c")))
    assert state.deal_results[0].points == (0, 118)
    # Both melds shown: 80 − 9 − 21 = 50, x2 = 100.
    state = declared.apply(ShowMelds(player=1, melds=melds("2h 3h 4h", "7s 7d 7c")))
    assert state.deal_results[0].points == (0, 100)
    # Giving up without melds counts all 80 points: x2 = 160.
    state = declared.apply(GiveUp(player=1))
    assert state.deal_results[0].points == (0, 160)
    assert str(state.deal_results[0].lines[1]) == "p2: +160 (80 points in hand, no melds shown x2)"


def test_rule_1_15_shown_melds_must_be_real_and_held() -> None:
    declared = p0_declares(game([P0_RUMMY, P1_HAND]))
    refused(
        declared,
        ShowMelds(player=1, melds=melds("Kc Kd Kh")),
        "the melds use cards p2 does not hold: Kc Kd Kh",
    )
    refused(
        declared,
        ShowMelds(player=1, melds=melds("7s 7d 7c", "7s 7d 7c")),
        "the melds use cards p2 does not hold: 7c 7d 7s",
    )


def test_rule_1_16_card_points() -> None:
    # No meld is possible: every rank once; same-suit cards three or more apart; one joker.
    # Ac 4c 7c Tc = 1+4+7+10 = 22; 2d 5d 8d Jd = 2+5+8+10 = 25; 3h 6h 9h = 18; Ks 10; * 0.
    # Total 75, x2 in the first deal = 150.
    hand = "Ac 4c 7c Tc 2d 5d 8d Jd 3h 6h 9h Ks *"
    state = play(p0_declares(game([P0_RUMMY, hand])), GiveUp(player=1))
    assert state.deal_results[0].points == (0, 150)
    # joker_points=25: 75 + 25 = 100, x2 = 200; ace_points=15: 75 − 1 + 15 = 89, x2 = 178.
    state = play(p0_declares(game([P0_RUMMY, hand], joker_points=25)), GiveUp(player=1))
    assert state.deal_results[0].points == (0, 200)
    state = play(p0_declares(game([P0_RUMMY, hand], ace_points=15)), GiveUp(player=1))
    assert state.deal_results[0].points == (0, 178)
    points = get_variant("rummy101").card_points
    assert [points.of(card) for card in parse_cards("Ah 2h 9h Th Jh Qh Kh *")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
        0,
    ]


# -- multiplier, stakes, elimination, rebuys, pot (rules 17, 19–23) -------------------------


def test_rule_1_17_first_deal_doubles() -> None:
    state = game([P0_RUMMY, P1_HAND])
    assert state.multiplier == 2
    # Deal 1: p2 pays 50 x2 = 100 (below 101).
    state = play(p0_declares(state), GiveUp(player=1))
    assert (state.deal_number, state.multiplier, state.scores) == (2, 1, (0, 100))
    # Deal 2 (p2 starts): p2 holds the rummy, p1 the 50-point hand: 50 x1 = 50.
    state = restack(state, {1: P0_RUMMY, 0: P1_HAND})
    state = play(state, DrawStock(player=1), declare(1, "Ac", *P0_MELDS), GiveUp(player=0))
    assert state.deal_results[1].points == (50, 0)
    assert state.deal_results[1].lines[1].reason == "50 points left outside the best melds x1"


def test_rule_1_17_first_deal_multiplier_setting() -> None:
    assert game([P0_RUMMY, P1_HAND], first_deal_multiplier=1).multiplier == 1


def test_rule_1_19_stakes() -> None:
    assert game([P0_RUMMY, P1_HAND, P2_HAND]).pot == 3  # 3 players x 1
    state = game([P0_RUMMY, P1_HAND, P2_HAND], stake=5)
    assert state.pot == 15  # 3 players x 5
    # A mandatory rebuy costs one stake (5): p2 goes from 1 to 101.
    state = play(p0_declares(state.replace(scores=(0, 1, 0))), GiveUp(player=1), GiveUp(player=2))
    assert state.pot == 20


def test_rule_1_20_elimination_at_the_threshold() -> None:
    # p2 at 1 pays 100 → 101 ≥ 101: eliminated (and rebuys, rule 22). p3 pays 86.
    state = game([P0_RUMMY, P1_HAND, P2_HAND]).replace(scores=(0, 1, 0))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    assert state.result is None
    assert "mandatory rebuy for 1: back in at 86" in [line.reason for line in state.detail.events]
    # At 0, the same 100 leaves p2 on 100, below 101: not eliminated.
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    assert state.scores == (0, 100, 86)
    assert state.detail.events == ()


def test_rule_1_20_rummy71_threshold() -> None:
    # Rummy 71: p2's 100 is past 71; p3's 86 too, so both are out and p1 wins (rule 21).
    variant = get_variant("rummy71")
    deck = stacked([P0_RUMMY, P1_HAND, P2_HAND], "Jh", "Ks")
    state = new_game(variant, players=3, seed=0, deck=deck)
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    assert state.result is not None
    assert state.result.winners == (0,)


def test_rule_1_21_all_but_one_eliminated_ends_the_match() -> None:
    # p2: 1 + 100 = 101; p3: 15 + 86 = 101. Both out in the same deal, first rebuys unused.
    state = game([P0_RUMMY, P1_HAND, P2_HAND]).replace(scores=(0, 1, 15))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    assert state.is_over
    assert state.phase is Phase.MATCH_OVER
    assert state.result is not None
    assert state.result.winners == (0,)
    assert state.result.payouts == (3, 0, 0)
    assert state.result.scores == (0, 101, 101)
    assert state.to_act == ()


def test_rule_1_21_two_players_one_eliminated_ends_the_match() -> None:
    state = game([P0_RUMMY, P1_HAND]).replace(scores=(0, 1))
    state = play(p0_declares(state), GiveUp(player=1))
    assert state.result is not None
    assert (state.result.winners, state.result.payouts) == ((0,), (2, 0))


def test_rule_1_22_first_rebuy_mandatory_and_automatic() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND]).replace(scores=(0, 1, 0))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    # p2 is back in at the highest total among players still in: max(p1 0, p3 86) = 86.
    assert state.scores == (0, 86, 86)
    assert state.players_in == (0, 1, 2)
    assert state.pot == 4  # 3 stakes + 1 for the rebuy
    assert state.detail.rebuys == (0, 1, 0)
    assert state.phase is Phase.DRAW
    assert state.deal_number == 2


def test_rule_1_22_highest_remaining_plus_one() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND], rebuy_score="highest_remaining_plus_one")
    state = play(p0_declares(state.replace(scores=(0, 1, 0))), GiveUp(player=1), GiveUp(player=2))
    assert state.scores == (0, 87, 86)  # 86 + 1


def test_rule_1_22_second_rebuy_at_double_stake() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = state.replace(scores=(0, 1, 0), detail=_rebuys(state, (0, 1, 0)))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    assert state.phase is Phase.REBUY
    assert (state.current_player, state.to_act) == (None, (1,))
    assert state.legal_actions() == (Rebuy(player=1), DeclineRebuy(player=1))
    refused(state, DrawStock(player=0), "p1 cannot act now (rebuy)")
    assert GreedyBot().choose(state.observation(1)) == Rebuy(player=1)  # it always buys back
    state = state.apply(Rebuy(player=1))
    # Back in at 86 (p3's total) for 2 stakes: pot 3 + 2 = 5.
    assert state.scores == (0, 86, 86)
    assert state.pot == 5
    assert state.detail.rebuys == (0, 2, 0)
    assert (state.phase, state.deal_number, state.players_in) == (Phase.DRAW, 2, (0, 1, 2))


def test_rule_1_22_declined_rebuy_makes_a_spectator() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = state.replace(scores=(0, 1, 0), detail=_rebuys(state, (0, 1, 0)))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2), DeclineRebuy(player=1))
    assert state.players_in == (0, 2)
    assert state.detail.spectators == (1,)
    assert state.pot == 3
    assert state.hands[1] == ()  # not dealt in
    assert state.deal_number == 2
    assert state.result is None
    assert state.detail.events[-1].reason == "declined the rebuy: spectator"


def test_rule_1_22_third_elimination_is_final() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = state.replace(scores=(0, 1, 0), detail=_rebuys(state, (0, 2, 0)))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    assert state.phase is Phase.DRAW
    assert state.players_in == (0, 2)
    assert state.pot == 3
    assert state.detail.events[-1].reason == "eliminated: no rebuys left"


def test_rule_1_22_two_rebuys_in_one_deal_share_the_level() -> None:
    # Four players. p2 (1 + 100 = 101) rebuys for the first time, automatically; p3
    # (15 + 86 = 101, one rebuy already) chooses. p1 (0) and p4 (0 + 14 x2 = 28) survive:
    # both come back at 28 + 1 = 29 with highest_remaining_plus_one.
    state = game([P0_RUMMY, P1_HAND, P2_HAND, P3_HAND], rebuy_score="highest_remaining_plus_one")
    state = state.replace(scores=(0, 1, 15, 0), detail=_rebuys(state, (0, 0, 1, 0)))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2), GiveUp(player=3))
    assert state.scores == (0, 29, 101, 28)
    assert state.to_act == (2,)
    state = state.apply(Rebuy(player=2))
    assert state.scores == (0, 29, 29, 28)
    # Pot: 4 stakes + 1 (mandatory) + 2 (second rebuy) = 7.
    assert state.pot == 7


def test_rule_1_22_optional_first_rebuy_setting() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND], first_rebuy_mandatory=False)
    state = play(p0_declares(state.replace(scores=(0, 1, 0))), GiveUp(player=1), GiveUp(player=2))
    assert state.phase is Phase.REBUY
    state = state.apply(Rebuy(player=1))
    assert (state.pot, state.scores) == (4, (0, 86, 86))  # the first rebuy costs 1 stake


def test_rule_1_23_last_player_takes_the_pot() -> None:
    # A spectator leaves two players; the next elimination ends the match.
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = state.replace(scores=(0, 1, 0), detail=_rebuys(state, (0, 1, 0)))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2), DeclineRebuy(player=1))
    # Deal 2, p1 and p3 left: deal 1's dealer was p3, so p1 deals and p3 starts. Pot 3.
    assert (state.dealer, state.current_player, state.pot) == (0, 2, 3)
    state = restack(state, {2: P0_RUMMY, 0: P1_HAND}).replace(scores=(60, 101, 0))
    # p1 pays 50 (deal 2: x1): 60 + 50 = 110, eliminated; p3 is the last player.
    state = play(state, DrawStock(player=2), declare(2, "Ac", *P0_MELDS), GiveUp(player=0))
    assert state.result is not None
    assert state.result.winners == (2,)
    assert state.result.payouts == (0, 0, 3)


# -- the stock (rule 24) -------------------------------------------------------------------


def _short_stock(state: GameState) -> GameState:
    """Move all but the top card of the stock onto the discard pile (cards are conserved)."""
    return state.replace(stock=state.stock[:1], discard_pile=state.stock[1:])


def test_rule_1_24_stock_refill_keeps_the_discard_top() -> None:
    state = _short_stock(game([P0_RUMMY, P1_HAND], stock="Ks"))
    old_pile = state.discard_pile
    state = play(state, DrawStock(player=0), discard(0, "Ks"))
    # The pile was the 80 old cards + Ks on top: Ks stays, the 80 become the stock.
    assert state.discard_pile == (parse_card("Ks"),)
    assert Counter(state.stock) == Counter(old_pile)
    assert len(state.stock) == 80
    assert (state.phase, state.current_player, state.deal_number) == (Phase.DRAW, 1, 1)


def test_rule_1_24_void_deal_option() -> None:
    state = _short_stock(game([P0_RUMMY, P1_HAND], stock="Ks", on_stock_exhausted="void_deal"))
    state = play(state, DrawStock(player=0), discard(0, "Ks"))
    assert state.deal_results == (
        DealResult(deal_number=1, points=(0, 0), ended_by="void: the stock ran out", ending="void"),
    )
    # Nobody scores; the same dealer (p2) deals the same deal again.
    assert (state.scores, state.deal_number, state.dealer) == ((0, 0), 1, 1)
    assert (state.current_player, state.multiplier, state.discard_pile) == (0, 2, ())
    assert [len(hand) for hand in state.hands] == [13, 13]
    assert Counter(state.hands[0]) != Counter(parse_cards(P0_RUMMY))  # a new shuffle


def _rebuys(state: GameState, rebuys: tuple[int, ...]) -> object:
    """The state's Israeli detail with the rebuy counts set (to reach later eliminations)."""
    import attrs  # noqa: PLC0415

    return attrs.evolve(state.detail, rebuys=rebuys)


def test_frish_is_listed_only_where_rule_18_allows() -> None:
    # (Rule 18 has its own tests in test_israeli_table.py; here: the turn's listing.)
    state = game([P0_RUMMY, P1_HAND])
    assert state.legal_actions() == (
        DrawStock(player=0),
        TakeOpenCard(player=0),
        ProposeFrish(player=0),
    )


# -- points settled on review (RULES.md section 5) ---------------------------------------------


def four_jokers_and_a_short_hand() -> GameState:
    variant = get_variant("rummy101", hand_size=4)
    deck = stack_deck(variant, ["* * * *", "2c 3c 4c 5c"], face_up="7h", stock="7c 9d")
    return new_game(variant, players=2, seed=0, deck=deck)


def test_r9_a_face_up_card_that_would_leave_nothing_to_discard_cannot_be_taken() -> None:
    state = four_jokers_and_a_short_hand()
    # After taking the open 7h, p1 would hold four jokers and the 7h: neither a joker nor the
    # card just taken face up may be discarded, and no declaration is possible: a dead end.
    assert TakeOpenCard(player=0) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="cannot take 7h: p1 could discard nothing"):
        state.apply(TakeOpenCard(player=0))
    after = state.apply(DrawStock(player=0))
    assert after.legal_actions() == (Discard(player=0, card=parse_card("7c")),)


def test_r9_the_players_to_act_always_have_a_legal_move_with_few_cards_and_many_jokers() -> None:
    variant = get_variant("rummy101", hand_size=4)
    for seed in range(30):
        state = new_game(variant, players=3, seed=seed)
        chooser = random.Random(seed)
        for _ in range(300):
            if state.is_over:
                break
            legal = state.legal_actions()
            assert legal, (seed, state)
            state = state.apply(chooser.choice(legal))


def declarations_by_search(state: GameState) -> list[DeclareRummy]:
    """Rule 1.11 by the plain method: every allowed discard, the search, then the solver."""
    player = state.current_player
    assert player is not None
    hand = state.hands[player]
    rules, points = state.variant.meld_rules, state.variant.card_points
    taken = state.detail.taken_face_up
    found = []
    for card in sorted({card for card in hand if not card.is_joker}, key=lambda c: c.index):
        if card == taken:
            continue
        rest = list(hand)
        rest.remove(card)
        if may_meld_all(rest, rules):
            best = arrange(rest, rules, points)
            if best.is_complete:
                found.append(DeclareRummy(player=player, discard=card, melds=best.melds))
    return found


@pytest.mark.parametrize(
    ("settings", "players"),
    [({}, 2), ({"jokers": 8, "joker_beside_ace": True}, 4), ({"hand_size": 7}, 3)],
)
def test_rule_1_11_every_declaration_of_a_turn_is_listed(
    settings: dict[str, object], players: int
) -> None:
    # Random play: on each turn after the draw, the declarations listed are exactly those
    # found by trying every allowed discard with the solver.
    variant = get_variant("rummy101", **settings)
    chooser = random.Random(7)
    turns = found = 0
    for seed in range(4):
        state = new_game(variant, players=players, seed=seed)
        for _ in range(600):
            if state.is_over:
                break
            legal = state.legal_actions()
            if state.phase is Phase.PLAY:
                listed = [action for action in legal if isinstance(action, DeclareRummy)]
                assert listed == declarations_by_search(state)
                turns += 1
                found += len(listed)
            state = state.apply(chooser.choice(legal))
    assert turns > 300
    assert found > 0  # declarations did come up


def test_r9_an_open_joker_may_be_taken_while_a_natural_card_is_left_to_discard() -> None:
    variant = get_variant("rummy101", hand_size=4)
    deck = stack_deck(variant, ["* * 2c 3c", "4c 5c 6c 7c"], face_up="*", stock="9d")
    state = new_game(variant, players=2, seed=0, deck=deck)
    assert TakeOpenCard(player=0) in state.legal_actions()
    after = state.apply(TakeOpenCard(player=0))
    assert [action.card for action in after.legal_actions() if isinstance(action, Discard)] == [
        parse_card("2c"),
        parse_card("3c"),
    ]
