"""Bots act on observations only and play matches to the end; the simulate command."""

from __future__ import annotations

import pytest

from rummylib import ConfigurationError, new_game
from rummylib.actions import DeclareRummy, DrawStock
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
    assert "rummy101 is for 2 to 6 players, not 9" in capsys.readouterr().err
    assert main(["simulate", "--bots", "clever"]) == 2
    assert "unknown bot 'clever'" in capsys.readouterr().err
    assert main(["simulate", "--variant", "gin"]) == 2
    assert "unknown variant 'gin'" in capsys.readouterr().err


def test_variants_command_lists_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "rummy101" in out
    assert "rummy71" in out
