"""The play screen by touch under Xvfb: a command the prompt allows without a ready choice (a
strategy card and what it does) is entered in a form drawn from its declared fields and sent as one
command; a refusal stays in the form with the service's words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kiosk_support import (
    ARTIFACTS,
    PYTHON,
    ROOT,
    play_until,
    request,
    run_kiosk,
    served_table,
)
from long_runs import long_runs

GAME = "nba-showdown"


@pytest.fixture()
def table(tmp_path: Path, display: str) -> Iterator[dict]:
    # The session's X server is tall enough for the upright 720x1280 windows (service_rig).
    with served_table(tmp_path, display) as info:
        yield info


def _to_the_scoring_roll(socket_path: Path) -> dict:
    info = request(socket_path, {"op": "game_info", "game": GAME})["info"]
    options = info["setup_form"]["presets"][0]["options"]  # the DEMO teams, every rule
    assert request(socket_path, {"op": "new_game", "game": GAME, "options": options})["ok"]
    return play_until(socket_path, lambda s: "play_card" in s["prompt"]["commands"])


@pytest.mark.parametrize("size", ["800x480", "720x1280"])
def test_a_strategy_card_is_played_by_touch_from_the_commands_declared_fields(table: dict, size: str) -> None:
    before = _to_the_scoring_roll(table["socket"])
    assert before["view"]["roll"]["cards"] == []
    out = ARTIFACTS / "play" / size
    argv = [PYTHON, str(ROOT / "tests" / "kiosk_play_driver.py"), "strategy_card,undo_notice", "--socket",
            str(table["socket"]), "--out", str(out), "--size", size]
    report = run_kiosk(argv, table["env"], timeout=300)
    assert report["ok"], report.get("error")
    for name, shot in report["shots"].items():
        assert shot["problems"] == [], f"{name}: {shot['problems']}"
    # The deck list's cards are the buttons; the first one with a +2 roll bonus went in as one command.
    first = report["offered_cards"][0]
    card = report["roll_after_offense"]["cards"][0]
    assert (card["card"], card["role"], card["roll_bonus"]) == (first, "offense", 2)
    assert report["taps_for_card"] <= 5, "open, card, field, digit, send"
    # The picked card stays readable over the fields, whatever their scroll shows.
    assert report["entered_line"].startswith("Side: "), report["entered_line"]  # the acting side, preset
    assert report["entered_line"].endswith(f" · Card: {first} · Roll bonus: 2"), report["entered_line"]
    # A second offensive card: refused, and the form shows the service's reason.
    assert "already played a offense card on this roll" in report["refusal"]
    defence = report["roll_after_defence"]["cards"][1]
    assert (defence["role"], defence["speed"]) == ("defense", 1), (report["defence_values"], defence)
    # Undo: the notice names what went, Redo sits beside it and on the bar; away from the game and
    # once it is over UNDO is disarmed.
    assert report["undo_notice"].startswith(f"Undid: DEMO Lanterns play {defence['card']} (defense)")
    assert report["redo_on_bar"]
    assert report["redo_notice"].startswith(f"Redid: DEMO Lanterns play {defence['card']}")
    assert report["undo_armed_at_home"] is False and report["undo_armed_after_the_end"] is False


@pytest.mark.parametrize("size", ["800x480", "720x1280"])
def test_the_die_pad_stays_put_and_whole_and_the_acting_side_is_unmistakable(table: dict, size: str) -> None:
    out = ARTIFACTS / "play" / size
    argv = [PYTHON, str(ROOT / "tests" / "kiosk_play_driver.py"), "die_pad,who_acts,choices_top", "--socket",
            str(table["socket"]), "--out", str(out), "--size", size]
    report = run_kiosk(argv, table["env"], timeout=300)
    assert report["ok"], report.get("error")
    for name, shot in report["shots"].items():
        assert shot["problems"] == [], f"{name}: {shot['problems']}"
    # Each choice button carries its own target and chance (the prompt's per-choice odds).
    assert report["choice_buttons"][:2] == ["choice number 1 · 10%", "choice number 2 · 12 or more · 20%"]
    alone, crowded = report["pad_alone"], report["pad_with_choices"]
    assert len(alone) == 20 and alone == crowded, "every face in the same place, choices or not"
    width, height = (int(v) for v in size.split("x"))
    for x, y, w, h in crowded:
        assert x >= 0 and x + w <= width and y >= 0 and y + h <= height, "every face fully on screen"
    # Who acts: the prompt's side, on its Setup colour (the second side's default red), 60 px or more,
    # and the top bar names the same side.
    banner = report["banner"]
    assert banner["text"] == "Bo to act" and banner["height"] >= 60
    assert [round(c * 255) for c in banner["fill"][:3]] == [0xE0, 0x45, 0x2F]
    assert "Bo to act (Ann attacks)" in report["turn_text"]
    # Thirty choices scrolled to the last: the same prompt sent again stays there; new ones open at the top.
    assert report["choices_scrollable"]
    assert report["scroll_y_same_prompt"] == 0 and report["scroll_y_new_prompt"] == 1


def _forms_to_open(commands: list[dict]) -> list[str]:
    """make test's forms of a game: commands that between them have every kind of field, the one
    with the most fields, the one with the longest field name and one with none; in declared order."""
    def kinds(command: dict) -> set[str]:
        return {field["kind"] for field in command.get("fields") or []}

    chosen: set[str] = set()
    covered: set[str] = set()
    for command in sorted(commands, key=lambda c: -len(kinds(c))):
        if kinds(command) - covered:
            chosen.add(command["type"])
            covered |= kinds(command)
    chosen.add(max(commands, key=lambda c: len(c.get("fields") or []))["type"])
    def longest_name(command: dict) -> int:
        return max((len(field["name"]) for field in command.get("fields") or []), default=0)

    chosen.add(max(commands, key=longest_name)["type"])
    chosen.update([c["type"] for c in commands if not c.get("fields")][:1])
    return [c["type"] for c in commands if c["type"] in chosen]


def test_every_declared_command_of_every_game_has_a_form_that_lays_out(table: dict) -> None:
    games = [g["name"] for g in request(table["socket"], {"op": "known_games"})["known_games"]]
    # make test: the game with the most kinds of field (objects, lists from the view, bounded numbers)
    # and the one with the most commands, the forms of each that have between them every kind of
    # field (_forms_to_open); benchmarks/long_runs.py: every form of every game.
    games = games if long_runs() else [g for g in games if g in ("nba-showdown", "valley-hoopers")]
    for game in games:
        info = request(table["socket"], {"op": "game_info", "game": game})["info"]
        forms = [c["type"] for c in info["commands"]] if long_runs() else _forms_to_open(info["commands"])
        presets = info["setup_form"].get("presets") or [{"options": {}}]
        started = request(table["socket"], {"op": "new_game", "game": game, "options": presets[0]["options"]})
        assert started["ok"], started
        out = ARTIFACTS / "play" / "forms" / game
        argv = [PYTHON, str(ROOT / "tests" / "kiosk_play_driver.py"), "every_form", "--socket",
                str(table["socket"]), "--out", str(out), "--size", "800x480", "--forms", ",".join(forms)]
        report = run_kiosk(argv, table["env"], timeout=300)
        assert report["ok"], report.get("error")
        assert report["forms"] == forms
        for name, shot in report["shots"].items():
            assert shot["problems"] == [], f"{game} {name}: {shot['problems']}"
