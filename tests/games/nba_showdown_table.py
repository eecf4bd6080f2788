"""An NBA Showdown table for tests: the shipped DEMO teams (invented cards) and a driver that plays
random legal commands, strategy cards and shot checks included, as a table would enter them."""

from __future__ import annotations

import random
from typing import Any

from companion.errors import CompanionError
from companion.games.nba_showdown import GAME


def options(**extra: Any) -> dict[str, Any]:
    """Both DEMO rosters with every rule on; ``extra`` overrides (``first``, ``rules``, ...)."""
    return {"teams": [{"roster": "demo-comets"}, {"roster": "demo-lanterns"}], "first": 0, **extra}


def _card_command(state: Any, side: int, rng: random.Random) -> dict[str, Any] | None:
    team = state.team(side)
    left = [name for name, copies in team.deck if team.played.count(name) < copies]
    if not left or team.hand < 1:
        return None
    command: dict[str, Any] = {"type": "play_card", "side": side, "card": rng.choice(left)}
    pick = rng.random()
    if pick < 0.25:
        command["roll_bonus"] = rng.choice([-2, 1, 2, 3])
    elif pick < 0.4:
        command[rng.choice(["speed", "power"])] = rng.choice([-2, 2, 4])
    elif pick < 0.55:
        command["requires"] = {rng.choice(["more", "less"]): rng.choice(["speed", "power"])}
        command["roll_bonus"] = 2
    elif pick < 0.7:
        command["shot_check"] = {"points": rng.choice([2, 3]), "three_point": rng.random() < 0.5}
    elif pick < 0.8:
        command["shot_check"] = {"foul_shot": True}
    else:
        command["adjust"] = {rng.choice(["pts", "ast", "reb"]): rng.choice([-1, 1])}
    return command


def next_command(state: Any, rng: random.Random) -> dict[str, Any]:
    """One legal command, chosen at random the way a table might play."""
    prompt = GAME.prompt(state)
    if state.stage == "roll" and state.rules.strategy and rng.random() < 0.35:
        roll = state.roll
        for side in (roll.side, 1 - roll.side):
            command = _card_command(state, side, rng)
            if command is None:
                continue
            try:
                GAME.decide(state, command)
            except CompanionError:
                continue
            return command
    if prompt.die:
        return {"type": "roll", "face": rng.randint(1, 20)}
    choices = list(prompt.choices)
    if state.stage == "placement" and choices[0].command["type"] == "keep" and rng.random() < 0.6:
        return choices[0].command
    return rng.choice(choices).command


def play_out(opts: dict[str, Any], seed: int, limit: int = 2000) -> tuple[Any, list[dict[str, Any]]]:
    """Play a whole game from ``opts``; the final state and the commands sent."""
    rng = random.Random(seed)
    state = GAME.setup(opts)
    commands = []
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return state, commands
        command = next_command(state, rng)
        state, _ = GAME.run(state, command)
        commands.append(command)
    raise AssertionError(f"no outcome after {limit} commands")


# TEST DATA: cards made up for the rulebook's checks (never shipped). Each row is (range, pts, ast, reb).
EVEN_CHART = (("1-9", 1, 0, 0), ("10-15", 2, 1, 1), ("16-20", 3, 1, 1), ("21+", 4, 2, 2))


def card(name: str, positions: list[str], speed: int = 10, power: int = 10, point_value: int = 500,
         shot_line: int = 16, chart: tuple[tuple[str, int, int, int], ...] = EVEN_CHART,
         three_point_bonus: int = 0) -> dict[str, Any]:
    return {"name": name, "positions": positions, "speed": speed, "power": power, "point_value": point_value,
            "shot_line": shot_line, "three_point_bonus": three_point_bonus,
            "chart": [{"range": r, "pts": p, "ast": a, "reb": b} for r, p, a, b in chart]}


def deck(prefix: str) -> dict[str, int]:
    return {f"{prefix} card {n}": 4 for n in range(10)}


POSITIONS = ["PG", "SG", "SF", "PF", "C"]


def five(prefix: str, **by_position: dict[str, Any]) -> list[dict[str, Any]]:
    """Five test players, one per position; ``by_position`` overrides fields of a position's card."""
    return [card(f"{prefix} {p}", [p], **by_position.get(p, {})) for p in POSITIONS]


def custom_options(home: list[dict[str, Any]], away: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"teams": [{"name": "Home", "players": home, "deck": deck("Home")},
                      {"name": "Away", "players": away, "deck": deck("Away")}], "first": 0, **extra}


def run(state: Any, *commands: dict[str, Any]) -> Any:
    for command in commands:
        state, _ = GAME.run(state, command)
    return state


def to_first_roll(state: Any) -> Any:
    """Keep both lineups and decide on no double-team: the quarter's first scoring roll is next."""
    while state.stage in ("placement", "double_team"):
        state = run(state, {"type": "keep"} if state.stage == "placement" else {"type": "no_double_team"})
    return state


def roll_for(state: Any, position: str, face: int, stat: str = "speed", assists: int = 0) -> Any:
    """One whole scoring roll: choose, roll, and (if asked) the assists."""
    state = run(state, {"type": "shoot", "position": position, "stat": stat}, {"type": "roll", "face": face})
    if state.stage == "assist":
        state = run(state, {"type": "assist", "count": assists})
    return state


def play_quarter(state: Any, face: int = 10) -> Any:
    """Ten scoring rolls in position order for both sides, all with ``face``."""
    state = to_first_roll(state)
    quarter = state.quarter
    while state.quarter == quarter and not state.final:
        team = state.team(state.acting)
        position = next(p for p in POSITIONS if team.at(p).name not in team.used)
        state = roll_for(state, position, face)
    return state
