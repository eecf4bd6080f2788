"""One timed newcomer's first minute, in the process ``make run`` starts (run by ``benchmarks/minute.py``):

    python -m benchmarks.minute_walk --game TITLE [--limit 30] [--plans JSON]

This is ``companion run --sim`` itself (``kiosk.launcher.main``: its own simulated service on a
socket of this run, the 800x480 window), with one addition: from the first frame on, a finger taps
what a newcomer taps (tests/kiosk_touch_game.py's Quick start walk: "New game: TITLE", "Quick start",
then what a player going for points taps) until the score changes. Prints one JSON line: wall-clock
times (``time.time()``) of the first frame, the first prompt and the first score shown, and the taps.

The finger waits for nothing but the screen: it taps as soon as the button is there, and after each
answer lets two frames be drawn (the test driver's settling), so the times are the machine's alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the test driver's finger and the Quick start walk

import kiosk_driver  # noqa: E402
from kiosk_touch_game import _next_tap, _quick_start, _score  # noqa: E402

from kiosk import launcher  # noqa: E402

STEP_TIMEOUT = 60.0  # seconds one step may wait on a loaded machine before the walk gives up


class TimedDriver(kiosk_driver.Driver):
    """The test driver's finger, noting the wall time of every finger down."""

    def press(self, text: str, exact: bool = False, within: Any = None) -> Any:
        touch = super().press(text, exact, within)
        self.report.setdefault("tap_walls", []).append(time.time())
        return touch


def walk(driver: kiosk_driver.Driver, title: str, limit: int, prefer: list[str],
         marks: dict[str, Any]) -> kiosk_driver.Step:
    """Home -> New game: TITLE -> Quick start -> the taps to the first score, with the times."""
    marks["to_first_prompt_taps"] = yield from _quick_start(driver, title)
    marks["first_prompt_wall"] = time.time()
    start, score = driver.report["taps"], _score(driver.app)
    steps: list[str] = []
    while _score(driver.app) == score and len(steps) < limit:
        label, within = _next_tap(driver, prefer)
        seq = kiosk_driver.current_seq(driver)
        yield from kiosk_driver.tap(driver, label, exact=True, within=within)
        if label == "0" and within is not None and driver.app.snapshot["prompt"].get("sealed"):
            yield from kiosk_driver.tap(driver, "enter", exact=True, within=within)
        yield kiosk_driver.wait_for(f"the answer to {label!r}", kiosk_driver.settled(driver, seq))
        steps.append(label)
        if driver.app.screens.current != "resolve":
            driver.app.prepare_screen("resolve")
            yield kiosk_driver.wait_for("the play screen", kiosk_driver.on_screen("resolve"))
    marks["first_score_wall"] = time.time()  # the step resumes once the answer's frames are drawn
    marks.update(to_first_score_taps=driver.report["taps"] - start, scored=_score(driver.app) != score,
                 steps=steps)


def drive(app: Any, steps: kiosk_driver.Step, finish: Any) -> None:
    """Run ``steps`` on Kivy's clock, frame by frame (tests/kiosk_driver.py's pacing)."""
    from kivy.clock import Clock

    state: dict[str, Any] = {"waiting": None, "since": 0.0, "settle": 0}

    def tick(_dt: float) -> None:
        try:
            if state["settle"]:
                state["settle"] -= 1
            elif state["waiting"] is not None:
                label, condition = state["waiting"]
                if condition(app) and not app.screens.transition.is_active:
                    state["waiting"] = None
                    state["settle"] = kiosk_driver.SETTLE_FRAMES - 1
                elif time.monotonic() - state["since"] > STEP_TIMEOUT:
                    raise AssertionError(f"timed out waiting for {label} on {app.screens.current}")
            else:
                state["waiting"] = next(steps)
                state["since"] = time.monotonic()
        except StopIteration:
            finish("")
            return
        except Exception:
            finish(traceback.format_exc())
            return
        Clock.schedule_once(tick, 0)

    Clock.schedule_once(tick, 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, help="the game's title as Home shows it")
    parser.add_argument("--limit", type=int, default=30, help="taps after Quick start before giving up")
    parser.add_argument("--plans", type=json.loads, default={}, help='{"TITLE": [choice patterns]}')
    args = parser.parse_args()
    marks: dict[str, Any] = {"game": args.game, "error": "not started"}
    configure = launcher.configure_kivy

    def configure_then_hook(**options: Any) -> None:
        # The launcher configures Kivy, then imports the app class: its first frame now also starts
        # the finger (Kivy may only be imported once configured; a subclass would look for its own
        # .kv file by its class name).
        configure(**options)
        from kiosk.app import CourtsideApp

        first_frame = CourtsideApp._first_frame

        def first_frame_then_walk(app: Any, *frame: Any) -> None:
            first_frame(app, *frame)
            driver = TimedDriver(app, Path(), None)

            def finish(error: str) -> None:
                marks.update(error=error, taps=driver.report["taps"], ready_wall=app.ready_wall,
                             tap_walls=driver.report.get("tap_walls", []))
                app.stop()

            marks["error"] = ""
            drive(app, walk(driver, args.game, args.limit, args.plans.get(args.game, []), marks), finish)

        # Kivy binds a method weakly, by its name: the patched one answers to the same name.
        first_frame_then_walk.__name__ = first_frame.__name__
        CourtsideApp._first_frame = first_frame_then_walk

    launcher.configure_kivy = configure_then_hook
    code = launcher.main(["--sim"])  # exactly `companion run --sim`, as `make run` starts it
    print(json.dumps({"exit_code": code, **marks}), flush=True)
    return 0 if code == 0 and not marks["error"] else 1


if __name__ == "__main__":
    sys.exit(main())
