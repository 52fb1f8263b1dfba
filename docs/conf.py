"""Sphinx configuration of the rummylib documentation.

Built by ``.ci/run`` as ``python -m sphinx -W -n --keep-going -b html docs docs/_build/html``:
warnings are errors and every cross-reference must resolve (nitpicky mode).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
# Autodoc imports rummylib from the work tree even when it is not installed.
sys.path.insert(0, str(_ROOT))
# docs/_ext holds the project's own extension: rummy_cards, the ``rummy-cards`` directive that
# draws cards with rummylib.svg when the docs build.
sys.path.insert(0, str(_ROOT / "docs" / "_ext"))

with (_ROOT / "pyproject.toml").open("rb") as _file:
    _PROJECT = tomllib.load(_file)["project"]

project = "rummylib"
author = "rummylib contributors"
copyright = "2026, rummylib contributors"
release = _PROJECT["version"]
version = ".".join(release.split(".")[:2])

# intersphinx is deliberately left out: it fetches remote inventories (docs.python.org,
# attrs.org) at build time, and the build must work offline. Without it, references to
# standard-library and third-party classes cannot resolve; nitpick_ignore_regex below
# silences exactly those, and nothing of rummylib's own.
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "rummy_cards",
]

exclude_patterns = ["_build", "_ext"]

# -- autodoc / napoleon ----------------------------------------------------------------------

autodoc_default_options = {
    "members": True,
    "member-order": "bysource",
    "show-inheritance": True,
}
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_typehints_format = "short"


napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False

# -- nitpicky mode ---------------------------------------------------------------------------

nitpicky = True
# `Action` is our own type alias (the union of the action classes, documented in
# rummylib.actions); annotations name it bare, which Sphinx cannot link.
nitpick_ignore = [("py:class", "Action")]
nitpick_ignore_regex = [
    # Standard library: would resolve through intersphinx (python docs), which needs network.
    (r"py:.*", r"(collections\.abc|collections|enum|random|typing)\..*"),
    (r"py:mod", r"secrets"),
    # attrs and typing_extensions: third-party, no offline inventory either.
    (r"py:.*", r"(attr|attrs|typing_extensions|hypothesis)\..*"),
    # Private type variables of generic signatures (``register_variant(cls: type[_V])``).
    (r"py:class", r"rummylib\.[\w.]*\._[A-Z]\w*"),
]

# -- HTML ------------------------------------------------------------------------------------

html_theme = "furo"
html_title = f"rummylib {release}"
