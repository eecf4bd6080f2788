"""End to end on simulated hardware: a whole Valley Hoopers game by encoder, buttons and dice tray.

``make test`` enters the last ``BY_HARDWARE`` commands (through the end of the game) by hardware
alone and the ones before through the service, each first checked to be on the dial or a roll;
``benchmarks/long_runs.py`` enters every one of the 388 by hardware (~20 s more)."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from long_runs import long_runs
from PIL import ImageChops
from table_driver import script, sim_table

from hardware.oled_layout import render

BY_HARDWARE = None if long_runs() else 100


def test_a_full_game_is_played_by_encoder_confirm_and_dice_tray_alone(tmp_path: Path) -> None:
    options, commands = script()
    with sim_table(tmp_path / "g.db") as table:
        table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
        split = 0 if BY_HARDWARE is None else max(0, len(commands) - BY_HARDWARE)
        for command in commands[:split]:
            table.enter_reachable(command)
        for command in commands[split:]:
            table.enter(command)
        final = table.snapshot()
        assert final["outcome"] is not None
        assert final["seq"] == len(commands)

        # Each dummy OLED holds exactly the frame of the final scoreboard.
        session = table.service.session
        board = session.game.scoreboard(session.state)
        assert [s.score for s in board.sides] == final["view"]["score"]
        if table.controls.selection():
            board = dataclasses.replace(board, message=table.controls.selection())
        assert table.hardware.worker.flush(timeout=5)
        for name, panel in table.hardware.sim.panels.items():
            size = (panel.device.width, panel.device.height)
            expected = render(board, size, side=panel.side, shift=panel.shift_at(time.monotonic()))
            expected = panel.device.preprocess(expected.convert(panel.device.mode))  # e.g. rotate=2
            shown = table.hardware.sim.images()[name]
            assert shown is not None, name
            diff = ImageChops.difference(shown.convert("1"), expected.convert("1"))
            assert diff.getbbox() is None, f"{name} shows another frame"
