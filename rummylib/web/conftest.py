"""pytest: the web table's doctests run where the ``web`` extra is installed.

``python -m pytest`` collects the doctests of every module of rummylib; without Starlette
(the README's test command installs ``rummylib[test]`` alone) this package is left out.
``.ci/run`` installs the extra, and there they run. This file is not part of the wheel.
"""

from __future__ import annotations

import importlib.util


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a module blocked in sys.modules has no spec
        return False


# --doctest-modules would also import this file as a module named ``conftest``; no doctests.
collect_ignore = ["conftest.py"]
if not _installed("starlette"):
    collect_ignore += ["_app.py"]
