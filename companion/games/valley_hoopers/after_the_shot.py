"""After the shot: free throws, and the offensive rebound in F3 with its reward."""

from __future__ import annotations

from typing import Any

from companion.errors import RuleError
from companion.frozen import replace
from companion.game import Target
from companion.games.valley_hoopers import splits
from companion.games.valley_hoopers.ball import BallState
from companion.games.valley_hoopers.counters import BONUS_FROM_TEAM_FOUL
from companion.games.valley_hoopers.fouls import foul_outcome
from companion.games.valley_hoopers.hooper_ops import (
    add_red,
    check_can_act,
    queue,
    score,
    spend_energy,
)
from companion.games.valley_hoopers.model import (
    Decision,
    Hooper,
    Slot,
    State,
    new_pending,
    other,
)
from companion.games.valley_hoopers.shots import ready_to_roll
from companion.games.valley_hoopers.targets import free_throw_target, succeeds
from companion.games.valley_hoopers.turn_track import end_attacking_turn, start_turn


def resolve_free_throw(state: State, face: int) -> State:
    """One free throw: 2PS + 15 (Away in The Series: 2PS), one point, never defended, no Onfire step."""
    pending = state.pending
    side = pending.side
    hooper = state.side(side).hooper(pending.hooper or "")
    target = free_throw_target(hooper, basic=state.away(side))
    state = splits.free_throw(state, side, hooper.name, succeeds(face, target))
    if succeeds(face, target):
        state = score(state, side, hooper.name, 1)
        state = replace(state, message=f"{hooper.name} makes the free throw ({face} <= {target.value})")
    else:
        state = replace(state, message=f"{hooper.name} misses the free throw ({face} > {target.value})")
    left = pending.free_throws - 1
    if left > 0:
        return replace(state, pending=replace(pending, free_throws=left))
    if pending.after == "continue":
        return replace(state, pending=new_pending(kind="play", side=side))
    if pending.after == "new_turn":
        # The flagrant foul's new attacking turn is still part of the tribe power: the token stays.
        turn = replace(
            state.turn,
            slots=(),
            lost_slots=("F1",),
            bonuses=(),
            ball=BallState(),
            spent=(),
            second_use_pending=False,
        )
        return replace(state, turn=turn, pending=new_pending(kind="play", side=side))
    return end_attacking_turn(state, began_after="free_throws")


def check_rebound(state: State, event: dict[str, Any]) -> Hooper:
    """Every refusal of an offensive rebound card that comes before it changes the table (all of them,
    for a card the rebounder pays for): the rebounder."""
    if state.pending.kind != "rebound_window":
        raise RuleError("an offensive rebound is played in F3, after a failed attack")
    hooper = state.side(state.pending.side).hooper(event["hooper"])
    check_can_act(hooper)
    hooper.require_stat("V")
    return hooper


def play_rebound(state: State, event: dict[str, Any]) -> State:
    """An offensive rebound in F3 after a failed attack, by any hooper on the court (V stat)."""
    hooper = check_rebound(state, event)
    pending = state.pending
    side = pending.side
    state = spend_energy(state, side, hooper.name, payer=event.get("energy_from"))
    turn = replace(state.turn, slots=(*state.turn.slots, Slot("F3", "rebound", hooper.name)))
    return replace(
        state,
        turn=turn,
        pending=replace(pending, kind="rebound_check", other=hooper.name, stat="V"),
        message=f"{hooper.name} goes for the offensive rebound",
    )


def check_no_rebound(state: State) -> None:
    """The refusal of "no rebound": there is no rebound window open."""
    if state.pending.kind != "rebound_window":
        raise RuleError("there is no rebound to give up now")


def no_rebound(state: State) -> State:
    check_no_rebound(state)
    return _ball_to_the_defense(replace(state, message="defensive rebound"))


def _ball_to_the_defense(state: State) -> State:
    """The defensive rebound: the opponent's turn starts, won back by the defender if there was one."""
    defender = state.turn.last_defender if state.pending.defended else None
    state = end_attacking_turn(state, began_after="defended_miss" if state.pending.defended else "miss")
    return replace(state, turn=replace(state.turn, retriever=defender))


def resolve_rebound_check(state: State, face: str) -> State:
    """The rebounder's foul die: only the whistle is a foul; a jump ball means O instead of V."""
    pending = state.pending
    side = pending.side
    outcome = foul_outcome("rebound", face)
    if outcome.foul:
        return rebound_foul(state)
    rebounder = state.side(side).hooper(pending.other or "")
    if rebounder.has_skill("rebound_layup"):
        return ready_to_roll(
            state,
            new_pending(kind="attack_roll", side=side, action="rebound_layup", hooper=rebounder.name,
                        points=2),
        )
    stat = "O" if outcome.jump_ball else "V"
    rebounder.require_stat(stat)
    message = (
        f"jump ball: {rebounder.name}'s rebound uses O"
        if outcome.jump_ball
        else f"no foul on {rebounder.name}'s rebound"
    )
    return replace(state, pending=replace(pending, kind="rebound_roll", stat=stat), message=message)


def rebound_foul(state: State) -> State:
    """The rebounder fouls: red cube, the opponent picks the white cube, the attacking turn ends.

    The offensive rebound is a counter action, so from the third team foul of the period the
    opponent first shoots two free throws ("even when you will commit a foul by playing a counter
    action"; docs/games/valley-hoopers.md, reading 2): the hooper picked for the white cube is
    the fouled one and shoots them.
    """
    pending = state.pending
    side = pending.side
    bonus_on = state.team_fouls[side] + 1 >= BONUS_FROM_TEAM_FOUL  # this foul is the 3rd or later
    state = add_red(state, side, pending.other or "")
    state = queue(state, Decision(kind="white_cube", side=other(side)))
    if bonus_on:
        return replace(
            state,
            pending=new_pending(kind="free_throw", side=other(side), hooper=None, free_throws=2, after="end"),
            message=f"offensive foul by {pending.other} on the rebound: two free throws for "
            f"{state.side(other(side)).name}",
        )
    state = replace(state, message=f"offensive foul by {pending.other} on the rebound")
    return end_attacking_turn(state, began_after="foul")


def rebound_target(state: State) -> Target:
    pending = state.pending
    hooper = state.side(pending.side).hooper(pending.other or "")
    return Target(f"{pending.stat} {hooper.name}", hooper.require_stat(pending.stat or "V"))


def resolve_rebound_roll(state: State, face: int) -> State:
    pending = state.pending
    target = rebound_target(state)
    if succeeds(face, target):
        return replace(
            state,
            pending=replace(pending, kind="rebound_reward"),
            message=f"{pending.other} wins the offensive rebound ({face} <= {target.value})",
        )
    return _ball_to_the_defense(
        replace(state, message=f"{pending.other} loses the rebound ({face} > {target.value})")
    )


def choose_rebound_reward(state: State, event: dict[str, Any]) -> State:
    """Draw two cards, or +15 on the rebounder's next attack: a new attacking turn either way."""
    pending = state.pending
    if pending.kind != "rebound_reward":
        raise RuleError("there is no offensive rebound reward to choose now")
    side = pending.side
    state = start_turn(state, side, "rebound")
    bonus_for = pending.other if event["reward"] == "bonus15" else None
    return replace(
        state,
        message=(
            f"rebound reward: +15 if {pending.other} attacks next"
            if bonus_for
            else "rebound reward: draw 2 cards"
        )
        + ", a new attacking turn",
        turn=replace(state.turn, rebound_bonus_for=bonus_for),
        reminders=("draw 2 cards",) if event["reward"] == "draw2" else (),
    )
