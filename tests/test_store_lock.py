"""One writer per game store, and a store swapped or deleted under a running table (issue 9, items 8, 10).

A real ``companion serve`` runs in a subprocess; a second serve, a restore, and CLI writes must be
refused with the first one's pid, while CLI reads still work. A store that holds a lock refuses to
acknowledge into a file that is no longer the one at its path.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import tally_game
from table_driver import script

from companion import backup
from companion.backup import backup_database, list_backups
from companion.errors import StoreError
from companion.service import TableService
from companion.store import Store
from companion.store_files import StoreBusyError, StoreLock
from table.cli import main as cli
from table.serve import backup_dir_for, open_store_recovering

ROOT = Path(__file__).resolve().parents[1]
FULL_GAME = ROOT / "tests" / "games" / "full_game_valley_hoopers.jsonl"


def start_serve(db: Path, socket: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "table.cli", "--db", str(db), "serve", "--no-hardware",
                             "--socket", str(socket)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for_line(process: subprocess.Popen[str], text: str, timeout: float = 60.0) -> str:
    """The first stdout line holding ``text``; fails if the process exits or the time runs out first."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if ready:
            line = process.stdout.readline()
            if not line:
                break
            if text in line:
                return line
    process.kill()
    _, err = process.communicate()
    raise AssertionError(f"serve never printed {text!r} (exit {process.returncode}): {err[-2000:]}")


@pytest.fixture
def running_serve(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    db = tmp_path / "g.db"
    process = start_serve(db, tmp_path / "a.sock")
    try:
        wait_for_line(process, "listening on")
        yield process, db
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)


def test_a_second_serve_on_the_same_database_exits_at_once_naming_the_first(running_serve, tmp_path) -> None:
    first, db = running_serve
    second = subprocess.run([sys.executable, "-m", "table.cli", "--db", str(db), "serve", "--no-hardware",
                             "--socket", str(tmp_path / "b.sock")], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert second.returncode == 2
    assert f"another companion serve is using {db} (pid {first.pid})" in second.stdout
    assert "UNIQUE" not in second.stdout + second.stderr and "Traceback" not in second.stderr
    assert not (tmp_path / "b.sock").exists()
    assert first.poll() is None  # the first one is untouched and still serving


def test_cli_reads_run_beside_serve_and_cli_writes_are_refused(running_serve, capsys, tmp_path) -> None:
    first, db = running_serve
    assert cli(["games", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []

    assert cli(["replay", str(FULL_GAME), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"another companion serve is using {db} (pid {first.pid})" in err and "UNIQUE" not in err
    assert cli(["delete", "1", "--db", str(db)]) == 2
    assert "another companion serve" in capsys.readouterr().err


def test_restore_refuses_while_serve_holds_the_store(running_serve, capsys) -> None:
    first, db = running_serve
    backup_database(db, backup_dir_for(db))
    before = db.stat().st_ino
    code = backup.main(["restore", "--db", str(db), "--dir", str(backup_dir_for(db))])
    assert code == backup.EXIT_BUSY
    assert f"another companion serve is using {db} (pid {first.pid})" in capsys.readouterr().err
    assert db.stat().st_ino == before and not list(db.parent.glob("g.db.damaged-*"))


def test_restore_runs_once_the_service_has_stopped(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    store = Store.open(db, lock="serve")
    store.create_game("tally", {"kind": "setup", "options": {}}, {})
    backup_database(db, backup_dir_for(db))
    with pytest.raises(StoreBusyError):
        Store.open(db, lock="replay")
    store.close()  # releases the lock
    assert backup.main(["restore", "--db", str(db), "--dir", str(backup_dir_for(db))]) == 0


def new_tally(db: Path, lock: str | None = "serve") -> TableService:
    service = TableService(Store.open(db, lock=lock), find_game=tally_game.find)
    assert service.execute({"op": "new_game", "game": "tally", "options": {}})["ok"]
    assert service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})["ok"]
    return service


def entry_count(db: Path) -> int:
    reader = Store.open(db, read_only=True)
    try:
        return sum(len(reader.entries(g.id)) for g in reader.games())
    finally:
        reader.close()


def test_a_store_replaced_under_the_service_refuses_to_acknowledge_into_the_old_file(tmp_path) -> None:
    db = tmp_path / "g.db"
    service = new_tally(db)
    backup_database(db, backup_dir_for(db))
    replacement = list_backups(db, backup_dir_for(db))[0]
    shutil.copyfile(replacement, tmp_path / "incoming.db")
    os.replace(tmp_path / "incoming.db", db)  # what a restore (or a careless cp + mv) does

    reply = service.execute({"op": "command", "command": {"type": "score", "side": 1, "points": 2}})
    assert reply["ok"] is False and reply["error_kind"] == "store"
    assert "was replaced by another file" in reply["error"] and "not recorded" in reply["error"]
    service.store.close()
    assert entry_count(db) == 2  # the new file holds what it held: setup and one point


def test_a_store_deleted_under_the_service_refuses_and_says_so(tmp_path) -> None:
    db = tmp_path / "g.db"
    service = new_tally(db)
    notices: list[str] = []
    service.subscribers.append(lambda m: notices.append(m.get("text", "")))
    db.unlink()
    reply = service.execute({"op": "command", "command": {"type": "score", "side": 1, "points": 2}})
    assert reply["ok"] is False and "was deleted while the table was using it" in reply["error"]
    assert any("was deleted" in text for text in notices)  # every screen is told, not only the sender
    service.store.close()


def test_a_deleted_store_with_backups_is_restored_from_the_newest_at_start(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    options, commands = script()
    service = TableService(Store.open(db, lock="serve"))
    service.execute({"op": "new_game", "game": "valley-hoopers", "options": options})
    for command in commands[:10]:
        service.execute({"op": "command", "command": command})
    backup_database(db, backup_dir_for(db))
    for command in commands[10:20]:
        service.execute({"op": "command", "command": command})
    newest = backup_database(db, backup_dir_for(db))
    saved = service.snapshot()
    service.store.close()
    for path in tmp_path.glob("g.db*"):
        if not path.name.endswith(".lock"):
            path.unlink()

    store, message = open_store_recovering(db)
    assert message is not None and "missing" in message and newest.name in message
    again = TableService(store)
    assert again.resume_latest() is not None
    assert again.snapshot()["view"] == saved["view"]
    store.close()


def test_a_new_table_with_no_store_and_no_backups_starts_empty_without_a_message(tmp_path: Path) -> None:
    store, message = open_store_recovering(tmp_path / "g.db")
    assert message is None and store.games() == []
    store.close()


def test_a_store_opened_for_reading_never_writes(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    new_tally(db).store.close()
    reader = Store.open(db, read_only=True)
    with pytest.raises(StoreError, match="reading only"):
        reader.append(1, 2, {"kind": "x"}, {}, "playing")
    reader.close()


def test_a_refused_open_gives_the_lock_back(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with sqlite3.connect(db) as other:
        other.execute("CREATE TABLE photos(id)")
    with pytest.raises(StoreError, match="belongs to another program"):
        Store.open(db, lock="serve")
    StoreLock.acquire(db, "serve").release()  # free again: a refusal never keeps the store locked
