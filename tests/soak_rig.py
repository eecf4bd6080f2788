"""Soak: many thousand presses, encoder detents and rolls through gpiozero mock pins, game after game.

Shared by tests/test_soak.py (a short run) and benchmarks/soak.py (100,000 inputs). The buttons and
the encoder are the real adapters on a ``MockFactory``; the button panel runs on a simulated clock
(``poll(now)``) so a press takes no wall time. Every command of the Valley Hoopers full-game script
is dialled (faces and choices alike) and confirmed; the table service, store and controls are the
real ones. Reports RSS, open file descriptors and threads before and after.
"""

from __future__ import annotations

import os
import resource
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory
from table_driver import script

from companion.controls import TableControls
from companion.service import TableService
from companion.store import Store
from hardware.buttons import ButtonPanel
from hardware.encoder import Dial
from hardware.inputs import to_json


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def resources() -> dict[str, int]:
    return {"rss_kib": rss_kib(), "fds": len(os.listdir("/proc/self/fd")),
            "threads": threading.active_count()}


@dataclass
class SoakReport:
    inputs: int
    commands: int
    games: int
    before: dict[str, int]
    after: dict[str, int]


def soak(db: Path, inputs: int) -> SoakReport:
    options, commands = script()
    factory = MockFactory()
    clock = [0.0]
    service = TableService(Store.open(db))
    controls = TableControls(submit=lambda c: service.execute({"op": "command", "command": c}),
                             notify=lambda text: None, status=lambda k, v: None)
    # Inputs are handled right here, in this thread, which plays the table's owner thread.
    def emit(event: Any) -> None:
        controls.on_input(to_json(event))

    def on_message(message: dict[str, Any]) -> None:
        if message.get("event") == "snapshot":
            controls.update(message["snapshot"])

    service.subscribers.append(on_message)
    panel = ButtonPanel({"CONFIRM": 13, "UNDO": 19}, emit, factory, hold_s={"UNDO": 1.0},
                        clock=lambda: clock[0], start_thread=False)
    dial = Dial(17, 27, emit, factory)
    confirm = panel.pin("CONFIRM")

    def press() -> None:
        confirm.drive_low()
        clock[0] += 0.03
        panel.poll()
        confirm.drive_high()
        clock[0] += 0.03
        panel.poll()

    service.execute({"op": "new_game", "game": "valley-hoopers", "options": options})
    before = resources()
    used = played = games = 0
    while used < inputs:
        for command in commands:
            entries = [entry for _, entry in controls.entries()]
            index = entries.index(command)
            steps = (index - controls.dial) % len(entries)
            if steps > len(entries) // 2:
                steps -= len(entries)
            dial.turn(steps)
            seq = service.session.seq
            press()
            if service.session.seq != seq + 1:
                raise AssertionError(f"{command} was not recorded after {used} inputs")
            used += abs(steps) + 1
            played += 1
            if used >= inputs:
                break
        games += 1
        # MockPin records every level it ever had (for assert_states); that history is the
        # mock's, not ours, so it is cleared between games to measure only the table.
        for pin in (confirm, dial.encoder.a.pin, dial.encoder.b.pin):
            pin.clear_states()
        service.execute({"op": "new_game", "game": "valley-hoopers", "options": options})
    after = resources()
    panel.close()
    dial.close()
    service.store.close()
    return SoakReport(used, played, games, before, after)
