"""The placement prompt's judge (``rules.placements``: ``place``'s checks with what they read of the
state counted once) reads exactly as a full trial of every placement: the same refusals word for
word, the same cards accepted, and the prompt offers exactly what the trials accept.

Every state of the full-game script's walk (undos, redos, a restore) is checked, and each placement
state again with other lineups half filled (random players at random positions, a card's name in
another case), so the fill check meets benches that can and can't fill what is left.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from render_walk import walk

from companion.errors import CompanionError, RuleError
from companion.frozen import replace
from companion.games import find_game
from companion.games.nba_showdown import rules
from companion.games.nba_showdown.cards import POSITIONS
from companion.games.nba_showdown.model import State

SCRIPT = Path(__file__).parent / "games" / "full_game_nba_showdown.jsonl"
GAME = find_game("nba-showdown")


def _trial(state: State, command: dict[str, Any]) -> tuple[str, str]:
    """What a full trial gives: the card put in, or the refusal's words. It resolves a copy of the
    state, so the judge the prompt made for that state is not reused (``place`` runs the same
    checks, though: ``_reference`` holds them to the checks as written before the judge)."""
    try:
        after = rules.resolve(dataclasses.replace(state), command)
    except CompanionError as refused:
        return "refused", str(refused)
    if command["type"] != "place":
        return "accepted", ""
    return "accepted", str(after.team(command["side"]).lineup[POSITIONS.index(command["position"])])


def _judged(state: State, command: dict[str, Any], judges: dict[int, Any]) -> tuple[str, str]:
    """What the judge gives: ``resolve``'s checks of the kind, then ``Placements.check``; one judge
    per side asked of every placement of the state, as the prompt asks it (its memo fills up)."""
    if command["side"] not in judges:
        judges[command["side"]] = rules.placements(state, command["side"])
    judge = judges[command["side"]]
    if judge is None:
        # No placement of the side passes now (the game is over, it is not the side's turn to place):
        # the trial must refuse this one too, with the words of that state-wide check.
        tried = _trial(state, command)
        return tried if tried[0] == "refused" else ("refused by the judge", "")
    try:
        return "accepted", judge.check(command["position"], command["player"]).name
    except CompanionError as refused:
        return "refused", str(refused)


def _reference(state: State, command: dict[str, Any]) -> tuple[str, str]:
    """``place``'s checks as they were written before the judge (aa40ee3's ``placed_lineup``), kept
    here so a wrong rule in the judge, which ``place`` now runs too, cannot pass unseen."""
    side, position, player = command["side"], command["position"], command["player"]
    try:
        if state.final or state.stage != "placement" or state.acting != side:
            return _trial(state, command)  # not a placement's own check: the stage's words
        team = state.team(side)
        card = team.card(player)
        if team.at(position) is not None:
            raise RuleError(f"{team.name} already put {team.at(position).name} at {position}")
        if team.position_of(card.name) is not None:
            raise RuleError(f"{card.name} is already in at {team.position_of(card.name)}")
        if position not in card.positions:
            raise RuleError(f"{card.name} can't play {position} (Substitutions: everyone in a position he "
                            f"can play: {', '.join(card.positions)})")
        lineup = list(team.lineup)
        lineup[POSITIONS.index(position)] = card.name
        open_positions = [p for p, name in zip(POSITIONS, lineup, strict=True) if name is None]
        bench = [c for c in team.cards if c.name not in lineup]
        if not any(all(p in c.positions for p, c in zip(open_positions, chosen, strict=True))
                   for chosen in itertools.permutations(bench, len(open_positions))):
            raise RuleError(f"with {card.name} at {position}, {team.name} could not fill "
                            f"{', '.join(open_positions)} with players who can play there")
    except CompanionError as refused:
        return "refused", str(refused)
    return "accepted", card.name


def _variations(state: State, rng: random.Random) -> Iterator[State]:
    """The placement state with the acting side's lineup half filled some other way."""
    side = state.acting
    team = state.team(side)
    for _ in range(6):
        lineup: list[str | None] = [None] * len(POSITIONS)
        names = [card.name for card in team.cards]
        for position in rng.sample(range(len(POSITIONS)), rng.randint(0, 4)):
            name = names.pop(rng.randrange(len(names)))
            lineup[position] = name.upper() if rng.random() < 0.1 else name
        yield state.with_team(side, replace(team, lineup=tuple(lineup)))


def _placements(state: State) -> Iterator[dict[str, Any]]:
    for side in (0, 1):
        for position in POSITIONS:
            for card in state.team(side).cards:
                yield {"type": "place", "side": side, "position": position, "player": card.name}
            yield {"type": "place", "side": side, "position": position,
                   "player": state.team(side).cards[0].name.upper()}
            yield {"type": "place", "side": side, "position": position, "player": "Nobody Here"}


def _states() -> Iterator[State]:
    rng = random.Random(7)
    seen: set[int] = set()
    for state, _ in walk(GAME, SCRIPT):
        if id(state) in seen:
            continue
        seen.add(id(state))
        yield state
        if state.stage == "placement":
            yield from _variations(state, rng)


@pytest.fixture(scope="module")
def states() -> list[State]:
    return list(_states())


def test_the_placement_judge_reads_as_a_full_trial_of_every_placement(states: list[State]) -> None:
    accepted = refused = unfillable = 0
    for state in states:
        # Both sides' judges first, the acting side's first, as a table asks them (the prompt's, then
        # a placement sent for the other side): the one made last must not answer for the other side.
        judges = {side: rules.placements(state, side) for side in (state.acting, 1 - state.acting)}
        for command in _placements(state):
            expected = _trial(state, command)
            assert _judged(state, command, judges) == expected, (state.team(command["side"]).lineup, command)
            assert _reference(state, command) == expected, (state.team(command["side"]).lineup, command)
            accepted += expected[0] == "accepted"
            refused += expected[0] == "refused"
            unfillable += "could not fill" in expected[1]
    assert accepted > 300 and refused > 10_000 and unfillable > 20


def test_the_placement_prompt_offers_exactly_what_a_full_trial_accepts(states: list[State]) -> None:
    prompts = 0
    for state in states:
        if state.stage != "placement" or state.final:
            continue
        side, team = state.acting, state.team(state.acting)
        every = [{"type": "keep", "side": side}] + [
            {"type": "place", "side": side, "position": position, "player": card.name}
            for position, name in zip(POSITIONS, team.lineup, strict=True) if name is None
            for card in team.cards]
        offered = [choice.command for choice in GAME.prompt(state).choices]
        assert offered == [c for c in every if _trial(state, c)[0] == "accepted"], team.lineup
        prompts += 1
    assert prompts > 100
