"""Hoop Godz's prompt judges its candidates by each command's check (``rules.allowed``), one SHOOT per
card and baller for all its difficulties and points, from offers shared by the states holding the same
records: the choices must be exactly those deciding every candidate on its own gives, on every state of
the standard and PRO games (with undo and redo), of random walks from them, and of those states with
the juice, the turn's start and the GOAT cards changed."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.game import JSON, Choice
from companion.games.hoop_godz import GAME, rules, views
from companion.games.hoop_godz.dice import shot_chance
from companion.games.hoop_godz.model import MAX_DICE, State
from companion.timeline import Timeline

GAMES = Path(__file__).parent / "games"


def states_of(script: str) -> list[State]:
    """Every state of the script, and after every fourth command the state an undo leads to, two
    undos, and the redos back."""
    lines = [json.loads(line) for line in (GAMES / script).read_text().splitlines() if line.strip()]
    timeline = Timeline(GAME)
    timeline.commit(*timeline.plan_setup({k: v for k, v in lines[0].items() if k != "type"}))
    states = [timeline.state]
    for n, command in enumerate(lines[1:]):
        timeline.commit(*timeline.plan_command(command))
        states.append(timeline.state)
        if n % 4 == 1:
            for plan in (timeline.plan_undo, timeline.plan_undo, timeline.plan_redo, timeline.plan_redo):
                timeline.commit(*plan())
                states.append(timeline.state)
    return states


def walk(seed: int, steps: int = 150) -> list[State]:
    """A random game through the prompt's own choices (and BALL counts), from a random setup."""
    rng = random.Random(seed)
    state = GAME.setup({"ball_faces": rng.choice([None, 1, 2, 3]), "mode": rng.choice(["standard", "pro"])})
    states = [state]
    for _ in range(steps):
        if state.final:
            break
        choices = views.prompt(state).choices
        if choices:
            command = dict(rng.choice(choices).command)
        else:
            assert state.shot is not None
            command = {"type": "roll", "die": "balls", "face": rng.randint(0, state.shot[0])}
        try:
            state = rules.run(state, command)
        except CompanionError:  # a choice the rules refuse: the tests below say which
            continue
        states.append(state)
    return states


def variants(state: State, rng: random.Random) -> list[State]:
    """A turn's or a response's state with the acting side's juice from 0 to 4 (a SHOOT by a big baller
    costs 1 more, so ballers fall on both sides of what the player can pay), the first spaces of the bar
    taken (none, up to the Rest line, past it, all but one or two), the turn started or not, and a GOAT
    card held or not."""
    if state.phase not in ("turn", "respond"):
        return [state]
    side = state.active if state.phase == "turn" else 1 - state.active
    out = []
    for available in range(5):
        players = list(state.players)
        player = players[side]
        taken = rng.choice((0, 0, 3, 4, 6, 7))
        bar = ("MOVE",) * taken + (None,) * (len(player.ledger.bar) - taken)
        players[side] = replace(player, ledger=replace(player.ledger, available=available, bar=bar),
                                goat_draws=available % 2)
        out.append(replace(state, players=tuple(players), turn_started=rng.random() < 0.5))
    return out


def every_candidate(state: State, phase: str) -> list[tuple[str, JSON, tuple[Fraction, Fraction] | None]]:
    """What the prompt of ``phase`` may offer, as it listed it before it had offers: each candidate with
    its label and odds, in order (a turn's odds counted here afresh)."""
    names, active = state.names, state.active
    if phase == "tip_off":
        return [(f"tip-off: {a.name} and {b.name}", {"type": "tip_off", "nearest": [a.name, b.name]}, None)
                for a in state.player(0).squad for b in state.player(1).squad]
    if phase == "battle":
        holder = "nobody holds the TIE BREAKER: roll again" if state.tie_breaker is None else \
            f"{names[state.tie_breaker]} holds the TIE BREAKER"
        return [*((f"{names[side]} matched first", {"type": "battle", "winner": side}, None)
                  for side in (0, 1)),
                (f"tie: {holder}", {"type": "battle", "tie": True}, None),
                *((f"{names[side]}: BOOST", {"type": "boost", "side": side}, None) for side in (0, 1))]
    if phase == "respond":
        side = 1 - active
        return [("no response", {"type": "no_response"}, None),
                (f"{names[side]}: MOVE", {"type": "move"}, None),
                *((f"{names[side]}: {card.name} by {b.name}",
                   {"type": "respond", "card": card.name, "baller": b.name}, None)
                  for card in state.cards if not card.active for b in state.player(side).squad),
                (f"{names[active]}: BOOST", {"type": "boost", "side": active}, None)]
    found: list[tuple[str, JSON]] = [(f"{names[active]}: MOVE", {"type": "move"}),
                                     (f"{names[active]}: PASS", {"type": "pass"})]
    odds: dict[str, tuple[Fraction, Fraction]] = {}
    for card in state.cards:
        for b in state.player(active).squad if card.active else ():
            if card.effect != "shoot":
                found.append((f"{card.name} by {b.name}",
                              {"type": "play", "card": card.name, "baller": b.name}))
                continue
            for points in (2, 3):
                for d in range(1, MAX_DICE + 1):
                    label = f"SHOOT by {b.name}: {points} pts, difficulty {d}"
                    found.append((label, {"type": "play", "card": card.name, "baller": b.name,
                                          "difficulty": d, "points": points}))
                    if state.ball_faces is not None:
                        chance = shot_chance(card.dice(b.size), d, state.ball_faces)
                        odds[label] = (chance, chance * points)
    if state.player(active).goat_draws:
        found.append(("GOAT card", {"type": "goat", "juice": 0}))
    found += [("REST", {"type": "rest"}), ("end turn", {"type": "end_turn"})]
    return [(label, command, odds.get(label)) for label, command in found]


def decides(state: State, command: JSON) -> bool:
    try:
        rules.decide(state, command)
    except CompanionError:
        return False
    return True


def deciding_each(state: State) -> tuple[Choice, ...]:
    """The choices of a copy of ``state`` that shares no record with it (no memo can answer for it),
    each candidate decided on its own."""
    fresh = copy.deepcopy(state)
    return tuple(Choice(label, command, *(odds or (None, None)))
                 for label, command, odds in every_candidate(fresh, fresh.phase) if decides(fresh, command))


def all_states() -> list[State]:
    found = states_of("full_game_hoop_godz.jsonl") + states_of("pro_game_hoop_godz.jsonl")
    found += [s for seed in range(3) for s in walk(seed)]
    rng = random.Random(15)
    return [variant for state in found for variant in variants(state, rng)]


@pytest.fixture(scope="module")
def states() -> list[State]:
    found = all_states()
    random.Random(5).shuffle(found)  # so an offer memo meets its records out of order, too
    return found


def test_the_choices_are_those_deciding_every_candidate_gives(states: list[State]) -> None:
    split = 0  # states where one baller may SHOOT and another may not
    phases = set()
    for state in states:
        if state.final or state.phase in ("draft", "final_roll"):
            continue
        quick = views.prompt(state).choices
        assert quick == deciding_each(state), state
        phases.add(state.phase)
        shooters = {c.command["baller"] for c in quick if "difficulty" in c.command}
        split += 0 < len(shooters) < len(state.player(state.active).squad) if state.phase == "turn" else 0
    assert split >= 5  # the shortcut was tried where its verdict differs by baller
    assert phases == {"tip_off", "battle", "respond", "turn"}


def test_each_check_refuses_what_decide_refuses_in_every_phase(states: list[State]) -> None:
    """``rules.allowed`` against ``decide`` for what every phase offers, asked in every state (so each
    check also meets the phases it must refuse)."""
    refused = accepted = 0
    for state in states[::3]:
        for phase in ("tip_off", "battle", "respond", "turn"):
            for _, command, _ in every_candidate(state, phase):
                verdict = decides(state, command)
                assert rules.allowed(state, command) == verdict, (state, command)
                accepted += verdict
                refused += not verdict
    assert accepted > 1000 and refused > 1000
