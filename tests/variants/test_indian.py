"""Indian rummy (RULES.md section 6): one test or more per rule, named after it.

Expected values are worked out by hand in the comments, never by the code under test.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

from rummylib import GameState, IllegalActionError, Phase, Rank, new_game, parse_card, parse_cards
from rummylib.actions import (
    DeclineRebuy,
    Discard,
    DrawStock,
    Drop,
    Rebuy,
    Show,
    TakeDiscard,
    TimeExpired,
)
from rummylib.bots import GreedyBot, play
from rummylib.errors import ConfigurationError
from rummylib.records import dumps, loads
from rummylib.registry import get_variant
from rummylib.state import stack_deck
from rummylib.testing import RulesMachine, assert_cards_conserved, assert_no_leak
from rummylib.variants.indian import IndianPhase, IndianPublic

PRESETS = ("indian_points", "indian_pool101", "indian_pool201", "indian_deals")

# p1: 2h 3h 4h (pure) | 5s 6s 7d=7s (7s wild) | 9c 9d 9s | Jd Qd Kd, and 3c; p2: no melds.
P1 = "2h 3h 4h 5s 6s 7d 9c 9d 9s Jd Qd Kd 3c"
P2 = "Ac 4c 6c 8c Tc 2d 4d 6d 8d Td 5h 8h Js"
# 2h+4h: p2's count without two sequences is every card: A=10, 4, 6, 8, 10, 2, 4, 6, 8, 10,
# 5, 8, J=10 -> 91, capped at 80.


def _deal(
    name: str = "indian_points",
    hands: tuple[str, ...] = (P1, P2),
    wild: str = "7c",
    open_card: str = "Kh",
    stock: str = "Ad",
    **settings: object,
) -> GameState:
    players = int(settings.pop("players", len(hands)))  # type: ignore[call-overload]
    variant = get_variant(name, **settings)
    face_up = f"{wild} {open_card}" if getattr(variant, "wild_card", True) else open_card
    deck = stack_deck(variant, list(hands), face_up=face_up, stock=stock, players=players)
    return new_game(variant, players=players, seed=1, deck=deck)


def _public(state: GameState, player: int = 0) -> IndianPublic:
    public = state.observation(player).public
    assert isinstance(public, IndianPublic)
    return public


# -- setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "cards", "jokers"), [(2, 53, 1), (3, 106, 2), (4, 106, 2), (6, 106, 2)]
)
def test_rule_6_1_one_pack_for_two_players_two_packs_for_more(
    players: int, cards: int, jokers: int
) -> None:
    state = new_game("indian_points", players=players, seed=4)
    deck = Counter(state.all_cards())
    assert sum(deck.values()) == cards
    assert deck[parse_card("*")] == jokers


def test_rule_6_1_decks_setting_and_a_deck_too_small_is_refused() -> None:
    state = new_game("indian_points", players=2, seed=4, decks=2)
    assert sum(state.all_cards().values()) == 106
    with pytest.raises(ConfigurationError, match="cannot deal 13 cards to 4 players"):
        new_game("indian_points", players=4, seed=1, decks=1)
    with pytest.raises(
        ConfigurationError, match="decks must be None or a whole number from 1 to 4"
    ):
        new_game("indian_points", players=2, seed=1, decks=0)


def test_rule_6_2_the_stacked_deal_then_the_wild_card_then_the_open_card() -> None:
    state = _deal()
    assert state.hands[0] == parse_cards(P1)
    assert state.hands[1] == parse_cards(P2)
    assert state.aside == parse_cards("7c")
    assert state.discard_pile == parse_cards("Kh")
    assert state.stock[0] == parse_card("Ad")
    assert len(state.stock) == 53 - 26 - 2
    assert state.current_player == 0  # rule 6.4


def test_rule_6_2_without_a_wild_card_the_open_card_follows_the_hands() -> None:
    state = _deal(wild_card=False)
    assert state.aside == ()
    assert state.discard_pile == parse_cards("Kh")
    assert state.wild_card is None  # type: ignore[attr-defined]
    assert state.meld_rules.wild_ranks == frozenset()


def test_rule_6_3_the_wild_cards_rank_is_wild_for_the_deal() -> None:
    state = _deal()
    assert state.wild_card == parse_card("7c")  # type: ignore[attr-defined]
    assert state.meld_rules.wild_ranks == frozenset({Rank.SEVEN})
    assert _public(state).wild_card == parse_card("7c")


def test_rule_6_3_a_printed_joker_as_wild_card_makes_aces_wild() -> None:
    state = _deal(wild="*", open_card="Kh")
    assert state.meld_rules.wild_ranks == frozenset({Rank.ACE})
    # The views say so: the face-up joker alone would not tell a player what is wild.
    assert _public(state).lines()[0] == "wild card: * (every A is wild)"


def test_rule_6_3_the_views_say_which_rank_is_wild() -> None:
    assert _public(_deal()).lines()[0] == "wild card: 7c (every 7 is wild)"
    assert not any(line.startswith("wild") for line in _public(_deal(wild_card=False)).lines())


def test_rule_6_4_the_first_seat_moves_on_in_each_deal() -> None:
    state = _deal("indian_pool101")
    state = state.apply(Drop(player=0))  # p1 drops: p2 is the last in the deal
    assert state.deal_number == 2
    assert state.current_player == 1
    state = state.apply(Drop(player=1))
    assert (state.deal_number, state.current_player) == (3, 0)


# -- melds and counting -----------------------------------------------------------------------


def test_rule_6_5_and_6_15_a_loser_without_two_sequences_counts_every_card_at_most_80() -> None:
    state = _deal().apply(DrawStock(player=0)).apply(Show(player=0, discard=parse_card("3c")))
    deal = state.deal_results[0]
    assert deal.points == (0, 80)  # 91 capped at full_count
    assert deal.ending == "show"


def test_rule_6_15_the_cap_is_the_full_count_setting() -> None:
    state = _deal(full_count=100).apply(DrawStock(player=0))
    state = state.apply(Show(player=0, discard=parse_card("3c")))
    assert state.deal_results[0].points == (0, 91)


def test_rule_6_15_a_loser_with_two_sequences_counts_only_the_cards_outside_melds() -> None:
    # p2: Ac 2c 3c (pure) | 5d 6d 7h=7d | Td Jd Qd ... left: 8c Kh 4s 9s -> 8 + 10 + 4 + 9 = 31
    loser = "Ac 2c 3c 5d 6d 7h Td Jd Qd 8c Kh 4s 9s"
    state = _deal(hands=(P1, loser), open_card="2s", decks=2)
    state = state.apply(DrawStock(player=0)).apply(Show(player=0, discard=parse_card("3c")))
    assert state.deal_results[0].points == (0, 31)


def test_rule_6_7_a_wild_card_in_its_own_place_is_natural_and_6_8_keeps_a_run_pure() -> None:
    # Wild 7s: 6h 7h 8h is a pure sequence, so 5s 6s * (impure) completes the show.
    hand = "6h 7h 8h 5s 6s * 9c 9d 9s Jd Qd Kd 3c"
    state = _deal(hands=(hand, P2), decks=2)
    state = state.apply(DrawStock(player=0)).apply(Show(player=0, discard=parse_card("3c")))
    assert state.deal_results[0].ending == "show"
    assert any(meld.is_pure and "7h" in str(meld) for meld in state.deal_results[0].table)


def test_rule_6_8_a_printed_joker_never_makes_a_pure_sequence() -> None:
    # Only impure sequences (each holds a joker or a wild card standing for another):
    # 2h 3h *=4h | 5s 6s 7d=7s | Jd Qd *=Kd Ad, and 9c 9d 9s.
    hand = "2h 3h * 5s 6s 7d 9c 9d 9s Jd Qd * 3c"
    state = _deal(hands=(hand, P2), decks=2)
    state = state.apply(DrawStock(player=0)).apply(Show(player=0, discard=parse_card("3c")))
    deal = state.deal_results[0]  # a wrong show; p2 is the last player in the deal
    assert (deal.points, deal.ending) == ((80, 0), "wrong_show")


# -- turns ------------------------------------------------------------------------------------


def test_rule_6_9_a_discarded_joker_may_not_be_taken() -> None:
    state = _deal().apply(DrawStock(player=0)).apply(Discard(player=0, card=parse_card("7d")))
    assert not state.is_legal(TakeDiscard(player=1))
    assert TakeDiscard(player=1) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="discarded joker"):
        state.apply(TakeDiscard(player=1))
    allowed = _deal(take_discarded_joker=True).apply(DrawStock(player=0))
    allowed = allowed.apply(Discard(player=0, card=parse_card("7d")))
    assert allowed.is_legal(TakeDiscard(player=1))


def test_rule_6_9_the_first_open_card_may_always_be_taken() -> None:
    state = _deal(open_card="7h")  # a wild card as first open card
    assert state.is_legal(TakeDiscard(player=0))
    state = state.apply(DrawStock(player=0)).apply(Discard(player=0, card=parse_card("3c")))
    state = state.apply(TakeDiscard(player=1)).apply(Discard(player=1, card=parse_card("Js")))
    state = state.apply(TakeDiscard(player=0))  # Js is no joker
    state = state.apply(Discard(player=0, card=parse_card("Js")))
    assert state.discard_pile == parse_cards("7h Js")


def test_rule_6_10_an_empty_stock_is_made_again_from_the_open_pile() -> None:
    state = _deal().apply(DrawStock(player=0))
    pile = parse_cards("Kh 2c 3d 4s")
    state = state.replace(stock=(), discard_pile=pile)
    state = state.apply(Discard(player=0, card=parse_card("3c")))
    assert state.discard_pile == parse_cards("3c")  # the top stays
    assert Counter(state.stock) == Counter(pile)
    assert state.shuffle_count == 2
    again = _deal().apply(DrawStock(player=0)).replace(stock=(), discard_pile=pile)
    assert again.apply(Discard(player=0, card=parse_card("3c"))).stock == state.stock  # seeded


def test_rule_6_11_a_first_drop_scores_20_and_the_hand_goes_face_down() -> None:
    state = _deal(players=3, hands=(P1, P2, P2)).apply(Drop(player=0))
    assert state.hands[0] == ()
    assert Counter(state.hidden) == Counter(parse_cards(P1))
    observation = state.observation(1)
    assert observation.hidden_count == 13
    assert _public(state).deal_points == (20, 0, 0)
    assert _public(state).out_of_deal == (0,)
    assert state.current_player == 1
    assert not state.is_legal(Drop(player=0))


def test_rule_6_11_a_middle_drop_scores_40() -> None:
    state = _deal(players=3, hands=(P1, P2, P2))
    state = state.apply(DrawStock(player=0)).apply(Discard(player=0, card=parse_card("3c")))
    state = state.apply(DrawStock(player=1)).apply(Discard(player=1, card=parse_card("Js")))
    state = state.apply(DrawStock(player=2)).apply(Discard(player=2, card=parse_card("Js")))
    # the facts line says what the take changed
    assert "taken a card (a drop is now a middle drop): p1, p2, p3" in _public(state).lines()
    state = state.apply(Drop(player=0))
    assert _public(state).deal_points == (40, 0, 0)


def test_rule_6_11_drops_in_pool_201_are_25_and_50() -> None:
    state = _deal("indian_pool201", players=3, hands=(P1, P2, P2)).apply(Drop(player=0))
    assert _public(state).deal_points == (25, 0, 0)
    assert (state.variant.first_drop, state.variant.middle_drop) == (25, 50)  # type: ignore[attr-defined]


def test_rule_6_11_a_drop_is_made_before_taking_a_card() -> None:
    state = _deal().apply(DrawStock(player=0))
    assert not state.is_legal(Drop(player=0))


def test_rule_6_12_a_valid_show_puts_the_melds_down_and_the_finishing_card_face_down() -> None:
    state = _deal().apply(DrawStock(player=0))
    show = Show(player=0, discard=parse_card("3c"))
    assert show in state.legal_actions()
    state = state.apply(show)
    assert state.is_over
    assert state.hidden == parse_cards("3c")
    assert Counter(card for meld in state.table for card in meld.cards) == Counter(
        parse_cards("2h 3h 4h 5s 6s 7d 9c 9d 9s Jd Qd Kd Ad")
    )
    assert state.observation(1).hidden_count == 1


def test_rule_6_12_every_card_may_finish_and_a_wrong_show_is_listed() -> None:
    state = _deal().apply(DrawStock(player=0))
    shows = [action for action in state.legal_actions() if isinstance(action, Show)]
    assert len(shows) == 14  # 14 distinct cards
    assert Show(player=0, discard=parse_card("Kd")) in shows  # leaves Jd Qd Ad: wrong


def test_rule_6_12_a_wrong_show_costs_80_and_the_others_play_on() -> None:
    state = _deal(players=3, hands=(P1, P2, P2)).apply(DrawStock(player=0))
    state = state.apply(Show(player=0, discard=parse_card("2h")))  # no pure sequence left
    assert not state.is_over
    assert state.deal_results == ()
    assert state.hands[0] == ()
    assert len(state.hidden) == 14
    assert _public(state).deal_points == (80, 0, 0)
    assert state.current_player == 1
    assert state.variant.match_statistics(state)[1] == ("wrong shows", 1)


def test_rule_6_13_a_clock_run_out_is_a_first_or_a_middle_drop() -> None:
    first = _deal(players=3, hands=(P1, P2, P2)).apply(TimeExpired(player=0))
    assert _public(first).deal_points == (20, 0, 0)
    taken = _deal(players=3, hands=(P1, P2, P2)).apply(DrawStock(player=0))
    taken = taken.apply(TimeExpired(player=0))  # after the take of a turn: a middle drop
    assert _public(taken).deal_points == (40, 0, 0)
    assert len(taken.hidden) == 14
    assert not first.is_legal(TimeExpired(player=0))  # not p1's move


def test_rule_6_14_the_last_player_in_the_deal_wins_it_with_0() -> None:
    state = _deal(players=3, hands=(P1, P2, P2)).apply(Drop(player=0))
    state = state.apply(Drop(player=1))
    deal = state.deal_results[0]
    assert deal.points == (20, 20, 0)
    assert deal.ending == "drop"
    assert deal.hands == ((), (), ())  # the winner does not show


def test_rule_6_16_points_payouts_are_signed() -> None:
    state = _deal().apply(Drop(player=0))
    assert state.result is not None
    assert state.result.winners == (1,)
    assert state.result.payouts == (-20, 20)
    assert state.result.scores == (20, 0)


def test_rule_6_17_a_player_reaching_the_limit_is_eliminated_and_the_last_one_wins() -> None:
    state = _deal("indian_pool101").replace(scores=(90, 0))
    state = state.apply(Drop(player=0))  # 90 + 20 = 110 >= 101
    assert state.result is not None
    assert state.result.winners == (1,)
    assert state.result.scores == (110, 0)


def test_rule_6_17_a_rejoin_is_offered_beside_the_last_player_too() -> None:
    state = _deal("indian_pool101", rejoin_below=79).replace(scores=(90, 30))
    state = state.apply(Drop(player=0))  # p1 at 110, p2 at 30 <= 79
    assert state.phase is IndianPhase.REJOIN
    declined = state.apply(DeclineRebuy(player=0))
    assert declined.result is not None
    assert declined.result.winners == (1,)
    rejoined = state.apply(Rebuy(player=0))
    assert rejoined.scores == (31, 30)
    assert not rejoined.is_over
    # The greedy bot always takes a rejoin it is offered.
    assert GreedyBot().choose(state.observation(0)) == Rebuy(player=0)


def test_rule_6_17_players_rejoining_after_one_deal_all_rejoin_at_the_same_total() -> None:
    hands = (P1, P2, P2)
    state = _deal("indian_pool101", hands=hands, players=3, rejoin_below=79)
    state = state.replace(scores=(90, 95, 10)).apply(Drop(player=0)).apply(Drop(player=1))
    assert state.to_act == (0, 1)  # both out at 110 and 115; p3 at 10
    state = state.apply(Rebuy(player=1)).apply(Rebuy(player=0))
    assert state.scores == (11, 11, 10)


def test_rule_6_17_a_player_offered_a_rejoin_is_in_the_match_until_they_answer() -> None:
    # Every player who may act is in the match (to_act within players_in): the eliminated
    # player stays in through the rejoin window and leaves on a decline.
    hands = (P1, P2, P2)
    state = _deal("indian_pool101", hands=hands, players=3, rejoin_below=79)
    state = state.replace(scores=(90, 30, 10)).apply(Drop(player=0)).apply(Drop(player=1))
    assert state.phase is IndianPhase.REJOIN
    assert state.to_act == (0,)
    assert state.players_in == (0, 1, 2)
    assert _public(state).eliminated == (0,)
    declined = state.apply(DeclineRebuy(player=0))
    assert declined.players_in == (1, 2)
    assert declined.phase is Phase.DRAW


def test_rule_6_17_a_total_of_100_stays_in() -> None:
    state = _deal("indian_pool101").replace(scores=(80, 0)).apply(Drop(player=0))
    assert not state.is_over
    assert state.scores == (100, 0)


def test_rule_6_17_rejoin_at_the_highest_total_plus_one_once() -> None:
    hands = (P1, P2, P2)
    state = _deal("indian_pool101", hands=hands, rejoin_below=79).replace(scores=(90, 30, 10))
    state = state.apply(Drop(player=0)).apply(Drop(player=1))  # p1 110 out; p2 50, p3 10
    assert state.phase is IndianPhase.REJOIN
    assert state.to_act == (0,)
    assert state.legal_actions(0) == (Rebuy(player=0), DeclineRebuy(player=0))
    state = state.apply(Rebuy(player=0))
    assert state.scores == (51, 50, 10)
    assert state.players_in == (0, 1, 2)
    assert _public(state).rejoined == (0,)
    assert state.phase is Phase.DRAW
    # Eliminated again: no second rejoin.
    state = state.replace(scores=(95, 50, 10))
    state = state.apply(Drop(player=state.current_player)) if state.current_player == 0 else state
    while state.players_in == (0, 1, 2) and not state.is_over:
        player = state.current_player
        assert player is not None
        state = state.apply(Drop(player=player))
    assert 0 not in state.players_in
    assert state.phase is not IndianPhase.REJOIN


def test_rule_6_17_no_rejoin_when_the_highest_total_is_above_rejoin_below() -> None:
    state = _deal("indian_pool101", hands=(P1, P2, P2), rejoin_below=79)
    state = state.replace(scores=(90, 75, 10)).apply(Drop(player=0)).apply(Drop(player=1))
    assert state.phase is Phase.DRAW  # p2 at 95 > 79: p1 may not rejoin
    assert state.players_in == (1, 2)


def test_rule_6_17_a_declined_rejoin_and_a_clock_run_out_leave_the_player_out() -> None:
    for answer in (DeclineRebuy(player=0), TimeExpired(player=0)):
        state = _deal("indian_pool101", hands=(P1, P2, P2), rejoin_below=79)
        state = state.replace(scores=(90, 30, 10)).apply(Drop(player=0)).apply(Drop(player=1))
        state = state.apply(answer)
        assert state.players_in == (1, 2)
        assert _public(state).eliminated == (0,)


def test_rule_6_17_rejoin_below_must_leave_room_below_the_limit() -> None:
    with pytest.raises(ConfigurationError, match="rejoin_below must be below"):
        new_game("indian_pool101", players=2, seed=1, rejoin_below=100)


def test_rule_6_18_deals_are_played_for_chips() -> None:
    state = _deal("indian_deals")
    assert _public(state).chips == (160, 160)  # 80 x 2 players each
    state = state.apply(Drop(player=0))  # deal 1: p1 pays 20
    assert _public(state).chips == (140, 180)
    assert state.deal_number == 2
    state = state.apply(Drop(player=state.current_player or 0))  # deal 2: p2 plays first, drops
    assert state.result is not None
    assert state.result.scores == (160, 160)
    assert state.result.winners == (0, 1)  # equal chips share the win
    assert state.result.payouts == (0, 0)


# -- bots, records, statistics ----------------------------------------------------------------


def test_greedy_shows_when_it_can() -> None:
    state = _deal().apply(DrawStock(player=0))
    assert GreedyBot().choose(state.observation(0)) == Show(player=0, discard=parse_card("3c"))


def test_greedy_drops_a_hopeless_first_hand_only() -> None:
    # Wild 8: no pure sequence, and its best melds leave 70 points or more (the bot's bar).
    hopeless = "3d 9d Td Ac As 2d Js 6d Jh Kd 6h 9s 2s"
    state = _deal(hands=(hopeless, P2), wild="8h", open_card="9h", decks=2)
    assert GreedyBot().choose(state.observation(0)) == Drop(player=0)
    later = state.apply(DrawStock(player=0)).apply(Discard(player=0, card=parse_card("Kd")))
    later = later.apply(DrawStock(player=1)).apply(Discard(player=1, card=parse_card("Js")))
    assert GreedyBot().choose(later.observation(0)) != Drop(player=0)


def test_greedy_never_takes_the_open_card_to_throw_it_straight_back() -> None:
    # Seed 100008: each bot took the Td from the open pile (it made a set of tens) and threw
    # it back (its discard keeps two sequences, one pure): the deal never ended.
    state = new_game("indian_points", players=2, seed=100_008)
    assert play(state, [GreedyBot(), GreedyBot()], max_actions=2_000).is_over


@pytest.mark.parametrize("players", [2, 4, 6])
def test_greedy_matches_end(players: int) -> None:
    # Every greedy match of each preset ends well within the engine's own cap.
    for name in PRESETS:
        for seed in range(4):
            state = new_game(name, players=players, seed=seed)
            finished = play(state, [GreedyBot()] * players, max_actions=20_000)
            assert finished.is_over, (name, players, seed)


def test_records_write_drops_and_shows_and_the_wild_card() -> None:
    state = _deal().apply(DrawStock(player=0)).apply(Show(player=0, discard=parse_card("3c")))
    text = dumps(state)
    assert '"d aside 7c"' in text
    assert '"p1 show 3c"' in text
    assert loads(text).final_state == state
    view = dumps(state, view=1)
    assert '"p1 show ??"' in view  # the finishing card lies face down
    assert "3c" not in view.split('"d aside')[1].split("p1 show")[1]
    assert loads(view).final_observation == state.observation(1)


def test_a_view_record_never_shows_a_dropped_hand() -> None:
    state = _deal(players=3, hands=(P1, P2, P2)).apply(Drop(player=0)).apply(Drop(player=1))
    view = dumps(state, view=2)
    assert "d show" not in view
    assert loads(view).final_observation == state.observation(2)


def test_match_statistics_count_drops_wrong_shows_shows_eliminations_rejoins() -> None:
    state = _deal("indian_pool101", hands=(P1, P2, P2), rejoin_below=79)
    state = state.replace(scores=(90, 30, 10)).apply(Drop(player=0)).apply(Drop(player=1))
    state = state.apply(Rebuy(player=0))
    assert dict(state.variant.match_statistics(state)) == {
        "drops": 2,
        "wrong shows": 0,
        "shows": 0,
        "eliminations": 1,
        "rejoins": 1,
    }


# -- random play, every preset, 2-6 players ---------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(PRESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**16),
    greedy=st.floats(0, 1),
)
def test_property_random_play_keeps_every_rule_invariant(
    name: str, players: int, seed: int, greedy: float
) -> None:
    rng = random.Random(seed)
    state = new_game(name, players=players, seed=seed)
    deck = state.all_cards()
    bot = GreedyBot()
    for step in range(400):
        if state.is_over:
            break
        assert_cards_conserved(state, deck)
        listed = state.legal_actions()
        assert listed, "a dead end"
        assert all(state.is_legal(action) for action in rng.sample(listed, min(5, len(listed))))
        if step % 25 == 0:
            for player in range(players):
                assert_no_leak(state, player, seed=step)
            assert GameState.from_json(state.to_json()) == state
        player = state.to_act[0]
        action = bot.choose(state.observation(player)) if rng.random() < greedy else None
        state = state.apply(action or rng.choice(listed))
    assert loads(dumps(state)).final_state == state
    view = rng.randrange(players)
    assert loads(dumps(state, view=view)).final_observation == state.observation(view)


def test_the_rules_machine_reaches_drops_wrong_shows_eliminations_and_rejoins() -> None:
    seen: Counter[str] = Counter()

    class Pool(RulesMachine):
        variant = "indian_pool101"
        table_settings = ({"rejoin_below": 45, "pool_limit": 60},)
        check_leaks = False  # checked by the property above; this one counts what it reaches

        def on_finish(self, state: GameState) -> None:
            seen.update(dict(state.variant.match_statistics(state)))

    run_state_machine_as_test(
        Pool,
        settings=settings(
            max_examples=30,
            stateful_step_count=60,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    for name in ("drops", "wrong shows", "shows", "eliminations", "rejoins"):
        assert seen[name] > 0, (name, seen)
