"""Properties that hold in every NBA Showdown game (replay equals state, a refused command changes
nothing, the score is the sum of scoring events, every offered choice is accepted), and the full
game with every advanced rule on, replayed through the Timeline and a Session."""

from __future__ import annotations

import csv
import io
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

from games.nba_showdown_table import next_command, options
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.games.nba_showdown import GAME
from companion.games.nba_showdown.views import prompt_outcomes
from companion.session import Session
from companion.store import Store
from companion.timeline import Timeline

FULL_GAME = Path(__file__).parent / "games" / "full_game_nba_showdown.jsonl"
NAMES = ["Demo Dasher", "Demo Relay", "Mock Blaze", "Mock Ridge", "Nobody"]
POSITIONS = ["PG", "SG", "SF", "PF", "C"]
# Commands that are often illegal, to check that refusals leave the state alone.
WILD = st.one_of(
    st.fixed_dictionaries({"type": st.just("roll"), "face": st.sampled_from([0, 1, 10, 19, 20, 21, "x"])}),
    st.fixed_dictionaries({"type": st.just("shoot"), "position": st.sampled_from(POSITIONS),
                           "stat": st.sampled_from(["speed", "power", "height"])}),
    st.fixed_dictionaries({"type": st.just("assist"), "count": st.integers(-1, 30)}),
    st.fixed_dictionaries({"type": st.just("place"), "position": st.sampled_from(POSITIONS),
                           "player": st.sampled_from(NAMES), "side": st.sampled_from([0, 1])}),
    st.fixed_dictionaries({"type": st.just("double_team"), "helped": st.sampled_from(POSITIONS),
                           "helper": st.sampled_from(POSITIONS)}),
    st.fixed_dictionaries({"type": st.sampled_from(["keep", "no_double_team"])}),
    st.fixed_dictionaries({"type": st.just("play_card"), "side": st.sampled_from([0, 1]),
                           "card": st.sampled_from(["Demo Drive", "Mock Drive", "Nope"]),
                           "requires": st.sampled_from([{}, {"more": "speed"}, {"less": "power"}]),
                           "shot_check": st.sampled_from([{"points": 2}, {"foul_shot": True}])}),
)


def _lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FULL_GAME.read_text().splitlines() if line.strip()]


def _walk(seed: int, steps: int, **extra: Any) -> tuple[Any, Any, list[dict[str, Any]]]:
    rng = random.Random(seed)
    start = GAME.setup(options(first=seed % 2, **extra))
    state, events = start, []
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        state, new = GAME.run(state, next_command(state, rng))
        events += new
        assert all(t.assists >= 0 and t.hand >= 0 and t.deck_left >= 0 for t in state.teams)
        assert abs(state.rebound) <= len(state.rebound_points)
    return start, state, events


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 200))
def test_replaying_the_json_events_rebuilds_the_same_state(seed: int, steps: int) -> None:
    start, state, events = _walk(seed, steps)
    replayed = start
    for event in json.loads(json.dumps(events)):
        replayed = GAME.apply(replayed, event)
    assert replayed == state
    assert json.loads(json.dumps(GAME.view(state))) == GAME.view(state)
    assert list(state.score) == [sum(e["points"][i] for e in events) for i in (0, 1)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), command=WILD)
def test_a_refused_command_changes_nothing(seed: int, steps: int, command: dict[str, Any]) -> None:
    _, state, _ = _walk(seed, steps)
    before = json.dumps(GAME.view(state), sort_keys=True)
    try:
        events = GAME.decide(state, command)
    except CompanionError as exc:
        assert str(exc)
        assert json.dumps(GAME.view(state), sort_keys=True) == before
        return
    assert json.dumps(events)
    assert json.dumps(GAME.view(state), sort_keys=True) == before  # decide never changes the state


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), quick=st.booleans())
def test_every_offered_choice_is_accepted_and_every_prompt_is_json(seed: int, quick: bool) -> None:
    rng = random.Random(seed)
    state = GAME.setup(options(quick_play=quick))
    for _ in range(120):
        if GAME.outcome(state) is not None:
            break
        prompt = GAME.prompt(state)
        json.dumps(prompt.to_json())
        json.dumps(GAME.scoreboard(state).to_json())
        assert prompt.choices or prompt.die
        for choice in prompt.choices:
            GAME.decide(state, choice.command)
        roll = GAME.view(state)["roll"]
        if roll is not None:
            assert sum(Fraction(r["fraction"]) for r in roll["odds"]["rows"]) == 1
        outcomes = prompt_outcomes(state)
        assert (abs(sum(o["probability"] for o in outcomes) - 1) < 1e-9) == bool(prompt.die)
        state, _ = GAME.run(state, next_command(state, rng))


def test_the_full_game_jsonl_replays_through_the_timeline_to_an_overtime_win() -> None:
    lines = _lines()
    assert lines[0]["type"] == "setup"
    entries = [{"kind": "setup", "options": {k: v for k, v in lines[0].items() if k != "type"}}]
    state = GAME.setup(entries[0]["options"])
    for command in lines[1:]:
        state, events = GAME.run(state, command)
        entries.append({"kind": "command", "command": command, "events": events})
    timeline = Timeline.replay(GAME, json.loads(json.dumps(entries)))
    assert timeline.state == state
    regulation = state.quarter_scores[:4]
    assert sum(q[0] for q in regulation) == sum(q[1] for q in regulation)
    assert GAME.scoreboard(state).period == "OT1" and state.final
    assert GAME.outcome(state).winner == (0 if state.score[0] > state.score[1] else 1)
    assert [sum(q[i] for q in state.quarter_scores) for i in (0, 1)] == list(state.score)


def test_the_full_game_uses_every_advanced_rule() -> None:
    lines = _lines()
    state = GAME.setup({k: v for k, v in lines[0].items() if k != "type"})
    assert state.rules.to_json() == dict.fromkeys(state.rules.to_json(), True)
    starters = [t.previous for t in state.teams]
    lineups, kinds = [], set()
    for command in lines[1:]:
        before = state.stage
        state, _ = GAME.run(state, command)
        kinds.add(command["type"])
        if before == "placement" and state.stage != "placement":
            lineups.append([t.lineup for t in state.teams])
    assert {"place", "keep", "double_team", "play_card", "roll", "assist", "shoot"} <= kinds
    assert any(lineup != starters for lineup in lineups)  # someone came off the bench
    cards = [c for c in lines if c["type"] == "play_card"]
    assert any("requires" in c for c in cards)
    assert any(c.get("shot_check", {}).get("foul_shot") for c in cards)
    assert all(t.hand == 7 + 9 - len(t.played) for t in state.teams)  # draws after Q1-Q3 only


def test_the_full_game_plays_through_a_session_and_survives_a_restart(tmp_path: Path) -> None:
    lines = _lines()
    store = Store.open(tmp_path / "games.db")
    session = Session.new(store, GAME, {k: v for k, v in lines[0].items() if k != "type"})
    for command in lines[1:]:
        session.handle(command)
    snapshot = session.snapshot()
    assert snapshot["outcome"] is not None and snapshot["scoreboard"]["final"]
    log = session.log()
    assert len(log) == len(lines) and log[-1]["score"] == list(session.state.score)
    session.handle({"type": "undo"})
    assert session.snapshot()["outcome"] is None
    session.handle({"type": "redo"})
    resumed = Session.resume(store, session.game_id, find=lambda name: GAME)
    assert resumed.state == session.state


def test_the_full_game_plays_through_companion_replay_and_exports(capsys: Any, tmp_path: Path) -> None:
    from table.cli import main

    db = str(tmp_path / "games.db")
    code = main(["--db", db, "replay", "--game", "nba-showdown", str(FULL_GAME), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    final = json.loads(out)
    assert final["final"] and final["scoreboard"]["period"] == "OT1" and final["quarter_label"] == "OT1"
    assert main(["--db", db, "export", str(final["game_id"]), "--format", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["game"] == "nba-showdown" and len(exported["log"]) == len(_lines())
    assert main(["--db", db, "export", str(final["game_id"]), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    # The CSV is the game's declared box score (one row per player, by team, then the team's total line).
    players = [r for r in rows if r["total"] != "True"]
    totals = [sum(int(r["pts"]) for r in players if r["team"] == final["sides"][i]["name"]) for i in (0, 1)]
    assert [int(r["pts"]) for r in rows if r["total"] == "True"] == totals
    # The box score's points plus the rebound track's are the final score.
    assert [t + sum(a[i] for a in final["rebound_awards"]) for i, t in enumerate(totals)] == final["score"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(FULL_GAME.read_text().splitlines()[0] + '\n{"type": "roll", "face": 21}\n')
    code = main(["--db", db, "replay", "--game", "nba", str(bad)])
    assert code == 2 and "line 2: the d20 shows 1 to 20, not 21" in capsys.readouterr().err


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), moves=st.lists(st.sampled_from(["play", "play", "play", "undo", "redo"]),
                                                   min_size=1, max_size=80))
def test_any_mix_of_undo_and_redo_equals_the_replay_of_the_log(seed: int, moves: list[str]) -> None:
    rng = random.Random(seed)
    timeline = Timeline(GAME)
    log = []
    entry, state = timeline.plan_setup(options(first=seed % 2))
    timeline.commit(entry, state)
    log.append(entry)
    for move in moves:
        if move == "undo" and timeline.can_undo:
            entry, state = timeline.plan_undo()
        elif move == "redo" and timeline.can_redo:
            entry, state = timeline.plan_redo()
        elif move == "play" and GAME.outcome(timeline.state) is None:
            entry, state = timeline.plan_command(next_command(timeline.state, rng))
        else:
            continue
        timeline.commit(entry, state)
        log.append(json.loads(json.dumps(entry)))
    assert Timeline.replay(GAME, log).state == timeline.state
