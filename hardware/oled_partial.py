"""Partial updates for page-addressed monochrome OLEDs (SSD1306, SSD1309, SH1106).

luma.oled's ``ssd1306.display()`` sends the whole 1,024-byte frame every time; on a 400 kHz I2C bus
that is about 25 ms per frame for a one-digit score change. ``PagedUpdater`` keeps the last frame
in the controller's own layout (one byte = 8 vertical pixels of a page), finds the pages and
column range that changed, and sends only those through the device's own ``command()`` and
``data()``. On SSD1306/SSD1309 a change down several pages goes out as one column/page window in
horizontal addressing (which luma's init selects), a change within one page in page addressing
(three command bytes instead of six; the mode is switched when the kind of window changes); the
SH1106 only has page addressing. The first frame, and the first after ``invalidate()`` (a re-init),
goes out whole.

>>> pages = frame_pages(Image.new("1", (128, 64), 1), 128, 64)
>>> len(pages), len(pages[0]), pages[0][0]
(8, 128, 255)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

# SSD1306 commands (datasheet section 10): window addressing in horizontal addressing mode, the
# memory mode itself (0x20 then 0x00 horizontal, 0x02 page), and page addressing's page and column.
COLUMNADDR = 0x21
PAGEADDR = 0x22
MEMORYMODE = 0x20
HORIZONTAL, PAGE_MODE = 0x00, 0x02
# Page addressing's page command (SH1106 and SSD1306 alike); the column follows as two nibbles.
PAGE_START = 0xB0
# SH1106: page mode only; the 132-column RAM shows columns 2..129 on a 128-wide panel.
SH1106_PAGE = PAGE_START
SH1106_COLUMN_OFFSET = 2


# Bit-reversal of every byte: PIL packs the leftmost pixel into the most significant bit, the
# controller wants the top row in the least significant one.
_REVERSED_BITS = bytes(int(f"{n:08b}"[::-1], 2) for n in range(256))


def frame_pages(image: Image.Image, width: int, height: int) -> list[bytes]:
    """The image as controller RAM: ``height // 8`` pages of ``width`` bytes, bit 0 the top row.

    Done in C by PIL and ``bytes`` (transposed, each column's 8-row groups become bytes, bits
    reversed, then every page picked out with a strided slice): a Python loop over the 8,192
    pixels cost more than luma's own ``display()``.
    """
    columns = image.convert("1").transpose(Image.Transpose.TRANSPOSE).tobytes()  # one row per column
    stride = (height + 7) // 8
    data = columns[:width * stride].translate(_REVERSED_BITS)
    return [data[page::stride] for page in range(height // 8)]


def changed_runs(old: bytes, new: bytes, gap: int) -> list[tuple[int, int]]:
    """The column runs ``(first, last)`` where two equal-length pages differ.

    Runs closer than ``gap`` unchanged bytes are one run: resending a few unchanged bytes is
    cheaper than opening another window. Found in C: the XOR of the two pages as one integer, and
    ``bytes.find`` over it for the unchanged gaps.
    """
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    runs: list[tuple[int, int]] = []
    quiet = bytes(max(1, gap))
    start = len(diff) - len(diff.lstrip(b"\0"))
    end = len(diff.rstrip(b"\0"))
    while start < end:
        stop = diff.find(quiet, start, end)  # the next stretch of >= gap unchanged bytes
        if stop < 0:
            runs.append((start, end - 1))
            break
        last = stop - 1
        while last > start and diff[last] == 0:
            last -= 1
        runs.append((start, last))
        start = stop + len(quiet)
        while start < end and diff[start] == 0:
            start += 1
    return runs


@dataclass(frozen=True)
class Window:
    """A rectangle of RAM to rewrite: pages ``page0..page1`` and columns ``col0..col1`` inclusive."""

    page0: int
    page1: int
    col0: int
    col1: int

    @property
    def area(self) -> int:
        return (self.page1 - self.page0 + 1) * (self.col1 - self.col0 + 1)


# Bytes on the wire to open a window, besides its data: two I2C transactions (address and control
# byte each) and the six bytes of COLUMNADDR + PAGEADDR for a window down several pages; a window
# within one page needs only the three page-addressing commands (SH1106 pays those for every page).
WINDOW_COST = 2 + 6 + 2
PAGE_COST = 2 + 3 + 2
SH1106_PAGE_COST = PAGE_COST


def _cost(window: Window) -> int:
    return window.area + (PAGE_COST if window.page0 == window.page1 else WINDOW_COST)


def changed_windows(old: list[bytes] | None, new: list[bytes], *, per_page: bool = False) -> list[Window]:
    """Windows covering every changed byte, chosen to put few bytes on the bus.

    Each page's changes are split into runs wherever a gap costs more than a window; a run is
    folded into the window of the page above when the merged rectangle costs no more than the two
    apart. ``per_page`` (SH1106: every page needs its own commands anyway) never folds pages.
    ``old=None`` (nothing on the panel yet) gives the whole screen.
    """
    width = len(new[0])
    if old is None:
        return [Window(0, len(new) - 1, 0, width - 1)]
    cost = PAGE_COST
    done: list[Window] = []
    open_: list[Window] = []  # windows that reach the previous page and may grow down
    for page, (a, b) in enumerate(zip(old, new, strict=True)):
        reaching: list[Window] = []
        if a != b:
            for c0, c1 in changed_runs(a, b, cost):
                run = Window(page, page, c0, c1)
                best = None
                if not per_page:
                    for window in open_:
                        merged = Window(window.page0, page, min(window.col0, c0), max(window.col1, c1))
                        if _cost(merged) <= _cost(window) + _cost(run) and (
                                best is None or merged.area - window.area < best[1].area - best[0].area):
                            best = (window, merged)
                if best is None:
                    reaching.append(run)
                else:
                    open_.remove(best[0])
                    reaching.append(best[1])
        done.extend(open_)
        open_ = reaching
    done.extend(open_)
    return sorted(done, key=lambda w: (w.page0, w.col0))


class PagedUpdater:
    """Sends only what changed to a luma ``ssd1306``/``ssd1309``/``sh1106`` device.

    ``display(image)`` replaces ``device.display(image)``; the device's rotation still applies
    (``device.preprocess``). ``bytes_sent`` counts command and data bytes, for the benchmark.
    """

    def __init__(self, device: Any):
        self.device = device
        self.sh1106 = type(device).__name__ == "sh1106"
        self._colstart = getattr(device, "_colstart", 0)
        self._last: list[bytes] | None = None
        self._page_mode = False  # luma's init leaves SSD1306/SSD1309 in horizontal addressing
        self.bytes_sent = 0
        self.commands_sent = 0

    def release(self) -> None:
        """Leave the controller in horizontal addressing, as luma's own ``display()`` expects it
        (before ``device.cleanup()`` clears the screen through it)."""
        if self._page_mode and not self.sh1106:
            self._command(MEMORYMODE, HORIZONTAL)
            self._page_mode = False

    def invalidate(self) -> None:
        """Forget what the panel shows (after a re-init or an error): the next frame goes out whole."""
        self._last = None

    def display(self, image: Image.Image) -> list[Window]:
        """Show ``image`` (already ``device.size``), sending the changed windows; returns them."""
        image = self.device.preprocess(image)
        pages = frame_pages(image, self.device.width, self.device.height)
        windows = changed_windows(self._last, pages, per_page=self.sh1106)
        # The windows down several pages first, then those within a page: one mode switch at most.
        for window in sorted(windows, key=lambda w: w.page0 == w.page1):
            if self.sh1106:
                self._send_sh1106(window, pages)
            elif window.page0 == window.page1:
                self._send_page(window, pages)
            else:
                self._send_ssd1306(window, pages)
        self._last = pages
        return windows

    def _command(self, *cmd: int) -> None:
        self.device.command(*cmd)
        self.bytes_sent += len(cmd)
        self.commands_sent += 1

    def _data(self, data: bytes) -> None:
        self.device.data(list(data))
        self.bytes_sent += len(data)

    def _send_ssd1306(self, window: Window, pages: list[bytes]) -> None:
        # The mode switch rides in the same transaction as the window's own commands.
        mode = (MEMORYMODE, HORIZONTAL) if self._page_mode else ()
        self._page_mode = False
        self._command(*mode, COLUMNADDR, self._colstart + window.col0, self._colstart + window.col1,
                      PAGEADDR, window.page0, window.page1)
        rows = range(window.page0, window.page1 + 1)
        self._data(b"".join(pages[p][window.col0:window.col1 + 1] for p in rows))

    def _send_page(self, window: Window, pages: list[bytes]) -> None:
        """One page's run in page addressing (SSD1306/SSD1309): page, column low and high nibble."""
        mode = () if self._page_mode else (MEMORYMODE, PAGE_MODE)
        self._page_mode = True
        column = self._colstart + window.col0
        self._command(*mode, PAGE_START | window.page0, column & 0x0F, 0x10 | (column >> 4))
        self._data(pages[window.page0][window.col0:window.col1 + 1])

    def _send_sh1106(self, window: Window, pages: list[bytes]) -> None:
        column = SH1106_COLUMN_OFFSET + window.col0
        for page in range(window.page0, window.page1 + 1):
            self._command(SH1106_PAGE | page, column & 0x0F, 0x10 | (column >> 4))
            self._data(pages[page][window.col0:window.col1 + 1])
