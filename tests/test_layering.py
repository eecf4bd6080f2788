"""The layout's promises: companion/ is pure Python, kiosk/ holds no rules and no hardware."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules_of(package: str) -> list[str]:
    names = [package]
    for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
        names.append(info.name)
    return names


def imported_after(modules: list[str]) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def test_companion_imports_no_kivy_gpiozero_luma_or_serial() -> None:
    loaded = imported_after(modules_of("companion"))
    assert "companion" in loaded
    assert not loaded & {"kivy", "gpiozero", "luma", "serial", "hardware", "kiosk"}


def test_kiosk_source_reaches_no_hardware_library_and_no_rules() -> None:
    for path in (ROOT / "kiosk").rglob("*.py"):
        text = path.read_text()
        for forbidden in ("import gpiozero", "from gpiozero", "import luma", "from luma", "import serial",
                          "from serial", "companion.games"):
            assert forbidden not in text, f"{path.relative_to(ROOT)} uses {forbidden}"
