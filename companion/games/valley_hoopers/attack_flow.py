"""The attacking turn: F1/F2 fundamentals, counters, the attack, defense, foul die, free throws, F3.

Every ``play_*``/``resolve_*`` function takes the state and a normalized event and returns the next
state, or raises ``RuleError`` and changes nothing (the state is immutable).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.errors import RuleError
from companion.game import Target, Term
from companion.games.valley_hoopers.ball import BallState, after_card, check_card
from companion.games.valley_hoopers.chips import spend_lv1
from companion.games.valley_hoopers.fouls import SHOT_FREE_THROWS, foul_outcome
from companion.games.valley_hoopers.hooper_ops import (add_red, add_white, check_can_act, move_onfire,
                                                       queue, score, spend_energy)
from companion.games.valley_hoopers.model import (ATTACK_STATS, FUNDAMENTALS, Decision, Hooper, Pending,
                                                  Slot, State, other)
from companion.games.valley_hoopers.targets import (attack_stat_terms, chance, defense_terms,
                                                    free_throw_target)
from companion.games.valley_hoopers.turn_track import end_attacking_turn, start_turn

SHOT_POINTS = {"2PS": 2, "3PS": 3, "LUP": 2}
DEFENSE_FOR = {"2PS": "D2", "3PS": "D3", "LUP": "DLU"}
DEFAULT_BONUS = {"dribble": 15, "pass": 25, "screen": 25}


def court_hooper(state: State, side: int, event: dict[str, Any]) -> Hooper:
    """The hooper a card names, by court position (as the card requires) or by name."""
    if event.get("position"):
        hooper = state.side(side).at(event["position"])
        if hooper is None:
            raise RuleError(f"{state.side(side).name} has nobody at {event['position']}")
        return hooper
    hooper = state.side(side).hooper(event["hooper"])
    if hooper.court is None:
        raise RuleError(f"{hooper.name} is on the bench: cards are played by hoopers on the court")
    return hooper


def _stellar_now(hooper: Hooper) -> bool:
    """Playing in a stellar position: stellar card (or star upgrade) and on the first position."""
    if hooper.stellar is None:
        raise RuleError(f"{hooper.name}'s stellar mark is not entered yet: enter it from {hooper.pronoun} card")
    return hooper.stellar and hooper.court == hooper.first_position


def _chip_terms(state: State, side: int, hooper: Hooper, chip: str | None) -> tuple[State, tuple[Term, ...], bool]:
    """Spend a LV.1 chip on a card: the +10 it gives and whether the card can't be countered/defended."""
    if chip is None:
        return state, (), False
    state, reused = spend_lv1(state, side, hooper.name, chip)
    stellar = _stellar_now(hooper) and not reused
    if chip == "boost":
        return state, (Term(f"Onfire chip {hooper.name}", 10),), stellar
    if chip == "unstoppable":
        return state, ((Term(f"Onfire chip {hooper.name}", 10),) if stellar else ()), True
    raise RuleError(f"a {chip} chip is not played on a card")


def _mark_first_card(state: State) -> State:
    """The first card of a period closes the free substitutions."""
    return replace(state, free_substitutions=(False, False), reminders=())


def _next_fundamental_slot(state: State) -> str:
    turn = state.turn
    if turn.buzzer_beater:
        raise RuleError("a Buzzer Beater turn is played in slot A only: play an attack")
    for slot in ("F1", "F2"):
        if turn.played(slot) is None and slot not in turn.lost_slots:
            return slot
    raise RuleError("F1 and F2 are used: play an attack or end the turn")


def _close_counter_window(state: State) -> State:
    """Nobody counters the fundamental: its bonus counts."""
    pending = state.pending
    if pending.kind != "counter_window":
        return state
    return _grant_fundamental(state, pending)


def _grant_fundamental(state: State, pending: Pending, extra: tuple[Term, ...] = ()) -> State:
    bonus = (Term(pending.action or "fundamental", pending.bonus),) if pending.bonus else ()
    turn = replace(state.turn, bonuses=(*state.turn.bonuses, *bonus, *extra))
    return replace(state, turn=turn, pending=Pending(kind="play", side=turn.attacker))


def play_fundamental(state: State, event: dict[str, Any]) -> State:
    """F1 or F2: dribble (+15), pass or screen (the card's bonus, 25 unless told otherwise)."""
    state = _close_counter_window(state)
    if state.pending.kind != "play":
        raise RuleError(f"a fundamental is played by the attacker in F1 or F2, not now ({state.pending.kind})")
    side = state.turn.attacker
    action = event["action"]
    slot = _next_fundamental_slot(state)
    hooper = court_hooper(state, side, event)
    check_can_act(hooper)
    check_card(state.turn.ball, action, hooper.name, hooper.subject)
    free = ((action == "pass" and hooper.has_skill("free_pass"))
            or (action == "screen" and hooper.has_skill("free_screen")))
    if state.turn.second_use_pending and hooper.name == state.turn.retriever:
        free = True  # Unleashed power: one energy when the same hooper plays both halves of the card
    state = spend_energy(state, side, hooper.name, free=free, payer=event.get("energy_from"))
    state, chip_bonus, unstoppable = _chip_terms(state, side, hooper, event.get("chip"))
    bonus = DEFAULT_BONUS[action] if action == "dribble" else event.get("bonus", DEFAULT_BONUS[action])
    turn = state.turn
    spent = turn.spent if free else (*turn.spent, (slot, event.get("energy_from") or hooper.name))
    second_use = turn.second_use_pending
    turn = replace(turn, slots=(*turn.slots, Slot(slot, action, hooper.name)), ball=after_card(turn.ball, action,
                   hooper.name), spent=spent, rebound_bonus_for=None, second_use_pending=False)
    state = _mark_first_card(replace(state, turn=turn))
    pending = Pending(kind="play", side=side, action=action, hooper=hooper.name, bonus=bonus,
                      second_use=second_use)
    state = replace(state, message=f"{hooper.name} plays a {action} in {slot}")
    if action == "screen":
        return replace(state, pending=replace(pending, kind="screen_check"),
                       turn=replace(state.turn, bonuses=(*state.turn.bonuses, *chip_bonus)))
    if unstoppable or state.turn.playbook is not None:
        return _grant_fundamental(state, pending, chip_bonus)
    return replace(state, pending=replace(pending, kind="counter_window", side=other(side),
                                          chip="boost" if chip_bonus else None),
                   turn=replace(state.turn, bonuses=(*state.turn.bonuses, *chip_bonus)))


def resolve_screen_check(state: State, face: str) -> State:
    """The screener's foul die: whistle or whistle 2 is an offensive foul and ends the turn."""
    pending = state.pending
    side = pending.side
    outcome = foul_outcome("screen", face)
    if outcome.foul:
        state = add_red(state, side, pending.hooper or "")
        state = queue(state, Decision(kind="white_cube", side=other(side)))
        state = replace(state, message=f"offensive foul by {pending.hooper} on the screen")
        return end_attacking_turn(state, began_after="foul")
    return _grant_fundamental(replace(state, message=f"{pending.hooper}'s screen is clean"), pending)


def no_counter(state: State) -> State:
    if state.pending.kind != "counter_window":
        raise RuleError("there is no fundamental to counter now")
    return _close_counter_window(state)


def _counter_stat(kind: str, position: str | None) -> str:
    if kind == "intercept":
        return "O"
    return {"PG": "O", "SG": "O", "PF": "V", "C": "V"}.get(position or "", "worse")


def play_counter(state: State, event: dict[str, Any]) -> State:
    """A steal against a dribble, an intercept against a pass, by a hooper whose flag holds the position."""
    pending = state.pending
    if pending.kind != "counter_window":
        raise RuleError("counters answer an opponent's dribble or pass: there is none to counter now")
    side = pending.side
    kind = "steal" if pending.action == "dribble" else "intercept"
    hooper = state.side(side).hooper(event["hooper"])
    check_can_act(hooper)
    if event.get("card") not in (None, kind):
        if event["card"] != "rebound" or not hooper.has_skill("rebound_counters"):
            raise RuleError(f"a {pending.action} is countered with a {kind}, not a {event['card']}"
                            + (" (only Dime N'Shons may use a rebound card)" if event["card"] == "rebound"
                               else ""))
    target_hooper = state.side(other(side)).hooper(pending.hooper or "")
    flag = hooper.require_flag()
    if target_hooper.court not in flag:
        raise RuleError(f"{hooper.name}'s defensive flag ({'/'.join(flag)}) does not hold "
                        f"{target_hooper.name}'s position {target_hooper.court}")
    stat = _counter_stat(kind, target_hooper.court)
    for needed in (("O", "V") if stat == "worse" else (stat,)):
        hooper.require_stat(needed)
    free = kind == "intercept" and hooper.has_skill("free_intercept")
    state = spend_energy(state, side, hooper.name, free=free, payer=event.get("energy_from"))
    state, chip_bonus, _ = _chip_terms(state, side, hooper, event.get("chip"))
    kind_next = "counter_roll" if hooper.has_skill("no_counter_foul_die") else "counter_check"
    return replace(state, pending=replace(pending, kind=kind_next, other=hooper.name, stat=stat,
                                          chip="boost" if chip_bonus else None),
                   message=f"{hooper.name} tries a {kind} on {target_hooper.name}")


def counter_target(state: State) -> Target:
    pending = state.pending
    hooper = state.side(pending.side).hooper(pending.other or "")
    o_stat, v_stat = hooper.stat("O"), hooper.stat("V")
    if pending.stat == "worse":
        value, label = (o_stat, "O") if (o_stat or 0) <= (v_stat or 0) else (v_stat, "V")
    elif pending.stat == "better":
        value, label = (o_stat, "O") if (o_stat or 0) >= (v_stat or 0) else (v_stat, "V")
    else:
        label = pending.stat or "O"
        value = hooper.require_stat(label)
    bonuses = (Term(f"Onfire chip {hooper.name}", 10),) if pending.chip == "boost" else ()
    return Target(f"{label} {hooper.name}", int(value or 0), bonuses)


def resolve_counter_check(state: State, face: str) -> State:
    """The counterer's foul die: a foul costs the attacker the slot and its bonus; jump ball swaps O/V."""
    pending = state.pending
    side = pending.side
    kind = "steal" if pending.action == "dribble" else "intercept"
    outcome = foul_outcome(kind, face)
    attacker = other(side)
    if outcome.foul:
        if pending.second_use and state.turn.tribe_power and face == "whistle":
            return _flagrant_foul(state, pending.other or "", pending.hooper or "")
        bonus_on = state.team_fouls[side] >= 3
        state = add_red(state, side, pending.other or "")
        state = add_white(state, attacker, pending.hooper or "")
        slot = state.turn.slots[-1].slot
        turn = replace(state.turn, slots=state.turn.slots[:-1], lost_slots=(*state.turn.lost_slots, slot),
                       ball=BallState())
        state = replace(state, turn=turn, message=f"{pending.other} fouls {pending.hooper}: {slot} is lost")
        if bonus_on:
            return replace(state, pending=Pending(kind="free_throw", side=attacker, hooper=pending.hooper,
                                                  free_throws=2, after="continue"))
        return replace(state, pending=Pending(kind="play", side=attacker))
    stat = pending.stat
    if outcome.jump_ball:
        stat = {"O": "V", "V": "O", "worse": "better"}[stat or "O"]
        state.side(side).hooper(pending.other or "").require_stat(stat if stat in ("O", "V") else "O")
    return replace(state, pending=replace(pending, kind="counter_roll", stat=stat))


def resolve_counter_roll(state: State, face: int) -> State:
    """The counter's d20: at or under the stat recovers the ball and starts the counterer's turn."""
    pending = state.pending
    target = counter_target(state)
    if face <= target.value or target.value >= 100:
        state = replace(state, message=f"{pending.other}'s counter succeeds ({face} <= {target.value})")
        state = end_attacking_turn(state, began_after="counter")
        return replace(state, turn=replace(state.turn, retriever=pending.other))
    state = replace(state, message=f"{pending.other}'s counter fails ({face} > {target.value})")
    counterer = state.side(pending.side).hooper(pending.other or "")
    malus = (Term(f"{counterer.name}'s failed counter", -10),) if counterer.has_skill("failed_counter_malus") \
        else ()
    return _grant_fundamental(state, pending, malus)


def play_attack(state: State, event: dict[str, Any]) -> State:
    """The attack card in A: 2PS, 3PS or LUP by the hooper on the card's position."""
    state = _close_counter_window(state)
    if state.pending.kind != "play":
        raise RuleError(f"an attack is played by the attacker in A, not now ({state.pending.kind})")
    side = state.turn.attacker
    shot = event["shot"]
    hooper = court_hooper(state, side, event)
    check_can_act(hooper)
    if "cannot_attack" in hooper.injuries:
        raise RuleError(f"{hooper.name}'s injury marker says {hooper.subject} can no longer attack")
    check_card(state.turn.ball, shot, hooper.name, hooper.subject)
    stat, maluses = attack_stat_terms(hooper, shot)
    turn = state.turn
    second_use = turn.second_use_pending
    teammates = [s for s in turn.slots if s.hooper != hooper.name]
    free = ((hooper.has_skill("free_attack_after_pass") and any(s.action == "pass" for s in teammates))
            or (hooper.has_skill("free_attack_after_screen") and any(s.action == "screen" for s in teammates))
            or turn.buzzer_beater)
    if turn.second_use_pending and hooper.name == turn.retriever:
        free = True
    state = spend_energy(state, side, hooper.name, free=free, payer=event.get("energy_from"))
    state, chip_bonus, unstoppable = _chip_terms(state, side, hooper, event.get("chip"))
    bonuses = () if turn.buzzer_beater else turn.bonuses
    if turn.rebound_bonus_for == hooper.name:
        bonuses = (*bonuses, Term("offensive rebound", 15))
    spent = turn.spent if free else (*turn.spent, ("A", event.get("energy_from") or hooper.name))
    turn = replace(state.turn, slots=(*turn.slots, Slot("A", shot, hooper.name)), spent=spent,
                   bonuses=(*bonuses, *chip_bonus, *maluses), rebound_bonus_for=None,
                   second_use_pending=False)
    state = _mark_first_card(replace(state, turn=turn))
    pending = Pending(kind="defense_window", side=other(side), action=shot, hooper=hooper.name,
                      points=SHOT_POINTS[shot], second_use=second_use)
    state = replace(state, message=f"{hooper.name} attempts a {shot}", pending=pending)
    if unstoppable or turn.playbook is not None:
        return _ready_to_roll(state, replace(pending, kind="attack_roll", side=side))
    return state


def attack_target_now(state: State) -> Target:
    """The target of the attack being resolved: stat + bonuses - (defense + foul bonus)."""
    pending = state.pending
    attacker_side = state.turn.attacker
    hooper = state.side(attacker_side).hooper(pending.hooper or "")
    if pending.action == "rebound_layup":
        value = hooper.require_stat("V")
        return Target(f"V {hooper.name} (lay-up)", value)
    stat, _ = attack_stat_terms(hooper, pending.action or "2PS")
    defense: list[Term] = []
    if pending.other is not None:
        defender = state.side(other(attacker_side)).hooper(pending.other)
        defense += defense_terms(defender, pending.stat or DEFENSE_FOR[pending.action or "2PS"])
        if pending.helper:
            defense.append(_helper_term(state, other(attacker_side), pending))
    if pending.foul_bonus:
        defense.append(Term(f"foul bonus {pending.foul_face}", pending.foul_bonus))
    return Target(stat.label, stat.value, state.turn.bonuses, tuple(defense))


def _helper_term(state: State, side: int, pending: Pending) -> Term:
    helper = state.side(side).hooper(pending.helper or "")
    value = helper.require_stat(pending.stat or "D2")
    attacker = state.side(other(side)).hooper(pending.hooper or "")
    if attacker.court not in helper.require_flag():
        value //= 2
    return Term(f"{pending.stat} {helper.name} (help)", value)


def _ready_to_roll(state: State, pending: Pending) -> State:
    """Waiting for the attacker's d20, unless the target is 100 or more: then it simply scores."""
    state = replace(state, pending=pending)
    if chance(attack_target_now(state)) == 1:
        return resolve_attack_roll(state, None)
    return state


def no_defense(state: State) -> State:
    pending = state.pending
    if pending.kind != "defense_window":
        raise RuleError("there is no attack to let through now")
    return _ready_to_roll(state, replace(pending, kind="attack_roll", side=state.turn.attacker))


def play_defense(state: State, event: dict[str, Any]) -> State:
    """A defense card (or a block) against the attack, by a hooper whose flag holds the attacker's position."""
    pending = state.pending
    if pending.kind != "defense_window":
        raise RuleError("defense answers an opponent's attack: there is none to defend now")
    side = pending.side
    hooper = state.side(side).hooper(event["hooper"])
    attacker = state.side(other(side)).hooper(pending.hooper or "")
    block = event.get("block")
    check_can_act(hooper)
    if "cannot_defend" in hooper.injuries:
        raise RuleError(f"{hooper.name}'s injury marker says {hooper.subject} can no longer defend")
    flag = hooper.require_flag()
    if attacker.court not in flag:
        raise RuleError(f"{hooper.name}'s defensive flag ({'/'.join(flag)}) does not hold "
                        f"{attacker.name}'s position {attacker.court}")
    matching = DEFENSE_FOR[pending.action or "2PS"]
    defense_stat = event.get("defense") or matching
    if defense_stat != matching:
        if not (defense_stat == "DLU" and pending.action == "3PS" and hooper.has_skill("dlu_vs_3ps")):
            raise RuleError(f"a {pending.action} is defended with a {matching}, not a {defense_stat}")
    hooper.require_stat(defense_stat)
    free = (defense_stat == "D3" and hooper.has_skill("free_d3")) or block == "no_way"
    state = spend_energy(state, side, hooper.name, free=free, payer=event.get("energy_from"))
    if block == "chip":
        state, _ = spend_lv1(state, side, hooper.name, "block")
    elif block == "no_way":
        if hooper.chips_lv2 < 1:
            raise RuleError(f"{hooper.name} has no Onfire LV.2 chip for a No Way Block")
        state = state.with_hooper(side, replace(state.side(side).hooper(hooper.name),
                                                chips_lv2=hooper.chips_lv2 - 1))
    elif block == "tribe":
        if state.side(side).tribe != "keepers":
            raise RuleError("only the Keepers' tribe power turns a defense into a block")
        if state.turn.tribe_block_used:
            raise RuleError("the Keepers' face-down defense is played once per opponent's attacking turn")
        state = replace(state, turn=replace(state.turn, tribe_block_used=True))
    helper = event.get("helper")
    if helper is not None:
        perry = state.side(side).hooper(helper)
        if not perry.has_skill("helps_defense"):
            raise RuleError(f"{perry.name} can't add a defense stat: only Perry Hel's skill does that")
        if perry.name == hooper.name:
            raise RuleError(f"{perry.name} helps a teammate, not {perry.name}")
        check_can_act(perry)
        perry.require_stat(defense_stat)
        state = spend_energy(state, side, perry.name)
    return replace(state, pending=replace(pending, kind="defense_check", other=hooper.name, stat=defense_stat,
                                          helper=helper, block=block, defended=True),
                   message=f"{hooper.name} defends with a {defense_stat}" + (" (block)" if block else ""))


def resolve_defense_check(state: State, face: str) -> State:
    """The defender's foul die before the shot: fouls, foul bonus, charging fouls, blocks."""
    pending = state.pending
    side = pending.side
    attacker_side = other(side)
    defender = state.side(side).hooper(pending.other or "")
    attacker = state.side(attacker_side).hooper(pending.hooper or "")
    if pending.block:
        return _resolve_block(state, face, defender, attacker)
    linda = defender.has_skill("whistle_is_no_foul") and face == "whistle"
    if pending.second_use and state.turn.tribe_power and face == "whistle" and not linda:
        return _flagrant_foul(state, defender.name, attacker.name)
    outcome = foul_outcome(pending.stat or "D2", face)
    if outcome.foul and outcome.by == "attacker":
        state = add_red(state, attacker_side, attacker.name)
        state = add_white(state, side, defender.name)
        state = replace(state, message=f"charging foul by {attacker.name}")
        return end_attacking_turn(state, began_after="foul")
    roll = replace(pending, kind="attack_roll", side=attacker_side)
    if linda and outcome.foul:
        state = add_white(state, attacker_side, attacker.name)
        state = replace(state, message=f"{defender.name}'s whistle is no foul: +{outcome.defense_bonus} defense")
        return _ready_to_roll(state, replace(roll, foul_bonus=outcome.defense_bonus, foul_face=face))
    if outcome.foul:
        state = add_red(state, side, defender.name)
        state = add_white(state, attacker_side, attacker.name)
        bonus = 0 if attacker.has_skill("no_foul_bonus_against") else outcome.defense_bonus
        # A defense lay-up against a 3 points shot (Edd Trapp) still gives a shooter three if missed.
        made, missed = SHOT_FREE_THROWS[DEFENSE_FOR[pending.action or "2PS"]]
        state = replace(state, message=f"{defender.name} fouls {attacker.name}: +{bonus} defense")
        return _ready_to_roll(state, replace(roll, fouled=True, foul_bonus=bonus, foul_face=face,
                                             free_throws=missed, free_throws_if_made=made))
    return _ready_to_roll(replace(state, message="no foul"), roll)


def _resolve_block(state: State, face: str, defender: Hooper, attacker: Hooper) -> State:
    """A block negates the shot; the face says who keeps the ball and from which slot."""
    pending = state.pending
    side = pending.side
    attacker_side = other(side)
    if defender.has_skill("whistle_is_no_foul") and face == "whistle":
        outcome = foul_outcome("block", "jumpball")
    else:
        outcome = foul_outcome("tribe_block" if pending.block == "tribe" else "block", face)
    if outcome.foul:
        state = add_red(state, side, defender.name)
        state = add_white(state, attacker_side, attacker.name)
        throws = 3 if pending.action == "3PS" else 2
        return replace(state, pending=Pending(kind="free_throw", side=attacker_side, hooper=attacker.name,
                                              free_throws=throws, after="end"),
                       message=f"{defender.name} fouls on the block: {throws} free throws")
    state = move_onfire(state, attacker_side, attacker.name, -1)
    if outcome.recovers_ball:
        state = replace(state, message=f"{defender.name} blocks {attacker.name} and recovers the ball")
        return end_attacking_turn(state, began_after="block")
    lost = ("F1",) if outcome.restart == "F2" else ("F1", "F2")
    turn = replace(state.turn, slots=(), lost_slots=lost, bonuses=(), ball=BallState(), spent=())
    return replace(state, turn=turn, pending=Pending(kind="play", side=attacker_side),
                   message=f"{defender.name} blocks {attacker.name}: new action from {outcome.restart}")


def resolve_attack_roll(state: State, face: int | None) -> State:
    """The attacker's d20 (``None`` when the target needs no roll): score, Onfire, free throws, F3."""
    pending = state.pending
    side = state.turn.attacker
    target = attack_target_now(state)
    made = face is None or face <= target.value or target.value >= 100
    hooper = state.side(side).hooper(pending.hooper or "")
    rolled = "no roll needed" if face is None else f"rolled {face}"
    if made:
        state = score(state, side, hooper.name, pending.points)
        state = move_onfire(state, side, hooper.name, +1)
        state = replace(state, last_attack=(side, hooper.name, pending.points),
                        message=f"{hooper.name} scores {pending.points} ({rolled}, target {target.value})")
        if hooper.has_skill("cures_on_score"):
            state = queue(state, Decision(kind="cure", side=side, hooper=hooper.name))
        if pending.fouled:
            return replace(state, pending=Pending(kind="free_throw", side=side, hooper=hooper.name,
                                                  free_throws=pending.free_throws_if_made, after="end"))
        if state.turn.playbook is not None:
            return replace(state, pending=Pending(kind="playbook_reward", side=side, hooper=hooper.name))
        return end_attacking_turn(state, began_after="score")
    state = replace(state, message=f"{hooper.name} misses ({rolled}, target {target.value})")
    if not pending.fouled:
        state = move_onfire(state, side, hooper.name, -1)
    if pending.other is not None and not pending.fouled:
        defender = state.side(other(side)).hooper(pending.other)
        if defender.has_skill("onfire_on_defense"):
            state = move_onfire(state, other(side), defender.name, +1)
    if state.turn.playbook is not None and state.turn.playbook_common:
        # A failed common playbook is discarded with the coach action token locked in it.
        state = replace(state, turn=replace(state.turn, playbook=None, playbook_common=False))
    elif state.turn.playbook is not None:
        state = replace(state, turn=replace(state.turn, playbook=None))
    if pending.fouled:
        return replace(state, pending=Pending(kind="free_throw", side=side, hooper=hooper.name,
                                              free_throws=pending.free_throws, after="end"))
    return replace(state, pending=Pending(kind="rebound_window", side=side, action=pending.action,
                                          hooper=hooper.name, points=pending.points, defended=pending.defended))


def resolve_free_throw(state: State, face: int) -> State:
    """One free throw: 2PS + 15, one point, never defended, no Onfire step."""
    pending = state.pending
    side = pending.side
    hooper = state.side(side).hooper(pending.hooper or "")
    target = free_throw_target(hooper)
    if face <= target.value or target.value >= 100:
        state = score(state, side, hooper.name, 1)
        state = replace(state, message=f"{hooper.name} makes the free throw ({face} <= {target.value})")
    else:
        state = replace(state, message=f"{hooper.name} misses the free throw ({face} > {target.value})")
    left = pending.free_throws - 1
    if left > 0:
        return replace(state, pending=replace(pending, free_throws=left))
    if pending.after == "continue":
        return replace(state, pending=Pending(kind="play", side=side))
    if pending.after == "new_turn":
        # The flagrant foul's new attacking turn is still part of the tribe power: the token stays.
        turn = replace(state.turn, slots=(), lost_slots=("F1",), bonuses=(), ball=BallState(), spent=(),
                       second_use_pending=False)
        return replace(state, turn=turn, pending=Pending(kind="play", side=side))
    return end_attacking_turn(state, began_after="free_throws")


def _flagrant_foul(state: State, fouler: str, fouled: str) -> State:
    """The Unleashed's second use was fouled on a whistle: two free throws, then a new turn without F1."""
    side = other(state.turn.attacker)
    state = add_red(state, side, fouler)
    state = add_white(state, state.turn.attacker, fouled)
    return replace(state, pending=Pending(kind="free_throw", side=state.turn.attacker, hooper=fouled,
                                          free_throws=2, after="new_turn"),
                   message=f"flagrant foul by {fouler}: two free throws for {fouled}")


def play_rebound(state: State, event: dict[str, Any]) -> State:
    """An offensive rebound in F3 after a failed attack, by any hooper on the court (V stat)."""
    pending = state.pending
    if pending.kind != "rebound_window":
        raise RuleError("an offensive rebound is played in F3, after a failed attack")
    side = pending.side
    hooper = state.side(side).hooper(event["hooper"])
    check_can_act(hooper)
    hooper.require_stat("V")
    state = spend_energy(state, side, hooper.name, payer=event.get("energy_from"))
    turn = replace(state.turn, slots=(*state.turn.slots, Slot("F3", "rebound", hooper.name)))
    return replace(state, turn=turn, pending=replace(pending, kind="rebound_check", other=hooper.name, stat="V"),
                   message=f"{hooper.name} goes for the offensive rebound")


def no_rebound(state: State) -> State:
    if state.pending.kind != "rebound_window":
        raise RuleError("there is no rebound to give up now")
    missed = "defended_miss" if state.pending.defended else "miss"
    return end_attacking_turn(replace(state, message="defensive rebound"), began_after=missed)


def resolve_rebound_check(state: State, face: str) -> State:
    """The rebounder's foul die: only the whistle is a foul; a jump ball means O instead of V."""
    pending = state.pending
    side = pending.side
    outcome = foul_outcome("rebound", face)
    if outcome.foul:
        state = add_red(state, side, pending.other or "")
        state = queue(state, Decision(kind="white_cube", side=other(side)))
        state = replace(state, message=f"offensive foul by {pending.other} on the rebound")
        return end_attacking_turn(state, began_after="foul")
    rebounder = state.side(side).hooper(pending.other or "")
    if rebounder.has_skill("rebound_layup"):
        return _ready_to_roll(state, Pending(kind="attack_roll", side=side, action="rebound_layup",
                                             hooper=rebounder.name, points=2))
    stat = "O" if outcome.jump_ball else "V"
    rebounder.require_stat(stat)
    return replace(state, pending=replace(pending, kind="rebound_roll", stat=stat))


def rebound_target(state: State) -> Target:
    pending = state.pending
    hooper = state.side(pending.side).hooper(pending.other or "")
    return Target(f"{pending.stat} {hooper.name}", hooper.require_stat(pending.stat or "V"))


def resolve_rebound_roll(state: State, face: int) -> State:
    pending = state.pending
    target = rebound_target(state)
    if face <= target.value or target.value >= 100:
        return replace(state, pending=replace(pending, kind="rebound_reward"),
                       message=f"{pending.other} wins the offensive rebound ({face} <= {target.value})")
    state = replace(state, message=f"{pending.other} loses the rebound ({face} > {target.value})")
    return end_attacking_turn(state, began_after="defended_miss" if pending.defended else "miss")


def choose_rebound_reward(state: State, event: dict[str, Any]) -> State:
    """Draw two cards, or +15 if the next card is an attack by the rebounder: a new attacking turn either way."""
    pending = state.pending
    if pending.kind != "rebound_reward":
        raise RuleError("there is no offensive rebound reward to choose now")
    side = pending.side
    state = start_turn(state, side, "rebound")
    bonus_for = pending.other if event["reward"] == "bonus15" else None
    return replace(state, turn=replace(state.turn, rebound_bonus_for=bonus_for),
                   reminders=("draw 2 cards",) if event["reward"] == "draw2" else ())


def end_turn(state: State) -> State:
    """The attacker can't (or won't) attack: the ball goes to the opponent."""
    if state.pending.kind not in ("play", "counter_window"):
        raise RuleError(f"the attacking turn can't be given up now ({state.pending.kind})")
    return end_attacking_turn(replace(state, message=f"{state.side(state.turn.attacker).name} gives up the ball"),
                              began_after="turnover")


def is_fundamental(action: str) -> bool:
    return action in FUNDAMENTALS


def is_attack(action: str) -> bool:
    return action in ATTACK_STATS
