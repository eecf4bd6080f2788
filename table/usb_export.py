"""Exports that leave the device: the saved game's CSV box score and JSON log written to a USB stick.

The table finds a stick the way the desktop's automounter leaves it: a mounted folder one or two
levels under ``/media`` or ``/run/media`` (``/media/<user>/<label>``). ``--media-root DIR`` (or
``COMPANION_MEDIA_ROOTS``, folders separated by ``:``) looks only in DIR instead, where each folder
directly inside counts as a stick (an automounter of its own, or a test). Nothing here knows a game:
the files are ``companion.export``'s.

Registered on the service as the socket ops ``usb_drives`` and ``usb_export`` (docs/protocol.md).

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp()); (root / "STICK").mkdir()
>>> [d.name for d in UsbExports([root], explicit=True).sticks()]
['STICK']
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CommandError
from companion.export import export_csv, export_json
from companion.game import JSON
from companion.service import TableService

DEFAULT_ROOTS = (Path("/media"), Path("/run/media"))
ENV_ROOTS = "COMPANION_MEDIA_ROOTS"


@dataclass(frozen=True)
class Room:
    """What a stick has room for: free bytes, and whether it is mounted read-only."""

    free: int
    read_only: bool


def room_on(path: Path) -> Room:
    found = os.statvfs(path)
    read_only = bool(found.f_flag & os.ST_RDONLY) or not os.access(path, os.W_OK)
    return Room(free=found.f_bavail * found.f_frsize, read_only=read_only)


def roots_from(option: Sequence[str] | None) -> tuple[list[Path], bool]:
    """The folders to look in, and whether they were chosen (each folder in them is then a stick)."""
    chosen = list(option or []) or [p for p in os.environ.get(ENV_ROOTS, "").split(":") if p]
    return ([Path(p) for p in chosen], True) if chosen else (list(DEFAULT_ROOTS), False)


class UsbExports:
    """Finds sticks under the media roots and writes a game's exports onto the first one."""

    def __init__(self, roots: Sequence[Path], explicit: bool = False,
                 room: Callable[[Path], Room] = room_on, clock: Callable[[], float] = time.time) -> None:
        self.roots = [Path(r) for r in roots]
        self.explicit = explicit
        self.room = room
        self.clock = clock

    def sticks(self) -> list[Path]:
        """The sticks plugged in now, by name (``/media/pi/STICK``)."""
        found: list[Path] = []
        for root in self.roots:
            if not root.is_dir():
                continue
            for entry in sorted(p for p in root.iterdir() if p.is_dir()):
                if self.explicit or os.path.ismount(entry):
                    found.append(entry)
                elif not self.explicit:  # /media/<user>/<label>
                    found += sorted(p for p in entry.iterdir() if p.is_dir() and os.path.ismount(p))
        return found

    def where(self) -> str:
        return " or ".join(str(r) for r in self.roots)

    def register(self, service: TableService) -> None:
        service.extra_ops.update({"usb_drives": self.drives_op, "usb_export": self.export_op})

    # -- the socket ops ---------------------------------------------------------------------------

    def drives_op(self, _service: TableService, _request: JSON) -> JSON:
        drives = []
        for stick in self.sticks():
            room = self.room(stick)
            drives.append({"path": str(stick), "name": stick.name, "free": room.free,
                           "read_only": room.read_only})
        return {"ok": True, "drives": drives, "looked_in": [str(r) for r in self.roots]}

    def export_op(self, service: TableService, request: JSON) -> JSON:
        game_id = request.get("game_id")
        if game_id is None:
            if service.session is None:
                raise CommandError("no game to export: start or resume one, or name its game_id")
            game_id = service.session.game_id
        if isinstance(game_id, bool) or not isinstance(game_id, int):
            raise CommandError(f"game_id must be a whole number, not {game_id!r}")
        files = {"csv": export_csv(service.store, game_id), "json": export_json(service.store, game_id)}
        return {"ok": True, **self.write(game_id, files)}

    # -- writing ----------------------------------------------------------------------------------

    def write(self, game_id: int, files: dict[str, str]) -> dict[str, Any]:
        """Write ``files`` (extension -> text) onto the first stick; the stick and the files written."""
        sticks = self.sticks()
        if not sticks:
            raise CommandError(f"No USB stick found: plug one in (looked in {self.where()})")
        stick = sticks[0]
        data = {ext: text.encode("utf-8") for ext, text in files.items()}
        needed = sum(len(b) for b in data.values())
        room = self.room(stick)
        if room.read_only:
            raise CommandError(f"The USB stick {stick.name} is read-only: nothing was written "
                               "(check its lock switch, or use another stick)")
        if room.free < needed:
            raise CommandError(f"The USB stick {stick.name} is full: {needed} bytes needed, "
                               f"{room.free} free; nothing was written")
        stem = f"courtside-game-{game_id}-{time.strftime('%Y%m%d-%H%M%S', time.localtime(self.clock()))}"
        written = []
        try:
            for ext, payload in data.items():
                written.append(_write_whole(stick / f"{stem}.{ext}", payload))
        except OSError as exc:
            for path in written:  # half an export is worse than none: the table says nothing was saved
                path.unlink(missing_ok=True)
            if exc.errno == errno.ENOSPC:
                raise CommandError(f"The USB stick {stick.name} is full; nothing was written") from None
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise CommandError(f"The USB stick {stick.name} is read-only; nothing was written") from None
            raise CommandError(f"Could not write to the USB stick {stick.name}: {exc.strerror}") from None
        return {"stick": str(stick), "files": [str(p) for p in written]}


def _write_whole(path: Path, payload: bytes) -> Path:
    """Written under a temporary name, flushed to the stick, then renamed: a stick pulled out
    half-way leaves no file that looks whole."""
    part = path.with_name(path.name + ".part")
    try:
        with open(part, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        part.replace(path)
    except OSError:
        part.unlink(missing_ok=True)
        raise
    return path
