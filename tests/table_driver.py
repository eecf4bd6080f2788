"""Drive a Valley Hoopers game through the simulated hardware only: encoder, CONFIRM and the dice tray.

Shared by tests/test_table_e2e.py and benchmarks/latency.py. Every command of a script is entered
the way a player would: a roll arrives as a checksummed line from the (pseudo-terminal) dice tray;
any other command is dialled on the encoder among the prompt's choices and confirmed with a press
of the CONFIRM button on a gpiozero mock pin.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.service import TableService
from companion.store import Store
from table.serve import attach_hardware

ROOT = Path(__file__).resolve().parents[1]
FULL_GAME = ROOT / "tests" / "games" / "full_game_valley_hoopers.jsonl"
EXAMPLE_CONFIG = ROOT / "config.example.toml"


def script(path: Path = FULL_GAME) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {k: v for k, v in lines[0].items() if k != "type"}, lines[1:]


class SimTable:
    """A running service with simulated hardware, and the means to wait for what it does."""

    def __init__(self, db: Path, config: Path = EXAMPLE_CONFIG) -> None:
        self.service = TableService(Store.open(db))
        self.hardware, self.controls = attach_hardware(self.service, str(config), sim=True)
        self.seq = -1
        self.notices: list[str] = []
        self._changed = threading.Condition()
        self.service.subscribers.append(self._on_message)
        self.service.start()

    def _on_message(self, message: dict[str, Any]) -> None:
        with self._changed:
            if message.get("event") == "snapshot" and message["snapshot"]:
                self.seq = message["snapshot"]["seq"]
            elif message.get("event") == "notice":
                self.notices.append(message["text"])
            self._changed.notify_all()

    def wait_seq(self, seq: int, timeout: float = 5.0) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self.seq >= seq, timeout)

    def request(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = self.service.request(request)
        if not answer.get("ok"):
            raise AssertionError(f"{request} refused: {answer}")
        return answer

    def snapshot(self) -> dict[str, Any]:
        return self.request({"op": "state"})["snapshot"]

    def enter(self, command: dict[str, Any]) -> None:
        """Enter one command by hardware alone; wait until the table has recorded it."""
        snapshot = self.snapshot()
        target_seq = snapshot["seq"] + 1
        if command["type"] == "roll":
            self.request({"op": "sim_tray", "die": command["die"], "face": command["face"]})
        else:
            dial = [entry for _, entry in self.controls.entries()]
            index = dial.index(command)  # ValueError: the buttons can't reach this command
            steps = (index - self.controls.dial) % len(dial)
            if steps > len(dial) // 2:
                steps -= len(dial)
            if steps:
                self.request({"op": "sim_turn", "steps": steps})
                deadline = time.monotonic() + 5
                while self.controls.dial != index and time.monotonic() < deadline:
                    time.sleep(0.001)
            self.request({"op": "sim_press", "role": "CONFIRM"})
        if not self.wait_seq(target_seq):
            raise AssertionError(f"{command} was not recorded; notices: {self.notices[-3:]}")

    def enter_reachable(self, command: dict[str, Any]) -> None:
        """Enter one command through the service, after checking that the hardware could have entered
        it (a roll from the tray; any other command among the dial's entries); wait until recorded."""
        if command["type"] != "roll":
            dial = [entry for _, entry in self.controls.entries()]
            assert command in dial, f"the buttons can't reach {command}"
        target_seq = self.snapshot()["seq"] + 1
        self.request({"op": "command", "command": command})
        if not self.wait_seq(target_seq):
            raise AssertionError(f"{command} was not recorded; notices: {self.notices[-3:]}")

    def close(self) -> None:
        self.hardware.close()
        self.service.stop()
        self.service.store.close()


@contextmanager
def sim_table(db: Path) -> Iterator[SimTable]:
    table = SimTable(db)
    try:
        yield table
    finally:
        table.close()
