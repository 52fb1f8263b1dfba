"""Sphinx configuration of the rummylib documentation.

Built by ``.ci/run`` as ``python -m sphinx -W -n --keep-going -b html docs docs/_build/html``:
warnings are errors and every cross-reference must resolve (nitpicky mode).
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
# Autodoc imports rummylib from the work tree even when it is not installed.
sys.path.insert(0, str(_ROOT))
# docs/_ext holds the project's own extension: rummy_cards, the ``rummy-cards`` directive that
# draws cards with rummylib.svg when the docs build; and rummy_cli, the command-line parser
# as cli.rst's ``argparse`` directive shows it.
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
# silences exactly those, and of rummylib's own only type variables and private modules' types.
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    # The command-line reference (cli.rst) is generated from rummylib.cli's argument parser,
    # so every command and option appears there as ``--help`` describes it.
    "sphinxarg.ext",
    # Reads CHANGELOG.md (Markdown, in Keep a Changelog form) into changelog.rst.
    "myst_parser",
    "rummy_cards",
]

exclude_patterns = ["_build", "_ext"]

# -- autodoc / napoleon ----------------------------------------------------------------------

autodoc_default_options = {
    "members": True,
    "member-order": "bysource",
    "show-inheritance": True,
}
# Signatures show every parameter with its whole annotated type (``variant: Variant | str``,
# ``deck: Sequence[Card] | str | None = None``), one parameter a line when they are long; the
# parameters a docstring describes repeat their type there.
autodoc_typehints = "both"
autodoc_typehints_description_target = "documented_params"
autodoc_typehints_format = "short"
python_maximum_signature_line_length = 88


# rummylib.strategies and rummylib.testing import Hypothesis (the ``test`` extra); a build with
# only the ``docs`` extra documents them all the same, with Hypothesis mocked.
try:
    import hypothesis  # noqa: F401
except ImportError:
    autodoc_mock_imports = ["hypothesis"]

napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False

# -- nitpicky mode ---------------------------------------------------------------------------

nitpicky = True
# `Action` is our own type alias (the union of the action classes, documented in
# rummylib.actions); annotations name it bare, which Sphinx cannot link.
nitpick_ignore = [
    ("py:class", "Action"),
    # The type variable of a variant's own bookkeeping record (``Variant[D]``, ``GameState[D]``):
    # a type variable has no page of its own to link to.
    ("py:class", "D"),
    ("py:class", "rummylib.engine.D"),
    ("py:obj", "rummylib.engine.D"),
]
nitpick_ignore_regex = [
    # Standard library: would resolve through intersphinx (python docs), which needs network.
    (r"py:.*", r"(collections\.abc|collections|enum|os|pathlib|random|typing)\..*"),
    (r"py:mod", r"secrets"),
    # attrs and typing_extensions: third-party, no offline inventory either.
    (r"py:.*", r"(attr|attrs|typing_extensions|hypothesis)\..*"),
    # Private type variables of generic signatures (``register_variant(cls: type[_V])``).
    (r"py:class", r"rummylib\.[\w.]*\._[A-Z]\w*"),
    # Types of private modules, named in annotations (``rummylib._settings.Choice``).
    (r"py:class", r"rummylib\._\w+\..*"),
]

# -- HTML ------------------------------------------------------------------------------------

html_theme = "furo"
html_title = f"rummylib {release}"


# -- signatures ------------------------------------------------------------------------------

_PRIVATE_TYPE = re.compile(r"\b_[A-Z]\w*")


def _hide_private_signature(  # noqa: PLR0917  (autodoc calls it with these seven)
    app: object,
    what: str,
    name: str,
    obj: object,
    options: object,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str, str | None] | None:
    """Show no constructor signature for a class whose fields hold private types.

    Such a class (``Record``: ``_Setup``, ``_Step``) is made by the library (``loads``), never
    by hand.
    """
    if what == "class" and signature and _PRIVATE_TYPE.search(signature):
        return "", return_annotation
    return None


def setup(app: Any) -> None:
    """Sphinx calls this with the application: connect the signature filter."""
    app.connect("autodoc-process-signature", _hide_private_signature)
