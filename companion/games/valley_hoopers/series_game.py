"""The Series inside one game: the Series track read from the events, Home's Onfire step on a
successful tribe power.

``after_event(before, event, after)`` runs after every accepted event of a game of The Series
(``rules.resolve``), so replay, undo and the offered choices all see the same marker moves.

The Series track: "Move the Tribe marker on the series mini track one step towards your board every
time that the condition displayed is satisfied. Before moving the marker from the central zone, if
it does not show your tribe, flip it and remain there. If you should move the marker outside the
track (follow the arrows) place it on the action upgrade card. This milestone will no longer be
triggered."

>>> from companion.games.valley_hoopers.model import SeriesGame
>>> g = SeriesGame(number=1, home=0, condition="playbook", track_steps=2, track_face=0)
>>> g = track_move(g, 1); (g.track, g.track_face)   # side 1 at the centre, the marker shows side 0: flip
(0, 1)
>>> g = track_move(track_move(g, 1), 1); (g.track, g.track_off)
(-2, False)
>>> track_move(g, 1).track_off
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import CompanionError, RuleError
from companion.games.valley_hoopers.hooper_ops import move_onfire
from companion.games.valley_hoopers.model import SeriesGame, State

# The condition markers, in the rulebook's order (a fundamental or a counter is named on its marker).
CONDITIONS = {
    "stellar": "a successful stellar action (Onfire chip or [star] upgrade card)",
    "and_one": "an attack scored while fouled, plus the additional free throw",
    "over_100": "an attack whose value to score overpasses 100 (defense included)",
    "playbook": "a successful playbook",
    "after_dribble": "a score straight after a dribble",
    "after_pass": "a score straight after a pass",
    "after_screen": "a score straight after a screen",
    "steal": "the ball recovered with a steal",
    "intercept": "the ball recovered with an intercept",
    "rebound": "the ball recovered with an offensive rebound",
}
# The markers as a standing player finds the one drawn at a glance (a button's words, a grid's row).
MARKER_NAMES = {
    "stellar": "Stellar action",
    "and_one": "And-one",
    "over_100": "Over 100",
    "playbook": "Playbook",
    "after_dribble": "Score after dribble",
    "after_pass": "Score after pass",
    "after_screen": "Score after screen",
    "steal": "Steal",
    "intercept": "Intercept",
    "rebound": "Offensive rebound",
}


def toward(side: int) -> int:
    """The direction of ``side``'s board on the track (side 0 counts up, side 1 down)."""
    return 1 if side == 0 else -1


def track_move(game: SeriesGame, side: int) -> SeriesGame:
    """``side`` met the condition: the Tribe marker flips at the centre, steps, or leaves the track."""
    if game.track_off:
        return game
    if game.track == 0 and game.track_face != side:
        return replace(game, track_face=side)
    position = game.track + toward(side)
    if abs(position) > game.track_steps:
        return replace(game, track_off=True)
    return replace(game, track=position)


def track_words(game: SeriesGame, names: tuple[str, str]) -> str:
    """Where the Tribe marker is, in words: "on Karl's action upgrade card", "1 step towards Lucy"."""
    shown = names[game.track_face]
    if game.track_off:
        return f"off the track, on the action upgrade card ({shown})"
    if game.track == 0:
        return f"in the centre, showing {shown}"
    side = 0 if game.track > 0 else 1
    steps = abs(game.track)
    return f"{steps} step{'s' if steps > 1 else ''} towards {names[side]}, showing {shown}"


def _scored_attack(before: State, after: State) -> int | None:
    """The side whose attack (2 or 3 points, not a free throw) scored in this event."""
    for side in (0, 1):
        gained = after.score[side] - before.score[side]
        if gained >= 2 and after.last_attack is not None and after.last_attack[0] == side:
            return side
    return None


def _last_fundamental(before: State) -> str | None:
    fundamentals = [s for s in before.turn.slots if s.slot in ("F1", "F2")]
    return fundamentals[-1].action if fundamentals else None


def _stellar_attack(before: State, after: State, side: int) -> bool:
    """The scorer spent a LV.1 chip on the attack with its stellar extra (a +10 labelled with the chip),
    or the turn's attack scored with a [star] action upgrade's improvement ("by Onfire chips or
    upgraded action card")."""
    from companion.games.valley_hoopers.fundamentals import stellar_now

    scorer = after.last_attack[1] if after.last_attack else None
    if scorer is None:
        return False
    hooper = before.side(side).hooper(scorer)
    # A [star] action upgrade's improvement counts only on a stellar position: its term is the mark.
    star_cards = {c.label for c in before.side(side).action_upgrades if c.condition == "star"}
    if any(t.label in star_cards for t in before.turn.bonuses):
        return True
    labelled = any(t.label == f"Onfire chip {scorer}" for t in before.turn.bonuses)
    try:
        return labelled and stellar_now(hooper)
    except CompanionError:
        return False


def condition_met(before: State, event: Mapping[str, Any], after: State) -> int | None:
    """The side that met the game's condition marker with this event, if any (read from the event)."""
    assert before.series is not None
    condition = before.series.condition
    kind = event.get("type")
    scorer = _scored_attack(before, after)
    if condition == "playbook":
        return before.turn.attacker if kind == "playbook_reward" else None
    if condition == "and_one":
        pending = before.pending
        made = pending.kind == "free_throw" and after.score[pending.side] > before.score[pending.side]
        return pending.side if kind == "roll" and made and pending.after_score else None
    if condition == "over_100":
        value = after.last_attack_value
        return scorer if scorer is not None and value is not None and value > 100 else None
    if condition.startswith("after_"):
        wanted = condition.removeprefix("after_")
        return scorer if scorer is not None and _last_fundamental(before) == wanted else None
    if condition == "stellar":
        return scorer if scorer is not None and _stellar_attack(before, after, scorer) else None
    if condition in ("steal", "intercept"):
        pending = before.pending
        if pending.kind not in ("counter_check", "counter_roll") or after.turn.began_after != "counter":
            return None
        made = "steal" if pending.action == "dribble" else "intercept"
        return pending.side if made == condition and after.turn.attacker == pending.side else None
    if condition == "rebound":
        won = after.pending.kind == "rebound_reward" or after.pending.action == "rebound_layup"
        was = before.pending.kind == "rebound_reward" or before.pending.action == "rebound_layup"
        return after.pending.side if won and not was else None
    return None


def _home_tribe_power(before: State, event: Mapping[str, Any], after: State) -> State:
    """Home: "The hoopers move on the Onfire track also when they successfully activate their tribe's
    power (even if a foul is committed or stops the action). NOTE: The Keepers facedown card needs
    to match the attack." The Keepers' matched face-down card is the tribe block; the Unleashed's
    power moves the hooper whose card it re-uses (the one who won the ball back)."""
    assert before.series is not None
    home = before.series.home
    if event.get("type") == "defend" and event.get("block") == "tribe" and before.pending.side == home:
        return move_onfire(after, home, str(event["hooper"]), +1)
    if event.get("type") == "tribe_power" and after.turn.attacker == home and after.turn.retriever:
        return move_onfire(after, home, after.turn.retriever, +1)
    return after


def after_event(before: State, event: Mapping[str, Any], after: State) -> State:
    """The Series' own consequences of an accepted event of a game (see the module docstring)."""
    assert before.series is not None and after.series is not None
    after = _home_tribe_power(before, event, after)
    assert after.series is not None
    side = condition_met(before, event, after)
    if side is not None and not after.series.track_off:
        moved = track_move(after.series, side)
        after = replace(after, series=moved)
    return after


def manual_track(state: State, event: Mapping[str, Any]) -> State:
    """The table moves the Tribe marker for a condition the companion can't see (an upgraded stellar
    action card, Dime N'Shons' rebound card used to steal or intercept)."""
    if state.series is None:
        raise RuleError("the Series track belongs to The Series")
    if state.series.track_off:
        raise RuleError("the Tribe marker is off the track: this milestone is no longer triggered")
    side = int(event["side"])
    moved = track_move(state.series, side)
    names = (state.sides[0].name, state.sides[1].name)
    return replace(state, series=moved, message=f"Series track: {track_words(moved, names)}")


__all__ = ["CONDITIONS", "MARKER_NAMES", "after_event", "condition_met", "manual_track", "track_move",
           "track_words"]
