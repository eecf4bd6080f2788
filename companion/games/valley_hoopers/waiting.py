"""What the table is waiting for, in the words a player reads: for refusals ("nobody is waiting
for a die: ...") and the log.

Internal names (``defense_window``, ``white_cube``) never reach a player: every kind of wait the
rules can be in has its sentence here.

>>> from companion.games.valley_hoopers.setup_options import example_options, setup
>>> describe_wait(setup(example_options()))
'Lucy plays a card or ends the turn'
"""

from __future__ import annotations

from companion.games.valley_hoopers.model import State

SHOT_WORDS = {
    "2PS": "2-point shot",
    "3PS": "3-point shot",
    "LUP": "lay-up",
    "rebound_layup": "rebound lay-up",
}
# The command that answers each interrupting decision.
DECISION_COMMANDS = {
    "white_cube": "white_cube",
    "injury": "injury",
    "replace": "replace",
    "upgrade": "upgrade",
    "cure": "cure",
    "timeout_answer": "timeout_energy",
}


def decision_words(kind: str) -> str:
    """``white_cube`` -> "the white cube choice"."""
    return f"the {kind.replace('_', ' ')} choice"


def describe_wait(state: State) -> str:
    """What the table must do now, as a sentence."""
    if state.final:
        return "the game is over"
    if state.decisions:
        decision = state.decisions[0]
        return f"first answer {decision_words(decision.kind)} ({DECISION_COMMANDS[decision.kind]})"
    pending = state.pending
    name = state.side(pending.side).name
    shot = SHOT_WORDS.get(pending.action or "", pending.action or "attack")
    sentences = {
        "play": f"{name} plays a card or ends the turn",
        "counter_window": f"{name} may counter {pending.hooper}'s {pending.action}, or let it go",
        "defense_window": f"{name} may defend {pending.hooper}'s {shot}, or let it go",
        "rebound_window": f"{name} may go for the offensive rebound",
        "rebound_reward": f"{name} chooses the rebound reward",
        "playbook_reward": f"{name} chooses the playbook reward",
        "screen_check": f"{name} rolls the d8 foul die for {pending.hooper}'s screen",
        "counter_check": f"{name} rolls the d8 foul die for {pending.other}'s counter",
        "counter_roll": f"{name} rolls the d20 for {pending.other}'s counter",
        "defense_check": f"{name} rolls the d8 foul die for {pending.other}'s defense",
        "attack_roll": f"{name} rolls the d20 for {pending.hooper}'s {shot}",
        "free_throw": f"{name} rolls the d20 for {pending.hooper}'s free throw",
        "rebound_check": f"{name} rolls the d8 foul die for {pending.other}'s rebound",
        "rebound_roll": f"{name} rolls the d20 for {pending.other}'s rebound",
        "game_over": "the game is over",
    }
    return sentences.get(pending.kind, f"{name} plays on")
