"""A whole Hoop Godz game through a real ``companion serve --sim`` in a subprocess, entered only at
the table's controls: every choice dialled on the simulated encoder and confirmed, the dice battles
raced on the HOME / AWAY buttons, the final SHOOT rolls (BALL counts) from the simulated dice tray.
The socket only starts the game and reads the state."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from service_rig import serve_sim
from test_shootout_e2e import ok, oled, wait_until

from companion.socket_server import TableClient

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts" / "hoop_godz"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[TableClient]:
    with serve_sim(tmp_path) as service:
        yield service.client


def oled_final(client: TableClient, timeout: float = 10.0) -> Any:
    """The OLED once it has drawn the final frame (FINAL badge top right), drawn on its own thread."""
    deadline = time.monotonic() + timeout
    while True:
        image = oled(client)
        if image.crop((90, 0, 127, 11)).getbbox() is not None:
            return image
        assert time.monotonic() < deadline, "the OLED never showed FINAL"
        time.sleep(0.05)


class Table:
    """The players' hands: the encoder, CONFIRM, the race buttons and the dice tray."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.snapshot = ok(client, {"op": "state"})["snapshot"]

    def _changed(self, what: str, timeout: float = 15.0) -> dict[str, Any]:
        seq = self.snapshot["seq"]
        self.snapshot = wait_until(self.client, lambda s: s["seq"] > seq, what, timeout)
        return self.snapshot

    def choose(self, label: str) -> dict[str, Any]:
        """Dial the prompt's choice called ``label`` on the encoder (the dial starts on the first entry
        of a new prompt), see it on the status line, then press CONFIRM."""
        labels = [c["label"] for c in self.snapshot["prompt"]["choices"]]
        assert label in labels, f"{label!r} is not offered at {self.snapshot['prompt']['text']!r}: {labels}"
        index = labels.index(label)
        steps = index if index <= len(labels) // 2 else index - len(labels)
        if steps:
            ok(self.client, {"op": "sim_turn", "steps": steps})
            deadline = time.monotonic() + 10
            while ok(self.client, {"op": "status"})["status"].get("dial") != label:
                assert time.monotonic() < deadline, f"the encoder never showed {label!r}"
                time.sleep(0.02)
        ok(self.client, {"op": "sim_press", "role": "CONFIRM"})
        return self._changed(f"{label!r} to be confirmed")

    def race(self, role: str) -> dict[str, Any]:
        assert self.snapshot["prompt"]["race"] is not None, self.snapshot["prompt"]["text"]
        ok(self.client, {"op": "sim_press", "role": role})
        return self._changed(f"the race won by {role}")

    def tray(self, balls: int) -> dict[str, Any]:
        assert self.snapshot["prompt"]["die"] == "balls", self.snapshot["prompt"]["text"]
        ok(self.client, {"op": "sim_tray", "die": "balls", "face": balls})
        return self._changed(f"{balls} BALL icons from the tray")


def test_a_whole_game_at_the_table_buttons_encoder_and_tray_only(served: TableClient) -> None:
    client = served
    ok(client, {"op": "new_game", "game": "hoop-godz",
                "options": {"sides": [{"name": "Hana"}, {"name": "Ravi"}], "ball_faces": 2}})
    table = Table(client)
    # The draft, 1-2-2-1: Hana takes picks 1, 4 and 5.
    for name, size in (("Demo Tower", "big"), ("Demo Zip", "small"), ("Demo Flash", "small"),
                       ("Demo Swing", "medium"), ("Demo Arc", "medium"), ("Demo Wall", "big")):
        table.choose(f"{name} ({size})")
    assert [b["name"] for b in table.snapshot["view"]["sides"][0]["squad"]] == ["Demo Tower", "Demo Swing",
                                                                               "Demo Arc"]
    snapshot = table.choose("tip-off: Demo Tower and Demo Zip")
    race = snapshot["prompt"]["race"]
    assert race["tie_breaker"] is None and race["window_ms"] == 50 and race["sides"] == [0, 1]
    assert snapshot["view"]["battle"]["dice"] == [4, 3]

    # The tip-off raced on the buttons: HOME alone presses, Hana is active, Ravi takes the TIE BREAKER.
    snapshot = table.race("HOME")
    assert snapshot["view"]["active"] == 0 and snapshot["view"]["tie_breaker"] == 1
    raced = ok(client, {"op": "log"})["log"][-1]["command"]
    assert raced["type"] == "race" and raced["order"][0] == 0 and raced["presses"][0]["side"] == 0
    board = snapshot["scoreboard"]
    assert board["possession"] == 0 and board["clock"] == "10 CLK"
    assert board["sides"][0]["counters"] == [{"label": "J", "value": 5}]
    assert board["sides"][1]["counters"] == [{"label": "TB J", "value": 6}]
    assert board["message"] == "Hana juice 5 TB Ravi"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image = oled(client)
    image.save(ARTIFACTS / "oled_after_tip_off.png")
    assert image.getbbox() is not None

    # Hana shoots a three; Ravi BLOCKs: a dice battle, and Hana's HOME press wins the race.
    table.choose("SHOOT by Demo Swing: 3 pts, difficulty 1")
    snapshot = table.choose("Ravi: BLOCK by Demo Wall")
    assert snapshot["prompt"]["race"]["tie_breaker"] == 1
    snapshot = table.race("HOME")
    assert snapshot["prompt"]["die"] == "balls" and snapshot["prompt"]["die_info"]["faces"] == [0, 1, 2, 3]
    assert abs(snapshot["prompt"]["p_success"] - (1 - (2 / 3) ** 3)) < 1e-9
    snapshot = table.tray(2)
    assert [s["score"] for s in snapshot["view"]["sides"]] == [3, 0] and snapshot["view"]["active"] == 1

    # Ravi ends his turn; Hana shoots twice more, unanswered, and the tray counts the BALL icons.
    for shot in range(2):
        table.choose("end turn")
        table.choose("SHOOT by Demo Swing: 3 pts, difficulty 1")
        table.choose("no response")
        snapshot = table.tray(1 + shot)
    final = wait_until(client, lambda s: s["outcome"] is not None, "the end of the game")
    assert final["outcome"] == {"winner": 0, "places": [[0], [1]], "reason": "Hana reaches 9 points"}
    assert [s["juice_total"] for s in final["view"]["sides"]] == [10, 10]
    assert final["scoreboard"]["final"]
    oled_final(client).save(ARTIFACTS / "oled_final.png")
    commands = [line["command"]["type"] for line in ok(client, {"op": "log"})["log"][1:]]
    assert commands.count("race") == 2 and commands.count("roll") == 3


def test_b_ball_4_all_beats_the_leds_and_buzzer_during_a_race_at_the_table(served: TableClient) -> None:
    client = served
    ok(client, {"op": "new_game", "game": "hoop-godz", "options": {"b_ball_4_all": True}})
    for name in ("Demo Tower", "Demo Zip", "Demo Flash", "Demo Swing", "Demo Arc", "Demo Wall"):
        ok(client, {"op": "command", "command": {"type": "pick", "baller": name}})
    snapshot = ok(client, {"op": "command", "command": {"type": "tip_off",
                                                        "nearest": ["Demo Tower", "Demo Zip"]}})["snapshot"]
    assert snapshot["prompt"]["race"]["tempo_ms"] == 1500

    def lights() -> dict[str, Any]:
        return ok(client, {"op": "status"})["status"]["hardware"]["lights"]

    deadline = time.monotonic() + 10
    while lights().get("beat_ms") != [1500]:
        assert time.monotonic() < deadline, f"no beat on the lights: {lights()}"
        time.sleep(0.02)
    ok(client, {"op": "sim_press", "role": "AWAY"})
    wait_until(client, lambda s: s["prompt"]["race"] is None, "the tip-off race to be decided")
    deadline = time.monotonic() + 10
    while "beat_ms" in lights() or lights().get("possession") != [False, True]:
        assert time.monotonic() < deadline, f"the beat did not stop: {lights()}"
        time.sleep(0.02)
