"""What a client of the table socket needs to know without importing the table: where it listens,
and how a race is sent (the buttons and the kiosk's race pads send the same command).

The kiosk (and any other client) imports this module and nothing else of ``companion/``; the
requests and replies themselves are described in ``docs/protocol.md``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

# A race closes this long after its window (both counted from the first press's edge): a press is
# dated on its edge but handed on a little later (by a thread a loaded machine runs late), and one
# dated inside the window must still be in the race. One later still is told to the table
# (``companion.controls``), never silently lost.
RACE_GRACE_S = 0.05

FALLBACK_ROOT = Path("/tmp")  # only when neither systemd nor the login session gives a runtime dir


class SocketDirError(RuntimeError):
    """The folder meant for the table's socket could belong to someone else: refuse to use it."""


def default_socket_path() -> Path:
    """``$COMPANION_SOCKET``, else the runtime dir, else a private ``/tmp/companion-<uid>`` folder.

    The ``/tmp`` fallback is checked (and created 0700 when missing): anyone can create folders in
    ``/tmp``, so a folder there that another user made could hold their listener instead of ours.
    """
    if env := os.environ.get("COMPANION_SOCKET"):
        return Path(env)
    runtime = os.environ.get("RUNTIME_DIRECTORY") or os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime.split(":")[0]) / ("table.sock" if "RUNTIME_DIRECTORY" in os.environ
                                             else "companion/table.sock")
    return private_dir(FALLBACK_ROOT / f"companion-{os.getuid()}") / "table.sock"


def private_dir(path: Path) -> Path:
    """Make ``path`` a 0700 folder of ours, or check that the existing one is ours alone.

    >>> import tempfile
    >>> folder = private_dir(Path(tempfile.mkdtemp()) / "companion-test")
    >>> oct(folder.stat().st_mode & 0o777)
    '0o700'
    """
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise SocketDirError(f"cannot create the socket folder {path}: {exc.strerror}") from exc
    try:
        info = os.lstat(path)  # lstat: a symbolic link planted there must not be followed
    except OSError as exc:
        raise SocketDirError(f"cannot check the socket folder {path}: {exc.strerror}") from exc
    fix = "remove it, or set XDG_RUNTIME_DIR or COMPANION_SOCKET"
    if stat.S_ISLNK(info.st_mode):
        raise SocketDirError(f"the socket folder {path} is a symbolic link; refusing it ({fix})")
    if not stat.S_ISDIR(info.st_mode):
        raise SocketDirError(f"the socket folder {path} is not a folder; refusing it ({fix})")
    if info.st_uid != os.getuid():
        raise SocketDirError(f"the socket folder {path} belongs to uid {info.st_uid}, not to us "
                             f"(uid {os.getuid()}): another user could listen there; refusing it ({fix})")
    if info.st_mode & 0o022:
        raise SocketDirError(f"the socket folder {path} is writable by others "
                             f"(mode {oct(stat.S_IMODE(info.st_mode))}); refusing it ({fix})")
    return path


def race_command(race: dict[str, Any], presses: list[tuple[int, float]]) -> dict[str, Any]:
    """The race's command from ``(side, first edge time)`` presses: ties go to the tie-breaker.

    >>> race = {"sides": [0, 1, 2], "tie_breaker": 2, "command": "race", "window_ms": 60}
    >>> command = race_command(race, [(0, 10.000), (2, 10.030)])
    >>> command["order"], command["presses"], command["tie"]
    ([2, 0, 1], [{'side': 0, 'ms': 0}, {'side': 2, 'ms': 30}], True)
    """
    ordered = sorted(presses, key=lambda p: p[1])
    first_at = ordered[0][1]
    tied = [s for s, at in ordered if (at - first_at) * 1000 <= race["window_ms"]]
    winner = race["tie_breaker"] if race["tie_breaker"] in tied else ordered[0][0]
    order = [winner] + [s for s, _ in ordered if s != winner]
    order += [s for s in race["sides"] if s not in order]
    return {"type": race["command"], "order": order,
            "presses": [{"side": s, "ms": round((at - first_at) * 1000)} for s, at in ordered],
            "tie": len(tied) > 1}
