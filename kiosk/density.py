"""Sizes in millimetres on every supported screen: the kiosk's ``dp`` is a fixed 3/16 mm.

The kv files size everything in ``dp`` and ``sp``; Kivy turns those into pixels with the screen's
*density*. We set the density from the screen's pixels per millimetre, so one dp is
``MM_PER_DP`` mm on every screen: the 48 dp finger minimum is 9 mm and 14 sp text is 2.6 mm, on the
7" 800x480 display (5.2 px/mm) as on Touch Display 2 (720x1280, about 8.3 px/mm). Each supported
screen is about 154 x 86 mm (a 7" panel), so in dp every screen is about 822 x 460 (or 460 x 822
upright): one layout fits them all.

``COMPANION_PX_PER_MM`` names the density of another screen; ``KIVY_METRICS_DENSITY`` (Kivy's own
setting) still wins when given.

>>> round(px_per_mm(800, 480), 2), round(px_per_mm(720, 1280), 2)
(5.19, 8.3)
>>> round(density_for(720, 1280), 3), round(48 * density_for(720, 1280) / px_per_mm(720, 1280), 2)
(1.556, 9.0)
>>> px_per_mm(640, 400) is None
True
"""

from __future__ import annotations

import os

MM_PER_DP = 0.1875  # 48 dp = 9 mm (the finger minimum), 14 sp = 2.6 mm (text) everywhere
MIN_TOUCH_MM = 9.0
MIN_TEXT_MM = 2.5  # a font's em size

# The supported screens, by their pixels, with their pixels per millimetre.
SCREENS: dict[tuple[int, int], tuple[str, float]] = {
    (800, 480): ("7\" Touch Display, 154.08 x 85.92 mm", 800 / 154.08),
    (1024, 600): ("7\" 1024x600 HDMI panel, 154.2 x 85.9 mm", 1024 / 154.2),
    (1280, 720): ("Touch Display 2 on its side, about 8.3 px/mm", 8.3),
    (720, 1280): ("Touch Display 2 upright, about 8.3 px/mm", 8.3),
}


def px_per_mm(width: int, height: int) -> float | None:
    """The screen's pixels per millimetre: ``COMPANION_PX_PER_MM``, else the supported screen of
    that size, else ``None`` (unknown: Kivy's own density stays)."""
    given = os.environ.get("COMPANION_PX_PER_MM")
    if given:
        try:
            return float(given)
        except ValueError:
            pass
    known = SCREENS.get((int(width), int(height)))
    return known[1] if known else None


def density_for(width: int, height: int) -> float | None:
    found = px_per_mm(width, height)
    return None if found is None else found * MM_PER_DP


def apply(width: int, height: int) -> float:
    """Set Kivy's density for this window size (before the screens are built); the density in use."""
    from kivy.metrics import Metrics

    if not os.environ.get("KIVY_METRICS_DENSITY"):
        density = density_for(width, height)
        if density is not None:
            Metrics.density = density
    return float(Metrics.density)


def current_px_per_mm() -> float:
    """Pixels per millimetre as the kiosk draws now (from Kivy's density)."""
    from kivy.metrics import Metrics

    return float(Metrics.density) / MM_PER_DP
