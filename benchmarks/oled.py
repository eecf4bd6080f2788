"""Bytes on the I2C bus per scoreboard update: the partial driver against luma's full frame.

Run: ``python benchmarks/oled.py``. A real luma ``ssd1306`` (and ``sh1106``) drives
``hardware.oled_ram_model.ControllerModel`` through luma's own ``i2c`` interface; every write is
recorded, and the picture the model ends with is checked against a full render.

How bus time is estimated (400 kHz I2C, 2.5 us a bit):
- every byte on the wire takes 9 bit times (8 data bits + ACK);
- a transaction costs START + the address byte + the control byte (0x00 command / 0x40 data)
  + its payload + STOP, so (2 + n) bytes * 9 + 2 bit times;
- transactions are counted as smbus2 sends them on the Pi (luma's managed mode): one per
  ``command()`` call, one per ``data()`` call up to 4,096 bytes (``i2c_rdwr``). The model itself
  receives data in 32-byte SMBus blocks; consecutive data blocks are merged back into one call;
- clock stretching, driver latency and Python time are not included (the last is shown apart).
"""

from __future__ import annotations

import time
from dataclasses import replace

from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import ImageChops

from companion.game import ScoreboardView, SideView
from hardware.oled_layout import render
from hardware.oled_partial import PagedUpdater
from hardware.oled_ram_model import ControllerModel

BIT_S = 1 / 400_000

BASE = ScoreboardView("valley_hoopers", (SideView("Hoopers", 42, 3), SideView("Dunkers", 38, 5, bonus=True)),
                      "Q2", "7:45", possession=0, message="Chus Kinder to shoot")
UPDATES = {
    "score change (42->44)": replace(BASE, sides=(SideView("Hoopers", 44, 3), BASE.sides[1])),
    "clock change (7:45->7:44)": replace(BASE, clock="7:44"),
    "target appears (55)": replace(BASE, target=55),
    "possession flips": replace(BASE, possession=1),
    "message changes": replace(BASE, message="Dunkers ball"),
    "team foul + bonus": replace(BASE, sides=(SideView("Hoopers", 42, 5, bonus=True), BASE.sides[1])),
}


def wire(model: ControllerModel) -> tuple[int, int, float]:
    """(transactions, bytes on the wire, seconds at 400 kHz) of what the model received."""
    calls: list[tuple[int, int]] = []  # (control, payload length) per luma call
    for t in model.transactions:
        if t.control == 0x40 and calls and calls[-1][0] == 0x40 and calls[-1][1] + len(t.payload) <= 4096:
            calls[-1] = (0x40, calls[-1][1] + len(t.payload))
        else:
            calls.append((t.control, len(t.payload)))
    wire_bytes = sum(2 + n for _, n in calls)
    seconds = sum((2 + n) * 9 + 2 for _, n in calls) * BIT_S
    return len(calls), wire_bytes, seconds


def measure(chip: str, after: ScoreboardView) -> dict[str, float]:
    cls = sh1106 if chip == "sh1106" else ssd1306
    full_model = ControllerModel(chip)
    full = cls(i2c(bus=full_model, address=0x3C))
    full.display(render(BASE))
    full_model.reset_counts()
    full.display(render(after))
    part_model = ControllerModel(chip)
    updater = PagedUpdater(cls(i2c(bus=part_model, address=0x3C)))
    updater.display(render(BASE))
    part_model.reset_counts()
    started = time.perf_counter()
    updater.display(render(after))
    cpu = time.perf_counter() - started
    assert part_model.ram == full_model.ram, "partial update left a different picture"
    assert ImageChops.difference(part_model.image(), render(after)).getbbox() is None
    f_tx, f_bytes, f_s = wire(full_model)
    p_tx, p_bytes, p_s = wire(part_model)
    return {"full_bytes": f_bytes, "full_ms": f_s * 1000, "part_tx": p_tx, "part_bytes": p_bytes,
            "part_ms": p_s * 1000, "cpu_ms": cpu * 1000}


def main() -> None:
    for chip in ("ssd1306", "sh1106"):
        print(f"\n{chip} 128x64 on I2C at 400 kHz (bytes on the wire incl. address and control bytes)")
        header = f"{'update':28} {'full B':>7} {'full ms':>8} {'part tx':>8} {'part B':>7} {'part ms':>8} " \
                 f"{'share':>6} {'diff+render cpu ms':>19}"
        print(header)
        print("-" * len(header))
        for name, view in UPDATES.items():
            r = measure(chip, view)
            share = r["part_bytes"] / r["full_bytes"]
            print(f"{name:28} {r['full_bytes']:7d} {r['full_ms']:8.2f} {r['part_tx']:8d} "
                  f"{r['part_bytes']:7d} {r['part_ms']:8.2f} {share:6.1%} {r['cpu_ms']:19.2f}")


if __name__ == "__main__":
    main()
