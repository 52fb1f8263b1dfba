"""``GameState.parse_action`` and ``GameState.format_action``: moves as record lines."""

from __future__ import annotations

import random

import pytest

from rummylib import Meld, MeldKind, new_game, parse_card, parse_cards
from rummylib.actions import Discard, DrawStock, LayDown, Rearrange, TakeDiscard, TimeExpired
from rummylib.bots import RandomBot
from rummylib.cards import JOKER
from rummylib.errors import NotationError
from rummylib.variants import VARIANTS


def test_lines_are_read_as_the_record_format_writes_them() -> None:
    state = new_game("rummy101", players=3, seed=7)
    assert state.parse_action("p1 draw stock") == DrawStock(player=0)
    assert state.parse_action("  p2   take   discard ") == TakeDiscard(player=1, count=1)
    assert state.parse_action("p3 discard Th") == Discard(player=2, card=parse_card("Th"))
    assert state.parse_action("h timeout p2") == TimeExpired(player=1)
    run = Meld(MeldKind.RUN, parse_cards("7h 8h 9h"), parse_cards("7h 8h 9h"))
    assert state.parse_action("p1 meld | 7h 8h 9h") == LayDown(player=0, melds=(run,))


def test_with_the_seat_the_line_may_leave_out_its_player() -> None:
    state = new_game("gin", players=2, seed=3)
    assert state.parse_action("discard 7h", player=1) == Discard(player=1, card=parse_card("7h"))
    assert state.parse_action("p2 discard 7h", player=1) == Discard(player=1, card=parse_card("7h"))
    with pytest.raises(NotationError, match=r"^'p1 discard 7h' is a move of p1, not of p2$"):
        state.parse_action("p1 discard 7h", player=1)


def test_rummikub_lines_are_in_tiles_and_a_joker_may_be_left_to_the_rules() -> None:
    state = new_game("rummikub", players=2, seed=5)
    action = state.parse_action("p1 table | k7 k8 *")
    assert isinstance(action, Rearrange)
    (meld,) = action.table
    assert meld.cards == (parse_card("7s"), parse_card("8s"), JOKER)  # black is spades
    assert state.format_action(action) == "p1 table | k7 k8 *=k9"
    with pytest.raises(NotationError, match=r"^bad card 'k7'"):
        new_game("rummy101", players=2, seed=5).parse_action("p1 table | k7 k8 k9")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "p1 draw stock 7h",
            "'p1 draw stock 7h' names the card drawn, which the stock decides: "
            "write 'p1 draw stock'",
        ),
        ("d stock 7h", "'d stock 7h' is a dealer's line of a record, not a move"),
        ("p3 discard 7h", "there is no player p3 at this 2-seat table"),
        ("", "bad line '': it is empty"),
        (
            "p1 dicsard 7h",
            "bad action 'p1 dicsard 7h': unknown verb 'dicsard 7h'; see the record format",
        ),
    ],
)
def test_a_line_that_is_no_move_raises_notation_error(line: str, message: str) -> None:
    state = new_game("gin", players=2, seed=3)
    with pytest.raises(NotationError) as raised:
        state.parse_action(line)
    assert str(raised.value).startswith(message)


@pytest.mark.parametrize("thing", [None, 5, b"p1 draw stock", ["p1", "draw", "stock"]])
def test_a_line_that_is_not_text_is_refused(thing: object) -> None:
    with pytest.raises(NotationError, match=r"^a move is a line of text, not "):
        new_game("gin", players=2, seed=3).parse_action(thing)  # type: ignore[arg-type]


def test_reading_checks_the_words_not_the_rules() -> None:
    state = new_game("gin", players=2, seed=3)
    action = state.parse_action("p2 discard 7h")  # not p2's turn, and maybe not p2's card
    assert action == Discard(player=1, card=parse_card("7h"))
    assert not state.is_legal(action)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_listed_move_reads_back_from_its_line(name: str) -> None:
    # Random play of each variant: each listed move's line reads back to an equal move,
    # with and without the seat written, and the line names the seat that moves.
    chooser = random.Random(11)
    state = new_game(name, players=VARIANTS[name]().min_players, seed=11)
    for _ in range(150):
        if state.is_over:
            break
        seat = state.to_act[0]
        for action in state.legal_actions(seat):
            line = state.format_action(action)
            assert line.startswith(f"p{seat + 1} ")
            assert state.parse_action(line) == action, line
            bare = line.removeprefix(f"p{seat + 1} ")
            assert state.parse_action(bare, player=seat) == action, line
        state = state.apply(
            RandomBot(seed=chooser.randrange(1 << 30)).choose(state.observation(seat))
        )


def test_a_face_down_card_written_as_in_another_players_record_is_refused() -> None:
    # An Indian show's finishing card is written ?? in the others' records: a move names it.
    state = new_game("indian_points", players=2, seed=3)
    with pytest.raises(
        NotationError, match=r"^'p1 show \?\?' hides the card it sets face down: a move names it$"
    ):
        state.parse_action("p1 show ??")
