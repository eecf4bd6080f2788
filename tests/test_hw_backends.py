"""The simulated table end to end, the lights, and the real chooser refusing what is missing."""

from __future__ import annotations

import time

import pytest
from PIL import ImageChops

from companion.game import ScoreboardView, SideView
from hardware.backends import HardwareUnavailable, build_hardware
from hardware.config import HardwareConfig, LedConfig, TrayConfig, load_config, parse_config
from hardware.dice_tray_protocol import ack, expect_line
from hardware.inputs import ButtonPress, DisplayStatus, EncoderTurn, TrayRoll, TrayStatus
from hardware.leds import TableLights
from hardware.oled_layout import render

VIEW = ScoreboardView("valley_hoopers", (SideView("Hoopers", 12, 2), SideView("Dunkers", 9, 5, bonus=True)),
                      "Q1", "6:30", possession=1, message="Dunkers ball")


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def _wait(predicate, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


@pytest.fixture
def table():
    events: list = []
    clock = Clock()
    cfg = parse_config({"leds": {"possession": [12, 16], "bonus": [20, 23], "buzzer": 18},
                        "burn_in": {"pixel_shift_minutes": 0, "idle_dim_s": 0},
                        "displays": [{"name": "home", "side": 0},
                                     {"name": "away", "type": "sh1106", "address": 0x3D, "side": 1},
                                     {"name": "wide", "type": "ssd1322"}]})
    hw = build_hardware(cfg, sim=True, emit=events.append, clock=clock)
    yield hw, events, clock
    hw.close()


def test_the_sim_table_draws_every_display_for_its_side(table):
    hw, events, _ = table
    hw.show(VIEW)
    assert hw.worker.flush(5)
    images = hw.sim.images()
    assert ImageChops.difference(images["home"], render(VIEW, side=0)).getbbox() is None
    assert ImageChops.difference(images["away"], render(VIEW, side=1)).getbbox() is None
    assert ImageChops.difference(images["wide"], render(VIEW, (256, 64))).getbbox() is None
    assert [e.name for e in events if isinstance(e, DisplayStatus) and e.online] == ["home", "away", "wide"]


def test_show_returns_at_once_and_the_lights_follow_the_view(table):
    hw, _, _ = table
    started = time.perf_counter()
    for n in range(100):
        hw.show(ScoreboardView(**{**VIEW.__dict__, "clock": f"6:{n:02d}"}))
    assert time.perf_counter() - started < 0.05  # coalesced: the caller never waits for the bus
    hw.show(VIEW)
    assert hw.worker.flush(5)
    assert hw.status()["lights"] == {"possession": (False, True), "bonus": (False, True)}


def test_a_button_press_on_a_mock_pin_reaches_emit(table):
    hw, events, clock = table
    hw.sim.pin(19).drive_low()  # UNDO
    clock.now += 1.0
    hw.buttons.poll()
    assert ButtonPress("UNDO", "hold", 50.0) in events


def test_the_encoder_and_its_push_switch_reach_emit(table):
    hw, events, clock = table
    hw.dial.turn(2)
    hw.sim.pin(22).drive_low()
    clock.now += 0.05
    hw.sim.pin(22).drive_high()
    clock.now += 0.05
    hw.buttons.poll()
    assert events.count(EncoderTurn(1)) == 2
    assert ButtonPress("ENCODER", "press", 50.0) in events


def test_a_roll_sent_by_the_simulated_tray_reaches_emit_and_is_acknowledged_once_answered(table):
    hw, events, _ = table
    assert hw.tray.wait_connected(2)
    hw.sim.tray.send("ROLL,1,d20x5,45")
    assert _wait(lambda: TrayRoll(1, "d20x5", 45) in events)
    assert ack(1) not in hw.sim.tray.read(0.1)  # not recorded yet: no ACK
    hw.answer_tray({"type": "TrayRoll", "seq": 1, "die": "d20x5", "face": 45, "epoch": 0}, None)
    assert ack(1) in hw.sim.tray.read(2, until=ack(1))
    hw.expect("d8foul")
    assert expect_line("d8foul") in hw.sim.tray.read(2, until=expect_line("d8foul"))
    assert hw.status()["tray"]["state"] == "connected"


def test_close_stops_everything_and_reports_the_tray_disconnected(table):
    hw, events, _ = table
    hw.close()
    assert events[-1] == TrayStatus("disconnected", "closed")
    assert not hw.worker._thread.is_alive()
    # A status pushed while the table shuts down reads no closed pin (gpiozero would raise).
    assert hw.status() == {"sim": True, "closed": True}
    hw.close()  # twice is fine


def test_the_documented_example_config_builds_in_simulation():
    from pathlib import Path

    cfg = load_config(Path(__file__).resolve().parents[1] / "config.example.toml")
    hw = build_hardware(cfg, sim=True, emit=lambda e: None)
    try:
        assert set(hw.status()["displays"]) == {"home", "away", "wide"}
    finally:
        hw.close()


def test_without_a_pi_the_real_table_is_refused_naming_the_missing_library():
    cfg = HardwareConfig(tray=TrayConfig(port="loop://"))
    with pytest.raises(HardwareUnavailable, match="no GPIO pin library|lgpio"):
        build_hardware(cfg, sim=False, emit=lambda e: None)


def test_lights_buzz_once_when_the_game_says_a_period_is_over_and_once_at_the_final():
    from gpiozero.pins.mock import MockFactory

    lights = TableLights(LedConfig(buzzer=18), MockFactory())
    try:
        lights.show(VIEW)
        lights.show(ScoreboardView(**{**VIEW.__dict__, "clock": "0:00"}))  # a clock of zeros is just text
        assert lights.buzzes == 0
        lights.show(ScoreboardView(**{**VIEW.__dict__, "period": "Q2", "period_over": True}))
        lights.show(ScoreboardView(**{**VIEW.__dict__, "period": "Q2", "period_over": True, "message": "x"}))
        assert lights.buzzes == 1
        lights.show(ScoreboardView(**{**VIEW.__dict__, "period": "Q2", "clock": "10:00"}))
        lights.show(ScoreboardView(**{**VIEW.__dict__, "period": "Q2", "clock": "0:00", "final": True}))
        assert lights.buzzes == 2
    finally:
        lights.close()
