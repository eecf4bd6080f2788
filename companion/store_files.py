"""The files beside the game store: one writer at a time (a lock file), private modes, read-only opens.

Stdlib only (and ``companion.errors``), like ``companion.backup``, which uses it from a rescue shell.

* **One writer.** ``StoreLock.acquire(db, "serve")`` takes an exclusive ``flock`` on ``<db>.lock``
  and writes ``"<pid> <role>"`` into it; a second writer (another serve, a CLI replay or delete, a
  restore) is refused at once with the holder's pid. Readers (``companion games``, ``show``,
  ``export``, backups) never take it: SQLite's WAL lets them read alongside the writer.
* **Private files.** The database, its ``-wal``/``-shm``, the lock and the backups are created 0600
  in folders created 0700, whatever the umask: the mode is set with ``fchmod``/``chmod`` after
  creation, because a umask can only take bits away. SQLite gives a new ``-wal``/``-shm`` the mode of
  the database file, so creating the database 0600 ourselves covers them too.
* **Read-only is not damage.** On a read-only card SQLite cannot create the ``-shm`` a WAL database
  needs, so a plain read-only open fails with ``SQLITE_CANTOPEN``; ``connect_read_only`` then opens
  the file ``immutable`` (nobody can be writing to a folder nobody can write).

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> lock = StoreLock.acquire(folder / "g.db", "serve")
>>> StoreLock.acquire(folder / "g.db", "replay")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.store_files.StoreBusyError: another companion serve is using .../g.db (pid ...); ...
>>> oct((folder / "g.db.lock").stat().st_mode & 0o777)
'0o600'
>>> lock.release()
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
from pathlib import Path

from companion.errors import StoreError

FILE_MODE = 0o600
DIR_MODE = 0o700
# The files SQLite keeps beside a database (a restore moves all of them; a mode fix covers all of them).
SIDECAR_SUFFIXES = ("-wal", "-shm", "-journal")
_NOT_WRITABLE = (errno.EROFS, errno.EACCES, errno.EPERM)
# SQLite result codes that mean "could not get at the file", not "the file is damaged".
_CANNOT_OPEN = {3: "permission denied", 5: "busy", 6: "locked", 8: "read-only", 14: "cannot open",
                23: "not authorised"}


class StoreBusyError(StoreError):
    """Another companion program is writing this store (it holds ``<db>.lock``)."""


class StoreReadOnlyError(StoreError):
    """The store or its folder cannot be written: the table cannot record a game there."""


class StoreUnreadableError(StoreError):
    """SQLite could not open the store at all (permissions, a lock): not a sign of damage."""


def lock_path_for(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".lock")


def sidecars(db_path: Path) -> tuple[Path, ...]:
    return tuple(db_path.with_name(db_path.name + suffix) for suffix in SIDECAR_SUFFIXES)


def make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and any missing parents 0700; folders that already exist are left as they are."""
    missing: list[Path] = []
    walk = folder
    while not walk.exists():
        missing.append(walk)
        walk = walk.parent
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=DIR_MODE)
        except FileExistsError:
            continue
        os.chmod(directory, DIR_MODE)


def create_private_file(path: Path) -> bool:
    """Create ``path`` empty and 0600 unless it exists; True if it was created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
    except FileExistsError:
        return False
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return True


def tighten_modes(db_path: Path) -> list[Path]:
    """Take group and other access off the store and its sidecars (files an older version made 0644).

    Only files we own; a read-only card or a foreign file is left alone. Returns what was changed.
    """
    changed = []
    for path in (db_path, *sidecars(db_path)):
        try:
            info = path.lstat()
            if info.st_uid == os.geteuid() and info.st_mode & 0o077:
                os.chmod(path, FILE_MODE)
                changed.append(path)
        except OSError:
            continue
    return changed


def check_writable(db_path: Path) -> None:
    """Raise ``StoreReadOnlyError`` unless the store (if present) and its folder can be written.

    ``os.access`` reports a read-only mount (``EROFS``) as well as permissions.
    """
    folder = db_path.parent
    for path, what in ((folder, "its folder"), (db_path, "the file")):
        if path.exists() and not os.access(path, os.W_OK):
            reason = "read-only file system" if _on_read_only_mount(path) else "permission denied"
            raise StoreReadOnlyError(read_only_message(db_path, f"{what} {path}: {reason}"))


def _on_read_only_mount(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def read_only_message(db_path: Path, reason: str) -> str:
    return (f"the game store {db_path} cannot be written ({reason}): no game can be recorded there, so "
            f"nothing was started and the store was left untouched. Make {db_path.parent} writable (is "
            f"the card mounted read-only? `findmnt -T {db_path.parent}`) or choose another file with --db")


class StoreLock:
    """An exclusive ``flock`` on ``<db>.lock`` for as long as one program writes the store."""

    def __init__(self, db_path: Path, fd: int, role: str) -> None:
        self.db_path = db_path
        self.role = role
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, db_path: str | Path, role: str) -> StoreLock:
        """Take the lock now or raise: ``StoreBusyError`` (with the holder) or ``StoreReadOnlyError``."""
        db_path = Path(db_path)
        path = lock_path_for(db_path)
        try:
            make_private_dirs(db_path.parent)  # a first start: the store's folder may not exist yet
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
        except OSError as exc:
            if exc.errno in _NOT_WRITABLE:
                raise StoreReadOnlyError(read_only_message(db_path, f"{path}: {exc.strerror}")) from exc
            raise StoreError(f"cannot open the lock file {path} of the game store: {exc.strerror}") from exc
        try:
            if os.fstat(fd).st_uid == os.geteuid():
                os.fchmod(fd, FILE_MODE)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise StoreBusyError(f"another companion {holder[1]} is using {db_path} (pid {holder[0]}); "
                                 f"stop it first (sudo systemctl stop companion-serve) or use another "
                                 f"--db") from None
        except OSError:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {role}\n".encode(), 0)
        return cls(db_path, fd, role)

    def release(self) -> None:
        if self._fd is not None:
            # Closing drops the flock; the file stays, so nobody can lock a file that is about to vanish.
            os.close(self._fd)
            self._fd = None


def _read_holder(fd: int) -> tuple[str, str]:
    try:
        words = os.pread(fd, 100, 0).decode("ascii", "replace").split()
    except OSError:
        words = []
    pid = words[0] if words and words[0].isdigit() else "unknown"
    role = words[1] if len(words) > 1 and words[1].isidentifier() else "program"
    return pid, role


def sqlite_cannot_open(exc: sqlite3.Error) -> str | None:
    """What kept SQLite from the file, or None when the error means the file itself is bad."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else _CANNOT_OPEN.get(code & 0xFF)


def read_only_uri(path: Path, *, immutable: bool = False) -> str:
    """A URI that opens ``path`` without ever creating it (a plain connect would make an empty db)."""
    uri = path.resolve().as_uri() + "?mode=ro"
    return uri + "&immutable=1" if immutable else uri


def connect_read_only(path: Path, probe: str = "SELECT count(*) FROM sqlite_master") -> sqlite3.Connection:
    """Open ``path`` read-only, also on a read-only card (see the module notes); never creates it.

    ``probe`` is run once so a file SQLite cannot open fails here, where the fallback is decided.
    """
    db = sqlite3.connect(read_only_uri(path), uri=True, check_same_thread=False)
    try:
        db.execute(probe).fetchall()
        return db
    except sqlite3.Error as exc:
        db.close()
        if sqlite_cannot_open(exc) is None or os.access(path.parent, os.W_OK):
            raise
    db = sqlite3.connect(read_only_uri(path, immutable=True), uri=True, check_same_thread=False)
    try:
        db.execute(probe).fetchall()
    except sqlite3.Error:
        db.close()
        raise
    return db
