"""Home-screen scenarios for the real kiosk (run by tests/test_kiosk_home.py):

    python tests/kiosk_home_driver.py SCENARIO --socket PATH --out DIR [--size 800x480]

``abandon_and_delete``: from Home, Abandon #1 is asked first (Keep it changes nothing), then
abandoned; Delete #2 (the game on the table) asked, then deleted for good. ``appliance_keys``: the
fullscreen appliance ignores Escape and the window manager's close. ``delete_question``: the
question Delete asks, for docs/kiosk.md. Screenshots land in DIR.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from kiosk_driver import Driver, Step, run, tap, wait_for


def question(app: Any) -> Any | None:
    """The confirmation open over the screen, if any (a ModalView sits on the Window, not the root)."""
    from kivy.core.window import Window

    from kiosk.confirm import ConfirmView

    return next((w for w in Window.children if isinstance(w, ConfirmView)), None)


def status_of(app: Any, game_id: int) -> str | None:
    return next((g.get("status") for g in app.saved_games if g.get("id") == game_id), None)


def answer(driver: Driver, label: str) -> Step:
    yield wait_for("the question", lambda app: question(app) is not None)
    yield from tap(driver, label, exact=True, within=question(driver.app))
    yield wait_for("the question closed", lambda app: question(app) is None)


def abandon_and_delete(driver: Driver) -> Step:
    app = driver.app
    yield wait_for("the game on the table", lambda app: app.screens.current == "gameend")
    yield from tap(driver, "Home", exact=True)
    yield wait_for("the saved games", lambda app: driver.button("Abandon #1", exact=True) is not None
                   and driver.button("Delete #2", exact=True) is not None)
    driver.report["home_texts"] = driver.texts()
    driver.shot("80-home-saved-games")
    yield from tap(driver, "Abandon #1", exact=True)
    yield wait_for("the question", lambda app: question(app) is not None)
    view = question(app)
    driver.report["abandon_question"] = [view.ids.title.text, view.ids.message.text,
                                         view.ids.cancel.text, view.ids.confirm.text]
    driver.shot("81-abandon-question")
    yield from answer(driver, "Keep it")
    app.refresh_games()
    yield wait_for("the list again", lambda app: status_of(app, 1) is not None)
    driver.report["status_after_keep_it"] = status_of(app, 1)
    yield from tap(driver, "Abandon #1", exact=True)
    yield from answer(driver, "Abandon")
    yield wait_for("game 1 abandoned", lambda app: status_of(app, 1) == "abandoned")
    driver.report["notice_after_abandon"] = app.notice_text
    driver.report["texts_after_abandon"] = driver.texts()
    driver.shot("82-abandoned")
    # Escape on the question is "Keep it" and goes no further (it would close a window).
    yield from tap(driver, "Delete #2", exact=True)
    yield wait_for("the question", lambda app: question(app) is not None)
    from kivy.core.window import Window

    Window.dispatch("on_keyboard", 27, 9, None, [])
    yield wait_for("the question closed by Escape", lambda app: question(app) is None)
    app.refresh_games()
    yield wait_for("the list again", lambda app: status_of(app, 2) is not None)
    driver.report["status_after_escape"] = status_of(app, 2)
    yield from tap(driver, "Delete #2", exact=True)
    yield wait_for("the question", lambda app: question(app) is not None)
    view = question(app)
    driver.report["delete_question"] = [view.ids.title.text, view.ids.message.text,
                                        view.ids.cancel.text, view.ids.confirm.text]
    driver.shot("83-delete-question")
    yield from answer(driver, "Delete for good")
    yield wait_for("game 2 gone", lambda app: app.saved_games and status_of(app, 2) is None)
    yield wait_for("no game on the table", lambda app: app.snapshot is None)
    driver.report["notice_after_delete"] = app.notice_text
    driver.report["texts_after_delete"] = driver.texts()
    driver.report["screen_after_delete"] = app.screens.current
    driver.shot("84-deleted")


def appliance_keys(driver: Driver) -> Step:
    """Fullscreen on the table: Escape and the window manager's close do nothing; the kiosk runs on."""
    from kivy.core.window import Window

    app = driver.app
    app.closable = False
    yield wait_for("home", lambda app: app.screens.current == "home")
    escape_handled = Window.dispatch("on_keyboard", 27, 9, None, [])
    close_refused = Window.dispatch("on_request_close")
    frames = [0]

    def later(_app: Any) -> bool:
        frames[0] += 1
        return frames[0] >= 5

    yield wait_for("a few frames", later)  # the app would have stopped by now: it is still ticking
    driver.report["escape_handled"] = bool(escape_handled)
    driver.report["close_refused"] = bool(close_refused)
    driver.report["still_running"] = app.root is not None and app.root.get_root_window() is not None


def delete_question(driver: Driver) -> Step:
    """For docs/kiosk.md: Home, Delete #1 tapped, the question shown (then Keep it: nothing changes)."""
    yield wait_for("the game in play", lambda app: app.screens.current == "resolve")
    yield from tap(driver, "Home", exact=True)
    yield wait_for("the saved games", lambda app: driver.button("Delete #1", exact=True) is not None)
    yield from tap(driver, "Delete #1", exact=True)
    yield wait_for("the question", lambda app: question(app) is not None)
    yield wait_for("a frame", lambda app: True)
    driver.shot("delete-question")
    yield from answer(driver, "Keep it")


SCENARIOS = {"abandon_and_delete": abandon_and_delete, "appliance_keys": appliance_keys,
             "delete_question": delete_question}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--step-timeout", type=float, default=20.0)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.size = (width, height)
    args.sim, args.marker, args.screens = False, None, ""
    args.out.mkdir(parents=True, exist_ok=True)
    return run(SCENARIOS[args.scenario], args)


if __name__ == "__main__":
    sys.exit(main())
