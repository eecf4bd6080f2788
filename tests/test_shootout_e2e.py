"""The test game end to end through every door but the kiosk: a real ``companion serve --sim`` in a
subprocess that finds the game by COMPANION_EXTRA_GAMES, sealed bids over the socket, a race on
the simulated side buttons, a roll from the simulated dice tray, one dialled on the encoder, and
the OLED showing three sides. No line of hardware/ or kiosk/ names the game."""

from __future__ import annotations

import base64
import io
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from service_rig import serve_sim

from companion.socket_server import TableClient

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts" / "shootout"


@pytest.fixture
def served(tmp_path: Path, shootout: Any) -> Iterator[TableClient]:
    config = tmp_path / "table.toml"
    # The example table plus a third side button for the third player (roles SIDE3..SIDE5).
    example = (ROOT / "config.example.toml").read_text()
    config.write_text(example.replace("MENU = 21\n", "MENU = 21\nSIDE3 = 4\n", 1))
    with serve_sim(tmp_path, config) as service:
        yield service.client


def ok(client: TableClient, request: dict[str, Any]) -> dict[str, Any]:
    answer = client.request(request)
    assert answer.get("ok"), f"{request} refused: {answer}"
    return answer


def wait_until(client: TableClient, check: Callable[[dict[str, Any]], bool], what: str,
               timeout: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        snapshot = ok(client, {"op": "state"})["snapshot"]
        if check(snapshot):
            return snapshot
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {snapshot['prompt']['text']}"
        time.sleep(0.02)


def oled(client: TableClient, index: int = 0) -> Image.Image:
    shown = ok(client, {"op": "oled", "index": index})
    return Image.open(io.BytesIO(base64.b64decode(shown["png"])))


def test_the_test_game_plays_through_socket_buttons_tray_encoder_and_oled(served: TableClient) -> None:
    client = served
    assert "shootout" in [g["name"] for g in ok(client, {"op": "known_games"})["known_games"]]
    snapshot = ok(client, {"op": "new_game", "game": "shootout",
                           "options": {"names": ["Ann", "Bo", "Cy"], "rounds": 2}})["snapshot"]
    assert snapshot["prompt"]["sealed"]["sides"] == [0, 1, 2]

    # Round 1: sealed bids over the socket; nobody sees an amount before the last one is in.
    ok(client, {"op": "command", "command": {"type": "bid", "side": 0, "amount": 2}})
    snapshot = ok(client, {"op": "command", "command": {"type": "bid", "side": 2, "amount": 7}})["snapshot"]
    assert snapshot["prompt"]["sealed"]["entered"] == [0, 2]
    assert '"amount": 7' not in str(snapshot).replace("'", '"')
    log = ok(client, {"op": "log"})["log"]
    assert [line["command"]["amount"] for line in log[1:]] == ["sealed", "sealed"]
    snapshot = ok(client, {"op": "command", "command": {"type": "bid", "side": 1, "amount": 3}})["snapshot"]
    assert [line["command"]["amount"] for line in ok(client, {"op": "log"})["log"][1:]] == [2, 7, 3]
    race = snapshot["prompt"]["race"]
    assert race["sides"] == [0, 1, 2] and race["tie_breaker"] == 2

    # The race on the side buttons: the third player's button goes down first.
    ok(client, {"op": "sim_press", "role": "SIDE3"})
    ok(client, {"op": "sim_press", "role": "HOME"})
    snapshot = wait_until(client, lambda s: s["prompt"].get("die") == "d12shoot", "the race to be decided")
    assert snapshot["prompt"]["side"] == 2
    race_line = ok(client, {"op": "log"})["log"][-1]["command"]
    assert race_line["order"][0] == 2 and race_line["presses"][0]["side"] == 2
    # HOME came second: it joined the race or, if the window had closed, only jumped the dial.
    # Either way it must be handled before round 2's race, or it would race there.
    deadline = time.monotonic() + 10
    while not (any(p["side"] == 0 for p in race_line["presses"])
               or any("HOME" in str(e.get("text")) for e in client.events)):
        assert time.monotonic() < deadline, "the HOME press never arrived"
        ok(client, {"op": "state"})  # reading a reply also collects the events sent before it
        time.sleep(0.02)
    info = snapshot["prompt"]["die_info"]
    assert info["faces"] == list(range(1, 13)) and info["success"] == "lookup"
    assert [m["success"] for m in snapshot["prompt"]["face_marks"]][:5] == [False] * 4 + [True]

    # The three-column OLED while Cy holds the d12.
    image = oled(client)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image.save(ARTIFACTS / "three_sides_128.png")
    for third in range(3):
        assert image.crop((third * 42 + 2, 12, third * 42 + 40, 32)).getbbox() is not None

    # The roll from the simulated dice tray.
    ok(client, {"op": "sim_tray", "die": "d12shoot", "face": 11})
    snapshot = wait_until(client, lambda s: s["view"]["round"] == 2, "round 2")
    assert snapshot["view"]["score"] == [0, 0, 3] and snapshot["scoreboard"]["period_over"]

    # Round 2: bids, then AWAY alone wins the race, then the d12 dialled on the encoder.
    for side, amount in ((1, 1), (0, 1), (2, 0)):
        ok(client, {"op": "command", "command": {"type": "bid", "side": side, "amount": amount}})
    ok(client, {"op": "sim_press", "role": "AWAY"})
    wait_until(client, lambda s: s["prompt"].get("die") == "d12shoot", "the second race")
    ok(client, {"op": "sim_turn", "steps": 11})
    deadline = time.monotonic() + 10
    while not str(ok(client, {"op": "status"})["status"].get("dial", "")).endswith(": 12"):
        assert time.monotonic() < deadline, "the encoder did not reach 12"
        time.sleep(0.02)
    ok(client, {"op": "sim_press", "role": "CONFIRM"})
    final = wait_until(client, lambda s: s["outcome"] is not None, "the end of the game")
    assert final["view"]["score"] == [0, 4, 3]
    assert final["outcome"] == {"winner": 1, "places": [[1], [2], [0]],
                                "reason": "most points after 2 rounds"}
    assert final["scoreboard"]["final"] and len(final["scoreboard"]["sides"]) == 3
