"""The kiosk as the table uses it: real touches on the real Kivy app, against a real table service.

Each scenario runs Kivy in its own process (``tests/kiosk_driver.py`` or ``companion run``) under a
private Xvfb; screenshots land in ``tests/artifacts/kiosk/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kiosk_support import (
    ARTIFACTS,
    PYTHON,
    ROOT,
    kiosk_env,
    play_until,
    request,
    run_kiosk,
    served_table,
    start_service,
    table_test_options,
)
from long_runs import long_runs
from service_rig import connections_to, kill_processes_naming

SIZES = ("800x480", "1024x600", "1280x720")


@pytest.fixture()
def table(tmp_path: Path, display: str) -> Iterator[dict]:
    """A simulated table service with the test cards remembered by the kiosk."""
    with served_table(tmp_path, display, cards=True) as info:
        yield info


def driver(scenario: str, table: dict, out: str, size: str = "800x480", sim: bool = True,
           marker: Path | None = None) -> list[str]:
    argv = [PYTHON, str(ROOT / "tests" / "kiosk_driver.py"), scenario, "--socket", str(table["socket"]),
            "--out", str(ARTIFACTS / out), "--size", size]
    return argv + (["--sim"] if sim else []) + (["--marker", str(marker)] if marker else [])


def assert_laid_out(report: dict) -> None:
    for name, shot in report["shots"].items():
        assert Path(shot["path"]).stat().st_size > 1000, name
        assert shot["problems"] == [], f"{name}: {shot['problems']}"


def test_setup_and_a_defended_fouled_two_pointer_with_its_free_throws_by_touch(table: dict) -> None:
    report = run_kiosk(driver("full_turn", table, "full_turn"), table["env"])
    assert report["ok"], report.get("error")
    assert report["first_prompt"] == "Lucy: play F1 (a fundamental or the attack)"
    # The defender sees the shooter's target before choosing; then the breakdown names every term.
    # Muy Schillato's 2PS (50 on the remembered card) typed as 60 on the card editor's keypad in 3 taps,
    # then -5: the 55 is what the table uses.
    typed = (report["card_2ps_before"], report["card_2ps_typed"], report["card_2ps_after"])
    assert typed == ("50", "60", "55")
    assert report["defense_window_target"] == "55 2PS Muy Schillato = 55"
    assert report["defense_window_chance"] == "Roll 55 or less · 55% chance · 1.10 points expected"
    assert report["foul_die_faces"] == ["Whistle", "Whistle 2", "Whistle 3", "Charging foul", "Jump ball",
                                        "Blank"]
    assert report["fouled_shot_target"] == ("55 2PS Muy Schillato - 20 D2 Chus Kinder"
                                            " - 20 foul bonus whistle = 15")
    assert report["fouled_shot_chance"] == "Roll 15 or less · 15% chance · 0.30 points expected"
    assert report["free_throw_target"] == "55 2PS Muy Schillato + 15 free throw = 70"
    assert report["score_after_turn"] == "Lucy 2 - 0 Karl"
    # The score bar shows the side names in the colours chosen at setup (blue and red by default).
    assert report["top_bar_score"] == "[color=2f7de1]Lucy[/color] 2 - 0 [color=e0452f]Karl[/color]"
    assert report["prompt_after_turn"] == "Karl: play F1 (a fundamental or the attack)"
    assert report["score_after_undo"] == "Lucy 1 - 0 Karl"
    table_texts = report["table_texts"]
    for expected in ("P1 · pair 1 of 8 · Karl attacks", "Team fouls 1",
                     "coach tokens 7 · timeouts 3 · keepers"):
        assert expected in table_texts
    # One row per hooper: spot, name, energy, cubes (the fouler took a red, the fouled shooter a white).
    chus = table_texts.index("Chus Kinder")
    assert table_texts[chus - 1:chus + 3] == ["SG", "Chus Kinder", "4/5", "1 red"]
    muy = table_texts.index("Muy Schillato")
    assert table_texts[muy - 1:muy + 3] == ["SG", "Muy Schillato", "4/5", "1 white"]
    assert "Chus Kinder fouls Muy Schillato: +20 defense" in report["history_texts"]
    # Simulated hardware driven from the panel: tray face, held UNDO, roll for me.
    assert report["score_after_tray_roll"] == "Lucy 2 - 0 Karl"
    assert report["score_after_held_undo"] == "Lucy 1 - 0 Karl"
    assert report["prompt_after_roll_for_me"] == "Karl: play F1 (a fundamental or the attack)"
    # Setup: new game, card, the 2PS number, 6, 0, -, save, start (8); the turn: 6; then table, log,
    # undo, settings, sim, play, the encoder turn and three simulated-hardware taps, and a card from
    # the table (table, name, 2nd position, save).
    assert report["taps"] == 8 + 6 + 4 + 2 + 1 + 3 + 4
    # The encoder turned one step from the free throw's dial start (the target, 70) shows the next face.
    assert report["live_dial"] == "Dial shows: d20 of Valley Hoopers: 75"
    assert report["chus_second_after_edit"] == "PG", "the card completed from the Table reached the game"
    assert "20 (on the card)" in report["in_game_card_texts"], "an entered stat is shown, not editable"
    # Every tap sent once: 11 entries after the setup (the turn's 6, UNDO, the tray's roll, the held
    # UNDO, roll for me, the card); a simulated button that sent its press twice undid twice.
    assert request(table["socket"], {"op": "state"})["snapshot"]["seq"] == 11
    cards = json.loads((Path(table["env"]["XDG_CONFIG_HOME"]) / "courtside-companion" / "cards"
                        / "valley-hoopers.json").read_text())
    assert cards["Muy Schillato"]["stats"]["2PS"] == 55
    assert_laid_out(report)
    # The running kiosk listens to one input provider only (no doubled taps), as its Settings page says.
    settings_text = "\n".join(report["shots"]["12-settings"]["texts"])
    assert "Touch input: mouse = mouse,disable_multitouch\n" in settings_text + "\n"
    # The service really holds what the kiosk showed.
    snapshot = request(table["socket"], {"op": "state"})["snapshot"]
    assert snapshot["scoreboard"]["sides"][0]["score"] in (1, 2)  # the random free throw may score


def test_between_pairs_checklist_then_the_game_end_screen_follows_the_table(table: dict) -> None:
    request(table["socket"], {"op": "new_game", "game": "valley-hoopers",
                              "options": table_test_options() | {"variant": "fast"}})
    play_until(table["socket"], lambda snap: "replenish the four common playbooks on the scoreboard"
               in snap["view"]["reminders"])
    marker = table["home"] / "between.marker"
    argv = driver("between_and_end", table, "between_and_end", size="1024x600", marker=marker)
    kiosk = subprocess.Popen(argv, env=table["env"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    deadline = time.monotonic() + 60
    while not marker.exists() and kiosk.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    final = play_until(table["socket"], lambda snap: snap["outcome"] is not None)
    out, err = kiosk.communicate(timeout=90)
    report = json.loads(out.strip().splitlines()[-1])
    assert report["ok"], report.get("error") or err[-3000:]
    assert report["reminders"], "the between screen shows the rulebook's reminders"
    names = [s["name"] for s in final["scoreboard"]["sides"]]
    winner = final["outcome"]["winner"]
    expected = "A draw" if winner is None else f"{names[winner]} wins"
    assert any(t.startswith(expected) for t in report["gameend_texts"])
    assert any("Muy Schillato" in t for t in report["gameend_texts"]), "box score lists every hooper"
    # This kiosk joined the game at the break, yet charts every step: the service's log has them all.
    log = request(table["socket"], {"op": "log"})["log"]
    assert report["chart_points"] == len(log) == final["seq"] + 1
    # The chart is drawn only where the box score leaves it room (kiosk/end_summary.py); a Fast game's
    # 14 hoopers fill a 7" screen, so here only its data (above) is checked, not its title.
    assert report["export_notice"].startswith("Saved") and report["export_notice"].endswith(".csv")
    csv_path = Path(report["export_notice"].removeprefix("Saved "))
    assert csv_path.read_text().splitlines()[0].startswith("Side,Hooper,Pts")
    assert_laid_out(report)


def test_kiosk_shows_reconnecting_and_resumes_the_same_game_after_the_service_dies(table: dict) -> None:
    request(table["socket"], {"op": "new_game", "game": "valley-hoopers", "options": table_test_options()})
    play_until(table["socket"], lambda snap: snap["seq"] >= 9, seed=11)
    marker = table["home"] / "kill.marker"
    kiosk = subprocess.Popen(driver("reconnect", table, "reconnect", marker=marker), env=table["env"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not marker.exists() and kiosk.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists(), kiosk.communicate(timeout=5)
    os.killpg(table["service"].pid, signal.SIGKILL)  # a crash, not a clean stop
    table["service"].wait(10)
    # The kiosk notices and shows "reconnecting" while nothing answers: it says so once it has.
    down = marker.with_suffix(".down")
    deadline = time.monotonic() + 60
    while not down.exists() and kiosk.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert down.exists(), kiosk.communicate(timeout=5)
    table["service"] = start_service(table["socket"], table["db"], table["env"])
    out, err = kiosk.communicate(timeout=90)
    report = json.loads(out.strip().splitlines()[-1])
    assert report["ok"], report.get("error") or err[-3000:]
    assert report["banner_while_down"] == "RECONNECTING..."
    assert "reconnecting" in report["notice_while_down"]
    before, after = report["before"], report["after"]
    assert after["seq"] == before["seq"] >= 9
    for key in ("score", "turn", "prompt"):
        assert after[key] == before[key], key
    assert after["screen"] == "resolve"


@pytest.mark.parametrize("size", SIZES)
def test_companion_run_screenshot_lays_out_every_screen_at_every_size(table: dict, size: str) -> None:
    request(table["socket"], {"op": "new_game", "game": "valley-hoopers", "options": table_test_options()})
    play_until(table["socket"], lambda snap: snap["prompt"].get("die") == "d20x5"
               and snap["prompt"].get("target") is not None, seed=5)
    screens = ("home", "setup", "card", "table", "resolve", "history", "settings")
    # make test: every screen once, the sizes taken in turn; every screen at every size is the long run.
    for screen in screens if long_runs() else screens[SIZES.index(size)::len(SIZES)]:
        png = ARTIFACTS / "sizes" / f"{screen}-{size}.png"
        report = run_kiosk([PYTHON, "-m", "table.cli", "run", "--sim", "--socket", str(table["socket"]),
                            "--screenshot", str(png), "--size", size, "--screen", screen], table["env"])
        assert report["screen"] == screen and report["size"] == [int(v) for v in size.split("x")]
        assert report["layout_problems"] == [], f"{screen} at {size}: {report['layout_problems']}"
        assert png.stat().st_size > 1000


def test_run_sim_starts_a_service_when_none_answers_and_stops_only_that_one(tmp_path: Path,
                                                                             display: str) -> None:
    env = kiosk_env(tmp_path, display)
    socket_path = tmp_path / "run" / "own.sock"
    png = ARTIFACTS / "launcher" / "first-screen.png"
    report = run_kiosk([PYTHON, "-m", "table.cli", "--db", str(tmp_path / "own.db"), "run", "--sim",
                        "--socket", str(socket_path), "--screenshot", str(png), "--size", "800x480"], env)
    assert report["screen"] == "home" and report["layout_problems"] == []
    assert (tmp_path / "own.db").exists(), "the service it started used the --db it was given"
    from kiosk.client import service_answers

    assert not service_answers(socket_path), "the service it started is stopped on exit"


def test_run_leaves_a_service_it_did_not_start_running(table: dict) -> None:
    png = ARTIFACTS / "launcher" / "existing-service.png"
    run_kiosk([PYTHON, "-m", "table.cli", "run", "--sim", "--socket", str(table["socket"]),
               "--screenshot", str(png), "--size", "800x480"], table["env"])
    assert table["service"].poll() is None
    assert request(table["socket"], {"op": "status"})["ok"]


def test_the_shipped_kivy_config_opens_a_window_with_one_touch_provider() -> None:
    """A resizable window with a border by default (``--fullscreen`` is the appliance's, see
    tests/test_kiosk_home.py for Escape and the close button); Escape is the app's to handle."""
    import configparser

    config = configparser.ConfigParser()
    config.read(ROOT / "kiosk" / "kivy_config.ini")
    assert config["kivy"]["exit_on_escape"] == "0"
    assert (config["graphics"]["fullscreen"], config["graphics"]["resizable"]) == ("0", "1")
    assert config["graphics"]["show_cursor"] == "0"
    assert dict(config["input"]) == {"mouse": "mouse,disable_multitouch"}, "one provider: no doubled taps"


def test_sigterm_closes_the_kiosk_and_the_service_it_started(tmp_path: Path, display: str) -> None:
    """systemd stops the kiosk with SIGTERM: the simulated service it started must not be orphaned."""
    from kiosk.client import service_answers

    env = kiosk_env(tmp_path, display)
    socket_path = tmp_path / "run" / "own.sock"
    kiosk = subprocess.Popen([PYTHON, "-m", "table.cli", "--db", str(tmp_path / "own.db"), "run", "--sim",
                              "--socket", str(socket_path), "--size", "800x480"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not service_answers(socket_path, 0.3):
            assert kiosk.poll() is None and time.monotonic() < deadline, "the kiosk did not start a service"
            time.sleep(0.1)
        while connections_to(socket_path) < 1:  # the app has started (its window is up) and connected
            assert kiosk.poll() is None and time.monotonic() < deadline, "the kiosk never connected"
            time.sleep(0.05)
        kiosk.send_signal(signal.SIGTERM)
        assert kiosk.wait(20) == 0
        assert not service_answers(socket_path, 0.5)
    finally:
        if kiosk.poll() is None:
            kiosk.kill()
            kiosk.wait()
        kill_processes_naming(socket_path)  # a service the failed kiosk left behind


def test_between_and_game_end_lay_out_at_every_size(table: dict) -> None:
    request(table["socket"], {"op": "new_game", "game": "valley-hoopers",
                              "options": table_test_options() | {"variant": "fast"}})
    stops = (("between", lambda s: "replenish the four common playbooks on the scoreboard"
              in s["view"]["reminders"]),
             ("gameend", lambda s: s["outcome"] is not None))
    for number, (screen, reached) in enumerate(stops):
        play_until(table["socket"], reached, seed=3)
        # make test: each size once, taken in turn; each screen at every size is the long run.
        for size in SIZES if long_runs() else SIZES[number::len(stops)]:
            png = ARTIFACTS / "sizes" / f"{screen}-{size}.png"
            report = run_kiosk([PYTHON, "-m", "table.cli", "run", "--sim", "--socket",
                                str(table["socket"]), "--screenshot", str(png), "--size", size,
                                "--screen", screen], table["env"])
            assert report["screen"] == screen
            assert report["layout_problems"] == [], f"{screen} at {size}: {report['layout_problems']}"
            if screen == "between":
                assert "replenish the four common playbooks on the scoreboard" in report["texts"]
            else:
                assert any(t.endswith("wins") or " wins: " in t or t.startswith("A draw")
                           for t in report["texts"]), report["texts"][:12]


def test_setup_by_touch_warns_about_positions_changes_colour_and_imports_a_roster(table: dict) -> None:
    rosters = Path(table["env"]["XDG_CONFIG_HOME"]) / "courtside-companion" / "rosters"
    rosters.mkdir(parents=True)
    (rosters / "club.json").write_text(json.dumps({"tribe": "custom", "hoopers": [
        {"name": "Ann Dunk", "first_position": "C"}, {"name": "Bo Pass", "first_position": "PG"}]}))
    report = run_kiosk(driver("setup_edits", table, "setup_edits"), table["env"])
    assert report["ok"], report.get("error")
    # Edd Trapp (card: SF) moved on to PF: two at PF, nobody at SF, and he is out of position.
    assert report["side2_warnings"] == ("nobody at SF; two hoopers at PF; "
                                        "Edd Trapp out of position at PF (card: SF)")
    assert report["colours"] == ["#2f7de1", "#e0452f"]
    assert report["import_notice"].startswith("1 roster file(s) found in ")
    assert report["side1_warnings"] == "0 of 7 hoopers picked; nobody at PG, SG, SF, PF, C"
    assert_laid_out(report)


def test_typing_a_side_name_docks_the_on_screen_keyboard_below_the_name(table: dict) -> None:
    """The table's touchscreen has no keyboard: outside simulation a name field brings Kivy's own."""
    report = run_kiosk(driver("name_keyboard", table, "name_keyboard", sim=False), table["env"])
    assert report["ok"], report.get("error")
    assert report["name_bottom"] >= report["keyboard_top"] - 1, "the name being typed stays visible"
    assert_laid_out(report)


def test_home_lists_unfinished_games_and_resumes_one_by_touch(table: dict) -> None:
    request(table["socket"], {"op": "new_game", "game": "valley-hoopers", "options": table_test_options()})
    for command in ({"type": "attack", "shot": "2PS", "position": "SG"},
                    {"type": "roll", "die": "d20x5", "face": 30}):
        assert request(table["socket"], {"op": "command", "command": command})["ok"]
    request(table["socket"], {"op": "new_game", "game": "valley-hoopers", "options": table_test_options()})
    report = run_kiosk(driver("resume_from_home", table, "resume_from_home"), table["env"])
    assert report["ok"], report.get("error")
    assert report["playing_before"] == 2
    assert any(t.startswith("Back to #2: ") for t in report["home_texts"]), "the game on the table"
    resume_one = next(t for t in report["home_texts"] if t.startswith("Resume #1"))
    assert resume_one.startswith("Resume #1: Lucy 2 - Karl 0  P1 1/8\nlast played 2")
    assert report["resumed_score"] == "Lucy 2 - 0 Karl"
    assert report["resumed_prompt"] == "Karl: play F1 (a fundamental or the attack)"
    assert_laid_out(report)
