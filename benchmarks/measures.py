"""The measures of issue 15's table, each against its bare-library baseline timed in the same run.

Every measure returns ``Figure``s: one number for the thing, one for its baseline, each the median
of ``rounds`` rounds in which the two are timed alternately (so a busy moment of the machine lands
on both). ``python -m benchmarks`` runs them all and writes docs/performance.md.
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.session import Session, parse_command
from companion.store import Store
from companion.timeline import Timeline

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))  # latency.py and idle.py are scripts too
FULL_GAME = ROOT / "tests" / "games" / "full_game_valley_hoopers.jsonl"


@dataclass(frozen=True)
class Figure:
    """One row: ``value`` against ``baseline`` (same unit); ``goal`` is the highest ratio wanted."""

    measure: str
    value: float
    baseline: float
    unit: str
    baseline_name: str
    goal: float | None
    note: str = ""
    limit: float | None = None  # a goal in the figure's own unit instead of a ratio (p99 <= 5 ms)
    show_ratio: bool = True  # False where the baseline only says what the floor is (a 0.003 ms callback)

    @property
    def ratio(self) -> float:
        if self.baseline == 0:
            return 0.0 if self.value == 0 else float("inf")
        return self.value / self.baseline

    @property
    def holds(self) -> bool | None:
        if self.limit is not None:
            return self.value <= self.limit
        return None if self.goal is None else self.ratio <= self.goal


def _seconds(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def interleaved(thing: Callable[[], float], baseline: Callable[[], float],
                rounds: int) -> tuple[float, float]:
    """Median of each over ``rounds`` alternating rounds (each callable returns one round's figure)."""
    things, bases = [], []
    for _ in range(rounds):
        things.append(thing())
        bases.append(baseline())
    return statistics.median(things), statistics.median(bases)


def _full_game_lines() -> list[dict]:
    return [json.loads(line) for line in FULL_GAME.read_text().splitlines() if line.strip()]


def _play_full_game(store: Store) -> Session:
    lines = _full_game_lines()
    session = Session.new(store, "valley-hoopers", {k: v for k, v in lines[0].items() if k != "type"})
    for line in lines[1:]:
        session.handle(parse_command(json.dumps(line)))
    return session


def restore(base: Path, rounds: int) -> list[Figure]:
    """Restore a 10,000-entry Valley Hoopers log (the full game, then undo/redo walks) against reading
    its rows and JSON-decoding them; and the full replay the restore did before snapshots."""
    store = Store.open(base / "restore.db")
    store._db.execute("PRAGMA synchronous=OFF")  # building the log is not what is measured
    session = _play_full_game(store)
    walked = 0
    while session.seq < 9_999:
        session.handle({"type": "undo"} if (walked // 20) % 2 == 0 else {"type": "redo"})
        walked += 1
    game_id = session.game_id
    store._db.execute("PRAGMA synchronous=FULL")

    def bare() -> float:
        def read() -> None:
            db = sqlite3.connect(store.path)
            rows = db.execute("SELECT entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
            [json.loads(row[0]) for row in rows]
            db.close()
        return _seconds(read)

    resumed, baseline = interleaved(lambda: _seconds(lambda: Session.resume(store, game_id)), bare, rounds)
    replayed, baseline2 = interleaved(
        lambda: _seconds(lambda: Timeline.replay(session.game, store.entries(game_id))), bare, rounds)
    store.close()
    return [Figure("restore a 10,000-entry Valley Hoopers log", resumed * 1000, baseline * 1000, "ms",
                   "read the rows + JSON-decode", 1.0),
            Figure("the same by full replay (the restore before snapshots)", replayed * 1000,
                   baseline2 * 1000, "ms", "read the rows + JSON-decode", None)]


# One full game per registered game (the scripts the game tests play), for the command row.
GAME_SCRIPTS = (("valley-hoopers", "full_game_valley_hoopers.jsonl"),
                ("nba-showdown", "full_game_nba_showdown.jsonl"),
                ("crunch-time", "full_game_crunch_time.jsonl"),
                ("hoop-godz", "full_game_hoop_godz.jsonl"),
                ("basketboss", "basketboss_5_managers.jsonl"))


def command(base: Path, rounds: int, games: tuple[tuple[str, str], ...] = GAME_SCRIPTS) -> list[Figure]:
    """One accepted command (``session.handle``) of each game's full-game script against one bare
    INSERT+COMMIT of a command-sized entry into a WAL database with synchronous=FULL on the same disk.

    Each round plays every game into a new store, and after each command commits one bare entry into
    a new bare database: the two alternate command by command, so a disk that syncs slower for a
    while (other work shares it) slows both alike. A round's figure is the median over the game's
    commands; the row is the median of ``rounds`` rounds."""
    scripts = []
    for name, script in games:
        lines = [json.loads(line) for line in (ROOT / "tests" / "games" / script).read_text().splitlines()
                 if line.strip()]
        scripts.append((name, {k: v for k, v in lines[0].items() if k != "type"},
                        [parse_command(json.dumps(line)) for line in lines[1:]]))
    handled: dict[str, list[float]] = {name: [] for name, _, _ in scripts}
    bare: dict[str, list[float]] = {name: [] for name, _, _ in scripts}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in scripts}
    bare_cpu: dict[str, list[float]] = {name: [] for name, _, _ in scripts}
    for round_number in range(rounds):
        for name, options, commands in scripts:
            entry = json.dumps({"kind": "command", "command": commands[0], "events": [{"type": "x"}] * 3})
            bare_db = sqlite3.connect(base / f"bare-{name}-{round_number}.db", isolation_level=None)
            bare_db.execute("PRAGMA journal_mode=WAL")
            bare_db.execute("PRAGMA synchronous=FULL")
            bare_db.execute("CREATE TABLE log(seq INTEGER PRIMARY KEY, entry TEXT NOT NULL)")
            store = Store.open(base / f"command-{name}-{round_number}.db")
            session = Session.new(store, name, options)

            def one(seq: int, db: sqlite3.Connection = bare_db, entry: str = entry) -> None:
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO log(seq, entry) VALUES (?, ?)", (seq, entry))
                db.execute("COMMIT")

            times, bare_times, cpu_times, bare_cpu_times = [], [], [], []
            for seq, command_json in enumerate(commands):
                started = time.thread_time()
                times.append(_seconds(lambda c=command_json, s=session: s.handle(c)))
                cpu_times.append(time.thread_time() - started)
                started = time.thread_time()
                bare_times.append(_seconds(lambda n=seq: one(n)))
                bare_cpu_times.append(time.thread_time() - started)
            store.close()
            bare_db.close()
            handled[name].append(statistics.median(times))
            bare[name].append(statistics.median(bare_times))
            cpu[name].append(statistics.median(cpu_times))
            bare_cpu[name].append(statistics.median(bare_cpu_times))
    # The CPU time says what the companion itself costs, whatever the disk was doing meanwhile: the
    # ratio swings with how long the disk takes to sync (a slow sync hides the CPU time, a fast one
    # shows it).
    return [Figure(f"one accepted command: {name} (session.handle, median)",
                   statistics.median(handled[name]) * 1000, statistics.median(bare[name]) * 1000, "ms",
                   "INSERT+COMMIT, WAL, synchronous=FULL", 2.5,
                   f"{statistics.median(cpu[name]) * 1000:.2f} ms of it on the CPU, the bare commit "
                   f"{statistics.median(bare_cpu[name]) * 1000:.2f} ms (thread time, the kernel's part of "
                   "the fsync included): the ratio swings with the disk's sync time, the CPU time does not")
            for name, _, _ in scripts]


def game_frames() -> tuple[list[Any], list[int]]:
    """The frames of the Valley Hoopers full game's own scoreboard views (the game's message on the
    bottom line), one after each command, and the indexes of those where a score changed."""
    from companion.games import find_game
    from hardware.oled_layout import render

    lines = _full_game_lines()
    game = find_game("valley-hoopers")
    timeline = Timeline(game)
    timeline.commit(*timeline.plan_setup({k: v for k, v in lines[0].items() if k != "type"}))
    boards = [game.scoreboard(timeline.state)]
    for line in lines[1:]:
        timeline.commit(*timeline.plan_command(parse_command(json.dumps(line))))
        boards.append(game.scoreboard(timeline.state))
    scores = [[side.score for side in board.sides] for board in boards]
    changes = [n for n in range(1, len(boards)) if scores[n] != scores[n - 1]]
    return [render(board) for board in boards], changes


def table_frames() -> tuple[list[Any], list[int]]:
    """The frames the table's OLED shows after each command of the same game (``companion serve``
    puts the dial's text on the bottom line: what CONFIRM enters), and the score changes among them."""
    import tempfile

    from companion.controls import TableControls
    from hardware.oled_layout import render
    from table.serve import table_view

    lines = _full_game_lines()
    frames, scores = [], []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "oled.db")
        session = Session.new(store, "valley-hoopers", {k: v for k, v in lines[0].items() if k != "type"})
        controls = TableControls(submit=lambda command: {}, notify=lambda text: None)

        def frame(snapshot: dict) -> None:
            controls.update(snapshot)
            board = session.game.scoreboard(session.state)
            frames.append(render(table_view(board, None, controls)))
            scores.append([side.score for side in board.sides])

        frame(session.snapshot())
        for line in lines[1:]:
            frame(session.handle(parse_command(json.dumps(line))))
        store.close()
    return frames, [n for n in range(1, len(frames)) if scores[n] != scores[n - 1]]


def _score_change_bytes(frames: list[Any], score_changes: list[int]) -> tuple[float, float]:
    """Median bytes on the wire per score change: the partial driver, and luma's full frame."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    from benchmarks.oled import wire
    from hardware.oled_partial import PagedUpdater
    from hardware.oled_ram_model import ControllerModel

    part_model, full_model = ControllerModel("ssd1306"), ControllerModel("ssd1306")
    updater = PagedUpdater(ssd1306(i2c(bus=part_model, address=0x3C)))
    full = ssd1306(i2c(bus=full_model, address=0x3C))
    part_bytes, full_bytes = [], []
    for n, frame in enumerate(frames):
        part_model.reset_counts()
        full_model.reset_counts()
        updater.display(frame)
        full.display(frame)
        if n in score_changes:  # as smbus2 sends them on the Pi, address and control bytes included
            part_bytes.append(wire(part_model)[1])
            full_bytes.append(wire(full_model)[1])
    return statistics.median(part_bytes), statistics.median(full_bytes)


def oled(rounds: int) -> list[Figure]:
    """Bytes and CPU per frame on a real game's score changes: the partial driver against luma's own
    ``display()`` of a full frame, both into luma's i2c interface over the RAM model. Bytes for the
    game's own scoreboard views (the row of issue 15) and for the frames the table shows."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    from hardware.oled_partial import PagedUpdater
    from hardware.oled_ram_model import ControllerModel

    frames, score_changes = game_frames()
    part, whole = _score_change_bytes(frames, score_changes)
    table_part, table_whole = _score_change_bytes(*table_frames())
    updater = PagedUpdater(ssd1306(i2c(bus=ControllerModel("ssd1306"), address=0x3C)))
    full = ssd1306(i2c(bus=ControllerModel("ssd1306"), address=0x3C))

    def partial_round() -> float:
        updater.invalidate()
        updater.display(frames[0])
        return statistics.median(_seconds(lambda f=f: updater.display(f)) for f in frames[1:])

    def luma_round() -> float:
        return statistics.median(_seconds(lambda f=f: full.display(f)) for f in frames[1:])

    cpu, luma_cpu = interleaved(partial_round, luma_round, rounds)
    return [Figure(f"OLED bytes per score change ({len(score_changes)} in the full game, median)",
                   part, whole, "B", "luma full frame", 0.15,
                   "the game's own scoreboard views; of the bytes, the bottom line (what just happened, "
                   "new with every score: one page, from the first character that differs) is about half, "
                   "the digits and the arrow the rest"),
            Figure("OLED bytes per score change as companion serve shows it (dial text), median",
                   table_part, table_whole, "B", "luma full frame", None,
                   "the bottom line says what CONFIRM enters, a new choice after every command; the "
                   "issue's 454 B is this row before the change"),
            Figure("OLED CPU per frame (PagedUpdater.display, median)", cpu * 1000, luma_cpu * 1000, "ms",
                   "luma display()", 0.5)]


def startup(rounds: int) -> list[Figure]:
    """Wall time of ``companion --help`` and ``companion calc vh attack --stat 50`` against
    ``python -c pass`` (bytecode cached: each is run once before timing)."""
    # Bytecode cached, as on an installed table: a PYTHONDONTWRITEBYTECODE inherited from the shell
    # would have every run compile the companion's modules again (the first run writes them).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "table.cli"]
    runs = {"help": cli + ["--help"], "calc": cli + ["calc", "vh", "attack", "--stat", "50"],
            "bare": [sys.executable, "-c", "pass"]}

    def run(argv: list[str]) -> float:
        return _seconds(lambda: subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL))

    for argv in runs.values():
        run(argv)
    figures = []
    for name, goal in (("help", 1.5), ("calc", 2.5)):
        # A run is tens of ms: five pairs a round, so one busy moment of the machine moves no median.
        value, bare = interleaved(lambda n=name: run(runs[n]), lambda: run(runs["bare"]), rounds * 5)
        shown = "companion --help" if name == "help" else "companion calc vh attack --stat 50"
        figures.append(Figure(shown, value * 1000, bare * 1000, "ms", "python -c pass", goal,
                              "run as python -m table.cli (the console script adds its own import), five "
                              "pairs of runs a round; "
                              "bytecode cached (earlier runs inherited PYTHONDONTWRITEBYTECODE and compiled "
                              "every module every time)"))
    return figures


def latency(rounds: int, presses: int = 200) -> list[Figure]:
    """Button press -> OLED frame on simulated hardware (``benchmarks/latency.py``), p99 of ``presses``
    CONFIRM presses per round, against gpiozero's MockFactory edge callback; and the same path with
    the time in ``Session.handle`` up to the frame (the rules and the renders) taken out."""
    import latency as press  # benchmarks/latency.py, which puts tests/ on the path for its driver

    def p99(values: list[float]) -> float:
        return press.percentile([v * 1000 for v in values], 99)

    runs: list[dict[str, list[float]]] = []

    def table_round() -> float:
        runs.append(press.press_latencies(presses))
        return p99(runs[-1]["frame"])

    frame, callback = interleaved(table_round, lambda: p99(press.callback_latencies(presses)), rounds)
    without = statistics.median(p99(run["frame_without_handle"]) for run in runs)
    handle = statistics.median(p99(run["handle"]) for run in runs)
    choice = statistics.median(p99(run["choice_frame"]) for run in runs)

    def p50(key: str) -> float:
        return statistics.median(press.percentile([v * 1000 for v in run[key]], 50) for run in runs)

    return [Figure("button press -> OLED frame, p99", frame, callback, "ms", "MockFactory callback p99",
                   None, f"p50 {p50('frame'):.2f} ms; {presses} CONFIRM presses a round; the first frame "
                   "after the press: its result and the next choice's words, drawn once rendered, before its "
                   "entry is written; the goal is p99 <= 5 ms", limit=5.0),
            Figure("the same without Session.handle (debounce, controls, queue, OLED), p99", without,
                   callback, "ms", "MockFactory callback p99", None,
                   f"Session.handle up to the frame (the rules, the scoreboard, the prompt, the view): p99 "
                   f"{handle:.2f} ms", show_ratio=False),
            Figure("button press -> the frame with the next choice's words, p99", choice, callback, "ms",
                   "MockFactory callback p99", None,
                   f"p50 {p50('choice_frame'):.2f} ms; the first frame whose bottom line says what "
                   "CONFIRM enters next: the early frame itself since the ninth round (before it, the "
                   "snapshot's frame after the commit)", show_ratio=False)]


def idle(rounds: int, seconds: float = 10.0) -> list[Figure]:
    """Wake-ups per second of an idle ``serve --sim`` with a game on (``benchmarks/idle.py``), against a
    Python process asleep in ``time.sleep``, counted the same way."""
    import idle as idle_serve  # benchmarks/idle.py

    def bare() -> float:
        process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        try:
            time.sleep(0.5)
            before = sum(idle_serve.context_switches(process.pid).values())
            time.sleep(seconds)
            return (sum(idle_serve.context_switches(process.pid).values()) - before) / seconds
        finally:
            process.kill()
            process.wait()

    rate, baseline = interleaved(lambda: idle_serve.idle_wakeups(seconds)[0], bare, rounds)
    return [Figure(f"idle serve --sim, wake-ups per second (all threads, {seconds:g} s)", rate, baseline,
                   "/s", "python asleep in time.sleep", None,
                   "context switches from /proc/<pid>/task/*/status; the goal is none", limit=0.0)]


def kiosk(rounds: int) -> list[Figure]:
    """Process start to the kiosk's first frame showing the table's state (joining a running simulated
    service with a game on) against a one-Label Kivy app, under a private Xvfb."""
    from benchmarks import first_frame

    # A start is a few hundred ms that the machine's other work moves by a third either way: three
    # pairs a round (as the start-up rows take five), so one slow start moves no median.
    shown, bare, screen = first_frame.measure(rounds * 3)
    return [Figure("kiosk first frame (companion run joining a service, process start to first flip)",
                   shown * 1000, bare * 1000, "ms", "one-Label Kivy app", 1.3,
                   f"800x480 under Xvfb (Mesa's software GL), a Valley Hoopers game on the table: the "
                   f"kiosk opens on {screen}; the time from before the process starts to the first "
                   "window flip after the state, the saved games and the known games were shown: the first "
                   "frame it draws, as it asked the service for them while Kivy loaded; three pairs of "
                   "starts a round. Both sides are "
                   "mostly Kivy's start, run on a shared machine: the ratio moves with the load")]
