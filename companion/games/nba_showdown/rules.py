"""``decide`` and ``apply``: one resolver, so a refused command and a replayed event can't disagree.

An event is the accepted command in canonical form (the acting side filled in, the face parsed),
plus what the log shows: points per side, a sentence, the quarter and the roll number. ``play``
keeps the state its check resolved (the engine makes it current: one resolve per command).
``allowed`` tells the prompt which candidates the rules accept from each kind's checks alone, without
resolving them (``placements``: those of one state, what they read of it counted once); a
candidate of a kind without checks is tried (``trial``), and a picked one is then not resolved again.

>>> from companion.games.nba_showdown.setup_options import example_options, setup
>>> decide(setup(example_options()), {"type": "roll", "face": 21})
Traceback (most recent call last):
...
companion.errors.RuleError: the d20 shows 1 to 20, not 21
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.dice import D20
from companion.errors import CompanionError, RuleError
from companion.frozen import replace
from companion.games.nba_showdown import quarters, rolls
from companion.games.nba_showdown.commands import normalize
from companion.games.nba_showdown.model import State
from companion.trials import Trials


def _side(state: State, event: Mapping[str, Any]) -> int:
    return int(event.get("side", state.acting))


def _placing(state: State, event: Mapping[str, Any]) -> tuple[Any, ...]:
    return _side(state, event), event["position"], event["player"]


def _deciding(state: State, event: Mapping[str, Any]) -> tuple[Any, ...]:
    return (_side(state, event),)


def _doubling(state: State, event: Mapping[str, Any]) -> tuple[Any, ...]:
    return _side(state, event), event["helped"], event["helper"]


def _shooting(state: State, event: Mapping[str, Any]) -> tuple[Any, ...]:
    position = event.get("position")
    if position is None:
        position = state.teams[state.acting].position_of(event["player"])
        if position is None:
            raise RuleError(f"{event['player']} is not on the playmat for {state.teams[state.acting].name}")
    return state.acting, position, event["stat"]


def _the_event(state: State, event: Mapping[str, Any]) -> tuple[Any, ...]:
    return (event,)


def _rolling(state: State, event: Mapping[str, Any]) -> tuple[Any, ...]:
    if str(event.get("die", "d20")).lower() != D20.name:
        raise RuleError(f"NBA Showdown rolls the d20, not the {event['die']}")
    return (int(D20.parse_face(event["face"])),)


def _counting(state: State, event: Mapping[str, Any]) -> tuple[Any, ...]:
    return (event["count"],)


Reader = Callable[[State, Mapping[str, Any]], tuple[Any, ...]]

# Each kind: what it reads of the event, what it does with it, and every check it makes before it
# builds the state after the event (the handler calls the same function first, and nothing after it
# refuses), so the prompt asks its candidates these instead of resolving each one; None: tried.
KINDS: dict[str, tuple[Reader, Callable[..., State], Callable[..., object] | None]] = {
    "place": (_placing, quarters.place, quarters.placed_lineup),
    "keep": (_deciding, quarters.keep, quarters.kept_lineup),
    "double_team": (_doubling, quarters.double_team, quarters.check_double_team),
    "no_double_team": (_deciding, quarters.no_double_team, quarters.check_no_double_team),
    "shoot": (_shooting, rolls.choose, rolls.check_choice),
    "play_card": (_the_event, rolls.play_card, None),
    "roll": (_rolling, rolls.roll_die, None),
    "assist": (_counting, rolls.spend_assists, rolls.check_assists),
}


def _check_any(state: State, event: Mapping[str, Any]) -> None:
    """What ``resolve`` refuses whatever the kind: a finished game, a rule switched off, the wrong side."""
    if state.stage == "over":
        raise RuleError(f"the game is over: {state.message}")
    kind = event["type"]
    if kind in ("double_team", "no_double_team") and not state.rules.double_team:
        raise RuleError("double-teaming is switched off in this game")
    if kind in ("place", "keep") and not state.rules.substitutions:
        raise RuleError("substitutions are switched off in this game")
    if kind == "assist" and not state.rules.assists:
        raise RuleError("assists are switched off in this game")
    if kind in ("shoot", "assist") and event.get("side", state.acting) != state.acting:
        raise RuleError(f"it is {state.teams[state.acting].name}'s scoring roll")


def resolve(state: State, event: Mapping[str, Any]) -> State:
    """The state after ``event``; raises ``RuleError`` if the rules refuse it."""
    event = dict(event)
    _check_any(state, event)
    read, handle, _ = KINDS[event["type"]]
    arguments = read(state, event)
    # The buzzer shows until the next command (every handler builds a new state from this one).
    return handle(replace(state, period_over=False) if state.period_over else state, *arguments)


trial: Trials[State] = Trials(resolve)


def allowed(state: State, event: Mapping[str, Any]) -> bool:
    """Whether ``resolve`` accepts ``event`` now: its kind's checks (``KINDS``) alone when it has
    them (a prompt's candidates, without building the state after each), else a ``trial``."""
    try:
        _check_any(state, event)
        read, _, check = KINDS[event["type"]]
        if check is None:
            trial(state, event)
        else:
            check(state, *read(state, event))
    except CompanionError:
        return False
    return True


def placements(state: State, side: int) -> quarters.Placements | None:
    """``place``'s checks for ``side`` on ``state``, what they read of the state counted once (the
    placement prompt asks them of every placement it offers); None when the rules refuse any
    placement of the side now (``resolve``'s own checks of the kind, or ``place``'s of the state)."""
    try:
        _check_any(state, {"type": "place", "side": side})
        return quarters.placements_of(state, side)
    except CompanionError:
        return None


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
