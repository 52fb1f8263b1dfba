"""Issue 30's edges of the core: player counts of any integer type, players out of range."""

from __future__ import annotations

import fractions

import pytest

from rummylib import ConfigurationError, IllegalActionError, get_variant, new_game

np = pytest.importorskip("numpy", reason="numpy integers need numpy (the rl extra)")


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint8, np.int16])
def test_check_players_accepts_numpy_integers_and_returns_an_int(kind: type) -> None:
    count = get_variant("rummy101").check_players(kind(3))
    assert count == 3
    assert type(count) is int
    state = new_game("carousel", players=kind(2), seed=1)
    assert state.player_count == 2
    assert type(state.player_count) is int
    assert new_game("carousel", players=2, seed=1).to_json() == state.to_json()


@pytest.mark.parametrize(
    "players",
    [True, np.bool_(True), 2.0, np.float64(2), "2", fractions.Fraction(2), None],
)
def test_check_players_still_refuses_what_is_not_an_integer(players: object) -> None:
    with pytest.raises(ConfigurationError, match="players must be a whole number"):
        get_variant("rummy101").check_players(players)


def test_check_players_refuses_a_numpy_integer_out_of_range() -> None:
    with pytest.raises(ConfigurationError, match="rummy101 is for 2 to 6 players, not 9"):
        get_variant("rummy101").check_players(np.int64(9))


@pytest.mark.parametrize(
    ("player", "name"), [(99, "p100"), (2, "p3"), (-1, "-1"), (np.int8(5), "p6")]
)
def test_legal_actions_of_a_seat_beyond_the_table_is_an_error(player: int, name: str) -> None:
    state = new_game("rummy101", players=2, seed=3)
    expected = f"there is no player {name} at this 2-seat table: players are numbered 0 to 1"
    with pytest.raises(IllegalActionError, match=f"^{expected}$"):
        state.legal_actions(player)
    assert state.legal_actions(np.int64(0)) == state.legal_actions(0)


def test_legal_actions_of_a_seated_player_who_may_not_act_is_empty() -> None:
    state = new_game("rummy101", players=2, seed=3)
    assert state.to_act == (0,)
    assert state.legal_actions(1) == ()
    assert state.legal_actions(0)
