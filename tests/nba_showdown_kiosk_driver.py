"""The NBA Showdown touch scenario for the real kiosk (``tests/kiosk_driver.py``'s driver and runner):

    python tests/nba_showdown_kiosk_driver.py --socket PATH --out DIR [--size 800x480] [--sim]
           [--whole-game [--until-break]]

Home -> New game: NBA Showdown -> Setup (the DEMO teams; Demo Dasher's Speed +1 in the card editor)
-> Start game -> keep both lineups, no double-teams -> Demo Dasher with Speed (its odds on the
button) -> the d20 face 14 on the die pad (every face shows what its chart row gives) -> assists
if asked -> the Table and the Log; with ``--whole-game``, on by touch to the end of the game (or,
with ``--until-break``, to the play after the first quarter break). Prints the JSON report.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk_driver import Driver, Step, current_seq, on_screen, run, settled, tap, wait_for  # noqa: E402


def _choice(driver: Driver, start: str) -> str | None:
    """The label of the first offered choice whose label starts with ``start``."""
    for choice in (driver.app.snapshot or {}).get("prompt", {}).get("choices", []):
        if choice["label"].startswith(start):
            return str(choice["label"])
    return None


def _choose(driver: Driver, start: str, what: str) -> Step:
    label = _choice(driver, start)
    assert label is not None, f"no choice {start!r}: {driver.app.snapshot['prompt']}"
    seq = current_seq(driver)
    yield from tap(driver, label)
    yield wait_for(what, settled(driver, seq))


def scoring_roll(driver: Driver) -> Step:
    yield wait_for("home", on_screen("home"))
    yield wait_for("the game list", lambda app: driver.button("New game: NBA Showdown") is not None)
    yield from tap(driver, "New game: NBA Showdown")
    yield wait_for("setup", on_screen("setup"))
    driver.shot("01-setup")
    row = driver.button("Demo Dasher: PG", exact=True).parent
    yield from tap(driver, "card", exact=True, within=row)
    yield wait_for("card editor", on_screen("card"))
    cells = driver.app.screens.get_screen("card").ids.fields.children[::-1]
    stepper = next(cells[i + 1] for i, cell in enumerate(cells) if getattr(cell, "text", None) == "Speed")
    driver.report["speed_before"] = stepper.children[1].text
    yield from tap(driver, "+", exact=True, within=stepper)
    yield wait_for("the new Speed", lambda app: stepper.children[1].text != driver.report["speed_before"])
    driver.report["speed_after"] = stepper.children[1].text
    driver.report["card_texts"] = driver.texts()
    driver.shot("02-card")
    yield from tap(driver, "Save card")
    yield wait_for("back to setup", on_screen("setup"))
    yield from tap(driver, "Start game")
    yield wait_for("the first prompt", lambda app: app.screens.current == "resolve" and bool(app.snapshot))
    driver.report["first_prompt"] = driver.app.snapshot["prompt"]["text"]
    driver.shot("03-placement")
    yield from _choose(driver, "keep the starting lineup", "the other team's lineup")
    yield from _choose(driver, "keep the starting lineup", "the double-teams")
    yield from _choose(driver, "no double-team", "the other team's double-team")
    yield from _choose(driver, "no double-team", "the first scoring roll's choices")
    driver.report["choose_buttons"] = [t for t in driver.texts() if t.startswith("PG Demo Dasher")]
    driver.shot("04-choose")
    yield from _choose(driver, "PG Demo Dasher Speed", "the d20")
    resolve = driver.app.screens.get_screen("resolve")
    driver.report["roll_prompt"] = driver.app.snapshot["prompt"]["text"]
    driver.report["roll_target"] = resolve.target_text
    driver.report["die_pad"] = [w.text for w in resolve.ids.die_pad.children[::-1]]
    driver.shot("05-roll")
    seq = current_seq(driver)
    yield from tap(driver, "14", exact=True)
    yield wait_for("the scored roll", settled(driver, seq))
    if _choice(driver, "no assist"):
        driver.shot("06-assists")
        yield from _choose(driver, "no assist", "the roll's result")
    driver.report["score"] = driver.app.score_text
    driver.report["message"] = driver.app.snapshot["scoreboard"]["message"]
    driver.report["view_score"] = driver.app.snapshot["view"]["score"]
    driver.shot("07-scored")
    yield from tap(driver, "Table", exact=True)
    yield wait_for("table", on_screen("table"))
    driver.report["table_texts"] = driver.texts()
    driver.shot("08-table")
    yield from tap(driver, "Log", exact=True)
    yield wait_for("history", on_screen("history"))
    driver.report["history_texts"] = driver.texts()
    driver.shot("09-history")
    if driver.whole_game:
        yield from _to_the_end(driver)


def _to_the_end(driver: Driver) -> Step:
    """The rest of the game by touch: a face on the pad or an offered choice, on whichever play screen
    (Play, Between) the kiosk shows, until Game end."""
    rng = random.Random(3)
    yield from tap(driver, "Play", exact=True)
    yield wait_for("a play screen", lambda app: app.screens.current in ("resolve", "between"))
    taps: dict[str, int] = {}
    while not driver.app.snapshot.get("outcome"):
        yield wait_for("the play screen", lambda app: app.screens.current in ("resolve", "between"))
        if driver.until_break and driver.app.screens.current == "resolve" and any(
                key.startswith("between:") for key in taps):
            break  # the short run: the first quarter break tapped through, play on after it
        prompt = driver.app.snapshot["prompt"]
        screen = driver.app.screens.current_screen
        pad = [w.choice_label for w in screen.ids.die_pad.children] if "die_pad" in screen.ids else []
        labels = [c["label"] for c in prompt.get("choices", [])]
        label = rng.choice(pad) if pad else rng.choice(labels)
        key = f"{screen.name}:{'face' if pad else driver.app.snapshot['view']['stage']}"
        taps[key] = taps.get(key, 0) + 1
        seq = current_seq(driver)
        yield from tap(driver, label, exact=True, within=screen)
        yield wait_for(f"the answer to {label!r}", settled(driver, seq))
    driver.report["whole_game_taps"] = taps
    if driver.until_break:
        driver.report["after_break"] = driver.app.snapshot["view"]
        return
    yield wait_for("game end", on_screen("gameend"))
    driver.report["final"] = driver.app.snapshot["view"]
    driver.report["outcome"] = driver.app.snapshot["outcome"]
    driver.report["gameend_texts"] = driver.texts()
    driver.shot("10-gameend")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--sim", action="store_true")
    parser.add_argument("--step-timeout", type=float, default=15.0)
    parser.add_argument("--whole-game", action="store_true", help="after the scored roll, play to the end")
    parser.add_argument("--until-break", action="store_true",
                        help="with --whole-game: stop once the first quarter break has been tapped through")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.size = (width, height)
    args.marker = None
    args.screens = ""
    args.out.mkdir(parents=True, exist_ok=True)

    def scenario(driver: Driver) -> Step:
        driver.whole_game = args.whole_game
        driver.until_break = args.until_break
        return scoring_roll(driver)

    return run(scenario, args)


if __name__ == "__main__":
    sys.exit(main())
