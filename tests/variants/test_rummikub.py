"""Rummikub (RULES.md section 7): each rule as a named test, the tile notation, the plays listed,
records in tiles, and the engine invariants under random play at 2 to 4 players.

Stacked games: :func:`game` deals the given racks (tiles, 14 each; a seat not given gets the
first 14 tiles left in canonical order) and puts ``pool`` on top of the pool. Expected numbers
are worked out by hand in the comments.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import (
    ConfigurationError,
    GameState,
    IllegalActionError,
    Meld,
    MeldKind,
    NotationError,
    get_variant,
    is_meld,
    new_game,
)
from rummylib.actions import Action, DrawStock, Pass, Rearrange, TimeExpired
from rummylib.bots import GreedyBot
from rummylib.errors import InvalidMeldError
from rummylib.records import dumps, load, loads
from rummylib.testing import assert_cards_conserved, assert_no_leak
from rummylib.tiles import TILE_NOTATION, format_tiles, parse_tile, parse_tiles
from rummylib.variants.rummikub import (
    RULES,
    Rummikub,
    rack_total,
    read_set,
    rummikub_deck,
    set_value,
)

# Racks used below. FILLER holds no set worth 30 from the rack alone (its best: k1 k2 k3, o2 b2 r2).
FILLER = "k1 k2 k3 o2 b2 r2 o5 b6 r8 k9 o11 b12 r13 b4"


def game(
    racks: Sequence[str], pool: str = "", *, players: int | None = None, **settings: Any
) -> GameState:
    """A game dealt these racks (seats not given: tiles left over, canonical order)."""
    count = max(2, len(racks)) if players is None else players
    variant = get_variant("rummikub", **settings)
    rest = Counter(variant.deck_for(count))
    rest.subtract(tile for rack in racks for tile in parse_tiles(rack))
    rest.subtract(parse_tiles(pool))
    filled = list(racks)
    ordered = sorted(rest.elements(), key=lambda tile: tile.index)
    while len(filled) < count:
        filled.append(format_tiles(ordered[:14]))
        ordered = ordered[14:]
    deck = rummikub_deck(filled, pool=pool)
    return new_game(variant, players=count, seed=0, deck=deck)


def play(*sets: str, player: int = 0, table: Sequence[str] = ()) -> Rearrange:
    """A play whose new table is ``table`` then ``sets`` (all written in tiles)."""
    return Rearrange(player=player, table=[read_set(text) for text in (*table, *sets)])


def table_text(state: GameState) -> list[str]:
    return [TILE_NOTATION.meld(meld) for meld in state.table]


# -- 7.1 tiles ---------------------------------------------------------------------------------


def test_rule_7_1_106_tiles_in_four_colours_two_of_each_and_two_jokers() -> None:
    deck = Rummikub().deck_for(4)
    assert len(deck) == 106
    counts = Counter(format_tiles([tile]) for tile in deck)
    assert counts["*"] == 2
    assert {text for text in counts if text != "*"} == {
        f"{colour}{number}" for colour in "kbor" for number in range(1, 14)
    }
    assert set(counts.values()) == {2}


def test_rule_7_1_tile_notation_reads_and_writes() -> None:
    tiles = parse_tiles("k7 b13 o1 r10 * J")
    assert format_tiles(tiles) == "k7 b13 o1 r10 * *"
    assert parse_tile("R10") == parse_tile("r10")
    for bad, why in [
        ("g7", "unknown colour 'g'"),
        ("r0", "numbers run from 1 to 13"),
        ("r14", "numbers run from 1 to 13"),
        ("7h", "expected a colour and a number"),
        ("", "expected a colour and a number"),
        ("k\u0667", "expected a colour and a number"),  # an Arabic-Indic seven: ASCII only
        ("b\uff11\uff12", "expected a colour and a number"),  # fullwidth 12
    ]:
        with pytest.raises(NotationError, match=why):
            parse_tile(bad)


def test_rule_7_1_a_refusal_is_said_in_tiles() -> None:
    say = TILE_NOTATION.reason
    assert say("gap at 5c 6c") == "gap at o5 o6"
    assert say("duplicate rank in a run: Ts") == "duplicate number in a run: k10"
    assert say("the ace ranks high only (Q-K-A), not low") == "a 1 is high only (12-13-1), not low"
    assert say("not enough natural cards (1, at least 2)") == (
        "not enough numbered tiles (1, at least 2)"
    )
    assert say("joker beside an ace") == "joker beside a 1"
    assert say("a run needs cards of one suit") == "a run needs tiles of one colour"
    error = InvalidMeldError("Qh Kh *=Ah is not a meld: joker standing for an ace")
    assert error.reason == "joker standing for an ace"
    assert InvalidMeldError("bad meld kind 'x'").reason == "bad meld kind 'x'"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("k7=k8 k9 k10", "bad meld token 'k7=k8': only a joker may declare a tile"),
        ("b5=b5 b6 b7", "bad meld token 'b5=b5': only a joker may declare a tile"),
        ("*=* k7 k8", "bad meld token '*=*': a joker must stand for a numbered tile"),
        ("*= k8 k9", "bad meld token '*=': write a declared joker as '*=r3'"),
        ("= k8 k9", "bad meld token '=': write a declared joker as '*=r3'"),
    ],
)
def test_rule_7_1_a_bad_token_of_a_set_is_named_as_written(text: str, message: str) -> None:
    # the set is read by rewriting its tiles as cards: a refusal names the tiles written
    # ('k7=k8'), never the rewritten cards ('7s=8s')
    with pytest.raises(NotationError, match=f"^{re.escape(message)}$"):
        read_set(text)


@given(st.lists(st.integers(0, 52), max_size=20))
def test_rule_7_1_tile_notation_round_trips(indexes: list[int]) -> None:
    tiles = [Rummikub().deck_for(2)[0].from_index(index) for index in indexes]
    assert list(parse_tiles(format_tiles(tiles))) == tiles


# -- 7.2 the deal --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_7_2_fourteen_tiles_each_the_rest_is_the_pool_player_0_starts(players: int) -> None:
    state = new_game("rummikub", players=players, seed=7)
    assert [len(rack) for rack in state.hands] == [14] * players
    assert len(state.stock) == 106 - 14 * players
    assert state.current_player == 0
    assert state.discard_pile == ()


def test_rule_7_2_two_to_four_players() -> None:
    for players in (1, 5):
        with pytest.raises(ConfigurationError):
            new_game("rummikub", players=players, seed=0)


def test_rule_7_2_the_start_moves_one_seat_each_game() -> None:
    # p1 empties the rack at once (46 + 6 + 15 + 34 = 101 from the rack alone): game 2 begins,
    # and p2 starts it.
    state = game(["k10 k11 k12 k13 r1 r2 r3 b5 o5 r5 o7 o8 o9 o10", FILLER], target_score=500)
    state = state.apply(play("k10 k11 k12 k13", "r1 r2 r3", "o5 b5 r5", "o7 o8 o9 o10"))
    assert state.deal_number == 2
    assert state.current_player == 1
    assert state.table == ()
    assert [len(rack) for rack in state.hands] == [14, 14]


# -- 7.3 sets ------------------------------------------------------------------------------------


def test_rule_7_3_groups_of_three_or_four_colours_runs_of_one_colour_one_low_only() -> None:
    def ok(text: str) -> bool:
        return is_meld(parse_tiles(text), RULES)

    assert ok("k7 b7 o7")
    assert ok("k7 b7 o7 r7")
    assert not ok("k7 k7 b7")  # a colour twice
    assert not ok("k7 b7")  # too short
    assert ok("r1 r2 r3")
    assert ok("r11 r12 r13")
    assert not ok("r12 r13 r1")  # no 13-1
    assert not ok("r1 r2 b3")  # one colour
    assert ok("k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13")
    assert ok("k5 * k7")
    assert ok("* * k7")


# -- 7.4 a turn is one action ----------------------------------------------------------------------


def test_rule_7_4_a_draw_ends_the_turn() -> None:
    state = game([FILLER, FILLER.replace("b4", "k4")], pool="r7")
    after = state.apply(DrawStock(player=0))
    assert after.current_player == 1
    assert format_tiles(after.hands[0][-1:]) == "r7"


def test_rule_7_4_a_play_ends_the_turn() -> None:
    state = game(["k10 k11 k12 o1 o2 o3 o5 b6 r8 k9 o11 b12 r13 b4"])
    after = state.apply(play("k10 k11 k12"))
    assert after.current_player == 1
    assert len(after.hands[0]) == 11


def test_rule_7_4_no_pass_while_the_pool_has_tiles() -> None:
    state = game([FILLER])
    assert Pass(player=0) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="cannot pass while the pool has tiles"):
        state.apply(Pass(player=0))


def _empty_pool(state: GameState) -> GameState:
    """Clocks run out until the pool is empty (each draws three tiles, rule 7.9)."""
    while state.stock:
        state = state.apply(TimeExpired(player=state.to_act[0]))
    return state


def test_rule_7_4_with_the_pool_empty_a_player_passes_and_cannot_draw() -> None:
    state = _empty_pool(game([FILLER]))
    player = state.to_act[0]
    assert Pass(player=player) in state.legal_actions()
    assert DrawStock(player=player) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="the pool is empty"):
        state.apply(DrawStock(player=player))


# -- 7.5 the initial meld ------------------------------------------------------------------------


def test_rule_7_5_the_initial_meld_needs_30_points() -> None:
    # k9 k10 k11 = 30: enough. r7 r8 r9 + o1 b1 r1 = 24 + 3 = 27: not enough.
    state = game(["k9 k10 k11 r7 r8 r9 o1 b1 r1 o5 b6 k2 o11 b12"])
    with pytest.raises(IllegalActionError, match="initial meld is worth 27: it needs at least 30"):
        state.apply(play("r7 r8 r9", "o1 b1 r1"))
    after = state.apply(play("k9 k10 k11"))
    assert table_text(after) == ["k9 k10 k11"]
    assert after.observation(1).public.melded == (True, False)  # type: ignore[attr-defined]


def test_rule_7_5_a_joker_counts_as_the_tile_it_stands_for() -> None:
    # k12 k13 with a joker as k11: 11 + 12 + 13 = 36.
    state = game(["k12 k13 * o1 b1 r3 o5 b6 r8 k9 o11 b12 r13 b4"])
    assert set_value(read_set("* k12 k13")) == 36
    after = state.apply(play("*=k11 k12 k13"))
    assert table_text(after) == ["*=k11 k12 k13"]


def test_rule_7_5_before_the_initial_meld_the_table_may_not_be_touched() -> None:
    # p1 melds k10 k11 k12 (33); p2, not yet melded, may not add k13 to it, even with a set of
    # 36 of their own, and may not take k12 off it.
    state = game(
        [
            "k10 k11 k12 o1 o2 o3 o5 b6 r8 k9 o11 b12 r13 b4",
            "k13 o12 b12 r12 o4 b5 r6 k7 o8 b9 r10 k1 o2 b3",
        ]
    )
    state = state.apply(play("k10 k11 k12"))
    with pytest.raises(IllegalActionError, match="may not touch the table before their initial"):
        state.apply(play("k10 k11 k12 k13", player=1))
    with pytest.raises(IllegalActionError, match="may not touch the table before their initial"):
        state.apply(play("k10 k11 k12 k13", "o12 b12 r12", player=1))
    after = state.apply(play("o12 b12 r12", player=1, table=["k10 k11 k12"]))
    assert table_text(after) == ["k10 k11 k12", "o12 b12 r12"]


def test_rule_7_5_the_initial_meld_setting() -> None:
    state = game(["r7 r8 r9 o1 b1 r1 o5 b6 k2 o11 b12 k9 k10 k11"], initial_meld=24)
    after = state.apply(play("r7 r8 r9"))
    assert table_text(after) == ["r7 r8 r9"]


# -- 7.6 rearranging the table ---------------------------------------------------------------------


def _melded_both() -> GameState:
    """p1 has melded k9 k10 k11 k12; p2 has melded o13 b13 r13; p1 to play."""
    state = game(
        [
            "k9 k10 k11 k12 k8 r9 o9 o1 b6 r2 o11 b12 r13 b4",
            "o13 b13 r13 o4 b5 r6 k7 o8 b9 r10 k1 o2 b3 k2",
        ]
    )
    state = state.apply(play("k9 k10 k11 k12"))
    return state.apply(play("o13 b13 r13", player=1, table=["k9 k10 k11 k12"]))


def test_rule_7_5_the_views_say_who_has_made_the_initial_meld() -> None:
    state = _melded_both()
    assert state.observation(1).public.lines()[0] == "initial meld made: p1, p2"
    fresh = new_game("rummikub", players=3, seed=3)
    assert not any(line.startswith("initial") for line in fresh.observation(0).public.lines())


def test_rule_7_6_a_play_may_rearrange_the_whole_table() -> None:
    # k9 leaves the run for a group o9 r9 k9 (o9 r9 from the rack); k10 k11 k12 stays a run.
    state = _melded_both()
    after = state.apply(play("o9 r9 k9", "k10 k11 k12", table=["o13 b13 r13"]))
    assert sorted(table_text(after)) == ["k10 k11 k12", "o13 b13 r13", "o9 r9 k9"]
    assert len(after.hands[0]) == 14 - 4 - 2


def test_rule_7_6_a_table_tile_may_not_go_back_to_a_rack() -> None:
    state = _melded_both()
    with pytest.raises(IllegalActionError, match="k12 left the table"):
        state.apply(play("k8 k9 k10 k11", "o13 b13 r13"))


def test_rule_7_6_every_tile_that_left_the_table_is_named() -> None:
    from rummylib.table import rearrangement_refusal  # noqa: PLC0415
    from rummylib.tiles import read_meld  # noqa: PLC0415

    def meld(text: str) -> Meld:
        return read_meld(text, RULES, TILE_NOTATION)

    old = [meld("k7 k8 k9"), meld("k7 o7 b7"), meld("r1 r2 *=r3")]
    refusal = rearrangement_refusal(
        old, parse_tiles("k10"), [meld("k8 k9 k10")], RULES, jokers="free", notation=TILE_NOTATION
    )
    # In tile order (orange, blue, red, black); the second k7 of two sets is "another k7".
    assert refusal == "o7 left the table (and b7, r1, r2, k7, another k7, a joker)"


def test_rule_7_6_a_play_places_at_least_one_rack_tile() -> None:
    state = _melded_both()
    with pytest.raises(IllegalActionError, match="no tile from the rack was played"):
        state.apply(play("k9 k10 k11 k12", "o13 b13 r13"))


def test_rule_7_6_every_set_of_the_new_table_is_valid_and_tiles_must_be_held() -> None:
    state = _melded_both()
    tiles = parse_tiles("k9 k10 k11 k12 r13")
    bad = Rearrange(player=0, table=[Meld(MeldKind.RUN, tiles, tiles), *state.table[1:]])
    with pytest.raises(
        IllegalActionError, match="not a valid set: k9 k10 k11 k12 r13: a run needs tiles of one"
    ):
        state.apply(bad)
    with pytest.raises(IllegalActionError, match="tiles the player does not hold: o7"):
        state.apply(play("o7 o8 o9", table=["k9 k10 k11 k12", "o13 b13 r13"]))


# -- 7.7 jokers ----------------------------------------------------------------------------------


def _joker_on_the_table(**settings: Any) -> GameState:
    """p1 melded r7 r8 *=r9 and o9 b9 r9 k9 (24 + 36); p2 drew; p1 to play.

    p1 keeps r9 k6 k7 r6 o1 b3 o12.
    """
    state = game(["r7 r8 * o9 b9 r9 k9 r9 k6 k7 r6 o1 b3 o12"], **settings)
    state = state.apply(play("r7 r8 *=r9", "o9 b9 r9 k9"))
    return state.apply(DrawStock(player=1))


def test_rule_7_7_a_joker_keeps_standing_for_its_tile() -> None:
    state = _joker_on_the_table()
    # r6 r7 r8 from the rack's r6, the joker off to k6 k7 *=k8: no r9 took its place.
    with pytest.raises(IllegalActionError, match="the joker declared as r9 changed to k8"):
        state.apply(play("r6 r7 r8", "o9 b9 r9 k9", "k6 k7 *=k8"))


def test_rule_7_7_the_tile_from_the_rack_frees_the_joker_which_is_played_again() -> None:
    state = _joker_on_the_table()
    after = state.apply(play("r7 r8 r9", "o9 b9 r9 k9", "k6 k7 *=k8"))
    assert sorted(table_text(after)) == ["k6 k7 *=k8", "o9 b9 r9 k9", "r7 r8 r9"]
    assert format_tiles(sorted(after.hands[0], key=lambda tile: tile.index)) == "o1 o12 b3 r6"


def test_rule_7_7_a_freed_joker_must_be_played_again_in_the_same_turn() -> None:
    state = _joker_on_the_table()
    with pytest.raises(IllegalActionError, match="a joker left the table"):
        state.apply(play("r7 r8 r9", "o9 b9 r9 k9"))


def test_rule_7_7_only_a_tile_from_the_rack_takes_the_jokers_place() -> None:
    # The r9 of the group moves into the run; the rack's own r9 stays on the rack.
    state = _joker_on_the_table()
    with pytest.raises(IllegalActionError, match=r"only a r9 from the hand may take its place"):
        state.apply(play("r7 r8 r9", "o9 b9 k9", "k6 k7 *=k8"))


def test_rule_7_7_joker_rule_free_lets_a_table_joker_take_any_identity() -> None:
    state = _joker_on_the_table(joker_rule="free")
    for new_table in (
        ["r6 r7 r8", "o9 b9 r9 k9", "k6 k7 *=k8"],  # no r9 took its place
        ["r7 r8 r9", "o9 b9 k9", "k6 k7 *=k8"],  # a table r9 took it
    ):
        after = state.apply(play(*new_table))
        assert sorted(table_text(after)) == sorted(table_text_of(new_table))


def table_text_of(texts: Sequence[str]) -> list[str]:
    return [TILE_NOTATION.meld(read_set(text)) for text in texts]


# -- 7.8 the end and the score ---------------------------------------------------------------------


def test_rule_7_8_emptying_the_rack_wins_the_others_pay_their_racks() -> None:
    # p1 lays all 14 tiles (46 + 6 + 15 + 34). p2 holds FILLER: 1+2+3+2+2+2+5+6+8+9+11+12+13+4 =
    # 80. p1 scores +80, p2 -80; a match of one game ends.
    assert rack_total(parse_tiles(FILLER)) == 80
    state = game(["k10 k11 k12 k13 r1 r2 r3 b5 o5 r5 o7 o8 o9 o10", FILLER])
    final = state.apply(play("k10 k11 k12 k13", "r1 r2 r3", "o5 b5 r5", "o7 o8 o9 o10"))
    assert final.is_over
    assert final.scores == (80, -80)
    assert final.result is not None
    assert final.result.winners == (0,)
    assert final.deal_results[0].ending == "went_out"
    assert final.deal_results[0].ended_by == "p1 emptied their rack"


def test_rule_7_8_a_joker_left_on_a_rack_costs_30() -> None:
    assert rack_total(parse_tiles("* k13 r1")) == 30 + 13 + 1


def _all_pass(state: GameState) -> GameState:
    while not state.is_over:
        state = state.apply(Pass(player=state.to_act[0]))
    return state


def test_rule_7_8_the_pool_ran_out_and_everyone_passed_the_lowest_rack_wins() -> None:
    # Each clock run out draws three tiles (rule 7.9). 78 tiles in the pool: p1 draws 13 times
    # (39 tiles), p2 13 times; then both pass and the game ends. The lowest total wins the
    # differences.
    state = _empty_pool(game([FILLER]))
    assert state.stock == ()
    passes = 0
    before = state
    while not state.is_over:
        state = state.apply(Pass(player=state.to_act[0]))
        passes += 1
    assert passes == 2
    totals = [rack_total(rack) for rack in before.hands]
    low = min(totals)
    expected = tuple(
        sum(total - low for total in totals) if total == low else low - total for total in totals
    )
    assert state.scores == expected
    assert state.deal_results[0].ending == "stock_out"


def test_rule_7_8_a_play_with_the_pool_empty_starts_the_passes_again() -> None:
    state = _empty_pool(game([FILLER]))
    first = state.to_act[0]
    state = state.apply(Pass(player=first))
    assert state.observation(0).public.passes == 1  # type: ignore[attr-defined]
    mover = state.current_player
    plays = [action for action in state.legal_actions() if isinstance(action, Rearrange)]
    assert plays  # a rack of 53 tiles holds a set worth 30
    # The smallest play listed, so that the game goes on (the best one may empty the rack).
    small = min(plays, key=lambda action: sum(len(meld.cards) for meld in action.table))
    state = state.apply(small)
    assert not state.is_over
    assert state.observation(0).public.passes == 0  # type: ignore[attr-defined]
    assert state.current_player != mover


def test_rule_7_8_equal_lowest_racks_share_the_win() -> None:
    # Both racks hold the same tiles by number (FILLER and its colour twin): equal totals, both
    # win, nobody pays.
    twin = "o1 o2 o3 k2 r2 b2 b5 o6 k8 r9 b11 o12 k13 r4"
    assert rack_total(parse_tiles(twin)) == rack_total(parse_tiles(FILLER)) == 80
    state = game([FILLER, twin])
    state = state.replace(stock=())  # the pool already ran out
    final = _all_pass(state)
    assert final.scores == (0, 0)
    assert final.result is not None
    assert final.result.winners == (0, 1)


# -- 7.9 the match and the clock -------------------------------------------------------------------


def test_rule_7_9_a_match_is_one_game_by_default_or_plays_to_target_score() -> None:
    assert Rummikub().target_score is None
    state = game(["k10 k11 k12 k13 r1 r2 r3 b5 o5 r5 o7 o8 o9 o10", FILLER], target_score=100)
    state = state.apply(play("k10 k11 k12 k13", "r1 r2 r3", "o5 b5 r5", "o7 o8 o9 o10"))
    assert not state.is_over  # 80 < 100
    assert state.scores == (80, -80)
    with pytest.raises(ConfigurationError):
        get_variant("rummikub", target_score=0)


def test_rule_7_9_a_clock_run_out_draws_three_tiles_and_ends_the_turn() -> None:
    state = game([FILLER], pool="r7 r8 r9 r10")
    after = state.apply(TimeExpired(player=0))
    assert format_tiles(after.hands[0][-3:]) == "r7 r8 r9"
    assert after.current_player == 1
    assert len(after.stock) == len(state.stock) - 3
    with pytest.raises(IllegalActionError, match="p1 has no move to make now"):
        after.apply(TimeExpired(player=0))


def test_rule_7_9_fewer_tiles_when_the_pool_holds_fewer() -> None:
    state = game([FILLER], timeout_draws=5)
    while len(state.stock) > 2:
        state = state.apply(DrawStock(player=state.to_act[0]))
    player = state.to_act[0]
    after = state.apply(TimeExpired(player=player))
    assert len(after.hands[player]) == len(state.hands[player]) + 2
    assert after.stock == ()


# -- listing, the greedy bot, records --------------------------------------------------------------


def test_listed_plays_are_legal_and_include_the_best_play() -> None:
    state = _joker_on_the_table()
    plays = [action for action in state.legal_actions() if isinstance(action, Rearrange)]
    assert plays
    for action in plays:
        state.verify(action)
    # The most tiles: r9 frees the joker into k6 k7 *=k8, r6 starts r6 r7 r8 r9? r6 r7 r8 r9
    # uses r6 and r9 with the joker placed as k8: 4 tiles (r6 r9 k6 k7).
    most = max(len(state.hands[0]) - len(state.apply(action).hands[0]) for action in plays)
    assert most == 4


def test_a_legal_table_that_is_not_listed_is_accepted() -> None:
    state = _joker_on_the_table()
    odd = play("r7 r8 r9", "o9 b9 r9 k9", "*=k5 k6 k7")
    assert odd not in state.legal_actions()
    after = state.apply(odd)
    assert "*=k5 k6 k7" in table_text(after)


def test_greedy_bot_makes_the_initial_meld_and_plays_the_most_tiles() -> None:
    state = game(["k10 k11 k12 k13 r1 r2 r3 b5 o5 r5 o7 o8 o9 o10", FILLER])
    action = GreedyBot().choose(state.observation(0))
    assert isinstance(action, Rearrange)
    assert state.apply(action).is_over  # all 14 tiles
    filler = game([FILLER])
    assert GreedyBot().choose(filler.observation(0)) == DrawStock(player=0)


def test_records_are_written_and_read_in_tiles() -> None:
    state = _joker_on_the_table()
    state = state.apply(play("r7 r8 r9", "o9 b9 r9 k9", "k6 k7 *=k8"))
    text = dumps(state)
    assert "p1 table | r7 r8 *=r9 | o9 b9 r9 k9" in text
    assert "d hand p1 r7 r8 * o9 b9 r9 k9 r9 k6 k7 r6 o1 b3 o12" in text
    assert loads(text).final_state == state
    bad = text.replace("p1 table | r7 r8 *=r9", "p1 table | r7 r8 *=x9")
    assert loads(bad, strict=False).errors


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_invariants_under_random_play(players: int) -> None:
    """106 tiles always accounted for, listed plays legal, no dead end, round trips, no leak."""
    rng = random.Random(players)
    state = new_game("rummikub", players=players, seed=players)
    deck = Counter(state.variant.deck_for(players))
    steps = 0
    while not state.is_over and steps < 400:
        assert_cards_conserved(state, deck)
        legal = state.legal_actions()
        assert legal  # no dead end
        for action in rng.sample(legal, min(3, len(legal))):
            state.verify(action)
        player = state.to_act[0]
        for probe in (DrawStock(player=player), Pass(player=player)):
            assert (probe in legal) == state.is_legal(probe)
        if steps % 25 == 0:
            assert GameState.from_json(state.to_json()) == state
            assert_no_leak(state, (player + 1) % players, seed=steps)
        plays = [action for action in legal if isinstance(action, Rearrange)]
        action = rng.choice(plays) if plays and rng.random() < 0.5 else rng.choice(legal)
        before = state.to_json()
        state = state.apply(action)
        assert GameState.from_json(before).to_json() == before
        steps += 1
    assert state.is_over
    assert loads(dumps(state)).final_state == state


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_greedy_matches_end_with_every_tile_accounted_for(seed: int, players: int) -> None:
    state = new_game("rummikub", players=players, seed=seed)
    deck = Counter(state.variant.deck_for(players))
    bot = GreedyBot()
    for _ in range(600):
        if state.is_over:
            break
        action: Action = bot.choose(state.observation(state.to_act[0]))
        state = state.apply(action)
        assert_cards_conserved(state, deck)
    assert state.is_over
    assert sum(state.scores) == 0 or len(state.result.winners) > 1  # type: ignore[union-attr]


def test_golden_record_scores_its_game_by_the_rules() -> None:
    """tests/data/rummikub.toml: p2 holds k1 k2 k3 o2 b2 r2 o5 b6 r8 k9 o11 b12 r13 b4, that is
    1 + 2 + 3 + 2 + 2 + 2 + 5 + 6 + 8 + 9 + 11 + 12 + 13 + 4 = 80 (rule 7.8): p1 +80, p2 -80."""
    record = load(Path(__file__).parent.parent / "data" / "rummikub.toml")
    assert record.errors == ()
    final = record.final_state
    assert final.is_over
    assert final.scores == (80, -80)
    assert [deal.ended_by for deal in final.deal_results] == ["p1 emptied their rack"]
    assert loads(dumps(final)).final_state == final
    for view in (0, 1):
        assert loads(dumps(final, view=view)).final_observation == final.observation(view)


def test_check_reads_and_writes_tiles_for_rummikub(capsys: pytest.CaptureFixture[str]) -> None:
    from rummylib.cli import main  # noqa: PLC0415  (the command line, only here)

    assert main(["check", "--variant", "rummikub", "k7 * k9"]) == 0
    assert "k7 *=k8 k9 is a run; the joker stands for k8" in capsys.readouterr().out
    assert main(["check", "--variant", "rummikub", "k7 k7 b7"]) == 1
    assert "k7 k7 b7: not a valid set: duplicate tile in a group: k7" in capsys.readouterr().out
    for tiles, why in [  # the reason in tiles, numbers and colours, never in cards
        ("k7 b7 o7 r7 *", "group too large (5 tiles, at most 4)"),
        ("k12 k13 k1", "a 1 is low only (1-2-3), not high"),
        ("k3 k4 k6", "gap at k5"),
        ("k7 b8 o9", "mixed colours and numbers: a group needs one number, a run one colour"),
        ("k1 k2", "too few tiles (2, at least 3)"),
    ]:
        assert main(["check", "--variant", "rummikub", tiles]) == 1
        assert capsys.readouterr().out.strip() == f"{tiles}: not a valid set: {why}"
    assert main(["check", "--variant", "rummikub", "7s 7d 7c"]) == 2
    assert "bad tile '7s'" in capsys.readouterr().err


def test_a_set_with_a_declared_and_an_undeclared_joker_keeps_the_declaration() -> None:
    # *=k6 is declared; the other joker takes the reading that agrees with it: k9. (Reading
    # the tiles without the declaration would give k7 k8 *=k9 *=k10.)
    assert TILE_NOTATION.meld(read_set("*=k6 k7 k8 *")) == "*=k6 k7 k8 *=k9"
    assert TILE_NOTATION.meld(read_set("* *=k9 k10 k11")) == "*=k9 k10 k11 *=k12"
