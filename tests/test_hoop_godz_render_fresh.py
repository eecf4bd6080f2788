"""What Hoop Godz's render remembers by a record's identity (a player's part of the view and box score,
the ballers, the cards, the juice bar, the offers) is what rendering afresh gives: every snapshot of the
standard and PRO games, with undos and redos, and of a random walk, byte for byte against the render of
a copy of its state that shares no record with it (so no memo by identity can answer for it)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.games.hoop_godz import GAME
from companion.timeline import Timeline

GAMES = Path(__file__).parent / "games"


def script_states(script: str) -> Iterator[Any]:
    """Each state in the order a table meets them, an undo and a redo (or two) every third command."""
    lines = [json.loads(line) for line in (GAMES / script).read_text().splitlines() if line.strip()]
    timeline = Timeline(GAME)
    timeline.commit(*timeline.plan_setup({k: v for k, v in lines[0].items() if k != "type"}))
    yield timeline.state
    for n, command in enumerate(lines[1:]):
        timeline.commit(*timeline.plan_command(command))
        yield timeline.state
        if n % 3 == 2:
            plans = [timeline.plan_undo, timeline.plan_redo] if n % 2 else \
                [timeline.plan_undo, timeline.plan_undo, timeline.plan_redo, timeline.plan_redo]
            for plan in plans:
                timeline.commit(*plan())
                yield timeline.state


def walk_states(seed: int, steps: int = 200) -> Iterator[Any]:
    rng = random.Random(seed)
    state = GAME.setup({"ball_faces": rng.choice([None, 2]), "b_ball_4_all": bool(seed % 2)})
    yield state
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            return
        choices = GAME.prompt(state).choices
        command = dict(rng.choice(choices).command) if choices else \
            {"type": "roll", "die": "balls", "face": rng.randint(0, state.shot[0])}
        try:
            state, _ = GAME.run(state, command)
        except CompanionError:
            continue
        yield state


def rendered(state: Any) -> str:
    outcome = GAME.outcome(state)
    return json.dumps({"prompt": GAME.prompt(state).to_json(), "scoreboard": GAME.scoreboard(state).to_json(),
                       "view": GAME.view(state), "outcome": None if outcome is None else outcome.to_json()},
                      default=str)


def test_every_snapshot_equals_a_render_of_a_copy_that_shares_no_record() -> None:
    seen = 0
    for states in (script_states("full_game_hoop_godz.jsonl"), script_states("pro_game_hoop_godz.jsonl"),
                   walk_states(1), walk_states(2)):
        for state in states:
            assert rendered(state) == rendered(copy.deepcopy(state)), state
            seen += 1
    assert seen > 500
