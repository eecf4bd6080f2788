"""Hoop Godz declares ``play``: the state after a command is the one deciding it folded on its way, not
folded again. It must be what folding ``apply`` over the command's events gives (as restore and redo
do), with the events ``decide`` gives, for every choice the prompt offers on every state of the
standard and PRO games and of random walks, and for every command of the scripts."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.errors import CompanionError
from companion.games.hoop_godz import GAME, rules

GAMES = Path(__file__).parent / "games"


def replayed(state, events):
    for event in events:
        state = rules.apply(state, event)
    return state


def check(state, command) -> bool:
    try:
        events = rules.decide(state, command)
    except CompanionError:
        return False
    after, played = rules.play(state, command)
    assert played == events, command
    assert after == replayed(state, events), command
    return True


def test_play_gives_the_state_replaying_its_events_gives() -> None:
    played = 0
    for script in ("full_game_hoop_godz.jsonl", "pro_game_hoop_godz.jsonl"):
        lines = [json.loads(line) for line in (GAMES / script).read_text().splitlines() if line.strip()]
        state = GAME.setup({k: v for k, v in lines[0].items() if k != "type"})
        for command in lines[1:]:
            for choice in GAME.prompt(state).choices:
                played += check(state, choice.command)
            assert check(state, command)
            state, _ = GAME.run(state, command)
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.setup({"ball_faces": rng.choice([None, 2]), "mode": rng.choice(["standard", "pro"])})
        for _ in range(150):
            if state.final:
                break
            choices = GAME.prompt(state).choices
            for choice in choices:
                played += check(state, choice.command)
            command = dict(rng.choice(choices).command) if choices else \
                {"type": "roll", "die": "balls", "face": rng.randint(0, state.shot[0])}
            state, _ = GAME.run(state, command)
    assert played > 2000
