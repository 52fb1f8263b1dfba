"""The toy server agrees with rummylib, checked by rummylib.testing.RulesMachine.

The machine plays matches of every variant by the rules. Each move it applies goes to the
server as a message too, and the server must accept it; each action rummylib refuses, the
server must refuse with the same reason; after every step each player's view must be exactly
their observation. A deliberately broken server shows the machine finds what it should.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import Phase, settings
from hypothesis.stateful import run_state_machine_as_test
from toy_server import Json, ToyServer, encode

from rummylib import GameState, IllegalActionError, Observation
from rummylib.actions import Action
from rummylib.testing import Refusal, RulesMachine


def expected_view(observation: Observation) -> Json:
    """The view the server must show: the observation, field by field, as JSON."""
    return {
        "seat": observation.player,
        "phase": observation.phase.value,
        "to_act": list(observation.to_act),
        "hand": [str(card) for card in observation.hand],
        "hand_sizes": list(observation.hand_sizes),
        "stock_size": observation.stock_size,
        "discard_pile": [str(card) for card in observation.discard_pile],
        "open_card": None if observation.open_card is None else str(observation.open_card),
        "table": [str(meld) for meld in observation.table],
        "scores": list(observation.scores),
        "moves": [encode(action) for action in observation.legal_actions],
    }


class ServerMachine(RulesMachine):
    """Every registered variant; the server follows every step."""

    server_class: type[ToyServer] = ToyServer

    def on_start(self, state: GameState) -> None:
        """Open the same match on the server."""
        self.server = self.server_class(
            state.variant, players=state.player_count, seed=state.seed, deck=state.deck
        )

    def on_action(self, before: GameState, action: Action, after: GameState) -> None:
        """The server accepts every move rummylib accepts."""
        reply = self.server.handle(action.player, encode(action))
        assert reply == {"ok": True}, (action, reply)

    def on_refused(
        self, state: GameState, action: Action, refusal: Refusal, error: IllegalActionError
    ) -> None:
        """The server refuses every move rummylib refuses, giving rummylib's reason."""
        reply = self.server.handle(action.player, encode(action))
        if refusal is Refusal.INVALID_MELD:
            # The server reads each meld as it decodes the message: one that is not a meld
            # is refused there, with the reading's reason rather than the rules' own.
            assert reply["ok"] is False, (action, reply)
            assert "is not a meld" in reply["error"], (action, reply)
            return
        assert reply == {"ok": False, "error": str(error)}, (action, refusal, reply)

    def check_observation(self, state: GameState, player: int, observation: Observation) -> None:
        """Each player's view is exactly their observation."""
        assert self.server.view(player) == expected_view(observation)


ServerMachine.TestCase.settings = settings(
    max_examples=10, stateful_step_count=15, deadline=None, database=None
)
TestToyServer = ServerMachine.TestCase


class IsraeliServerMachine(ServerMachine):
    """Rummy 101 with a few tables: Frish votes and the post-declaration window."""

    variant = "rummy101"
    players = 3
    table_settings = ({}, {"loser_melds": "as_shown"})


IsraeliServerMachine.TestCase.settings = settings(
    max_examples=8, stateful_step_count=15, deadline=None, database=None
)
TestToyServerRummy101 = IsraeliServerMachine.TestCase


class TurnOnlyServer(ToyServer):
    """A broken server: it takes moves only from the player whose turn it is."""

    def handle(self, player: int, message: Any) -> Json:
        """Refuse a message from anyone but ``current_player``, else handle it."""
        if player != self._state.current_player:
            return {"ok": False, "error": "not your turn"}
        return super().handle(player, message)


class TurnOnlyMachine(IsraeliServerMachine):
    """Two-player Rummy 101 against the broken server."""

    server_class = TurnOnlyServer
    players = 2


def test_the_machine_finds_a_server_that_refuses_moves_out_of_turn() -> None:
    """The machine fails on the broken server, at a move of a player without the turn."""
    # During a Frish vote and after a declaration nobody has the turn (current_player is None)
    # but the others must answer, or show their melds; and a host reports a player's
    # disconnection whoever has the turn: the broken server refuses them all.
    refused = r"(AnswerFrish|ShowMelds|GiveUp|Disconnect|Reconnect|TimeExpired)\(player=1"
    with pytest.raises(AssertionError, match=refused):
        run_state_machine_as_test(  # type: ignore[no-untyped-call]
            TurnOnlyMachine,
            settings=settings(
                max_examples=60,
                stateful_step_count=10,
                deadline=None,
                database=None,
                derandomize=True,
                phases=[Phase.generate, Phase.shrink],
                report_multiple_bugs=False,
            ),
        )
