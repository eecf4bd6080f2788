"""Latency at the table: a button edge on a mock pin -> command committed -> frame handed to the display.

    .venv/bin/python benchmarks/latency.py [--presses 1000]

Plays the Valley Hoopers full-game script again and again on simulated hardware. Every command is
entered with a CONFIRM press (the encoder dials the choice or the die face first, untimed); the
clock starts at ``drive_low()`` on the CONFIRM pin and stops when the session has committed the
command, and again when the OLED's frame has been handed to the luma device. Prints p50/p99/max.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from table_driver import SimTable, script  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000)
    args = parser.parse_args()
    options, commands = script()
    to_commit: list[float] = []
    to_frame: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        table = SimTable(Path(tmp) / "latency.db")
        panel = next(iter(table.hardware.sim.panels.values()))
        frame_sent = threading.Event()
        original_send = panel._send

        def timed_send(image):  # instrument the hand-over to the luma device
            original_send(image)
            frame_sent.set()

        panel._send = timed_send
        confirm = table.hardware.buttons.pin("CONFIRM")
        games = 0
        while len(to_commit) < args.presses:
            table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
            games += 1
            for command in commands:
                if len(to_commit) >= args.presses:
                    break
                dial = [entry for _, entry in table.controls.entries()]
                index = dial.index(command)
                steps = (index - table.controls.dial) % len(dial)
                if steps > len(dial) // 2:
                    steps -= len(dial)
                if steps:
                    table.hardware.dial.turn(steps)
                    while table.controls.dial != index:
                        time.sleep(0.0005)
                seq = table.seq
                frame_sent.clear()
                started = time.perf_counter()
                confirm.drive_low()
                if not table.wait_seq(seq + 1, timeout=5):
                    raise SystemExit(f"{command} was not recorded: {table.notices[-3:]}")
                to_commit.append(time.perf_counter() - started)
                if frame_sent.wait(5):
                    to_frame.append(time.perf_counter() - started)
                confirm.drive_high()
                time.sleep(0.03)  # past the debounce window before the next press
        table.close()
    for name, values in (("edge -> committed", to_commit), ("edge -> frame handed to display", to_frame)):
        ms = [v * 1000 for v in values]
        print(f"{name:32s} n={len(ms):5d}  p50={percentile(ms, 50):6.2f} ms  "
              f"p99={percentile(ms, 99):6.2f} ms  max={max(ms):6.2f} ms  mean={statistics.fmean(ms):6.2f} ms")
    print(f"games played: {games}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
