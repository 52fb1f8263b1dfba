"""Rummy 71 / Rummy 101 at an online table: RULES.md section 1, rules 18 and 23–27.

Frish votes, the next match at the same table, host-reported clocks, disconnections played
by the engine, and removals. Built with the stacked decks of ``test_israeli.py``; expected
numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import GameState, Phase, get_variant, new_game, parse_card, parse_cards
from rummylib.actions import (
    Action,
    AnswerFrish,
    DeclineRebuy,
    Discard,
    Disconnect,
    DrawStock,
    GiveUp,
    ProposeFrish,
    Reconnect,
    TakeOpenCard,
    TimeExpired,
)
from rummylib.bots import GreedyBot
from rummylib.bots import play as play_bots
from rummylib.errors import ConfigurationError
from rummylib.variants.base import TurnClock
from rummylib.variants.israeli import IsraeliRummy, next_match
from tests.variants.test_israeli import (
    P0_MELDS,
    P0_RUMMY,
    P1_HAND,
    P2_HAND,
    P3_HAND,
    declare,
    discard,
    game,
    p0_declares,
    play,
    refused,
    restack,
)


def clock(state: GameState) -> TurnClock:
    """The state's clock, which must be running."""
    running = state.turn_clock()
    assert running is not None
    return running


@contextlib.contextmanager
def config_error(message: str) -> Iterator[None]:
    """The block raises :class:`ConfigurationError` with exactly ``message``."""
    with pytest.raises(ConfigurationError) as error:
        yield
    assert str(error.value) == message


def auto_turn(state: GameState) -> GameState:
    """The current player's whole turn as the engine plays it (take, then discard)."""
    state = state.apply(state.auto_action())
    return state.apply(state.auto_action())


def without_bookkeeping(state: GameState, like: GameState) -> GameState:
    """``state`` with the history, Frish count and clock number of ``like``."""
    return state.replace(
        log=like.log,
        detail=attrs.evolve(
            state.detail,
            frish_proposals=like.detail.frish_proposals,
            clock_number=like.detail.clock_number,
        ),
    )


# -- rule 18: Frish -------------------------------------------------------------------------


def test_rule_1_18_refused_frish_changes_nothing() -> None:
    before = game([P0_RUMMY, P1_HAND])
    voting = before.apply(ProposeFrish(player=0))
    assert voting.phase is Phase.FRISH_VOTE
    assert (voting.current_player, voting.to_act) == (None, (1,))
    assert voting.legal_actions() == (
        AnswerFrish(player=1, accept=False),
        AnswerFrish(player=1, accept=True),
    )
    refused(voting, DrawStock(player=0), "p1 cannot act now (frish_vote)")
    after = voting.apply(AnswerFrish(player=1, accept=False))
    # Back to p1's turn, before taking a card; only the proposal is used up.
    assert without_bookkeeping(after, before) == before
    assert after.detail.frish_proposals == (1, 0)
    assert after.multiplier == 2
    refused(
        after,
        ProposeFrish(player=0),
        "cannot propose frish: p1 has already proposed frish in this deal",
    )
    assert after.is_legal(TakeOpenCard(player=0))


def test_rule_1_18_accepted_frish_doubles_and_redeals_with_the_same_dealer() -> None:
    state = game([P0_RUMMY, P1_HAND])
    state = play(state, ProposeFrish(player=0), AnswerFrish(player=1, accept=True))
    # x2 (first deal) doubled: x4. Same deal, same dealer (p2), so p1 plays first again.
    assert (state.multiplier, state.deal_number, state.dealer) == (4, 1, 1)
    assert (state.phase, state.current_player, state.to_act) == (Phase.DRAW, 0, (0,))
    # All cards collected and dealt anew from the seed (the stacked deck was the first shuffle).
    assert [len(hand) for hand in state.hands] == [13, 13]
    assert Counter(state.hands[0]) != Counter(parse_cards(P0_RUMMY))
    assert state.discard_pile == ()
    assert state.open_card is not None
    assert state.shuffle_count == 2
    assert state.all_cards() == Counter(state.variant.deck_for(2))
    # The first go-around starts over: the open card may be taken, p2 may still propose.
    assert state.is_legal(TakeOpenCard(player=0))
    refused(
        state,
        ProposeFrish(player=0),
        "cannot propose frish: p1 has already proposed frish in this deal",
    )
    state = auto_turn(state)
    assert state.is_legal(ProposeFrish(player=1))


def test_rule_1_18_multiplier_stacks_2_4_8() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    # p1 proposes, both accept: 2 → 4.
    state = play(
        state,
        ProposeFrish(player=0),
        AnswerFrish(player=1, accept=True),
        AnswerFrish(player=2, accept=True),
    )
    assert state.multiplier == 4
    # Redealt; p1 plays a turn, then p2 proposes: 4 → 8.
    state = auto_turn(state)
    state = play(
        state,
        ProposeFrish(player=1),
        AnswerFrish(player=2, accept=True),
        AnswerFrish(player=0, accept=True),
    )
    assert (state.multiplier, state.deal_number, state.current_player) == (8, 1, 0)
    # Redealt again: p1 and p2 play, p3 proposes: 8 → 16.
    state = auto_turn(auto_turn(state))
    state = play(
        state,
        ProposeFrish(player=2),
        AnswerFrish(player=0, accept=True),
        AnswerFrish(player=1, accept=True),
    )
    assert state.multiplier == 16
    assert state.detail.frish_proposals == (1, 1, 1)


def test_rule_1_18_max_multiplier_caps_proposals() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND], max_multiplier=8)
    state = play(state, ProposeFrish(player=0), *_accept(1, 2))
    state = play(auto_turn(state), ProposeFrish(player=1), *_accept(2, 0))
    assert state.multiplier == 8
    state = auto_turn(auto_turn(state))
    refused(
        state,
        ProposeFrish(player=2),
        "cannot propose frish: the multiplier would become x16, above the table's cap of x8",
    )


def test_rule_1_18_answers_in_any_order() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND]).apply(ProposeFrish(player=0))
    assert state.to_act == (1, 2)
    state = state.apply(AnswerFrish(player=2, accept=True))
    assert (state.phase, state.to_act) == (Phase.FRISH_VOTE, (1,))
    refused(state, AnswerFrish(player=2, accept=True), "p3 cannot act now (frish_vote)")
    refused(state, AnswerFrish(player=0, accept=True), "p1 cannot act now (frish_vote)")
    state = state.apply(AnswerFrish(player=1, accept=True))
    assert state.multiplier == 4


def test_rule_1_18_one_refusal_is_enough() -> None:
    before = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = play(before, ProposeFrish(player=0), AnswerFrish(player=1, accept=True))
    state = state.apply(AnswerFrish(player=2, accept=False))
    assert without_bookkeeping(state, before) == before


def test_rule_1_18_only_in_the_first_go_around_before_taking_a_card() -> None:
    state = game([P0_RUMMY, P1_HAND]).apply(DrawStock(player=0))
    refused(
        state,
        ProposeFrish(player=0),
        "cannot propose frish: frish is proposed before taking a card",
    )
    state = play(state, discard(0, "Ks"), DrawStock(player=1), discard(1, "5s"))
    refused(
        state,
        ProposeFrish(player=0),
        "cannot propose frish: frish can only be proposed in the first go-around",
    )
    refused(state, ProposeFrish(player=1), "it is p1's turn, not p2's")


def test_rule_1_18_frish_window_never() -> None:
    state = game([P0_RUMMY, P1_HAND], frish_window="never")
    assert ProposeFrish(player=0) not in state.legal_actions()
    refused(
        state, ProposeFrish(player=0), "cannot propose frish: frish is not played at this table"
    )


def test_rule_1_18_frish_per_player_per_deal() -> None:
    state = game([P0_RUMMY, P1_HAND], frish_per_player_per_deal=2)
    refuse = AnswerFrish(player=1, accept=False)
    state = play(state, ProposeFrish(player=0), refuse, ProposeFrish(player=0), refuse)
    refused(
        state,
        ProposeFrish(player=0),
        "cannot propose frish: p1 has already proposed frish 2 times in this deal",
    )


def test_rule_1_18_multiplier_applies_to_every_penalty_and_not_to_the_next_deal() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND], elimination_threshold=1000)
    state = play(state, ProposeFrish(player=0), *_accept(1, 2))
    # The redeal is laid out as in the stacked deal to know the penalties.
    state = restack(state, {0: P0_RUMMY, 1: P1_HAND, 2: P2_HAND})
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    # p2 50 x4 = 200; p3 43 x4 = 172.
    assert state.deal_results[0].points == (0, 200, 172)
    assert (state.deal_number, state.multiplier) == (2, 1)
    assert state.detail.frish_proposals == (0, 0, 0)


def test_rule_1_18_no_answer_is_a_refusal() -> None:
    before = game([P0_RUMMY, P1_HAND, P2_HAND])
    voting = before.apply(ProposeFrish(player=0))
    vote = clock(voting)
    assert vote == TurnClock(players=(1, 2), seconds=15, grace_seconds=0, number=vote.number)
    refused(voting, TimeExpired(player=0), "p1's clock is not running")
    state = voting.apply(TimeExpired(player=2))
    assert without_bookkeeping(state, before) == before
    # A disconnected voter is answered for by the engine: a refusal.
    voting = play(before, Disconnect(player=2), ProposeFrish(player=0))
    assert voting.auto_action() == AnswerFrish(player=2, accept=False)


def test_rule_1_18_greedy_bot_proposes_and_answers_by_hand_strength() -> None:
    bot = GreedyBot()
    # P0_RUMMY's best melds leave Kh Kd = 20 ≤ 20: it proposes.
    state = game([P0_RUMMY, P3_HAND])
    assert bot.choose(state.observation(0)) == ProposeFrish(player=0)
    # P3_HAND leaves 9h 5h = 14 ≤ 30: it accepts.
    state = state.apply(ProposeFrish(player=0))
    assert bot.choose(state.observation(1)) == AnswerFrish(player=1, accept=True)
    # P1_HAND leaves 50: it neither proposes (50 > 20) nor accepts (50 > 30).
    state = game([P1_HAND, P0_RUMMY])
    assert not isinstance(bot.choose(state.observation(0)), ProposeFrish)
    state = game([P0_RUMMY, P1_HAND]).apply(ProposeFrish(player=0))
    assert bot.choose(state.observation(1)) == AnswerFrish(player=1, accept=False)


def _accept(*players: int) -> tuple[AnswerFrish, ...]:
    return tuple(AnswerFrish(player=player, accept=True) for player in players)


# -- rule 23: the table ---------------------------------------------------------------------


def _won_by_p2() -> GameState:
    """A three-player match that p2 wins: p1 and p3 run out of time on their turns."""
    state = game([P0_RUMMY, P1_HAND, P2_HAND]).apply(TimeExpired(player=0))
    state = auto_turn(state).apply(TimeExpired(player=2))
    assert state.result is not None
    assert state.result.winners == (1,)
    return state


def test_rule_1_23_next_match_the_winner_plays_first() -> None:
    final = _won_by_p2()
    state = next_match(final, seed=3)
    # Seats stay; p2 (seat 1) won, so seat 0 deals and p2 plays first.
    assert (state.player_count, state.players_in) == (3, (0, 1, 2))
    assert (state.dealer, state.current_player) == (0, 1)
    # A new match: stakes again (3), totals back to 0, the first deal doubles.
    assert (state.pot, state.scores, state.deal_number, state.multiplier) == (3, (0, 0, 0), 1, 2)
    # The turn to start rotates from the winner: deal 2 is dealt by p2, p3 starts.
    state = restack(state, {1: P0_RUMMY, 2: P1_HAND, 0: P2_HAND})
    state = play(state, DrawStock(player=1), declare(1, "Ac", *P0_MELDS))
    state = play(state, GiveUp(player=2), GiveUp(player=0))
    assert (state.deal_number, state.dealer, state.current_player) == (2, 1, 2)


def test_rule_1_23_spectators_may_join_or_sit_out() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = state.replace(scores=(0, 1, 0), detail=attrs.evolve(state.detail, rebuys=(0, 1, 0)))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2), DeclineRebuy(player=1))
    assert state.detail.spectators == (1,)
    # The match goes on with p1 and p3; time runs out for p3 on their turn: p1 wins.
    state = state.apply(TimeExpired(player=state.to_act[0]))
    assert state.result is not None
    winner = state.result.winners[0]
    # The spectator p2 joins the next match...
    assert next_match(state, seed=1).players_in == (0, 1, 2)
    # ... or keeps watching: two players, two stakes.
    watching = next_match(state, seed=1, sitting_out=[1])
    assert (watching.players_in, watching.pot, watching.hands[1]) == ((0, 2), 2, ())
    assert watching.current_player == winner


def test_rule_1_23_next_match_refusals() -> None:
    final = _won_by_p2()
    with config_error("the match is not over yet"):
        next_match(next_match(final, seed=1))
    with config_error("at least 2 players must be dealt in, not 1"):
        next_match(final, sitting_out=[0, 2])
    # If the winner leaves, the next seat dealt in plays first.
    assert next_match(final, seed=1, sitting_out=[1]).current_player == 2


def test_rule_1_23_next_match_round_trips_through_json() -> None:
    state = auto_turn(next_match(_won_by_p2(), seed=4, sitting_out=[0]))
    assert GameState.from_json(state.to_json()) == state


# -- rule 25: clocks ------------------------------------------------------------------------


def test_rule_1_25_turn_clock_seconds() -> None:
    state = game([P0_RUMMY, P1_HAND])
    first = clock(state)
    # First go-around: 60 s, then a 60 s grace.
    assert first == TurnClock(players=(0,), seconds=60, grace_seconds=60, number=first.number)
    assert first.total_seconds == 120
    # Taking a card does not restart the clock: one turn, one clock.
    assert clock(state.apply(DrawStock(player=0))) == first
    state = play(state, DrawStock(player=0), discard(0, "Ks"))
    second = clock(state)
    assert (second.players, second.seconds, second.number != first.number) == ((1,), 60, True)
    state = play(state, DrawStock(player=1), discard(1, "5s"))
    # After the first go-around: 30 s, grace 60 s.
    later = clock(state)
    assert (later.players, later.seconds, later.grace_seconds) == ((0,), 30, 60)


def test_rule_1_25_clock_settings() -> None:
    state = game([P0_RUMMY, P1_HAND], first_go_around_seconds=90, turn_seconds=20, grace_seconds=10)
    assert (clock(state).seconds, clock(state).grace_seconds) == (90, 10)
    state = play(state, DrawStock(player=0), discard(0, "Ks"), DrawStock(player=1))
    state = state.apply(discard(1, "5s"))
    assert clock(state).seconds == 20


def test_rule_1_25_window_and_rebuy_clocks() -> None:
    state = p0_declares(game([P0_RUMMY, P1_HAND, P2_HAND], post_declare_seconds=45))
    window = clock(state)
    assert (window.players, window.seconds, window.grace_seconds) == ((1, 2), 45, 0)
    # One player's answer does not restart the others' clock.
    after = clock(state.apply(GiveUp(player=1)))
    assert (after.players, after.number) == ((2,), window.number)
    # No clock runs while eliminated players decide on a rebuy.
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = state.replace(scores=(0, 1, 0), detail=attrs.evolve(state.detail, rebuys=(0, 1, 0)))
    state = play(p0_declares(state), GiveUp(player=1), GiveUp(player=2))
    assert state.phase is Phase.REBUY
    assert state.turn_clock() is None
    refused(state, TimeExpired(player=1), "no clock runs in the rebuy phase")


def test_rule_1_25_time_expired_removes_the_player_who_loses() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND], open_card="Jh", stock="Ks")
    stock = state.stock
    state = state.apply(TimeExpired(player=0))
    # p1 is out; their 13 cards go under the stock: 108 − 39 dealt − 1 open = 68 cards,
    # then p1's hand, 68 + 13 = 81.
    assert state.players_in == (1, 2)
    assert state.hands[0] == ()
    assert state.stock == (*stock, *parse_cards(P0_RUMMY))
    assert len(state.stock) == 81
    assert state.detail.removed == (0,)
    assert state.pot == 3  # the stake is forfeited, not returned
    # Play passes on; p2's turn is still in the first go-around.
    assert (state.phase, state.current_player) == (Phase.DRAW, 1)
    assert clock(state).seconds == 60
    assert state.is_legal(TakeOpenCard(player=1))
    refused(state, Disconnect(player=0), "p1 is not in the match")
    refused(state, DrawStock(player=0), "it is p2's turn, not p1's")


def test_rule_1_25_time_expired_after_taking_a_card() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND], stock="Ks").apply(DrawStock(player=0))
    stock = state.stock
    state = state.apply(TimeExpired(player=0))
    # All 14 cards (the 13 dealt, then Ks) go under the stock.
    assert state.stock == (*stock, *parse_cards(P0_RUMMY), parse_card("Ks"))
    assert (state.phase, state.current_player) == (Phase.DRAW, 1)


def test_rule_1_25_timed_out_player_in_a_two_player_match_loses_the_pot() -> None:
    state = game([P0_RUMMY, P1_HAND]).apply(TimeExpired(player=0))
    assert state.is_over
    assert state.result is not None
    assert state.result.winners == (1,)
    assert state.result.payouts == (0, 2)
    assert state.result.lines[0].reason == "removed: the turn clock ran out; loses, stake forfeited"


def test_rule_1_25_time_expired_in_the_window_is_giving_up() -> None:
    declared = p0_declares(game([P0_RUMMY, P1_HAND, P2_HAND]))
    refused(declared, TimeExpired(player=0), "p1's clock is not running")
    timed_out = declared.apply(TimeExpired(player=1))
    gave_up = declared.apply(GiveUp(player=1))
    assert timed_out.replace(log=None) == gave_up.replace(log=None)
    assert timed_out.players_in == (0, 1, 2)
    # Scored, not removed: with as_shown, giving up counts all 80 points, x2 = 160.
    declared = p0_declares(game([P0_RUMMY, P1_HAND], loser_melds="as_shown"))
    assert declared.apply(TimeExpired(player=1)).deal_results[0].points == (0, 160)


def test_rule_1_25_time_expired_only_for_the_running_clock() -> None:
    state = game([P0_RUMMY, P1_HAND])
    refused(state, TimeExpired(player=1), "p2's clock is not running")


# -- rule 26: disconnection -----------------------------------------------------------------


def test_rule_1_26_auto_action_takes_from_the_stock_and_discards_it() -> None:
    state = game([P0_RUMMY, P1_HAND], stock="Kc")
    assert state.auto_action() == DrawStock(player=0)
    state = state.apply(state.auto_action())
    assert state.auto_action() == discard(0, "Kc")


def test_rule_1_26_auto_action_keeps_a_joker() -> None:
    # The joker is kept; the highest-value other card goes: 9h (9; nothing above).
    hand = "Ac 2c 3c 4d 5d 6d 7h 8h 9h 2s 3s 4s 5s"
    state = game([hand, P1_HAND], stock="*")
    state = state.apply(state.auto_action())
    assert state.auto_action() == discard(0, "9h")


def test_rule_1_26_disconnect_and_reconnect_do_not_use_the_turn() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND]).apply(DrawStock(player=0))
    after = state.apply(Disconnect(player=2))
    assert (after.phase, after.to_act, after.hands) == (state.phase, state.to_act, state.hands)
    assert clock(after) == clock(state)
    assert after.detail.disconnected == (2,)
    assert Disconnect(player=2) not in state.legal_actions()  # host events are not moves
    refused(after, Disconnect(player=2), "p3 is already disconnected")
    refused(state, Reconnect(player=2), "p3 is not disconnected")
    back = after.apply(Reconnect(player=2))
    assert back.replace(log=None) == state.replace(log=None)


def test_rule_1_26_third_and_fourth_auto_played_turns_then_removal() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND]).apply(Disconnect(player=1))
    counts = []
    for _ in range(3):  # p1, p2 (auto-played), p3
        state = auto_turn(auto_turn(auto_turn(state)))
        counts.append(state.detail.autoplayed[1])
    assert counts == [1, 2, 3]
    assert state.players_in == (0, 1, 2)
    state = auto_turn(state)  # p1
    hand = state.hands[1]
    stock = state.stock
    state = auto_turn(state)  # p2's 4th auto-played turn
    thrown = state.history[-1]
    assert isinstance(thrown, Discard)
    assert state.players_in == (0, 2)
    assert state.hands[1] == ()
    # p2 took the top of the stock and threw a card; the 13 they kept go under the stock.
    kept = Counter(hand)
    kept[stock[0]] += 1
    kept[thrown.card] -= 1
    assert state.stock[: len(stock) - 1] == stock[1:]
    assert Counter(state.stock[len(stock) - 1 :]) == +kept
    assert (state.phase, state.current_player) == (Phase.DRAW, 2)
    assert state.detail.events[-1].reason == (
        "removed after 4 auto-played turns: loses, stake forfeited"
    )


def test_rule_1_26_reconnect_resets_the_count() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND]).apply(Disconnect(player=1))
    for _ in range(3):
        state = auto_turn(auto_turn(auto_turn(state)))
    assert state.detail.autoplayed == (0, 3, 0)
    state = state.apply(Reconnect(player=1))
    assert state.detail.autoplayed == (0, 0, 0)
    # Disconnected again: four more auto-played turns are needed.
    state = state.apply(Disconnect(player=1))
    for expected in (1, 2, 3):
        state = auto_turn(auto_turn(auto_turn(state)))  # p1, p2 (auto-played), p3
        assert state.detail.autoplayed[1] == expected
    assert state.players_in == (0, 1, 2)
    state = auto_turn(auto_turn(state))  # p1, then p2's 4th
    assert state.players_in == (0, 2)


def test_rule_1_26_only_turns_ended_while_disconnected_count() -> None:
    state = game([P0_RUMMY, P1_HAND]).apply(DrawStock(player=0))
    # Disconnected after taking a card: the turn ends while disconnected, so it counts.
    state = play(state, Disconnect(player=0), discard(0, "Ks"))
    assert state.detail.autoplayed == (1, 0)
    # Disconnected and back within the turn: it does not.
    state = play(auto_turn(state), DrawStock(player=0), Reconnect(player=0), discard(0, "Kd"))
    assert state.detail.autoplayed == (0, 0)


def test_rule_1_26_auto_answers_for_the_disconnected_player_in_a_window() -> None:
    state = p0_declares(game([P0_RUMMY, P1_HAND, P2_HAND]).apply(Disconnect(player=2)))
    assert state.to_act == (1, 2)
    assert state.auto_action() == GiveUp(player=2)
    assert state.apply(Disconnect(player=1)).auto_action() == GiveUp(player=1)


# -- rule 27: removal -----------------------------------------------------------------------


def test_rule_1_27_removal_with_two_players_ends_the_match() -> None:
    state = game([P0_RUMMY, P1_HAND]).apply(Disconnect(player=1))
    for _ in range(3):
        state = auto_turn(auto_turn(state))
    assert not state.is_over
    state = auto_turn(auto_turn(state))  # p2's 4th auto-played turn
    assert state.result is not None
    assert (state.result.winners, state.result.payouts) == ((0,), (2, 0))
    assert state.phase is Phase.MATCH_OVER


def test_rule_1_27_removal_with_more_players_continues_the_deal() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND, P3_HAND])
    state = auto_turn(state).apply(TimeExpired(player=1))
    assert (state.players_in, state.current_player, state.deal_number) == ((0, 2, 3), 2, 1)
    # The deal goes on without p2: after p3 and p4, p1 plays again.
    state = auto_turn(auto_turn(state))
    assert state.current_player == 0
    # And it is scored without p2: restacked, p1 declares; p3 pays 50 x2, p4 43 x2.
    state = restack(state, {0: P0_RUMMY, 2: P1_HAND, 3: P2_HAND})
    state = play(p0_declares(state), GiveUp(player=2), GiveUp(player=3))
    assert state.deal_results[0].points == (0, 0, 100, 86)


# -- saved games and random play with host events ------------------------------------------


def test_host_events_and_frish_round_trip_through_json() -> None:
    state = game([P0_RUMMY, P1_HAND, P2_HAND])
    state = play(state, ProposeFrish(player=0), AnswerFrish(player=2, accept=False))
    state = play(state, Disconnect(player=1), DrawStock(player=0), discard(0, "Kd"))
    state = auto_turn(state).apply(TimeExpired(player=2))
    assert GameState.from_json(state.to_json()) == state


def test_greedy_bots_still_finish_matches() -> None:
    final = play_bots(new_game("rummy71", players=4, seed=11), [GreedyBot()] * 4)
    assert final.is_over


def _host_event(state: GameState, rng: random.Random) -> Action | None:
    """A random host event that is legal now, or ``None``."""
    roll = rng.random()
    player = rng.choice(state.players_in)
    if roll < 0.05:
        event: Action = Disconnect(player=player)
    elif roll < 0.10:
        event = Reconnect(player=player)
    elif roll < 0.13 and state.to_act:
        event = TimeExpired(player=rng.choice(state.to_act))
    else:
        return None
    return event if state.is_legal(event) else None


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), steps=st.integers(1, 150))
def test_invariants_hold_with_frish_timeouts_and_disconnections(
    players: int, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = new_game("rummy101", players=players, seed=seed)
    deck = Counter(state.variant.deck_for(players))
    for _ in range(steps):
        if state.is_over:
            break
        event = _host_event(state, rng)
        if event is not None:
            state = state.apply(event)
        elif any(player in state.detail.disconnected for player in state.to_act):
            state = state.apply(state.auto_action())
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        assert state.all_cards() == deck
        assert set(state.to_act) <= set(state.players_in)
        if not state.is_over:
            assert all(state.legal_actions(player) for player in state.to_act)  # R9
        for action in state.legal_actions():
            state.verify(action)
        if state.phase in {Phase.DRAW, Phase.PLAY}:
            assert state.to_act == (state.current_player,)
            assert state.turn_clock() is not None
    assert GameState.from_json(state.to_json()) == state


def test_table_settings_first_player_and_sitting_out() -> None:
    variant = get_variant("rummy71", sitting_out=[2], first_player=1)
    assert isinstance(variant, IsraeliRummy)
    assert (variant.sitting_out, variant.first_player) == ((2,), 1)
    with pytest.raises(ConfigurationError, match="sitting_out must hold seat numbers"):
        get_variant("rummy71", sitting_out=[-1])
    with config_error("there is no seat p5 at this 3-seat table"):
        new_game(get_variant("rummy71", first_player=4), players=3)
    with config_error("p2 sits out and cannot play first"):
        new_game(get_variant("rummy71", first_player=1, sitting_out=[1]), players=3)
