"""``rummylib play`` and ``rummylib replay`` driven by scripts on standard input."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("rich", reason="play and replay draw with rich, the cli extra")

from rummylib import GameState, new_game
from rummylib._notation import format_action
from rummylib.actions import Discard, DrawStock
from rummylib.bots import GreedyBot
from rummylib.bots import play as play_out
from rummylib.cards import format_cards, sort_by_rank, sort_by_suit
from rummylib.cli import main
from rummylib.records import dumps, load
from rummylib.simulate import match_seed
from rummylib.variants import VARIANTS

VARIANT_NAMES = sorted(VARIANTS)


def first_deal_script(name: str, seed: int) -> tuple[list[str], GameState]:
    """p1's commands for a whole first deal against greedy bots, and the state after it.

    p1 plays as a greedy bot would; the commands are the record lines without 'p1'.
    """
    state = new_game(name, players=2, seed=seed)
    commands: list[str] = []
    bot = GreedyBot()
    while not state.deal_results and not state.is_over:
        seat = state.to_act[0]
        action = bot.choose(state.observation(seat))
        if seat == 0:
            line = format_action(action, notation=state.variant.notation)
            commands.append(line.removeprefix("p1 "))
        state = state.apply(action)
    return commands, state


def run(
    argv: list[str],
    script: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_a_whole_deal_of_every_variant_is_played_from_a_script(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    commands, after = first_deal_script(name, seed=3)
    saved = tmp_path / "game.toml"
    script = "\n".join([*commands, f"save {saved}", "quit"]) + "\n"
    code, out, err = run(
        ["play", "--variant", name, "--players", "2", "--seed", "3", "--bots", "greedy"],
        script,
        monkeypatch,
        capsys,
    )
    assert (code, err) == (0, "")
    result = after.deal_results[0]
    assert f"deal 1: {result.ended_by}" in out
    assert "not a move" not in out
    # Every command was played: the record saved at the end is the match the script made,
    # and then the bots' moves of the next deal up to p1's turn.
    history = load(saved).final_state.history
    assert history[: len(after.history)] == after.history
    assert all(action.player != 0 for action in history[len(after.history) :])


def test_a_bad_command_gives_one_line_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "game.toml"
    script = "\n".join(["discard Zz", "fly away", "knock", "meld | 7h 8h", f"save {saved}", "quit"])
    code, out, _ = run(
        ["play", "--variant", "turkish500", "--players", "2", "--seed", "1"],
        script + "\n",
        monkeypatch,
        capsys,
    )
    assert code == 0
    now = "draw from the stock\n"
    assert "\nbad card 'Zz': unknown rank 'Z'; " + now in out
    assert "\nthere is no move 'fly' in Turkish 500 rummy; " + now in out
    assert "\nthere is no 'knock' in Turkish 500 rummy; " + now in out
    assert "\nyou cannot lay down melds now; " + now in out  # said once, and why
    assert out.count("7h 8h") == 1  # the echo only: no verdict on a meld of a refused move
    assert load(saved).final_state == new_game("turkish500", players=2, seed=1)


def test_help_moves_sorting_and_check(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = new_game("rummy101", players=2, seed=3)
    script = "help\nmoves\n789\n777\ncheck 7h 8h 9h\ncheck 7h 8h\nquit\n"
    code, out, _ = run(["play", "--seed", "3", "--players", "2"], script, monkeypatch, capsys)
    assert code == 0
    assert "save FILE" in out
    assert "  draw stock\n  take open\n  propose frish\n" in out
    hand = state.hands[0]
    assert f"your hand: {format_cards(sort_by_suit(hand))}" in out
    assert f"your hand: {format_cards(sort_by_rank(hand))}" in out
    assert "7h 8h 9h is a run" in out
    assert "7h 8h is not a meld" in out


def test_check_reads_declared_jokers_and_answers_in_the_variants_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # as `rummylib check` reads them: a joker written *=x stands for x, and Rummikub's
    # refusals name tiles and sets, not cards and melds
    script = "check 7h *=8h 9h\ncheck 7h * 9h\nquit\n"
    code, out, _ = run(
        ["play", "--variant", "carousel", "--seed", "4"], script, monkeypatch, capsys
    )
    assert code == 0
    assert "\n7h *=8h 9h is a run; the joker stands for 8h\n" in out
    assert out.count("7h *=8h 9h is a run; the joker stands for 8h") == 2
    script = "check k7 *=k8 k9\ncheck k7 k7 k7\ncheck k1 k2\ncheck\ncheck ,\nquit\n"
    code, out, _ = run(
        ["play", "--variant", "rummikub", "--seed", "4"], script, monkeypatch, capsys
    )
    assert code == 0
    assert "\nk7 *=k8 k9 is a run; the joker stands for k8\n" in out
    assert "\nk7 k7 k7: not a valid set: duplicate tile in a group: k7\n" in out
    assert "\nk1 k2: not a valid set: too few tiles (2, at least 3)\n" in out
    assert out.count("\ncheck needs tiles: check TILES\n") == 2  # not ': not a valid set'
    assert "7s" not in out


def test_a_saved_game_is_resumed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    commands, after = first_deal_script("carousel", seed=4)
    half = len(commands) // 2
    first, second = tmp_path / "first.toml", tmp_path / "second.toml"
    run(
        ["play", "--variant", "carousel", "--seed", "4", "--players", "2"],
        "\n".join([*commands[:half], f"save {first}", "quit"]) + "\n",
        monkeypatch,
        capsys,
    )
    code, _, err = run(
        ["play", "--resume", str(first)],
        "\n".join([*commands[half:], f"save {second}", "quit"]) + "\n",
        monkeypatch,
        capsys,
    )
    assert (code, err) == (0, "")
    history = load(second).final_state.history
    assert history[: len(after.history)] == after.history


def test_play_refuses_bad_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(["play", "--bots", "greedy,random,greedy"], "", monkeypatch, capsys)
    assert code == 2
    assert err == "rummylib: --bots names 3 bots for the 2 other players\n"
    code, _, err = run(["play", "--resume", str(tmp_path / "none.toml")], "", monkeypatch, capsys)
    assert code == 2
    assert err.startswith("rummylib: cannot read ")


# -- replay ---------------------------------------------------------------------------------------

DATA = Path(__file__).parent / "data"


def test_replay_prints_the_score_sheet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["replay", str(DATA / "rummy101.toml")], "", monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert "a valid host's record of 3 actions" in out
    assert "p1 declared rummy" in out
    assert "+40 = 40" in out  # p2's penalty: rule 1.15, 20 points x2
    assert "Dana" in out


def test_replay_lists_one_deal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["replay", str(DATA / "gin.toml"), "--deal", "1"], "", monkeypatch, capsys)
    assert code == 0
    assert "  p1 meld | 4c 5c 6c | 7d 7h 7s | 9h Th Jh Qh\n" in out
    assert "p1 went gin" in out
    code, _, err = run(["replay", str(DATA / "gin.toml"), "--deal", "7"], "", monkeypatch, capsys)
    assert code == 2
    assert err == "rummylib: --deal 7: the record has deals 1 to 2\n"


def test_replay_steps_one_action_per_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["replay", str(DATA / "carousel.toml"), "--step"], "\n", monkeypatch, capsys)
    assert code == 0
    assert "p1 draw stock" in out
    assert "p1 table" not in out  # one Enter, one action
    code, out, _ = run(
        ["replay", str(DATA / "carousel.toml"), "--step"], "\n\n", monkeypatch, capsys
    )
    assert "p1 table | 4c 5c 6c 7c | 7d 7h 7s | 9h Th Jh Qh" in out


def test_replay_of_a_view_record_shows_the_players_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = load(DATA / "turkish500.toml").final_state
    path = tmp_path / "view.toml"
    path.write_text(dumps(state, view=1), encoding="utf-8")
    code, out, _ = run(["replay", str(path), "--step"], "\n\n", monkeypatch, capsys)
    assert code == 0
    assert "a valid p2's view of 2 actions" in out
    assert "your hand:" in out


def test_replay_step_shows_the_cards_face_up_and_the_facts_and_no_pile_where_none_is(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    indian = new_game("indian_points", players=2, seed=3)  # wild card 8d (see its rule tests)
    path = tmp_path / "indian.toml"
    path.write_text(dumps(indian.apply(DrawStock(player=0))), encoding="utf-8")
    _, out, _ = run(["replay", str(path), "--step"], "\n", monkeypatch, capsys)
    assert "  set aside face up: 8d\n" in out
    assert "  wild card: 8d (every 8 is wild)\n" in out
    assert "  discard pile: " in out
    rummikub = new_game("rummikub", players=2, seed=3)
    path = tmp_path / "rummikub.toml"
    path.write_text(dumps(rummikub.apply(DrawStock(player=0))), encoding="utf-8")
    _, out, _ = run(["replay", str(path), "--step"], "\n", monkeypatch, capsys)
    assert "p1 draw stock" in out
    assert "discard pile" not in out  # Rummikub has none; it read "discard pile: -"


def test_play_names_the_wild_cards_beside_the_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 5 sets the Ad aside (every A is wild, rule 6.3); p1 holds the Ah.
    argv = ["play", "--variant", "indian_points", "--players", "2", "--seed", "5"]
    _, out, _ = run(argv, "789\nquit\n", monkeypatch, capsys)
    assert "  wild card: Ad (every A is wild)\n" in out
    assert "  your hand (777): Ah 2d 3c 3d 3h 4d 6c 8c 9d Qd Qh Qs Ks  (wild: Ah)\n" in out
    assert "  your hand: 3c 6c 8c 2d 3d 4d 9d Qd Ah 3h Qh Qs Ks  (wild: Ah)\n" in out
    _, out, _ = run(["play", "--variant", "gin", "--seed", "5"], "quit\n", monkeypatch, capsys)
    assert "(wild:" not in out


def test_replay_names_the_bad_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (DATA / "carousel.toml").read_text(encoding="utf-8")
    path = tmp_path / "bad.toml"
    path.write_text(text.replace('"p1 draw stock 7c"', '"p1 draw stock 8c"'), encoding="utf-8")
    line = text.splitlines().index('    "p1 draw stock 7c",') + 1
    code, _, err = run(["replay", str(path)], "", monkeypatch, capsys)
    assert code == 2
    assert err == f"rummylib: line {line}: p1 draws 7c from the stock, not 8c\n"


def test_simulate_saves_a_record_per_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    directory = tmp_path / "records"
    code, _, _ = run(
        [
            "simulate",
            "--variant",
            "gin",
            "--players",
            "2",
            "--matches",
            "3",
            "--seed",
            "2",
            "--backend",
            "serial",
            "--save-records",
            str(directory),
        ],
        "",
        monkeypatch,
        capsys,
    )
    assert code == 0
    files = sorted(path.name for path in directory.iterdir())
    assert files == ["match-000000.toml", "match-000001.toml", "match-000002.toml"]
    for index, name in enumerate(files):
        record = load(directory / name)
        assert record.seed == match_seed(2, index)
        assert record.final_state.is_over
        code, out, _ = run(["replay", str(directory / name)], "", monkeypatch, capsys)
        assert code == 0
        assert "a valid host's record" in out


def test_replay_states_the_match_winner(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    final = play_out(new_game("gin", players=2, seed=5), [GreedyBot(), GreedyBot()])
    assert final.result is not None
    path = tmp_path / "match.toml"
    path.write_text(dumps(final), encoding="utf-8")
    code, out, _ = run(["replay", str(path)], "", monkeypatch, capsys)
    assert code == 0
    (winner,) = final.result.winners
    assert out.rstrip().endswith(f"match over: won by p{winner + 1}")


def test_replay_of_an_unfinished_match_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["replay", str(DATA / "gin.toml")], "", monkeypatch, capsys)
    assert code == 0
    assert out.rstrip().endswith("the match is not over")


def test_replay_counts_deals_in_good_english(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "one.toml"
    path.write_text(dumps(new_game("gin", players=2, seed=1)), encoding="utf-8")
    _, out, _ = run(["replay", str(path)], "", monkeypatch, capsys)
    assert re.search(r"\bgin: 1 deal\b(?!s)", out), out
    _, out, _ = run(["replay", str(DATA / "gin.toml")], "", monkeypatch, capsys)
    assert "gin: 2 deals" in out


def test_replay_step_shows_a_drawn_card_to_whom_may_see_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = new_game("rummy101", players=2, seed=3)
    first = state.stock[0]
    state = state.apply(DrawStock(player=0))
    state = state.apply(Discard(player=0, card=state.hands[0][0]))
    second = state.stock[0]
    state = state.apply(DrawStock(player=1))
    host, view = tmp_path / "host.toml", tmp_path / "view.toml"
    host.write_text(dumps(state), encoding="utf-8")
    view.write_text(dumps(state, view=1), encoding="utf-8")
    _, out, _ = run(["replay", str(host), "--step"], "\n" * 3, monkeypatch, capsys)
    assert f"p1 draw stock {first}\n" in out
    assert f"p2 draw stock {second}\n" in out
    _, out, _ = run(["replay", str(view), "--step"], "\n" * 3, monkeypatch, capsys)
    assert "p1 draw stock\n" in out  # p2 may not see p1's card
    assert f"p2 draw stock {second}\n" in out


def test_simulate_records_name_the_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    directory = tmp_path / "records"
    argv = ["simulate", "--variant", "rummy101", "--players", "3", "--matches", "1"]
    argv += ["--bots", "greedy,random,greedy", "--backend", "serial"]
    code, _, _ = run([*argv, "--save-records", str(directory)], "", monkeypatch, capsys)
    assert code == 0
    record = load(directory / "match-000000.toml")
    assert record.names == ("p1 greedy", "p2 random", "p3 greedy")
    code, out, _ = run(["replay", str(directory / "match-000000.toml")], "", monkeypatch, capsys)
    assert "p2 random" in out
