"""Game end scenarios for the real kiosk (run by tests/test_kiosk_end_screen.py):

    python tests/kiosk_end_driver.py SCENARIO --socket PATH --out DIR [--size 800x480]

``end_fits``: the finished game's end screen, its box score laid out whole inside the window with no
scroll view anywhere on the screen (the cells in reading order: the left half's header and rows, then
the right half's rows) and no cell cut short or broken mid-word (``cut``), then "QR code" tapped: the
large QR code drawn in the box score's place, and "Box score" tapped to come back. ``usb_export``:
the end screen's "USB stick" tapped; the notice the kiosk shows is reported. Screenshots land in DIR.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from kiosk_driver import Driver, Step, run, tap, wait_for


def _end_screen(driver: Driver) -> Step:
    yield wait_for("the game end screen", lambda app: app.screens.current == "gameend"
                   and not app.screens.transition.is_active)
    screen = driver.app.screens.current_screen
    yield wait_for("the box score and the QR code", lambda app: len(screen.ids.box_score.children) > 0
                   and screen.qr_texture is not None)
    for _ in range(4):  # a few frames: the rows are fitted once the area has its size
        yield wait_for("a frame", lambda app: True)


def _cells(screen: Any) -> list[Any]:
    """The box score's cells in reading order; a second half's repeated header is left out."""
    cells: list[Any] = []
    for n, table in enumerate(reversed(screen.ids.box_score.children)):
        mine = list(reversed(table.children))
        cells += mine if n == 0 else mine[table.cols:]
    return cells


def end_fits(driver: Driver) -> Step:
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    yield from _end_screen(driver)
    screen = driver.app.screens.current_screen
    driver.shot("gameend")
    cells = _cells(screen)
    outside = []
    for cell in cells:
        x0, y0 = cell.to_window(cell.x, cell.y)
        if x0 < -1 or y0 < -1 or x0 + cell.width > Window.width + 1 or y0 + cell.height > Window.height + 1:
            outside.append(cell.text)
    from kivy.core.text import Label as CoreLabel

    # A cell whose words are wider than the cell: cut short ("Peri...") or, wrapped, broken mid-word.
    cut = [cell.text for cell in cells
           if max([CoreLabel(font_size=cell.font_size, bold=cell.bold).get_extents(w)[0]
                   for w in (cell.text.split() if not cell.shorten else [cell.text])], default=0)
           > cell.width + 1]
    area = screen.ids.box_area
    grid = screen.ids.box_score
    driver.report.update({
        "box_cells": [c.text for c in cells], "halves": len(grid.children), "outside": outside, "cut": cut,
        "scroll_views": sum(1 for w in screen.walk(restrict=True) if isinstance(w, ScrollView)),
        "grid_height": grid.height, "area_height": area.height,
        "font_size": cells[0].font_size if cells else None, "row_height": cells[0].height if cells else None,
        "qr_text": screen.qr_text, "small_qr": screen.small_qr, "window": list(Window.size)})
    yield from tap(driver, "QR code", exact=True)
    qr, qr_view = screen.ids.qr, screen.ids.qr_view
    yield wait_for("the large QR code", lambda app: qr_view.parent is not None and qr.height > 1)
    for _ in range(2):
        yield wait_for("a frame", lambda app: True)
    driver.shot("gameend-qr")
    driver.report.update({"qr_size": list(qr.norm_image_size), "qr_texture_size": list(qr.texture.size),
                          "box_score_hidden": area.parent is None})
    yield from tap(driver, "Box score", exact=True)
    yield wait_for("the box score again", lambda app: area.parent is not None and qr_view.parent is None)
    for _ in range(2):
        yield wait_for("a frame", lambda app: True)
    driver.report["box_cells_again"] = [c.text for c in _cells(screen)]


def usb_export(driver: Driver) -> Step:
    yield from _end_screen(driver)
    yield from tap(driver, "USB stick", exact=True)
    # "Saving to the USB stick..." first, then the table's answer.
    yield wait_for("the export's answer", lambda app: "USB" in app.notice_text
                   and not app.notice_text.startswith("Saving"))
    driver.report["notice"] = driver.app.notice_text
    driver.report["notice_is_error"] = driver.app.notice_is_error
    driver.shot("usb-export")


SCENARIOS: dict[str, Any] = {"end_fits": end_fits, "usb_export": usb_export}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--sim", action="store_true")
    parser.add_argument("--marker", type=Path, default=None)
    parser.add_argument("--step-timeout", type=float, default=20.0)
    parser.add_argument("--screens", default="")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.size = (width, height)
    args.out.mkdir(parents=True, exist_ok=True)
    return run(SCENARIOS[args.scenario], args)


if __name__ == "__main__":
    sys.exit(main())
