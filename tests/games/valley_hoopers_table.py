"""A Valley Hoopers table for tests: fourteen hoopers with every stat filled in, and a driver.

TEST DATA ONLY. The rulebook reveals a handful of stats through its worked examples (kept here
exactly: Muy Schillato 3PS 70, Never Tired V 55, Hector Prot LUP 70, Edd Trapp D3 30 / V 55 /
LUP 65, May Friend D3 15, Chus Kinder 2PS 55, Dime N'Shons D2 30, Serge Ceptor 3PS 60). Every other
number below is made up so a whole game can be played; none of it ships in a roster.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.errors import CompanionError
from companion.games.valley_hoopers import GAME

ALL = ["PG", "SG", "SF", "PF", "C"]


def card(
    name: str,
    first: str,
    skill: str | None,
    energy: int,
    flag: list[str],
    second: str | None = None,
    stellar: bool = False,
    **stats: int,
) -> dict[str, Any]:
    base = {"2PS": 50, "3PS": 40, "LUP": 55, "D2": 20, "D3": 20, "DLU": 20, "O": 45, "V": 45}
    base.update({k.replace("_", "").replace("P2S", "2PS").replace("P3S", "3PS"): v for k, v in stats.items()})
    return {
        "name": name,
        "first_position": first,
        "second_position": second,
        "stellar": stellar,
        "energy": energy,
        "defense_positions": flag,
        "skill": skill,
        "stats": base,
    }


def lucy_hoopers() -> list[dict[str, Any]]:
    """Unleashed, test data apart from the rulebook's numbers (see the module docstring)."""
    return [
        card("Serge Ceptor", "PG", "free_intercept", 5, ["PG", "SG"], "SG", **{"P3S": 60}),
        card("Muy Schillato", "SG", "reuses_lv1_chip", 5, ["PG", "SG", "SF"], stellar=True, **{"P3S": 70}),
        card("Dime N'Shons", "SF", "rebound_counters", 5, ["SG", "SF", "PF"], D2=30),
        card("Wally Block", "PF", "free_screen", 5, ["SF", "PF", "C"]),
        card("Never Tired", "C", "extra_recovery", 4, ["PF", "C"], V=55),
        card("Reley Baton", "C", "free_substitution", 5, ["PF", "C"], "PF"),
        card("Joy Kill", "SF", "failed_counter_malus", 5, ["SG", "SF"], "SG"),
    ]


def karl_hoopers() -> list[dict[str, Any]]:
    """Keepers, test data apart from the rulebook's numbers (see the module docstring)."""
    return [
        card("May Friend", "PG", "donates_energy", 5, ["PG", "SG"], D3=15),
        card("Chus Kinder", "SG", "free_attack_after_pass", 5, ["SG", "SF"], **{"P2S": 55}),
        card("Edd Trapp", "SF", "dlu_vs_3ps", 5, ["SG", "SF", "PF"], D3=30, V=55, LUP=65, DLU=25),
        card("Hector Prot", "PF", "onfire_on_defense", 5, ["SG", "PF", "C"], LUP=70),
        card("Perry Hel", "C", "helps_defense", 5, ["PF", "C"], "PF", D2=25),
        card("Linda Siempre", "C", "whistle_is_no_foul", 5, ["PF", "C"], D2=25),
        card("Manny Gentle", "SF", "no_counter_foul_die", 5, ["SF", "PF"], "PF"),
    ]


LUCY_LINEUP = {
    "PG": "Serge Ceptor",
    "SG": "Muy Schillato",
    "SF": "Dime N'Shons",
    "PF": "Wally Block",
    "C": "Never Tired",
}
KARL_LINEUP = {
    "PG": "May Friend",
    "SG": "Chus Kinder",
    "SF": "Edd Trapp",
    "PF": "Hector Prot",
    "C": "Perry Hel",
}


def options(
    variant: str = "classic",
    first_attacker: int = 0,
    lucy_lineup: Mapping[str, str] | None = None,
    karl_lineup: Mapping[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Setup options for Lucy (Unleashed) against Karl (Keepers), as in the rulebook's examples."""
    return {
        "variant": variant,
        "foul_die_blanks": 3,
        "first_attacker": first_attacker,
        **extra,
        "sides": [
            {
                "name": "Lucy",
                "tribe": "unleashed",
                "hoopers": lucy_hoopers(),
                "lineup": dict(lucy_lineup or LUCY_LINEUP),
            },
            {
                "name": "Karl",
                "tribe": "keepers",
                "hoopers": karl_hoopers(),
                "lineup": dict(karl_lineup or KARL_LINEUP),
            },
        ],
    }


class Table:
    """Plays commands through decide/apply, as the session does, and keeps the event log."""

    def __init__(self, opts: Mapping[str, Any] | None = None) -> None:
        self.start = GAME.setup(opts or options())
        self.state = self.start
        self.events: list[dict[str, Any]] = []

    def do(self, command_type: str, **fields: Any) -> Table:
        events = GAME.decide(self.state, {"type": command_type, **fields})
        for event in events:
            self.state = GAME.apply(self.state, event)
        self.events += events
        return self

    def roll(self, face: int | str, die: str | None = None) -> Table:
        return self.do("roll", face=face, **({"die": die} if die else {}))

    def hooper(self, name: str) -> Any:
        return self.state.sides[self.state.owner(name)].hooper(name)

    @property
    def prompt(self) -> Any:
        return GAME.prompt(self.state)


FOUL_FACES = ["whistle", "whistle2", "whistle3", "charge", "jumpball", "blank", "blank", "blank"]


def next_command(state: Any, rng: random.Random) -> dict[str, Any]:
    """A legal command: a random ready-made choice, or a random face of the die the prompt expects."""
    prompt = GAME.prompt(state)
    if prompt.die == "d8foul":
        return {"type": "roll", "die": "d8foul", "face": rng.choice(FOUL_FACES)}
    if prompt.die == "d20x5" and (not prompt.choices or prompt.commands[0] == "roll"):
        return {"type": "roll", "die": "d20x5", "face": rng.choice(range(5, 101, 5))}
    choices = list(prompt.choices)
    # Attacks first keep the game moving; giving up is the last resort.
    preferred = [c for c in choices if c.command["type"] not in ("end_turn", "timeout")] or choices
    if prompt.die == "d20x5" and rng.random() < 0.5:
        return {"type": "roll", "die": "d20x5", "face": rng.choice(range(5, 101, 5))}
    if not preferred:
        raise AssertionError(f"no legal choice offered: {prompt.text}")
    return dict(rng.choice(preferred).command)


def play_out(opts: Mapping[str, Any], seed: int, limit: int = 6000) -> tuple[Any, list[dict[str, Any]]]:
    """Play a whole game from ``opts`` with random legal commands; the final state and the commands."""
    rng = random.Random(seed)
    state = GAME.setup(opts)
    commands: list[dict[str, Any]] = []
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return state, commands
        command = next_command(state, rng)
        try:
            state, _ = GAME.run(state, command)
        except CompanionError as exc:
            raise AssertionError(f"offered command refused: {command}: {exc}") from exc
        commands.append(command)
    raise AssertionError("the game did not end")
