"""What a client of the table socket needs to know without importing the table: where it listens.

The kiosk (and any other client) imports this module and nothing else of ``companion/``; the
requests and replies themselves are described in ``docs/protocol.md``.
"""

from __future__ import annotations

import os
from pathlib import Path


def default_socket_path() -> Path:
    if env := os.environ.get("COMPANION_SOCKET"):
        return Path(env)
    runtime = os.environ.get("RUNTIME_DIRECTORY") or os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime.split(":")[0]) / ("table.sock" if "RUNTIME_DIRECTORY" in os.environ
                                             else "companion/table.sock")
    return Path(f"/tmp/companion-{os.getuid()}/table.sock")
