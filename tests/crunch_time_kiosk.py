"""Crunch Time on the real kiosk by touch: a scenario for ``tests/kiosk_driver.py``'s runner.

    python tests/crunch_time_kiosk.py --socket PATH --out DIR [--size 800x480] [--sim] [--games FILE]

Without ``--games``: Home -> a new Crunch Time game -> the setup form (two coaches, no court) -> the
tip-off -> a Shot card whose zones are tapped on the zone grid -> a Star card -> the possession
scored; then the Table screen with the lead's tug-of-war bar. With ``--games`` (a JSON list of
``{"mode", "difficulty", "commands"}``): each game set up on the form and played to its end by
tapping, for every command, the button (or grid cell) of the offered choice that is that command.
Screenshots land in ``--out``.
"""

from __future__ import annotations

import argparse
import json
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


def shows_the_prompt(driver: Driver) -> bool:
    """The Play screen's buttons are the current prompt's choices (the screen is redrawn a frame or
    more after a snapshot arrives; a tap before then would land on the last prompt's buttons)."""
    shown = {getattr(w, "choice_label", None) for w in driver.visible_widgets()} - {None}
    return shown == {c["label"] for c in driver.app.snapshot["prompt"]["choices"]}


def tap_choice(driver: Driver, label: str) -> Step:
    yield wait_for("the prompt's choices on screen", lambda app: shows_the_prompt(driver))
    yield wait_for("a frame to lay them out", lambda app: True)
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


def whole_games(games: list[dict[str, Any]]) -> Any:
    from companion.games.crunch_time.model import DIFFICULTY_TITLES

    def scenario(driver: Driver) -> Step:
        results = driver.report.setdefault("games", [])
        sent: list[dict[str, Any]] = []
        send = driver.app.send
        # Every command the kiosk sends, to check that each tap sent exactly the choice tapped.
        driver.app.send = lambda command: (sent.append(dict(command)), send(command))[1]
        for number, game in enumerate(games):
            if driver.button(TITLE) is None:
                yield from tap(driver, "Home", exact=True)
            yield wait_for("home", lambda app: driver.button(TITLE) is not None)
            yield from tap(driver, TITLE)
            yield wait_for("setup", lambda app: app.screens.current == "setup"
                           and not app.screens.transition.is_active)
            for _ in range(3):  # the form is filled in once the screen is up
                yield wait_for("a frame", lambda app: True)
            mode = "Solo against the AI" if game["mode"] == "solo" else "Two coaches"
            yield from tap(driver, mode, exact=True)
            yield wait_for(f"{mode} chosen", lambda app, m=mode: getattr(driver.button(m, exact=True),
                                                                           "state", "") == "down")
            if game["mode"] == "solo":
                wanted = DIFFICULTY_TITLES[game["difficulty"]]
                for _ in range(len(DIFFICULTY_TITLES)):  # the cycling button: tap on to the difficulty
                    if driver.button(wanted, exact=True) is not None:
                        break
                    shown = next(t for t in DIFFICULTY_TITLES.values() if driver.button(t, exact=True))
                    yield from tap(driver, shown, exact=True)
            before = (driver.app.snapshot or {}).get("game_id")
            yield from tap(driver, "Start game")
            yield wait_for("the new game", lambda app, old=before: app.screens.current == "resolve"
                           and app.snapshot and app.snapshot.get("game_id") != old)
            for n, command in enumerate(game["commands"]):
                choices = driver.app.snapshot["prompt"]["choices"]
                label = next((c["label"] for c in choices if c["command"] == command), None)
                assert label is not None, f"{command} not offered at {driver.app.snapshot['prompt']['text']}"
                seq, count = current_seq(driver), len(sent)
                yield from tap_choice(driver, label)
                # One tap, one command: the one whose button was tapped.
                assert sent[count:] == [command] and current_seq(driver) == seq + 1, (
                    f"game {number} command {n}: tapped {label!r} for {command}, sent {sent[count:]}, "
                    f"seq {seq} -> {current_seq(driver)}")
            yield wait_for("the game end", lambda app: app.screens.current == "gameend"
                           and not app.screens.transition.is_active)
            snapshot = driver.app.snapshot
            results.append({"mode": game["mode"], "difficulty": game.get("difficulty"),
                            "view": snapshot["view"], "outcome": snapshot["outcome"],
                            "lead": snapshot["scoreboard"]["lead"], "score_text": driver.app.score_text})
            driver.shot(f"game-{number}-end")
            yield from tap(driver, "New game", exact=True)

    return scenario


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--sim", action="store_true")
    parser.add_argument("--step-timeout", type=float, default=15.0)
    parser.add_argument("--games", type=Path, default=None, help="whole games to play by touch (JSON)")
    args: Any = parser.parse_args()
    args.marker, args.screens = None, ""
    width, height = (int(v) for v in args.size.split("x"))
    args.size = (width, height)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.games is not None:
        return run(whole_games(json.loads(args.games.read_text())), args)
    return run(possession_by_touch, args)


if __name__ == "__main__":
    sys.exit(main())
