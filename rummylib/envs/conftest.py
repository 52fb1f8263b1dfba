"""pytest: the adapters' doctests run where their frameworks are installed.

``python -m pytest`` collects the doctests of every module of rummylib; the README's test
command installs ``rummylib[test]`` alone, without the ``rl`` extra or open-spiel, and then the
modules that need them are left out (``.ci/run`` installs them, and there they run). This file
is not part of the wheel (pyproject.toml).
"""

from __future__ import annotations

import importlib.util


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a module blocked in sys.modules has no spec
        return False


_NEEDS = {
    "encoding.py": ("numpy",),
    "_common.py": ("numpy", "gymnasium"),
    "gym.py": ("numpy", "gymnasium"),
    "pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
    "openspiel.py": ("numpy", "pyspiel"),
}

# --doctest-modules would also import this file as a module named ``conftest``, clashing with
# the other conftest.py files; it has no doctests.
collect_ignore = ["conftest.py"]
collect_ignore += [module for module, needs in _NEEDS.items() if not all(map(_installed, needs))]
