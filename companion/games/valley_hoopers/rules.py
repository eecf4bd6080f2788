"""``decide`` and ``apply``: one resolver, so a refused command and a replayed event can't disagree.

An event is the accepted command in canonical form, plus what the log wants to show (points
scored, a sentence, the period and pair it happened in). ``apply`` resolves the event on the state;
``play`` checks the command by resolving it on the current state and keeps the result (the engine
makes it current: one resolve per command), ``decide`` is ``play`` without the state. ``trial``
remembers what the prompt's candidates resolved to, so a picked choice is not resolved again.

>>> from companion.games.valley_hoopers.setup_options import example_options, setup
>>> state = setup(example_options())
>>> decide(state, {"type": "roll", "face": 45})
Traceback (most recent call last):
...
companion.errors.RuleError: nobody is waiting for a die: Lucy plays a card or ends the turn
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.dice import Die
from companion.errors import RuleError
from companion.frozen import replace
from companion.games.valley_hoopers import after_the_shot, coach, counters, fundamentals, gameplans, shots
from companion.games.valley_hoopers.commands import normalize
from companion.games.valley_hoopers.dice import D20X5, foul_die
from companion.games.valley_hoopers.gameplan_tally import tally
from companion.games.valley_hoopers.model import Decision, State
from companion.games.valley_hoopers.series_game import after_event, manual_track
from companion.games.valley_hoopers.targets import automatic
from companion.games.valley_hoopers.waiting import DECISION_COMMANDS, decision_words, describe_wait
from companion.trials import Trials

D8_KINDS = {
    "screen_check": fundamentals.resolve_screen_check,
    "counter_check": counters.resolve_counter_check,
    "defense_check": shots.resolve_defense_check,
    "rebound_check": after_the_shot.resolve_rebound_check,
}
D20_KINDS = {
    "counter_roll": counters.resolve_counter_roll,
    "attack_roll": shots.resolve_attack_roll,
    "free_throw": after_the_shot.resolve_free_throw,
    "rebound_roll": after_the_shot.resolve_rebound_roll,
}
DIE_WORDS = {"d20x5": "d20", "d8foul": "d8 foul die"}
DIE_ALIASES = {"d20": "d20x5", "d20x5": "d20x5", "d8": "d8foul", "d8foul": "d8foul", "foul": "d8foul"}
DECISION_HANDLERS: dict[str, Callable[[State, dict[str, Any], Decision], State]] = {
    "white_cube": coach.give_white_cube,
    "injury": coach.reveal_injury,
    "replace": coach.replace_hooper,
    "upgrade": coach.milestone_upgrade,
    "cure": coach.cure_teammate,
    "timeout_answer": coach.answer_timeout,
}
ANY_TIME = {
    "track": manual_track,
    "enter_card": coach.enter_card,
    "coach_cards": coach.coach_cards,
    "renounce_playbook": coach.renounce_playbook,
    "gameplan_answer": gameplans.answer,
}
FLOW: dict[str, Callable[[State, dict[str, Any]], State]] = {
    "fundamental": fundamentals.play_fundamental,
    "attack": shots.play_attack,
    "counter": counters.play_counter,
    "no_counter": lambda s, e: fundamentals.no_counter(s),
    "defend": shots.play_defense,
    "no_defense": lambda s, e: shots.no_defense(s),
    "rebound": after_the_shot.play_rebound,
    "no_rebound": lambda s, e: after_the_shot.no_rebound(s),
    "rebound_reward": after_the_shot.choose_rebound_reward,
    "end_turn": lambda s, e: fundamentals.end_turn(s),
    "timeout": lambda s, e: coach.call_timeout(s),
    "substitute": coach.substitute,
    "playbook": coach.activate_playbook,
    "playbook_reward": coach.playbook_reward,
    "donate": coach.donate_energy,
    "redeem": coach.redeem,
    "chip": coach.play_chip,
    "tribe_power": lambda s, e: coach.tribe_power(s),
    "gameplan": gameplans.take_gameplan,
}


def expected_die(state: State) -> Die | None:
    """The die the table is waiting for, if any (a d20 also answers an attack nobody defends)."""
    if state.decisions or state.final:
        return None
    kind = state.pending.kind
    if kind in D8_KINDS:
        return foul_die(state.foul_die_blanks)
    if kind == "defense_window":
        # An attack nobody defends at 100 or more scores on "no_defense", without a roll.
        return None if automatic(shots.attack_target_now(state)) else D20X5
    if kind in D20_KINDS:
        return D20X5
    return None


def _roll(state: State, event: dict[str, Any]) -> State:
    die = expected_die(state)
    if die is None:
        wait = describe_wait(state)
        if not state.decisions and state.pending.kind == "defense_window":
            wait += f": it scores without a roll (target {shots.attack_target_now(state).value})"
        raise RuleError(f"nobody is waiting for a die: {wait}")
    asked = DIE_ALIASES.get(str(event.get("die", die.name)).lower(), str(event.get("die")))
    if asked != die.name:
        raise RuleError(
            f"the game is waiting for the {DIE_WORDS[die.name]}, " f"not the {DIE_WORDS.get(asked, asked)}"
        )
    face = die.parse_face(event["face"])
    kind = state.pending.kind
    if kind == "defense_window":
        state = shots.no_defense(state)
        if state.pending.kind != "attack_roll":
            raise RuleError("the attack scores without a roll: its target is 100 or more")
        kind = "attack_roll"
    if kind in D8_KINDS:
        return D8_KINDS[kind](state, str(face))
    return D20_KINDS[kind](state, int(face))


def resolve(state: State, event: Mapping[str, Any]) -> State:
    """The state after ``event``; raises ``RuleError`` if the rules refuse it."""
    after = _resolve(state, dict(event))
    if state.series is not None:
        after = after_event(state, event, after)
    return after


def _resolve(state: State, event: dict[str, Any]) -> State:
    kind = event["type"]
    if state.final:
        raise RuleError(f"the game is over: {state.message}")
    if kind in ANY_TIME:
        return ANY_TIME[kind](state, event)
    if state.decisions:
        decision = state.decisions[0]
        wanted = DECISION_COMMANDS[decision.kind]
        if kind != wanted:
            raise RuleError(f"first answer {decision_words(decision.kind)} with {wanted}")
        return DECISION_HANDLERS[decision.kind](
            replace(state, decisions=state.decisions[1:]), event, decision
        )
    if kind == "roll":
        return _roll(state, event)
    if kind not in FLOW and kind not in DECISION_HANDLERS and kind != "timeout_energy":
        raise RuleError(f"{kind.replace('_', ' ')} belongs to The Series, between two of its games")
    if kind in DECISION_HANDLERS or kind == "timeout_energy":
        raise RuleError(f"there is no {kind.replace('_', ' ')} choice to answer now: {describe_wait(state)}")
    return FLOW[kind](state, event)


trial: Trials[State] = Trials(resolve)


def play(state: State, command: Mapping[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """Check a command against the state: the state after it and its events, or
    ``RuleError``/``CommandError``. The state is the one ``apply`` gives for those events."""
    event = normalize(command)
    if event["type"] == "roll":
        die = expected_die(state)
        if die is not None and DIE_ALIASES.get(str(event.get("die", die.name)).lower()) == die.name:
            event["die"] = die.name
            event["face"] = die.parse_face(event["face"])
    after = trial(state, event)
    event["points"] = [after.score[0] - state.score[0], after.score[1] - state.score[1]]
    event["text"] = after.message
    event["period"] = state.period
    event["pair"] = state.pair
    if after.gameplans is not None:
        after = replace(after, gameplans=tally(state, event, after))
    return after, [event]


def decide(state: State, command: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Check a command against the state; the events to apply, or ``RuleError``/``CommandError``."""
    return play(state, command)[1]


def apply(state: State, event: Mapping[str, Any]) -> State:
    """The state after an accepted event (pure: the old state is untouched).

    In a game of The Series the gameplan book also counts what the event did (``gameplan_tally``);
    ``decide`` does not need it, so only ``apply`` pays for it.
    """
    after = resolve(state, event)
    if after.gameplans is None:
        return after
    return replace(after, gameplans=tally(state, event, after))
