"""Test-session set-up for the whole repository (tests, doctests, docs, examples).

* Doctest examples import what they use, as a reader pasting them into Python must: no name
  is injected into them.
* The example plugin ``examples/plugin`` (seven-card knock rummy) is made visible as if it were
  installed, so the registry finds it by its entry point in any environment: ``.ci/run``
  pip-installs it, and the README's plain ``pip install -e '.[test]'`` does not.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import shutil
import sys
import tempfile
from pathlib import Path

_ROOT = Path(__file__).parent
_PLUGIN = _ROOT / "examples" / "plugin"


def _make_plugin_visible() -> None:
    """Lay out the plugin's distribution metadata on ``sys.path`` unless it is installed."""
    try:
        importlib.metadata.distribution("rummylib-knock7")
    except importlib.metadata.PackageNotFoundError:
        pass
    else:
        return
    site = Path(tempfile.mkdtemp(prefix="rummylib-plugin-"))
    atexit.register(shutil.rmtree, site, ignore_errors=True)
    info = site / "rummylib_knock7-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rummylib-knock7\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[rummylib.variants]\nknock7 = knock7:KnockSeven\n")
    sys.path[:0] = [str(_PLUGIN / "src"), str(site)]


_make_plugin_visible()
