"""A QR code as a Kivy texture (segno draws it: pure Python, no native library).

``qr_png(text)`` is the picture; ``qr_texture(text)`` the texture the game end screen shows, its
modules kept square when scaled up. Error correction M: a phone still reads it off a glossy screen.

>>> png = qr_png("Lucy 12 - 9 Karl")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
from typing import Any

import segno

QUIET_ZONE = 2  # modules of white around the code: phones need some margin to find it


def qr_png(text: str, scale: int = 4) -> bytes:
    out = io.BytesIO()
    # Beyond ASCII ("·", "Jörg"), bytes without a stated charset are guessed by readers (zbar read
    # Latin-1 "·" as Shift JIS): UTF-8 with its ECI header says which. ASCII stays plain, readable by all.
    plain = text.isascii()
    segno.make(text, error="m", micro=False, encoding=None if plain else "utf-8", eci=not plain).save(
        out, kind="png", scale=scale, border=QUIET_ZONE)
    return out.getvalue()


def qr_texture(text: str) -> Any:
    from kivy.core.image import Image as CoreImage

    texture = CoreImage(io.BytesIO(qr_png(text)), ext="png").texture
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture
