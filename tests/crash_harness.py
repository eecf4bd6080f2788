"""Kill -9 the table service at random moments and check nothing it acknowledged is lost.

Used by tests/test_crash.py (a short run) and benchmarks/crash.py (the long run). The service runs
in a forked child (the real ``TableService`` + ``TableSocketServer`` + SQLite store), so a cycle
costs milliseconds rather than an interpreter start-up; the child is killed with SIGKILL, which
gives it no chance to flush or clean up.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.game import Game
from companion.service import TableService
from companion.socket_server import TableClient, TableSocketServer
from companion.store import Store
from companion.timeline import Timeline


def _child(db: Path, sock: Path, find_game: Callable[[str], Game], game: str,
           options: Mapping[str, Any]) -> None:
    try:
        service = TableService(Store.open(db), find_game=find_game)
        if service.resume_latest() is None:
            service.execute({"op": "new_game", "game": game, "options": dict(options)})
        server = TableSocketServer(service, sock)
        server.start()
        service.start()
        while True:
            time.sleep(3600)
    finally:
        os._exit(1)


@dataclass
class CrashReport:
    cycles: int = 0
    acknowledged: int = 0
    lost: int = 0
    problems: list[str] = field(default_factory=list)


def _connect(sock: Path, deadline: float) -> TableClient:
    while True:
        try:
            return TableClient(sock, timeout=5)
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.002)


def run_crash_cycles(tmp: Path, cycles: int, find_game: Callable[[str], Game], game: str,
                     options: Mapping[str, Any], next_command: Callable[[dict], dict],
                     seed: int = 0) -> CrashReport:
    """Each cycle: start the service, send commands, SIGKILL it after a random delay, verify the store."""
    rng = random.Random(seed)
    db, sock = tmp / "crash.db", tmp / "table.sock"
    report = CrashReport()
    acked_seq = 0
    for cycle in range(cycles):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            _child(db, sock, find_game, game, options)
        try:
            client = _connect(sock, time.monotonic() + 10)
            snapshot = client.request({"op": "state"})["snapshot"]
            kill_at = time.monotonic() + rng.uniform(0.0, 0.03)
            while time.monotonic() < kill_at:
                reply = client.request({"op": "command", "command": next_command(snapshot)})
                if reply["ok"]:
                    snapshot = reply["snapshot"]
                    acked_seq = snapshot["seq"]
                    report.acknowledged += 1
        finally:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            sock.unlink(missing_ok=True)
        report.cycles += 1
        with sqlite3.connect(db) as raw:
            check = raw.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            report.problems.append(f"cycle {cycle}: integrity_check says {check}")
        store = Store.open(db)
        game_id = store.games()[0].id
        entries = store.entries(game_id)
        if len(entries) - 1 < acked_seq:
            report.lost += acked_seq - (len(entries) - 1)
            report.problems.append(f"cycle {cycle}: {acked_seq} acknowledged, {len(entries) - 1} stored")
        record = store.game(game_id)
        replayed = Timeline.replay(find_game(record.game), entries)
        if snapshot is not None and len(entries) - 1 == acked_seq:
            view = json.loads(json.dumps(find_game(record.game).view(replayed.state)))
            if view != snapshot["view"]:
                report.problems.append(f"cycle {cycle}: replayed state differs from the last acknowledged")
        store.close()
    return report
