"""Doctest set-up: every docstring example may use the public names of :mod:`rummylib`."""

from __future__ import annotations

import pytest

import rummylib


@pytest.fixture(autouse=True)
def _rummylib_names(doctest_namespace: dict[str, object]) -> None:
    for name in rummylib.__all__:
        doctest_namespace[name] = getattr(rummylib, name)
