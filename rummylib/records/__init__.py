r"""Game records: a rummy hand-history format that people and programs can read and write.

A record is a TOML file (``format = "rummylib-record"``): the variant and every setting that
differs from its defaults, the players, the seed (or the cards of each deal), optional
metadata, and ``actions``, one short line per action with the actor first::

    format = "rummylib-record"
    version = 1
    variant = "rummy101"
    players = 2
    seed = 5
    actions = [
        "d deal 1",
        "d hand p1 …",
        "p1 draw stock 7h",
        "p1 discard Kd",
        # deal 1: p1 declared rummy; p2 +34
    ]

:func:`dumps` writes one, :func:`loads` reads one back as a :class:`Record` that replays:
:meth:`Record.states` yields every state, :attr:`Record.final_state` is the last. With
``view=p`` the record is what player ``p`` saw: the others' cards and the stock are ``??``
and the seed is left out; such a record replays to ``p``'s observations
(:meth:`Record.observations`). The format is specified on the page
``docs/reference/record-format.rst``.

>>> from rummylib import new_game
>>> from rummylib.records import dumps, loads
>>> state = new_game("rummy101", players=2, seed=5)
>>> state = state.apply(state.legal_actions()[0])
>>> loads(dumps(state)).final_state == state
True
>>> loads('format = "rummylib-record"\nversion = 9')
Traceback (most recent call last):
...
rummylib.errors.NotationError: line 2: version must be 1, not 9

Loading never executes anything: only TOML is read, every entry is checked for its type and
size, the settings against their bounds, before a card is dealt; then every action is
replayed through the rules.
"""

from rummylib.records._model import (
    FORMAT,
    VERSION,
    Deal,
    RecordError,
)
from rummylib.records._model import (
    MAX_ACTIONS as MAX_ACTIONS,
)
from rummylib.records._model import (
    MAX_BYTES as MAX_BYTES,
)
from rummylib.records._model import (
    MAX_NAME as MAX_NAME,
)
from rummylib.records._model import (
    MAX_TEXT as MAX_TEXT,
)
from rummylib.records._model import (
    METADATA_KEYS as METADATA_KEYS,
)
from rummylib.records._read import load, loads
from rummylib.records._replay import Record
from rummylib.records._write import dump, dumps

__all__ = [
    "FORMAT",
    "VERSION",
    "Deal",
    "Record",
    "RecordError",
    "dump",
    "dumps",
    "load",
    "loads",
]
