"""Hoop Godz's prompt decides one SHOOT per card and baller for all its difficulties and points: the
choices must be exactly those deciding every candidate on its own gives, on every state of the
standard and PRO games and of random walks from them."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.hoop_godz import GAME, views
from companion.timeline import Timeline

GAMES = Path(__file__).parent / "games"


def states_of(script: str) -> list:
    lines = [json.loads(line) for line in (GAMES / script).read_text().splitlines() if line.strip()]
    timeline = Timeline(GAME)
    timeline.commit(*timeline.plan_setup({k: v for k, v in lines[0].items() if k != "type"}))
    states = [timeline.state]
    for command in lines[1:]:
        timeline.commit(*timeline.plan_command(command))
        states.append(timeline.state)
    return states


def deciding_each(monkeypatch: pytest.MonkeyPatch):
    legal = views._legal

    def each_on_its_own(state, candidates, odds=None, judged_as=None):
        return legal(state, candidates, odds)

    monkeypatch.setattr(views, "_legal", each_on_its_own)


def juice_variants(state) -> list:
    """A turn's state with the active player's juice set from 0 to 4, so a SHOOT by a big baller (it
    costs 1 more) and one by a smaller one fall on both sides of what the player can pay."""
    if state.phase != "turn":
        return [state]
    out = []
    for available in range(5):
        players = list(state.players)
        player = players[state.active]
        players[state.active] = replace(player, ledger=replace(player.ledger, available=available))
        out.append(replace(state, players=tuple(players)))
    return out


@pytest.mark.parametrize("script", ["full_game_hoop_godz.jsonl", "pro_game_hoop_godz.jsonl"])
def test_the_choices_are_those_deciding_every_candidate_gives(script: str, monkeypatch) -> None:
    states = [variant for state in states_of(script) for variant in juice_variants(state)]
    random.Random(5).shuffle(states)
    fast = [views.prompt(state) for state in states]
    with monkeypatch.context() as patched:
        deciding_each(patched)
        slow = [views.prompt(state) for state in states]
    split = 0  # states where one baller may SHOOT and another may not
    for state, quick, full in zip(states, fast, slow, strict=True):
        assert quick == full, state
        shooters = {c.command["baller"] for c in quick.choices if "difficulty" in c.command}
        split += 0 < len(shooters) < len(state.player(state.active).squad) if state.phase == "turn" else 0
    assert split >= 5  # the shortcut was tried where its verdict differs by baller
