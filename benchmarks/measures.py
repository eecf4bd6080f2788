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

from companion.session import Session, parse_command
from companion.store import Store
from companion.timeline import Timeline

ROOT = Path(__file__).resolve().parents[1]
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

    @property
    def ratio(self) -> float:
        return self.value / self.baseline

    @property
    def holds(self) -> bool | None:
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


def oled(rounds: int) -> list[Figure]:
    """Bytes and CPU per frame on a real game's score changes: the partial driver against luma's own
    ``display()`` of a full frame, both into luma's i2c interface over the RAM model."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    from benchmarks.oled import wire
    from companion.games import find_game
    from hardware.oled_layout import render
    from hardware.oled_partial import PagedUpdater
    from hardware.oled_ram_model import ControllerModel

    lines = _full_game_lines()
    game = find_game("valley-hoopers")
    timeline = Timeline(game)
    timeline.commit(*timeline.plan_setup({k: v for k, v in lines[0].items() if k != "type"}))
    frames = [render(game.scoreboard(timeline.state))]
    scores = [game.scoreboard(timeline.state).to_json()["sides"]]
    for line in lines[1:]:
        timeline.commit(*timeline.plan_command(parse_command(json.dumps(line))))
        board = game.scoreboard(timeline.state)
        frames.append(render(board))
        scores.append(board.to_json()["sides"])
    score_changes = [n for n in range(1, len(frames))
                     if [s["score"] for s in scores[n]] != [s["score"] for s in scores[n - 1]]]

    def wire_bytes(model: ControllerModel) -> int:
        return wire(model)[1]  # as smbus2 sends them on the Pi, address and control bytes included

    part_model, full_model = ControllerModel("ssd1306"), ControllerModel("ssd1306")
    updater = PagedUpdater(ssd1306(i2c(bus=part_model, address=0x3C)))
    full = ssd1306(i2c(bus=full_model, address=0x3C))
    part_bytes, full_bytes = [], []
    for n in range(len(frames)):
        part_model.reset_counts()
        full_model.reset_counts()
        updater.display(frames[n])
        full.display(frames[n])
        if n in score_changes:
            part_bytes.append(wire_bytes(part_model))
            full_bytes.append(wire_bytes(full_model))

    def partial_round() -> float:
        updater.invalidate()
        updater.display(frames[0])
        return statistics.median(_seconds(lambda f=f: updater.display(f)) for f in frames[1:])

    def luma_round() -> float:
        return statistics.median(_seconds(lambda f=f: full.display(f)) for f in frames[1:])

    cpu, luma_cpu = interleaved(partial_round, luma_round, rounds)
    return [Figure(f"OLED bytes per score change ({len(score_changes)} in the full game, median)",
                   statistics.median(part_bytes), statistics.median(full_bytes), "B",
                   "luma full frame", 0.15,
                   "the message line changes with the score in this game's views"),
            Figure("OLED CPU per frame (PagedUpdater.display, median)", cpu * 1000, luma_cpu * 1000, "ms",
                   "luma display()", 0.5)]


def startup(rounds: int) -> list[Figure]:
    """Wall time of ``companion --help`` and ``companion calc vh attack --stat 50`` against
    ``python -c pass`` (bytecode cached: each is run once before timing)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "table.cli"]
    runs = {"help": cli + ["--help"], "calc": cli + ["calc", "vh", "attack", "--stat", "50"],
            "bare": [sys.executable, "-c", "pass"]}

    def run(argv: list[str]) -> float:
        return _seconds(lambda: subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL))

    for argv in runs.values():
        run(argv)
    figures = []
    for name, goal in (("help", 1.5), ("calc", 2.5)):
        value, bare = interleaved(lambda n=name: run(runs[n]), lambda: run(runs["bare"]), rounds)
        shown = "companion --help" if name == "help" else "companion calc vh attack --stat 50"
        figures.append(Figure(shown, value * 1000, bare * 1000, "ms", "python -c pass", goal,
                              "run as python -m table.cli (the console script adds its own import)"))
    return figures
