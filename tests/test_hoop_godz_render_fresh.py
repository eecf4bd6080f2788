"""What Hoop Godz's render remembers (by a record's identity: a player's part of the view and the
scoreboard, the box score's rows, the ballers, the cards, the juice bar; by value: the offers, the odds)
is what rendering afresh gives: every snapshot of the standard and PRO games, with undos and redos, and
of random walks, byte for byte against the render of a copy of its state that shares no record with it,
with every memo of the game's modules set aside (each memo's own function called instead)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.games.hoop_godz import GAME, dice, juice, model, offers, rules, views
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
    state = GAME.setup({"ball_faces": (None, 2)[seed % 2], "b_ball_4_all": bool(seed % 2)})
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


def without_memos(monkeypatch: pytest.MonkeyPatch) -> int:
    """Every memo of the game's modules (``by_identity``, ``by_identities``, ``lru_cache``) replaced by
    the function it remembers; how many."""
    memos = 0
    for module in (views, offers, rules, model, juice, dice):
        for name, value in list(vars(module).items()):
            if callable(value) and not isinstance(value, type) and hasattr(value, "__wrapped__"):
                monkeypatch.setattr(module, name, value.__wrapped__)
                memos += 1
    return memos


def test_every_snapshot_equals_a_fresh_render_of_a_copy_that_shares_no_record(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = 0
    for states in (script_states("full_game_hoop_godz.jsonl"), script_states("pro_game_hoop_godz.jsonl"),
                   walk_states(0), walk_states(1)):
        for state in states:
            remembered = rendered(state)
            with monkeypatch.context() as fresh:
                assert without_memos(fresh) >= 14
                assert remembered == rendered(copy.deepcopy(state)), state
            seen += 1
    assert seen > 500
