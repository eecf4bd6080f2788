"""A game's renders along a walk of its full-game script, and the same render on a copy that shares no
record: the guards of the games whose renders keep what a command left alone (by identity) hold
every snapshot to the fresh one.

The walk is the script with undo/redo walks along the way, a command taken again after an undo (a new
branch of new records), and the log replayed into a new timeline (a restore) walked back and forth.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.game import Game
from companion.session import parse_command
from companion.timeline import Timeline


def render(game: Game, state: Any) -> dict[str, Any]:
    """What ``Session`` shows for ``state``, in the order it counts it (memos and all)."""
    outcome = game.outcome(state)
    return {"view": game.view(state), "scoreboard": game.scoreboard(state).to_json(),
            "prompt": game.prompt(state).to_json(), "outcome": None if outcome is None else outcome.to_json()}


def script_of(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A recorded script's setup options and its commands, as ``Session`` takes them."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    commands = [parse_command(json.dumps(c)) for c in lines[1:]]
    return {k: v for k, v in lines[0].items() if k != "type"}, commands


def walk(game: Game, script: Path) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(state, what is shown) after every step of ``script``'s walk."""
    lines = [json.loads(line) for line in script.read_text().splitlines() if line.strip()]
    timeline = Timeline(game)
    entries: list[dict[str, Any]] = []

    def step(plan: tuple[dict[str, Any], Any]) -> tuple[Any, dict[str, Any]]:
        entry, state = plan
        shown = render(game, state)  # before the commit, as Session renders it
        timeline.commit(entry, state)
        entries.append(entry)
        return state, shown

    yield step(timeline.plan_setup({k: v for k, v in lines[0].items() if k != "type"}))
    for number, line in enumerate(lines[1:]):
        command = parse_command(json.dumps(line))
        yield step(timeline.plan_command(command))
        if number % 7 == 3:
            for kind in ("undo", "undo", "redo", "undo", "redo", "redo"):
                yield step(timeline.plan_undo() if kind == "undo" else timeline.plan_redo())
        if number % 11 == 5:  # back one, then the same command again: a new branch of new records
            yield step(timeline.plan_undo())
            yield step(timeline.plan_command(command))
    timeline = Timeline.replay(game, entries)
    yield timeline.state, render(game, timeline.state)
    for kind in ["undo"] * 30 + ["redo"] * 30:
        yield step(timeline.plan_undo() if kind == "undo" else timeline.plan_redo())


def fresh_render(game: Game, state: Any, a_record: Callable[[Any], Any]) -> dict[str, Any]:
    """What a front end is shown for ``state``, counted on a copy that shares none of its records
    (``a_record`` picks one record the copy must not share, to prove it is a copy)."""
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy is not state and a_record(copy) is not a_record(state)
    return render(game, copy)
