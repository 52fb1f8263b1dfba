"""Reinforcement-learning environments for every registered variant (the ``rl`` extra).

* :mod:`rummylib.envs.encoding`: the fixed action numbering of each variant, the observation
  vector, the rewards (numpy only).
* :mod:`rummylib.envs.pettingzoo`: ``env(variant, players=…)``, a PettingZoo AEC environment.
* :mod:`rummylib.envs.gym`: ``SingleAgentEnv(variant, opponents=[…])``, a Gymnasium
  environment against bots, and a ``gymnasium`` id per variant.
* :mod:`rummylib.envs.openspiel`: ``register()`` makes each variant an OpenSpiel game.

``import rummylib`` never imports this package: it needs numpy (and each adapter its
framework), installed by ``pip install 'rummylib[rl]'``. The docs page "learn to play rummy"
has the action tables and the observation layout.
"""

from __future__ import annotations
