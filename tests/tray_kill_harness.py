"""Kill -9 the table service the moment the dice tray receives ``$ACK``; no acknowledged roll may be lost.

Used by tests/test_tray_ack_kill.py (a short run) and benchmarks/tray_ack_kill.py (the long run).
This process plays the tray's firmware on the master end of a real pseudo-terminal: it sends one
``$ROLL`` line at a time and resends it until it is answered, like the firmware in
docs/dice-tray-protocol.md. The table service runs in a forked child, wired exactly as
``companion serve`` wires it (``table.serve.attach_hardware``: tray reader thread -> owner thread ->
controls -> store -> answer), with its ``DiceTray`` on the pty's slave. The firmware forgets a roll
once it has its ``$ACK``, so the moment an ``$ACK`` arrives the child is killed with SIGKILL (no
flush, no clean-up); then the store must hold every acknowledged roll, in order, and nothing else.
"""

from __future__ import annotations

import errno
import os
import random
import re
import select
import signal
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dice_tally_game

from companion.service import TableService
from companion.store import Store
from hardware.backends import TableHardware
from hardware.dice_tray import DiceTray
from hardware.dice_tray_protocol import frame
from hardware.oled import DisplayWorker
from table.serve import attach_hardware

RESEND_S = 0.05  # the real firmware waits about 300 ms; shorter only makes the run faster
ANSWER = re.compile(rb"\$(ACK|REJ),(\d+)[,*]")


def tray_only(tray_port: str) -> Callable[[Any, bool, Any], TableHardware]:
    """A ``build`` for ``attach_hardware``: a table whose only hardware is a tray on ``tray_port``."""
    def build(_config: Any, sim: bool, emit: Any) -> TableHardware:
        tray = DiceTray(tray_port, emit, backoff=(0.01, 0.05))
        return TableHardware(buttons=None, dial=None, tray=tray, worker=DisplayWorker([]), lights=None,
                             sim=None)
    return build


def _child(db: Path, config: Path, tray_port: str) -> None:
    try:
        service = TableService(Store.open(db), find_game=dice_tally_game.find)
        if service.resume_latest() is None:
            service.execute({"op": "new_game", "game": dice_tally_game.GAME.name, "options": {}})
        attach_hardware(service, str(config), sim=False, build=tray_only(tray_port))
        service.start()
        service.call_soon(lambda svc: svc.publish())  # as serve does: the first snapshot, $EXPECT
        while True:
            time.sleep(3600)
    finally:
        os._exit(1)


@dataclass
class TrayKillReport:
    cycles: int = 0
    acknowledged: int = 0
    refused: int = 0
    lost: int = 0
    extra: int = 0  # recorded but never acknowledged (applied twice, or in flight at the kill)
    problems: list[str] = field(default_factory=list)


class Firmware:
    """The tray's side of the pty: one roll in flight at a time, resent until answered."""

    def __init__(self, rng: random.Random) -> None:
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        os.close(slave)  # the name stays valid while the master is open, like /dev/ttyACM0
        self.rng = rng
        self.seq = 0
        self.in_flight: tuple[int, int] | None = None  # (seq, face)
        self.sent_at = 0.0
        self.buffer = b""

    def close(self) -> None:
        os.close(self.master)

    def _send_roll(self) -> None:
        if self.in_flight is None:
            self.seq = (self.seq + 1) % 65536
            self.in_flight = (self.seq, self.rng.randint(1, 20))
        seq, face = self.in_flight
        try:
            os.write(self.master, frame(f"ROLL,{seq},d20,{face}"))
        except OSError as exc:  # the service's end is closed between two runs
            if exc.errno != errno.EIO:
                raise
        self.sent_at = time.monotonic()

    def _read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self.master, 4096)
        except OSError as exc:  # EIO: nobody has the slave open (the service is starting)
            if exc.errno != errno.EIO:
                raise
            time.sleep(0.005)
            return b""

    def play_until_acks(self, pid: int, acks: int, report: TrayKillReport, acked: list[int],
                        deadline: float, kill_after_s: float | None = None) -> None:
        """Send rolls until ``acks`` have been acknowledged; SIGKILL ``pid`` as the last one arrives.

        With ``kill_after_s``, kill instead that long after the first ACK of the run, wherever the
        service is then (reading a roll, committing it, writing its ACK...).
        """
        got = 0
        kill_at: float | None = None
        self.buffer = b""
        while time.monotonic() < deadline:
            if kill_at is not None and time.monotonic() >= kill_at:
                os.kill(pid, signal.SIGKILL)
                return
            if self.in_flight is None or time.monotonic() - self.sent_at >= RESEND_S:
                self._send_roll()
            self.buffer += self._read(RESEND_S / 5 if kill_at is None else 0.001)
            while (match := ANSWER.search(self.buffer)) is not None:
                self.buffer = self.buffer[match.end():]
                kind, seq = match.group(1), int(match.group(2))
                if self.in_flight is None or seq != self.in_flight[0]:
                    continue  # a late answer to a resend of an earlier roll
                if kind == b"REJ":
                    report.refused += 1
                    self.in_flight = None
                    continue
                got += 1
                if got == acks and kill_after_s is None:
                    os.kill(pid, signal.SIGKILL)  # the firmware has just forgotten this roll
                acked.append(self.in_flight[1])
                report.acknowledged += 1
                self.in_flight = None
                if got == acks and kill_after_s is None:
                    return
                if kill_after_s is not None and kill_at is None:
                    kill_at = time.monotonic() + kill_after_s
            self.buffer = self.buffer[-256:]
        report.problems.append(f"cycle {report.cycles}: only {got} of {acks} rolls acknowledged in time")
        os.kill(pid, signal.SIGKILL)


def stored_faces(db: Path) -> tuple[list[int], str]:
    with sqlite3.connect(db) as raw:
        check = raw.execute("PRAGMA integrity_check").fetchone()[0]
    store = Store.open(db)
    try:
        games = store.games()
        entries = store.entries(games[0].id) if games else []
    finally:
        store.close()
    faces = [int(e["command"]["face"]) for e in entries if e.get("kind") == "command"]
    return faces, check


def _matched(acked: list[int], faces: list[int]) -> int:
    """How many acknowledged rolls, from the first, appear in order in the store (extras allowed)."""
    found = 0
    for face in faces:
        if found < len(acked) and face == acked[found]:
            found += 1
    return found


def run_tray_kill_cycles(tmp: Path, cycles: int, seed: int = 0, max_acks: int = 3,
                         cycle_timeout: float = 20.0, random_kill_s: float | None = None) -> TrayKillReport:
    """Each cycle: start the service, play rolls, SIGKILL it as the n-th ``$ACK`` (1..max_acks) arrives.

    With ``random_kill_s``, each kill comes instead at a random moment up to that long after the
    run's first ACK, wherever the service is; a roll committed whose ACK had not left yet is then
    resent to the next run, which must answer it without applying it again (``extra`` counts what
    the store holds beyond the acknowledged rolls: a roll applied twice, or one still in flight).
    """
    rng = random.Random(seed)
    db, config = tmp / "tray-crash.db", tmp / "hardware.toml"
    config.write_text("")  # the built-in defaults, not whatever ~/.config or /etc hold on this machine
    firmware = Firmware(rng)
    report = TrayKillReport()
    acked: list[int] = []
    # After random kills one more run, killed at its first ACK, lets the last roll in flight be
    # answered: then the store must hold exactly the acknowledged rolls.
    runs = cycles + (1 if random_kill_s is not None else 0)
    try:
        for cycle in range(runs):
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child never returns
                _child(db, config, firmware.port)
            try:
                settling = cycle == cycles
                kill_after = None if random_kill_s is None or settling else rng.uniform(0, random_kill_s)
                acks = (1 if settling else rng.randint(1, max_acks)) if kill_after is None else 10**9
                firmware.play_until_acks(pid, acks,
                                         report, acked, time.monotonic() + cycle_timeout, kill_after)
            finally:
                os.kill(pid, signal.SIGKILL)  # already dead unless something went wrong
                os.waitpid(pid, 0)
            report.cycles += 1
            faces, check = stored_faces(db)
            if check != "ok":
                report.problems.append(f"cycle {cycle}: integrity_check says {check}")
            matched = _matched(acked, faces) if random_kill_s is not None else next(
                (i for i, (a, b) in enumerate(zip(acked, faces, strict=False)) if a != b),
                min(len(acked), len(faces)))
            if matched < len(acked):
                report.problems.append(f"cycle {cycle}: {len(acked)} rolls acknowledged, {len(faces)} "
                                       f"stored; acknowledged roll {matched + 1} is not where it should be")
            report.lost = max(report.lost, len(acked) - matched)
            report.extra = len(faces) - matched
    finally:
        firmware.close()
    return report
