"""The kiosk's start builds only what its first frame shows (issue 15: first frame <= 1.3x a one-Label
Kivy app, measured by ``python -m benchmarks --only kiosk``); the other screens come on first use. The
service's first answers are asked for while Kivy loads, so with a service up the very first frame
shows the table; with none yet, the kiosk waits on an empty screen and opens where the table is
when it answers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import x11_input
from kiosk_support import (
    ARTIFACTS,
    PYTHON,
    ROOT,
    kiosk_env,
    request,
    run_kiosk,
    served_table,
    start_service,
    stop,
    table_test_options,
)


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


@pytest.fixture()
def table(tmp_path: Path, display: str) -> Iterator[dict]:
    with served_table(tmp_path, display, cards=True) as info:  # a roster: the card editor has a card
        yield info


def shot(table: dict, name: str, *screen: str) -> dict:
    png = ARTIFACTS / "first-frame" / f"{name}.png"
    asked = ("--screen", *screen) if screen else ()
    return run_kiosk([PYTHON, "-m", "table.cli", "run", "--socket", str(table["socket"]), "--screenshot",
                      str(png), "--size", "800x480", *asked], table["env"])


def test_a_game_on_the_table_opens_on_its_screen_and_builds_no_other_before_it(table: dict) -> None:
    assert request(table["socket"], {"op": "new_game", "game": "valley-hoopers",
                                     "options": table_test_options()})["ok"]
    report = shot(table, "game-on")
    assert report["screen"] == "resolve"
    assert (report["screen_at_first_frame"], report["screens_at_first_frame"]) == ("resolve", ["resolve"])
    assert report["layout_problems"] == []
    assert any(text.startswith("Lucy") for text in report["texts"]), "the table's state is on the screen"


def test_no_game_opens_on_home_alone_and_any_screen_is_built_when_asked_for(table: dict) -> None:
    report = shot(table, "no-game")
    assert (report["screen"], report["screens_at_first_frame"]) == ("home", ["home"])
    assert report["screen_at_first_frame"] == "home"
    for name in ("settings", "setup"):
        asked = shot(table, f"asked-{name}", name)
        assert asked["screen"] == name
        assert asked["layout_problems"] == []


def test_a_kiosk_up_before_the_service_waits_then_opens_on_home(tmp_path: Path, display: str) -> None:
    env = kiosk_env(tmp_path, display)
    # Longer than this test waits for the window (100 s): on a loaded machine the window came up after
    # the kiosk's usual 30 s and it gave up before the service was started.
    env["COURTSIDE_SCREENSHOT_WAIT_S"] = "120"
    socket_path = tmp_path / "run" / "table.sock"
    png = ARTIFACTS / "first-frame" / "service-later.png"
    kiosk = subprocess.Popen([PYTHON, "-m", "table.cli", "run", "--socket", str(socket_path), "--screenshot",
                              str(png), "--size", "800x480"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
    service = None
    try:
        # Usually 2-5 s; once, in a whole-suite run on a slow machine, not within 60 s.
        deadline = time.monotonic() + 100
        while x11_input.find_window(display, "Courtside Companion") is None:  # its first questions failed
            assert kiosk.poll() is None and time.monotonic() < deadline, kiosk.communicate()[1][-3000:]
            time.sleep(0.05)
        service = start_service(socket_path, tmp_path / "table.db", env)
        out, err = kiosk.communicate(timeout=90)
    finally:
        if kiosk.poll() is None:
            kiosk.kill()
            kiosk.communicate()
        if service is not None:
            stop(service)
    assert kiosk.returncode == 0, err[-3000:]
    report = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    assert (report["screen"], report["screen_at_first_frame"]) == ("home", "home")
    assert report["screens_at_first_frame"] == ["home"]  # the waiting screen is gone with it
    assert report["layout_problems"] == []
