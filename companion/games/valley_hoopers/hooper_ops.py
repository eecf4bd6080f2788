"""What happens to one hooper: energy spent and recovered, red and white cubes, the Onfire track.

Each function takes a state and returns a new one; the ones that can refuse raise ``RuleError``
with the hooper's name in it.
"""

from __future__ import annotations

from companion.errors import RuleError
from companion.frozen import replace
from companion.games.valley_hoopers.model import FLAT, LV1_SPACE, Decision, Hooper, State, bump
from companion.games.valley_hoopers.record_parents import with_energy


def queue(state: State, decision: Decision) -> State:
    """Add a choice the table must make before play goes on."""
    return replace(state, decisions=(*state.decisions, decision))


def check_can_act(hooper: Hooper, on_court: bool = True) -> None:
    """Refuse a hooper who can't be assigned to a card: out, on the bench, exhausted."""
    refused = can_act_refusal(hooper, on_court)
    if refused is not None:
        raise refused


def can_act_refusal(hooper: Hooper, on_court: bool = True) -> RuleError | None:
    """The refusal ``check_can_act`` raises, returned (a prompt judging a court's cards keeps it for
    each of the hooper's cards)."""
    if hooper.ejected:
        return RuleError(f"{hooper.name} has been ejected")
    if hooper.injured_out:
        return RuleError(f"{hooper.name} is injured and out of the game")
    if on_court and hooper.court is None:
        return RuleError(f"{hooper.name} is on the bench")
    if hooper.require_energy() <= 0:
        return RuleError(f"{hooper.name} has no energy left")
    return None


def spend_energy(state: State, side: int, name: str, free: bool = False, payer: str | None = None) -> State:
    """One energy for one card, from the hooper who played it (or a teammate, for Lance Endure)."""
    hooper = state.side(side).hooper(name)
    check_can_act(hooper, on_court=False)
    if free:
        return state
    if payer is not None and payer != hooper.name:
        if not hooper.has_skill("spends_teammates_energy"):
            raise RuleError(
                f"{hooper.name} can't spend {payer}'s energy: only Lance Endure's skill allows it"
            )
        giver = state.side(side).hooper(payer)
        if giver.out or giver.require_energy() <= 0:
            raise RuleError(f"{giver.name} has no energy left to give {hooper.name}")
        return state.with_hooper(side, with_energy(giver, giver.require_energy() - 1))
    return state.with_hooper(side, with_energy(hooper, hooper.require_energy() - 1))


def recover(state: State, side: int, name: str, amount: int = 1) -> State:
    """A hooper recovers energy up to the maximum; Never Tired always recovers one extra."""
    hooper = state.side(side).hooper(name)
    if hooper.energy is None or hooper.max_energy is None or amount <= 0:
        return state
    if hooper.has_skill("extra_recovery"):
        amount += 1
    energy = min(hooper.max_energy, hooper.energy + amount)
    if energy == hooper.energy:
        # Already full (a benchwarmer, most turns): the record, its side and their JSON stay the same
        # objects, so nothing shown is counted again.
        return state
    return state.with_hooper(side, with_energy(hooper, energy))


def recover_to(state: State, side: int, name: str, below_max: int) -> State:
    """Energy set to ``below_max`` steps under the maximum, never lowered (the "full -1" icon)."""
    hooper = state.side(side).hooper(name)
    if hooper.energy is None or hooper.max_energy is None:
        return state
    gap = 0 if hooper.has_skill("extra_recovery") else below_max
    energy = max(hooper.energy, hooper.max_energy - gap)
    if energy == hooper.energy:
        return state  # nothing to recover: the same record (``recover``)
    return state.with_hooper(side, with_energy(hooper, energy))


def add_red(state: State, side: int, name: str, team_foul: bool = True) -> State:
    """A foul cube; the ejection threshold sends the hooper to the bench face down for good."""
    hooper = state.side(side).hooper(name)
    hooper = replace(hooper, red=hooper.red + 1)
    if team_foul:
        state = replace(state, team_fouls=bump(state.team_fouls, side, 1))
    if hooper.red >= state.ejection_reds and not hooper.ejected:
        position = hooper.court
        state = state.with_hooper(side, replace(hooper, ejected=True, court=None))
        state = replace(state, message=f"{hooper.name} is ejected ({hooper.red} fouls)")
        return _needs_replacement(state, side, position)
    return state.with_hooper(side, hooper)


def _needs_replacement(state: State, side: int, position: str | None) -> State:
    if position is not None and state.side(side).bench():
        return queue(state, Decision(kind="replace", side=side, position=position))
    return state


def add_white(state: State, side: int, name: str) -> State:
    """An injury cube; at the threshold the cubes go and an injury marker is drawn."""
    hooper = state.side(side).hooper(name)
    hooper = replace(hooper, white=hooper.white + 1)
    if hooper.white >= state.injury_whites:
        state = state.with_hooper(side, replace(hooper, white=0))
        return queue(state, Decision(kind="injury", side=side, hooper=hooper.name))
    return state.with_hooper(side, hooper)


def apply_injury(state: State, side: int, name: str, effect: str) -> State:
    """The revealed injury marker, permanent until the end of the game."""
    hooper = state.side(side).hooper(name)
    hooper = replace(hooper, injuries=(*hooper.injuries, effect))
    if effect == "out":
        position = hooper.court
        state = state.with_hooper(side, replace(hooper, injured_out=True, court=None))
        return _needs_replacement(state, side, position)
    return state.with_hooper(side, hooper)


def move_onfire(state: State, side: int, name: str, step: int) -> State:
    """One step on the Onfire track: LV.II gives a LV.2 chip, the cube space an injury cube.

    Falling while at LV.I (going for the LV.2 chip) drops straight back to flat. In The Series, with
    the LV.2 stock empty there is no LV.II chip to reach: the token stays on LV.I.
    """
    hooper = state.side(side).hooper(name)
    if hooper.court is None:
        return state
    spot = hooper.onfire
    if step > 0:
        spot += 1
        if spot > LV1_SPACE:
            if state.series is not None:
                if state.series.chips_lv2 < 1:
                    return state
                state = state.with_series(chips_lv2=state.series.chips_lv2 - 1)
            return state.with_hooper(side, replace(hooper, onfire=FLAT, chips_lv2=hooper.chips_lv2 + 1))
        return state.with_hooper(side, replace(hooper, onfire=spot))
    if spot == LV1_SPACE:
        return state.with_hooper(side, replace(hooper, onfire=FLAT))
    spot -= 1
    if spot <= 0:
        state = state.with_hooper(side, replace(hooper, onfire=FLAT))
        return add_white(state, side, hooper.name)
    return state.with_hooper(side, replace(hooper, onfire=spot))


def score(state: State, side: int, name: str | None, points: int) -> State:
    """Points on the score track and on the scorer's points marker."""
    state = replace(state, score=bump(state.score, side, points))
    if name is not None:
        hooper = state.side(side).hooper(name)
        state = state.with_hooper(side, replace(hooper, points=hooper.points + points))
    return state
