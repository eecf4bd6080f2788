"""Pulling the plug mid-write: what the disk holds must open, be consistent and keep every acknowledged entry.

The image of the disk is taken while a writer keeps committing, at random moments: the WAL first,
then the main file. A frame caught half-written fails SQLite's WAL checksum and is ignored, exactly
as after a power cut; committed frames were fsynced before ``append`` returned (synchronous=FULL).
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import threading
from pathlib import Path

import tally_game

from companion.session import Session
from companion.store import Store
from companion.timeline import Timeline


def disk_image(db: Path, into: Path) -> Path:
    into.mkdir(parents=True)
    # WAL before the main file: a checkpoint in between only moves frames we already hold.
    for suffix in ("-wal", ""):
        source = Path(f"{db}{suffix}")
        if source.exists():
            shutil.copyfile(source, into / f"{db.name}{suffix}")
    return into / db.name


def test_power_cut_at_random_points_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    store = Store.open(db)
    session = Session.new(store, tally_game.GAME, {})
    acknowledged = [1]  # entries durable so far (the setup entry)
    stop = threading.Event()

    failures: list[BaseException] = []

    def play() -> None:
        n = 0
        try:
            while not stop.is_set():
                # score / score / undo: the log keeps growing while the game never reaches 21
                session.handle({"type": "undo"} if n % 3 == 2 else
                               {"type": "score", "side": n % 2, "points": 1})
                if n % 3 == 2 and sum(session.state.score) >= 18:
                    session.handle({"type": "undo"})
                acknowledged[0] = session.seq + 1
                n += 1
        except BaseException as exc:
            failures.append(exc)

    writer = threading.Thread(target=play)
    writer.start()
    rng = random.Random(1234)
    images = []
    try:
        for i in range(30):
            stop.wait(rng.uniform(0.001, 0.02))
            floor = acknowledged[0]  # everything acknowledged before the cut must survive it
            images.append((disk_image(db, tmp_path / f"cut{i}"), floor))
    finally:
        stop.set()
        writer.join()
    store.close()
    assert not failures
    assert acknowledged[0] > 50
    for image, floor in images:
        with sqlite3.connect(image) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        recovered = Store.open(image)
        entries = recovered.entries(session.game_id)
        assert len(entries) >= floor, f"{image}: {len(entries)} entries, {floor} were acknowledged"
        # What survived is a prefix of what was played, and replays to a valid state.
        timeline = Timeline.replay(tally_game.GAME, entries)
        assert sum(timeline.state.score) == sum(
            e["events"][0]["points"] for e in timeline.history())
        recovered.close()
