"""The conformance suite: every registered game (and the test game) keeps the engine's promises.

Each game drives itself with its own ``demo_script``. The promises: replay equals state; any mix
of undo and redo equals the replay of the log; a refused command changes nothing and says why;
every offered choice (and every sealed or race input a prompt asks for) is accepted by ``decide``;
the outcomes of an awaited roll sum to exactly 1; view, prompt and scoreboard are JSON; sealed
values stay masked until revealed; the scoreboard draws on every OLED layout.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shootout_game import GAME as SHOOTOUT

from companion.controls import race_command
from companion.errors import CompanionError
from companion.export import export_json
from companion.game import Game, ScoreboardView
from companion.games import builtin_games, find_game
from companion.sealed import MASK
from companion.session import Session
from companion.store import Store
from companion.timeline import Timeline
from hardware.oled_layout import render

GAMES = [*builtin_games(), SHOOTOUT]
IDS = [g.name for g in GAMES]
SIZES = ((128, 64), (256, 64))


def played(game: Game) -> tuple[dict[str, Any], tuple[dict[str, Any], ...], tuple[Any, ...]]:
    """The game's demo script and the state after setup and after each of its commands."""
    return _played(game.name)


@cache
def _played(name: str) -> tuple[dict[str, Any], tuple[dict[str, Any], ...], tuple[Any, ...]]:
    game = next(g for g in GAMES if g.name == name)
    assert game.demo_script is not None, f"{game.name} declares no demo_script"
    options, commands = game.demo_script()
    assert commands, f"{game.name}'s demo script has no commands"
    state = game.setup(options)
    states = [state]
    for command in commands:
        state, _ = game.run(state, command)
        states.append(state)
    return options, tuple(commands), tuple(states)


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_game_is_declared_with_sides_dice_and_commands(game: Game) -> None:
    low, high = game.sides
    assert 2 <= low <= high <= 5
    assert game.commands and len({c.type for c in game.commands}) == len(game.commands)
    options, _, states = played(game)
    assert low <= len(game.scoreboard(states[0]).sides) <= high
    names = [d.name for d in game.dice]
    assert len(set(names)) == len(names)
    if game in builtin_games():
        assert find_game(game.name) is game


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_replay_of_the_log_equals_the_state(game: Game, tmp_path: Path) -> None:
    options, commands, states = played(game)
    store = Store.open(tmp_path / "g.db")
    session = Session.new(store, game, options)
    for command in commands:
        session.handle(command)
    again = Session.resume(store, session.game_id, lambda name: game)
    assert again.state == session.state == states[-1]
    assert again.snapshot()["view"] == session.snapshot()["view"]
    store.close()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.sampled_from(["command", "command", "undo", "redo"]), min_size=1, max_size=25))
def test_any_mix_of_undo_and_redo_equals_the_replay_of_the_log(game: Game, steps: list[str]) -> None:
    options, commands, _ = played(game)
    timeline = Timeline(game)
    entry, state = timeline.plan_setup(options)
    timeline.commit(entry, state)
    log = [entry]
    for step in steps:
        try:
            if step == "undo":
                entry, state = timeline.plan_undo()
            elif step == "redo":
                entry, state = timeline.plan_redo()
            else:
                entry, state = timeline.plan_command(commands[len(timeline.done) % len(commands)])
        except CompanionError:
            continue  # nothing to undo or redo, or the script's next command does not fit here
        timeline.commit(entry, state)
        log.append(entry)
    assert Timeline.replay(game, log).state == timeline.state
    # ... and equals playing the commands in effect from setup.
    fresh = game.setup(options)
    for done in timeline.done:
        fresh, _ = game.run(fresh, done["command"])
    assert fresh == timeline.state


BAD_COMMANDS = [{"type": "no-such-command"}, {"type": "roll", "face": "no-such-face"}, {"type": "roll"}]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_refused_command_changes_nothing_and_says_which_rule(game: Game, tmp_path: Path) -> None:
    options, commands, _ = played(game)
    store = Store.open(tmp_path / "g.db")
    session = Session.new(store, game, options)
    refused = 0
    for command in commands[:12]:
        for bad in [*BAD_COMMANDS, *(spec.example for spec in game.commands)]:
            before = (session.snapshot(), len(store.entries(session.game_id)), session.state)
            try:
                session.handle(bad)
            except CompanionError as exc:
                refused += 1
                assert len(str(exc)) > 10, f"{bad} refused without a reason: {exc!r}"
                assert (session.snapshot(), len(store.entries(session.game_id)), session.state) == before
            else:
                session.handle({"type": "undo"})  # an example that fitted: take it back
        session.handle(command)
    assert refused > 0
    store.close()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_choice_sealed_and_race_input_a_prompt_offers_is_accepted(game: Game) -> None:
    _, _, states = played(game)
    for state in states:
        if game.outcome(state) is not None:
            continue
        prompt = game.prompt(state)
        offered = [c.command for c in prompt.choices]
        if prompt.sealed is not None:
            offered += [{"type": prompt.sealed.command, "side": side, prompt.sealed.field: prompt.sealed.min}
                        for side in prompt.sealed.sides if side not in prompt.sealed.entered]
        if prompt.race is not None:
            race = prompt.to_json()["race"]
            sides = list(prompt.race.sides)
            offered.append(race_command(race, [(s, 1.0 + i) for i, s in enumerate(sides)]))
            offered.append(race_command(race, [(s, 1.0) for s in sides]))  # everyone at once: a tie
        if prompt.roll is not None:
            offered += [{"type": "roll", "die": prompt.roll.die.name, "face": f}
                        for f in prompt.roll.die.distinct_faces]
        for command in offered:
            game.decide(state, command)  # raises if an offered input is refused


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_outcomes_of_an_awaited_roll_sum_to_one_and_match_the_faces(game: Game) -> None:
    _, _, states = played(game)
    rolls = 0
    for state in states:
        prompt = game.prompt(state)
        if prompt.roll is None:
            continue
        rolls += 1
        outcomes = prompt.roll.outcomes()
        assert sum((o.probability for o in outcomes), Fraction(0)) == 1
        faces = [f for o in outcomes for f in o.faces]
        assert sorted(map(str, faces)) == sorted(map(str, prompt.roll.die.distinct_faces))
        shown = prompt.to_json()
        assert abs(sum(o["probability"] for o in shown["outcomes"]) - 1) < 1e-9
        assert [m["face"] for m in shown["face_marks"]] == shown["die_info"]["faces"]
        if prompt.p_success is not None and prompt.roll.rule is not None and not prompt.automatic:
            assert prompt.roll.chance() == prompt.p_success
    assert rolls > 0 or not game.dice, f"{game.name}'s demo script never awaits a roll"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_view_prompt_scoreboard_and_outcome_are_json(game: Game) -> None:
    _, _, states = played(game)
    for state in states:
        shown = {"view": game.view(state), "prompt": game.prompt(state).to_json(),
                 "scoreboard": game.scoreboard(state).to_json()}
        outcome = game.outcome(state)
        if outcome is not None:
            shown["outcome"] = outcome.to_json()
            assert sorted(s for place in outcome.places for s in place) == list(range(len(shown["scoreboard"]
                                                                                         ["sides"])))
        assert as_json(shown) == shown


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_scoreboard_draws_on_every_oled_layout(game: Game) -> None:
    _, _, states = played(game)
    for state in states[:: max(1, len(states) // 8)] + states[-1:]:
        board = ScoreboardView.from_json(game.scoreboard(state).to_json())
        assert board == game.scoreboard(state)
        for size in SIZES:
            for side in (None, 0, 1):
                image = render(board, size, side=side)
                assert image.size == size and image.getbbox() is not None


@pytest.mark.parametrize("game", [g for g in GAMES if any(c.sealed for c in g.commands)],
                         ids=lambda g: g.name)
def test_sealed_values_stay_masked_everywhere_until_the_game_reveals_them(game: Game, tmp_path: Path,
                                                                         shootout: Game) -> None:
    options, commands, _ = played(game)
    store = Store.open(tmp_path / "g.db")
    session = Session.new(store, game, options)
    secrets_seen = 0
    for command in commands:
        session.handle(command)
        fields = game.sealed_fields(command["type"])
        revealed = any(e.get("reveals") for e in session.timeline.done[-1]["events"])
        if not fields or revealed:
            continue
        secrets_seen += 1
        snapshot = json.dumps(session.snapshot())
        line = session.log()[-1]
        exported = json.loads(export_json(store, session.game_id))["log"][-1]
        for name in fields:
            assert f'"{name}": {json.dumps(command[name])}' not in snapshot
            assert line["command"][name] == MASK
            assert exported["command"][name] == MASK
            assert all(e.get(name, MASK) == MASK for e in exported["events"])
            assert str(command[name]) not in line["text"]
        # The store itself holds the value: a power cut loses nothing.
        assert store.entries(session.game_id)[-1]["command"] == command
    assert secrets_seen > 0
    # After the reveal the log shows every value.
    shown = [line["command"] for line in session.log()[1:]]
    assert shown == [dict(c) for c in commands]
    store.close()
