"""A Valley Hoopers series for tests: ten cards a side (TEST DATA, as valley_hoopers_table.py) and a
driver that plays whole games with random legal commands and sets up each next game.

Between games it ticks the reward checklist one item at a time (as the kiosk would, one button a
tap) and takes one of the prompt's ready-made next games: the companion replaces a hooper ejected
in the last game from the side's ``reserves`` (the other three of its ten).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.valley_hoopers_table import (
    FOUL_FACES,
    KARL_LINEUP,
    LUCY_LINEUP,
    card,
    karl_hoopers,
    lucy_hoopers,
    next_command,
)

from companion.errors import CompanionError
from companion.games.valley_hoopers import GAME
from companion.games.valley_hoopers.series import home_side

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


def series_options(condition: str = "after_pass", home: int = 0, **extra: Any) -> dict[str, Any]:
    """The Series between Lucy (Unleashed) and Karl (Keepers): game 1 with the classic test sevens."""
    return {
        "variant": "series",
        "foul_die_blanks": 3,
        "home": home,
        "condition": condition,
        **extra,
        "sides": [
            {"name": "Lucy", "tribe": "unleashed", "hoopers": lucy_hoopers(), "lineup": dict(LUCY_LINEUP),
             "reserves": lucy_ten()[7:]},
            {"name": "Karl", "tribe": "keepers", "hoopers": karl_hoopers(), "lineup": dict(KARL_LINEUP),
             "reserves": karl_ten()[7:]},
        ],
    }


def _home_first(state: Any) -> list[Any]:
    """The prompt's ``next_game`` choices where Home won the opening d20 roll: one per marker, so the
    seeded draws (and the recorded series) are the ones from before the prompt offered both winners."""
    home = home_side(state.next_number, state.first_home)
    return [c for c in GAME.prompt(state).choices
            if c.command["type"] == "next_game" and c.command["first_attacker"] == home]


def next_game_command(state: Any, rng: random.Random) -> dict[str, Any]:
    """One of the prompt's ready-made ``next_game`` choices (a new seven where one is needed) with a
    random winner of the opening roll."""
    # The prompt also offers to plan the next game (sleeve a card, bring Susan Peg): not taken here.
    choices = _home_first(state)
    if not choices:
        raise AssertionError(f"no next game offered: {GAME.prompt(state).text}")
    return {**rng.choice(choices).command, "first_attacker": rng.choice((0, 1))}


def series_command(state: Any, rng: random.Random) -> dict[str, Any]:
    """A legal command for the series: the game's own while a game is on, else the phase's."""
    if state.phase == "game":
        return next_command(state.game, rng)
    if state.phase == "next_game":
        return next_game_command(state, rng)
    prompt = GAME.prompt(state)
    ticks = [c for c in prompt.choices if not c.command.get("all")]
    return dict((ticks or list(prompt.choices))[0].command)


def brisk_command(game: Any, rng: random.Random) -> dict[str, Any]:
    """A legal command for a game of the series that keeps a turn short: an attack straight away, the
    die for the defense half of the time (a defender's fouls still add up to ejections). Fewer
    commands a game than ``next_command``, so the whole series fits a quick kiosk test."""
    prompt = GAME.prompt(game)
    if prompt.die == "d8foul":
        return {"type": "roll", "die": "d8foul", "face": rng.choice(FOUL_FACES)}
    if prompt.die == "d20x5" and (not prompt.choices or prompt.commands[0] == "roll"):
        return {"type": "roll", "die": "d20x5", "face": rng.choice(range(5, 101, 5))}
    choices = list(prompt.choices)
    attacks = [c for c in choices if c.command["type"] == "attack"]
    if attacks:
        return dict(rng.choice(attacks).command)
    defends = [c for c in choices if c.command["type"] == "defend"]
    if defends and rng.random() < 0.5:
        return dict(defends[0].command)
    if prompt.die == "d20x5":
        return {"type": "roll", "die": "d20x5", "face": rng.choice(range(5, 101, 5))}
    kept = [c for c in choices if c.command["type"] == "no_rebound"] or [
        c for c in choices if c.command["type"] not in ("end_turn", "timeout", "fundamental")] or choices
    return dict(rng.choice(kept).command)


def button_command(state: Any, rng: random.Random) -> dict[str, Any]:
    """Between games, exactly one of the prompt's buttons (what the kiosk can tap): the first open
    checklist item; Susan Peg when she may join (into the seven, then starting); a random ready-made
    next game (Home attacks first)."""
    choices = list(GAME.prompt(state).choices)
    if state.phase == "next_game":
        susan = [c for c in choices if c.command["type"] == "susan_peg"]
        if susan:
            return dict(susan[0].command)
        return dict(rng.choice(_home_first(state)).command)
    return dict(choices[0].command)


def play_series(opts: Mapping[str, Any], seed: int, until_games: int | None = None,
                limit: int = 60000, brisk: bool = False) -> tuple[Any, list[dict[str, Any]]]:
    """Play the series (or its first ``until_games`` games) with random legal commands; ``brisk``:
    short turns in the games and only the prompt's buttons between them (the recorded series)."""
    rng = random.Random(seed)
    state = GAME.setup(opts)
    commands: list[dict[str, Any]] = []
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return state, commands
        if until_games is not None and len(state.results) >= until_games and state.phase == "next_game":
            return state, commands
        if brisk:
            command = brisk_command(state.game, rng) if state.phase == "game" else button_command(state, rng)
        else:
            command = series_command(state, rng)
        try:
            state, _ = GAME.run(state, command)
        except CompanionError as exc:
            raise AssertionError(f"offered command refused: {command}: {exc}") from exc
        commands.append(command)
    raise AssertionError("the series did not end")
