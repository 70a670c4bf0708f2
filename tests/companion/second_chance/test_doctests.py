"""The runnable examples in the Second Chance docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["shapes", "grid", "sheet", "solo", "drawn"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"companion.second_chance.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
