"""The host's text view of a state (rummylib._render, issue 17 item 10).

Every expected text is written from the deal the test stacks and the rules it follows, never
read back from the renderer.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from rummylib import GameState, new_game, parse_card, parse_meld, stack_deck
from rummylib._render import render
from rummylib.actions import Discard, DrawStock, ProposeFrish, Rearrange, TimeExpired
from rummylib.variants.carousel import carousel_deck

HEARTS = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
CLUBS = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"


def rummy101() -> GameState:
    deck = stack_deck("rummy101", [HEARTS, CLUBS], face_up="*", stock="Ks")
    return new_game("rummy101", players=2, seed=0, deck=deck)


def test_a_new_rummy101_deal_shows_both_hands_the_piles_and_the_turn() -> None:
    # Rule 1.17: the first deal counts double; rule 1.19: each player puts 1 into the pot.
    # 108 cards - 2 hands of 13 - the open card = 81 in the stock.
    assert render(rummy101()) == "\n".join(
        [
            "rummy101, deal 1: draw, p1 to play",
            f"p1 (to act), score 0, 13 cards: {HEARTS}",
            f"p2, score 0, 13 cards: {CLUBS}",
            "stock: 81 cards",
            "open card: *",
            "table: no melds",
            # The Israeli public facts that say something (the open card is drawn above).
            "facts: multiplier: 2; pot: 2",
        ]
    )


def test_a_discard_shows_the_top_of_the_pile_and_passes_the_turn() -> None:
    state = rummy101().apply(DrawStock(player=0))
    assert f"p1 (to act), score 0, 14 cards: {HEARTS} Ks" in render(state).splitlines()
    state = state.apply(Discard(player=0, card=parse_card("Ks")))
    lines = render(state).splitlines()
    assert lines[0] == "rummy101, deal 1: draw, p2 to play"
    assert f"p1, score 0, 13 cards: {HEARTS}" in lines
    assert "stock: 80 cards" in lines
    assert "discard pile: 1 card, top Ks" in lines


def test_a_frish_vote_names_who_must_answer() -> None:
    # Rule 1.18: nobody has the turn during the vote; the other player answers.
    state = rummy101().apply(ProposeFrish(player=0))
    lines = render(state).splitlines()
    assert lines[0] == "rummy101, deal 1: frish vote, p2 to act"
    assert lines[1].startswith("p1, score 0, 13 cards: ")
    assert lines[2].startswith("p2 (to act), score 0, 13 cards: ")
    assert lines[-1] == "facts: multiplier: 2; pot: 2; frish proposer: p1; frish proposals: 1, 0"


def test_the_end_of_a_match_names_the_winner_and_who_is_out() -> None:
    # Rule 1.25 and 1.27: a player whose clock runs out is removed; with two players the
    # other wins at once.
    state = rummy101().apply(TimeExpired(player=0))
    lines = render(state).splitlines()
    assert lines[0] == "rummy101, deal 1: match over; winner p2"
    assert lines[1].startswith("p1 (out), score ")
    assert lines[2].startswith("p2, score ")


def carousel_after_a_meld() -> GameState:
    deck = carousel_deck(
        ["5h 6h 7h 8h 9h Th Jh Qh Kh 2c", "4c 6c 8c Tc Qc 2d 4d 6d 8d Td"], stock="Ac"
    )
    state = new_game("carousel", players=2, seed=0, deck=deck).apply(DrawStock(player=0))
    run = parse_meld("5h 6h 7h 8h 9h Th Jh Qh Kh", state.variant.meld_rules)
    return state.apply(Rearrange(player=0, table=[run]))


def test_carousel_shows_the_table_and_leaves_out_what_it_does_not_have() -> None:
    # Two players: one pack and a joker, 53 cards; 20 dealt and 1 drawn leave 32 (rule 2.1).
    # No multiplier, pot, discard pile or open card in Carousel.
    assert render(carousel_after_a_meld()) == "\n".join(
        [
            "carousel, deal 1: knock choice, p1 to play",
            "p1 (to act), score 0, 2 cards: 2c Ac",
            "p2, score 0, 10 cards: 4c 6c 8c Tc Qc 2d 4d 6d 8d Td",
            "stock: 32 cards",
            "table:",
            "  0: 5h 6h 7h 8h 9h Th Jh Qh Kh",
            # The variant's public facts that say something: p1 drew one card this turn.
            "facts: draws: 1",
        ]
    )


def test_table_melds_are_numbered_as_lay_off_names_them_with_their_jokers() -> None:
    deck = carousel_deck(
        ["7s 8s * 9h 9d 9c 2c 3c Kd Kc", "Ts 9s Qs Tc Jc Js 5h 6h 4c 4d"], stock="Ah Ks"
    )
    state = new_game("carousel", players=2, seed=0, deck=deck)
    rules = state.variant.meld_rules
    state = state.apply(DrawStock(player=0))
    table = [parse_meld("7s 8s *=9s", rules), parse_meld("9h 9d 9c", rules)]
    lines = render(state.apply(Rearrange(player=0, table=table))).splitlines()
    # The table keeps the melds' order; each meld in canonical order (groups by suit).
    assert lines[-3:] == ["table:", "  0: 7s 8s *=9s", "  1: 9c 9d 9h"]  # p2 drew nothing yet
    # 26 points left in hand, too many to knock (rule 2.11): the turn passes.
    assert lines[:2] == [
        "carousel, deal 1: draw, p2 to play",
        "p1, score 0, 5 cards: 2c 3c Kd Kc Ah",
    ]


def test_a_removed_player_is_out_and_holds_no_cards() -> None:
    # Rule 1.25: a player whose clock runs out is removed and their cards go under the stock;
    # with three players the deal goes on. 108 - 3 x 13 - the open card + 13 = 81.
    diamonds = "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd"
    deck = stack_deck("rummy101", [HEARTS, CLUBS, diamonds], face_up="*")
    state = new_game("rummy101", players=3, seed=0, deck=deck).apply(TimeExpired(player=0))
    lines = render(state).splitlines()
    assert lines[0] == "rummy101, deal 1: draw, p2 to play"
    assert lines[1:4] == [
        "p1 (out), score 0, no cards",
        f"p2 (to act), score 0, 13 cards: {CLUBS}",
        f"p3, score 0, 13 cards: {diamonds}",
    ]
    assert "stock: 81 cards" in lines


def test_public_facts_are_typed_and_shown_in_text_and_pictures() -> None:
    pytest.importorskip("numpy", reason="describe lives in rummylib.envs (rl extra)")
    from rummylib.actions import Knock  # noqa: PLC0415
    from rummylib.bots import GreedyBot  # noqa: PLC0415
    from rummylib.envs.encoding import describe  # noqa: PLC0415
    from rummylib.svg import observation as observation_svg  # noqa: PLC0415
    from rummylib.variants.gin import GinPublic  # noqa: PLC0415

    state, bot = new_game("gin", players=2, seed=1), GreedyBot()
    while state.detail.knocker is None:  # greedy gin knocks at its first chance
        state = state.apply(bot.choose(state.observation(state.to_act[0])))
    knocker = state.detail.knocker
    assert isinstance(state.history[-1], Knock)
    public = state.observation(1 - knocker).public
    assert isinstance(public, GinPublic)
    assert public.knocker == knocker
    assert dict(public)["knocker"] == knocker  # read by name, as before
    # A public fact reads as an attribute of the state and of every observation (at run time;
    # typed code reads the record). Other names still fail as usual, and states still copy.
    seen: Any = state.observation(knocker)
    live: Any = state
    assert live.knocker == seen.knocker == knocker
    assert live.knock_card == seen.knock_card == 10
    with pytest.raises(AttributeError, match="'GameState' object has no attribute 'knockr'"):
        _ = live.knockr
    with pytest.raises(AttributeError, match="'Observation' object has no attribute 'hidden'"):
        _ = seen.hidden
    assert copy.deepcopy(state) == state
    assert pickle.loads(pickle.dumps(seen)) == seen
    shown = f"knocker: p{knocker + 1}"
    assert shown in render(state).splitlines()[-1]
    assert shown in describe(state)
    assert shown in observation_svg(state.observation(1 - knocker))


@pytest.mark.parametrize("name", ["carousel", "gin", "rummy101", "turkish500"])
def test_every_public_record_survives_pickling_and_copying(name: str) -> None:
    # Environments pickle and copy observations mid-episode: the public facts must come back.
    from rummylib.bots import GreedyBot  # noqa: PLC0415

    state, bot = new_game(name, players=2, seed=3), GreedyBot()
    for _ in range(6):
        state = state.apply(bot.choose(state.observation(state.to_act[0])))
    seen = state.observation(1)
    assert list(seen.public)  # the variant has facts
    assert pickle.loads(pickle.dumps(seen.public)) == seen.public
    assert dict(pickle.loads(pickle.dumps(seen)).public) == dict(seen.public)
    assert copy.deepcopy(seen) == seen
