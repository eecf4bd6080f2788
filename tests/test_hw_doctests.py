"""The examples in the hardware modules' docstrings run as tests (as python-chess's README does)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["inputs", "config", "debounce", "buttons", "encoder", "dice_tray_protocol", "dice_tray",
           "oled_layout", "oled_columns", "oled_text", "oled_partial", "oled_ram_model", "oled", "leds",
           "backends",
           "doctor"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(f"hardware.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"hardware.{name} has no examples"
    assert result.failed == 0


def test_the_companion_package_never_imports_hardware_libraries():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "companion"
    # companion/ may reach hardware/ lazily (serve, doctor), never the libraries themselves.
    banned = ("gpiozero", "luma", "serial", "smbus2", "lgpio", "RPi")
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in banned, f"{path} imports {name}"


@pytest.mark.parametrize("name", ["dice", "success", "board", "outcome", "commands", "controls", "games"])
def test_companion_docstring_examples_run(name):
    module = importlib.import_module(f"companion.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"companion.{name} has no examples"
    assert result.failed == 0
