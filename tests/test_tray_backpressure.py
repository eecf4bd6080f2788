"""A tray that sends nothing back must never stall the table: writes to it are bounded."""

from __future__ import annotations

import time

from hardware.backends import build_hardware
from hardware.config import HardwareConfig
from hardware.dice_tray import DiceTray
from hardware.dice_tray_protocol import ack, expect_line
from hardware.inputs import TrayRoll


def test_the_simulated_tray_keeps_reading_its_acks_so_thousands_of_rolls_flow() -> None:
    rolls: list[TrayRoll] = []
    answer: list = []

    def emit(event: object) -> None:
        if isinstance(event, TrayRoll):
            rolls.append(event)
            answer[0]({"seq": event.seq, "epoch": event.epoch}, None)  # recorded: ACK it

    hardware = build_hardware(HardwareConfig(), sim=True, emit=emit)
    answer.append(hardware.answer_tray)
    try:
        assert DiceTray.wait_for(lambda: hardware.tray.status()["state"] == "connected", 5)
        for seq in range(1, 3001):  # ~40 KB of ACKs back: more than a pseudo-terminal buffers
            hardware.sim.tray.send(f"ROLL,{seq},d20x5,{5 * (1 + seq % 20)}")
        assert DiceTray.wait_for(lambda: len(rolls) == 3000, 20), len(rolls)
        assert ack(3000) in hardware.sim.tray.read(5, until=ack(3000))
        hardware.expect("d8foul")
        assert expect_line("d8foul") in hardware.sim.tray.read(2, until=expect_line("d8foul"))
    finally:
        hardware.close()


def test_a_tray_that_stops_reading_costs_a_bounded_wait_per_write(tmp_path) -> None:
    import os

    master, slave = os.openpty()
    name = os.ttyname(slave)
    os.close(slave)
    tray = DiceTray(name, lambda event: None, backoff=(0.01, 0.05))
    try:
        assert tray.wait_connected(5)
        started = time.monotonic()
        for n in range(20000):  # nobody reads the master end: its buffer fills, writes time out
            tray.expect("d20x5" if n % 2 else "d6")
        assert time.monotonic() - started < 2  # the caller never waits on the port
        assert tray.status()["state"] == "connected"
    finally:
        tray.close()
        os.close(master)
