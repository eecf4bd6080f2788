"""The examples in the NBA Showdown modules' docstrings run as tests (as python-chess's README does)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["", ".cards", ".rosters", ".odds", ".model", ".setup_options", ".commands", ".rules", ".calc"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"companion.games.nba_showdown{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{module.__name__} has no examples"
    assert result.failed == 0
