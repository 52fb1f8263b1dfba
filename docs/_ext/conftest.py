"""pytest: the Sphinx extension is collected for its doctests only where Sphinx is installed.

The README's test command installs ``rummylib[test]`` alone, without Sphinx.
"""

from __future__ import annotations

import importlib.util

# --doctest-modules would also import this file as a module named ``conftest``, clashing with
# the other conftest.py files; it has no doctests.
collect_ignore = ["conftest.py"]
if importlib.util.find_spec("sphinx") is None:
    collect_ignore.append("rummy_cards.py")
