"""F1 and F2: dribble, pass and screen, the screen's foul check, and giving up the ball.

A fundamental's bonus counts once nobody counters it (or the counter fails).
"""

from __future__ import annotations

from typing import Any

from companion.errors import RuleError
from companion.frozen import replace
from companion.game import Term
from companion.games.valley_hoopers.ball import after_card, check_card
from companion.games.valley_hoopers.chips import spend_lv1
from companion.games.valley_hoopers.fouls import foul_outcome
from companion.games.valley_hoopers.hooper_ops import (
    add_red,
    check_can_act,
    queue,
    spend_energy,
)
from companion.games.valley_hoopers.model import (
    Decision,
    Hooper,
    Pending,
    Slot,
    State,
    new_pending,
    other,
)
from companion.games.valley_hoopers.turn_track import end_attacking_turn
from companion.games.valley_hoopers.upgrade_cards import improvement, sleeved
from companion.games.valley_hoopers.waiting import describe_wait

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


def stellar_now(hooper: Hooper) -> bool:
    """Playing in a stellar position: stellar card (or star upgrade) and on the first position."""
    if hooper.stellar is None:
        raise RuleError(
            f"{hooper.name}'s stellar mark is not entered yet: enter it from {hooper.pronoun} card"
        )
    return hooper.stellar and hooper.court == hooper.first_position


def chip_terms(
    state: State, side: int, hooper: Hooper, chip: str | None
) -> tuple[State, tuple[Term, ...], bool]:
    """Spend a LV.1 chip on a card: the +10 it gives and whether the card can't be countered/defended."""
    if chip is None:
        return state, (), False
    state, reused = spend_lv1(state, side, hooper.name, chip)
    stellar = stellar_now(hooper) and not reused
    if chip == "boost":
        return state, (Term(f"Onfire chip {hooper.name}", 10),), stellar
    if chip == "unstoppable":
        return state, ((Term(f"Onfire chip {hooper.name}", 10),) if stellar else ()), True
    raise RuleError(f"a {chip} chip is not played on a card")


def spend_block_chip(state: State, side: int, hooper: Hooper) -> tuple[State, str]:
    """Spend the LV.1 block chip; the block it makes: ``stellar_chip`` or ``chip``.

    "Your defense or counter becomes a block. If your hooper is stellar and does not commit any
    foul, then he/she recovers the ball": a stellar blocker (on the first position, as for every
    chip's stellar half) wins the ball on every face but a foul. Muy Schillato's chip used again
    has no stellar half.
    """
    state, reused = spend_lv1(state, side, hooper.name, "block")
    return state, ("stellar_chip" if not reused and stellar_now(hooper) else "chip")


def spend_no_way_chip(state: State, side: int, hooper: Hooper) -> State:
    """Spend the LV.2 No Way Block: "You gain a block (it could be spend to substitute any defense or
    counter), if you do not commit foul, then you recover the ball" (``block_outcome("no_way", ...)``)."""
    if hooper.chips_lv2 < 1:
        raise RuleError(f"{hooper.name} has no Onfire LV.2 chip for a No Way Block")
    blocker = state.side(side).hooper(hooper.name)
    return state.with_hooper(side, replace(blocker, chips_lv2=blocker.chips_lv2 - 1))


def mark_first_card(state: State, **changes: Any) -> State:
    """The first card of a period closes the free substitutions; ``changes`` (the card's turn, pending
    and message) go in the same copy of the state, not one copy each."""
    return replace(state, free_substitutions=(False, False), reminders=(), **changes)


def _next_fundamental_slot(state: State) -> str:
    turn = state.turn
    if turn.buzzer_beater:
        raise RuleError("a Buzzer Beater turn is played in slot A only: play an attack")
    for slot in ("F1", "F2"):
        if turn.played(slot) is None and slot not in turn.lost_slots:
            return slot
    raise RuleError("F1 and F2 are used: play an attack or end the turn")


def close_counter_window(state: State) -> State:
    """Nobody counters the fundamental: its bonus counts."""
    pending = state.pending
    if pending.kind != "counter_window":
        return state
    return grant_fundamental(state, pending)


def card_improvement(state: State, side: int, hooper: Hooper, name: Any, action: str) -> tuple[Term, ...]:
    """The improvement of the action upgrade ``name`` sleeved on the card played (none without one)."""
    if name is None:
        return ()
    card = sleeved(state.side(side).action_upgrades, name, state.side(side).name)
    term = improvement(card, action, stellar_now(hooper))
    return () if term is None else (term,)


def grant_fundamental(state: State, pending: Pending, extra: tuple[Term, ...] = ()) -> State:
    """The fundamental went through: its bonus (and its chip's and upgrade card's) join the attack's."""
    bonus = (Term(pending.action or "fundamental", pending.bonus),) if pending.bonus else ()
    if pending.chip_bonus:
        bonus = (*bonus, Term(f"Onfire chip {pending.hooper}", pending.chip_bonus))
    if pending.upgrade is not None:
        bonus = (*bonus, Term(*pending.upgrade))
    turn = replace(state.turn, bonuses=(*state.turn.bonuses, *bonus, *extra))
    return replace(state, turn=turn, pending=new_pending(kind="play", side=turn.attacker))


def check_fundamental(state: State, event: dict[str, Any]) -> tuple[str, Hooper]:
    """Every refusal of a fundamental card that comes before it changes the table (all of them, for a
    card without a chip, an upgrade or another payer): its slot and its hooper.

    A counter window still open closes first (``close_counter_window``); closing it changes neither
    the slots, the ball nor the hoopers, so the checks read the same before and after.
    """
    slot = check_fundamental_step(state)
    hooper = acting_hooper(state, event)
    check_fundamental_card(state, hooper, event["action"])
    return slot, hooper


def check_fundamental_card(state: State, hooper: Hooper, action: str) -> None:
    """The refusal of an ``action`` card by a ``hooper`` who can act: the ball's dynamics."""
    check_card(state.turn.ball, action, hooper.name, hooper.subject)


def check_fundamental_step(state: State) -> str:
    """The refusals of a fundamental that read only the step (no card, no hooper): the slot it takes."""
    if state.pending.kind not in ("play", "counter_window"):
        raise RuleError(
            f"a fundamental is played by the attacker in F1 or F2, not now: {describe_wait(state)}"
        )
    return _next_fundamental_slot(state)


def acting_hooper(state: State, event: dict[str, Any]) -> Hooper:
    """The attacker's hooper who plays a card (``court_hooper``), refused when he or she can't act."""
    hooper = court_hooper(state, state.turn.attacker, event)
    check_can_act(hooper)
    return hooper


def play_fundamental(state: State, event: dict[str, Any]) -> State:
    """F1 or F2: dribble (+15), pass or screen (the card's bonus, 25 unless told otherwise)."""
    slot, hooper = check_fundamental(state, event)
    state = close_counter_window(state)
    side = state.turn.attacker
    action = event["action"]
    free = (action == "pass" and hooper.has_skill("free_pass")) or (
        action == "screen" and hooper.has_skill("free_screen")
    )
    if state.turn.second_use_pending and hooper.name == state.turn.retriever:
        free = True  # Unleashed power: one energy when the same hooper plays both halves of the card
    state = spend_energy(state, side, hooper.name, free=free, payer=event.get("energy_from"))
    state, chip_bonus, unstoppable = chip_terms(state, side, hooper, event.get("chip"))
    upgrade = card_improvement(state, side, hooper, event.get("upgrade"), action)
    bonus = DEFAULT_BONUS[action] if action == "dribble" else event.get("bonus", DEFAULT_BONUS[action])
    turn = state.turn
    spent = turn.spent if free else (*turn.spent, (slot, event.get("energy_from") or hooper.name))
    second_use = turn.second_use_pending
    turn = replace(
        turn,
        slots=(*turn.slots, Slot(slot, action, hooper.name)),
        ball=after_card(turn.ball, action, hooper.name),
        spent=spent,
        rebound_bonus_for=None,
        second_use_pending=False,
    )
    # The chip's +10 goes with the card: it counts when the card does, and is lost with its slot.
    card = {"action": action, "hooper": hooper.name, "bonus": bonus, "second_use": second_use,
            "chip_bonus": sum(t.value for t in chip_bonus),
            "upgrade": (upgrade[0].label, upgrade[0].value) if upgrade else None}
    message = f"{hooper.name} plays a {action} in {slot}"
    if action == "screen":
        return mark_first_card(state, turn=turn, message=message,
                               pending=new_pending("screen_check", side, **card))
    if unstoppable or turn.playbook is not None:
        return grant_fundamental(mark_first_card(state, turn=turn, message=message),
                                 new_pending("play", side, **card))
    return mark_first_card(state, turn=turn, message=message,
                           pending=new_pending("counter_window", other(side), **card))


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
    return grant_fundamental(replace(state, message=f"{pending.hooper}'s screen is clean"), pending)


def check_no_counter(state: State) -> None:
    """The refusal of "no counter": there is no counter window open."""
    if state.pending.kind != "counter_window":
        raise RuleError("there is no fundamental to counter now")


def no_counter(state: State) -> State:
    """The opponent lets the fundamental go: its bonus counts (the log says so, in its own words)."""
    check_no_counter(state)
    pending = state.pending
    bonus = pending.bonus + pending.chip_bonus + (pending.upgrade[1] if pending.upgrade else 0)
    message = f"{state.side(pending.side).name} lets {pending.hooper}'s {pending.action} go: +{bonus}"
    return close_counter_window(replace(state, message=message))


def check_end_turn(state: State) -> None:
    """The refusal of an ended turn: the attacker is not the one to play."""
    if state.pending.kind not in ("play", "counter_window"):
        raise RuleError(f"the attacking turn can't be given up now: {describe_wait(state)}")


def end_turn(state: State) -> State:
    """The attacker can't (or won't) attack: the ball goes to the opponent."""
    check_end_turn(state)
    return end_attacking_turn(
        replace(state, message=f"{state.side(state.turn.attacker).name} gives up the ball"),
        began_after="turnover",
    )
