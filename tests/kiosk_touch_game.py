"""Plays any game on the real kiosk by touch alone and prints a JSON report (the driver's harness).

    python tests/kiosk_touch_game.py --game TITLE --commands N [--sides S] [--first]
           --socket PATH --out DIR [--size WxH]

From Home it taps "New game: TITLE", then "Start game" on Setup, then on the play screen taps what a
player would: a sealed value on the masked pad (digits, then enter), a ready-made choice, or a face
of the die pad, N times or until the game ends. Nothing here names a game: the title comes from the
command line, everything else from the screen.
"""

from __future__ import annotations

import argparse
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", required=True, help="the game's title as Home shows it")
    parser.add_argument("--commands", type=int, default=30)
    parser.add_argument("--sides", type=int, default=2, help="tap '+ side' up to this many sides")
    parser.add_argument("--first", action="store_true",
                        help="always tap the first choice offered (default: cycle through them)")
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--step-timeout", type=float, default=20.0)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.size, args.sim, args.marker, args.screens = (width, height), True, None, ""
    args.out.mkdir(parents=True, exist_ok=True)
    return run(lambda driver: touch_game(driver, args.game, args.commands, not args.first, args.sides), args)


if __name__ == "__main__":
    sys.exit(main())
