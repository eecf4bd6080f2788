"""`companion run` as a new player meets it, and Home's saved games, on a private Xvfb.

A window that Escape and the window manager's close button close; one line on the console; a
clear error with no display; a socket of its own in simulation; fullscreen drawn for the screen's
real size on a bare X server; Home after a finished game, its games abandoned or deleted by touch
only after a yes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import x11_input
from kiosk_support import (
    ARTIFACTS,
    PYTHON,
    ROOT,
    kiosk_env,
    play_until,
    request,
    run_kiosk,
    start_service,
    stop,
    table_test_options,
    write_test_cards,
)

from kiosk.client import service_answers

TITLE = "Courtside Companion"


@contextmanager
def xvfb(screen: str) -> Iterator[str]:
    """A private X server with one screen of ``screen`` (WxH), no window manager."""
    read, write = os.pipe()
    server = subprocess.Popen([shutil.which("Xvfb") or "/usr/bin/Xvfb", "-displayfd", str(write), "-screen",
                               "0", f"{screen}x24", "-nolisten", "tcp"], pass_fds=(write,),
                              stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        number = numbers.readline().strip()
    assert number, "Xvfb did not start"
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    with xvfb("1280x800") as name:
        yield name


@pytest.fixture()
def runtime() -> Iterator[Path]:
    """A short runtime folder for the sockets (a Unix socket path has at most 107 bytes)."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="kh-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def run_env(tmp_path: Path, display: str, runtime: Path) -> dict[str, str]:
    env = kiosk_env(tmp_path, display)
    for inherited in ("COMPANION_SOCKET", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "INVOCATION_ID",
                      "JOURNAL_STREAM", "KIVY_NO_CONSOLELOG", "KIVY_LOG_MODE"):
        env.pop(inherited, None)  # a clean start, as a new player's terminal has it
    env["HOME"] = str(tmp_path / "home")
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["XDG_RUNTIME_DIR"] = str(runtime)
    return env


@contextmanager
def running_kiosk(argv: list[str], env: dict[str, str],
                  display: str) -> Iterator[tuple[subprocess.Popen, int]]:
    """``companion run`` started for real; yields it and its X window once the window is up."""
    kiosk = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        window = None
        while window is None:
            assert kiosk.poll() is None, kiosk.communicate()
            if time.monotonic() > deadline:
                kiosk.kill()  # what it said is the only clue to why its window never came
                raise AssertionError(f"no kiosk window within 60 s; it printed {kiosk.communicate()}")
            window = x11_input.find_window(display, TITLE)
            time.sleep(0.1)
        yield kiosk, window
    finally:
        if kiosk.poll() is None:
            kiosk.kill()
            kiosk.communicate()


def wait_for_line(kiosk: subprocess.Popen, timeout: float = 60) -> str:
    """The first line the kiosk prints (once its window is up and the service answers)."""
    assert kiosk.stdout is not None
    line = kiosk.stdout.readline()
    assert line, f"the kiosk printed nothing: {kiosk.communicate(timeout=timeout)}"
    return line


def test_a_clean_start_prints_one_line_and_escape_closes_the_window_and_its_own_service(
        tmp_path: Path, display: str, runtime: Path) -> None:
    env = run_env(tmp_path, display, runtime)
    argv = [PYTHON, "-m", "table.cli", "--db", str(tmp_path / "own.db"), "run", "--sim"]
    with running_kiosk(argv, env, display) as (kiosk, window):
        line = wait_for_line(kiosk)
        # A socket of this run alone, not the shared default one.
        socket_path = Path(line.split(" started for this run on ")[1].split(" (logs in ")[0])
        assert socket_path.parent.parent == Path(env["XDG_RUNTIME_DIR"]) / "companion"
        assert socket_path.parent.name.startswith(f"run-{kiosk.pid}-")
        assert service_answers(socket_path)
        assert line == (f"{TITLE}: an 800x480 window on {display} (Escape or the close button quits); "
                        f"simulated table service started for this run on {socket_path} "
                        f"(logs in {tmp_path / 'state' / 'courtside-companion'})\n")
        x11_input.press_key(display, window, "Escape")
        out, err = kiosk.communicate(timeout=30)
    assert kiosk.returncode == 0
    assert out == "" and err == "", "nothing after the one line: no Kivy log, no MTDev traceback"
    assert not service_answers(socket_path) and not socket_path.parent.exists()
    logs = tmp_path / "state" / "courtside-companion"
    assert "MTDev" not in (logs / "kiosk.log").read_text(), "the unused touch providers are not reported"
    assert "[Window      ] Provider: sdl2" not in (logs / "kiosk.log").read_text()
    assert "Window: Provider: sdl2" in (logs / "kiosk.log").read_text(), "Kivy's log went to the file"
    assert "companion serve: listening on" in (logs / "serve-sim.log").read_text()


def test_the_window_managers_close_button_closes_the_kiosk(tmp_path: Path, display: str,
                                                           runtime: Path) -> None:
    env = run_env(tmp_path, display, runtime)
    argv = [PYTHON, "-m", "table.cli", "--db", str(tmp_path / "own.db"), "run", "--sim", "--size", "1024x600"]
    with running_kiosk(argv, env, display) as (kiosk, window):
        line = wait_for_line(kiosk)
        assert "a 1024x600 window" in line
        x11_input.ask_to_close(display, window)
        kiosk.communicate(timeout=30)
    assert kiosk.returncode == 0


def test_the_appliance_ignores_escape_and_the_close_button(tmp_path: Path, display: str) -> None:
    env = kiosk_env(tmp_path, display)
    socket_path = tmp_path / "run" / "table.sock"
    service = start_service(socket_path, tmp_path / "t.db", env)
    try:
        report = run_kiosk([PYTHON, str(ROOT / "tests" / "kiosk_home_driver.py"), "appliance_keys",
                            "--socket", str(socket_path), "--out", str(ARTIFACTS / "home")], env)
    finally:
        stop(service)
    assert report["ok"], report.get("error")
    assert report["escape_handled"] and report["close_refused"] and report["still_running"]


def test_with_no_display_run_says_so_at_once_and_starts_nothing(tmp_path: Path, runtime: Path) -> None:
    env = run_env(tmp_path, ":0", runtime)
    del env["DISPLAY"]  # over SSH
    started = time.monotonic()
    result = subprocess.run([PYTHON, "-m", "table.cli", "--db", str(tmp_path / "own.db"), "run", "--sim"],
                            env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("companion run: no display to open the kiosk on: DISPLAY and "
                                    "WAYLAND_DISPLAY are not set")
    assert time.monotonic() - started < 15, "an error at once, not after starting anything"
    assert not (tmp_path / "own.db").exists(), "no service was started"
    assert not (Path(env["XDG_RUNTIME_DIR"]) / "companion").exists()


def test_simulation_never_joins_the_service_on_the_shared_default_socket(
        tmp_path: Path, display: str, runtime: Path) -> None:
    env = run_env(tmp_path, display, runtime)
    shared = Path(env["XDG_RUNTIME_DIR"]) / "companion" / "table.sock"
    other = start_service(shared, tmp_path / "other.db", env)  # someone's `companion serve` already runs
    try:
        report = run_kiosk([PYTHON, "-m", "table.cli", "--db", str(tmp_path / "own.db"), "run", "--sim",
                            "--screenshot", str(ARTIFACTS / "home" / "own-socket.png"), "--screen",
                            "settings"], env)
        assert request(shared, {"op": "games"})["games"] == [], "the other table saw nothing"
        assert other.poll() is None, "and it still runs"
    finally:
        stop(other)
    settings = "\n".join(report["texts"])
    assert "Simulation: yes (this kiosk started the service)" in settings
    table_socket = next(t for t in settings.splitlines() if t.startswith("Table socket: "))
    assert str(shared) not in table_socket and "/companion/run-" in table_socket
    assert (tmp_path / "own.db").exists(), "its own service used its own store"


def test_fullscreen_on_a_bare_x_server_is_drawn_for_the_screens_real_size(tmp_path: Path,
                                                                          runtime: Path) -> None:
    from PIL import Image

    with xvfb("1024x600") as display:
        env = run_env(tmp_path, display, runtime)
        png = ARTIFACTS / "home" / "fullscreen-1024x600.png"
        report = run_kiosk([PYTHON, "-m", "table.cli", "--db", str(tmp_path / "own.db"), "run", "--sim",
                            "--fullscreen", "--screenshot", str(png)], env)
    assert report["size"] == [1024, 600] and report["layout_problems"] == []
    with Image.open(png) as image:
        assert image.size == (1024, 600)
        # Past x = 800 (the window SDL would have left on a screen with no window manager) the
        # simulated hardware panel is drawn, not black.
        strip = image.convert("RGB").crop((820, 100, 1020, 500))
        assert strip.getextrema() != ((0, 0), (0, 0), (0, 0))
        assert len(strip.getcolors(maxcolors=100000) or []) > 4


def _two_games(socket_path: Path) -> int:
    """Game 1 left unfinished, then game 2 played to its end (the last one played). Game 1's log size."""
    request(socket_path, {"op": "new_game", "game": "valley-hoopers", "options": table_test_options()})
    play_until(socket_path, lambda s: s["seq"] >= 6, seed=4)
    request(socket_path, {"op": "new_game", "game": "valley-hoopers",
                          "options": table_test_options() | {"variant": "fast"}})
    play_until(socket_path, lambda s: s["outcome"] is not None, seed=3)
    request(socket_path, {"op": "resume", "game_id": 1})
    seq = request(socket_path, {"op": "state"})["snapshot"]["seq"]
    request(socket_path, {"op": "resume", "game_id": 2})
    return int(seq)


def test_a_restart_after_a_finished_game_lands_on_home_listing_both_games(tmp_path: Path,
                                                                          display: str) -> None:
    env = kiosk_env(tmp_path, display)
    write_test_cards(env)
    socket_path = tmp_path / "run" / "table.sock"
    service = start_service(socket_path, tmp_path / "t.db", env)
    try:
        _two_games(socket_path)
    finally:
        stop(service)
    service = start_service(socket_path, tmp_path / "t.db", env)  # the table restarts
    try:
        assert request(socket_path, {"op": "state"})["snapshot"] is None
        report = run_kiosk([PYTHON, "-m", "table.cli", "run", "--sim", "--socket", str(socket_path),
                            "--screenshot", str(ARTIFACTS / "home" / "restart-home.png")], env)
    finally:
        stop(service)
    assert report["screen"] == "home" and report["layout_problems"] == []
    texts = report["texts"]
    assert "Unfinished games" in texts and "Finished and abandoned games" in texts
    assert any(t.startswith("Resume #1: Lucy ") for t in texts)
    finished = next(t for t in texts if t.startswith("Open #2: "))
    assert "\nfinished · last played 2" in finished and finished.endswith(" · Valley Hoopers: The Series")
    assert {"Abandon #1", "Delete #1", "Delete #2"} <= set(texts) and "Abandon #2" not in texts


def test_home_abandons_and_deletes_by_touch_only_after_a_yes(tmp_path: Path, display: str) -> None:
    env = kiosk_env(tmp_path, display)
    write_test_cards(env)
    socket_path = tmp_path / "run" / "table.sock"
    service = start_service(socket_path, tmp_path / "t.db", env)
    try:
        seq_of_game_1 = _two_games(socket_path)
        report = run_kiosk([PYTHON, str(ROOT / "tests" / "kiosk_home_driver.py"), "abandon_and_delete",
                            "--socket", str(socket_path), "--out", str(ARTIFACTS / "home")], env)
        games = request(socket_path, {"op": "games"})["games"]
        state = request(socket_path, {"op": "state"})["snapshot"]
        resumed = request(socket_path, {"op": "resume", "game_id": 1})["snapshot"]
    finally:
        stop(service)
    assert report["ok"], report.get("error")
    assert report["abandon_question"][0] == "Abandon game #1?"
    assert "with its whole log" in report["abandon_question"][1]
    assert report["abandon_question"][2:] == ["Keep it", "Abandon"]
    assert report["status_after_keep_it"] == "playing", "Keep it changes nothing"
    assert report["notice_after_abandon"] == "Game #1 abandoned; its log is kept."
    assert report["delete_question"][0] == "Delete game #2 for good?"
    assert "this cannot be undone" in report["delete_question"][1]
    assert report["delete_question"][2:] == ["Keep it", "Delete for good"]
    assert report["status_after_escape"] == "finished", "Escape on the question is Keep it"
    assert report["notice_after_delete"] == "Game #2 deleted."
    assert report["screen_after_delete"] == "home"
    assert not any(t.startswith("Open #2") for t in report["texts_after_delete"])
    # The service agrees: game 1 abandoned with its whole log, game 2 gone, nothing on the table.
    assert [(g["id"], g["status"]) for g in games] == [(1, "abandoned")]
    assert state is None
    assert resumed["seq"] == seq_of_game_1, "abandon lost nothing"
    for name, shot in report["shots"].items():
        assert shot["problems"] == [], f"{name}: {shot['problems']}"


def test_a_store_held_by_a_running_serve_is_named_with_how_to_join_it(tmp_path: Path, display: str,
                                                                      runtime: Path) -> None:
    env = run_env(tmp_path, display, runtime)
    shared = Path(env["XDG_RUNTIME_DIR"]) / "companion" / "table.sock"
    other = start_service(shared, tmp_path / "games.db", env)
    try:
        result = subprocess.run([PYTHON, "-m", "table.cli", "--db", str(tmp_path / "games.db"), "run",
                                 "--sim"], env=env, capture_output=True, text=True, timeout=90, cwd=ROOT)
    finally:
        stop(other)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("companion run: the table service stopped at start (exit code 2): "
                                    "another companion serve is using ")
    join = f"to play on that table instead: companion run --sim --socket {shared}"
    assert result.stderr.rstrip().endswith(join)
    assert not [p for p in shared.parent.iterdir() if p.name.startswith("run-")], "its run folder is gone"
