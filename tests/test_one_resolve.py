"""One resolve per command: a game that declares ``play`` hands the engine the state its check
resolved, and a picked choice reuses what the prompt already resolved (``companion.trials``), or
the prompt resolved nothing (it asked the rules' checks alone).

The promise that makes this safe is checked on the full-game scripts: the state ``play`` gives is
the state replay gives (``apply`` over the logged events), command by command.
"""

from __future__ import annotations

import doctest
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import trials
from companion.game import Game
from companion.games import find_game
from companion.games.nba_showdown import rules as nba_rules
from companion.games.valley_hoopers import rules as vh_rules
from companion.session import parse_command
from companion.trials import Trials

GAMES_DIR = Path(__file__).parent / "games"
SCRIPTS = {"valley-hoopers": ("full_game_valley_hoopers.jsonl", vh_rules.trial),
           "nba-showdown": ("full_game_nba_showdown.jsonl", nba_rules.trial)}
# Games whose prompt asks the rules' own checks of each candidate (NBA Showdown's ``rules.allowed``)
# instead of resolving it: nothing is tried, so the picked command is resolved once, by ``play``.
PROMPT_CHECKS_ONLY = {"nba-showdown"}


def script(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in (GAMES_DIR / SCRIPTS[name][0]).read_text().splitlines() if line]
    commands = [parse_command(json.dumps(line)) for line in lines[1:]]
    return {k: v for k, v in lines[0].items() if k != "type"}, commands


class Counted:
    """Counts the resolver's calls behind a game's ``trial``."""

    def __init__(self, trial: Trials[Any], monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        self.events: list[dict[str, Any]] = []
        inner = trial._resolve

        def counting(state: Any, event: Any) -> Any:
            self.calls += 1
            self.events.append(dict(event))
            return inner(state, event)

        monkeypatch.setattr(trial, "_resolve", counting)


def steps(game: Game, name: str) -> Iterator[tuple[Any, dict[str, Any]]]:
    options, commands = script(name)
    state = game.setup(options)
    for command in commands:
        yield state, command
        state, _ = game.run(state, command)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_the_state_play_keeps_is_the_state_replay_gives(name: str) -> None:
    game = find_game(name)
    assert game.play is not None
    for state, command in steps(game, name):
        after, events = game.play(state, command)
        replayed = state
        for event in events:
            replayed = game.apply(replayed, event)
        assert after == replayed, command
        assert game.decide(state, command) == events


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_choice_the_prompt_tried_is_not_resolved_again_and_any_other_command_once(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = find_game(name)
    counted = Counted(SCRIPTS[name][1], monkeypatch)
    reused = resolved = 0
    any_tried = False
    for state, command in steps(game, name):
        counted.events = []
        game.prompt(state)
        tried = list(counted.events)
        any_tried = any_tried or bool(tried)
        counted.calls = 0
        game.run(state, command)
        if command in tried:
            reused += 1
            assert counted.calls == 0, command
        else:
            resolved += 1
            assert counted.calls == 1, command
    assert resolved > 50  # the scripts roll dice
    if name in PROMPT_CHECKS_ONLY:
        assert reused == 0 and not any_tried  # every candidate was checked, none resolved
    else:
        # The scripts pick choices; a game whose prompt judges most candidates by their checks
        # (Valley Hoopers: fundamentals, attacks, defenses, counters...) reuses fewer trials (its
        # decisions' choices are still tried), never none.
        assert reused > 10, reused


def test_trials_forget_the_previous_state_and_keep_no_refusal() -> None:
    calls: list[int] = []

    def resolve(state: list[int], event: Any) -> list[int]:
        calls.append(event["n"])
        if event["n"] < 0:
            raise ValueError("refused")
        return [*state, event["n"]]

    trial = Trials(resolve)
    first, second = [1], [1]
    assert trial(first, {"n": 2}) == [1, 2]
    assert trial(second, {"n": 2}) == [1, 2]
    assert trial(first, {"n": 2}) == [1, 2]  # first was forgotten when second came
    assert calls == [2, 2, 2]
    for _ in range(2):
        with pytest.raises(ValueError):
            trial(first, {"n": -1})
    assert calls == [2, 2, 2, -1, -1]
    assert trial(first, {"n": True}) == [1, True]  # true is not 1
    assert calls[-1] is True


def test_trials_tell_true_from_one_and_a_list_from_another_when_keys_collide() -> None:
    calls: list[Any] = []

    def resolve(state: object, event: Any) -> int:
        calls.append(event["n"])
        return len(calls)

    trial, state = Trials(resolve), object()
    # A quick key lets True, 1 and 1.0 (and -0.0, 0.0) meet: a hit is checked before it is used.
    assert [trial(state, {"n": 1}), trial(state, {"n": True}), trial(state, {"n": 1.0})] == [1, 2, 3]
    assert [trial(state, {"n": -0.0}), trial(state, {"n": 0.0}), trial(state, {"n": 0.0})] == [4, 5, 5]
    assert [trial(state, {"n": [1]}), trial(state, {"n": [True]}), trial(state, {"n": [True]})] == [6, 7, 7]
    assert trial(state, {"n": 1.0}) == 3 and len(calls) == 7  # the latest of the colliding ones is kept


def test_the_trials_doctests_run() -> None:
    result = doctest.testmod(trials)
    assert result.attempted and not result.failed
