"""Bots act on observations only and play matches to the end; the simulate command."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

import pytest

import rummylib.simulate as simulation
from rummylib import ConfigurationError, GameState, get_variant, new_game, parse_card
from rummylib.actions import Action, DeclareRummy, DrawStock
from rummylib.bots import Bot, GreedyBot, RandomBot, play
from rummylib.cli import main


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_bots_finish_a_match_and_the_pot_goes_to_the_winner(players: int) -> None:
    final = play(new_game("rummy71", players=players, seed=players), [GreedyBot()] * players)
    assert final.is_over
    result = final.result
    assert result is not None
    assert len(result.winners) == 1
    (winner,) = result.winners
    assert final.scores[winner] < 71
    assert sum(result.payouts) == final.pot
    assert result.payouts[winner] == final.pot
    # Every deal was scored, and every deal record explains its points line by line.
    assert result.deals == final.deal_results
    for record in result.deals:
        if record.lines:
            assert sum(line.points for line in record.lines) == sum(record.points)


def test_bots_choose_legal_actions_from_observations() -> None:
    state = new_game("rummy101", players=3, seed=4)
    bots: list[Bot] = [GreedyBot(), RandomBot(seed=1), GreedyBot()]
    for _ in range(150):
        if state.is_over:
            break
        player = state.to_act[0]
        action = bots[player].choose(state.observation(player))
        assert action in state.legal_actions(player)
        state = state.apply(action)


def test_greedy_bot_declares_when_it_can() -> None:
    # Find a state where a declaration is listed, then check the bot takes it.
    state = new_game("rummy101", players=2, seed=11)
    bots = [GreedyBot(), GreedyBot()]
    for _ in range(2000):
        player = state.to_act[0]
        observation = state.observation(player)
        if any(isinstance(action, DeclareRummy) for action in observation.legal_actions):
            assert isinstance(bots[player].choose(observation), DeclareRummy)
            return
        state = state.apply(bots[player].choose(observation))
    pytest.fail("no declaration within 2000 actions")


def test_random_bot_is_reproducible() -> None:
    observation = new_game("rummy101", players=2, seed=2).observation(0)
    first = [RandomBot(seed=5).choose(observation) for _ in range(5)]
    second = [RandomBot(seed=5).choose(observation) for _ in range(5)]
    assert first == second


def test_play_stops_after_max_actions() -> None:
    state = play(
        new_game("rummy101", players=2, seed=1), [RandomBot(1), RandomBot(2)], max_actions=7
    )
    assert len(state.history) == 7
    assert not state.is_over


class EndlessState:
    """A stand-in for a match that ends only after ``length`` actions (or never: ``None``)."""

    to_act = (0,)

    def __init__(self, length: int | None, actions: int = 0) -> None:
        self.length = length
        self.actions = actions

    @property
    def is_over(self) -> bool:
        return self.length is not None and self.actions >= self.length

    def observation(self, player: int) -> None:
        return None

    def apply(self, action: Action) -> EndlessState:
        return EndlessState(self.length, self.actions + 1)


class DrawBot:
    def choose(self, observation: object) -> Action:
        return DrawStock(player=0)


def play_endless(length: int | None, **options: Any) -> EndlessState:
    final = play(cast("GameState", EndlessState(length)), [DrawBot()], **options)
    return cast("EndlessState", final)


def test_play_gives_up_after_100_000_actions_by_default() -> None:
    # A match that would run for a million actions is cut at the default guard.
    final = play_endless(1_000_000)
    assert final.actions == 100_000
    assert not final.is_over
    assert play_endless(None, max_actions=12).actions == 12


def test_play_without_a_limit_plays_to_the_end() -> None:
    final = play_endless(100_001, max_actions=None)
    assert final.actions == 100_001
    assert final.is_over


def test_play_with_max_actions_zero_returns_the_state_itself() -> None:
    state = new_game("rummy101", players=2, seed=1)
    assert play(state, [GreedyBot()] * 2, max_actions=0) is state


@pytest.mark.parametrize("bad", [-1, True, 2.5, "10"])
def test_play_refuses_a_bad_max_actions(bad: object) -> None:
    state = new_game("rummy101", players=2, seed=1)
    with pytest.raises(ConfigurationError, match="max_actions must be None or a whole number"):
        play(state, [GreedyBot()] * 2, max_actions=bad)  # type: ignore[arg-type]


def test_play_refuses_a_missing_bot() -> None:
    with pytest.raises(ConfigurationError, match="no bot for p2"):
        play(new_game("rummy101", players=2, seed=1), [GreedyBot()])


def test_a_bot_with_nothing_to_do_says_so() -> None:
    observation = new_game("rummy101", players=2, seed=1).observation(1)
    assert observation.legal_actions == ()
    with pytest.raises(ConfigurationError, match="p2 has no legal action now"):
        GreedyBot().choose(observation)
    with pytest.raises(ConfigurationError, match="p2 has no legal action now"):
        RandomBot(1).choose(observation)
    assert DrawStock(player=0) in new_game("rummy101", players=2, seed=1).legal_actions()


def test_simulate_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["simulate", "--variant", "rummy71", "--players", "2", "--matches", "2", "--seed", "3"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "2 of 2" in out
    for figure in ("deals per match", "rebuys", "matches/s", "actions/s", "p1", "p2"):
        assert figure in out


def test_simulate_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "9"]) == 2
    assert capsys.readouterr().err == "rummylib: rummy101 is for 2 to 6 players, not 9\n"
    # Values argparse reads itself: a one-line message and exit 2, returned by main.
    for argv, message in [
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--variant", "canasta"], "unknown variant 'canasta'"),
        (["--max-actions", "0"], "--max-actions: must be a whole number of at least 1, not '0'"),
    ]:
        assert main(["simulate", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("rummylib: argument ")
        assert err.count("\n") == 1
        assert message in err


def test_simulate_reports_matches_cut_short_by_max_actions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # No Rummy 71 match can end within 5 actions: it takes eliminations over several deals.
    argv = ["simulate", "--variant", "rummy71", "--players", "3", "--matches", "2"]
    code = main([*argv, "--bots", "random", "--max-actions", "5"])
    out = capsys.readouterr().out
    assert code == 1  # no match finished (issue 17)
    assert re.search(r"matches played\W+2 of 2\b", out)
    assert re.search(r"matches finished\W+0 of 2\b", out)
    assert re.search(r"unfinished after 5 actions\W+2\b", out)
    assert seat_wins(out) == [0, 0, 0]


def seat_wins(out: str) -> list[float]:
    """The wins column of the simulate table (rich or plain), seat by seat."""
    return [float(wins) for wins in re.findall(r"\bp\d\b\W+([0-9.]+)", out)]


def test_simulate_interrupted_prints_the_matches_played_so_far(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games: list[GameState] = []

    def play_then_ctrl_c(state: GameState, bots: Sequence[Bot], **options: Any) -> GameState:
        if len(games) == 2:
            raise KeyboardInterrupt  # Ctrl-C during the third match
        games.append(play(state, bots, **options))
        return games[-1]

    monkeypatch.setattr(simulation, "play", play_then_ctrl_c)  # serial: in this process
    argv = ["--variant", "rummy71", "--players", "2", "--matches", "5", "--backend", "serial"]
    code = main(["simulate", *argv])
    captured = capsys.readouterr()
    assert code == 130
    assert captured.err == "rummylib: interrupted after 2 of 5 matches\n"
    assert "Traceback" not in captured.out
    assert re.search(r"matches played\W+2 of 5 \(interrupted\)", captured.out)
    assert "2 of 5 matches" in captured.out  # the table title
    # The summary counts exactly the two matches that were played.
    assert all(game.is_over for game in games)
    assert re.search(r"matches finished\W+2 of 2\b", captured.out)
    assert sum(seat_wins(captured.out)) == 2
    deals = sum(len(game.deal_results) for game in games)
    assert re.search(rf"deals per match\W+{deals / 2:.2f}\b", captured.out)


def test_simulate_interrupted_before_any_match_ends(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def ctrl_c(state: GameState, bots: Sequence[Bot], **options: Any) -> GameState:
        raise KeyboardInterrupt

    monkeypatch.setattr(simulation, "play", ctrl_c)
    assert main(["simulate", "--matches", "3", "--backend", "serial"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "rummylib: interrupted after 0 of 3 matches\n"
    assert re.search(r"matches played\W+0 of 3 \(interrupted\)", captured.out)
    assert re.search(r"deals per match\W+-", captured.out)


def test_variants_command_lists_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "rummy101" in out
    assert "rummy71" in out


def test_which_cards_may_ever_be_discarded_comes_from_the_variant() -> None:
    # GreedyBot plans around cards the variant never lets go of, and names no variant itself.
    joker, seven = parse_card("*"), parse_card("7h")
    assert get_variant("rummy101").may_ever_discard(joker) is False
    assert get_variant("rummy101").may_ever_discard(seven) is True
    assert get_variant("turkish500").may_ever_discard(joker) is True
