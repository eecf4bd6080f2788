"""Properties that hold in every game: energy bounds, score = scoring events, refusals change
nothing, events are JSON and replaying them rebuilds the state; whole games reach an outcome."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from games.valley_hoopers_table import next_command, options, play_out
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.games.valley_hoopers import GAME

FULL_GAME = Path(__file__).parent / "games" / "full_game_valley_hoopers.jsonl"
NAMES = ["Muy Schillato", "May Friend", "Edd Trapp", "Never Tired", "Nobody", "Joy Kill", "Perry Hel"]
# Commands that are often illegal, to check that refusals leave the state alone.
WILD = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("roll"), "face": st.sampled_from([5, 50, 100, 7, "whistle", "blank"])}
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("attack"),
            "shot": st.sampled_from(["2PS", "3PS", "LUP"]),
            "position": st.sampled_from(["PG", "SG", "SF", "PF", "C"]),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["counter", "defend", "rebound", "white_cube", "replace"]),
            "hooper": st.sampled_from(NAMES),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["no_counter", "no_defense", "no_rebound", "end_turn", "timeout", "tribe_power"]
            )
        }
    ),
    st.fixed_dictionaries({"type": st.just("substitute"), "changes": st.just({"C": "Reley Baton"})}),
)


def _walk(seed: int, steps: int) -> tuple[Any, Any, list[dict[str, Any]]]:
    """Play ``steps`` random legal commands; the start, the end and the events."""
    rng = random.Random(seed)
    start = GAME.setup(options(first_attacker=seed % 2))
    state, events = start, []
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        state, new = GAME.run(state, next_command(state, rng))
        events += new
        for side in state.sides:
            for hooper in side.hoopers:
                assert 0 <= hooper.energy <= hooper.max_energy, hooper
    return start, state, events


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 200))
def test_energy_stays_within_bounds_and_the_score_is_the_sum_of_scoring_events(seed: int, steps: int) -> None:
    _, state, events = _walk(seed, steps)
    scored = [sum(e["points"][i] for e in events) for i in (0, 1)]
    assert list(state.score) == scored
    assert sum(h.points for s in state.sides for h in s.hoopers) == sum(state.score)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 150))
def test_replaying_the_json_events_rebuilds_the_same_state(seed: int, steps: int) -> None:
    start, state, events = _walk(seed, steps)
    replayed = start
    for event in json.loads(json.dumps(events)):
        replayed = GAME.apply(replayed, event)
    assert replayed == state
    assert json.loads(json.dumps(GAME.view(state))) == GAME.view(state)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), command=WILD)
def test_a_refused_command_changes_nothing(seed: int, steps: int, command: dict[str, Any]) -> None:
    _, state, _ = _walk(seed, steps)
    before_view = json.dumps(GAME.view(state), sort_keys=True)
    try:
        events = GAME.decide(state, command)
    except CompanionError:
        assert json.dumps(GAME.view(state), sort_keys=True) == before_view
        return
    assert json.dumps(events)  # accepted: its events are JSON too
    assert json.dumps(GAME.view(state), sort_keys=True) == before_view  # decide never changes the state


def test_every_offered_choice_is_accepted_and_every_prompt_is_json() -> None:
    rng = random.Random(3)
    state = GAME.setup(options())
    for _ in range(300):
        prompt = GAME.prompt(state)
        json.dumps(prompt.to_json())
        json.dumps(GAME.scoreboard(state).to_json())
        for choice in prompt.choices:
            GAME.decide(state, choice.command)
        state, _ = GAME.run(state, next_command(state, rng))


def test_whole_four_period_games_reach_an_outcome() -> None:
    for seed in (1, 2, 3):
        state, _ = play_out(options(), seed)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winner in (0, 1)
        assert state.period >= 4 and len(state.partial_scores) == state.period
        assert sum(p[0] for p in state.partial_scores) == state.score[0]


def test_fast_play_games_last_two_periods() -> None:
    state, _ = play_out(options(variant="fast"), 5)
    assert GAME.outcome(state) is not None and len(state.partial_scores) >= 2
    assert state.partial_scores[:2] and (state.period == 2 or state.score[0] != state.score[1])


def test_the_full_game_jsonl_replays_to_its_end() -> None:
    lines = [json.loads(line) for line in FULL_GAME.read_text().splitlines() if line.strip()]
    assert lines[0]["type"] == "setup"
    state = GAME.setup({k: v for k, v in lines[0].items() if k != "type"})
    for command in lines[1:]:
        state, _ = GAME.run(state, command)
    assert GAME.outcome(state) is not None and state.period >= 4


def test_the_full_game_jsonl_is_tied_after_four_periods_and_won_in_overtime() -> None:
    lines = [json.loads(line) for line in FULL_GAME.read_text().splitlines() if line.strip()]
    state = GAME.setup({k: v for k, v in lines[0].items() if k != "type"})
    for command in lines[1:]:
        state, _ = GAME.run(state, command)
    regulation = state.partial_scores[:4]
    assert sum(p[0] for p in regulation) == sum(p[1] for p in regulation)
    assert state.period == 5 and GAME.scoreboard(state).period == "OT1" and GAME.scoreboard(state).final
    assert GAME.outcome(state).winner == (0 if state.score[0] > state.score[1] else 1)
