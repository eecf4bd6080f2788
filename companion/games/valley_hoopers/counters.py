"""Counters: a steal against a dribble, an intercept against a pass, their foul die and d20.

A successful counter starts the counterer's attacking turn at once; a failed one lets the
attacker go on with the bonus.
"""

from __future__ import annotations

from typing import Any

from companion.errors import RuleError
from companion.frozen import replace
from companion.game import Target, Term
from companion.games.valley_hoopers.ball import BallState
from companion.games.valley_hoopers.fouls import block_outcome, foul_outcome
from companion.games.valley_hoopers.fundamentals import (
    chip_terms,
    grant_fundamental,
    spend_block_chip,
    spend_no_way_chip,
)
from companion.games.valley_hoopers.hooper_ops import (
    add_red,
    add_white,
    check_can_act,
    move_onfire,
    spend_energy,
)
from companion.games.valley_hoopers.model import (
    Hooper,
    State,
    new_pending,
    other,
)
from companion.games.valley_hoopers.targets import succeeds
from companion.games.valley_hoopers.turn_track import end_attacking_turn


def _counter_stat(kind: str, position: str | None) -> str:
    if kind == "intercept":
        return "O"
    return {"PG": "O", "SG": "O", "PF": "V", "C": "V"}.get(position or "", "worse")


def check_counter(state: State, event: dict[str, Any]) -> tuple[Hooper, str, str, Hooper]:
    """The refusals of a counter that come before it changes the table (all of them, for a card without
    a block, a chip or another payer): the counterer, steal or intercept, the stat and the hooper
    countered."""
    pending = state.pending
    if pending.kind != "counter_window":
        raise RuleError("counters answer an opponent's dribble or pass: there is none to counter now")
    side = pending.side
    kind = "steal" if pending.action == "dribble" else "intercept"
    hooper = state.side(side).hooper(event["hooper"])
    check_can_act(hooper)
    card = event.get("card")
    dime = card == "rebound" and hooper.has_skill("rebound_counters")
    if card not in (None, kind) and not dime:
        raise RuleError(
            f"a {pending.action} is countered with a {kind}, not a {card}"
            + (" (only Dime N'Shons may use a rebound card)" if card == "rebound" else "")
        )
    target_hooper = state.side(other(side)).hooper(pending.hooper or "")
    flag = hooper.require_flag()
    if target_hooper.court not in flag:
        raise RuleError(
            f"{hooper.name}'s defensive flag ({'/'.join(flag)}) does not hold "
            f"{target_hooper.name}'s position {target_hooper.court}"
        )
    stat = _counter_stat(kind, target_hooper.court)
    for needed in ("O", "V") if stat == "worse" else (stat,):
        hooper.require_stat(needed)
    return hooper, kind, stat, target_hooper


def play_counter(state: State, event: dict[str, Any]) -> State:
    """A steal against a dribble, an intercept against a pass, by a hooper whose flag holds the position."""
    hooper, kind, stat, target_hooper = check_counter(state, event)
    pending = state.pending
    side = pending.side
    block = event.get("block")
    # LV.2 chips are used "without playing any cards and without spending any energy".
    free = (kind == "intercept" and hooper.has_skill("free_intercept")) or block == "no_way"
    state = spend_energy(state, side, hooper.name, free=free, payer=event.get("energy_from"))
    state, chip_bonus, _ = chip_terms(state, side, hooper, event.get("chip"))
    kind_next = "counter_roll" if hooper.has_skill("no_counter_foul_die") else "counter_check"
    if block == "chip":
        # A block always rolls the foul die: its faces decide the outcome, there is no d20.
        state, block = spend_block_chip(state, side, hooper)
        kind_next = "counter_check"
    elif block == "no_way":  # "it could be spend to substitute any defense or counter"
        state = spend_no_way_chip(state, side, hooper)
        kind_next = "counter_check"
    return replace(
        state,
        pending=replace(
            pending,
            kind=kind_next,
            other=hooper.name,
            stat=stat,
            chip="boost" if chip_bonus else None,
            block=block,
        ),
        message=f"{hooper.name} tries {'an' if kind == 'intercept' else 'a'} {kind} on {target_hooper.name}",
    )


def counter_target(state: State) -> Target:
    pending = state.pending
    hooper = state.side(pending.side).hooper(pending.other or "")
    return counter_target_of(hooper, pending.stat, pending.chip == "boost")


def counter_target_of(hooper: Hooper, stat: str | None, boosted: bool = False) -> Target:
    """The counterer's d20 target: the stat (the worse or better of O and V when it says so), +10
    with a boost chip. A prompt shows it for a plain counter without playing it (the energy the
    counter spends changes no stat)."""
    o_stat, v_stat = hooper.stat("O"), hooper.stat("V")
    if stat == "worse":
        value, label = (o_stat, "O") if (o_stat or 0) <= (v_stat or 0) else (v_stat, "V")
    elif stat == "better":
        value, label = (o_stat, "O") if (o_stat or 0) >= (v_stat or 0) else (v_stat, "V")
    else:
        label = stat or "O"
        value = hooper.require_stat(label)
    bonuses = (Term(f"Onfire chip {hooper.name}", 10),) if boosted else ()
    return Target(f"{label} {hooper.name}", int(value or 0), bonuses)


def resolve_counter_check(state: State, face: str) -> State:
    """The counterer's foul die: a foul costs the attacker the slot and its bonus; jump ball swaps O/V."""
    pending = state.pending
    side = pending.side
    kind = "steal" if pending.action == "dribble" else "intercept"
    if pending.block:
        return _resolve_counter_block(state, face)
    outcome = foul_outcome(kind, face)
    if outcome.foul:
        if pending.second_use and state.turn.tribe_power and face == "whistle":
            return flagrant_foul(state, pending.other or "", pending.hooper or "")
        return counter_foul(state)
    stat = pending.stat
    message = f"no foul on {pending.other}'s {kind}"
    if outcome.jump_ball:
        stat = {"O": "V", "V": "O", "worse": "better"}[stat or "O"]
        state.side(side).hooper(pending.other or "").require_stat(stat if stat in ("O", "V") else "O")
        message = f"jump ball: {pending.other}'s {kind} uses the " + (
            f"{stat} stat" if stat in ("O", "V") else "better of O and V"
        )
    return replace(state, pending=replace(pending, kind="counter_roll", stat=stat), message=message)


# "After having collected three red cubes in this space, your opponent will get two free throws":
# the foul that puts the third cube there already gives them (docs/games/valley-hoopers.md, reading 2).
BONUS_FROM_TEAM_FOUL = 3


def counter_foul(state: State) -> State:
    """The counterer fouls: red and white cubes, the slot and its bonus lost, free throws in the bonus."""
    pending = state.pending
    side = pending.side
    attacker = other(side)
    bonus_on = state.team_fouls[side] + 1 >= BONUS_FROM_TEAM_FOUL  # this foul is the 3rd or later
    state = add_red(state, side, pending.other or "")
    state = add_white(state, attacker, pending.hooper or "")
    slot = state.turn.slots[-1].slot
    turn = replace(
        state.turn,
        slots=state.turn.slots[:-1],
        lost_slots=(*state.turn.lost_slots, slot),
        ball=BallState(),
    )
    state = replace(state, turn=turn, message=f"{pending.other} fouls {pending.hooper}: {slot} is lost")
    if bonus_on:
        return replace(
            state,
            pending=new_pending(
                kind="free_throw", side=attacker, hooper=pending.hooper, free_throws=2, after="continue"
            ),
        )
    return replace(state, pending=new_pending(kind="play", side=attacker))


def _resolve_counter_block(state: State, face: str) -> State:
    """A counter made a block by an Onfire chip: the foul die alone decides, as for a defensive block."""
    pending = state.pending
    attacker = other(pending.side)
    outcome = block_outcome(pending.block or "chip", face)
    if outcome.foul:
        return counter_foul(state)
    # "It works also if the block empowers a counter action": the fundamental's hooper steps back.
    state = move_onfire(state, attacker, pending.hooper or "", -1)
    if outcome.recovers_ball:
        state = replace(state, message=f"{pending.other} blocks {pending.hooper} and recovers the ball")
        state = end_attacking_turn(state, began_after="counter")
        return replace(state, turn=replace(state.turn, retriever=pending.other))
    lost = ("F1",) if outcome.restart == "F2" else ("F1", "F2")
    turn = replace(state.turn, slots=(), lost_slots=lost, bonuses=(), ball=BallState(), spent=())
    return replace(
        state,
        turn=turn,
        pending=new_pending(kind="play", side=attacker),
        message=f"{pending.other} blocks {pending.hooper}: new action from {outcome.restart}",
    )


def resolve_counter_roll(state: State, face: int) -> State:
    """The counter's d20: at or under the stat recovers the ball and starts the counterer's turn."""
    pending = state.pending
    target = counter_target(state)
    if succeeds(face, target):
        state = replace(state, message=f"{pending.other}'s counter succeeds ({face} <= {target.value})")
        state = end_attacking_turn(state, began_after="counter")
        return replace(state, turn=replace(state.turn, retriever=pending.other))
    state = replace(state, message=f"{pending.other}'s counter fails ({face} > {target.value})")
    counterer = state.side(pending.side).hooper(pending.other or "")
    malus = (
        (Term(f"{counterer.name}'s failed counter", -10),)
        if counterer.has_skill("failed_counter_malus")
        else ()
    )
    return grant_fundamental(state, pending, malus)


def flagrant_foul(state: State, fouler: str, fouled: str) -> State:
    """The Unleashed's second use was fouled on a whistle: two free throws, then a new turn without F1."""
    side = other(state.turn.attacker)
    state = add_red(state, side, fouler)
    state = add_white(state, state.turn.attacker, fouled)
    return replace(
        state,
        pending=new_pending(
            kind="free_throw", side=state.turn.attacker, hooper=fouled, free_throws=2, after="new_turn"
        ),
        message=f"flagrant foul by {fouler}: two free throws for {fouled}",
    )
