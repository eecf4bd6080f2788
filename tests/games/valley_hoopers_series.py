"""A Valley Hoopers series for tests: ten cards a side (TEST DATA, as valley_hoopers_table.py) and a
driver that plays whole games with random legal commands and sets up each next game.

Between games it ticks the reward checklist one item at a time (as the kiosk would, one button a
tap) and sets the next game's seven: the previous seven without the hooper ejected in the last
game, filled from the ten; each vacated line-up position goes to a hooper who can start there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.valley_hoopers_table import (
    KARL_LINEUP,
    LUCY_LINEUP,
    card,
    karl_hoopers,
    lucy_hoopers,
    next_command,
)

from companion.errors import CompanionError
from companion.games.valley_hoopers import GAME

CONDITIONS = ("after_pass", "playbook", "over_100", "steal", "rebound", "and_one", "intercept")


def lucy_ten() -> list[dict[str, Any]]:
    """Lucy's seven from the classic test table plus three more Unleashed (test data)."""
    return lucy_hoopers() + [
        card("Faust Exit", "PG", "free_attack_after_screen", 5, ["PG", "SG"], "SG"),
        card("Sin Miedo", "SG", "no_foul_bonus_against", 5, ["SG", "SF"], "SF"),
        card("Lance Endure", "PF", "spends_teammates_energy", 5, ["PF", "C"], "C"),
    ]


def karl_ten() -> list[dict[str, Any]]:
    """Karl's seven from the classic test table plus three more Keepers (test data)."""
    return karl_hoopers() + [
        card("Vernon Dely", "PG", "free_pass", 5, ["PG", "SG"], "SG"),
        card("Henry Closure", "SG", "free_d3", 5, ["SG", "SF"], "SF"),
        card("Maddy Cure", "PF", "cures_on_score", 5, ["PF", "C"], "C"),
    ]


TENS = (lucy_ten, karl_ten)


def series_options(condition: str = "after_pass", home: int = 0, **extra: Any) -> dict[str, Any]:
    """The Series between Lucy (Unleashed) and Karl (Keepers): game 1 with the classic test sevens."""
    return {
        "variant": "series",
        "foul_die_blanks": 3,
        "home": home,
        "condition": condition,
        **extra,
        "sides": [
            {"name": "Lucy", "tribe": "unleashed", "hoopers": lucy_hoopers(), "lineup": dict(LUCY_LINEUP)},
            {"name": "Karl", "tribe": "keepers", "hoopers": karl_hoopers(), "lineup": dict(KARL_LINEUP)},
        ],
    }


def next_seven(raw_side: Mapping[str, Any], ten: list[dict[str, Any]],
               ejected: tuple[str, ...]) -> dict[str, Any]:
    """The side's next seven and line-up without its ejected hoopers (``raw_side`` as last game)."""
    out = [name.lower() for name in ejected]
    seven = [h for h in raw_side["hoopers"] if h["name"].lower() not in out]
    for extra in ten:
        if len(seven) == 7:
            break
        if extra["name"] not in {h["name"] for h in seven} and extra["name"].lower() not in out:
            seven.append(extra)
    lineup = {p: n for p, n in raw_side["lineup"].items() if n.lower() not in out}
    for position in ("PG", "SG", "SF", "PF", "C"):
        if position in lineup:
            continue
        fits = [h["name"] for h in seven if h["name"] not in lineup.values()
                and position in (h["first_position"], h["second_position"])]
        if not fits:
            raise ValueError(f"nobody can start at {position}")
        lineup[position] = fits[0]
    return {**raw_side, "hoopers": seven, "lineup": lineup}


def next_game_command(state: Any, rng: random.Random) -> dict[str, Any]:
    """``next_game`` for the series in ``state``: a drawn marker, new sevens only where needed."""
    last = state.last()
    sides: list[Any] = [None, None]
    for side in (0, 1):
        if last.ejected[side]:
            sides[side] = next_seven(state.side_options[side], TENS[side](), last.ejected[side])
    command: dict[str, Any] = {"type": "next_game", "condition": rng.choice(CONDITIONS),
                               "first_attacker": rng.choice((0, 1))}
    if any(s is not None for s in sides):
        command["sides"] = sides
    return command


def series_command(state: Any, rng: random.Random) -> dict[str, Any]:
    """A legal command for the series: the game's own while a game is on, else the phase's."""
    if state.phase == "game":
        return next_command(state.game, rng)
    if state.phase == "next_game":
        return next_game_command(state, rng)
    prompt = GAME.prompt(state)
    ticks = [c for c in prompt.choices if not c.command.get("all")]
    return dict((ticks or list(prompt.choices))[0].command)


def play_series(opts: Mapping[str, Any], seed: int, until_games: int | None = None,
                limit: int = 60000) -> tuple[Any, list[dict[str, Any]]]:
    """Play the series (or its first ``until_games`` games) with random legal commands."""
    rng = random.Random(seed)
    state = GAME.setup(opts)
    commands: list[dict[str, Any]] = []
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return state, commands
        if until_games is not None and len(state.results) >= until_games and state.phase == "next_game":
            return state, commands
        command = series_command(state, rng)
        try:
            state, _ = GAME.run(state, command)
        except CompanionError as exc:
            raise AssertionError(f"offered command refused: {command}: {exc}") from exc
        commands.append(command)
    raise AssertionError("the series did not end")
