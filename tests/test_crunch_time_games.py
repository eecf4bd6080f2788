"""Whole Crunch Time games through the store and the session, and the properties every game keeps."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.board import Lead, ScoreboardView
from companion.errors import CompanionError
from companion.games.crunch_time import GAME
from companion.games.crunch_time.model import DIFFICULTY
from companion.session import Session
from companion.store import Store
from companion.timeline import Timeline

GAMES = Path(__file__).parent / "games"
sys.path.insert(0, str(GAMES))

from make_crunch_time_games import seeded_game  # noqa: E402


def lines(name: str) -> tuple[dict, list[dict]]:
    rows = [json.loads(line) for line in (GAMES / name).read_text().splitlines()]
    return {k: v for k, v in rows[0].items() if k != "type"}, rows[1:]


def play_through_session(tmp_path: Path, options: dict, commands: list[dict]) -> Session:
    store = Store.open(tmp_path / "ct.db")
    session = Session.new(store, GAME, options)
    for command in commands:
        session.handle(command)
    resumed = Session.resume(store, session.game_id, lambda name: GAME)
    assert resumed.snapshot()["view"] == session.snapshot()["view"]
    return session


def test_the_two_coach_replay_file_goes_to_overtime_and_is_won(tmp_path: Path) -> None:
    options, commands = lines("full_game_crunch_time.jsonl")
    session = play_through_session(tmp_path, options, commands)
    snap = session.snapshot()
    assert snap["outcome"] == {"winner": 0, "places": [[0], [1]], "reason": "by 4 after overtime 1"}
    possessions = snap["view"]["possessions"]
    assert len(possessions) == 12 and possessions[-1]["lead"] == 4
    assert [p["overtime"] for p in possessions] == [0] * 10 + [1, 1]
    assert snap["scoreboard"]["message"] == "Red +4"


def test_the_solo_replay_file_ends_on_the_mercy_rule(tmp_path: Path) -> None:
    options, commands = lines("solo_game_crunch_time.jsonl")
    snap = play_through_session(tmp_path, options, commands).snapshot()
    assert snap["outcome"]["winner"] == 0 and snap["outcome"]["reason"].startswith("mercy rule: ahead by")


@pytest.mark.parametrize("difficulty", list(DIFFICULTY))
def test_a_solo_game_plays_to_the_end_at_every_difficulty(tmp_path: Path, difficulty: str) -> None:
    options = {"mode": "solo", "difficulty": difficulty}
    commands = seeded_game(options, seed=len(difficulty))
    snap = play_through_session(tmp_path, options, commands).snapshot()
    assert snap["outcome"] is not None
    assert snap["view"]["possessions"][0]["lead"] - snap["view"]["possessions"][0]["net"] \
        == DIFFICULTY[difficulty]  # the first possession is yours, from the difficulty's start


def test_the_scoreboard_says_the_lead_in_words() -> None:
    state = GAME.setup({"mode": "solo", "difficulty": "veteran"})
    board = GAME.scoreboard(state)
    assert board.message == "You +8" and board.lead == Lead(0, 8)
    assert [s.score for s in board.sides] == [None, None]  # one signed lead, no score per side
    assert json.loads(json.dumps(board.to_json()))["lead"] == {"side": 0, "value": 8}
    assert ScoreboardView.from_json(board.to_json()) == board


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=60),
       st.sampled_from([{}, {"mode": "solo", "difficulty": "goat"}]))
def test_replay_equals_state_and_every_offered_choice_is_accepted(picks: list[int], options: dict) -> None:
    timeline = Timeline(GAME)
    timeline.commit(*timeline.plan_setup(options))
    for pick in picks:
        if GAME.outcome(timeline.state) is not None:
            break
        prompt = GAME.prompt(timeline.state)
        assert prompt.choices, f"no choice offered in {prompt.text!r}: the table would be stuck"
        choice = prompt.choices[pick % len(prompt.choices)]
        timeline.commit(*timeline.plan_command(choice.command))  # an offered choice is never refused
        json.dumps(GAME.view(timeline.state))
        json.dumps(GAME.prompt(timeline.state).to_json())
    replayed = Timeline.replay(GAME, [{"kind": "setup", "options": options}, *timeline.history()])
    assert replayed.state == timeline.state


@settings(max_examples=30, deadline=None)
@given(st.fixed_dictionaries({"type": st.sampled_from(["tip_off", "shot_card", "zone", "star", "score",
                                                       "ai_star", "ai_reach", "foul"])},
                             optional={"points": st.integers(-1, 4), "stand": st.sampled_from(
                                 ["offence", "both", "nobody"]), "shot": st.integers(-1, 3),
                                 "zone": st.integers(-1, 6), "role": st.sampled_from(["offence", "defence"]),
                                 "cards": st.lists(st.integers(0, 70), max_size=3),
                                 "answer": st.sampled_from(["free", "no", "maybe"])}))
def test_a_refused_command_changes_nothing_and_says_why(command: dict) -> None:
    state = GAME.setup({})
    state, _ = GAME.run(state, {"type": "tip_off", "winner": 0})
    state, _ = GAME.run(state, {"type": "shot_card"})
    before = repr(state)
    try:
        GAME.decide(state, command)
    except CompanionError as exc:
        assert str(exc)
    assert repr(state) == before
