"""``decide`` and ``apply``: one resolver, so a refused command and a replayed event can't disagree.

An event is the accepted command in canonical form (the acting side filled in, the face parsed),
plus what the log shows: points per side, a sentence, the quarter and the roll number. ``play``
keeps the state its check resolved (the engine makes it current: one resolve per command).
``allowed`` tells the prompt which candidates the rules accept from each kind's checks alone, without
resolving them; a candidate of a kind without checks is tried (``trial``), and a picked one is then
not resolved again.

>>> from companion.games.nba_showdown.setup_options import example_options, setup
>>> decide(setup(example_options()), {"type": "roll", "face": 21})
Traceback (most recent call last):
...
companion.errors.RuleError: the d20 shows 1 to 20, not 21
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.dice import D20
from companion.errors import CompanionError, RuleError
from companion.frozen import replace
from companion.games.nba_showdown import quarters, rolls
from companion.games.nba_showdown.commands import normalize
from companion.games.nba_showdown.model import State
from companion.trials import Trials


def _side(state: State, event: dict[str, Any]) -> int:
    return int(event.get("side", state.acting))


def _shot_position(state: State, event: Mapping[str, Any]) -> str:
    position = event.get("position")
    if position is None:
        position = state.team(state.acting).position_of(event["player"])
        if position is None:
            raise RuleError(f"{event['player']} is not on the playmat for {state.team(state.acting).name}")
    return str(position)


def _shoot(state: State, event: dict[str, Any]) -> State:
    return rolls.choose(state, state.acting, _shot_position(state, event), event["stat"])


def _check_shoot(state: State, event: Mapping[str, Any]) -> None:
    event["stat"]  # noqa: B018 - read as _shoot reads it: a shot without one fails the same way
    rolls.check_choice(state, state.acting, _shot_position(state, event))


def _roll(state: State, event: dict[str, Any]) -> State:
    if str(event.get("die", "d20")).lower() != D20.name:
        raise RuleError(f"NBA Showdown rolls the d20, not the {event['die']}")
    return rolls.roll_die(state, int(D20.parse_face(event["face"])))


HANDLERS = {
    "place": lambda s, e: quarters.place(s, _side(s, e), e["position"], e["player"]),
    "keep": lambda s, e: quarters.keep(s, _side(s, e)),
    "double_team": lambda s, e: quarters.double_team(s, _side(s, e), e["helped"], e["helper"]),
    "no_double_team": lambda s, e: quarters.no_double_team(s, _side(s, e)),
    "shoot": _shoot,
    "play_card": rolls.play_card,
    "roll": _roll,
    "assist": lambda s, e: rolls.spend_assists(s, e["count"]),
}


# For each kind, every check its handler makes before it builds the state after the event (the
# handler calls the same function first, and nothing after it refuses): the prompt asks these of its
# candidates instead of resolving each one.
CHECKS = {
    "place": lambda s, e: quarters.placed_lineup(s, _side(s, e), e["position"], e["player"]),
    "keep": lambda s, e: quarters.kept_lineup(s, _side(s, e)),
    "double_team": lambda s, e: quarters.check_double_team(s, _side(s, e), e["helped"], e["helper"]),
    "no_double_team": lambda s, e: quarters.check_no_double_team(s, _side(s, e)),
    "shoot": _check_shoot,
    "assist": lambda s, e: rolls.check_assists(s, e["count"]),
}


def _check_any(state: State, event: Mapping[str, Any]) -> None:
    """What ``resolve`` refuses whatever the kind: a finished game, a rule switched off, the wrong side."""
    if state.final:
        raise RuleError(f"the game is over: {state.message}")
    kind = event["type"]
    if kind in ("double_team", "no_double_team") and not state.rules.double_team:
        raise RuleError("double-teaming is switched off in this game")
    if kind in ("place", "keep") and not state.rules.substitutions:
        raise RuleError("substitutions are switched off in this game")
    if kind == "assist" and not state.rules.assists:
        raise RuleError("assists are switched off in this game")
    if kind in ("shoot", "assist") and event.get("side", state.acting) != state.acting:
        raise RuleError(f"it is {state.team(state.acting).name}'s scoring roll")


def resolve(state: State, event: Mapping[str, Any]) -> State:
    """The state after ``event``; raises ``RuleError`` if the rules refuse it."""
    event = dict(event)
    _check_any(state, event)
    # The buzzer shows until the next command (every handler builds a new state from this one).
    return HANDLERS[event["type"]](replace(state, period_over=False) if state.period_over else state, event)


trial: Trials[State] = Trials(resolve)


def allowed(state: State, event: Mapping[str, Any]) -> bool:
    """Whether ``resolve`` accepts ``event`` now: its kind's ``CHECKS`` alone when it has them (a
    prompt's candidates, without building the state after each), else a ``trial``."""
    try:
        _check_any(state, event)
        check = CHECKS.get(event["type"])
        if check is None:
            trial(state, event)
        else:
            check(state, event)
    except CompanionError:
        return False
    return True


def play(state: State, command: Mapping[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """Check a command against the state: the state after it and its events, or
    ``RuleError``/``CommandError``. The state is the one ``apply`` gives for those events."""
    event = normalize(command)
    if event["type"] in ("place", "keep", "double_team", "no_double_team") and "side" not in event:
        event["side"] = state.acting
    if event["type"] == "roll":
        event["face"] = D20.parse_face(event["face"])
    after = trial(state, event)
    event["points"] = [after.score[0] - state.score[0], after.score[1] - state.score[1]]
    event["text"] = after.message
    event["quarter"] = state.quarter
    event["roll_number"] = state.rolls_done + 1
    return after, [event]


def decide(state: State, command: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Check a command against the state; the events to apply, or ``RuleError``/``CommandError``."""
    return play(state, command)[1]


def apply(state: State, event: Mapping[str, Any]) -> State:
    """The state after an accepted event (pure: the old state is untouched)."""
    return resolve(state, event)
