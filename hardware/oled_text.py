"""The OLEDs' small text: a fixed 5x7 font whose every line fits inside one 8-row controller page.

A page-addressed OLED (SSD1306, SH1106) is rewritten a page (8 rows) at a time, so a line of text
that straddles two pages costs twice the bytes of one that does not. Pillow's built-in font is 11
rows tall (7 for the capitals, descenders below), so every message straddled two pages; this font
is the classic 5x7 LCD character set (``luma.core.legacy.font.LCD_FONT``: 5 columns of 7 rows,
descenders folded up), one column of space after each character. Every character is 6 columns
wide, as Pillow's was, so a message that keeps its first words keeps their pixels, and only the
columns of the characters that differ go to the panel. A cut line ends in two dots, 4 columns.

>>> line_width("Q2 7:45"), line_image("AB").size
(42, (11, 7))
>>> fit_line("Wally Block scores 2 (rolled 50, target 50)", 124)
'Wally Block scores 2…'
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from luma.core.legacy.font import LCD_FONT
from PIL import Image, ImageDraw

CHAR_W = 6  # five columns of glyph and one of space
LINE_H = 7  # rows from the top of a capital to its baseline; nothing is drawn below
CUT = "\u2026"  # marks a cut line: two dots on the baseline, narrower than a character
_CUT_COLUMNS = bytes([0x40, 0x00, 0x40, 0x00])

# The controller's bit order (bit 0 the top row) read as PIL's (the leftmost pixel the top bit).
_REVERSED_BITS = bytes(int(f"{n:08b}"[::-1], 2) for n in range(256))


@cache
def _columns(ch: str) -> bytes:
    """The column bytes of ``ch`` (bit 0 the top row), its space included; accents dropped, unknown
    characters a '?'."""
    if ch == CUT:
        return _CUT_COLUMNS
    code = ord(ch)
    if not 32 <= code < 127:
        base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()[:1]
        code = ord(base) if base and 32 <= ord(base) < 127 else ord("?")
    return bytes(LCD_FONT[code][:CHAR_W - 1]) + b"\0"


@lru_cache(maxsize=256)  # the lines a panel shows again and again; a long game's messages come and go
def line_image(text: str) -> Image.Image:
    """``text`` as a 1-bit mask, ``LINE_H`` rows tall, one column narrower than ``line_width(text)``
    (the last character's space left off). Built in C: the column bytes are rows of the transposed
    image."""
    width = line_width(text) - 1
    if width <= 0:
        return Image.new("1", (1, LINE_H), 0)
    data = b"".join(_columns(ch) for ch in text)[:width].translate(_REVERSED_BITS)
    return Image.frombytes("1", (8, width), data).transpose(Image.Transpose.TRANSPOSE).crop(
        (0, 0, width, LINE_H))


def line_width(text: str) -> int:
    """Width in pixels of ``text``, the space after its last character included (as Pillow measures)."""
    return len(text) * CHAR_W - text.count(CUT) * (CHAR_W - len(_CUT_COLUMNS))


def draw_line(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int = 255) -> None:
    """Draw ``text`` with the top of its capitals at ``xy`` (it covers rows ``y .. y + 6``)."""
    if text:
        draw.bitmap(xy, line_image(text), fill=fill)


def fit_line(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` pixels (``line_width``), marking the cut; at the end of a word when
    one fits in the second half of the line.

    A word cut in half ("scores 2 (rol…") reads worse than a word left out ("scores 2…").
    """
    if line_width(text) <= width:
        return text
    room = (width - len(_CUT_COLUMNS)) // CHAR_W  # characters before the mark
    if room <= 0:
        return ""
    head = text[:room]
    if text[room] != " " and head.rfind(" ") >= room // 2:
        head = head[:head.rfind(" ")]
    return head.rstrip(" ,;:(-") + CUT
