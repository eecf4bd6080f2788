"""Tray and display faults: 100 unplugs of each mid-game; nothing lost or doubled, the game goes on."""

from __future__ import annotations

import random
from pathlib import Path

from fault_rigs import TrayTable
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306
from PIL import ImageChops
from table_driver import script

from companion.timeline import Timeline
from hardware.inputs import DisplayStatus
from hardware.oled import OledPanel
from hardware.oled_layout import render
from hardware.oled_ram_model import ControllerModel


def test_a_hundred_tray_unplugs_mid_stream_lose_and_double_no_roll(tmp_path: Path) -> None:
    options, commands = script()
    rng = random.Random(42)
    table = TrayTable(tmp_path / "g.db")
    try:
        table.service.request({"op": "new_game", "game": "valley-hoopers", "options": options})
        unplugs = 0
        rolls = [c for c in commands if c["type"] == "roll"]
        chance = min(1.0, 110 / len(rolls))
        for command in commands:
            expected_seq = table.seq + 1
            if command["type"] == "roll":
                unplugs += table.roll(command["die"], command["face"], rng,
                                      unplug_chance=chance if unplugs < 100 else 0.0)
            else:
                assert table.service.request({"op": "command", "command": command})["ok"]
            assert table.wait_seq(expected_seq), f"{command} never reached the game"
        assert unplugs >= 100
        session = table.service.session
        stored = [e["command"] for e in session.store.entries(session.game_id)[1:]]
        assert stored == commands  # each roll exactly once, in order
        assert session.game.outcome(session.state) is not None
        replayed = Timeline.replay(session.game, session.store.entries(session.game_id))
        assert replayed.state == session.state
        status = table.service.request({"op": "status"})["status"]
        assert status["tray"]["state"] == "connected"
        assert table.tray.status()["counters"]["duplicate"] >= 1
    finally:
        table.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_hundred_display_failures_keep_the_game_going_and_each_recovery_shows_the_score(
        tmp_path: Path) -> None:
    options, commands = script()
    from companion.service import TableService
    from companion.store import Store

    service = TableService(Store.open(tmp_path / "g.db"))
    service.execute({"op": "new_game", "game": "valley-hoopers", "options": options})
    bus, clock, statuses = ControllerModel(), Clock(), []
    panel = OledPanel("home", lambda: ssd1306(i2c(bus=bus, address=0x3C)), statuses.append, clock=clock,
                      probe=lambda: bus.write_i2c_block_data(0x3C, 0x00, [0xE3]))
    panel.show(service.session.game.scoreboard(service.session.state))
    assert panel.online
    failures = recoveries = 0
    for command in commands:
        assert service.execute({"op": "command", "command": command})["ok"]  # the game goes on
        board = service.session.game.scoreboard(service.session.state)
        if bus.unplugged and not panel.online:  # it failed last time: plug it back, wait for the retry
            bus.unplugged = False
            clock.now += 2.1
            panel.show(board)
            assert panel.online and statuses[-1].online
            recoveries += 1
            expected = render(board, (128, 64), shift=panel.shift_at(clock.now))
            assert ImageChops.difference(bus.image().convert("1"), expected.convert("1")).getbbox() is None
            continue
        if failures < 100:
            bus.unplugged = True  # pulled; noticed at the next frame that has to go out
        was_online = panel.online
        panel.show(board)
        if was_online and not panel.online:
            failures += 1
    assert failures == 100 and recoveries == 100
    offline = [s for s in statuses if isinstance(s, DisplayStatus) and not s.online]
    assert len(offline) == 100 and all("121" in s.detail or "not found" in s.detail for s in offline)
    assert service.session.game.outcome(service.session.state) is not None
    service.store.close()
