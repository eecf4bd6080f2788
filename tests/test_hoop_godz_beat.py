"""B-Ball 4 All's beat on the table's LEDs and buzzer (gpiozero's LED and Buzzer on mock pins): a
race with a tempo blinks the LEDs and ticks the buzzer on each beat; when the race is over the
lights follow the scoreboard again and the buzzer is silent."""

from __future__ import annotations

import time

from gpiozero.pins.mock import MockFactory

from companion.game import ScoreboardView, SideView
from hardware.config import LedConfig
from hardware.leds import TableLights


def toggles(pin: object) -> int:
    return sum(1 for a, b in zip(pin.states, pin.states[1:], strict=False) if a.state != b.state)  # type: ignore[attr-defined]


def test_a_race_tempo_blinks_the_leds_and_ticks_the_buzzer_until_it_stops() -> None:
    factory = MockFactory()
    lights = TableLights(LedConfig(possession=(12, 16), buzzer=18), factory)
    view = ScoreboardView("g", (SideView("A", 0), SideView("B", 0)), "to 7", "10 CLK", possession=1)
    lights.show(view)
    buzzer, home = factory.pin(18), factory.pin(12)
    buzzer.clear_states()
    home.clear_states()
    lights.beat(60)
    deadline = time.monotonic() + 10
    while toggles(buzzer) < 6 or toggles(home) < 6:  # three beats each, however loaded the machine
        assert time.monotonic() < deadline, f"no beat: {buzzer.states} {home.states}"
        time.sleep(0.01)
    assert lights.lit()["beat_ms"] == (60,)
    ticked = toggles(buzzer), toggles(home)
    lights.show(view)  # a view during the beat does not stop it
    while toggles(buzzer) < ticked[0] + 2 or toggles(home) < ticked[1] + 2:
        assert time.monotonic() < deadline, "a view stopped the beat"
        time.sleep(0.01)
    lights.beat(None)
    assert not buzzer.state and lights.lit() == {"possession": (False, True)}
    lights.close()
