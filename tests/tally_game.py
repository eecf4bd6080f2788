"""A deliberately tiny game for testing the engine, the store and the service without any rulebook.

Two sides add points; a side may not score more than 3 at once; first to 21 wins. It follows the
same declaration as the real games, so whatever works here works for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import CommandError, RuleError
from companion.game import JSON, Choice, CommandSpec, Game, Outcome, Prompt, ScoreboardView, SideView


@dataclass(frozen=True)
class TallyState:
    names: tuple[str, str]
    score: tuple[int, int]
    turn: int = 0


def setup(options: Mapping[str, Any]) -> TallyState:
    names = options.get("names", ["Home", "Away"])
    if not (isinstance(names, list) and len(names) == 2):
        raise RuleError("tally needs exactly two side names")
    return TallyState(names=(str(names[0]), str(names[1])), score=(0, 0))


def decide(state: TallyState, command: Mapping[str, Any]) -> list[JSON]:
    if command.get("type") != "score":
        raise CommandError(f"tally knows the command score, not {command.get('type')!r}")
    side, points = command.get("side"), command.get("points")
    if side not in (0, 1) or not isinstance(points, int):
        raise CommandError("score needs side (0 or 1) and points (a whole number)")
    if not 1 <= points <= 3:
        raise RuleError(f"a basket is worth 1 to 3 points, not {points}")
    return [{"type": "scored", "side": side, "points": points}]


def apply(state: TallyState, event: JSON) -> TallyState:
    score = list(state.score)
    score[event["side"]] += event["points"]
    return replace(state, score=(score[0], score[1]), turn=state.turn + 1)


def outcome(state: TallyState) -> Outcome | None:
    for side in (0, 1):
        if state.score[side] >= 21:
            return Outcome(side, f"{state.names[side]} reached 21")
    return None


def scoreboard(state: TallyState) -> ScoreboardView:
    return ScoreboardView(game="tally", sides=tuple(SideView(n, s) for n, s in zip(state.names, state.score,
                                                                                  strict=True)),
                          period="P1", clock=str(state.turn), final=outcome(state) is not None)


def prompt(state: TallyState) -> Prompt:
    return Prompt(side=None, text="score", commands=("score",),
                  choices=tuple(Choice(f"{n} +{p}", {"type": "score", "side": i, "points": p})
                                for i, n in enumerate(state.names) for p in (1, 2, 3)))


def view(state: TallyState) -> JSON:
    return {"score": list(state.score), "turn": state.turn,
            "sides": [{"name": n, "hoopers": [{"name": f"{n} captain", "points": s}]}
                      for n, s in zip(state.names, state.score, strict=True)]}


GAME = Game(name="tally", title="Tally (test game)", aliases=(), setup=setup, decide=decide, apply=apply,
            outcome=outcome, scoreboard=scoreboard, prompt=prompt, view=view,
            commands=(CommandSpec("score", "add points", {"type": "score", "side": 0, "points": 2}),))


def find(name: str) -> Game:
    if name == "tally":
        return GAME
    from companion.games import find_game

    return find_game(name)
