"""Who is on the other end of the table socket: root, our own user, or a member of our group.

The socket file is ``srw-rw----`` already; this is the service's own second check. Supplementary
groups come from the kernel (``SO_PEERGROUPS``, Linux 4.13 and later), not from
``/proc/<pid>/status``: the systemd unit hides other users' processes (``ProtectProc=invisible``),
so a kiosk user that is in the group only as a supplementary group would be refused.
"""

from __future__ import annotations

import errno
import os
import socket
import struct
from pathlib import Path

SO_PEERGROUPS = getattr(socket, "SO_PEERGROUPS", 59)  # Python's socket module may not name it
_GID = struct.calcsize("I")
_MOST_GROUPS = 65536  # NGROUPS_MAX on Linux


def peer_credentials(conn: socket.socket) -> tuple[int, int, int]:
    """``(pid, uid, gid)`` of the process that connected."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, gid = struct.unpack("3i", creds)
    return pid, uid, gid


def peer_groups(conn: socket.socket) -> list[int] | None:
    """The peer's supplementary groups as the kernel saw them at connect time; ``None`` if unknown."""
    size = 64 * _GID
    while True:
        try:
            raw = conn.getsockopt(socket.SOL_SOCKET, SO_PEERGROUPS, size)
        except OSError as exc:
            if exc.errno == errno.ERANGE and size < _MOST_GROUPS * _GID:
                size = _MOST_GROUPS * _GID
                continue
            return None  # ENOPROTOOPT: a kernel older than 4.13
        count = len(raw) // _GID
        return list(struct.unpack(f"{count}I", raw[:count * _GID]))


def _groups_from_proc(pid: int) -> list[int] | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("Groups:"):
            return [int(gid) for gid in line.split()[1:]]
    return None


def peer_allowed(conn: socket.socket) -> bool:
    """Allow root, our own user, and members of our group (the filesystem mode says the same)."""
    pid, uid, gid = peer_credentials(conn)
    if uid in (0, os.getuid()) or gid == os.getgid():
        return True
    groups = peer_groups(conn)
    if groups is None:
        groups = _groups_from_proc(pid) or []
    return os.getgid() in groups
