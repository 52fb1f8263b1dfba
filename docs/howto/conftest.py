"""pytest: the learning-environment page runs where its frameworks are installed.

``learn-to-play.rst`` needs the ``rl`` extra (numpy, pettingzoo, gymnasium) and open-spiel;
the README's test command installs ``rummylib[test]`` alone, so without them the page is not
collected (``.ci/run`` installs them, and there it runs).
"""

from __future__ import annotations

import importlib.util


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a module blocked in sys.modules has no spec
        return False


# --doctest-modules would also import this file as a module named ``conftest``, clashing with
# the other conftest.py files; it has no doctests.
collect_ignore = ["conftest.py"]
if not all(map(_installed, ("numpy", "pettingzoo", "gymnasium", "pyspiel"))):
    collect_ignore.append("learn-to-play.rst")
