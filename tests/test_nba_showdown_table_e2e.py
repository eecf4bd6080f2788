"""NBA Showdown at the table, end to end: a real ``companion serve --sim`` in a subprocess, a whole
game with every advanced rule on entered with the simulated encoder (Speed/Power choices, placements,
double-teams, assists, the d20 dialled), the CONFIRM and side buttons and the dice tray (``d20``)
alone; the socket only starts the game and reads the state. No line of hardware/ or kiosk/ names
the game. Then ``companion replay`` of the stored log and both exports."""

from __future__ import annotations

import base64
import csv
import io
import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from service_rig import serve_sim

from companion.controls import TableControls
from companion.games.nba_showdown.setup_options import example_options
from companion.socket_server import TableClient
from table.cli import main as companion

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts" / "nba_showdown"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TableClient, Path]]:
    with serve_sim(tmp_path) as service:
        yield service.client, service.db


def ok(client: TableClient, request: dict[str, Any]) -> dict[str, Any]:
    answer = client.request(request)
    assert answer.get("ok"), f"{request} refused: {answer}"
    return answer


def wait_until(client: TableClient, check: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def state(client: TableClient) -> dict[str, Any]:
    return ok(client, {"op": "state"})["snapshot"]


def dial_text(client: TableClient) -> str:
    return str(ok(client, {"op": "status"})["status"].get("dial", ""))


def dial_and_confirm(client: TableClient, snapshot: dict[str, Any], wanted: str) -> dict[str, Any]:
    """Turn the encoder to ``wanted`` (the shortest way round) and press CONFIRM; the next state.

    Where the dial starts on a new prompt is the controls' own rule (``TableControls.update``),
    asked of the same class the service runs; the service's ``dial`` status confirms each turn.
    """
    controls = TableControls(submit=lambda command: {}, notify=lambda text: None)
    controls.update(snapshot)
    listed = [controls.selection() for controls.dial in range(len(controls.entries()))]
    controls.update(None)
    controls.update(snapshot)
    steps = (listed.index(wanted) - controls.dial) % len(listed)
    if steps > len(listed) // 2:
        steps -= len(listed)
    if steps:
        ok(client, {"op": "sim_turn", "steps": steps})
        wait_until(client, lambda: dial_text(client) == wanted, f"the dial to show {wanted!r}")
    ok(client, {"op": "sim_press", "role": "CONFIRM"})
    return wait_until(
        client, lambda: (s := state(client))["seq"] > snapshot["seq"] and s, f"{wanted!r} entered"
    )


def roll_on_tray(client: TableClient, snapshot: dict[str, Any], face: int) -> dict[str, Any]:
    ok(client, {"op": "sim_tray", "die": "d20", "face": face})
    return wait_until(
        client, lambda: (s := state(client))["seq"] > snapshot["seq"] and s, f"the tray's {face}"
    )


def test_a_whole_game_with_every_rule_on_by_encoder_buttons_and_tray_alone(
    served: tuple[TableClient, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client, db = served
    rng = random.Random(10)
    snapshot = ok(client, {"op": "new_game", "game": "nba-showdown", "options": example_options()})[
        "snapshot"
    ]
    assert snapshot["view"]["rules"] == dict.fromkeys(snapshot["view"]["rules"], True)
    seen: set[str] = set()
    tray_rolls = dialled_rolls = 0
    for _ in range(600):
        if snapshot["outcome"] is not None:
            break
        prompt = snapshot["prompt"]
        stage = snapshot["view"]["stage"]
        seen.add(stage)
        if prompt["die"]:
            assert prompt["die"] == "d20" and prompt["die_info"]["success"] in ("lookup", "at_least")
            assert abs(sum(o["probability"] for o in prompt["outcomes"]) - 1) < 1e-9
            face = rng.randint(1, 20)
            if rng.random() < 0.5:
                snapshot = roll_on_tray(client, snapshot, face)
                tray_rolls += 1
            else:
                snapshot = dial_and_confirm(client, snapshot, f"d20: {face}")
                dialled_rolls += 1
            continue
        choices = prompt["choices"]
        assert choices, f"nothing offered at {prompt['text']}"
        if stage == "choose":  # the Speed/Power choices carry their odds
            assert all(c["expected_points"] is not None and c["hint"] for c in choices)
        if stage == "placement" and rng.random() < 0.3 and len(choices) > 1:
            choice = rng.choice(choices[1:])  # a substitution now and then
        else:
            choice = rng.choice(choices)
        snapshot = dial_and_confirm(client, snapshot, choice["label"])
    final = snapshot
    assert final["outcome"] is not None, "the game did not end"
    assert {"placement", "double_team", "choose", "roll", "assist"} <= seen
    assert tray_rolls > 5 and dialled_rolls > 5
    assert final["scoreboard"]["final"] and final["view"]["quarter"] >= 4
    board = final["scoreboard"]["sides"]
    assert [c["label"] for c in board[0]["counters"]] == ["AST", "REB", "HOT", "COLD", "SC"]
    assert [s["score"] for s in board] == final["view"]["score"]
    assert max(final["view"]["score"]) == int(final["outcome"]["reason"].split()[-3].split("-")[0])

    # The OLED shows the final score.
    shown = ok(client, {"op": "oled", "index": 0})
    image = Image.open(io.BytesIO(base64.b64decode(shown["png"])))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image.save(ARTIFACTS / "final_oled.png")
    assert image.getbbox() is not None

    # The stored game replays through ``companion replay`` and exports (JSON log, CSV box score), the
    # CLI run in this process (its own tests run it as a program) while the service holds the store.
    def cli(*argv: str) -> str:
        assert companion(list(argv)) == 0
        return capsys.readouterr().out

    capsys.readouterr()
    game_id = str(final["game_id"])
    log = json.loads(cli("--db", str(db), "export", game_id))["log"]
    lines = [json.dumps({"type": "setup", **log[0]["options"]})]
    lines += [json.dumps(entry["command"]) for entry in log[1:] if entry["kind"] == "command"]
    (tmp_path / "game.jsonl").write_text("\n".join(lines) + "\n")
    again = json.loads(cli("--db", str(tmp_path / "again.db"), "replay", "--game", "nba-showdown",
                           str(tmp_path / "game.jsonl"), "--json"))
    assert again["score"] == final["view"]["score"] and again["final"]
    box = cli("--db", str(db), "export", game_id, "--format", "csv")
    rows = [r for r in csv.DictReader(io.StringIO(box)) if r["total"] != "True"]  # players, not team totals
    assert {"team", "player", "pts", "ast", "reb", "fg", "ft"} <= set(rows[0])  # the declared box score
    awards = [sum(a[i] for a in final["view"]["rebound_awards"]) for i in (0, 1)]
    for i, side in enumerate(final["view"]["sides"]):
        points = sum(int(r["pts"]) for r in rows if r["team"] == side["name"])
        assert points + awards[i] == final["view"]["score"][i]
