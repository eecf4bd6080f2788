"""Plays any game on the real kiosk by touch alone and prints a JSON report (the driver's harness).

    python tests/kiosk_touch_game.py --game TITLE --commands N [--sides S] [--first]
           --socket PATH --out DIR [--size WxH]

From Home it taps "New game: TITLE", then "Start game" on Setup, then on the play screen taps what a
player would: a sealed value on the masked pad (digits, then enter), a ready-made choice, or a face
of the die pad, N times or until the game ends. Nothing here names a game: the title comes from the
command line, everything else from the screen.

``--quick``: counts taps instead. From Home, "New game: TITLE" then "Quick start" (the game's demo
preset), then taps until the first roll that scores, reading the prompt as a player going for points
would: a success face when a die is awaited; else a choice matching one of the game's ``--plans``
patterns, in the order given (a plan, e.g. bid $1 then pass, where taking the first choice would start
a bidding war); else the choice with the best expected points the buttons show; else the first choice
that is not "end turn" or "timeout". Each of a game's ``--paths`` (labels separated by ``|``, a die
face as ``face:success`` or ``face:miss``) is then tapped on a fresh Quick start game, counted, with
whether it scored. ``--game`` may be given more than once: each game is walked in turn on the same
kiosk. The report's ``quick`` section has every count, by title.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk_driver import Driver, Step, current_seq, on_screen, run, settled, tap, wait_for  # noqa: E402


def touch_game(driver: Driver, title: str, commands: int, cycle: bool, sides: int) -> Step:
    yield wait_for("home", lambda app: driver.button(f"New game: {title}") is not None)
    yield from tap(driver, f"New game: {title}")
    yield wait_for("setup", on_screen("setup"))
    for _ in range(max(0, sides - 2)):  # the form starts with the fewest sides the game takes
        yield from tap(driver, "+ side", exact=True)
        yield wait_for("the new side", lambda app: True)
    yield from tap(driver, "Start game")
    yield wait_for("the first prompt", lambda app: app.screens.current == "resolve" and app.snapshot)
    report: dict[str, Any] = {"commands": 0, "sealed": 0, "choices": 0, "faces": 0, "prompts": []}
    for n in range(commands):
        snapshot = driver.app.snapshot
        if snapshot.get("outcome"):
            break
        prompt = snapshot["prompt"]
        report["prompts"].append(prompt["text"][:60])
        screen = driver.app.screens.current_screen
        seq = current_seq(driver)
        pad = [w.text for w in screen.ids.die_pad.children] if "die_pad" in screen.ids else []
        choices = [c["label"] for c in prompt.get("choices") or []]
        if prompt.get("sealed"):
            # The first pad on screen is the first side still to enter: one digit, then enter.
            yield from tap(driver, str(n % 2), exact=True, within=screen.ids.special)
            yield from tap(driver, "enter", exact=True, within=screen.ids.special)
            report["sealed"] += 1
        elif pad and (not choices or n % 3 == 0):
            yield from tap(driver, pad[n % len(pad)], exact=True, within=screen)
            report["faces"] += 1
        elif choices:
            yield from tap(driver, choices[n % len(choices) if cycle else 0], exact=True, within=screen)
            report["choices"] += 1
        else:
            raise AssertionError(f"nothing to tap for {prompt['text']!r}")
        yield wait_for(f"the answer to command {n}", settled(driver, seq))
        if driver.app.screens.current != "resolve":
            driver.app.prepare_screen("resolve")
            yield wait_for("the play screen", on_screen("resolve"))
        report["commands"] += 1
    report["seq"] = current_seq(driver)
    report["outcome"] = driver.app.snapshot.get("outcome")
    driver.report["game"] = report
    driver.shot("touch-game-last")


def _score(app: Any) -> tuple[Any, ...]:
    """The scores as the scoreboard keeps them: per side, or one lead (a game scored as a margin)."""
    board = app.snapshot["scoreboard"]
    return (board.get("lead"), *((s.get("score"), s.get("lead_text")) for s in board["sides"]))


def _quick_start(driver: Driver, title: str) -> Step:
    """Home -> New game: TITLE -> Quick start; the taps it took (a kiosk that opened on an unfinished
    game is first sent Home, uncounted: a fresh table opens on Home)."""
    yield wait_for("the kiosk", lambda app: app.screens.current in ("home", "resolve", "between", "gameend"))
    if driver.app.screens.current != "home":
        yield from tap(driver, "Home", exact=True)
    yield wait_for("home", lambda app: app.screens.current == "home"
                   and driver.button(f"New game: {title}") is not None)
    before = driver.report["taps"]
    yield from tap(driver, f"New game: {title}")
    yield wait_for("setup", lambda app: app.screens.current == "setup"
                   and driver.button("Quick start") is not None)
    seq = current_seq(driver)
    yield from tap(driver, "Quick start")
    yield wait_for("the first prompt", lambda app: app.screens.current == "resolve"
                   and current_seq(driver) != seq and app.snapshot.get("seq") == 0)
    return driver.report["taps"] - before


def _face(driver: Driver, want: bool | None) -> Any:
    """The pad's button for a face whose mark is a success (``want`` True), a miss (False), or any."""
    prompt = driver.app.snapshot["prompt"]
    pad = driver.app.screens.get_screen("resolve").ids.die_pad
    marks = prompt.get("face_marks") or [{"face": f, "label": str(f), "success": None}
                                         for f in prompt.get("faces") or []]
    for mark in marks:
        if want is None or mark.get("success") is want:
            for label in (str(mark["face"]), str(mark.get("label"))):
                button = driver.button(label, exact=True, within=pad)
                if button is not None:
                    return button.text.replace("\n", " ")
    return None


def _next_tap(driver: Driver, prefer: list[str] = ()) -> tuple[str, Any]:
    """What a player going for points taps now: a success face, else a preferred choice, else the
    best expected points, else the first real choice."""
    screen = driver.app.screens.get_screen("resolve")
    prompt = driver.app.snapshot["prompt"]
    if prompt.get("sealed"):
        return "0", screen.ids.special
    face = _face(driver, True) or _face(driver, None) if prompt.get("die") else None
    if face is not None:
        return face, screen.ids.die_pad
    choices = prompt.get("choices") or []
    for pattern in prefer:
        for choice in choices:
            if re.search(pattern, choice["label"]):
                return choice["label"], screen
    with_odds = [c for c in choices if c.get("expected_points") is not None]
    if with_odds:
        return max(with_odds, key=lambda c: float(c["expected_points"]))["label"], screen
    for choice in choices:
        if choice["command"].get("type") not in ("end_turn", "timeout"):
            return choice["label"], screen
    if choices:  # nothing else to do this turn: end it
        return choices[0]["label"], screen
    raise AssertionError(f"nothing to tap for {prompt.get('text')!r}")


def quick_games(driver: Driver, titles: list[str], paths: dict[str, list[str]], limit: int,
                plans: dict[str, list[str]]) -> Step:
    """Each game in turn on one kiosk (a start of the kiosk costs more than a walk): the report's
    ``quick`` holds each title's counts."""
    driver.report["quick"] = {}
    for title in titles:
        yield from quick_taps(driver, title, paths.get(title, []), limit, plans.get(title, []))


def quick_taps(driver: Driver, title: str, paths: list[str], limit: int, prefer: list[str] = ()) -> Step:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    taps: dict[str, Any] = {"to_first_prompt": (yield from _quick_start(driver, title))}
    prompt = driver.app.snapshot["prompt"]
    taps["first_prompt"] = prompt.get("text", "")
    taps["first_prompt_playable"] = bool(prompt.get("die") or prompt.get("sealed") or any(
        c["command"].get("type") not in ("end_turn", "timeout") for c in prompt.get("choices") or []))
    driver.shot(f"{slug}-first-prompt")
    start, score, count = driver.report["taps"], _score(driver.app), 0
    taps["to_first_score_steps"] = []
    while _score(driver.app) == score and count < limit:
        label, within = _next_tap(driver, prefer)
        seq = current_seq(driver)
        yield from tap(driver, label, exact=True, within=within)
        if label == "0" and within is not None and driver.app.snapshot["prompt"].get("sealed"):
            yield from tap(driver, "enter", exact=True, within=within)
        yield wait_for(f"the answer to {label!r}", settled(driver, seq))
        taps["to_first_score_steps"].append(label)
        count += 1
        if driver.app.screens.current != "resolve":
            driver.app.prepare_screen("resolve")
            yield wait_for("the play screen", on_screen("resolve"))
    taps["to_first_score"] = driver.report["taps"] - start
    taps["scored"] = _score(driver.app) != score
    driver.shot(f"{slug}-first-score")
    taps["paths"] = []
    for path in paths:
        yield from _quick_start(driver, title)
        start, score = driver.report["taps"], _score(driver.app)
        for step in path.split("|"):
            if step.startswith("face:"):
                label = _face(driver, step == "face:success")
                assert label is not None, f"no {step} face for {driver.app.snapshot['prompt'].get('text')!r}"
                within = driver.app.screens.get_screen("resolve").ids.die_pad
            else:
                label, within = step, driver.app.screens.get_screen("resolve")
            seq = current_seq(driver)
            yield from tap(driver, label, exact=True, within=within)
            yield wait_for(f"the answer to {label!r}", settled(driver, seq))
        taps["paths"].append({"path": path, "taps": driver.report["taps"] - start,
                              "scored": _score(driver.app) != score,
                              "prompt_after": driver.app.snapshot["prompt"].get("text", "")})
    driver.report["quick"][title] = taps


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", required=True, action="append",
                        help="the game's title as Home shows it (with --quick: one or more)")
    parser.add_argument("--commands", type=int, default=30)
    parser.add_argument("--sides", type=int, default=2, help="tap '+ side' up to this many sides")
    parser.add_argument("--first", action="store_true",
                        help="always tap the first choice offered (default: cycle through them)")
    parser.add_argument("--quick", action="store_true", help="count taps from Home to a scored roll")
    parser.add_argument("--paths", type=json.loads, default={},
                        help='with --quick: {"TITLE": ["label|label|face:success", ...]}: taps to count')
    parser.add_argument("--plans", type=json.loads, default={},
                        help='with --quick: {"TITLE": [patterns of the choices to take first]}')
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--step-timeout", type=float, default=20.0)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.size, args.sim, args.marker, args.screens = (width, height), True, None, ""
    args.out.mkdir(parents=True, exist_ok=True)
    if args.quick:
        return run(lambda driver: quick_games(driver, args.game, args.paths, args.commands, args.plans), args)
    return run(lambda driver: touch_game(driver, args.game[0], args.commands, not args.first, args.sides),
               args)


if __name__ == "__main__":
    sys.exit(main())
