"""The kiosk between two games of The Series, by touch: the reward checklist and the next game.

    python tests/series_kiosk_driver.py series_rewards --socket PATH --out DIR [--size 800x480] [--sim]

The test brings a series to the reward phase of game 1 through the socket; this scenario then taps
what the table would: the gameplan counts, every item of the checklist, and a ready-made next game.
The kiosk shows them as the prompt's buttons (it names no game). Runs through ``kiosk_driver``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kiosk_driver  # noqa: E402 - configures Kivy before it loads
from kiosk_driver import Driver, Step, current_seq, settled, tap, wait_for  # noqa: E402


def _series(app: Any) -> dict[str, Any]:
    return ((app.snapshot or {}).get("view") or {}).get("series") or {}


def series_rewards(driver: Driver) -> Step:
    yield wait_for("the reward phase", lambda app: _series(app).get("phase") == "reward"
                   and app.screens.current == "resolve")
    driver.report["reward_prompt"] = driver.app.snapshot["prompt"]["text"]
    driver.shot("30-series-gameplans")
    tapped = []
    while _series(driver.app).get("phase") == "reward":
        prompt = driver.app.snapshot["prompt"]
        labels = [c["label"] for c in prompt["choices"]]
        if prompt["commands"] == ["reward"] and "reward_texts" not in driver.report:
            driver.report["reward_texts"] = driver.texts()
            driver.report["reward_choices"] = labels
            driver.shot("31-series-checklist")
        label = labels[0]  # a gameplan count of 0, then each checklist item in turn
        seq = current_seq(driver)
        yield from tap(driver, label, exact=True, within=driver.app.screens.current_screen)
        yield wait_for(f"the answer to {label!r}", settled(driver, seq))
        tapped.append(label)
    driver.report["tapped"] = tapped
    yield wait_for("the next game's choices", lambda app: bool((app.snapshot or {}).get("prompt", {})
                                                              .get("choices")))
    driver.report["next_game_prompt"] = driver.app.snapshot["prompt"]["text"]
    driver.shot("32-series-next-game")
    # Sleeve the hooper upgrade card just taken, by its button (a stat card asks its stat next).
    sleeves = [c["label"] for c in driver.app.snapshot["prompt"]["choices"] if ": sleeve " in c["label"]]
    driver.report["sleeve_choices"] = sleeves
    for label in sleeves[:1]:
        seq = current_seq(driver)
        yield from tap(driver, label, exact=True, within=driver.app.screens.current_screen)
        yield wait_for(f"the answer to {label!r}", settled(driver, seq))
        if "which stat" in driver.app.snapshot["prompt"]["text"]:
            stat = driver.app.snapshot["prompt"]["choices"][0]["label"]
            seq = current_seq(driver)
            yield from tap(driver, stat, exact=True, within=driver.app.screens.current_screen)
            yield wait_for(f"the answer to {stat!r}", settled(driver, seq))
        driver.report["planned_prompt"] = driver.app.snapshot["prompt"]["text"]
    label = next(c["label"] for c in driver.app.snapshot["prompt"]["choices"]
                 if c["command"]["type"] == "next_game")
    seq = current_seq(driver)
    yield from tap(driver, label, exact=True, within=driver.app.screens.current_screen)
    yield wait_for("game 2 on the table", lambda app: _series(app).get("game") == 2
                   and _series(app).get("phase") == "game")
    driver.report["game_2_prompt"] = driver.app.snapshot["prompt"]["text"]
    driver.report["game_2_score"] = driver.app.score_text
    driver.shot("33-series-game-2")


kiosk_driver.SCENARIOS["series_rewards"] = series_rewards

if __name__ == "__main__":
    sys.exit(kiosk_driver.main())
