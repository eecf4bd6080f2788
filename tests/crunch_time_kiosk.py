"""Crunch Time on the real kiosk by touch: a scenario for ``tests/kiosk_driver.py``'s runner.

    python tests/crunch_time_kiosk.py --socket PATH --out DIR [--size 800x480] [--sim]

Home -> a new Crunch Time game -> the setup form (two coaches, no court) -> the tip-off -> a Shot
card whose zones are tapped on the zone grid -> a Star card -> the possession scored; then the
Table screen with the lead's tug-of-war bar. Screenshots of each step land in ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk_driver import Driver, Step, current_seq, on_screen, run, settled, tap, wait_for  # noqa: E402

TITLE = "New game: Basketball Highlights: Crunch Time"


def grid_cells(driver: Driver) -> list[str]:
    """The choice labels of the zone grid's buttons on the Play screen."""
    matrix = driver.app.screens.get_screen("resolve").ids.get("matrix")
    if matrix is None:
        return []
    return [getattr(w, "choice_label", "") for w in matrix.children[::-1] if getattr(w, "choice_label", "")]


def tap_choice(driver: Driver, label: str) -> Step:
    seq = current_seq(driver)
    yield from tap(driver, label, exact=True, within=driver.app.screens.current_screen)
    yield wait_for(f"the answer to {label!r}", settled(driver, seq))


def possession_by_touch(driver: Driver) -> Step:
    yield wait_for("home", lambda app: driver.button(TITLE) is not None)
    yield from tap(driver, TITLE)
    yield wait_for("setup", on_screen("setup"))
    yield from tap(driver, "Two coaches", exact=True)
    yield from tap(driver, "None (enter zones)", exact=True)
    driver.shot("01-setup")
    yield from tap(driver, "Start game")
    yield wait_for("the tip-off", lambda app: app.screens.current == "resolve" and app.snapshot
                   and app.snapshot["prompt"]["commands"] == ["tip_off"])
    driver.report["first_prompt"] = driver.app.snapshot["prompt"]["text"]
    yield from tap_choice(driver, "Red wins the tip-off")
    yield from tap_choice(driver, "Red: a Shot card")
    driver.report["grid_cells"] = grid_cells(driver)
    driver.shot("02-play-zone-grid")
    yield from tap_choice(driver, "3-pt zone: open")
    yield from tap_choice(driver, "2-pt zone: defended")
    yield from tap_choice(driver, "Red Star on card 1 zone 1 (3)")
    driver.shot("03-play-star")
    yield from tap_choice(driver, "score the possession")
    yield wait_for("a frame", lambda app: True)
    driver.report["score_after"] = driver.app.score_text
    driver.report["prompt_after"] = driver.app.snapshot["prompt"]["text"]
    driver.report["lead_after"] = driver.app.snapshot["scoreboard"]["lead"]
    driver.shot("04-play-after-score")
    yield from tap(driver, "Table", exact=True)
    yield wait_for("the table", lambda app: app.screens.current == "table"
                   and not app.screens.transition.is_active)
    for _ in range(3):
        yield wait_for("a frame", lambda app: True)
    bars = [w for w in driver.visible_widgets() if type(w).__name__ == "LeadBar"]
    driver.report["lead_bars"] = [round(float(b.share), 3) for b in bars]
    driver.report["table_texts"] = driver.texts()
    driver.shot("05-table")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--sim", action="store_true")
    parser.add_argument("--step-timeout", type=float, default=15.0)
    args: Any = parser.parse_args()
    args.marker, args.screens = None, ""
    width, height = (int(v) for v in args.size.split("x"))
    args.size = (width, height)
    args.out.mkdir(parents=True, exist_ok=True)
    return run(possession_by_touch, args)


if __name__ == "__main__":
    sys.exit(main())
