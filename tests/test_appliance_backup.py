"""Backups of the game store: real SQLite files, a WAL store being written, and a card that went bad."""

from __future__ import annotations

import doctest
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion import backup
from companion.backup import BackupError, backup_database, check_database, list_backups, restore_latest


def make_store(path: Path, events: int = 400, *, wal: bool = True) -> Path:
    """A store shaped like the real one (WAL, synchronous=FULL), big enough to span many pages."""
    with closing(sqlite3.connect(path)) as db:
        if wal:
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, game INTEGER, body TEXT)")
        db.execute("CREATE INDEX events_game ON events (game)")
        with db:
            db.executemany(
                "INSERT INTO events (game, body) VALUES (?, ?)",
                [(n % 7, f"Chus Kinder scores from downtown, event {n} " * 4) for n in range(events)],
            )
    return path


def event_count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])


def corrupt(path: Path) -> None:
    """Overwrite bytes in the middle of the file, as a dying SD card does."""
    size = path.stat().st_size
    assert size > 16 * 4096, "the store must span many pages for the damage to land inside a b-tree"
    with open(path, "r+b") as handle:
        handle.seek((size // 2) // 4096 * 4096)
        handle.write(b"\xde\xad\xbe\xef" * 2048)


def checkpoint(path: Path) -> None:
    """Fold the -wal into the main file so damage to the main file is what readers see."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return make_store(tmp_path / "companion.db")


def test_backup_copies_every_event_into_a_timestamped_file(store: Path, tmp_path: Path) -> None:
    copy = backup_database(store, tmp_path / "backups", keep=3)
    assert copy.parent == tmp_path / "backups"
    assert copy.name.startswith("companion-") and copy.suffix == ".db"
    assert event_count(copy) == 400


def test_backup_is_one_self_contained_file_in_rollback_journal_mode(store: Path, tmp_path: Path) -> None:
    copy = backup_database(store, tmp_path / "backups")
    with closing(sqlite3.connect(copy)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]


def test_backup_sees_writes_still_in_the_wal_of_an_open_connection(tmp_path: Path) -> None:
    store = make_store(tmp_path / "companion.db", events=10)
    with closing(sqlite3.connect(store)) as writer:
        with writer:
            writer.execute("INSERT INTO events (game, body) VALUES (1, 'buzzer beater')")
        assert Path(str(store) + "-wal").stat().st_size > 0
        copy = backup_database(store, tmp_path / "backups")
    assert event_count(copy) == 11


def test_backup_keeps_only_the_newest_n(store: Path, tmp_path: Path) -> None:
    made = [backup_database(store, tmp_path / "backups", keep=3) for _ in range(5)]
    assert list_backups(store, tmp_path / "backups") == made[:1:-1]


def test_pruning_leaves_other_files_in_the_backup_folder_alone(store: Path, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("finals night")
    (folder / "other-20200101T000000_000000Z.db").write_bytes(b"another store's backup")
    for _ in range(3):
        backup_database(store, folder, keep=1)
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith("companion-")) == [
        "notes.txt",
        "other-20200101T000000_000000Z.db",
    ]
    assert len(list_backups(store, folder)) == 1


def test_keep_below_one_is_refused(store: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="keep"):
        backup_database(store, tmp_path / "backups", keep=0)


def test_backing_up_a_missing_store_raises_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="no database"):
        backup_database(tmp_path / "companion.db", tmp_path / "backups")
    assert not (tmp_path / "companion.db").exists()


def test_a_damaged_store_is_not_backed_up_and_old_backups_survive(store: Path, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    good = backup_database(store, folder, keep=1)
    checkpoint(store)
    corrupt(store)
    with pytest.raises(BackupError):
        backup_database(store, folder, keep=1)
    assert list_backups(store, folder) == [good]
    assert not list(folder.glob("*.partial"))


def test_check_says_ok_for_a_healthy_wal_store(store: Path) -> None:
    assert check_database(store) == (True, "ok")


def test_check_finds_bytes_overwritten_in_the_middle(store: Path) -> None:
    checkpoint(store)
    corrupt(store)
    ok, message = check_database(store)
    assert ok is False
    assert message and message != "ok"


def test_check_of_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "companion.db"
    junk.write_bytes(b"this is a shopping list, not a game" * 200)
    ok, message = check_database(junk)
    assert ok is False and "not a database" in message


def test_check_of_a_missing_store_reports_it_and_creates_nothing(tmp_path: Path) -> None:
    assert check_database(tmp_path / "companion.db") == (False, f"no database at {tmp_path / 'companion.db'}")
    assert not (tmp_path / "companion.db").exists()


def test_restore_moves_the_damaged_store_and_its_wal_aside_and_restores_the_newest(tmp_path: Path) -> None:
    store = make_store(tmp_path / "companion.db", events=400)
    folder = tmp_path / "backups"
    backup_database(store, folder)
    with closing(sqlite3.connect(store)) as db, db:
        db.execute("INSERT INTO events (game, body) VALUES (2, 'and one')")
    newest = backup_database(store, folder)
    checkpoint(store)
    corrupt(store)
    Path(str(store) + "-wal").write_bytes(b"stale wal from the damaged store")
    Path(str(store) + "-shm").write_bytes(b"stale shm")
    damaged_bytes = store.read_bytes()

    assert restore_latest(store, folder) == newest

    assert check_database(store) == (True, "ok")
    assert event_count(store) == 401
    aside = {p.name.split(".damaged-")[0]: p for p in tmp_path.glob("*.damaged-*")}
    assert sorted(aside) == ["companion.db", "companion.db-shm", "companion.db-wal"]
    assert aside["companion.db"].read_bytes() == damaged_bytes
    assert aside["companion.db-wal"].read_bytes() == b"stale wal from the damaged store"
    assert not Path(str(store) + "-wal").exists() or Path(str(store) + "-wal").stat().st_size == 0


def test_restore_skips_a_backup_that_fails_integrity_check(tmp_path: Path) -> None:
    store = make_store(tmp_path / "companion.db")
    folder = tmp_path / "backups"
    older = backup_database(store, folder)
    newer = backup_database(store, folder)
    corrupt(newer)
    corrupt(store)
    assert restore_latest(store, folder) == older
    assert check_database(store) == (True, "ok")
    assert newer.exists(), "a bad backup is skipped, not deleted"


def test_restore_without_any_good_backup_changes_nothing(tmp_path: Path) -> None:
    store = make_store(tmp_path / "companion.db")
    folder = tmp_path / "backups"
    only = backup_database(store, folder)
    corrupt(only)
    checkpoint(store)
    corrupt(store)
    before = sorted(p.name for p in tmp_path.iterdir())
    damaged_bytes = store.read_bytes()
    assert restore_latest(store, folder) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert store.read_bytes() == damaged_bytes


def test_restoring_twice_keeps_both_damaged_copies(tmp_path: Path) -> None:
    store = make_store(tmp_path / "companion.db")
    folder = tmp_path / "backups"
    backup_database(store, folder)
    restore_latest(store, folder)
    restore_latest(store, folder)
    assert len(list(tmp_path.glob("companion.db.damaged-*"))) == 2


def test_restore_when_the_store_is_gone_entirely(tmp_path: Path) -> None:
    store = make_store(tmp_path / "companion.db")
    backup_database(store, tmp_path / "backups")
    for path in tmp_path.glob("companion.db*"):
        path.unlink()
    assert restore_latest(store, tmp_path / "backups") is not None
    assert event_count(store) == 400


def test_command_line_recover_restores_only_a_damaged_store(tmp_path: Path) -> None:
    store = make_store(tmp_path / "companion.db")
    folder = tmp_path / "backups"
    assert backup.main(["backup", "--db", str(store), "--dir", str(folder)]) == 0
    assert backup.main(["recover", "--db", str(store), "--dir", str(folder)]) == 0
    assert not list(tmp_path.glob("*.damaged-*")), "a healthy store is left alone"
    checkpoint(store)
    corrupt(store)
    assert backup.main(["check", "--db", str(store)]) == 1
    assert backup.main(["recover", "--db", str(store), "--dir", str(folder)]) == 0
    assert backup.main(["check", "--db", str(store)]) == 0
    assert list(tmp_path.glob("companion.db.damaged-*"))


def test_command_line_recover_on_a_fresh_table_does_nothing(tmp_path: Path) -> None:
    assert backup.main(["recover", "--db", str(tmp_path / "x.db"), "--dir", str(tmp_path / "b")]) == 0
    assert list(tmp_path.iterdir()) == []


def test_module_example_runs() -> None:
    result = doctest.testmod(backup)
    assert result.attempted > 0 and result.failed == 0
