"""The kiosk during The Series, by touch: the reward checklist, the next game, a whole series.

    python tests/series_kiosk_driver.py SCENARIO --socket PATH --out DIR [--size 800x480] [--sim]

``series_rewards``: the test brings a series to the reward phase of game 1 through the socket; this
scenario then taps what the table would: the gameplan counts, every item of the checklist, and a
ready-made next game where the side not at Home won the opening d20 roll.

``next_game_taps``: the recorded series is on the table up to its first ``next_game``; the scenario
checks every next game the prompt offers is on screen without scrolling, taps the recorded one where
it stands and counts the taps.

``whole_series``: the recorded series (tests/games/series_valley_hoopers.jsonl) is on the table,
from its setup or further on (the recorded commands already in the log are skipped); the kiosk stays
on it to the end. The plays of each game go over the table socket from another process
(``recorded_sender.py``, as the table's buttons and dice tray would send them) while the kiosk shows
them; every command between games is a tap on the prompt's button that carries exactly the recorded
command. After each ``next_game`` the Table screen's line-up rows are read (the carry-over), and at
the end the game end screen and its "Export JSON". With ``COURTSIDE_LONG_RUNS=1`` and the series from
its setup, the plays of game 1 are tapped too where the prompt has a button for them (a ready-made
choice or a die face); the others go over the socket.

The kiosk shows everything as the prompt's buttons and the game's panels (it names no game). Runs
through ``kiosk_driver``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
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
    games = [c for c in driver.app.snapshot["prompt"]["choices"] if c["command"]["type"] == "next_game"]
    driver.report["next_game_choices"] = [c["label"] for c in games]
    # The side not at Home won the opening d20 roll: not the first button (Home's), the one a tap must find.
    view = driver.app.snapshot["view"]
    home = view["series"]["court_pattern"][view["series"]["game"]]  # the next game's, by name
    away = next(i for i, side in enumerate(view["sides"]) if side["name"] != home)
    label = next(c["label"] for c in games if c["command"]["first_attacker"] == away)
    driver.report["next_game_tapped"] = label
    seq = current_seq(driver)
    yield from tap(driver, label, exact=True, within=driver.app.screens.current_screen)
    yield wait_for("game 2 on the table", lambda app: _series(app).get("game") == 2
                   and _series(app).get("phase") == "game")
    driver.report["game_2_prompt"] = driver.app.snapshot["prompt"]["text"]
    driver.report["game_2_score"] = driver.app.score_text
    driver.shot("33-series-game-2")


SERIES_LOG = Path(__file__).resolve().parent / "games" / "series_valley_hoopers.jsonl"
SENDER = Path(__file__).resolve().parent / "recorded_sender.py"
BETWEEN = ("gameplan_result", "reward", "next_game", "sleeve", "susan_peg")


def recorded_segments(skip: int = 0) -> list[tuple[str, list[dict[str, Any]]]]:
    """The recorded series after its setup line and its first ``skip`` commands (already played), cut
    into runs: ``("plays", [...])`` of one game and ``("between", [...])`` between two games."""
    segments: list[tuple[str, list[dict[str, Any]]]] = []
    for line in SERIES_LOG.read_text(encoding="utf-8").splitlines()[1 + skip:]:
        command = json.loads(line)
        kind = "between" if command["type"] in BETWEEN else "plays"
        if not segments or segments[-1][0] != kind:
            segments.append((kind, []))
        segments[-1][1].append(command)
    return segments


def _button_for(driver: Driver, command: dict[str, Any]) -> str | None:
    """The label of the prompt's button that sends exactly ``command``, or of the die face rolled."""
    prompt = (driver.app.snapshot or {}).get("prompt") or {}
    for choice in prompt.get("choices") or []:
        if choice["command"] == command:
            return str(choice["label"])
    if command["type"] == "roll" and prompt.get("die") == command.get("die", prompt.get("die")):
        screen = driver.app.screens.current_screen
        pad = screen.ids.get("die_pad") if hasattr(screen, "ids") else None
        for widget in pad.children if pad is not None else []:
            label = str(getattr(widget, "choice_label", None) or getattr(widget, "text", ""))
            if label.lower().replace(" ", "") == str(command["face"]).lower():
                return label
    return None


def tap_command(driver: Driver, command: dict[str, Any]) -> Step:
    """Tap the button that sends ``command`` (it must be on the screen) and wait for the answer."""
    def shown(_app: Any) -> bool:
        label = _button_for(driver, command)
        return label is not None and driver.button(label, exact=True,
                                                   within=driver.app.screens.current_screen) is not None

    # On the Play screen, or the between-pairs screen that shows the same prompt's buttons.
    yield wait_for(f"a button for {command}", shown)
    label = _button_for(driver, command)
    assert label is not None
    seq = current_seq(driver)
    # A long list of choices may be laid out again between the scroll and the tap (a notice line
    # above it changes its height): scroll again until the button is in view at the tap.
    for _ in range(5):
        widget = driver.button(label, exact=True, within=driver.app.screens.current_screen)
        if widget is not None and driver.in_view(widget, *widget.to_window(*widget.center)):
            driver.tap(label, exact=True, within=driver.app.screens.current_screen)
            break
        yield from tap_scroll(driver, label)
    else:
        raise AssertionError(f"{label!r} never stayed in view long enough to be tapped")
    yield wait_for(f"the answer to {label!r}", settled(driver, seq))
    driver.report["tapped_commands"] += 1


def tap_scroll(driver: Driver, label: str) -> Step:
    """Scroll the button ``label`` into view and let that frame draw."""

    def in_view(_app: Any) -> bool:
        widget = driver.button(label, exact=True, within=driver.app.screens.current_screen)
        if widget is None:
            return False
        if driver.in_view(widget, *widget.to_window(*widget.center)):
            return True
        driver.scroll_into_view(widget)
        return False

    yield wait_for(f"{label!r} scrolled into view", in_view)


def send_plays(driver: Driver, commands: list[dict[str, Any]]) -> Step:
    """A game's plays over the table socket from another process (a second client, as the table's
    buttons and tray are), shown live by the kiosk; waits until the kiosk shows the last one."""
    sender = subprocess.Popen([sys.executable, str(SENDER), "--socket", str(driver.app.conn.path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert sender.stdin is not None
    sender.stdin.write("".join(json.dumps(c) + "\n" for c in commands))
    sender.stdin.close()
    yield wait_for(f"{len(commands)} plays sent", lambda app: sender.poll() is not None)
    assert sender.stdout is not None
    result = json.loads(sender.stdout.read().strip().splitlines()[-1])
    assert not result["error"] and result["accepted"] == len(commands), result
    yield wait_for("the last play on screen", lambda app: current_seq(driver) >= result["last_seq"])
    driver.report["sent_commands"] += len(commands)


def line_up_rows(driver: Driver) -> list[list[str]]:
    """The Table screen's line-up rows as their cells' texts (position, name, energy, cubes, status)."""
    from kivy.uix.gridlayout import GridLayout

    rows = []
    screen = driver.app.screens.get_screen("table")
    for grid in screen.walk(restrict=True):
        if not isinstance(grid, GridLayout) or not grid.cols:
            continue
        texts = [getattr(w, "text", "") for w in grid.children[::-1]]
        if len(texts) < grid.cols or "Hooper" not in texts[:grid.cols]:
            continue
        rows += [texts[i:i + grid.cols] for i in range(grid.cols, len(texts), grid.cols)]
    return rows


def look_at_the_line_ups(driver: Driver, game: int) -> Step:
    """Open the Table screen at the start of ``game`` and keep its line-up rows, then back to Play."""
    yield from tap(driver, "Table", exact=True)
    yield wait_for("the table", lambda app: app.screens.current == "table" and bool(line_up_rows(driver)))
    driver.report["line_ups"][str(game)] = line_up_rows(driver)
    driver.shot(f"game-{game}-table")
    yield from tap(driver, "Play", exact=True)
    yield wait_for("play", lambda app: app.screens.current == "resolve")


def whole_series(driver: Driver) -> Step:
    """The rest of the recorded series from where the table is: see the module's docstring."""
    from long_runs import long_runs

    driver.report.update(sent_commands=0, tapped_commands=0, plays_by_touch=0, line_ups={}, between_texts={},
                         seconds={"plays": 0.0, "between": 0.0, "line_ups": 0.0})
    clock = time.monotonic()

    def spent(what: str) -> None:
        nonlocal clock
        driver.report["seconds"][what] += time.monotonic() - clock
        clock = time.monotonic()

    yield wait_for("the series on screen",
                   lambda app: bool(_series(app)) and app.screens.current == "resolve")
    played = current_seq(driver)  # one log entry a command: the recorded commands already played
    driver.report["joined_at"] = {"seq": played, "game": _series(driver.app)["game"],
                                  "phase": _series(driver.app)["phase"]}
    if played == 0:
        yield from look_at_the_line_ups(driver, 1)
    for index, (kind, commands) in enumerate(recorded_segments(played)):
        if kind == "between":
            game = _series(driver.app).get("game")
            driver.report["between_texts"][str(game)] = driver.texts()
            driver.shot(f"game-{game}-reward")
            for command in commands:
                yield from tap_command(driver, command)
            yield wait_for("the next game", lambda app: _series(app).get("phase") == "game")
            spent("between")
            yield from look_at_the_line_ups(driver, _series(driver.app)["game"])
            spent("line_ups")
            continue
        if index == 0 and played == 0 and long_runs():
            # The long run: game 1 by touch where a button sends the play, the rest over the socket.
            for command in commands:
                if _button_for(driver, command) is not None:
                    yield from tap_command(driver, command)
                    driver.report["plays_by_touch"] += 1
                else:
                    yield from send_plays(driver, [command])
        else:
            yield from send_plays(driver, commands)
        spent("plays")
    yield wait_for("the game end screen", lambda app: app.screens.current == "gameend")
    driver.report["gameend_texts"] = driver.texts()
    driver.shot("series-end")
    yield from tap(driver, "Export JSON", exact=True)
    yield wait_for("the export saved", lambda app: app.notice_text.startswith("Saved "))
    driver.report["export_path"] = driver.app.notice_text.removeprefix("Saved ")


def _whole_in_view(driver: Driver, widget: Any) -> bool:
    """Both corners of ``widget`` inside every scroll view around it: seen and tapped as it stands."""
    corners = (widget.to_window(widget.x + 1, widget.y + 1),
               widget.to_window(widget.right - 1, widget.top - 1))
    return all(driver.in_view(widget, x, y) for x, y in corners)


def next_game_taps(driver: Driver) -> Step:
    """The table is between two games of the recorded series, its next command the recorded
    ``next_game``: every next game the prompt offers must be on screen as it opens (no scrolling), and
    the recorded one is started by tapping its button where it stands; the report counts the taps."""
    def ready(app: Any) -> bool:
        prompt = (app.snapshot or {}).get("prompt") or {}
        return _series(app).get("phase") == "next_game" and app.screens.current == "resolve" and any(
            c["command"]["type"] == "next_game" for c in prompt.get("choices") or [])

    yield wait_for("the next game's choices", ready)
    played = current_seq(driver)
    command = json.loads(SERIES_LOG.read_text(encoding="utf-8").splitlines()[1 + played])
    assert command["type"] == "next_game", command
    screen = driver.app.screens.current_screen
    yield wait_for("its button", lambda app: driver.button(str(_button_for(driver, command)), exact=True,
                                                          within=screen) is not None)
    games = [c for c in driver.app.snapshot["prompt"]["choices"] if c["command"]["type"] == "next_game"]
    buttons = [driver.button(c["label"], exact=True, within=screen) for c in games]
    driver.report["next_game_buttons"] = len(games)
    driver.report["next_game_found"] = sum(b is not None for b in buttons)
    driver.report["next_game_in_view"] = sum(b is not None and _whole_in_view(driver, b) for b in buttons)
    driver.report["next_game_scroll_y"] = screen.ids.choices_scroll.scroll_y
    driver.report["next_game_cells"] = sorted({b.text for b in buttons if b is not None})
    driver.report["next_game_font_px"] = min(float(b.font_size) for b in buttons if b is not None)
    # The words a cell or a row shows must fit it (a clipped label is no label).
    driver.report["next_game_clipped"] = [b.text for b in buttons if b is not None
                                          and (b.texture_size[0] > b.width or b.texture_size[1] > b.height)]
    driver.shot("40-next-game")
    label = str(_button_for(driver, command))
    taps = driver.report["taps"]
    driver.tap(label, exact=True, within=screen)  # where it stands: no scroll first
    yield wait_for("the next game on the table", lambda app: _series(app).get("phase") == "game")
    driver.report["next_game_taps"] = driver.report["taps"] - taps
    driver.report["next_game_label"] = label
    driver.report["next_game_seq"] = played
    driver.shot("41-next-game-started")


kiosk_driver.SCENARIOS["series_rewards"] = series_rewards
kiosk_driver.SCENARIOS["next_game_taps"] = next_game_taps
kiosk_driver.SCENARIOS["whole_series"] = whole_series

if __name__ == "__main__":
    sys.exit(kiosk_driver.main())
