"""Drives the real kiosk with real touches in its own process and prints a JSON report.

    python tests/kiosk_driver.py SCENARIO --socket PATH --out DIR [--size 800x480] [--sim]

A scenario is a generator of steps: it yields a condition (a function of the app that becomes true
when the screen shows what we wait for) and the driver polls it on Kivy's clock, failing after a
timeout. Taps are ``UnitTestTouch`` down/up at a widget's centre, dispatched through the window like a
finger, so a covered or disabled button does not get the tap. Every ``shot`` saves a screenshot and
records the screen's texts and layout problems.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.launcher import configure_kivy  # noqa: E402 - Kivy must be configured before it loads

Condition = Callable[[Any], bool]
SETTLE_FRAMES = 2  # frames drawn after a step's condition holds, before the next step acts
Step = Generator[tuple[str, Condition], None, None]


class Driver:
    """Taps, waits and screenshots for a scenario; collects the report."""

    def __init__(self, app: Any, out: Path, marker: Path | None) -> None:
        self.app = app
        self.out = out
        self.marker = marker
        self.report: dict[str, Any] = {"shots": {}, "taps": 0, "steps": [], "ok": False}
        self.screens: list[str] = []
        self.last_tap_at = 0.0
        self.step_timeout = 15.0  # run() sets the scenario's own

    # -- finding and tapping ---------------------------------------------------------------------------

    def visible_widgets(self) -> list[Any]:
        from kiosk.layout_check import _visible

        return [w for w in self.app.root.walk(restrict=True) if _visible(w)]

    def button(self, text: str, exact: bool = False, within: Any = None) -> Any | None:
        from kivy.uix.button import Button

        from kiosk.layout_check import _visible

        widgets = self.visible_widgets() if within is None else [
            w for w in within.walk(restrict=True) if _visible(w)]
        for widget in widgets:
            if isinstance(widget, Button) and not widget.disabled:
                label = widget.text.replace("\n", " ")
                if label == text or (not exact and label.startswith(text)):
                    return widget
                if getattr(widget, "choice_label", None) == text:  # a cell of the choice grid
                    return widget
        return None

    def tap(self, text: str, exact: bool = False, within: Any = None) -> None:
        """One finger tap at the centre of the visible, enabled button labelled ``text``, optionally
        only among the widgets of ``within`` (a held tap is the ``tap`` step with ``hold=``)."""
        self.press(text, exact, within).touch_up()

    def tap_together(self, texts: list[str], exact: bool = False) -> None:
        """Fingers on several buttons in the same instant, as a touch screen reports fingers that land
        in one frame: every touch is made (and dated: ``time_start``) before any is dispatched.
        Tapping them one after the other would date each after the previous one's whole dispatch and
        the next button's lookup, tens of ms apart on a loaded machine (over a 50 ms race window)."""
        touches = [self._touch(text, exact, None) for text in texts]
        at = min(touch.time_start for touch in touches)
        for touch in touches:
            touch.time_start = at
        for text, touch in zip(texts, touches, strict=True):
            self._down(text, touch)
        for touch in touches:
            touch.touch_up()

    def press(self, text: str, exact: bool = False, within: Any = None) -> Any:
        """A finger down on the button labelled ``text``; returns the touch, for ``touch_up()``."""
        touch = self._touch(text, exact, within)
        self._down(text, touch)
        return touch

    def _touch(self, text: str, exact: bool, within: Any) -> Any:
        """A touch (not yet down) at the centre of the visible, enabled button labelled ``text``."""
        from kivy.tests.common import UnitTestTouch

        widget = self.button(text, exact, within)
        if widget is None:
            raise AssertionError(f"no button {text!r} on screen {self.app.screens.current}: "
                                 f"{[w.text for w in self.visible_widgets() if hasattr(w, 'text')][:60]}")
        x, y = widget.to_window(*widget.center)
        if not self.in_view(widget, x, y):
            raise AssertionError(f"{text!r} is scrolled out of view: call scroll_into_view and yield a frame")
        return UnitTestTouch(x, y)

    def _down(self, text: str, touch: Any) -> None:
        self.last_tap_at = time.monotonic()
        touch.touch_down()
        self.report["taps"] += 1
        self.report["steps"].append(f"tap {text!r} on {self.app.screens.current}")

    def in_view(self, widget: Any, x: float, y: float) -> bool:
        """Whether window point ``x, y`` of ``widget`` is inside every scroll view around it."""
        from kiosk.layout_check import _in_scroll

        scroll = _in_scroll(widget)
        while scroll is not None:
            left, bottom = scroll.to_window(scroll.x, scroll.y)
            if not (left <= x <= left + scroll.width and bottom <= y <= bottom + scroll.height):
                return False
            scroll = _in_scroll(scroll)
        return True

    def scroll_into_view(self, widget: Any) -> None:
        from kiosk.layout_check import _in_scroll

        scroll = _in_scroll(widget)
        if scroll is not None:
            scroll.scroll_to(widget, padding=10, animate=False)
            scroll.update_from_scroll()

    def texts(self) -> list[str]:
        from kiosk.layout_check import describe

        return describe(self.app.root)["texts"]

    def shows(self, text: str) -> bool:
        return any(text in t for t in self.texts())

    def shot(self, name: str) -> None:
        from kiosk.layout_check import describe

        path = self.app.save_screenshot(self.out / f"{name}.png")
        info = describe(self.app.root)
        self.report["shots"][name] = {"path": str(path), "screen": self.app.screens.current, **info}


def wait_for(label: str, condition: Condition) -> tuple[str, Condition]:
    return label, condition


def run(scenario: Callable[[Driver], Step], argv: argparse.Namespace) -> int:
    configure_kivy(sim=argv.sim, size=argv.size, windowed=True)
    from kivy.clock import Clock

    from kiosk.app import CourtsideApp

    app = CourtsideApp(socket_path=argv.socket, sim=argv.sim)
    driver = Driver(app, argv.out, argv.marker)
    driver.step_timeout = argv.step_timeout
    driver.screens = [name for name in argv.screens.split(",") if name]
    steps = scenario(driver)
    state: dict[str, Any] = {"waiting": None, "since": 0.0, "settle": 0}

    def finish(ok: bool, error: str = "") -> None:
        print(f"driver: finished ok={ok} {error}", file=sys.__stderr__, flush=True)
        driver.report["ok"] = ok
        driver.report["error"] = error
        driver.report["ready_seconds"] = app.ready_seconds
        driver.report["ready_wall"] = app.ready_wall
        app.stop()

    # Paced in frames, not seconds: a callback scheduled for 0 runs at the next frame, after the
    # frame between has been laid out and drawn. On a loaded machine frames come later and the
    # pacing stretches with them, which a fixed delay would not.
    def tick(_dt: float) -> None:
        try:
            if state["settle"]:
                state["settle"] -= 1
                Clock.schedule_once(tick, 0)
                return
            if state["waiting"] is not None:
                label, condition = state["waiting"]
                if not condition(app) or app.screens.transition.is_active:
                    if time.monotonic() - state["since"] > argv.step_timeout:
                        raise AssertionError(f"timed out waiting for {label} on {app.screens.current}; "
                                             f"texts: {driver.texts()[:40]}")
                    Clock.schedule_once(tick, 0)
                    return
                # What we waited for is there: let it be laid out and drawn before the next step.
                state["waiting"] = None
                state["settle"] = SETTLE_FRAMES - 1  # this frame's own drawing is the first
                Clock.schedule_once(tick, 0)
                return
            state["waiting"] = next(steps)
            state["since"] = time.monotonic()
        except StopIteration:
            finish(True)
            return
        except Exception:
            finish(False, traceback.format_exc())
            return
        Clock.schedule_once(tick, 0)

    app.ready_callbacks.append(lambda _app: Clock.schedule_once(tick, 0.05))
    app.run()
    print(json.dumps(driver.report), flush=True)
    return 0 if driver.report["ok"] else 1


# -- scenarios ---------------------------------------------------------------------------------------


def _number_pad() -> Any | None:
    from kivy.core.window import Window

    from kiosk.number_pad import NumberPad

    return next((w for w in Window.children if isinstance(w, NumberPad)), None)


def tap(driver: Driver, text: str, exact: bool = False, hold: float = 0.0, within: Any = None) -> Step:
    """Tap a button like a finger would, scrolling it into view first (and letting that frame draw)."""

    def out_of_view() -> Any | None:
        # Looked up afresh each time: a snapshot arriving meanwhile rebuilds the buttons (and may
        # scroll back), and an old button, out of the tree, would still say it is in view.
        widget = driver.button(text, exact, within)
        if widget is None or driver.in_view(widget, *widget.to_window(*widget.center)):
            return None
        return widget

    trace: list[tuple[Any, ...]] = []  # what moved it, for the error if it never holds still

    def scrolled(_app: Any) -> bool:
        # Scroll views settle over a frame or two (and may re-layout): ask again until it shows.
        from kivy.clock import Clock

        from kiosk.layout_check import _in_scroll

        widget = out_of_view()
        if widget is None:
            return True
        scroll = _in_scroll(widget)
        trace.append((Clock.frames, id(widget) % 10**5, round(widget.to_window(*widget.center)[1]),
                      id(scroll) % 10**5, round(getattr(scroll, "scroll_y", -1), 3)))
        driver.scroll_into_view(widget)
        return False

    # Checked again after the frames the wait lets draw, right before the tap: what was in view
    # then may have moved since. Until the step's timeout: a button that never holds still fails.
    deadline = time.monotonic() + driver.step_timeout
    while out_of_view() is not None:
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} never stayed in view; (frame, button, y, scroll, scroll_y): "
                                 f"{trace[-12:]}")
        yield wait_for(f"{text!r} scrolled into view", scrolled)
    if not hold:
        driver.tap(text, exact, within)
        return
    # A held finger: the app keeps running meanwhile, as under a real finger (a ScrollView around the
    # button hands it the touch only after its own timeout, which a blocked loop would never let run).
    touch = driver.press(text, exact, within)
    until = time.monotonic() + hold
    yield wait_for(f"{text!r} held for {hold} s", lambda _app: time.monotonic() >= until)
    touch.touch_up()

def on_screen(name: str) -> Condition:
    return lambda app: app.screens.current == name


def seq_above(seq: int) -> Condition:
    return lambda app: bool(app.snapshot) and app.snapshot.get("seq", -1) > seq


def settled(driver: Driver, after: int) -> Condition:
    """The service answered the last command: a newer snapshot arrived and the screen shows it."""
    return lambda app: bool(app.snapshot) and app.snapshot.get("seq", -1) > after


def current_seq(driver: Driver) -> int:
    return int((driver.app.snapshot or {}).get("seq", -1))


def full_turn(driver: Driver) -> Step:
    """Home -> setup (edit a card) -> start -> a defended, fouled 2-point shot and its free throws ->
    table, history, undo, settings. Screenshots of every screen on the way."""
    yield wait_for("home", on_screen("home"))
    yield wait_for("the game list", lambda app: driver.button("New game: Valley Hoopers") is not None)
    driver.shot("01-home")
    yield from tap(driver, "New game: Valley Hoopers")
    yield wait_for("setup", on_screen("setup"))
    driver.shot("02-setup")
    driver.scroll_into_view(driver.button("Joy Kill: bench"))
    yield wait_for("the line-up in view", lambda app: True)
    driver.shot("02b-setup-lineup")
    # Muy Schillato's card: +5 on the 2-point shot, remembered for this game and the next ones.
    muy_row = driver.button("Muy Schillato: SG", exact=True).parent
    yield from tap(driver, "card", exact=True, within=muy_row)
    yield wait_for("card editor", on_screen("card"))
    fields = driver.app.screens.get_screen("card").ids.fields
    cells = fields.children[::-1]
    stepper = next(cells[i + 1] for i, cell in enumerate(cells) if getattr(cell, "text", None) == "2PS")
    driver.report["card_2ps_before"] = stepper.children[1].text
    # The stat typed on the keypad (tap the number, then its digits: taken on the last one), then
    # stepped down with "-": 60, then 55.
    yield from tap(driver, stepper.children[1].text, exact=True, within=stepper)
    yield wait_for("the number pad", lambda app: _number_pad() is not None)
    driver.shot("03a-card-number-pad")
    for digit in "60":
        yield from tap(driver, digit, exact=True, within=_number_pad())
    yield wait_for("the typed stat", lambda app: _number_pad() is None and stepper.children[1].text == "60")
    driver.report["card_2ps_typed"] = stepper.children[1].text  # 3 taps: the number, 6, 0 (no OK)
    yield from tap(driver, "-", exact=True, within=stepper)
    yield wait_for("the new stat", lambda app: stepper.children[1].text == "55")
    driver.report["card_2ps_after"] = stepper.children[1].text
    driver.shot("03-card-editor")
    yield from tap(driver, "Save card")
    yield wait_for("back to setup", on_screen("setup"))
    yield from tap(driver, "Start game")
    yield wait_for("the first prompt", lambda app: app.screens.current == "resolve" and app.snapshot)
    driver.report["first_prompt"] = driver.app.snapshot["prompt"]["text"]
    driver.shot("04-play-first-attack")
    seq = current_seq(driver)
    yield from tap(driver, "2PS SG Muy Schillato", exact=True)
    yield wait_for("the defense window", settled(driver, seq))
    driver.report["defense_window_target"] = driver.app.screens.get_screen("resolve").target_text
    driver.report["defense_window_chance"] = driver.app.screens.get_screen("resolve").chance_text
    driver.shot("05-defense-window")
    seq = current_seq(driver)
    yield from tap(driver, "defend with Chus Kinder", exact=True)
    yield wait_for("the foul die", settled(driver, seq))
    pad = driver.app.screens.get_screen("resolve").ids.die_pad
    # The faces' names (a face may also show what it gives below its name, from the prompt's face_marks).
    driver.report["foul_die_faces"] = [getattr(w, "choice_label", w.text) for w in pad.children[::-1]]
    driver.shot("06-foul-die")
    seq = current_seq(driver)
    yield from tap(driver, "Whistle", exact=True)
    yield wait_for("the fouled shot", settled(driver, seq))
    resolve = driver.app.screens.get_screen("resolve")
    driver.report["fouled_shot_target"] = resolve.target_text
    driver.report["fouled_shot_chance"] = resolve.chance_text
    driver.report["fouled_shot_message"] = resolve.message_text
    driver.shot("07-fouled-shot")
    seq = current_seq(driver)
    yield from tap(driver, "50", exact=True)
    yield wait_for("the first free throw", settled(driver, seq))
    driver.report["free_throw_prompt"] = resolve.prompt_text
    driver.report["free_throw_target"] = resolve.target_text
    driver.shot("08-free-throw")
    for _ in range(2):
        seq = current_seq(driver)
        yield from tap(driver, "20", exact=True)
        yield wait_for("the free throw", settled(driver, seq))
    driver.report["score_after_turn"] = driver.app.score_text
    driver.report["prompt_after_turn"] = driver.app.snapshot["prompt"]["text"]
    driver.report["top_bar_score"] = driver.app.root.ids.score.text
    driver.shot("09-after-free-throws")
    yield from tap(driver, "Table", exact=True)
    yield wait_for("table", on_screen("table"))
    driver.report["table_texts"] = driver.texts()
    driver.shot("10-table")
    yield from tap(driver, "Log", exact=True)
    yield wait_for("history", on_screen("history"))
    driver.report["history_texts"] = driver.texts()
    driver.shot("11-history")
    seq = current_seq(driver)
    yield from tap(driver, "UNDO", exact=True)
    yield wait_for("the undone free throw", settled(driver, seq))
    driver.report["score_after_undo"] = driver.app.score_text
    yield from tap(driver, "Settings", exact=True)
    yield wait_for("settings", on_screen("settings"))
    driver.shot("12-settings")
    if driver.app.sim:
        yield from tap(driver, "Sim >", exact=True)
        yield wait_for("the sim panel", lambda app: app.sim_open and app.root.ids.sim_panel.width > 100)
        yield wait_for("the OLED image", lambda app: app.oled_texture is not None)
        driver.shot("13-sim-panel")
        panel = driver.app.root.ids.sim_panel
        # The live test page: a turn of the simulated encoder shows what the dial now offers.
        yield from tap(driver, "turn >", exact=True, within=panel)
        settings = driver.app.screens.get_screen("settings")
        yield wait_for("the dial on the live test", lambda app: settings.live_text.startswith("Dial shows:"))
        driver.report["live_dial"] = settings.live_text
        yield from tap(driver, "Play", exact=True)
        yield wait_for("the free throw again", lambda app: app.screens.current == "resolve"
                       and app.snapshot["prompt"].get("die") == "d20x5")
        # The simulated tray: tap a face, the service writes a checked $ROLL line into its tray.
        seq = current_seq(driver)
        yield from tap(driver, "20", exact=True, within=panel)
        yield wait_for("the tray's roll", settled(driver, seq))
        driver.report["score_after_tray_roll"] = driver.app.score_text
        # A long tap on the simulated UNDO is a hold: the real button undoes only when held.
        seq = current_seq(driver)
        yield from tap(driver, "UNDO", exact=True, hold=1.3, within=panel)
        yield wait_for("the held UNDO", settled(driver, seq))
        driver.report["score_after_held_undo"] = driver.app.score_text
        seq = current_seq(driver)
        yield from tap(driver, "Roll for me", exact=True, within=panel)
        yield wait_for("the random roll", settled(driver, seq))
        driver.report["prompt_after_roll_for_me"] = driver.app.snapshot["prompt"]["text"]
        driver.shot("14-sim-after-rolls")
    # Mid-game, a hooper's name opens the card: what it already shows is fixed, what is missing can be
    # entered and goes to the table as enter_card (Chus Kinder's second position).
    yield from tap(driver, "Table", exact=True)
    yield wait_for("table", on_screen("table"))
    seq = current_seq(driver)
    yield from tap(driver, "Chus Kinder", exact=True, within=driver.app.screens.get_screen("table"))
    yield wait_for("the card of a hooper in play", on_screen("card"))
    cells = driver.app.screens.get_screen("card").ids.fields.children[::-1]
    driver.report["in_game_card_texts"] = [getattr(c, "text", "") for c in cells]
    second = next(cells[i + 1] for i, cell in enumerate(cells)
                  if getattr(cell, "text", None) == "2nd position")
    yield from tap(driver, second.text, exact=True, within=second)
    yield wait_for("the entered position", lambda app: second.text == "PG")
    driver.shot("10b-card-in-game")
    yield from tap(driver, "Save card", exact=True)
    yield wait_for("the entered card", settled(driver, seq))
    yield wait_for("back on the table", on_screen("table"))
    karl = driver.app.snapshot["view"]["sides"][1]["hoopers"]
    driver.report["after_card_message"] = driver.app.snapshot["view"]["message"]
    driver.report["after_card_notice"] = driver.app.notice_text
    driver.report["chus_second_after_edit"] = next(h for h in karl
                                                   if h["name"] == "Chus Kinder")["second_position"]


def between_and_end(driver: Driver) -> Step:
    """A game the test brought to the between-pairs reminders: tick one off; the test then plays the
    game to its end through the socket and the kiosk must follow to the game end screen."""
    yield wait_for("between screen", on_screen("between"))
    checklist = driver.app.screens.get_screen("between").ids.checklist
    driver.report["reminders"] = [item.text for item in checklist.children[::-1]]
    yield from tap(driver, driver.report["reminders"][0], exact=True)
    yield wait_for("the ticked reminder", lambda app: checklist.children[-1].state == "down")
    driver.report["between_texts"] = driver.texts()
    driver.shot("20-between")
    assert driver.marker is not None
    driver.marker.write_text("between seen")
    yield wait_for("game end", on_screen("gameend"))
    yield wait_for("the chart", lambda app: len(app.screens.get_screen("gameend").chart_values) > 2)
    driver.report["gameend_texts"] = driver.texts()
    driver.report["chart_points"] = len(driver.app.screens.get_screen("gameend").chart_values)
    driver.shot("21-game-end")
    yield from tap(driver, "Export CSV", exact=True)
    yield wait_for("the export notice", lambda app: app.notice_text.startswith("Saved"))
    driver.report["export_notice"] = driver.app.notice_text


def reconnect(driver: Driver) -> Step:
    """Mid-game: the test kills the service and starts it again; the kiosk must show the same game."""
    yield wait_for("the game", lambda app: app.screens.current == "resolve" and app.snapshot is not None)
    driver.report["before"] = {"score": driver.app.score_text, "turn": driver.app.turn_text,
                               "seq": driver.app.snapshot["seq"],
                               "prompt": driver.app.snapshot["prompt"]["text"]}
    assert driver.marker is not None
    driver.marker.write_text("kill now")
    yield wait_for("reconnecting", lambda app: app.link_state == "reconnecting")
    driver.report["banner_while_down"] = driver.app.banner_text
    driver.report["notice_while_down"] = driver.app.notice_text
    driver.shot("30-reconnecting")
    driver.marker.with_suffix(".down").write_text("reconnecting shown")  # the test may restart it now
    yield wait_for("connected again", lambda app: app.link_state == "connected" and app.conn.connects >= 2)
    yield wait_for("the state again", lambda app: bool(app.snapshot) and app.banner_text != "RECONNECTING...")
    yield wait_for("a frame", lambda app: True)
    driver.report["after"] = {"score": driver.app.score_text, "turn": driver.app.turn_text,
                              "seq": driver.app.snapshot["seq"],
                              "prompt": driver.app.snapshot["prompt"]["text"],
                              "screen": driver.app.screens.current}
    driver.shot("31-reconnected")


def play_game(driver: Driver) -> Step:
    """Benchmark: set up through the screens, then play a whole game by tapping what a player would
    (a ready-made choice or a face on the pad), timing every tap until the new state is on screen."""
    import random

    rng = random.Random(driver.app.conn.path.name)
    yield wait_for("home", lambda app: driver.button("New game: Valley Hoopers") is not None)
    yield from tap(driver, "New game: Valley Hoopers")
    yield wait_for("setup", on_screen("setup"))
    yield from tap(driver, "Fast", exact=True)
    yield from tap(driver, "Start game")
    yield wait_for("the first prompt", lambda app: app.screens.current == "resolve")
    latencies: list[float] = []
    slowest: list[tuple[float, str, str, int]] = []
    while not driver.app.snapshot.get("outcome"):
        prompt = driver.app.snapshot["prompt"]
        screen = driver.app.screens.current_screen
        pad = [w.text for w in screen.ids.die_pad.children] if "die_pad" in screen.ids else []
        labels = [c["label"] for c in prompt.get("choices", [])
                  if c["command"]["type"] not in ("end_turn", "timeout")] or [
                      c["label"] for c in prompt.get("choices", [])]
        if pad and (not labels or rng.random() < 0.6):
            label = rng.choice(pad)
        elif labels:
            label = rng.choice(labels)
        else:
            raise AssertionError(f"nothing to tap for {prompt['text']}")
        seq = current_seq(driver)
        yield from tap(driver, label, exact=True, within=screen)
        yield wait_for(f"the answer to {label!r}", settled(driver, seq))
        # From the finger down until the UI thread had the new state; it is drawn at the next frame
        # (30 fps: <= 33 ms later). Scrolling to the button before the tap is not counted.
        latencies.append(driver.app.snapshot_at - driver.last_tap_at)
        slowest.append((latencies[-1], label, driver.app.screens.current,
                        round(1000 * (driver.app.sent_at - driver.last_tap_at))))
    latencies.sort()
    driver.report["commands"] = len(latencies)
    driver.report["tap_to_state_p50_ms"] = round(1000 * latencies[len(latencies) // 2], 1)
    driver.report["tap_to_state_p95_ms"] = round(1000 * latencies[int(len(latencies) * 0.95)], 1)
    driver.report["final_score"] = driver.app.score_text
    driver.report["slowest_taps"] = [(round(t * 1000), label, screen, to_send)
                                     for t, label, screen, to_send in sorted(slowest, reverse=True)[:8]]
    status = Path("/proc/self/status").read_text()
    driver.report["kiosk_rss_kib"] = int(next(line.split()[1] for line in status.splitlines()
                                              if line.startswith("VmRSS:")))
    driver.report["kiosk_peak_rss_kib"] = int(next(line.split()[1] for line in status.splitlines()
                                                   if line.startswith("VmHWM:")))
    driver.shot("40-benchmark-end")


def setup_edits(driver: Driver) -> Step:
    """Setup by touch: move a hooper to another spot (warnings), change a colour, import a roster."""
    yield wait_for("home", lambda app: driver.button("New game: Valley Hoopers") is not None)
    yield from tap(driver, "New game: Valley Hoopers")
    yield wait_for("setup", on_screen("setup"))
    setup = driver.app.screens.get_screen("setup")
    yield from tap(driver, "Edd Trapp: SF", exact=True)
    yield wait_for("the new spot", lambda app: driver.button("Edd Trapp: PF", exact=True) is not None)
    driver.report["side2_warnings"] = setup.ids.side1.warnings.text
    driver.shot("50-setup-warnings")
    colour_before = setup.setup["sides"][0]["colour"]
    yield from tap(driver, "colour", exact=True, within=setup.ids.side0)
    driver.report["colours"] = [colour_before, setup.setup["sides"][0]["colour"]]
    yield from tap(driver, "Import rosters", exact=True)
    yield wait_for("the imported roster", lambda app: driver.button("Club", exact=True) is not None)
    driver.report["import_notice"] = driver.app.notice_text
    yield from tap(driver, "Club", exact=True, within=setup.ids.side0)
    yield wait_for("the club's hoopers", lambda app: driver.button("Ann Dunk: not picked") is not None)
    driver.report["side1_warnings"] = setup.ids.side0.warnings.text
    driver.shot("51-setup-imported")


def name_keyboard(driver: Driver) -> Step:
    """Without a keyboard (not simulation), tapping a side's name docks the on-screen keyboard."""
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    yield wait_for("home", lambda app: driver.button("New game: Valley Hoopers") is not None)
    yield from tap(driver, "New game: Valley Hoopers")
    yield wait_for("setup", on_screen("setup"))
    from kivy.uix.textinput import TextInput

    side0 = driver.app.screens.get_screen("setup").ids.side0
    name = next(w for w in side0.walk(restrict=True) if isinstance(w, TextInput))
    scroller = name.parent
    while scroller is not None and type(scroller).__name__ != "ScrollView":
        scroller = scroller.parent
    if scroller is not None:  # the setup form is taller than the screen: bring the name into view
        scroller.scroll_to(name, padding=10, animate=False)
        yield wait_for("the name in view", lambda app: 0 <= name.to_window(*name.center)[1] <= Window.height)
    touch = UnitTestTouch(*name.to_window(*name.center))
    touch.touch_down()
    touch.touch_up()
    yield wait_for("the on-screen keyboard", lambda app: any(
        type(w).__name__ == "VKeyboard" for w in Window.children))
    keyboard = next(w for w in Window.children if type(w).__name__ == "VKeyboard")
    yield wait_for("the screen lifted above the keyboard", lambda app: name.to_window(*name.pos)[1]
                   >= keyboard.top - 1)
    driver.report["name_bottom"] = name.to_window(*name.pos)[1]
    driver.report["keyboard_top"] = keyboard.top
    driver.shot("60-name-keyboard")


def resume_from_home(driver: Driver) -> Step:
    """Home lists the unfinished games with score, period and when last played; a tap resumes one."""
    yield wait_for("the game in play", lambda app: app.screens.current == "resolve")
    driver.report["playing_before"] = driver.app.snapshot["game_id"]
    yield from tap(driver, "Home", exact=True)
    yield wait_for("the saved games", lambda app: driver.button("Resume #1") is not None)
    driver.report["home_texts"] = driver.texts()
    driver.shot("70-home-resume")
    yield from tap(driver, "Resume #1")
    yield wait_for("game 1", lambda app: app.snapshot and app.snapshot["game_id"] == 1
                   and app.screens.current == "resolve")
    driver.report["resumed_score"] = driver.app.score_text
    driver.report["resumed_prompt"] = driver.app.snapshot["prompt"]["text"]


def every_screen(driver: Driver) -> Step:
    """Open each screen named by ``--screens`` in turn and shoot it (the conformance suite: every
    screen of every game at every size, with no layout problem).

    With ``--marker``, more phases follow in the same window, each once the test has played the game
    on through the socket: the driver writes the next phase's number to the marker and waits for
    ``MARKER.go`` to read ``NUMBER SEQ LABEL SCREENS [last]``; once the kiosk has shown SEQ it shoots
    SCREENS into the folder LABEL beside ``--out``, reported as ``LABEL:SCREEN``."""
    yield from _shoot_screens(driver, driver.screens, "")
    if driver.marker is None:
        return
    go = driver.marker.with_suffix(".go")
    number, last = 0, False
    while not last:
        number += 1
        driver.marker.write_text(str(number))
        said: list[str] = []

        def played(_app: Any, n: int = number, said: list[str] = said) -> bool:
            words = go.read_text().split() if go.exists() else []
            if len(words) < 4 or words[0] != str(n) or current_seq(driver) < int(words[1]):
                return False
            said[:] = words
            return True

        yield wait_for(f"the game played on to phase {number}", played)
        label, screens, last = said[2], said[3].split(","), said[4:] == ["last"]
        driver.out = driver.out.parent / label
        driver.out.mkdir(parents=True, exist_ok=True)
        yield from _shoot_screens(driver, screens, f"{label}:")


def _shoot_screens(driver: Driver, screens: list[str], prefix: str) -> Step:
    for name in screens:
        driver.app.prepare_screen(name)
        yield wait_for(f"the {name} screen", lambda app, n=name: app.screens.current == n
                       and not app.screens.transition.is_active)
        for _ in range(3):  # a few frames: scroll views settle their layout
            yield wait_for("a frame", lambda app: True)
        if not prefix:
            driver.shot(name)
            continue
        earlier = driver.report["shots"].pop(name, None)  # the same screen in the first phase
        driver.shot(name)
        driver.report["shots"][prefix + name] = driver.report["shots"].pop(name)
        if earlier is not None:
            driver.report["shots"][name] = earlier


def _three_sides(seq: int, prompt: dict[str, Any]) -> dict[str, Any]:
    """A snapshot of a made-up game of three sides (the kiosk draws JSON: no game has to exist)."""
    return {"game_id": 999, "game": "made-up", "seq": seq, "view": {"message": ""}, "outcome": None,
            "scoreboard": {"sides": [{"name": n, "score": s} for n, s in (("Ann", 3), ("Bo", 1), ("Cy", 0))]},
            "prompt": {"side": None, "commands": ["bid"], "choices": [], **prompt},
            "can_undo": False, "can_redo": False}


def sealed_and_race(driver: Driver) -> Step:
    """A sealed bid (a masked pad per side still to enter) and a race (a button per side), drawn from
    prompt JSON alone; what the kiosk would send is recorded instead of sent."""
    app = driver.app
    sent: list[dict[str, Any]] = []
    app.send = sent.append
    sealed = {"sides": [0, 1, 2], "entered": [1], "field": "amount", "min": 0,
              "max_by_side": {"0": 30, "2": 12}}
    app.set_snapshot(_three_sides(1, {"text": "Bids for the free agent", "sealed": sealed}))
    app.go("resolve")
    yield wait_for("the sealed pads", lambda app: driver.button("enter", exact=True) is not None)
    special = app.screens.get_screen("resolve").ids.special
    first_pad = special.children[-2]  # Ann's pad (Bo already entered)
    for key in ("1", "2"):
        yield from tap(driver, key, exact=True, within=first_pad)
    driver.report["sealed_texts"] = [getattr(w, "text", "") for w in special.walk(restrict=True)
                                     if type(w).__name__ == "WrapLabel"]
    driver.shot("sealed")
    yield from tap(driver, "enter", exact=True, within=first_pad)
    driver.report["sealed_sent"] = list(sent)
    # A window wide enough for two taps in a row: a tie, which the tie-breaker holder (Ann) wins.
    race = {"sides": [0, 2], "tie_breaker": 0, "window_ms": 60_000, "command": "battle",
            "label": "Dice battle: first to press wins"}
    app.set_snapshot(_three_sides(2, {"text": "Dice battle", "commands": ["battle"], "race": race}))
    app.go("resolve")
    yield wait_for("the race buttons", lambda app: driver.button("Cy: press!", exact=True) is not None)
    driver.shot("race")
    yield from tap(driver, "Cy: press!", exact=True)
    yield from tap(driver, "Ann: press!", exact=True)
    yield wait_for("the race sent", lambda app: len(sent) == 2)
    driver.report["race_sent"] = sent[-1]
    # Two fingers down together, the first still down when the second lands (as two players slap
    # their pads): both are presses. A short window: a lost finger would show as a one-press race.
    race = dict(race, window_ms=50)
    app.set_snapshot(_three_sides(3, {"text": "Dice battle", "commands": ["battle"], "race": race}))
    yield wait_for("fresh race buttons", lambda app: driver.button("Cy: press!", exact=True) is not None)
    driver.tap_together(["Cy: press!", "Ann: press!"], exact=True)
    yield wait_for("the race of two fingers sent", lambda app: len(sent) == 3)
    driver.report["race_together_sent"] = sent[-1]


# The game_info of a game that exists only as JSON: 3 to 5 sides, no rosters, a lookup die.
MADE_UP_INFO: dict[str, Any] = json.loads((ROOT / "tests" / "games" / "made_up_game_info.json").read_text())


def _made_up_snapshot(seq: int, sides: int, over: bool) -> dict[str, Any]:
    names = ["Ann", "Bo", "Cy", "Di", "Ed"][:sides]
    players = [[{"name": f"{n} One", "points": i}, {"name": f"{n} Two", "points": 2 * i}]
               for i, n in enumerate(names)]
    view = {"round": {"number": 2, "of": 4},
            "sides": [{"name": n, "cash": 10 + i, "players": players[i]} for i, n in enumerate(names)]}
    faces = list(range(1, 13))
    marks = [{"face": f, "label": "miss" if f < 7 else "2" if f < 11 else "3", "success": f >= 7}
             for f in faces]
    outcomes = [{"label": "miss", "probability": 0.5, "gives": "0 points", "faces": faces[:6]},
                {"label": "two", "probability": 1 / 3, "gives": "2 points", "faces": faces[6:10]},
                {"label": "three", "probability": 1 / 6, "gives": "3 points", "faces": faces[10:]}]
    prompt = {"side": 1, "text": "Bo: roll the d12 on the shot chart", "commands": ["roll", "pass"],
              "die": "d12", "die_info": {"name": "d12", "title": "d12", "faces": faces, "success": "lookup"},
              "face_marks": marks, "outcomes": outcomes,
              "target": {"text": "Bo One's chart: 7-10 two, 11-12 three"},
              "choices": [{"label": "pass instead", "command": {"type": "pass"}, "p_success": 0.9}]}
    board = [{"name": n, "score": 3 * i, "fouls": None, "bonus": None, "active": i == 1,
              "counters": [{"label": "cash", "value": 10 + i}]} for i, n in enumerate(names)]
    outcome = {"winner": None, "places": [[4, 3], [2], [1], [0]], "reason": "most points after 4 rounds"}
    return {"game_id": 998, "game": "made-up", "seq": seq, "view": view, "can_undo": False, "can_redo": False,
            "scoreboard": {"sides": board, "period": "R2", "clock": ""},
            "prompt": {} if over else prompt, "outcome": outcome if over else None}


def made_up_game(driver: Driver) -> Step:
    """A game of 3 to 5 sides that exists only as JSON (its game_info and snapshots): Setup grows to five
    sides, then Table, Play (a lookup roll with outcomes) and the game end with shared first place."""
    app = driver.app
    sent: list[dict[str, Any]] = []
    app.send = sent.append
    app.infos = {**app.infos, "made-up": MADE_UP_INFO}
    setup = app.screens.get_screen("setup")
    setup.game = "made-up"
    app.go("setup")
    yield wait_for("the made-up setup", lambda app: driver.button("+ side", exact=True) is not None)
    for _ in range(2):
        yield from tap(driver, "+ side", exact=True)
        yield wait_for("one more side", lambda app: True)
    driver.report["setup_sides"] = [side["name"] for side in setup.setup["sides"]]
    from kiosk.cards import game_options

    driver.report["setup_options"] = game_options(MADE_UP_INFO, setup.setup, {}, {})
    driver.shot("setup")
    app.set_snapshot(_made_up_snapshot(1, 5, over=False))
    for name in ("table", "resolve"):
        app.go(name)
        yield wait_for(name, lambda app, n=name: app.screens.current == n
                       and not app.screens.transition.is_active)
        yield wait_for("a frame", lambda app: True)
        driver.report[f"{name}_texts"] = driver.texts()
        driver.shot(name)
    app.set_snapshot(_made_up_snapshot(2, 5, over=True))
    app.go("gameend")
    yield wait_for("game end", lambda app: app.screens.current == "gameend")
    yield wait_for("a frame", lambda app: True)
    driver.report["gameend_texts"] = driver.texts()
    driver.shot("gameend")


SCENARIOS = {"every_screen": every_screen, "made_up_game": made_up_game, "sealed_and_race": sealed_and_race,
             "full_turn": full_turn,
             "between_and_end": between_and_end, "reconnect": reconnect,
             "play_game": play_game, "setup_edits": setup_edits, "name_keyboard": name_keyboard,
             "resume_from_home": resume_from_home}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--sim", action="store_true")
    parser.add_argument("--marker", type=Path, default=None,
                        help="a file the scenario writes to signal the test")
    parser.add_argument("--step-timeout", type=float, default=15.0)
    parser.add_argument("--screens", default="",
                        help="for every_screen: the screens to open, comma separated")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.size = (width, height)
    args.out.mkdir(parents=True, exist_ok=True)
    return run(SCENARIOS[args.scenario], args)


if __name__ == "__main__":
    sys.exit(main())
