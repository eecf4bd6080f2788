"""The game store: one SQLite file holding every game's event log, written before anything is shown.

WAL mode with ``synchronous=FULL``: a committed entry survives a pulled plug, and the session only
shows the state an entry produces after ``append`` has returned.

One writer at a time: ``Store.open(path, lock="serve")`` holds ``<db>.lock`` (``companion.store_files``)
until ``close``; a second writer is refused with the holder's pid. ``Store.open(path, read_only=True)``
reads alongside a writer and never creates or changes anything. The database is created 0600 (its
``-wal``/``-shm`` follow) in folders created 0700, whatever the umask. Before every commit the store
checks that the file at its path is still the one it opened: a store deleted or replaced under a
running table refuses to acknowledge anything into the orphaned file.

>>> import tempfile, pathlib
>>> store = Store.open(pathlib.Path(tempfile.mkdtemp()) / "t.db")
>>> gid = store.create_game("some-game", {"kind": "setup", "options": {}}, {"title": "demo"})
>>> [e["kind"] for e in store.entries(gid)]
['setup']
>>> store.close()
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from json.encoder import c_make_encoder, encode_basestring_ascii
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import StoreError
from companion.store_files import (
    StoreLock,
    StoreUnreadableError,
    check_writable,
    connect_read_only,
    create_private_file,
    make_private_dirs,
    sqlite_cannot_open,
    tighten_modes,
)

if TYPE_CHECKING:  # the game module (and all it imports) is not needed to read a store: `companion games`
    from companion.game import JSON

# SQLite's automatic checkpoint copies the WAL back inside the commit that fills it past 1,000
# pages (about every 330 commands here): that press waited 14 ms for it on this machine's disk, more
# on a Pi's SD card. The table service asks for a passive checkpoint once it is idle after this
# many commits (about 300 pages), so the automatic one never comes due while it serves.
CHECKPOINT_AFTER_COMMITS = 100
APPLICATION_ID = 0x43435431  # "CCT1": marks the file as ours, so we never write into someone else's
SCHEMA_VERSION = 2
MAX_GAME_ID = 2**63 - 1  # SQLite's INTEGER PRIMARY KEY is a signed 64-bit number


def check_game_id(game_id: int) -> int:
    """A game id the store can look up, or a ``StoreError`` a person can read (never an OverflowError).

    >>> check_game_id(10**30)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.errors.StoreError: there is no saved game 1000...000: game ids are whole numbers from 1 to ...
    """
    if isinstance(game_id, bool) or not isinstance(game_id, int) or not 1 <= game_id <= MAX_GAME_ID:
        raise StoreError(f"there is no saved game {game_id}: "
                         f"game ids are whole numbers from 1 to {MAX_GAME_ID}")
    return game_id


def _migrate_to_1(db: sqlite3.Connection) -> None:
    # executescript() would commit on its own; each statement runs inside the migration's transaction.
    db.execute(
        """
        CREATE TABLE games(
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'playing',
            summary TEXT NOT NULL DEFAULT '{}'
        )"""
    )
    db.execute(
        """
        CREATE TABLE log(
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            at TEXT NOT NULL,
            entry TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID"""
    )


def _migrate_to_2(db: sqlite3.Connection) -> None:
    # State snapshots (companion.snapshots): one head per game, checkpoints by command seq. A store
    # upgraded from schema 1 has none yet: its games replay in full until their next snapshot.
    db.execute(
        """
        CREATE TABLE head_snapshots(
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            tag TEXT NOT NULL,
            data BLOB NOT NULL
        )"""
    )
    db.execute(
        """
        CREATE TABLE checkpoints(
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            tag TEXT NOT NULL,
            state BLOB NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID"""
    )


# Index i upgrades a database from version i to i + 1. Migrations only ever run forward.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_migrate_to_1, _migrate_to_2)


@dataclass(frozen=True)
class Snapshots:
    """The snapshots of the state after entry ``seq``: (tag, blob) or None each. ``Store.append``
    writes them beside a later entry, in its transaction, or ``Store.save_snapshots`` alone."""

    seq: int
    head: tuple[str, bytes] | None = None
    checkpoint: tuple[str, bytes] | None = None

    def write(self, db: sqlite3.Connection, game_id: int) -> None:
        if self.head is not None:
            db.execute("INSERT OR REPLACE INTO head_snapshots(game_id, seq, tag, data) "
                       "VALUES (?, ?, ?, ?)", (game_id, self.seq, *self.head))
        if self.checkpoint is not None:
            db.execute("INSERT OR REPLACE INTO checkpoints(game_id, seq, tag, state) "
                       "VALUES (?, ?, ?, ?)", (game_id, self.seq, *self.checkpoint))


def default_db_path() -> Path:
    """Where games live unless ``--db`` or ``$COMPANION_DB`` says otherwise."""
    if env := os.environ.get("COMPANION_DB"):
        return Path(env)
    from platformdirs import user_data_path

    return user_data_path("courtside-companion") / "companion.db"


@dataclass(frozen=True)
class GameRecord:
    """One saved game as the home screen lists it."""

    id: int
    game: str
    created_at: str
    updated_at: str
    status: str
    summary: JSON

    def to_json(self) -> JSON:
        return {"id": self.id, "game": self.game, "created_at": self.created_at,
                "updated_at": self.updated_at, "status": self.status, "summary": self.summary}


# A game's row: last played is its last entry's time (the row's own ``updated_at`` is rewritten only
# with its summary); the log's key finds that entry without a scan.
_RECORD = ("id, game, created_at, coalesce((SELECT at FROM log WHERE log.game_id = games.id "
           "ORDER BY seq DESC LIMIT 1), updated_at), status, summary")


def _now() -> str:
    """The time in UTC to the millisecond, as ``datetime.now(UTC).isoformat(timespec="milliseconds")``
    writes it ("2026-12-01T22:00:00.123+00:00"); the text up to the second is worked out once per
    second (a ``datetime`` and its ``isoformat`` were an eighth of what the store spent per entry)."""
    global _second
    seconds, nanoseconds = divmod(time.time_ns(), 1_000_000_000)
    second = _second  # one read: stores on other threads may replace it meanwhile
    if second[0] != seconds:
        second = _second = (seconds, datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{second[1]}.{nanoseconds // 1_000_000:03d}+00:00"


_second: tuple[int, str] = (-1, "")  # the second _now last wrote, and its text


# ``json.dumps`` with its defaults makes a new C encoder on every call; the store writes every entry
# with one made once (same output: ASCII, ", " and ": ", NaN allowed, the same TypeError for a value
# JSON cannot hold). It checks for no cycle: an entry is the plain JSON a game builds.
_ENCODE = None if c_make_encoder is None else c_make_encoder(
    None, json.JSONEncoder().default, encode_basestring_ascii, None, ": ", ", ", False, False, True)


def _dumps(value: Any) -> str:
    return json.dumps(value) if _ENCODE is None else "".join(_ENCODE(value, 0))


def _explain(path: Path, error: sqlite3.Error) -> str:
    text = str(error)
    if "readonly" in text or "read-only" in text:
        return f"the game store {path} is read-only ({text}); the command was not recorded"
    if "full" in text:
        return f"the disk holding {path} is full ({text}); the command was not recorded"
    if "locked" in text or "busy" in text:
        return f"the game store {path} is in use by another program ({text}); try again"
    return f"could not write the game store {path}: {text}; the command was not recorded"


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file sits at ``path`` (device, inode); None when nothing does."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


class Store:
    """The SQLite game store. One connection, used from the thread that owns the table."""

    def __init__(self, path: Path, db: sqlite3.Connection, *, read_only: bool = False,
                 lock: StoreLock | None = None) -> None:
        self.path = path
        self.read_only = read_only
        self._db = db
        self._lock = lock
        # The file this connection reads and writes; compared with the path before every commit.
        self._opened = None if read_only else _identity(path)
        self._commits_since_checkpoint = 0
        self._summaries: dict[int, tuple[JSON, str]] = {}  # game id -> its last summary and its JSON
        # game id -> the (summary JSON, status) its games row holds, as this store last committed it:
        # an entry that changes neither leaves the row alone (one statement and one page fewer).
        self._rows: dict[int, tuple[str, str]] = {}

    @classmethod
    def open(cls, path: str | Path, *, create: bool = True, read_only: bool = False,
             lock: str | StoreLock | None = None) -> Store:
        """Open (or create) the store, refusing files that are not ours, damaged or from the future.

        ``lock`` (a role such as ``"serve"``, or a ``StoreLock`` already taken) makes this the one
        writer until ``close``; ``read_only`` opens an existing store for reading only.
        """
        path = Path(path)
        if read_only:
            return cls._open_read_only(path)
        held = StoreLock.acquire(path, lock) if isinstance(lock, str) else lock
        db = None
        try:
            if held is not None:
                check_writable(path)
            db = cls._connect(path, create)
            cls._check_and_migrate(path, db)
        except BaseException:
            if db is not None:
                db.close()
            if isinstance(lock, str) and held is not None:  # ours to give back; a lock handed in is not
                held.release()
            raise
        return cls(path, db, lock=held)

    @staticmethod
    def _connect(path: Path, create: bool) -> sqlite3.Connection:
        if not path.exists():
            if not create:
                raise StoreError(f"no game store at {path}")
            try:
                make_private_dirs(path.parent)
                # Ours, 0600, before SQLite makes it (0644 less the umask); -wal and -shm copy its mode.
                create_private_file(path)
            except OSError as exc:
                raise StoreError(f"cannot create the game store {path}: {exc}") from exc
        else:
            tighten_modes(path)
        try:
            return sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the game store {path}: {exc}") from exc

    @classmethod
    def _open_read_only(cls, path: Path) -> Store:
        if not path.is_file():
            raise StoreError(f"no game store at {path} (no game has been saved there yet)")
        try:
            db = connect_read_only(path)
        except sqlite3.Error as exc:
            if (reason := sqlite_cannot_open(exc)) is not None:
                raise StoreUnreadableError(f"cannot open the game store {path} ({reason}: {exc})") from exc
            raise StoreError(f"{path} is not a Courtside Companion game store or is damaged ({exc})") from exc
        try:
            app_id, version, tables = cls._identify(path, db)
            if version != SCHEMA_VERSION or app_id != APPLICATION_ID:
                cls._refuse_foreign(path, app_id, version, tables)
                raise StoreError(f"{path} holds no games yet" if not tables else
                                 f"{path} has an older layout (schema {version}); start companion serve "
                                 "once to upgrade it")
        except BaseException:
            db.close()
            raise
        return cls(path, db, read_only=True)

    @staticmethod
    def _identify(path: Path, db: sqlite3.Connection) -> tuple[int, int, int]:
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{path} is not a Courtside Companion game store or is damaged ({exc}); "
                "it was left untouched") from exc
        return int(app_id), int(version), int(tables)

    @staticmethod
    def _refuse_foreign(path: Path, app_id: int, version: int, tables: int) -> None:
        if app_id != APPLICATION_ID and (tables or app_id):
            raise StoreError(f"{path} is an SQLite file that belongs to another program; "
                             "it was left untouched (choose another file with --db)")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{path} was written by a newer Courtside Companion (schema {version}, "
                             f"this one knows up to {SCHEMA_VERSION}); update the companion")

    @classmethod
    def _check_and_migrate(cls, path: Path, db: sqlite3.Connection) -> None:
        app_id, version, tables = cls._identify(path, db)
        cls._refuse_foreign(path, app_id, version, tables)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            for step in range(version, SCHEMA_VERSION):
                db.execute("BEGIN IMMEDIATE")
                MIGRATIONS[step](db)
                db.execute(f"PRAGMA user_version={step + 1}")
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StoreError(f"cannot prepare the game store {path}: {exc}") from exc

    def close(self) -> None:
        self._db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _still_ours(self) -> None:
        """Refuse to acknowledge into a file that is no longer the store at our path (one ``stat``)."""
        now = _identity(self.path)
        if now == self._opened:
            return
        if now is None:
            raise StoreError(f"the game store {self.path} was deleted while the table was using it; the "
                             "command was not recorded. Restart the table: it restores the newest backup")
        raise StoreError(f"the game store {self.path} was replaced by another file while the table was "
                         "using it (a restore or copy while it ran?); the command was not recorded. "
                         "Restart the table to use the new file")

    def _write(self, statements: Callable[[sqlite3.Connection], Any]) -> Any:
        if self.read_only:
            raise StoreError(f"the game store {self.path} was opened for reading only; nothing was recorded")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            result = statements(self._db)
            self._still_ours()
            self._db.execute("COMMIT")
            self._commits_since_checkpoint += 1
            return result
        except (sqlite3.Error, StoreError) as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            if isinstance(exc, StoreError):
                raise
            raise StoreError(_explain(self.path, exc)) from exc

    @property
    def wal_checkpoint_due(self) -> bool:
        """Enough commits since the last ``checkpoint_wal`` that one is worth running while idle."""
        return self._commits_since_checkpoint >= CHECKPOINT_AFTER_COMMITS

    def checkpoint_wal(self) -> tuple[int, int]:
        """Copy the WAL back into the database now, as far as no reader holds it back (passive: it
        waits for nobody); (WAL pages, pages copied). For an idle moment: it syncs the database."""
        self._commits_since_checkpoint = 0
        try:
            _, pages, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"could not checkpoint the game store {self.path}: {exc}") from exc
        return int(pages), int(copied)

    def create_game(self, game: str, setup_entry: JSON, summary: JSON) -> int:
        text = _dumps(summary)

        def insert(db: sqlite3.Connection) -> int:
            now = _now()
            cursor = db.execute(
                "INSERT INTO games(game, created_at, updated_at, summary) VALUES (?, ?, ?, ?)",
                (game, now, now, text))
            game_id = int(cursor.lastrowid or 0)
            db.execute("INSERT INTO log(game_id, seq, at, entry) VALUES (?, 0, ?, ?)",
                       (game_id, now, _dumps(setup_entry)))
            return game_id

        game_id = int(self._write(insert))
        self._rows[game_id] = (text, "playing")
        return game_id

    def append(self, game_id: int, seq: int, entry: JSON, summary: JSON, status: str,
               snapshots: Snapshots | None = None) -> None:
        """Commit one log entry (and snapshots of an earlier one's state, if any); returns only once
        it is durable.

        The game's row is rewritten only when its summary or status changes: when it was last
        played is the time of its last entry (``games``), so most entries write the log alone."""
        row = (self._summary_text(game_id, summary), status)
        stale = self._rows.get(game_id) != row

        def insert(db: sqlite3.Connection) -> None:
            now = _now()
            db.execute("INSERT INTO log(game_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                       (game_id, seq, now, _dumps(entry)))
            if stale:
                db.execute("UPDATE games SET updated_at = ?, summary = ?, status = ? WHERE id = ?",
                           (now, *row, game_id))
            if snapshots is not None:
                snapshots.write(db, game_id)

        self._write_row(game_id, insert, row)

    def save_snapshots(self, game_id: int, snapshots: Snapshots) -> None:
        """Commit the snapshots of an entry already in the log, alone (while the table is idle)."""
        def insert(db: sqlite3.Connection) -> None:
            found = db.execute("SELECT 1 FROM log WHERE game_id = ? AND seq = ?",
                               (game_id, snapshots.seq)).fetchone()
            if found is None:
                raise StoreError(f"game {game_id} has no entry {snapshots.seq} to keep a snapshot of")
            snapshots.write(db, game_id)

        self._write(insert)

    def _write_row(self, game_id: int, statements: Callable[[sqlite3.Connection], Any],
                   row: tuple[str, str] | None) -> None:
        """``_write(statements)``, after which the game's row holds ``row`` (None: not known here).
        A write that fails forgets the row: the next entry writes it again, whatever became of it."""
        self._rows.pop(game_id, None)
        self._write(statements)
        if row is not None:
            self._rows[game_id] = row

    def _summary_text(self, game_id: int, summary: JSON) -> str:
        """``summary`` as JSON: the last one's text again while it reads the same (most commands
        change neither score, period nor clock)."""
        last = self._summaries.get(game_id)
        if last is not None and last[0] == summary:
            return last[1]
        text = _dumps(summary)
        self._summaries[game_id] = (summary, text)
        return text

    def entries(self, game_id: int) -> list[JSON]:
        rows = self._read("SELECT entry FROM log WHERE game_id = ? ORDER BY seq", (check_game_id(game_id),))
        return [json.loads(row[0]) for row in rows]

    def entries_from(self, game_id: int, seq: int) -> list[tuple[int, JSON]]:
        """(seq, entry) of every entry from ``seq`` on: the tail a restore from a snapshot records."""
        rows = self._read("SELECT seq, entry FROM log WHERE game_id = ? AND seq >= ? ORDER BY seq",
                          (check_game_id(game_id), seq))
        return [(int(s), json.loads(entry)) for s, entry in rows]

    def entries_at(self, game_id: int, seqs: list[int]) -> dict[int, JSON]:
        """The entries at these positions (those that exist), by seq."""
        found: dict[int, JSON] = {}
        for start in range(0, len(seqs), 500):  # SQLite's limit on bound parameters is 999 on old builds
            chunk = seqs[start:start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._read(f"SELECT seq, entry FROM log WHERE game_id = ? AND seq IN ({marks})",
                              (check_game_id(game_id), *chunk))
            found.update((int(s), json.loads(entry)) for s, entry in rows)
        return found

    def head_snapshot(self, game_id: int) -> tuple[int, str, bytes] | None:
        """(seq, tag, blob) of the game's newest head snapshot, if it has one."""
        rows = self._read("SELECT seq, tag, data FROM head_snapshots WHERE game_id = ?",
                          (check_game_id(game_id),))
        return None if not rows else (int(rows[0][0]), str(rows[0][1]), bytes(rows[0][2]))

    def checkpoint(self, game_id: int, seq: int) -> tuple[str, bytes] | None:
        """(tag, blob) of the state saved after command entry ``seq``, if there is one."""
        rows = self._read("SELECT tag, state FROM checkpoints WHERE game_id = ? AND seq = ?",
                          (check_game_id(game_id), seq))
        return None if not rows else (str(rows[0][0]), bytes(rows[0][1]))

    def timed_entries(self, game_id: int) -> list[tuple[int, str, JSON]]:
        rows = self._read("SELECT seq, at, entry FROM log WHERE game_id = ? ORDER BY seq",
                          (check_game_id(game_id),))
        return [(int(seq), str(at), json.loads(entry)) for seq, at, entry in rows]

    def game(self, game_id: int) -> GameRecord:
        rows = self._read(f"SELECT {_RECORD} FROM games WHERE id = ?", (check_game_id(game_id),))
        if not rows:
            raise StoreError(f"there is no saved game {game_id}")
        return self._record(rows[0])

    def games(self) -> list[GameRecord]:
        rows = self._read(f"SELECT {_RECORD} FROM games ORDER BY 4 DESC, id DESC", ())
        return [self._record(row) for row in rows]

    def delete_game(self, game_id: int) -> None:
        self.game(game_id)
        self._write_row(game_id, lambda db: db.execute("DELETE FROM games WHERE id = ?", (game_id,)), None)

    def abandon_game(self, game_id: int) -> GameRecord:
        """Mark an unfinished game ``abandoned``: it is no longer resumed at start; its log stays whole.

        Only the status changes (not ``updated_at``: the list keeps saying when it was last played).
        A later command recorded in it (after a ``resume``) makes it ``playing`` again.
        """
        self.game(game_id)
        self._write_row(game_id, lambda db: db.execute(
            "UPDATE games SET status = 'abandoned' WHERE id = ?", (game_id,)), None)
        return self.game(game_id)

    @staticmethod
    def _record(row: tuple[Any, ...]) -> GameRecord:
        return GameRecord(int(row[0]), row[1], row[2], row[3], row[4], json.loads(row[5]))

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        try:
            return list(self._db.execute(sql, params))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the game store {self.path}: {exc}") from exc

    def quick_check(self) -> str:
        return str(self._db.execute("PRAGMA quick_check").fetchone()[0])
