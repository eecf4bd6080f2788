"""Crash: kill -9 the service the moment the dice tray gets its $ACK; every acknowledged roll is stored."""

from __future__ import annotations

import os
import select
import threading
import time
from pathlib import Path

import dice_tally_game
from tray_kill_harness import run_tray_kill_cycles, tray_only

from companion.service import TableService
from companion.store import Store
from hardware.dice_tray_protocol import ack, frame
from hardware.inputs import TrayRoll
from table.serve import attach_hardware


def test_killing_the_service_as_each_ack_arrives_loses_no_acknowledged_roll(tmp_path: Path) -> None:
    report = run_tray_kill_cycles(tmp_path, 15, seed=3)
    assert report.problems == []
    assert report.lost == 0
    assert report.extra == 0  # one roll in flight at a time, killed on its ACK: nothing half-done
    assert report.refused == 0  # a roll that reaches a restarting service waits for its prompt
    assert report.cycles == 15
    assert report.acknowledged >= 15


def test_killing_the_service_at_random_moments_of_a_roll_loses_none_and_doubles_none(tmp_path: Path) -> None:
    # The other window: the roll is committed but its ACK has not left when the service dies. The
    # tray resends it to the restarted service, which must answer it without applying it again.
    report = run_tray_kill_cycles(tmp_path, 25, seed=5, random_kill_s=0.03)
    assert report.problems == []
    assert report.lost == 0
    assert report.extra == 0
    assert report.acknowledged >= 25


def test_a_roll_read_before_the_first_snapshot_is_recorded_not_refused(tmp_path: Path) -> None:
    # After a restart the tray resends its unanswered roll at once, before serve has published
    # anything: the controls must already know the resumed game's prompt.
    master, slave = os.openpty()
    name = os.ttyname(slave)
    os.close(slave)
    service = TableService(Store.open(tmp_path / "t.db"), find_game=dice_tally_game.find)
    service.execute({"op": "new_game", "game": "dice-tally", "options": {}})
    config = tmp_path / "hardware.toml"
    config.write_text("")
    queued = threading.Event()

    def build(cfg, sim, emit):
        def emit_and_tell(event):
            emit(event)
            if isinstance(event, TrayRoll):
                queued.set()
        return tray_only(name)(cfg, sim, emit_and_tell)

    hardware, _ = attach_hardware(service, str(config), sim=False, build=build)
    try:
        assert hardware.tray.wait_connected(5)
        os.write(master, frame("ROLL,1,d20,7"))
        assert queued.wait(5)  # on the owner's queue, ahead of any snapshot
        service.start()
        replies = b""
        deadline = time.monotonic() + 5
        while b"$ACK" not in replies and b"$REJ" not in replies and time.monotonic() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                replies += os.read(master, 1024)
        assert ack(1) in replies and b"$REJ" not in replies
        assert service.request({"op": "state"})["snapshot"]["view"] == {"total": 7, "rolls": 1}
    finally:
        hardware.close()
        service.stop()
        service.store.close()
        os.close(master)
