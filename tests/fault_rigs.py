"""Rigs that break the dice tray's cable and the OLED's bus on purpose, around a real table service.

Shared by tests/test_faults.py (100 of each) and benchmarks/soak.py. The tray is a real
pseudo-terminal per "plug-in" (the tray adapter reopens whatever port name it is given); the
display is a real luma ``ssd1306`` over a modelled I2C bus that can be unplugged (errno 121).
"""

from __future__ import annotations

import errno
import os
import random
import select
import threading
import time
from pathlib import Path
from typing import Any

from companion.controls import TableControls
from companion.service import TableService
from companion.store import Store
from hardware.dice_tray import DiceTray
from hardware.dice_tray_protocol import ack, frame
from hardware.inputs import to_json

FAST_BACKOFF = (0.01, 0.05)


class Pty:
    """One plug-in of the tray: the adapter opens the slave by name, the rig plays the firmware."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.name = os.ttyname(slave)
        os.close(slave)
        self.received = b""

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def wait_for(self, wanted: bytes, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while wanted not in self.received and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if ready:
                try:
                    self.received += os.read(self.master, 4096)
                except OSError as exc:
                    if exc.errno != errno.EIO:  # EIO: the adapter has not reopened the slave yet
                        raise
                    time.sleep(0.005)
        return wanted in self.received

    def unplug(self) -> None:
        os.close(self.master)


class TrayTable:
    """A table service whose dice tray can be unplugged and replugged at will."""

    def __init__(self, db: Path) -> None:
        self.service = TableService(Store.open(db))
        self.controls = TableControls(
            submit=lambda command: self.service.execute({"op": "command", "command": command}),
            notify=self.service.notice, status=self.service.set_status,
            answer_tray=lambda roll, refused: self.tray.answer(roll["seq"], roll["epoch"], refused))
        self.service.subscribers.append(self._on_message)
        self.seq = -1
        self.changed = threading.Condition()
        self.pty = Pty()
        self.tray = DiceTray(lambda: self.pty.name, self._emit, backoff=FAST_BACKOFF)
        self.firmware_seq = 0
        self.plugs = 1
        self.service.start()

    def _emit(self, event: Any) -> None:
        as_json = to_json(event)
        self.service.call_soon(lambda _svc: self.controls.on_input(as_json))

    def _on_message(self, message: dict[str, Any]) -> None:
        if message.get("event") == "snapshot" and message["snapshot"]:
            self.controls.update(message["snapshot"])
            with self.changed:
                self.seq = message["snapshot"]["seq"]
                self.changed.notify_all()

    def wait_seq(self, seq: int, timeout: float = 5.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.seq >= seq, timeout)

    def replug(self) -> None:
        self.pty.unplug()
        # Only plug the new cable in once the adapter has noticed the old one is gone.
        DiceTray.wait_for(lambda: self.tray.status()["state"] != "connected", 5)
        self.pty = Pty()
        self.plugs += 1
        DiceTray.wait_for(lambda: self.tray.status()["state"] == "connected", 5)

    def roll(self, die: str, face: Any, rng: random.Random, unplug_chance: float) -> bool:
        """Send one roll like the firmware: resend until ACKed, surviving unplugs. True if it unplugged."""
        self.firmware_seq = (self.firmware_seq + 1) % 65536
        line = frame(f"ROLL,{self.firmware_seq},{die},{face}")
        unplugged = False
        if rng.random() < unplug_chance:
            # Cable pulled in the middle of the line, or right after it went out (ACK lost).
            cut = rng.randrange(1, len(line) + 1)
            self.pty.send(line[:cut])
            if cut == len(line):
                self.pty.wait_for(ack(self.firmware_seq), 0.05)
            self.replug()
            unplugged = True
        for _ in range(20):  # like the firmware: resend until the ACK comes back
            self.pty.send(line)
            if self.pty.wait_for(ack(self.firmware_seq), 0.5):
                return unplugged
        raise AssertionError(f"no ACK for {line!r} after 20 sends")

    def close(self) -> None:
        self.tray.close()
        self.pty.unplug()
        self.service.stop()
        self.service.store.close()
