"""The Hoop Godz touch scenario for the real kiosk (run by tests/test_hoop_godz_kiosk.py):

    python tests/hoop_godz_kiosk_driver.py --socket PATH --out DIR [--size 800x480]

From the home screen: a new Hoop Godz game set up by touch, the draft and the tip-off tapped, the
tip-off raced on the two race pads (with B-Ball 4 All on: they flash the beat; both at once: a tie
nobody holds the TIE BREAKER for, rolled again; then Home alone), a SHOOT unanswered and the BALL
count tapped on the pad: a scored shot; then two more threes to the end of the game (the box score).
Screenshots of each step land in DIR.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from kiosk_driver import Driver, Step, on_screen, run, settled, tap, wait_for

DRAFT = ("Demo Tower (big)", "Demo Zip (small)", "Demo Flash (small)", "Demo Swing (medium)",
         "Demo Arc (medium)", "Demo Wall (big)")


def prompt_text(app: Any) -> str:
    return str(((app.snapshot or {}).get("prompt") or {}).get("text") or "")


def tap_and_settle(driver: Driver, label: str, exact: bool = True) -> Step:
    seq = int((driver.app.snapshot or {}).get("seq", -1))
    yield from tap(driver, label, exact=exact, within=driver.app.screens.current_screen)
    yield wait_for(f"the answer to {label!r}", settled(driver, seq))


def scored_shot(driver: Driver) -> Step:
    yield wait_for("the game list", lambda app: driver.button("New game: Hoop Godz") is not None)
    yield from tap(driver, "New game: Hoop Godz")
    yield wait_for("setup", on_screen("setup"))
    driver.shot("01-setup")
    driver.report["setup_texts"] = driver.texts()
    # The B-Ball 4 All variant: the race screen will flash a beat.
    yield from tap(driver, "B-Ball 4 All: roll together to the app's beat", exact=True)
    yield from tap(driver, "Start game")
    yield wait_for("the draft", lambda app: app.screens.current == "resolve" and "draft" in prompt_text(app))
    driver.shot("02-draft")
    for label in DRAFT:
        yield from tap_and_settle(driver, label)
    yield from tap_and_settle(driver, "tip-off: Demo Tower and Demo Zip")
    yield wait_for("the race pads", lambda app: driver.button("Home: press!") is not None
                   and driver.button("Away: press!") is not None)
    # Any flash, not the first: the beats come every 1.5 s by the clock, and on a loaded machine the
    # frames between the pads' build and this wait can take longer than the first beat lasts.
    yield wait_for("a flash of the beat", lambda app: driver.shows("ROLL! ("))
    driver.shot("03-race-pads")
    driver.report["beat_seen"] = True
    # Both pads in the same instant: a tie, and nobody holds the TIE BREAKER yet: roll again.
    seq = int(driver.app.snapshot["seq"])
    driver.tap_together(["Away: press!", "Home: press!"], exact=True)
    yield wait_for("the tie", settled(driver, seq))
    driver.report["after_tie"] = prompt_text(driver.app)
    yield wait_for("fresh race pads", lambda app: driver.button("Home: press!") is not None)
    # Home alone: the window closes and Home wins the tip-off.
    seq = int(driver.app.snapshot["seq"])
    driver.tap("Home: press!", exact=True)
    yield wait_for("the tip-off decided", settled(driver, seq))
    driver.report["after_race"] = prompt_text(driver.app)
    driver.shot("04-home-active")
    yield from tap_and_settle(driver, "SHOOT by Demo Swing: 3 pts, difficulty 1")
    yield from tap_and_settle(driver, "no response")
    yield wait_for("the BALL pad", lambda app: driver.button("2", exact=True) is not None)
    driver.shot("05-final-roll")
    driver.report["final_roll"] = prompt_text(driver.app)
    yield from tap_and_settle(driver, "2")
    driver.report["score_text"] = driver.app.score_text
    driver.report["after_shot"] = prompt_text(driver.app)
    driver.app.prepare_screen("table")
    yield wait_for("the table screen", on_screen("table"))
    for _ in range(3):
        yield wait_for("a frame", lambda app: True)
    driver.shot("06-table")
    # Then to the end of the game: Away ends his turns, Home shoots two more threes unanswered.
    driver.app.prepare_screen("resolve")
    yield wait_for("the play screen", on_screen("resolve"))
    for _ in range(2):
        yield from tap_and_settle(driver, "end turn")
        yield from tap_and_settle(driver, "SHOOT by Demo Swing: 3 pts, difficulty 1")
        yield from tap_and_settle(driver, "no response")
        yield wait_for("the BALL pad", lambda app: driver.button("3", exact=True) is not None)
        yield from tap_and_settle(driver, "3")
    yield wait_for("the game's end", lambda app: bool((app.snapshot or {}).get("outcome"))
                   and app.screens.current == "gameend")
    for _ in range(3):
        yield wait_for("a frame", lambda app: True)
    driver.report["end_texts"] = driver.texts()
    driver.shot("07-game-end")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--step-timeout", type=float, default=20.0)
    args = parser.parse_args()
    args.sim, args.marker, args.screens = True, None, ""
    width, height = (int(v) for v in args.size.split("x"))
    args.size = (width, height)
    args.out.mkdir(parents=True, exist_ok=True)
    return run(scored_shot, args)


if __name__ == "__main__":
    sys.exit(main())
