"""BasketBoss at the table: its first season by touch on the kiosk (the whole game in the long run),
a whole game by the encoder and CONFIRM alone on a real ``companion serve --sim``, and through
``companion replay`` for 2, 3 and 5 managers."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from kiosk_support import ARTIFACTS, PYTHON, ROOT, kiosk_env, request, run_kiosk, start_service, stop
from long_runs import long_runs

from table.cli import main as companion

GAMES = Path(__file__).parent / "games"


# Taking the first choice every time, season 1 is 27 commands (five cards to the market, the start of
# the contracts, 15 bids or passes, the trophies, the tie's two sealed bids, three advisors); the next
# command is season 2's first. Seasons 2-6 repeat those screens: make test stops at season 2 (about a
# sixth of the taps), the long run (COURTSIDE_LONG_RUNS=1, tests/long_runs.py) plays all six by touch.
# The whole game to its end is played in make test on the encoder below and replayed through the CLI.
SEASON_ONE = 27
WHOLE_GAME = long_runs()


def test_a_whole_game_by_touch_on_the_kiosk_with_sealed_bids_on_the_masked_pad(tmp_path: Path,
                                                                              display: str) -> None:
    env = kiosk_env(tmp_path, display)
    socket = tmp_path / "run" / "table.sock"
    service = start_service(socket, tmp_path / "table.db", env)
    try:
        commands = 400 if WHOLE_GAME else SEASON_ONE
        report = run_kiosk([PYTHON, str(ROOT / "tests" / "kiosk_touch_game.py"), "--game", "BasketBoss",
                            "--commands", str(commands), "--sides", "3", "--first", "--socket", str(socket),
                            "--out", str(ARTIFACTS / "basketboss-touch")], env, timeout=900)
        assert report["ok"], report.get("error")
        game = report["game"]
        assert game["sealed"] >= 2, game  # the trophy tie's sealed bids, by touch on the masked pad
        final = request(socket, {"op": "state"})["snapshot"]
        assert len(final["view"]["sides"]) == 3
        if WHOLE_GAME:
            assert game["outcome"] is not None and final["view"]["season"] == 6, game
        else:  # season 1 played through by touch: its advisors hired, season 2 on the table
            assert game["outcome"] is None and game["commands"] == SEASON_ONE, game
            assert final["view"]["season"] == 2 and final["prompt"]["text"].startswith("season 2: "), final
        log = request(socket, {"op": "log"})["log"]
        assert len(log) == game["commands"] + 1
        assert any(line["command"] and line["command"]["type"] == "sealed_bid" for line in log)
    finally:
        stop(service)


def wait_for_seq(socket: Path, seq: int, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        snapshot = request(socket, {"op": "state"})["snapshot"]
        if snapshot["seq"] > seq:
            return snapshot
        assert time.monotonic() < deadline, f"no answer after seq {seq}: {snapshot['prompt']['text']}"
        time.sleep(0.02)


def test_a_whole_game_by_the_encoder_and_confirm_alone(tmp_path: Path, display: str) -> None:
    env = kiosk_env(tmp_path, display)
    socket = tmp_path / "run" / "table.sock"
    service = start_service(socket, tmp_path / "table.db", env)
    try:
        snapshot = request(socket, {"op": "new_game", "game": "basketboss",
                                    "options": {"names": ["Blue", "Yellow", "Purple"]}})["snapshot"]
        sealed_seen = 0
        while snapshot["outcome"] is None:
            prompt = snapshot["prompt"]
            if prompt["sealed"]:
                sealed_seen += 1
                assert request(socket, {"op": "sim_turn", "steps": 1})["ok"]  # a secret $1
                oled = request(socket, {"op": "status"})["status"].get("dial", "")
                assert "1" not in str(oled)
            assert request(socket, {"op": "sim_press", "role": "CONFIRM"})["ok"]
            snapshot = wait_for_seq(socket, snapshot["seq"])
        assert sealed_seen >= 2 and snapshot["view"]["season"] == 6
        assert snapshot["outcome"]["places"] and snapshot["scoreboard"]["final"]
    finally:
        stop(service)


@pytest.mark.parametrize("managers", [2, 3, 5])
def test_whole_games_replay_through_the_cli(tmp_path: Path, managers: int,
                                           capsys: pytest.CaptureFixture) -> None:
    path = GAMES / f"basketboss_{managers}_managers.jsonl"
    assert companion(["--db", str(tmp_path / "bb.db"), "replay", str(path), "--game", "basketboss",
                      "--json"]) == 0
    final = json.loads(capsys.readouterr().out)  # the final view, with its scoreboard and prompt
    assert final["phase"] == "final" and final["scoreboard"]["final"] and len(final["sides"]) == managers
    assert final["season"] == 6 and len(final["seasons_played"]) == 6
    assert "victory points" in final["prompt"]["text"]
