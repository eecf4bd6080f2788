"""The power-loss workload: full Valley Hoopers games through the real ``Session`` and ``Store``.

Run under the ``trace_io`` shim (see tests/powerloss/trace_io.c) so that every write and sync the
store makes lands in the trace. After each command is acknowledged (``Session.handle`` has returned,
so the table would now show it) one line ``"<game_id> <seq>\\n"`` is written to the file ``acks`` in
the traced folder: the shim records it like any other write, so acknowledgements and disk I/O are
ordered in one trace.

    python tests/powerloss/workload.py FOLDER SCRIPT [--games 1] [--restart-every 0]
                                       [--wal-autocheckpoint 1000] [--synchronous FULL]

``--restart-every N`` closes and reopens the store every N commands (as a service restart does):
closing the last connection checkpoints the WAL into the database file and deletes it, so the trace
also holds checkpoints, WAL deletion and WAL re-creation. ``--wal-autocheckpoint P`` makes SQLite
checkpoint every P pages instead of its default 1,000 (about 370 commands here), so a short game
also restarts its WAL in place many times: new salts, old frames overwritten. The store's own
settings (WAL, ``synchronous=FULL``) are untouched, except by ``--synchronous NORMAL``, which
exists to show that the checker catches a store that acknowledges before its WAL is synced.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from companion.session import Session
from companion.store import Store

GAME = "valley-hoopers"


def read_script(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The setup options (first line, without its ``type``) and the commands after it."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {k: v for k, v in lines[0].items() if k != "type"}, lines[1:]


def open_store(db: Path, wal_autocheckpoint: int, synchronous: str) -> Store:
    store = Store.open(db)
    # The store has no setting for these; reaching into its connection keeps companion/ unchanged.
    store._db.execute(f"PRAGMA wal_autocheckpoint={int(wal_autocheckpoint)}")
    if synchronous != "FULL":
        store._db.execute(f"PRAGMA synchronous={synchronous}")
    return store


def play(folder: Path, script: Path, games: int, restart_every: int, wal_autocheckpoint: int,
         synchronous: str = "FULL") -> None:
    options, commands = read_script(script)
    db = folder / "game.db"
    acks = os.open(folder / "acks", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)

    def acknowledge(session: Session) -> None:
        os.write(acks, f"{session.game_id} {session.seq}\n".encode())

    store = open_store(db, wal_autocheckpoint, synchronous)
    handled = 0
    for _ in range(games):
        session = Session.new(store, GAME, options)
        acknowledge(session)
        for command in commands:
            session.handle(command)
            acknowledge(session)
            handled += 1
            if restart_every and handled % restart_every == 0:
                store.close()
                store = open_store(db, wal_autocheckpoint, synchronous)
                session = Session.resume(store, session.game_id)
    store.close()
    os.close(acks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("script", type=Path)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--restart-every", type=int, default=0)
    parser.add_argument("--wal-autocheckpoint", type=int, default=1000)
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL")
    args = parser.parse_args()
    play(args.folder, args.script, args.games, args.restart_every, args.wal_autocheckpoint, args.synchronous)


if __name__ == "__main__":
    main()
