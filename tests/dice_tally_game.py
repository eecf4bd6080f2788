"""A tiny test game that always waits for the d20: every roll adds its face to the total.

The dice-tray crash tests need a game that takes roll after roll from the tray forever, so that
every roll the tray sends is either recorded or lost, never refused by a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.dice import D20
from companion.errors import CommandError
from companion.game import JSON, CommandSpec, Game, Outcome, Prompt, RollInfo, ScoreboardView, SideView

DIE = "d20"


@dataclass(frozen=True)
class DiceTallyState:
    total: int = 0
    rolls: int = 0


def setup(options: Mapping[str, Any]) -> DiceTallyState:
    return DiceTallyState()


def decide(state: DiceTallyState, command: Mapping[str, Any]) -> list[JSON]:
    face = command.get("face")
    if command.get("type") != "roll" or command.get("die", DIE) != DIE:
        raise CommandError(f"dice tally takes d20 rolls only, not {dict(command)!r}")
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 20:
        raise CommandError(f"a d20 shows 1 to 20, not {face!r}")
    return [{"type": "rolled", "face": face}]


def apply(state: DiceTallyState, event: JSON) -> DiceTallyState:
    return replace(state, total=state.total + event["face"], rolls=state.rolls + 1)


def outcome(state: DiceTallyState) -> Outcome | None:
    return None


def scoreboard(state: DiceTallyState) -> ScoreboardView:
    sides = (SideView("Total", state.total), SideView("Rolls", state.rolls))
    return ScoreboardView(game="dice-tally", sides=sides, period="P1", clock=str(state.rolls), final=False)


def prompt(state: DiceTallyState) -> Prompt:
    return Prompt(side=None, text="roll the d20", commands=("roll",), roll=RollInfo(D20))


def view(state: DiceTallyState) -> JSON:
    return {"total": state.total, "rolls": state.rolls}


GAME = Game(name="dice-tally", title="Dice tally (test game)", aliases=(), setup=setup, decide=decide,
            apply=apply, outcome=outcome, scoreboard=scoreboard, prompt=prompt, view=view,
            commands=(CommandSpec("roll", "add a d20 roll", {"type": "roll", "die": DIE, "face": 7}),),
            dice=(D20,))


def find(name: str) -> Game:
    if name == GAME.name:
        return GAME
    from companion.games import find_game

    return find_game(name)
