"""Numbers for moves and arrays for views: what a learning agent reads and writes.

Three pieces, shared by the PettingZoo, Gymnasium and OpenSpiel adapters, and usable alone:

* :class:`ActionTable`: a fixed numbering of a variant's moves, the same in every state. Moves
  that carry melds would have huge spaces, so they are numbered as **macro actions** built on
  the exact solvers (:func:`~rummylib.arrangement.arrange`, :func:`~rummylib.table.best_play`):
  "declare, discarding card c, with the best arrangement", "lay off card c where it fits", and
  so on. :meth:`ActionTable.legal` maps each number that is legal now to the action it stands
  for; :meth:`ActionTable.decode` refuses any other number.
* :class:`ObservationEncoder`: one player's :class:`~rummylib.views.Observation` as a flat
  ``float32`` vector (card-count planes, then numbers) with a documented layout. It reads the
  observation only, so nothing hidden can reach an agent.
* :class:`TakenCards`: the face-up cards each player was seen to take and still holds, kept
  from public facts (the discard pile, the open card, the table and the hand sizes).

The rewards of the adapters are here too (:func:`rewards`), so that all three agree.

>>> from rummylib import new_game
>>> from rummylib.envs.encoding import ActionTable, ObservationEncoder
>>> state = new_game("gin", players=2, seed=1)
>>> table = ActionTable.for_variant(state.variant)
>>> legal = table.legal(state, 0)
>>> [(number, table.label(number)) for number in legal]
[(1, 'take the top discard'), (56, 'pass')]
>>> table.decode(state, 0, 56)
Pass(player=0)
>>> encoder = ObservationEncoder(state.variant, players=2)
>>> vector = encoder.encode(state.observation(0))
>>> vector.shape, int(vector[encoder.layout["hand"]].sum())
((342,), 10)
"""

from __future__ import annotations

from rummylib.envs._action_table import (
    CARD_KINDS,
    REWARD_MODES,
    SCALAR_BOUND,
    ActionBlock,
    ActionTable,
    FloatArray,
    MaskArray,
    phase_kinds,
    variant_kinds,
)
from rummylib.envs._rewards import (
    describe,
    outcome,
    rewards,
    score_sign,
)
from rummylib.envs._vectors import ObservationEncoder, TakenCards

__all__ = [
    "CARD_KINDS",
    "REWARD_MODES",
    "SCALAR_BOUND",
    "ActionBlock",
    "ActionTable",
    "FloatArray",
    "MaskArray",
    "ObservationEncoder",
    "TakenCards",
    "describe",
    "outcome",
    "phase_kinds",
    "rewards",
    "score_sign",
    "variant_kinds",
]
