"""Keep the game store safe on an SD card: online backups, a health check, restore from the newest good copy.

Stdlib only (plus ``companion.store_files`` and ``companion.errors``, stdlib only too), so it runs from
a systemd timer or a rescue shell without the rest of the companion.

    >>> from pathlib import Path
    >>> import sqlite3, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with sqlite3.connect(folder / "companion.db") as db:
    ...     _ = db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, body TEXT)")
    >>> db.close()
    >>> copy = backup_database(folder / "companion.db", folder / "backups", keep=3)
    >>> check_database(copy)
    (True, 'ok')

A backup is taken with SQLite's online backup API, so it is consistent even while ``companion serve``
is writing; it is a single self-contained file (rollback-journal mode, no ``-wal``/``-shm``).
``restore_latest`` never deletes anything: the damaged store and its ``-wal``/``-shm`` are renamed
``*.damaged-<time>`` so a game can still be dug out of them by hand. Backups and their folder are
created 0600/0700 whatever the umask. ``restore`` and ``recover`` take the store's lock
(``<db>.lock``) and refuse while ``companion serve`` (or any other writer) holds it.

Command line (for the systemd units and for people)::

    python -m companion.backup backup  --db /var/lib/companion/companion.db --dir /var/lib/companion/backups
    python -m companion.backup check   --db /var/lib/companion/companion.db
    python -m companion.backup restore --db /var/lib/companion/companion.db --dir /var/lib/companion/backups
    python -m companion.backup recover --db ... --dir ...   # check, and restore only if damaged
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import shutil
import sqlite3
import sys
from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import CompanionError
from companion.store_files import (
    SIDECAR_SUFFIXES,
    StoreBusyError,
    StoreLock,
    StoreUnreadableError,
    connect_read_only,
    create_private_file,
    make_private_dirs,
    read_only_uri,
    sidecars,
    sqlite_cannot_open,
)

log = logging.getLogger(__name__)

__all__ = ["SIDECAR_SUFFIXES", "BackupError", "backup_database", "check_database", "list_backups",
           "restore_latest"]

DEFAULT_KEEP = 24
EXIT_BUSY = 2  # restore/recover refused: a service (or another writer) holds the store's lock
_STAMP_FORMAT = "%Y%m%dT%H%M%S_%fZ"


class BackupError(RuntimeError):
    """A backup could not be made, or came out damaged (nothing was pruned)."""


def _stamp() -> str:
    """Fixed width, UTC, so sorting backup names sorts them by age."""
    return datetime.now(UTC).strftime(_STAMP_FORMAT)


def _backup_name_pattern(db_path: Path) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(db_path.stem)}-(\d{{8}}T\d{{6}}_\d{{6}}Z)(?:-(\d+))?\.db$")


def _fsync_directory(directory: Path) -> None:
    """Make a rename durable: on power loss the directory entry must not lag behind the file."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def list_backups(db_path: str | Path, backup_dir: str | Path) -> list[Path]:
    """The backups of ``db_path`` found in ``backup_dir``, newest first; other files are ignored."""
    backup_dir = Path(backup_dir)
    if not backup_dir.is_dir():
        return []
    pattern = _backup_name_pattern(Path(db_path))
    found: list[tuple[str, int, Path]] = []
    for entry in backup_dir.iterdir():
        match = pattern.match(entry.name)
        if match and entry.is_file():
            found.append((match.group(1), int(match.group(2) or 0), entry))
    return [path for _, _, path in sorted(found, reverse=True)]


def check_database(db_path: str | Path) -> tuple[bool, str]:
    """Is the store readable and undamaged? ``(True, "ok")`` or ``(False, what SQLite said)``.

    Runs ``PRAGMA quick_check`` (seconds, not minutes, on a Pi; it skips the index cross-checks of
    ``integrity_check``), opening the file read-only so a missing store is reported, not created, and
    a store on a read-only card is still checked. A file SQLite cannot get at (no permission, locked)
    is not damaged: that raises ``StoreUnreadableError`` rather than returning False, so nobody moves
    a healthy store aside.
    """
    path = Path(db_path)
    if not path.is_file():
        return False, f"no database at {path}"
    try:
        with closing(connect_read_only(path)) as db:
            rows = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
    except sqlite3.Error as exc:
        if (reason := sqlite_cannot_open(exc)) is not None:
            raise StoreUnreadableError(f"cannot open the game store {path} to check it ({reason}: {exc}); "
                                       "it was not judged damaged and was left untouched") from exc
        return False, str(exc)
    if rows == ["ok"]:
        return True, "ok"
    return False, "; ".join(rows)


def _integrity_ok(path: Path) -> bool:
    """Full ``integrity_check`` of a backup file: before a restore we can afford the thorough one."""
    try:
        with closing(sqlite3.connect(read_only_uri(path, immutable=True), uri=True)) as db:
            rows = [str(row[0]) for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        log.warning("backup %s is unreadable: %s", path, exc)
        return False
    if rows != ["ok"]:
        log.warning("backup %s fails integrity_check: %s", path, "; ".join(rows[:5]))
        return False
    return True


def backup_database(db_path: str | Path, backup_dir: str | Path, keep: int = DEFAULT_KEEP) -> Path:
    """Copy the live store into ``backup_dir/<name>-<UTC time>.db`` and keep only the newest ``keep``.

    Safe while the service writes (SQLite's backup API copies a consistent snapshot). The copy is
    checked before it counts: if the live store is already damaged the copy is discarded and
    ``BackupError`` raised *without pruning*, so a corrupt store cannot push the last good backups out.
    """
    if keep < 1:
        raise ValueError(f"keep must be at least 1, not {keep}")
    db_path = Path(db_path)
    backup_dir = Path(backup_dir)
    if not db_path.is_file():
        raise BackupError(f"no database at {db_path}")
    make_private_dirs(backup_dir)

    stamp = _stamp()
    target = backup_dir / f"{db_path.stem}-{stamp}.db"
    counter = 0
    while target.exists():  # two backups in one microsecond: keep both
        counter += 1
        target = backup_dir / f"{db_path.stem}-{stamp}-{counter}.db"
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    create_private_file(partial)  # 0600 before SQLite writes a byte of the games into it

    try:
        with (
            closing(connect_read_only(db_path)) as source,
            closing(sqlite3.connect(partial)) as copy,
        ):
            source.backup(copy)
            # The copy inherits WAL mode from the page header; a backup should be one file you can
            # carry away on a USB stick, so switch it back to a rollback journal.
            copy.execute("PRAGMA journal_mode=DELETE").fetchall()
            verdict = [str(row[0]) for row in copy.execute("PRAGMA quick_check")]
        if verdict != ["ok"]:
            raise BackupError(f"{db_path} is damaged, backup refused: {'; '.join(verdict[:5])}")
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(partial, target)
        _fsync_directory(backup_dir)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"could not back up {db_path}: {exc}") from exc
    finally:
        # Our own half-written temporary file, never the user's data.
        partial.unlink(missing_ok=True)

    for old in list_backups(db_path, backup_dir)[keep:]:
        old.unlink()
    log.info("backed up %s to %s", db_path, target)
    return target


def _move_aside(path: Path, stamp: str) -> Path | None:
    """Rename ``path`` to ``path.damaged-<stamp>`` (never over an existing file); None if absent."""
    if not path.exists():
        return None
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    counter = 0
    while aside.exists():
        counter += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{counter}")
    os.rename(path, aside)
    return aside


def move_store_aside(db_path: str | Path) -> list[Path]:
    """Rename the store and its ``-wal``/``-shm``/``-journal`` to ``*.damaged-<UTC time>``; never delete."""
    db_path = Path(db_path)
    stamp = _stamp()
    moved = []
    for path in (db_path, *sidecars(db_path)):
        aside = _move_aside(path, stamp)
        if aside is not None:
            log.warning("moved %s aside to %s", path, aside)
            moved.append(aside)
    return moved


def restore_latest(db_path: str | Path, backup_dir: str | Path) -> Path | None:
    """Put the newest backup that passes ``integrity_check`` in place of the (damaged) store.

    Returns the backup it restored from, or ``None`` when no good backup exists, in which case the
    store is left exactly as it was. The old store and its ``-wal``/``-shm``/``-journal`` are renamed
    ``<name>.damaged-<UTC time>``, never deleted. The caller holds the store's lock (``main`` and
    ``companion serve`` do), so nothing is writing the store meanwhile.
    """
    db_path = Path(db_path)
    chosen = next((b for b in list_backups(db_path, backup_dir) if _integrity_ok(b)), None)
    if chosen is None:
        log.error("no intact backup of %s in %s; leaving the store as it is", db_path, backup_dir)
        return None

    # Copy first, under a temporary name: if the card is full the damaged store is still in place.
    incoming = db_path.with_name(db_path.name + ".restoring")
    incoming.unlink(missing_ok=True)
    create_private_file(incoming)  # copyfile keeps the mode of a file that exists: 0600
    shutil.copyfile(chosen, incoming)
    with open(incoming, "rb") as handle:
        os.fsync(handle.fileno())

    move_store_aside(db_path)
    os.replace(incoming, db_path)
    _fsync_directory(db_path.parent)
    log.warning("restored %s from %s", db_path, chosen)
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.backup``: what the backup timer and the start-up check run."""
    parser = argparse.ArgumentParser(prog="python -m companion.backup", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="action", required=True)
    for action, text in (
        ("backup", "take a backup now and prune old ones"),
        ("check", "quick_check the store; exit 1 if damaged or missing"),
        ("restore", "move the store aside and restore the newest good backup"),
        ("recover", "check the store and restore only if it is damaged (missing is fine)"),
    ):
        p = sub.add_parser(action, help=text)
        p.add_argument("--db", required=True, type=Path)
        if action != "check":
            p.add_argument("--dir", required=True, type=Path, help="backup folder")
        if action == "backup":
            p.add_argument("--keep", type=int, default=DEFAULT_KEEP)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")

    if args.action == "backup":
        try:
            print(backup_database(args.db, args.dir, keep=args.keep))
        except BackupError as exc:
            print(f"backup: {exc}", file=sys.stderr)
            return 1
        return 0
    try:
        if args.action == "check":
            ok, message = check_database(args.db)
            print(message)
            return 0 if ok else 1
        if args.action == "recover" and not args.db.exists():
            # A fresh table: the service creates the store on first start.
            return 0
        # Restoring under a running service would leave it acknowledging commands into the old file.
        lock = StoreLock.acquire(args.db, args.action)
    except CompanionError as exc:
        print(f"{args.action}: {exc}", file=sys.stderr)
        return EXIT_BUSY if isinstance(exc, StoreBusyError) else 1
    try:
        return _restore(args)
    except CompanionError as exc:
        print(f"{args.action}: {exc}", file=sys.stderr)
        return 1
    finally:
        lock.release()


def _restore(args: argparse.Namespace) -> int:
    if args.action == "recover":
        ok, message = check_database(args.db)
        if ok:
            return 0
        log.error("%s is damaged: %s", args.db, message)
    restored = restore_latest(args.db, args.dir)
    if restored is None:
        print("no intact backup found; nothing changed", file=sys.stderr)
        # recover lets the service start anyway, so it can report the damage on the kiosk itself.
        return 0 if args.action == "recover" else 1
    print(restored)
    return 0


if __name__ == "__main__":
    sys.exit(main())
