"""Play-screen scenarios for the real kiosk (``tests/kiosk_driver.py``'s driver and runner):

    python tests/kiosk_play_driver.py SCENARIO --socket PATH --out DIR [--size 800x480]

``strategy_card``: a game already at its scoring roll (the test set it up through the socket); the
command form of the prompt's open command is opened by touch, a card and a number are tapped in, it
is sent; a second offensive card is refused in the form with the service's words; the defence's
card goes in. Which command, which card: all read from ``game_info`` and the snapshot, so the
scenario names no game. Prints the JSON report.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk_driver import Driver, Step, current_seq, on_screen, run, settled, tap, wait_for  # noqa: E402


def _form(driver: Driver) -> Any:
    return getattr(driver.app.screens.get_screen("resolve"), "open_form", None)


def _form_open(driver: Driver) -> Any:
    return lambda app: _form(driver) is not None and _form(driver).get_parent_window() is not None


def _form_shot(driver: Driver, name: str) -> None:
    """A screenshot with the form's own texts and layout problems (it lies over the app's root)."""
    from kiosk.layout_check import describe

    form = _form(driver)
    path = driver.app.save_screenshot(driver.out / f"{name}.png")
    driver.report["shots"][name] = {"path": str(path), "screen": "form", **describe(form)}


def _fill_card(driver: Driver, side_name: str | None, card: str, number: tuple[str, str] | None) -> Step:
    form = _form(driver)
    if side_name is not None:
        yield from tap(driver, side_name, exact=True, within=form)
        yield wait_for("that side's cards",
                       lambda app: driver.button(card, exact=True, within=form) is not None)
    yield from tap(driver, card, exact=True, within=form)
    if number is not None:
        field, digit = number
        yield from tap(driver, f"{field}:", within=form)
        yield from tap(driver, digit, exact=True, within=form)
    yield wait_for("the taps drawn", lambda app: True)  # the driver lets one frame draw after this


def strategy_card(driver: Driver) -> Step:
    app = driver.app
    yield wait_for("the roll prompt", lambda app: app.screens.current == "resolve" and bool(app.snapshot)
                   and driver.button("Play card...", exact=True) is not None)
    driver.shot("01-roll-with-card-button")
    taps_before = driver.report["taps"]
    yield from tap(driver, "Play card...", exact=True)
    yield wait_for("the form", _form_open(driver))
    view = app.snapshot["view"]
    prompt = app.snapshot["prompt"]
    mine = view["sides"][prompt["side"]]["strategy_cards"]
    theirs = view["sides"][1 - prompt["side"]]["strategy_cards"]
    driver.report["offered_cards"] = mine
    driver.report["form_texts_before"] = [w.text for w in _form(driver).walk() if getattr(w, "text", "")]
    _form_shot(driver, "02-form")
    yield from _fill_card(driver, None, mine[0], ("Roll bonus", "2"))
    driver.report["bonus_taps"] = 2
    driver.report["entered_line"] = _form(driver).entered_label.text
    _form_shot(driver, "03-form-filled")
    seq = current_seq(driver)
    yield from tap(driver, "Send", exact=True, within=_form(driver))
    yield wait_for("the card played", settled(driver, seq))
    yield wait_for("the form closed", lambda app: not _form_open(driver)(app))
    driver.report["taps_for_card"] = driver.report["taps"] - taps_before
    driver.report["roll_after_offense"] = app.snapshot["view"]["roll"]
    # A second offensive card: the service refuses it, and the form says why.
    yield from tap(driver, "Play card...", exact=True)
    yield wait_for("the form again", _form_open(driver))
    yield from _fill_card(driver, None, mine[1], None)
    yield from tap(driver, "Send", exact=True, within=_form(driver))
    yield wait_for("the refusal", lambda app: _form(driver).error_text.startswith("Refused"))
    driver.report["refusal"] = _form(driver).error_text
    _form_shot(driver, "04-form-refused")
    side_names = [s["name"] for s in app.snapshot["scoreboard"]["sides"]]
    seq = current_seq(driver)
    yield from _fill_card(driver, side_names[1 - prompt["side"]], theirs[0], ("Speed", "1"))
    driver.report["defence_values"] = dict(_form(driver).values)
    yield from tap(driver, "Send", exact=True, within=_form(driver))
    yield wait_for("the defence's card", settled(driver, seq))
    yield wait_for("the form closed", lambda app: not _form_open(driver)(app))
    yield wait_for("resolve", on_screen("resolve"))
    driver.report["roll_after_defence"] = app.snapshot["view"]["roll"]
    driver.shot("05-after-cards")


def _made_up(seq: int, choices: int, text: str) -> dict[str, Any]:
    """A snapshot of a made-up game awaiting a d20 (every face marked), with ``choices`` choices."""
    faces = list(range(1, 21))
    marks = [{"face": f, "label": f"{f // 4}P {f // 8}A 1R", "success": f > 3} for f in faces]
    prompt = {"side": 0, "text": text, "commands": ["roll", "pick"], "die": "d20",
              "die_info": {"name": "d20", "title": "d20", "faces": faces, "success": "lookup"},
              "face_marks": marks, "target": {"text": "the chart"}, "p_success": 0.85,
              "choices": [{"label": f"choice number {i + 1}", "command": {"type": "pick", "n": i},
                           "p_success": (i + 1) / 10, "hint": f"{11 + i} or more" if i % 2 else ""}
                          for i in range(choices)]}
    board = [{"name": n, "score": 0, "counters": [], "active": i == 0} for i, n in enumerate(("Ann", "Bo"))]
    view = {"sides": [{"name": "Ann"}, {"name": "Bo"}]}
    return {"game_id": 997, "game": "made-up", "seq": seq, "view": view,
            "can_undo": False, "can_redo": False, "prompt": prompt, "outcome": None,
            "scoreboard": {"sides": board, "period": "R1", "clock": "", "possession": 0}}


def _pad_boxes(driver: Driver) -> list[tuple[int, ...]]:
    from kiosk.layout_check import _in_scroll

    pad = driver.app.screens.get_screen("resolve").ids.die_pad
    boxes = []
    for button in pad.children[::-1]:
        assert _in_scroll(button) is None, "the die pad must never scroll"
        x, y = button.to_window(button.x, button.y)
        boxes.append((round(x), round(y), round(button.width), round(button.height)))
    return boxes


def die_pad(driver: Driver) -> Step:
    """The die pad stays put and whole: a d20 with no choice, then with five choices and a long prompt."""
    app = driver.app
    app.send = lambda command: None
    app.set_snapshot(_made_up(1, 0, "Ann: roll the d20"))
    app.go("resolve")
    yield wait_for("the pad", lambda app: len(app.screens.get_screen("resolve").ids.die_pad.children) == 20)
    yield wait_for("a frame", lambda app: True)
    driver.report["pad_alone"] = _pad_boxes(driver)
    driver.shot("pad-alone")
    long_text = "Ann: roll the d20 for the shot; " + "every word of a long prompt pushes nothing down. " * 4
    app.set_snapshot(_made_up(2, 5, long_text))
    yield wait_for("the choices", lambda app: driver.button("choice number 5") is not None)
    yield wait_for("a frame", lambda app: True)
    driver.report["pad_with_choices"] = _pad_boxes(driver)
    driver.report["choice_buttons"] = [t for t in driver.texts() if t.startswith("choice number")]
    driver.report["window"] = list(app.root.size)
    driver.shot("pad-with-choices")


def choices_top(driver: Driver) -> Step:
    """A long list of choices scrolled down; the same prompt sent again keeps the scroll, a new
    prompt's choices open at the top."""
    def no_die(seq: int, text: str) -> dict[str, Any]:  # the choices beside the words, in their own scroll
        snapshot = _made_up(seq, 30, text)
        snapshot["prompt"].update({"die": None, "die_info": None, "face_marks": [], "commands": ["pick"]})
        return snapshot

    app = driver.app
    app.send = lambda command: None
    app.set_snapshot(no_die(4, "Ann: pick one of thirty"))
    app.go("resolve")
    scroll = app.screens.get_screen("resolve").ids.choices_scroll
    yield wait_for("the choices", lambda app: driver.button("choice number 30") is not None)
    yield wait_for("a frame", lambda app: True)
    driver.report["choices_scrollable"] = scroll.children[0].height > scroll.height
    scroll.scroll_y = 0  # the player scrolled to the last choice
    app.set_snapshot(no_die(4, "Ann: pick one of thirty"))  # the same prompt again
    yield wait_for("a frame", lambda app: True)
    driver.report["scroll_y_same_prompt"] = scroll.scroll_y
    app.set_snapshot(no_die(5, "Bo: pick one of thirty"))
    screen = app.screens.get_screen("resolve")
    yield wait_for("the new prompt", lambda app: screen.prompt_text.startswith("Bo"))
    yield wait_for("a frame", lambda app: True)
    driver.report["scroll_y_new_prompt"] = scroll.scroll_y
    driver.shot("choices-top")


def who_acts(driver: Driver) -> Step:
    """The prompt waits for the side that does not attack: banner and top bar both name it."""
    app = driver.app
    app.send = lambda command: None
    snapshot = _made_up(3, 2, "Bo: counter or let it go")
    snapshot["prompt"]["side"] = 1
    app.set_snapshot(snapshot)
    app.go("resolve")
    banner = app.screens.get_screen("resolve").ids.acting
    yield wait_for("the banner", lambda app: banner.text == "Bo to act")
    yield wait_for("a frame", lambda app: True)
    driver.report["banner"] = {"text": banner.text, "fill": list(banner.fill), "height": banner.height}
    driver.report["turn_text"] = app.root.ids.turn.text
    driver.shot("who-acts")


def undo_notice(driver: Driver) -> Step:
    """UNDO on the top bar: the notice says what was undone, with Redo beside it; REDO is on the bar;
    away from the game (Home) and once the game is over UNDO is disarmed."""
    app = driver.app
    yield wait_for("a game with something to undo", lambda app: app.undo_armed)
    seq = current_seq(driver)
    yield from tap(driver, "UNDO", exact=True)
    yield wait_for("the undo's notice", lambda app: app.notice_text.startswith("Undid: ") and app.redo_armed
                   and current_seq(driver) > seq)
    yield wait_for("a frame", lambda app: True)
    driver.report["undo_notice"] = app.notice_text
    driver.report["redo_on_bar"] = driver.button("REDO", exact=True) is not None
    driver.shot("undid")
    seq = current_seq(driver)
    yield from tap(driver, "Redo", exact=True)
    yield wait_for("the redo's notice", lambda app: app.notice_text.startswith("Redid: ")
                   and current_seq(driver) > seq)
    driver.report["redo_notice"] = app.notice_text
    yield from tap(driver, "Home", exact=True)
    yield wait_for("home", on_screen("home"))
    driver.report["undo_armed_at_home"] = app.undo_armed
    over = _made_up(current_seq(driver) + 1, 0, "over")
    over.update({"game_id": 996, "can_undo": True, "outcome": {"winner": 0, "reason": "made up"},
                 "prompt": {}})
    app.set_snapshot(over, follow=True)
    app.go("gameend")
    yield wait_for("game end", on_screen("gameend"))
    driver.report["undo_armed_after_the_end"] = app.undo_armed


def _starters_in_view(driver: Driver) -> dict[str, Any]:
    """Which on-court members of every side the Table shows inside its scroll view's window (no
    scrolling), by the names the view gives (the rows not muted: a starter, not the bench)."""
    from kivy.core.window import Window

    from kiosk.layout_check import _in_scroll, _visible

    view = driver.app.snapshot["view"]
    info = driver.app.info_for()
    panel = next(p for p in info["panels"] if p.get("per_side") and p.get("kind", "table") == "table")
    from kiosk.parts import lookup, rows_at

    rows = [found["row"] for side in range(len(view["sides"]))
            for found in rows_at(view, panel["source"], side)]
    wanted = [str(row["name"]) for row in rows
              if lookup(row, panel.get("muted", "")) not in panel.get("muted_values", [])]
    screen = driver.app.screens.get_screen("table")
    shown = {}
    for widget in screen.walk(restrict=True):
        if getattr(widget, "text", None) in wanted and _visible(widget):
            x, y = widget.to_window(*widget.pos)
            top = y + widget.height
            scroll = _in_scroll(widget)
            low, high = (scroll.to_window(scroll.x, scroll.y)[1], 0) if scroll else (0, 0)
            high = low + scroll.height if scroll else Window.height
            shown[widget.text] = bool(low - 1 <= y and top <= high + 1)
    return {"wanted": wanted, "in_view": [n for n in wanted if shown.get(n)]}


def measure(driver: Driver) -> Step:
    """Every screen of a game in play (and the command form), measured: the report's ``shots`` carry
    each one's smallest touch target and text in mm and its layout problems; the Table's starters."""
    app = driver.app
    yield wait_for("the roll prompt", lambda app: app.screens.current == "resolve"
                   and driver.button("Play card...", exact=True) is not None)
    yield wait_for("a frame", lambda app: True)
    driver.shot("resolve")
    yield from tap(driver, "Play card...", exact=True)
    yield wait_for("the form", _form_open(driver))
    yield wait_for("a frame", lambda app: True)
    _form_shot(driver, "form")
    yield from tap(driver, "Cancel", exact=True, within=_form(driver))
    yield wait_for("the form closed", lambda app: not _form_open(driver)(app))
    for name in ("table", "history", "settings", "home"):
        app.go(name)
        yield wait_for(name, on_screen(name))
        yield wait_for("a frame", lambda app: True)
        yield wait_for("another frame", lambda app: True)
        driver.shot(name)
        if name == "table":
            driver.report["starters"] = _starters_in_view(driver)


def every_form(driver: Driver, only: frozenset[str] | None = None) -> Step:
    """The form of every command the game on the table declares (or of those ``only`` names), opened
    and measured (whatever its fields: sides, choices, numbers, flags, objects, texts); each is
    cancelled again."""
    from kiosk import command_form

    app = driver.app
    yield wait_for("the play screen", lambda app: app.screens.current in ("resolve", "between")
                   and bool(app.info_for().get("commands")))
    driver.report["forms"] = []
    for spec in app.info_for()["commands"]:
        if only is not None and spec["type"] not in only:
            continue
        screen = app.screens.get_screen("resolve")
        screen._opened(command_form.open_form(app, spec, app.snapshot.get("prompt") or {}))
        yield wait_for("the form", _form_open(driver))
        yield wait_for("a frame", lambda app: True)
        _form_shot(driver, f"form-{spec['type']}")
        driver.report["forms"].append(spec["type"])
        yield from tap(driver, "Cancel", exact=True, within=_form(driver))
        yield wait_for("the form closed", lambda app: not _form_open(driver)(app))


def missing_card(driver: Driver) -> Step:
    """A game whose cards lack values: the play screen says which plays are missing and why, and the
    card's button opens its editor."""
    app = driver.app

    def enter_button() -> Any:
        return next((w for w in driver.visible_widgets() if type(w).__name__ == "BigButton"
                     and w.text.startswith("Enter ") and w.text.endswith("'s card")), None)

    yield wait_for("the button to the card", lambda app: app.screens.current == "resolve"
                   and enter_button() is not None)
    yield wait_for("a frame", lambda app: True)
    driver.report["message"] = app.screens.get_screen("resolve").message_text
    driver.report["button"] = enter_button().text
    driver.report["missing_cards"] = app.snapshot["prompt"].get("missing_cards")
    driver.shot("missing-card")
    taps = driver.report["taps"]
    yield from tap(driver, driver.report["button"], exact=True)
    yield wait_for("the card editor", on_screen("card"))
    driver.report["taps_to_card"] = driver.report["taps"] - taps
    driver.report["editor_title"] = app.screens.get_screen("card").title
    driver.shot("missing-card-editor")


SCENARIOS = {"missing_card": missing_card, "every_form": every_form, "measure": measure,
             "undo_notice": undo_notice, "strategy_card": strategy_card, "die_pad": die_pad,
             "who_acts": who_acts, "choices_top": choices_top}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", help=f"one or more of {', '.join(SCENARIOS)}, comma separated")
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--sim", action="store_true")
    parser.add_argument("--step-timeout", type=float, default=20.0)
    parser.add_argument("--forms", help="every_form: only these commands' forms, comma separated")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.size = (width, height)
    args.marker = None
    args.screens = ""
    args.out.mkdir(parents=True, exist_ok=True)
    chosen = [SCENARIOS[name] for name in args.scenario.split(",")]
    if args.forms:
        only = frozenset(args.forms.split(","))
        chosen = [functools.partial(every_form, only=only) if c is every_form else c for c in chosen]

    def scenarios(driver: Driver) -> Step:
        for scenario in chosen:
            yield from scenario(driver)

    return run(scenarios, args)


if __name__ == "__main__":
    sys.exit(main())
