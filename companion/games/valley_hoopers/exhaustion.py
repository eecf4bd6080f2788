"""When nobody on the attacker's court can play a card: how the rules give energy back, and the one
tie nothing can break.

"If you are not able to attack, for example if you are out of energy or out of cards, you need to end
up your turn and give to your opponent the ball." Overtimes recover no energy ("If an overtime will be
played the hoopers don't recover any energy"), but energy still comes back three ways: a hooper sent
to the bench "immediately recovers one energy" (substitutions are free "when a period ends, before
starting the new one", else one coach action token), a timeout or its coach-token twin, and the LV.2
chips (Energy Drink, Never Give Up, or the scoring chips). Only when both sides have none of them left
can no card ever be played again; the rulebook then still plays "as many overtimes as needed to
decleare a winner", so the tie goes on for ever and the prompt says so (``deadlock``).

>>> from companion.games.valley_hoopers.model import Hooper
>>> exhausted(Hooper("A", energy=0)), exhausted(Hooper("B", energy=1)), exhausted(Hooper("C"))
(True, False, False)
"""

from __future__ import annotations

from typing import Any

from companion.games.valley_hoopers.model import POSITIONS, Side, State


def exhausted(hooper: Any) -> bool:
    """Out of energy (a card whose energy is not entered yet is not known to be)."""
    return hooper.energy is not None and hooper.energy <= 0


def _side_has_a_way_back(team: Side) -> bool:
    playing = [h for h in team.hoopers if not h.out]
    if any(not exhausted(h) for h in playing):
        return True
    if team.bench():  # a court hooper swapped for a benchwarmer recovers one energy
        return True
    # Coach tokens, free or locked in a playbook (renouncing frees it): a timeout or a substitution.
    if team.coach_tokens or team.playbooks:
        return True
    return any(h.chips_lv2 for h in playing)


def deadlock(state: State) -> bool:
    """No card can ever be played again by either side: every hooper still in the game is out of
    energy, nobody sits on a bench to swap, no coach token (free or locked) and no LV.2 chip is left."""
    return not any(_side_has_a_way_back(state.side(side)) for side in (0, 1))


def substitution_candidates(state: State, side: int) -> list[tuple[str, dict[str, Any]]]:
    """One swap per exhausted court hooper and benchwarmer: the one leaving recovers one energy."""
    team = state.side(side)
    candidates = []
    for position in POSITIONS:
        leaving = team.at(position)
        if leaving is None or not exhausted(leaving):
            continue
        for entering in team.bench():
            label = (f"substitute {entering.name} for {leaving.name} at {position} "
                     f"({leaving.name} recovers one energy on the bench)")
            candidates.append((label, {"type": "substitute", "side": side,
                                       "changes": {position: entering.name}}))
    return candidates


def stuck_text(state: State, side: int, can_substitute: bool) -> str:
    """The prompt's words when the attacker has no card it can play."""
    name = state.side(side).name
    if deadlock(state) and state.score[0] != state.score[1]:
        return (f"{name}: nobody can play a card any more (every hooper of both sides is out of energy): "
                "end the turns until the game ends")
    if deadlock(state):
        return (f"{name}: nobody can play a card any more: every hooper of both sides is out of energy, no "
                "benchwarmer, coach token or LV.2 chip is left to give any back. The rulebook plays "
                "overtimes until a winner and has no other way out: this tie can't be broken "
                "(end the turn, or the table agrees to stop)")
    if can_substitute:
        return (f"{name}: nobody on the court has energy for a card: substitute (the hooper going to the "
                "bench recovers one energy) or end the turn")
    return (f"{name}: nobody on the court has energy for a card: end the turn (\"If you are not able to "
            "attack ... end up your turn\"); free substitutions before the next period give energy back "
            "(the hooper going to the bench recovers one)")
