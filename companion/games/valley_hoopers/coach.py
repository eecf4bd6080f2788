"""Coach actions and the table's choices: timeouts, substitutions, playbooks, coach tokens,
replacements, white cubes, injury markers, milestone upgrades, skills used on demand, chips.
"""

from __future__ import annotations

from typing import Any

from companion.errors import RuleError
from companion.frozen import replace
from companion.game import Term
from companion.games.valley_hoopers import splits
from companion.games.valley_hoopers.after_the_shot import no_rebound
from companion.games.valley_hoopers.chips import check_redeem_lv1, redeem_lv1, spend_lv1, spend_lv2
from companion.games.valley_hoopers.fundamentals import grant_fundamental, stellar_now
from companion.games.valley_hoopers.hooper_ops import add_white, apply_injury, recover, score
from companion.games.valley_hoopers.model import FLAT, POSITIONS, STATS, Decision, Hooper, Side, State, other
from companion.games.valley_hoopers.record_parents import with_energy
from companion.games.valley_hoopers.rosters import card_energy, card_stat
from companion.games.valley_hoopers.turn_track import end_attacking_turn

MILESTONES = {1: "stellar + 2 energy", 2: "stat +10 + 1 energy", 3: "+3 energy"}


def _check_coach_token(state: State, side: int, why: str) -> None:
    if state.side(side).coach_tokens < 1:
        locked = len(state.side(side).playbooks)
        hint = " (the rest are locked in playbooks: renounce one first)" if locked else ""
        raise RuleError(f"{state.side(side).name} has no coach action token left to {why}{hint}")


def _spend_coach_token(state: State, side: int, why: str) -> State:
    _check_coach_token(state, side, why)
    return state.with_side(side, replace(state.side(side), coach_tokens=state.side(side).coach_tokens - 1))


def _at_turn_start(state: State, what: str) -> int:
    if state.pending.kind != "play" or not state.turn.fresh:
        raise RuleError(f"{what} only at the beginning of your attacking turn, before any card")
    return state.turn.attacker


def check_timeout(state: State) -> int:
    """Every refusal of a timeout: the side that calls it."""
    side = _at_turn_start(state, "a timeout is called")
    if state.side(side).timeouts < 1:
        raise RuleError(f"{state.side(side).name} has no timeout cube left")
    _check_coach_token(state, side, "call a timeout")
    return side


def call_timeout(state: State) -> State:
    """Coach token + timeout cube: every own hooper +1 energy, substitutions; the opponent gets 2 energies."""
    side = check_timeout(state)
    state = _spend_coach_token(state, side, "call a timeout")
    state = state.with_side(side, replace(state.side(side), timeouts=state.side(side).timeouts - 1))
    for hooper in state.side(side).hoopers:
        if not hooper.out:
            state = recover(state, side, hooper.name, 1)
    state = replace(
        state, turn=replace(state.turn, free_substitutions=True), message=f"timeout {state.side(side).name}"
    )
    return replace(state, decisions=(*state.decisions, Decision(kind="timeout_answer", side=other(side))))


def answer_timeout(state: State, event: dict[str, Any], decision: Decision) -> State:
    """The opponent's share of a timeout: two energies on two hoopers, or a coach token for the lot."""
    side = decision.side if decision.side is not None else 0
    if event.get("coach_token"):
        state = _spend_coach_token(state, side, "take the full timeout")
        for hooper in state.side(side).hoopers:
            if not hooper.out:
                state = recover(state, side, hooper.name, 1)
        if event.get("changes"):
            state = _substitute(state, side, event["changes"], free=True)
        return replace(state, message=f"{state.side(side).name} takes the full timeout for a coach token")
    if event.get("changes"):
        raise RuleError(
            "the opponent of a timeout can't do substitutions unless spending a coach action token"
        )
    names = event.get("hoopers") or []
    hoopers = [state.side(side).hooper(n) for n in names]
    if len(hoopers) != 2 or hoopers[0].name == hoopers[1].name:
        raise RuleError("the two timeout energies go to two different hoopers")
    for hooper in hoopers:
        if hooper.out:
            raise RuleError(f"{hooper.name} is out of the game")
        state = recover(state, side, hooper.name, 1)
    return replace(state, message=f"timeout energy to {hoopers[0].name} and {hoopers[1].name}")


def check_substitute(state: State, event: dict[str, Any]) -> tuple[int, bool]:
    """Every refusal of a substitution: the side that makes it and whether it is free of a token."""
    side = event.get("side")
    if side is None:
        side = state.turn.attacker
    if state.free_substitutions[side]:
        free = True
    else:
        if side != state.turn.attacker:
            raise RuleError(
                f"{state.side(side).name} substitutes at the beginning of an own attacking turn "
                "(or freely before a period starts)"
            )
        _at_turn_start(state, "substitutions are done")
        free = state.turn.free_substitutions
    _, _, pays = _planned(state.side(side), event["changes"], free)
    if pays:
        _check_coach_token(state, side, "do substitutions")
    return side, free


def substitute(state: State, event: dict[str, Any]) -> State:
    """Substitutions: one coach token for any number, free between periods, in a timeout, for Reley Baton."""
    side, free = check_substitute(state, event)
    return _substitute(state, side, event["changes"], free=free)


def _planned(team: Side, changes: dict[str, str],
             free: bool) -> tuple[dict[str, str | None], list[str], bool]:
    """The line-up after ``changes``, who leaves the court, and whether it costs a coach token; the
    refusals of the changes themselves."""
    at = dict(team.placed())  # ``team.at`` of each position, read once
    lineup = {p: (at[p].name if p in at else None) for p in POSITIONS}
    new = dict(lineup)
    for position, name in changes.items():
        hooper = team.hooper(name)
        if hooper.out:
            raise RuleError(f"{hooper.name} is out of the game and can't come back")
        new[position] = hooper.name
    placed = [n for n in new.values() if n]
    if len(placed) != len(set(placed)):
        raise RuleError("a hooper can hold only one position on the court")
    records = {n: team.hooper(n) for n in placed}  # each looked up once (a stuck court's prompt asks often)
    entering = [n for n in placed if records[n].court is None]
    moved = [n for p, n in new.items() if n and records[n].court not in (None, p)]
    leaving = [n for n in lineup.values() if n and n not in placed]
    reley_only = (
        entering and all(records[n].has_skill("free_substitution") for n in entering) and not moved
    )
    return new, leaving, not free and not reley_only


def _substitute(state: State, side: int, changes: dict[str, str], free: bool) -> State:
    new, leaving, pays = _planned(state.side(side), changes, free)
    if pays:
        state = _spend_coach_token(state, side, "do substitutions")
    for position, name in new.items():
        if name is None:
            continue
        hooper = state.side(side).hooper(name)
        if hooper.court == position:
            continue
        onfire = hooper.onfire if hooper.court is not None else FLAT
        state = state.with_hooper(
            side,
            replace(
                hooper, court=position, onfire=onfire, out_of_position=_out_of_position(hooper, position)
            ),
        )
    for name in leaving:
        hooper = state.side(side).hooper(name)
        state = state.with_hooper(side, replace(hooper, court=None, onfire=FLAT, out_of_position=False))
        state = recover(state, side, name, 1)
    return replace(
        state,
        message=f"substitutions {state.side(side).name}: "
        + ", ".join(f"{p} {n}" for p, n in changes.items()),
    )


def _out_of_position(hooper: Hooper, position: str) -> bool:
    return position not in (hooper.first_position, hooper.second_position)


def replace_hooper(state: State, event: dict[str, Any], decision: Decision) -> State:
    """A benchwarmer of the owner's choice takes the position an ejected or injured hooper left."""
    side = decision.side if decision.side is not None else 0
    hooper = state.side(side).hooper(event["hooper"])
    if hooper.out or hooper.court is not None:
        raise RuleError(f"{hooper.name} is not a benchwarmer who can come in")
    position = decision.position or "PG"
    return state.with_hooper(
        side, replace(hooper, court=position, onfire=FLAT, out_of_position=_out_of_position(hooper, position))
    )


def give_white_cube(state: State, event: dict[str, Any], decision: Decision) -> State:
    side = decision.side if decision.side is not None else 0
    hooper = state.side(side).hooper(event["hooper"])
    if hooper.out:
        raise RuleError(f"{hooper.name} is out of the game")
    pending = state.pending
    shoots = pending.kind == "free_throw" and pending.hooper is None and pending.side == side
    if not shoots:
        return add_white(replace(state, message=f"{hooper.name} gets the white cube"), side, hooper.name)
    # A rebound foul in the bonus: the hooper picked for the white cube is the fouled one, he shoots.
    if hooper.court is None:
        raise RuleError(f"{hooper.name} is on the bench: the fouled hooper who shoots is on the court")
    state = replace(
        state,
        pending=replace(pending, hooper=hooper.name),
        message=f"{hooper.name} gets the white cube and shoots two free throws",
    )
    return add_white(state, side, hooper.name)


def reveal_injury(state: State, event: dict[str, Any], decision: Decision) -> State:
    side = decision.side if decision.side is not None else 0
    effect = event["effect"].replace("_", " ")
    message = f"{decision.hooper}'s injury marker: {effect}"
    return apply_injury(replace(state, message=message), side, decision.hooper or "", event["effect"])


def upgrade_eligible(hooper: Hooper) -> bool:
    """Only one upgrade per hooper, and never on a former (printed) stellar hooper."""
    if hooper.stellar is None:
        return False
    return not hooper.upgraded and hooper.milestone is None and not hooper.stellar


def milestone_upgrade(state: State, event: dict[str, Any], decision: Decision) -> State:
    """The period winner's upgrade, on the hooper they pick (Friendly Play: the table picks the side)."""
    side = decision.side
    if side is None:
        side = event.get("side")
    if event.get("hooper") is None or side is None:
        return replace(state, message=f"no milestone upgrade for period {decision.period}")
    hooper = state.side(side).hooper(event["hooper"])
    if hooper.stellar is None:
        raise RuleError(
            f"{hooper.name}'s stellar mark is not entered yet: enter it from {hooper.pronoun} card"
        )
    if not upgrade_eligible(hooper):
        why = (
            "already has an upgrade"
            if (hooper.upgraded or hooper.milestone)
            else "is a former stellar hooper"
        )
        raise RuleError(
            f"{hooper.name} {why}: every hooper gains only one upgrade and a former stellar "
            "hooper can't be upgraded"
        )
    hooper.require_energy()
    energy = {1: 2, 2: 1, 3: 3}[decision.period]
    changes: dict[str, Any] = {
        "milestone": MILESTONES[decision.period],
        "energy_bonus": hooper.energy_bonus + energy,
        "energy": (hooper.energy or 0) + energy,
    }
    if decision.period == 1:
        changes["stellar"] = True
    if decision.period == 2:
        stat = event.get("stat")
        if stat not in STATS:
            raise RuleError(f"the second period's upgrade adds +10 to one stat: name it ({', '.join(STATS)})")
        hooper.require_stat(stat)
        changes["stat_bonus"] = (*hooper.stat_bonus, (stat, 10))
    return replace(
        state.with_hooper(side, replace(hooper, **changes)),
        message=f"{hooper.name} gains the period {decision.period} upgrade",
    )


def cure_teammate(state: State, event: dict[str, Any], decision: Decision) -> State:
    """Maddy Cure scored: one teammate of the owner's choice recovers one energy."""
    side = decision.side if decision.side is not None else 0
    if event.get("hooper") is None:
        return state
    hooper = state.side(side).hooper(event["hooper"])
    if hooper.name == decision.hooper:
        raise RuleError(f"{hooper.name}'s skill gives the energy to a teammate")
    if hooper.out:
        raise RuleError(f"{hooper.name} is out of the game")
    return recover(state, side, hooper.name, 1)


def donate_energy(state: State, event: dict[str, Any]) -> State:
    """May Friend gives one of her energies to a teammate who is not exhausted."""
    side = state.owner(event["hooper"])
    giver = state.side(side).hooper(event["hooper"])
    if not giver.has_skill("donates_energy"):
        raise RuleError(f"{giver.name} can't donate energy: that is May Friend's skill")
    if giver.out or giver.require_energy() < 1:
        raise RuleError(f"{giver.name} has no energy left")
    taker = state.side(side).hooper(event["to"])
    if taker.out or taker.name == giver.name:
        raise RuleError(f"{taker.name} can't take {giver.name}'s energy")
    if taker.require_energy() < 1:
        raise RuleError(f"{taker.name} is exhausted: {giver.name} donates only to teammates with energy left")
    state = state.with_hooper(side, with_energy(giver, giver.require_energy() - 1))
    return recover(state, side, taker.name, 1)


def activate_playbook(state: State, event: dict[str, Any]) -> State:
    """After a successful F1: lock a coach token into a common playbook (own playbooks are active already)."""
    if state.pending.kind == "counter_window":
        state = grant_fundamental(state, state.pending)
    turn = state.turn
    if (
        state.pending.kind != "play"
        or turn.played("F1") is None
        or turn.played("F2") is not None
        or turn.playbook is not None
    ):
        raise RuleError("a playbook is activated right after a successful F1, before F2")
    side = turn.attacker
    name = event["name"]
    if event.get("common", True):
        state = _spend_coach_token(state, side, "activate a common playbook")
        if state.series is not None:
            # The Series counts the playbooks on the scoreboard: refills are partial (turn_track).
            if state.series.common_playbooks < 1:
                raise RuleError("no common playbook is left on the scoreboard until the next refill")
            state = state.with_series(common_playbooks=state.series.common_playbooks - 1)
    elif name not in state.side(side).playbooks:
        raise RuleError(f"{name!r} is not one of {state.side(side).name}'s active playbooks")
    return replace(
        state,
        turn=replace(
            state.turn,
            playbook=name,
            playbook_common=bool(event.get("common", True)),
            playbook_chip=bool(event.get("chip", False)),
        ),
        message=f"playbook {name}: F2 and A can't be countered or defended",
    )


def playbook_reward(state: State, event: dict[str, Any]) -> State:
    """A scored playbook: F2+A energy back, two cards, or one of each; a common one is achieved."""
    if state.pending.kind != "playbook_reward":
        raise RuleError("there is no playbook reward to choose now")
    side = state.turn.attacker
    reward = event["reward"]
    spenders = dict(state.turn.spent)
    wanted = {"energy": ("F2", "A"), "draw2": (), "mixed": (event.get("slot") or "",)}[reward]
    if reward == "mixed" and event.get("slot") not in ("F2", "A"):
        raise RuleError("one of each: name the slot whose energy comes back (F2 or A)")
    for slot in wanted:
        if slot in spenders:
            state = recover(state, side, spenders[slot], 1)
    team = state.side(side)
    if state.turn.playbook_common and state.turn.playbook not in team.playbooks:
        state = state.with_side(side, replace(team, playbooks=(*team.playbooks, state.turn.playbook or "")))
    if state.turn.playbook_chip and state.pending.hooper:
        hooper = state.side(side).hooper(state.pending.hooper)
        state = state.with_hooper(side, replace(hooper, chips_lv1=hooper.chips_lv1 + 1))
        if state.series is not None and state.series.chips_lv1 > 0:
            # "Put a new chip on the playbook card": from the stock, while it lasts.
            state = state.with_series(chips_lv1=state.series.chips_lv1 - 1)
    return end_attacking_turn(state, began_after="score")


def renounce_playbook(state: State, event: dict[str, Any]) -> State:
    side = event["side"]
    team = state.side(side)
    if event["name"] not in team.playbooks:
        raise RuleError(f"{event['name']!r} is not one of {team.name}'s playbooks")
    playbooks = list(team.playbooks)
    playbooks.remove(event["name"])
    return state.with_side(
        side, replace(team, playbooks=tuple(playbooks), coach_tokens=team.coach_tokens + 1)
    )


def coach_cards(state: State, event: dict[str, Any]) -> State:
    """A coach token at any time: draw 3 cards, or discard some and draw as many."""
    side = event["side"]
    state = _spend_coach_token(state, side, "draw or change cards")
    what = "draws 3 cards" if event["action"] == "draw3" else "discards and draws as many cards"
    return replace(state, message=f"{state.side(side).name} {what}")


def check_redeem(state: State, event: dict[str, Any]) -> tuple[int, str]:
    """Every refusal of a LV.1 chip redeemed: its hooper's side and name."""
    side = state.owner(event["hooper"])
    hooper = state.side(side).hooper(event["hooper"])
    check_redeem_lv1(state, hooper)
    return side, hooper.name


def redeem(state: State, event: dict[str, Any]) -> State:
    side, name = check_redeem(state, event)
    return redeem_lv1(replace(state, message=f"{name} redeems an Onfire LV.1 chip"), side, name)


def tribe_power(state: State) -> State:
    """Unleashed: after winning the ball back, play the card's other action; the token stays.

    After a defended miss it is used before the opponent may try an offensive rebound, so it is
    also accepted in the opponent's rebound window, where it takes the defensive rebound.
    """
    pending = state.pending
    if (
        pending.kind == "rebound_window"
        and pending.defended
        and state.side(other(pending.side)).tribe == "unleashed"
    ):
        state = no_rebound(state)
    side = _at_turn_start(state, "the Unleashed tribe power is used")
    if state.side(side).tribe != "unleashed":
        raise RuleError(f"{state.side(side).name} is not the Unleashed: no such tribe power")
    if state.turn.began_after not in ("counter", "defended_miss"):
        raise RuleError("the Unleashed tribe power follows a successful counter or a defended failed attack")
    return replace(
        state,
        turn=replace(state.turn, tribe_power=True, second_use_pending=True),
        message="Unleashed tribe power: the second action of the card",
    )


def play_chip(state: State, event: dict[str, Any]) -> State:
    """Spend an Onfire chip by its revealed effect (LV.2 effects, and LV.1 counter removals)."""
    effect = event["effect"]
    side = state.owner(event["hooper"])
    hooper = state.side(side).hooper(event["hooper"])
    if effect in ("remove_intercept", "remove_steal"):
        return _remove_counter(state, side, hooper, effect)
    if effect in ("boost", "unstoppable", "block"):
        raise RuleError(f"a {effect} chip is spent with the card it boosts (the chip field)")
    if effect == "no_way_block":
        raise RuleError('a No Way Block is spent as a defense: defend with block "no_way"')
    if effect == "never_give_up":
        state = spend_lv2(state, side, hooper.name)
        return state.with_side(
            side, replace(state.side(side), coach_tokens=state.side(side).coach_tokens + 1)
        )
    if effect == "energy_drink":
        state = spend_lv2(state, side, hooper.name)
        fresh = state.side(side).hooper(hooper.name)
        fresh.require_energy()
        return state.with_hooper(side, replace(fresh, energy=fresh.max_energy))
    if effect == "goal_tending":
        pending = state.pending
        if pending.kind != "rebound_window" or pending.side != side:
            raise RuleError("Goal Tending is spent right after an own unsuccessful attack")
        state = spend_lv2(state, side, hooper.name)
        state = score(state, side, pending.hooper, pending.points)
        if pending.hooper is not None:
            state = splits.made_after_all(state, side, pending.hooper, pending.points, made=True)
        return end_attacking_turn(replace(state, message=f"Goal Tending: {pending.points} points"), "score")
    if side != state.turn.attacker or state.pending.kind != "play" or not state.turn.fresh:
        raise RuleError(f"{effect.replace('_', ' ')} is spent at the beginning of your attacking turn")
    after = state.turn.began_after
    if effect == "buzzer_beater":
        state = spend_lv2(state, side, hooper.name)
        return replace(state, turn=replace(state.turn, buzzer_beater=True, lost_slots=("F1", "F2")))
    if effect == "fast_break" and after not in ("counter", "miss", "defended_miss"):
        raise RuleError("Fast Break follows a successful counter or an opponent's unsuccessful attack")
    if effect in ("coast_to_coast", "tap_out") and after != "score":
        raise RuleError(f"{effect.replace('_', ' ')} follows a successful attack by the opponent")
    state = spend_lv2(state, side, hooper.name)
    if effect == "tap_out":
        last = state.last_attack
        if last is None or last[0] != other(side):
            raise RuleError("there is no opponent's successful attack to tap out")
        state = score(state, last[0], last[1], -last[2])
        state = splits.made_after_all(state, last[0], last[1], last[2], made=False)
        return replace(state, last_attack=None, message=f"Tap-Out: {last[1]}'s basket does not count")
    state = score(state, side, hooper.name, 2)
    return end_attacking_turn(replace(state, message=f"{effect.replace('_', ' ')}: 2 points"), "score")


def _remove_counter(state: State, side: int, hooper: Hooper, effect: str) -> State:
    pending = state.pending
    kind = "intercept" if effect == "remove_intercept" else "steal"
    if pending.kind not in ("counter_check", "counter_roll") or pending.hooper != hooper.name:
        raise RuleError(f"the chip removes an opponent's {kind} against {hooper.name}, before it is resolved")
    wanted = "steal" if pending.action == "dribble" else "intercept"
    if wanted != kind:
        raise RuleError(f"the counter on the table is a {wanted}, not a {kind}")
    state, reused = spend_lv1(state, side, hooper.name, effect)
    extra = (Term(f"Onfire chip {hooper.name}", 10),) if stellar_now(hooper) and not reused else ()
    return grant_fundamental(
        replace(state, message=f"{hooper.name}'s chip removes the {kind}"), replace(pending, side=side), extra
    )


def enter_card(state: State, event: dict[str, Any]) -> State:
    """Fill in what a card shows and the companion does not know yet; entered values are not overwritten."""
    side = event.get("side")
    if side is None:
        side = state.owner(event["hooper"])
    hooper = state.side(side).hooper(event["hooper"])
    changes: dict[str, Any] = {}
    for stat, value in (event.get("stats") or {}).items():
        card_stat(stat, value, hooper.name)  # the same check as the roster and the setup
        if dict(hooper.stats).get(stat) is not None:
            raise RuleError(f"{hooper.name}'s {stat} is already entered ({dict(hooper.stats)[stat]})")
        changes.setdefault("stats", dict(hooper.stats))[stat] = value
    if "stats" in changes:
        changes["stats"] = tuple((s, changes["stats"].get(s)) for s in STATS)
    for field in ("first_position", "second_position", "stellar", "defense_positions"):
        if event.get(field) is not None:
            if getattr(hooper, field) is not None:
                raise RuleError(f"{hooper.name}'s {field.replace('_', ' ')} is already entered")
            changes[field] = tuple(event[field]) if field == "defense_positions" else event[field]
    if event.get("energy") is not None:
        card_energy(event["energy"], hooper.name)
        if hooper.base_energy is not None:
            raise RuleError(f"{hooper.name}'s energy is already entered ({hooper.base_energy})")
        changes["base_energy"] = event["energy"]
        changes["energy"] = event["energy"] + hooper.energy_bonus
    if not changes:
        raise RuleError(f"nothing to enter for {hooper.name}")
    hooper = replace(hooper, **changes)
    if hooper.court is not None:
        hooper = replace(hooper, out_of_position=_out_of_position(hooper, hooper.court))
    return replace(state.with_hooper(side, hooper), message=f"{hooper.name}'s card updated")
