"""The buzzer follows the game's own period_over flag: a full Valley Hoopers game buzzes once per
period change and once at the final whistle."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory
from table_driver import script

from companion.games import find_game
from hardware.config import LedConfig
from hardware.leds import TableLights


def test_a_full_game_buzzes_at_every_new_period_and_at_the_end() -> None:
    game = find_game("valley-hoopers")
    options, commands = script()
    state = game.setup(options)
    lights = TableLights(LedConfig(buzzer=18), MockFactory())
    periods = []
    try:
        lights.show(game.scoreboard(state))
        for command in commands:
            state, _ = game.run(state, command)
            board = game.scoreboard(state)
            periods.append(board.period)
            lights.show(board)
        assert board.final
        changes = sum(1 for a, b in zip(periods, periods[1:], strict=False) if a != b)
        assert changes >= 3
        assert lights.buzzes == changes + 1
    finally:
        lights.close()
