"""Hoop Godz on the real kiosk by touch, against a real table service: setup, the draft, the tip-off
raced on the kiosk's race pads (flashing B-Ball 4 All's beat; a tie rolled again, then a clean win),
a scored shot, and on to the end of the game and its box score."""

from __future__ import annotations

from pathlib import Path

from kiosk_support import ARTIFACTS, PYTHON, ROOT, kiosk_env, request, run_kiosk, start_service, stop


def test_a_game_by_touch_from_setup_to_a_scored_shot_and_the_end_with_the_race_pads(tmp_path: Path,
                                                                                  display: str) -> None:
    env = kiosk_env(tmp_path, display)
    socket = tmp_path / "run" / "table.sock"
    service = start_service(socket, tmp_path / "table.db", env)
    try:
        argv = [PYTHON, str(ROOT / "tests" / "hoop_godz_kiosk_driver.py"), "--socket", str(socket),
                "--out", str(ARTIFACTS / "hoop_godz"), "--size", "800x480"]
        report = run_kiosk(argv, env, timeout=240)
        assert report["ok"], report.get("error")
        assert report["beat_seen"] and "tie 1: roll again" in report["after_tie"]
        assert report["after_race"].startswith("Home's turn")
        assert "(70%)" in report["final_roll"]  # 3 dice, 1+ BALL with 2 BALL faces: 19/27
        assert report["score_text"].replace(" ", "").startswith("Home3-0")
        state = request(socket, {"op": "state"})["snapshot"]
        assert [s["score"] for s in state["view"]["sides"]] == [9, 0]
        assert state["outcome"]["reason"] == "Home reaches 9 points"
        assert "Battles won" in report["end_texts"] and "Juice spent" in report["end_texts"]
        races = [line["command"] for line in request(socket, {"op": "log"})["log"]
                 if (line.get("command") or {}).get("type") == "race"]
        assert [r["tie"] for r in races] == [True, False]
        assert races[0]["presses"][1]["ms"] < 50 and races[1]["order"][0] == 0
        assert len(races[1]["presses"]) == 1
        for shot in report["shots"].values():
            assert shot["problems"] == [], shot
    finally:
        stop(service)
