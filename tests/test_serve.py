"""companion serve: start-up refusals, recovery of a damaged store, backups after every period."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from table_driver import script

from companion.backup import backup_database
from companion.service import TableService
from companion.store import Store
from table.serve import PeriodBackups, backup_dir_for, open_store_recovering

ROOT = Path(__file__).resolve().parents[1]


def serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table.cli", "--db", str(tmp_path / "g.db"), "serve",
                           "--socket", str(tmp_path / "t.sock"), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_without_sim_and_without_pi_libraries_it_says_what_is_missing_and_exits_non_zero(tmp_path) -> None:
    result = serve(tmp_path)
    assert result.returncode == 3
    assert "no GPIO pin library works here" in result.stdout and "--sim" in result.stdout


def test_a_bad_config_is_refused_naming_the_file_and_key(tmp_path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[buttons.pins]\nHOME = 5\nAWAY = 5\n")
    result = serve(tmp_path, "--sim", "--config", str(config))
    assert result.returncode == 2
    assert str(config) in result.stdout and "AWAY" in result.stdout


def test_a_damaged_store_is_moved_aside_and_the_last_backup_restored(tmp_path) -> None:
    db = tmp_path / "g.db"
    options, commands = script()
    service = TableService(Store.open(db))
    service.execute({"op": "new_game", "game": "valley-hoopers", "options": options})
    for command in commands[:20]:
        service.execute({"op": "command", "command": command})
    backup_database(db, backup_dir_for(db))
    saved = service.snapshot()
    service.store.close()
    with open(db, "r+b") as raw:  # scribble over the middle of the file
        raw.seek(4096)
        raw.write(b"\xde\xad\xbe\xef" * 1024)
    store, message = open_store_recovering(db)
    assert message is not None and "moved aside" in message and "restored" in message
    assert list(tmp_path.glob("g.db.damaged-*"))
    again = TableService(store)
    assert again.resume_latest() is not None
    assert again.snapshot()["view"] == saved["view"]
    store.close()


def test_with_no_intact_backup_the_damaged_store_is_kept_aside_and_a_new_one_starts(tmp_path) -> None:
    db = tmp_path / "g.db"
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 8000)  # a header, then garbage
    store, message = open_store_recovering(db)
    assert message is not None and "no intact backup" in message and "new, empty store" in message
    kept = list(tmp_path.glob("g.db.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"SQLite format 3")
    assert store.games() == []
    store.close()


def test_a_file_of_another_program_stops_serve_with_a_clear_message(tmp_path) -> None:
    with sqlite3.connect(tmp_path / "g.db") as other:
        other.execute("CREATE TABLE photos(id)")
    result = serve(tmp_path, "--sim")
    assert result.returncode == 2 and "belongs to another program" in result.stdout


def test_a_backup_is_made_when_a_period_ends_and_when_the_game_ends(tmp_path) -> None:
    db = tmp_path / "g.db"
    options, commands = script()
    service = TableService(Store.open(db))
    backups = PeriodBackups(db)
    service.subscribers.append(backups)
    service.execute({"op": "new_game", "game": "valley-hoopers", "options": options})
    for command in commands:
        service.execute({"op": "command", "command": command})
    assert service.snapshot()["outcome"] is not None
    assert backups.wait()
    # Four periods, one overtime and the final whistle: a backup at each change.
    assert len(backups.made) >= 5
    with sqlite3.connect(backups.made[-1]) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("SELECT status FROM games").fetchone()[0] == "finished"
    service.store.close()
