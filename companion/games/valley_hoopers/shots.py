"""The attack in A and the defense against it: target, foul die, blocks, the d20 and its result."""

from __future__ import annotations

from typing import Any

from companion.errors import RuleError
from companion.frozen import by_identity, replace
from companion.game import Target, Term
from companion.games.valley_hoopers import splits
from companion.games.valley_hoopers.ball import BallState, check_card
from companion.games.valley_hoopers.chips import spend_lv1
from companion.games.valley_hoopers.counters import flagrant_foul
from companion.games.valley_hoopers.fouls import SHOT_FREE_THROWS, block_outcome, foul_outcome
from companion.games.valley_hoopers.fundamentals import (
    acting_hooper,
    card_improvement,
    chip_terms,
    close_counter_window,
    mark_first_card,
    spend_block_chip,
    spend_no_way_chip,
)
from companion.games.valley_hoopers.hooper_ops import (
    add_red,
    add_white,
    can_act_refusal,
    check_can_act,
    move_onfire,
    queue,
    score,
    spend_energy,
)
from companion.games.valley_hoopers.model import (
    Decision,
    Hooper,
    Pending,
    Slot,
    State,
    Turn,
    new_pending,
    other,
)
from companion.games.valley_hoopers.targets import attack_stat_terms, chance, defense_terms, succeeds
from companion.games.valley_hoopers.turn_track import end_attacking_turn
from companion.games.valley_hoopers.waiting import SHOT_WORDS, describe_wait

SHOT_POINTS = {"2PS": 2, "3PS": 3, "LUP": 2}
DEFENSE_FOR = {"2PS": "D2", "3PS": "D3", "LUP": "DLU"}


def check_attack(state: State, event: dict[str, Any]) -> tuple[Hooper, Term, tuple[Term, ...]]:
    """Every refusal of an attack card that comes before it changes the table (all of them, for a
    card without a chip, an upgrade or another payer): the hooper, the stat and what comes with it.

    A counter window still open closes first (``close_counter_window``); closing it changes neither
    the ball nor the hoopers, so the checks read the same before and after.
    """
    check_attack_step(state)
    hooper = acting_hooper(state, event)
    stat, maluses = check_attack_card(state, hooper, event["shot"])
    return hooper, stat, maluses


def check_attack_step(state: State) -> None:
    """The refusal of an attack that reads only the step (no card, no hooper)."""
    if state.pending.kind not in ("play", "counter_window"):
        raise RuleError(f"an attack is played by the attacker in A, not now: {describe_wait(state)}")


def check_attack_card(state: State, hooper: Hooper, shot: str) -> tuple[Term, tuple[Term, ...]]:
    """The refusals of a ``shot`` by a ``hooper`` who can act: the stat and what comes with it."""
    if "cannot_attack" in hooper.injuries:
        raise RuleError(f"{hooper.name}'s injury marker says {hooper.subject} can no longer attack")
    check_card(state.turn.ball, shot, hooper.name, hooper.subject)
    return attack_stat_terms(hooper, shot)


def attack_bonuses(turn: Turn, hooper: Hooper, maluses: tuple[Term, ...],
                   upgrade: tuple[Term, ...] = (), chip_bonus: tuple[Term, ...] = ()) -> tuple[Term, ...]:
    """What the attack adds to its stat: the turn's bonuses (none on a Buzzer Beater turn), the
    offensive rebounder's +15, the card's upgrade and chip, its maluses."""
    bonuses = () if turn.buzzer_beater else turn.bonuses
    if turn.rebound_bonus_for == hooper.name:
        bonuses = (*bonuses, Term("offensive rebound", 15))
    return (*bonuses, *upgrade, *chip_bonus, *maluses)


def play_attack(state: State, event: dict[str, Any]) -> State:
    """The attack card in A: 2PS, 3PS or LUP by the hooper on the card's position."""
    hooper, stat, maluses = check_attack(state, event)
    state = close_counter_window(state)
    side = state.turn.attacker
    shot = event["shot"]
    turn = state.turn
    second_use = turn.second_use_pending
    teammates = [s for s in turn.slots if s.hooper != hooper.name]
    free = (
        (hooper.has_skill("free_attack_after_pass") and any(s.action == "pass" for s in teammates))
        or (hooper.has_skill("free_attack_after_screen") and any(s.action == "screen" for s in teammates))
        or turn.buzzer_beater
    )
    if turn.second_use_pending and hooper.name == turn.retriever:
        free = True
    state = spend_energy(state, side, hooper.name, free=free, payer=event.get("energy_from"))
    state, chip_bonus, unstoppable = chip_terms(state, side, hooper, event.get("chip"))
    upgrade = card_improvement(state, side, hooper, event.get("upgrade"), shot)
    spent = turn.spent if free else (*turn.spent, ("A", event.get("energy_from") or hooper.name))
    turn = replace(
        state.turn,
        slots=(*turn.slots, Slot("A", shot, hooper.name)),
        spent=spent,
        bonuses=attack_bonuses(turn, hooper, maluses, upgrade, chip_bonus),
        rebound_bonus_for=None,
        second_use_pending=False,
    )
    pending = new_pending(
        kind="defense_window",
        side=other(side),
        action=shot,
        hooper=hooper.name,
        points=SHOT_POINTS[shot],
        second_use=second_use,
    )
    state = mark_first_card(state, turn=turn, message=f"{hooper.name} attempts a {shot}", pending=pending)
    if unstoppable or turn.playbook is not None:
        return ready_to_roll(state, replace(pending, kind="attack_roll", side=side))
    return state


def _count_attack_target_now(state: State) -> Target:
    """The target of the attack being resolved: stat + bonuses - (defense + foul bonus)."""
    pending = state.pending
    attacker_side = state.turn.attacker
    hooper = state.side(attacker_side).hooper(pending.hooper or "")
    if pending.action == "rebound_layup":
        value = hooper.require_stat("V")
        return Target(f"V {hooper.name} (lay-up)", value)
    defense: list[Term] = []
    if pending.other is not None:
        defender = state.side(other(attacker_side)).hooper(pending.other)
        defense += defense_terms(defender, pending.stat or DEFENSE_FOR[pending.action or "2PS"])
        if pending.helper:
            defense.append(_helper_term(state, other(attacker_side), pending))
        if pending.chip == "boost":
            defense.append(Term(f"Onfire chip {defender.name}", 10))
        if pending.upgrade is not None:
            defense.append(Term(*pending.upgrade))
    if pending.foul_bonus:
        defense.append(Term(f"foul bonus {pending.foul_face}", pending.foul_bonus))
    return _against(state, hooper, tuple(defense))


# The die a defense window awaits, its prompt, its scoreboard and "no defense" all read it: counted
# once per state (a pure function of the frozen state; a refusal is raised each time, not kept).
attack_target_now = by_identity(_count_attack_target_now, size=64)


def target_if_defended(state: State, defender: Hooper, defense_stat: str) -> Target:
    """``attack_target_now`` once a plain defense by ``defender`` stands (no helper, chip, upgrade or
    foul bonus yet): what a prompt shows for the choice to defend, without playing it."""
    return _against(state, _pending_attacker(state), defense_terms(defender, defense_stat))


def undefended_value(state: State) -> int:
    """The value of ``target_if_defended`` before the defense's terms come off (the attacker's stat plus
    the turn's bonuses): a defense window's answers share it."""
    return Target.total(_attack_stat(state, _pending_attacker(state)).value, state.turn.bonuses)


def _pending_attacker(state: State) -> Hooper:
    return state.side(state.turn.attacker).hooper(state.pending.hooper or "")


def _attack_stat(state: State, attacker: Hooper) -> Term:
    return attack_stat_terms(attacker, state.pending.action or "2PS")[0]


def _against(state: State, attacker: Hooper, defense: tuple[Term, ...]) -> Target:
    stat = _attack_stat(state, attacker)
    return Target(stat.label, stat.value, state.turn.bonuses, defense)


def _helper_term(state: State, side: int, pending: Pending) -> Term:
    helper = state.side(side).hooper(pending.helper or "")
    value = helper.require_stat(pending.stat or "D2")
    attacker = state.side(other(side)).hooper(pending.hooper or "")
    if attacker.court not in helper.require_flag():
        value //= 2
    return Term(f"{pending.stat} {helper.name} (help)", value)


def ready_to_roll(state: State, pending: Pending) -> State:
    """Waiting for the attacker's d20, unless the target is 100 or more: then it simply scores."""
    state = replace(state, pending=pending)
    if chance(attack_target_now(state)) == 1:
        return resolve_attack_roll(state, None)
    return state


def check_no_defense(state: State) -> None:
    """The refusal of "no defense": there is no attack waiting for its defense."""
    if state.pending.kind != "defense_window":
        raise RuleError("there is no attack to let through now")


def no_defense(state: State) -> State:
    check_no_defense(state)
    pending = state.pending
    shot = SHOT_WORDS.get(pending.action or "", pending.action or "attack")
    message = f"{state.side(pending.side).name} does not defend {pending.hooper}'s {shot}"
    return ready_to_roll(
        replace(state, message=message), replace(pending, kind="attack_roll", side=state.turn.attacker)
    )


def check_defense(state: State, event: dict[str, Any]) -> tuple[Hooper, str]:
    """The refusals of a defense card that come before it changes the table (all of them, for a card
    without a block, a chip, an upgrade, a helper or another payer): the defender and the stat."""
    pending = state.pending
    if pending.kind != "defense_window":
        raise RuleError("defense answers an opponent's attack: there is none to defend now")
    hooper = state.side(pending.side).hooper(event["hooper"])
    return hooper, check_defender(state, hooper, defended_attacker(state), event.get("defense"))


def defended_attacker(state: State) -> Hooper:
    """The attacker a defense window's defense answers."""
    return state.side(other(state.pending.side)).hooper(state.pending.hooper or "")


def check_defender(state: State, hooper: Hooper, attacker: Hooper, asked: str | None) -> str:
    """The refusals of a defense by ``hooper`` (of the side in the defense window) against ``attacker``
    with the ``asked`` stat (``None``: the one matching the shot): the stat. A window's answers share
    their attacker (``candidates._Defended``)."""
    judged = judge_defender(state, hooper, attacker, asked)
    if isinstance(judged, RuleError):
        raise judged
    return judged


def judge_defender(state: State, hooper: Hooper, attacker: Hooper, asked: str | None) -> str | RuleError:
    """``check_defender``'s stat, or the refusal it raises returned (a card value not entered yet
    still raises)."""
    refused = can_act_refusal(hooper)
    if refused is not None:
        return refused
    if "cannot_defend" in hooper.injuries:
        return RuleError(f"{hooper.name}'s injury marker says {hooper.subject} can no longer defend")
    flag = hooper.require_flag()
    if attacker.court not in flag:
        return RuleError(
            f"{hooper.name}'s defensive flag ({'/'.join(flag)}) does not hold "
            f"{attacker.name}'s position {attacker.court}"
        )
    pending = state.pending
    matching = DEFENSE_FOR[pending.action or "2PS"]
    defense_stat = asked or matching
    edd_trapp = defense_stat == "DLU" and pending.action == "3PS" and hooper.has_skill("dlu_vs_3ps")
    if defense_stat != matching and not edd_trapp:
        return RuleError(f"a {pending.action} is defended with a {matching}, not a {defense_stat}")
    hooper.require_stat(defense_stat)
    return defense_stat


def play_defense(state: State, event: dict[str, Any]) -> State:
    """A defense card (or a block) against the attack, by a hooper whose flag holds its position."""
    hooper, defense_stat = check_defense(state, event)
    pending = state.pending
    side = pending.side
    block = event.get("block")
    free = (defense_stat == "D3" and hooper.has_skill("free_d3")) or block == "no_way"
    state = spend_energy(state, side, hooper.name, free=free, payer=event.get("energy_from"))
    boosted = None
    if event.get("chip") == "boost":
        state, _ = spend_lv1(state, side, hooper.name, "boost")
        boosted = "boost"
    if block == "chip":
        state, block = spend_block_chip(state, side, hooper)
    elif block == "no_way":
        state = spend_no_way_chip(state, side, hooper)
    elif block == "tribe":
        if state.side(side).tribe != "keepers":
            raise RuleError("only the Keepers' tribe power turns a defense into a block")
        if state.turn.tribe_block_used:
            raise RuleError("the Keepers' face-down defense is played once per opponent's attacking turn")
        state = replace(state, turn=replace(state.turn, tribe_block_used=True))
    upgrade = card_improvement(state, side, hooper, event.get("upgrade"), defense_stat)
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
    return replace(
        state,
        pending=replace(
            pending,
            kind="defense_check",
            other=hooper.name,
            stat=defense_stat,
            helper=helper,
            block=block,
            chip=boosted,
            defended=True,
            upgrade=(upgrade[0].label, upgrade[0].value) if upgrade else None,
        ),
        message=f"{hooper.name} defends with a {defense_stat}" + (" (block)" if block else ""),
    )


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
        return flagrant_foul(state, defender.name, attacker.name)
    outcome = foul_outcome(pending.stat or "D2", face)
    if outcome.foul and outcome.by == "attacker":
        state = add_red(state, attacker_side, attacker.name)
        state = add_white(state, side, defender.name)
        state = replace(state, message=f"charging foul by {attacker.name}")
        return end_attacking_turn(state, began_after="foul")
    roll = replace(pending, kind="attack_roll", side=attacker_side)
    if linda and outcome.foul:
        state = add_white(state, attacker_side, attacker.name)
        state = replace(
            state, message=f"{defender.name}'s whistle is no foul: +{outcome.defense_bonus} defense"
        )
        return ready_to_roll(state, replace(roll, foul_bonus=outcome.defense_bonus, foul_face=face))
    if outcome.foul:
        state = add_red(state, side, defender.name)
        state = add_white(state, attacker_side, attacker.name)
        bonus = 0 if attacker.has_skill("no_foul_bonus_against") else outcome.defense_bonus
        # A defense lay-up against a 3 points shot (Edd Trapp) still gives a shooter three if missed.
        made, missed = SHOT_FREE_THROWS[DEFENSE_FOR[pending.action or "2PS"]]
        state = replace(state, message=f"{defender.name} fouls {attacker.name}: +{bonus} defense")
        return ready_to_roll(
            state,
            replace(
                roll,
                fouled=True,
                foul_bonus=bonus,
                foul_face=face,
                free_throws=missed,
                free_throws_if_made=made,
            ),
        )
    return ready_to_roll(replace(state, message="no foul"), roll)


def _resolve_block(state: State, face: str, defender: Hooper, attacker: Hooper) -> State:
    """A block negates the shot; the face says who keeps the ball and from which slot."""
    pending = state.pending
    side = pending.side
    attacker_side = other(side)
    if defender.has_skill("whistle_is_no_foul") and face == "whistle":
        # Her whistle reads as the ordinary block's jump ball (reading 9), stellar, No Way or not.
        recovering = pending.block if pending.block in ("stellar_chip", "no_way") else "chip"
        outcome = block_outcome(recovering, "jumpball")
    else:
        outcome = block_outcome(pending.block or "chip", face)
    if outcome.foul:
        state = add_red(state, side, defender.name)
        state = add_white(state, attacker_side, attacker.name)
        throws = 3 if pending.action == "3PS" else 2
        return replace(
            state,
            pending=new_pending(
                kind="free_throw", side=attacker_side, hooper=attacker.name, free_throws=throws, after="end"
            ),
            message=f"{defender.name} fouls on the block: {throws} free throws",
        )
    state = move_onfire(state, attacker_side, attacker.name, -1)
    if outcome.recovers_ball:
        state = replace(state, message=f"{defender.name} blocks {attacker.name} and recovers the ball")
        return end_attacking_turn(state, began_after="block")
    lost = ("F1",) if outcome.restart == "F2" else ("F1", "F2")
    turn = replace(state.turn, slots=(), lost_slots=lost, bonuses=(), ball=BallState(), spent=())
    return replace(
        state,
        turn=turn,
        pending=new_pending(kind="play", side=attacker_side),
        message=f"{defender.name} blocks {attacker.name}: new action from {outcome.restart}",
    )


def resolve_attack_roll(state: State, face: int | None) -> State:
    """The attacker's d20 (``None`` when the target needs no roll): score, Onfire, free throws, F3."""
    pending = state.pending
    side = state.turn.attacker
    target = attack_target_now(state)
    made = face is None or succeeds(face, target)
    state = replace(state, last_attack_value=target.value)
    hooper = state.side(side).hooper(pending.hooper or "")
    rolled = "no roll needed" if face is None else f"rolled {face}"
    state = splits.attack(state, side, hooper.name, pending.points, made)
    if made:
        state = score(state, side, hooper.name, pending.points)
        state = move_onfire(state, side, hooper.name, +1)
        state = replace(
            state,
            last_attack=(side, hooper.name, pending.points),
            message=f"{hooper.name} scores {pending.points} ({rolled}, target {target.value})",
        )
        if hooper.has_skill("cures_on_score"):
            state = queue(state, Decision(kind="cure", side=side, hooper=hooper.name))
        if pending.fouled:
            return replace(
                state,
                pending=new_pending(
                    kind="free_throw",
                    side=side,
                    hooper=hooper.name,
                    free_throws=pending.free_throws_if_made,
                    after="end",
                    after_score=True,
                ),
            )
        if state.turn.playbook is not None:
            return replace(state, pending=new_pending(kind="playbook_reward", side=side, hooper=hooper.name))
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
        return replace(
            state,
            pending=new_pending(
                kind="free_throw", side=side, hooper=hooper.name, free_throws=pending.free_throws, after="end"
            ),
        )
    # Who defended the miss wins the ball back if nobody rebounds (the Unleashed tribe power asks).
    state = replace(state, turn=replace(state.turn, last_defender=pending.other))
    return replace(
        state,
        pending=new_pending(
            kind="rebound_window",
            side=side,
            action=pending.action,
            hooper=hooper.name,
            points=pending.points,
            defended=pending.defended,
        ),
    )
