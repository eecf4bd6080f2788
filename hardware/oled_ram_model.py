"""A model of an SSD1306 or SH1106 controller on the I2C bus: what the glass would show, byte-exact.

It has the ``write_i2c_block_data`` method luma's ``i2c(bus=...)`` interface writes through, so a
*real* luma ``ssd1306``/``sh1106`` device drives it exactly as it drives the chip: commands update
the address pointers (horizontal addressing with a column/page window on SSD1306, page addressing
on SH1106), data lands in display RAM. Used by the tests (a partial update must leave the same RAM
as a full frame), by the benchmark (bytes and transactions on the bus) and to play an unplugged
display (``unplugged = True`` raises errno 121 like the kernel's I2C driver).

>>> from luma.core.interface.serial import i2c
>>> from luma.oled.device import ssd1306
>>> chip = ControllerModel("ssd1306")
>>> device = ssd1306(i2c(bus=chip, address=0x3C))
>>> chip.display_on, chip.contrast
(True, 207)
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field

from PIL import Image

# Extra argument bytes that follow each command byte (commands not listed take none).
ARGS = {
    "ssd1306": {0x81: 1, 0xD5: 1, 0xA8: 1, 0xD3: 1, 0x8D: 1, 0x20: 1, 0xDA: 1, 0xD9: 1, 0xDB: 1,
                0x21: 2, 0x22: 2, 0xA3: 2},
    # SH1106 has no memory-mode or window commands; luma still sends 0x8D 0x14 (harmless there).
    "sh1106": {0x81: 1, 0xD5: 1, 0xA8: 1, 0xD3: 1, 0x8D: 1, 0xAD: 1, 0xDA: 1, 0xD9: 1, 0xDB: 1},
}


@dataclass
class Transaction:
    """One I2C write as it crosses the wire: control byte (0x00 command, 0x40 data) and payload."""

    control: int
    payload: list[int] = field(default_factory=list)


class ControllerModel:
    """An SSD1306 (128 columns) or SH1106 (132 columns of RAM) with 8 pages of display RAM."""

    def __init__(self, chip: str = "ssd1306", pages: int = 8):
        if chip not in ARGS:
            raise ValueError(f"unknown chip {chip!r} (known: {', '.join(ARGS)})")
        self.chip = chip
        self.columns = 132 if chip == "sh1106" else 128
        self.ram = [bytearray(self.columns) for _ in range(pages)]
        self.transactions: list[Transaction] = []
        self.unplugged = False
        self.display_on = False
        self.contrast = 0x7F
        self.horizontal = chip == "ssd1306"  # luma sets horizontal addressing on SSD1306
        self._window = (0, self.columns - 1, 0, pages - 1)
        self._col = 0
        self._page = 0

    # -- the smbus surface luma's i2c interface calls ---------------------------------------

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        if self.unplugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.transactions.append(Transaction(control, list(data)))
        if control == 0x00:
            self._commands(list(data))
        else:
            for byte in data:
                self._write(byte)

    # -- accounting -------------------------------------------------------------------------

    def reset_counts(self) -> None:
        self.transactions.clear()

    @property
    def payload_bytes(self) -> int:
        return sum(len(t.payload) for t in self.transactions)

    @property
    def data_bytes(self) -> int:
        return sum(len(t.payload) for t in self.transactions if t.control == 0x40)

    def image(self, width: int = 128) -> Image.Image:
        """The RAM as the panel shows it (SH1106: columns 2..129), a 1-bit image."""
        offset = 2 if self.chip == "sh1106" else 0
        image = Image.new("1", (width, len(self.ram) * 8), 0)
        pixels = image.load()
        for page, row in enumerate(self.ram):
            for x in range(width):
                byte = row[x + offset]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 255
        return image

    # -- the controller --------------------------------------------------------------------

    def _commands(self, data: list[int]) -> None:
        i = 0
        while i < len(data):
            cmd = data[i]
            nargs = ARGS[self.chip].get(cmd, 0)
            args = data[i + 1:i + 1 + nargs]
            i += 1 + nargs
            self._command(cmd, args)

    def _command(self, cmd: int, args: list[int]) -> None:
        if cmd == 0xAE:
            self.display_on = False
        elif cmd == 0xAF:
            self.display_on = True
        elif cmd == 0x81:
            self.contrast = args[0]
        elif cmd == 0x20 and self.chip == "ssd1306":
            self.horizontal = args[0] == 0x00
        elif cmd == 0x21 and self.chip == "ssd1306":
            self._window = (args[0], args[1], self._window[2], self._window[3])
            self._col = args[0]
        elif cmd == 0x22 and self.chip == "ssd1306":
            self._window = (self._window[0], self._window[1], args[0], args[1])
            self._page = args[0]
        elif 0xB0 <= cmd <= 0xB7:
            self._page = cmd & 0x07
        elif cmd <= 0x0F:
            self._col = (self._col & 0xF0) | cmd
        elif 0x10 <= cmd <= 0x1F:
            self._col = (self._col & 0x0F) | ((cmd & 0x0F) << 4)

    def _write(self, byte: int) -> None:
        if self._page < len(self.ram) and self._col < self.columns:
            self.ram[self._page][self._col] = byte
        if not self.horizontal:  # page addressing: the column advances, the page never does
            self._col = min(self._col + 1, self.columns)
            return
        col0, col1, page0, page1 = self._window
        if self._col >= col1:
            self._col = col0
            self._page = page0 if self._page >= page1 else self._page + 1
        else:
            self._col += 1
