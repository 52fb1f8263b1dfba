"""Test-suite set-up: the Hypothesis profiles ``dev`` and ``ci``.

``ci`` is loaded whenever the ``CI`` environment variable is set to a non-empty value (as
``.ci/run`` does); otherwise ``HYPOTHESIS_PROFILE`` names the profile, and ``dev`` is the
default. ``ci`` runs more examples, derandomized so a run is reproducible, and prints the blob
that reproduces a failure. Neither has a deadline: timings on shared machines are noise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from rummylib.registry import _REGISTRY

# --doctest-modules would also import this file as a test module named ``conftest``, which
# clashes with the other conftest.py files (the repository root has one): it has no doctests.
collect_ignore = ["conftest.py"]

# No deadline in either profile: speed is measured in benchmarks/, never by timing tests on a
# shared machine.
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    print_blob=True,
)


def _profile_name() -> str:
    """Pick the Hypothesis profile for this run from the environment."""
    if os.environ.get("CI"):
        return "ci"
    return os.environ.get("HYPOTHESIS_PROFILE") or "dev"


settings.load_profile(_profile_name())


@pytest.fixture
def registry_restored() -> Iterator[None]:
    """Undo what a test registers in the global variant registry (other tests list it)."""
    classes, folded = dict(_REGISTRY._classes), dict(_REGISTRY._folded)
    yield
    _REGISTRY._classes.clear()
    _REGISTRY._classes.update(classes)
    _REGISTRY._folded.clear()
    _REGISTRY._folded.update(folded)
