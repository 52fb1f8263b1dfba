"""The terminal game in players' words (issue 28) and its input made safe (issue 30, item 4)."""

from __future__ import annotations

import contextlib
import io
import re
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("rich", reason="play draws with rich, the cli extra")

from rummylib import GameState, new_game
from rummylib._notation import format_action
from rummylib._words import help_text, prompt, read_move
from rummylib.actions import DrawStock, LayOff, Pass, TakeDiscard, TakeOpenCard
from rummylib.bots import GreedyBot
from rummylib.cli import main
from rummylib.errors import IllegalActionError
from rummylib.variants.gin import GinPhase, GinRummy


def run(
    argv: list[str],
    script: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(argv)
    return code, capsys.readouterr().out


def test_control_characters_of_the_input_are_never_echoed_raw(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "draw stock\n\x1b[2J\n\x07bell\u202edraw\n"
    code, out = run(["play", "--seed", "1"], script, monkeypatch, capsys)
    assert code == 0
    for raw in ("\x1b", "\x07", "\u202e"):
        assert raw not in out
    assert "> \\x1b[2J\n" in out  # the echo, escaped
    assert "\\x07bell\\u202edraw" in out


def _gin_layoff_for_p1() -> GameState:
    """A gin deal of greedy players at the step where p1 may lay off on p2's melds."""
    for seed in range(200):
        state = new_game("gin", players=2, seed=seed)
        while not state.deal_results:
            may_lay_off = any(isinstance(action, LayOff) for action in state.legal_actions())
            if state.phase is GinPhase.LAYOFF and state.to_act == (0,) and may_lay_off:
                return state
            seat = state.to_act[0]
            state = state.apply(GreedyBot().choose(state.observation(seat)))
    raise AssertionError("no seed reaches p1's lay-off step")


def test_gin_lay_off_step_is_explained_in_a_players_words() -> None:
    state = _gin_layoff_for_p1()
    words = prompt(state, 0)
    assert words.startswith("you may add your cards to the knocker's melds now: ")
    assert "lay off on p2's melds" in words
    assert words.endswith(" or pass")
    assert "layoff" not in words  # the phase's name is not shown


def test_help_shows_this_variants_moves_in_the_phase_at_hand_with_examples() -> None:
    gin = new_game("gin", players=2, seed=1)
    text = help_text(gin, 0)
    assert "take discard [N]" in text
    assert "for example: take discard" in text
    assert "for example: pass" in text
    for other in ("declare", "frish", "take open", "drop", "knock", "*=Ks"):
        assert other not in text, other  # no other variant's verbs, nor moves of later phases
    after = gin.apply(next(iter(gin.legal_actions())))  # p1 takes the upcard: now discard
    text = help_text(after, 0)
    assert "discard CARD" in text
    example = re.search(r"for example: discard (\S+)", text)
    assert example is not None
    assert example.group(1) in {str(card) for card in after.hands[0]}


def test_rummikub_help_and_table_speak_tiles_sets_and_a_rack(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = help_text(new_game("rummikub", players=2, seed=3), 0)
    assert "sets are separated by '|'; '*=k13' says a joker stands for k13" in text
    assert "check TILES" in text
    assert "is this a set at this table?" in text
    assert "sort your rack by number / by colour" in text
    for card_words in ("*=Ks", "CARDS", "your hand", "by suit", "meld at"):
        assert card_words not in text, card_words
    script = "help\nquit\n"
    _, out = run(
        ["play", "--variant", "rummikub", "--seed", "3", "--players", "2"],
        script,
        monkeypatch,
        capsys,
    )
    assert "pool 78  racks p1:14 p2:14" in out
    assert "discard pile" not in out  # Rummikub has none


def test_typos_get_the_nearest_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "drwa stock\ntake\ndiscard\nquit\n"
    _, out = run(["play", "--seed", "1", "--players", "2"], script, monkeypatch, capsys)
    assert "there is no move 'drwa' in Rummy 101; did you mean 'draw stock'?" in out
    # 'take' can only mean 'take open' (the one legal take, naming nothing more): taken.
    assert "\np1 take open\n" in out
    # 'discard' leaves the card to choose: refused, with the moves it begins.
    assert "'discard' is only the start of a move; did you mean 'discard 2c' or" in out


def test_a_short_line_is_completed_only_where_it_can_mean_one_move() -> None:
    state = new_game("rummikub", players=2, seed=3)
    assert read_move(state, "draw", 0) == DrawStock(player=0)
    assert read_move(state, "  DRAW   pool ", 0) == DrawStock(player=0)  # the pool is the stock
    assert read_move(state, "draw stock", 0) == DrawStock(player=0)
    with pytest.raises(IllegalActionError, match="no move 'draws'"):
        read_move(state, "draws", 0)
    with pytest.raises(IllegalActionError, match="it is not your turn"):
        read_move(state, "draw", 1)  # p2 is not to act: nothing is completed for them
    assert "for example: draw stock (or only: draw)" in help_text(state, 0)
    israeli = new_game("rummy101", players=2, seed=1)
    assert read_move(israeli, "take", 0) == TakeOpenCard(player=0)
    assert "for example: take open (or only: take)" in help_text(israeli, 0)
    discarding = israeli.apply(TakeOpenCard(player=0))
    assert "(or only" not in help_text(discarding, 0)  # 'discard' leaves the card open
    gin = new_game("gin", players=2, seed=1)  # the first upcard: take it or pass
    assert read_move(gin, "pass", gin.to_act[0]) == Pass(player=gin.to_act[0])
    assert read_move(gin, "take", gin.to_act[0]) == TakeDiscard(player=gin.to_act[0])
    # 500 rum: one card or more may be taken from the pile, so 'take' leaves the count open.
    rum = new_game("rummy500", players=2, seed=0)
    for _ in range(4):
        rum = rum.apply(GreedyBot().choose(rum.observation(rum.to_act[0])))
    takes = {action for action in rum.legal_actions(1) if isinstance(action, TakeDiscard)}
    assert takes == {TakeDiscard(player=1, count=1), TakeDiscard(player=1, count=2)}
    with pytest.raises(IllegalActionError, match="only the start of a move"):
        read_move(rum, "take", 1)
    with pytest.raises(IllegalActionError, match="only the start of a move"):
        read_move(israeli.apply(TakeOpenCard(player=0)), "discard", 0)


def test_the_default_game_plays_to_the_end_of_its_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # p1 plays as the greedy bots do; the default table is Rummy 101 with three players, so
    # the match goes on past the first elimination (rules 1.21, 1.22) to its end.
    state = new_game("rummy101", players=3, seed=2)
    commands = []
    while not state.is_over:
        seat = state.to_act[0]
        action = GreedyBot().choose(state.observation(seat))
        if seat == 0:
            commands.append(format_action(action).removeprefix("p1 "))
        state = state.apply(action)
    assert state.result is not None
    assert len(state.players_in) < 3 or any(
        "rebuy" in type(a).__name__.lower() for a in state.history
    )
    code, out = run(
        ["play", "--seed", "2"], "\n".join([*commands, "quit"]) + "\n", monkeypatch, capsys
    )
    assert code == 0
    winners = ", ".join(f"p{seat + 1}" for seat in state.result.winners)
    assert f"match over: won by {winners}" in out
    assert "the match is over: save FILE keeps its record, quit ends" in out
    assert out.count("eliminated") >= 1 or "rebuy" in out


@settings(max_examples=40, deadline=None)
@given(lines=st.lists(st.text(max_size=30).map(lambda text: text.replace("\n", " ")), max_size=6))
def test_any_input_gets_words_never_a_traceback_nor_a_raw_control_character(
    lines: list[str],
) -> None:
    script = "\n".join([*lines, "quit"]) + "\n"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.StringIO(script))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["play", "--variant", "gin", "--players", "2", "--seed", "1"])
    assert (code, err.getvalue()) == (0, "")
    shown = out.getvalue()
    assert not [char for char in shown if unicodedata.category(char) == "Cc" and char not in "\n\t"]


def test_without_a_terminal_the_prompt_comes_before_the_line_is_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A driver reading the output knows the game waits for a line once it sees "> ".
    _, out = run(["play", "--seed", "1", "--players", "2"], "", monkeypatch, capsys)
    assert out.endswith(
        "  your move: draw from the stock, take the open card Kh or propose a Frish\n> "
    )


@pytest.mark.parametrize(("variant", "seats"), [("gin", "p2:10"), ("rummy101", "p3:")])
def test_play_seats_three_players_or_as_near_as_the_variant_allows(
    variant: str, seats: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Gin is for two players: the default of three must not refuse to start it.
    code, out = run(["play", "--variant", variant, "--seed", "1"], "quit\n", monkeypatch, capsys)
    assert code == 0
    assert seats in out
    assert "is for 2 players" not in out


def test_the_words_of_a_move_and_a_phase_come_from_the_variant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The front end names no variant: a variant (a plugin too) says its own moves and phases.
    state = new_game("gin", players=2, seed=1)
    assert prompt(state, 0) == "the first upcard: take the 4c or pass"
    monkeypatch.setattr(GinRummy, "phase_words", lambda self, state: "your say")
    monkeypatch.setattr(
        GinRummy,
        "move_words",
        lambda self, state, kind, actions: "wave" if kind.__name__ == "Pass" else None,
    )
    assert prompt(state, 0) == "your say: take the 4c or wave"


@pytest.mark.parametrize(
    "variant",
    ["rummy101", "carousel", "gin", "turkish500", "rummy500", "indian_points", "rummikub"],
)
def test_a_completed_line_is_always_a_legal_move_it_begins(variant: str) -> None:
    import random  # noqa: PLC0415

    from rummylib._words import _example, complete_move  # noqa: PLC0415

    sample = random.Random(7)
    state = new_game(variant, players=3 if variant != "gin" else 2, seed=11)
    completed = 0
    for _ in range(120):
        if state.is_over:
            break
        for player in range(state.player_count):
            legal = state.legal_actions(player)
            lines = {_example(action, state) for action in legal}
            for line in lines:
                words = line.split()
                for cut in range(1, len(words) + 1):
                    typed = " ".join(words[:cut])
                    move = complete_move(state, typed.upper(), player)  # any case
                    if move is None:
                        continue
                    completed += 1
                    assert move in legal
                    assert _example(move, state).lower().startswith(typed.lower())
                    others = [text for text in lines if text.lower().startswith(typed.lower())]
                    assert others == [_example(move, state)]  # it could mean nothing else
        mover = state.to_act[0]
        state = state.apply(sample.choice(state.legal_actions(mover)))
    assert completed > 0
