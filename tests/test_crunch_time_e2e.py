"""Crunch Time through a real ``companion serve --sim`` in a subprocess, played with the simulated
encoder and CONFIRM button alone: every possession of a two-coach game (to overtime) and of a solo
game is dialled from the choices the table offers. The socket only starts the game and watches;
the OLED shows the one signed lead."""

from __future__ import annotations

import base64
import io
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from long_runs import long_runs
from PIL import Image
from service_rig import serve_sim

from companion.games.crunch_time.model import DIFFICULTY
from companion.socket_server import TableClient

sys.path.insert(0, str(Path(__file__).parent / "games"))

from make_crunch_time_games import seeded_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "games"
ARTIFACTS = ROOT / "tests" / "artifacts" / "crunch_time"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[TableClient]:
    with serve_sim(tmp_path) as service:
        yield service.client


def ok(client: TableClient, request: dict[str, Any]) -> dict[str, Any]:
    answer = client.request(request)
    assert answer.get("ok"), f"{request} refused: {answer}"
    return answer


def wait_for(what: str, check: Callable[[], Any], timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)
    return found


class Dial:
    """Where the table's encoder points: on the first choice of a new prompt, kept while the prompt
    (its text and choices) stays the same, as ``companion/controls.py`` keeps it."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] = ()
        self.position = 0

    def dial_and_confirm(self, client: TableClient, command: dict[str, Any]) -> dict[str, Any]:
        """Turn the encoder to the offered choice that is ``command``, see it shown, press CONFIRM."""
        snapshot = ok(client, {"op": "state"})["snapshot"]
        prompt = snapshot["prompt"]
        labels = [c["label"] for c in prompt["choices"]]
        commands = [c["command"] for c in prompt["choices"]]
        assert command in commands, f"{command} is not offered at {prompt['text']!r}"
        key = (prompt["text"], tuple(labels))
        if key != self.key:
            self.key, self.position = key, 0
        index, count = commands.index(command), len(commands)
        offset = (index - self.position) % count
        # The shorter way round; on the choice already, a turn there and back shows it on the dial.
        moves = [1, -1] if offset == 0 else [offset if offset <= count // 2 else offset - count]
        for steps in moves:
            ok(client, {"op": "sim_turn", "steps": steps})
            self.position = (self.position + steps) % count
            wait_for(f"the dial to show {labels[self.position]!r}", lambda p=self.position: ok(
                client, {"op": "status"})["status"].get("dial") == labels[p])
        ok(client, {"op": "sim_press", "role": "CONFIRM"})
        return wait_for(f"{command} to be recorded", lambda: (
            (s := ok(client, {"op": "state"})["snapshot"])["seq"] == snapshot["seq"] + 1 and s))


def play_file(client: TableClient, name: str) -> dict[str, Any]:
    rows = [json.loads(line) for line in (GAMES / name).read_text().splitlines()]
    return play(client, {k: v for k, v in rows[0].items() if k != "type"}, rows[1:])


def play(client: TableClient, options: dict[str, Any], commands: list[dict[str, Any]]) -> dict[str, Any]:
    snapshot = ok(client, {"op": "new_game", "game": "crunch-time", "options": options})["snapshot"]
    dial = Dial()
    for command in commands:
        snapshot = dial.dial_and_confirm(client, command)
    assert [line["command"] for line in ok(client, {"op": "log"})["log"][1:]] == commands
    return snapshot


def oled(client: TableClient) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(ok(client, {"op": "oled", "index": 0})["png"])))


def test_a_two_coach_game_to_overtime_on_the_encoder_alone(served: TableClient) -> None:
    final = play_file(served, "full_game_crunch_time.jsonl")
    assert final["outcome"]["winner"] == 0 and final["outcome"]["reason"] == "by 4 after overtime 1"
    assert final["scoreboard"]["lead"] == {"side": 0, "value": 4}
    image = oled(served)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image.save(ARTIFACTS / "oled_final_128.png")
    # The lead layout: the leader's name on the left half, the margin in block digits on the right.
    assert image.crop((0, 12, 63, 40)).getbbox() is not None
    assert image.crop((64, 12, 127, 40)).getbbox() is not None


def test_a_solo_game_on_the_encoder_alone_with_the_ai_run_by_the_app(served: TableClient) -> None:
    final = play_file(served, "solo_game_crunch_time.jsonl")
    assert final["outcome"]["winner"] == 0 and final["outcome"]["reason"].startswith("mercy rule")
    texts = [line["text"] for line in ok(served, {"op": "log"})["log"]]
    assert any(t.startswith("the AI") for t in texts)  # its moves and draws came from the app


# make test: the first and the last difficulty; every difficulty is the long run (tests/long_runs.py).
DIFFICULTIES = list(DIFFICULTY) if long_runs() else [list(DIFFICULTY)[0], list(DIFFICULTY)[-1]]


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_a_solo_game_at_every_difficulty_on_the_encoder_alone(served: TableClient, difficulty: str) -> None:
    options = {"mode": "solo", "difficulty": difficulty}
    final = play(served, options, seeded_game(options, seed=len(difficulty) + 3))
    assert final["outcome"] is not None and final["view"]["phase"] == "final"
    first = final["view"]["possessions"][0]
    assert first["offence"] == 0 and first["lead"] - first["net"] == DIFFICULTY[difficulty]
