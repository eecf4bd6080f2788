"""The layers run one way: table/ -> hardware/, kiosk/ -> companion/, never back up.

Every import statement is read from the source (imports inside functions included), and so are
imports by name (``importlib.import_module("x")``, ``__import__("x")``, ``find_spec("x")``), so a
late import cannot hide an upward dependency the way it could from a check of ``sys.modules``.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What each layer may import of the project's own packages (itself always allowed).
ALLOWED: dict[str, set[str]] = {
    "companion": set(),
    "hardware": {"companion"},
    "kiosk": {"companion"},
    "table": {"companion", "hardware", "kiosk"},
}
THIRD_PARTY_BANNED = {
    "companion": {"kivy", "gpiozero", "luma", "serial", "lgpio", "smbus2", "spidev", "PIL"},
    "kiosk": {"gpiozero", "luma", "serial", "lgpio", "smbus2", "spidev"},
}
BY_NAME = {"import_module", "__import__", "find_spec", "import_from_string"}


def imported_names(source: str) -> list[tuple[int, str]]:
    """Every module a piece of source imports, by statement or by name, with its line.

    >>> imported_names("import os\\ndef f():\\n    from hardware.oled import x\\n")
    [(1, 'os'), (3, 'hardware.oled')]
    >>> imported_names("import importlib\\nimportlib.import_module('kiosk.app')")
    [(1, 'importlib'), (2, 'kiosk.app')]
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call):
            func = node.func
            name = (func.attr if isinstance(func, ast.Attribute)
                    else func.id if isinstance(func, ast.Name) else "")
            if name in BY_NAME and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return sorted(found)


def upward_imports(root: Path) -> list[str]:
    """Each import that breaks ALLOWED or THIRD_PARTY_BANNED, as ``path:line imports name``."""
    wrong: list[str] = []
    for layer, allowed in ALLOWED.items():
        for path in sorted((root / layer).rglob("*.py")):
            for line, name in imported_names(path.read_text()):
                top = name.split(".")[0]
                if (top in ALLOWED and top != layer and top not in allowed) or \
                        top in THIRD_PARTY_BANNED.get(layer, set()):
                    wrong.append(f"{path.relative_to(root)}:{line} imports {name}")
    return wrong


def test_no_layer_imports_upward() -> None:
    assert upward_imports(ROOT) == []


def test_the_check_catches_an_upward_import_even_inside_a_function(tmp_path: Path) -> None:
    for layer in ALLOWED:
        (tmp_path / layer).mkdir()
    (tmp_path / "companion" / "late.py").write_text(
        "def f():\n    from hardware.oled import draw\n    return draw\n")
    (tmp_path / "companion" / "by_name.py").write_text(
        "import importlib\nimportlib.import_module('kiosk.app')\n")
    (tmp_path / "hardware" / "up.py").write_text("import table.serve\n")
    (tmp_path / "kiosk" / "lib.py").write_text("from gpiozero import Button\n")
    (tmp_path / "table" / "ok.py").write_text("import hardware.oled, kiosk.app, companion.game\n")
    assert upward_imports(tmp_path) == [
        "companion/by_name.py:2 imports kiosk.app",
        "companion/late.py:2 imports hardware.oled",
        "hardware/up.py:1 imports table.serve",
        "kiosk/lib.py:1 imports gpiozero",
    ]


def test_the_kiosk_imports_only_the_protocol_of_companion() -> None:
    reaches = set()
    for path in (ROOT / "kiosk").rglob("*.py"):
        for _, name in imported_names(path.read_text()):
            if name.split(".")[0] == "companion" and name != "companion.protocol":
                reaches.add((str(path.relative_to(ROOT)), name))
    # The game's rosters and forms come over the socket (game_info): nothing of a game is read here.
    assert reaches == set()


def test_loading_all_of_companion_loads_no_other_layer_or_device_library() -> None:
    names = ["companion"] + [info.name for info in
                             pkgutil.walk_packages([str(ROOT / "companion")], prefix="companion.")]
    code = ("import importlib, json, sys\n"
            f"for m in {names!r}:\n"
            "    importlib.import_module(m)\n"
            "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert "companion" in loaded
    assert not loaded & {"kivy", "gpiozero", "luma", "serial", "hardware", "kiosk", "table"}


def test_no_game_is_named_in_hardware_or_the_engine_modules():
    """A game lives behind its declaration: hardware/ and companion/*.py read fields, never names."""
    import re

    words = re.compile(r"hooper|d20x5|d8foul|onfire|valley|shootout|d12shoot", re.IGNORECASE)
    root = Path(__file__).resolve().parents[1]
    paths = [*sorted((root / "hardware").rglob("*.py")), *sorted((root / "companion").glob("*.py"))]
    found = [f"{path.relative_to(root)}:{n}: {line.strip()}"
             for path in paths for n, line in enumerate(path.read_text().splitlines(), 1)
             if words.search(line)]
    assert found == []
