"""Latency at the table: a button edge on a mock pin -> command committed -> frame handed to the display.

    .venv/bin/python benchmarks/latency.py [--presses 1000]

Plays the Valley Hoopers full-game script again and again on simulated hardware. Every command is
entered with a CONFIRM press (the encoder dials the choice or the die face first, untimed); the
clock starts at ``drive_low()`` on the CONFIRM pin and stops when the session has committed the
command, and again when the OLED's first frame after the press has been handed to the luma device:
the result of the press and the next choice's words, drawn once rendered, before the entry is written
(``TableService.early_hooks``); ``choice_frame`` is the last frame sent for the press (the same one
since the snapshot after the commit changes nothing on the glass). The time ``Session.handle`` takes
up to that frame (the rules and the renders) is also taken apart, so the rest of the path
(debounce, controls, queue, OLED) can be read alone. The interpreter runs with the
settings ``companion serve`` makes once its table is built (``table.press_tuning``). Prints p50/p99/max.
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

from companion.session import Session  # noqa: E402
from table.press_tuning import tune_for_presses, untune  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def press_latencies(presses: int) -> dict[str, list[float]]:
    """Seconds per CONFIRM press: ``commit`` and ``frame`` from the edge, ``handle`` inside them."""
    options, commands = script()
    to_commit: list[float] = []
    to_frame: list[float] = []
    to_choice: list[float] = []
    in_handle: list[float] = []
    handled: list[float] = []
    original_handle = Session.handle

    handle_started: list[float] = []

    def timed_handle(self, *args, **kwargs):  # instrument the rules + scoreboard, up to the result
        handle_started.append(time.perf_counter())
        return original_handle(self, *args, **kwargs)

    def decided_at(board, snapshot) -> None:  # rendered: the OLED is handed the frame next
        handled.append(time.perf_counter() - handle_started[-1])

    Session.handle = timed_handle  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            table = SimTable(Path(tmp) / "latency.db")
            table.service.early_hooks.insert(0, decided_at)
            tuning = tune_for_presses()  # as companion serve does once its table is built
            panel = next(iter(table.hardware.sim.panels.values()))
            frame_sent = threading.Event()
            original_send = panel._send
            sent_at: list[float] = []

            def timed_send(image):  # instrument the hand-over to the luma device
                original_send(image)
                sent_at.append(time.perf_counter())
                frame_sent.set()

            panel._send = timed_send
            confirm = table.hardware.buttons.pin("CONFIRM")
            while len(to_commit) < presses:
                table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
                for command in commands:
                    if len(to_commit) >= presses:
                        break
                    _dial_to(table, command)
                    seq = table.seq
                    table.hardware.worker.flush()  # the dial's own frame is not this press's
                    frame_sent.clear()
                    sent_at.clear()
                    handled.clear()
                    started = time.perf_counter()
                    confirm.drive_low()
                    if not table.wait_seq(seq + 1, timeout=5):
                        raise SystemExit(f"{command} was not recorded: {table.notices[-3:]}")
                    to_commit.append(time.perf_counter() - started)
                    if frame_sent.wait(5):
                        # Timed where the frame was handed over, not when this thread woke to see it.
                        to_frame.append(next(t for t in sent_at if t >= started) - started)
                        in_handle.append(sum(handled))
                        # The snapshot's frame (the next choice's words) follows the early one.
                        table.hardware.worker.flush()
                        to_choice.append(sent_at[-1] - started)
                    confirm.drive_high()
                    time.sleep(0.03)  # past the release's bounce time before the next press
            table.close()
            untune(tuning)
    finally:
        Session.handle = original_handle  # type: ignore[method-assign]
    return {"commit": to_commit, "frame": to_frame, "choice_frame": to_choice, "handle": in_handle,
            "frame_without_handle": [f - h for f, h in zip(to_frame, in_handle, strict=True)]}


def _dial_to(table: SimTable, command: dict) -> None:
    dial = [entry for _, entry in table.controls.entries()]
    index = dial.index(command)
    steps = (index - table.controls.dial) % len(dial)
    if steps > len(dial) // 2:
        steps -= len(dial)
    if steps:
        table.hardware.dial.turn(steps)
        while table.controls.dial != index:
            time.sleep(0.0005)


def callback_latencies(presses: int) -> list[float]:
    """Seconds from ``drive_low()`` to gpiozero's ``when_changed`` callback on a MockFactory pin."""
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    pin = factory.pin(13)
    pin.function, pin.pull, pin.edges = "input", "up", "both"
    called: list[float] = []

    def changed(ticks: float, state: int) -> None:
        called.append(time.perf_counter())

    pin.when_changed = changed
    out = []
    for _ in range(presses):
        started = time.perf_counter()
        pin.drive_low()
        out.append(called[-1] - started)
        pin.drive_high()
    pin.when_changed = None
    factory.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000)
    args = parser.parse_args()
    times = press_latencies(args.presses)
    times["gpiozero MockFactory callback"] = callback_latencies(args.presses)
    for name, values in times.items():
        ms = [v * 1000 for v in values]
        print(f"{name:32s} n={len(ms):5d}  p50={percentile(ms, 50):6.2f} ms  "
              f"p99={percentile(ms, 99):6.2f} ms  max={max(ms):6.2f} ms  mean={statistics.fmean(ms):6.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
