"""The store's files on disk: a read-only card is not a damaged store, and nobody else reads the games.

Issue 9, item 7 (start on a read-only file system after a clean stop) and item 15 (the database, its
``-wal``/``-shm``, the lock and the backups are private whatever the umask).
"""

from __future__ import annotations

import doctest
import hashlib
import importlib
import os
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import tally_game

from companion import backup
from companion.backup import backup_database, list_backups
from companion.service import TableService
from companion.store import Store
from table.serve import EXIT_READ_ONLY, backup_dir_for, open_store_recovering

ROOT = Path(__file__).resolve().parents[1]


def cleanly_stopped_store(db: Path) -> None:
    """A store as a clean stop of serve leaves it: WAL mode, no -wal/-shm, the lock file beside it."""
    store, _ = open_store_recovering(db)
    service = TableService(store, find_game=tally_game.find)
    assert service.execute({"op": "new_game", "game": "tally", "options": {}})["ok"]
    assert service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})["ok"]
    store.close()
    assert not db.with_name("g.db-wal").exists() and db.with_name("g.db.lock").exists()


def on_read_only_folder(folder: Path, argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with ``folder`` read-only: a read-only bind mount in a private mount namespace as
    root (root ignores permissions), a folder without write permission otherwise."""
    if os.geteuid() == 0:
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                   'mount --bind -o ro "$0" "$0" && exec "$@"', str(folder), *argv]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    folder.chmod(0o555)
    try:
        return subprocess.run(list(argv), cwd=ROOT, capture_output=True, text=True, timeout=120)
    finally:
        folder.chmod(0o700)


def fingerprint(folder: Path) -> dict[str, str]:
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def test_serve_on_a_read_only_card_says_so_with_its_own_exit_code_and_touches_nothing(tmp_path) -> None:
    folder = tmp_path / "state"
    db = folder / "g.db"
    cleanly_stopped_store(db)
    before = fingerprint(folder)
    result = on_read_only_folder(folder, [sys.executable, "-m", "table.cli", "serve", "--db", str(db),
                                          "--no-hardware", "--socket", str(tmp_path / "t.sock")])
    assert result.returncode == EXIT_READ_ONLY, result.stdout + result.stderr
    assert f"the game store {db} cannot be written" in result.stdout
    assert ("read-only file system" if os.geteuid() == 0 else "ermission denied") in result.stdout.lower()
    assert "the store was left untouched" in result.stdout
    assert "Traceback" not in result.stderr and "damaged" not in result.stdout + result.stderr
    assert fingerprint(folder) == before  # nothing moved aside, nothing restored, nothing created


def test_the_health_check_finds_a_healthy_store_on_a_read_only_card_healthy(tmp_path) -> None:
    folder = tmp_path / "state"
    cleanly_stopped_store(folder / "g.db")
    result = on_read_only_folder(folder, [sys.executable, "-m", "companion.backup", "check",
                                          "--db", str(folder / "g.db")])
    assert (result.returncode, result.stdout.strip()) == (0, "ok"), result.stderr


def test_saved_games_can_be_listed_from_a_read_only_card(tmp_path) -> None:
    folder = tmp_path / "state"
    cleanly_stopped_store(folder / "g.db")
    result = on_read_only_folder(folder, [sys.executable, "-m", "table.cli", "games", "--json",
                                          "--db", str(folder / "g.db")])
    assert result.returncode == 0, result.stderr
    assert '"game": "tally"' in result.stdout


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_store_wal_shm_lock_and_backups_are_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        db = tmp_path / "data" / "companion" / "g.db"
        store, _ = open_store_recovering(db)  # as serve opens it: locked, created
        service = TableService(store, find_game=tally_game.find)
        service.execute({"op": "new_game", "game": "tally", "options": {}})
        service.execute({"op": "command", "command": {"type": "score", "side": 1, "points": 3}})
        made = backup_database(db, backup_dir_for(db))
        live = {p.name: mode(p) for p in db.parent.iterdir() if p.is_file()}
        store.close()
        assert backup.main(["restore", "--db", str(db), "--dir", str(backup_dir_for(db))]) == 0
    finally:
        os.umask(old)

    assert live == {"g.db": 0o600, "g.db-wal": 0o600, "g.db-shm": 0o600, "g.db.lock": 0o600}
    assert mode(tmp_path / "data") == mode(db.parent) == mode(backup_dir_for(db)) == 0o700
    assert mode(made) == 0o600 and list_backups(db, backup_dir_for(db)) == [made]
    assert mode(db) == 0o600  # the restored store
    assert all(mode(p) == 0o600 for p in db.parent.glob("g.db.damaged-*"))


def test_a_store_an_older_version_left_readable_by_everyone_is_made_private_when_opened(tmp_path) -> None:
    db = tmp_path / "g.db"
    Store.open(db).close()
    db.chmod(0o644)
    store = Store.open(db, lock="serve")
    assert mode(db) == 0o600
    store.close()


def test_reading_never_creates_a_store(tmp_path: Path, capsys) -> None:
    from table.cli import main

    assert main(["games", "--db", str(tmp_path / "none.db")]) == 0
    assert "no saved games yet" in capsys.readouterr().out
    assert main(["show", "1", "--db", str(tmp_path / "none.db")]) == 2
    assert "no game store at" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("module", ["store", "store_files", "session"])
def test_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"companion.{module}"), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
