"""The examples in docstrings are tests too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cardzones

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(cardzones.__path__, "cardzones.")
    if not m.name.endswith(("cli", "bench", "plugin"))
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
