"""The NBA Showdown demo script: the two DEMO rosters (invented cards) with every rule on, then
commands chosen from the game's own prompts (``companion.demo.autoplay``): substitutions,
double-teams, scoring rolls and assists through the first quarter and into the second."""

from __future__ import annotations

from companion.demo import autoplay
from companion.game import JSON
from companion.games.nba_showdown.setup_options import example_options


def demo_script() -> tuple[JSON, list[JSON]]:
    """60 commands from the prompts, then a scoring roll with a strategy card on each side (a shot check
    on offence, a requirement on defence), so the suite also meets a shot check's d20."""
    from companion.games.nba_showdown import GAME

    options, commands = autoplay(GAME, example_options(), steps=60)
    state = GAME.setup(options)
    for command in commands:
        state, _ = GAME.run(state, command)
    while state.stage != "choose":  # finish the roll under way with the first offered input
        prompt = GAME.prompt(state)
        command = dict(prompt.choices[0].command) if prompt.choices else {"type": "roll", "face": 10}
        state, _ = GAME.run(state, command)
        commands.append(command)
    side = state.acting
    shoot = dict(GAME.prompt(state).choices[-1].command)
    for command in (shoot,
                    {"type": "play_card", "side": side, "card": state.team(side).deck[7][0],
                     "shot_check": {"points": 3, "three_point": True}},
                    {"type": "roll", "die": "d20", "face": 17},
                    {"type": "play_card", "side": 1 - side, "card": state.team(1 - side).deck[5][0],
                     "power": 2, "requires": {"position": [shoot["position"]]}},
                    {"type": "roll", "die": "d20", "face": 9}):
        state, _ = GAME.run(state, command)
        commands.append(command)
    return options, commands
