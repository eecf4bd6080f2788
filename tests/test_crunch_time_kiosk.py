"""Crunch Time on the real kiosk by touch, against a real ``companion serve --sim``: from the setup
form to a scored possession, the zones tapped on the compact grid (3/2 points x open, defended,
defender only, empty), then the lead on the Table screen as a tug-of-war bar. Screenshots land in
``tests/artifacts/kiosk/crunch_time/`` for a person to look at."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from kiosk_support import ARTIFACTS, PYTHON, ROOT, kiosk_env, run_kiosk, start_service, stop


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    xvfb = shutil.which("Xvfb") or "/usr/bin/Xvfb"
    read, write = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", "1280x800x24",
                               "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        number = numbers.readline().strip()
    assert number, "Xvfb did not start"
    yield f":{number}"
    server.terminate()
    server.wait(10)


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_setup_to_a_scored_possession_by_touch(display: str, tmp_path: Path, size: str) -> None:
    env = kiosk_env(tmp_path, display)
    socket_path = tmp_path / "run" / "table.sock"
    service = start_service(socket_path, tmp_path / "table.db", env)
    try:
        argv = [PYTHON, str(ROOT / "tests" / "crunch_time_kiosk.py"), "--socket", str(socket_path),
                "--out", str(ARTIFACTS / "crunch_time" / size), "--size", size, "--sim"]
        report = run_kiosk(argv, env, timeout=120)
    finally:
        stop(service)
    assert report["ok"], report.get("error")
    assert report["first_prompt"].startswith("tip-off")
    # Every zone entry is one tap on the grid: 2 rows x 4 columns.
    assert sorted(report["grid_cells"]) == sorted(f"{p}-pt zone: {w}" for p in (3, 2)
                                                  for w in ("open", "defended", "defender only", "empty"))
    # 3 open + Red's Star on the 3-point zone; both zones hold a Red player: one Star draw.
    assert report["lead_after"] == {"side": 0, "value": 6}
    assert report["score_after"] == "Red leads by 6"
    assert report["prompt_after"].startswith("Blue has the ball")
    assert report["lead_bars"] == [0.3]  # the marker pulled 6 of 15 toward Red's end
    texts = report["table_texts"]
    assert "Red leads by 6" in texts and "Red +6" in texts and "R1" in texts
    for name, shot in report["shots"].items():
        assert shot["problems"] == [], f"{name}: {shot['problems']}"
        assert Path(shot["path"]).stat().st_size > 1000
