"""Crash: kill -9 the service the moment the dice tray gets its $ACK; every acknowledged roll is stored."""

from __future__ import annotations

from pathlib import Path

from tray_kill_harness import run_tray_kill_cycles


def test_killing_the_service_as_each_ack_arrives_loses_no_acknowledged_roll(tmp_path: Path) -> None:
    report = run_tray_kill_cycles(tmp_path, 15, seed=3)
    assert report.problems == []
    assert report.lost == 0
    assert report.extra == 0  # one roll in flight at a time, killed on its ACK: nothing half-done
    assert report.cycles == 15
    assert report.acknowledged >= 15
