"""A variant's own action kind, through every path that reads or writes actions.

The example plugin (``examples/plugin``, seven-card knock rummy) declares ``Fold``, a move no
built-in variant has, and registers it with :func:`rummylib.actions.register_action`. Each
test here drives one path: JSON saves, game records, notation, ``rummylib play``, the
Hypothesis strategies and the RulesMachine, and the learning environments' action table.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

from rummylib import GameState, IllegalActionError, MeldRules, new_game
from rummylib._notation import ActionLine, format_action, parse_line
from rummylib.actions import (
    ACTION_TYPES,
    DrawStock,
    PlayerAction,
    is_action,
    register_action,
    spec_of,
    unregister_action,
)
from rummylib.errors import ConfigurationError, NotationError
from rummylib.records import dumps, loads
from rummylib.strategies import actions, games, illegal_actions
from rummylib.testing import RulesMachine
from rummylib.variants import VARIANTS

VARIANTS["knock7"]  # the plugin's module registers Fold when the registry loads it
Fold: Any = ACTION_TYPES["fold"]

QUICK = settings(
    max_examples=15,
    database=None,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def folded_game(seed: int = 3) -> GameState:
    """A three-seat knock7 match in which p2 folds on their first turn."""
    state = new_game("knock7", players=3, seed=seed)
    state = state.apply(DrawStock(player=0))
    state = state.apply(state.legal_actions(0)[0])  # a discard
    assert Fold(player=1) in state.legal_actions(1)
    return state.apply(Fold(player=1))


def test_the_plugin_class_is_registered_under_its_kind() -> None:
    assert Fold.__module__ == "knock7"
    assert is_action(Fold(player=0))
    assert spec_of(Fold).usage == "fold"
    # Without a field, it gets one env number of its own.
    assert [block.name for block in Fold.env_blocks] == ["fold"]


def test_a_fold_is_legal_before_the_take_only_and_scores_the_deal() -> None:
    state = new_game("knock7", players=3, seed=3)
    assert Fold(player=0) in state.legal_actions(0)
    drawn = state.apply(DrawStock(player=0))
    assert not drawn.is_legal(Fold(player=0))
    with pytest.raises(IllegalActionError, match="p1 has already taken a card this turn"):
        drawn.apply(Fold(player=0))
    final = folded_game()
    assert final.is_over
    assert final.deal_results[0].points == (10, -20, 10)
    assert final.deal_results[0].ended_by == "p2 folded"


def test_json_saves_keep_the_fold() -> None:
    state = folded_game()
    text = state.to_json()
    assert '"type": "fold"' in text
    again = GameState.from_json(text)
    assert again == state
    assert again.history[-1] == Fold(player=1)


def test_game_records_write_read_and_replay_the_fold() -> None:
    state = folded_game()
    text = dumps(state)
    assert '"p2 fold"' in text
    record = loads(text)
    assert record.final_state == state
    assert record.errors == ()
    assert isinstance(record.final_state.history[-1], Fold)


def test_notation_reads_and_writes_the_fold() -> None:
    assert format_action(Fold(player=2)) == "p3 fold"
    assert parse_line("p3 fold", rules=MeldRules(), players=3) == ActionLine(Fold(player=2))
    with pytest.raises(NotationError, match="expected 'fold'"):
        parse_line("p3 fold now", rules=MeldRules(), players=3)


def test_rummylib_play_takes_a_typed_fold(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("rich", reason="play draws with rich, the cli extra")
    from rummylib.cli import main  # noqa: PLC0415  (needs the cli extra, checked above)

    saved = tmp_path / "game.toml"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"fold\nsave {saved}\nquit\n"))
    code = main(["play", "--variant", "knock7", "--players", "2", "--seed", "5"])
    out = capsys.readouterr().out
    assert code == 0
    assert "p1 folded" in out
    history = loads(saved.read_text()).final_state.history
    assert history[0] == Fold(player=0)


@given(actions(Fold, players=4))
@QUICK
def test_strategies_draw_the_registered_class(action: PlayerAction) -> None:
    assert type(action) is Fold
    assert 0 <= action.player < 4
    assert parse_line(format_action(action), rules=MeldRules(), players=4) == ActionLine(action)


def test_hypothesis_resolves_the_registered_class_by_its_type() -> None:
    found = find(st.from_type(Fold), lambda action: action.player == 2, settings=QUICK)
    assert found == Fold(player=2)


def test_games_reach_a_state_after_a_fold() -> None:
    state = find(
        games("knock7", players=2),
        lambda state: any(type(action) is Fold for action in state.history),
        settings=settings(QUICK, max_examples=200),
    )
    assert state.is_over


@given(st.data())
@QUICK
def test_illegal_actions_try_the_fold_in_the_wrong_phase(data: st.DataObject) -> None:
    state = new_game("knock7", players=2, seed=1).apply(DrawStock(player=0))
    action, _ = data.draw(illegal_actions(state))
    assert not state.is_legal(action)
    # WRONG_PHASE lists every registered move with no field: the fold is among them.
    assert not state.is_legal(Fold(player=0))


def test_the_rules_machine_plays_folds() -> None:
    seen: list[PlayerAction] = []

    class Machine(RulesMachine):
        variant: ClassVar[str] = "knock7"

        def on_action(self, before: GameState, action: PlayerAction, after: GameState) -> None:
            seen.append(action)

    runner: Any = run_state_machine_as_test
    runner(Machine, settings=settings(QUICK, max_examples=25, stateful_step_count=10))
    assert any(type(action) is Fold for action in seen)


def test_the_env_action_table_numbers_the_fold() -> None:
    pytest.importorskip("numpy", reason="the action tables live in rummylib.envs (rl extra)")
    from rummylib.envs.encoding import ActionTable  # noqa: PLC0415  (rl extra, checked above)

    state = new_game("knock7", players=2, seed=1)
    table = ActionTable.for_variant(state.variant)
    block = table.block("fold")
    assert block is not None
    assert block.kind is Fold
    assert block.start == table.size - 1  # registered after the built-in kinds: numbered last
    assert block.start in table.numbers(state, 0)
    assert table.decode(state, 0, block.start) == Fold(player=0)
    assert table.label(block.start) == "fold"
    drawn = state.apply(DrawStock(player=0))
    assert block.start not in table.numbers(drawn, 0)


def test_an_unregistered_action_class_is_refused_with_the_way_out() -> None:
    @attrs.frozen(kw_only=True)
    class Shrug(PlayerAction):
        kind: ClassVar[str] = "shrug"
        verb: ClassVar[str] = "shrug"

    state = new_game("knock7", players=2, seed=1)
    with pytest.raises(IllegalActionError, match="Shrug is not registered: see register_action"):
        state.apply(Shrug(player=0))
    assert not state.is_legal(Shrug(player=0))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"kind": "fold", "verb": "give in"}, "kind 'fold' is Fold's already"),
        ({"kind": "give_in", "verb": "fold"}, "verb 'fold' reads like Fold's 'fold'"),
        ({"kind": "Give In", "verb": "give in"}, "bad kind 'Give In'"),
        ({"kind": "give_in", "verb": ""}, "bad verb '': it has no words"),
        ({"kind": "give_in", "verb": "give {card}"}, "names 'card', not a card"),
    ],
)
def test_bad_declarations_are_refused(body: dict[str, str], message: str) -> None:
    cls = attrs.frozen(kw_only=True)(
        type("GiveIn", (PlayerAction,), {"__annotations__": {}, **body})
    )
    with pytest.raises(ConfigurationError, match=message):
        register_action(cls)
    assert cls not in ACTION_TYPES.values()


def test_a_class_with_a_card_and_a_flag_round_trips_and_unregisters() -> None:
    from rummylib.cards import Card, parse_card  # noqa: PLC0415

    @attrs.frozen(kw_only=True)
    class Bet(PlayerAction):
        kind: ClassVar[str] = "test_bet"
        verb: ClassVar[str] = "bet {card} {high:low/high}"
        card: Card
        high: bool

    register_action(Bet)
    try:
        action = Bet(player=0, card=parse_card("7h"), high=True)
        assert format_action(action) == "p1 bet 7h high"
        assert parse_line("p1 bet 7h high", rules=MeldRules(), players=2) == ActionLine(action)
        assert [block.parameter for block in Bet.env_blocks] == []  # two fields: no number
        with pytest.raises(NotationError, match=re.escape("expected 'bet CARD low|high'")):
            parse_line("p1 bet 7h sideways", rules=MeldRules(), players=2)
    finally:
        unregister_action(Bet)
    assert "test_bet" not in ACTION_TYPES
    with pytest.raises(ConfigurationError, match="a built-in action cannot be unregistered"):
        unregister_action(DrawStock)


@pytest.mark.usefixtures("registry_restored")
def test_a_variant_that_allows_an_unregistered_class_is_refused_at_registration() -> None:
    from rummylib.engine import Phase  # noqa: PLC0415
    from rummylib.registry import register_variant  # noqa: PLC0415

    @attrs.frozen(kw_only=True)
    class Shrug(PlayerAction):
        kind: ClassVar[str] = "shrug"
        verb: ClassVar[str] = "shrug"

    knock7: Any = VARIANTS["knock7"]

    @attrs.frozen(kw_only=True)
    class Shrugging(knock7):  # type: ignore[misc]
        name: ClassVar[str] = "shrugging"
        phase_actions: ClassVar[Any] = {Phase.DRAW: (DrawStock, Shrug)}

    with pytest.raises(ConfigurationError, match="Shrugging allows Shrug, an action class that"):
        register_variant(Shrugging)
    assert "shrugging" not in VARIANTS
