"""Buttons and the encoder on gpiozero's MockFactory: real pin objects driven low and high."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonPanel
from hardware.encoder import Dial
from hardware.inputs import ButtonPress, ButtonTie, EncoderTurn

PINS = {"HOME": 5, "AWAY": 6, "CONFIRM": 13, "UNDO": 19}


class Clock:
    """A hand-advanced clock so every edge time in these tests is exact."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def table(factory):
    clock, events = Clock(), []
    panel = ButtonPanel(PINS, events.append, factory, hold_s={"UNDO": 1.0}, debounce_s=0.020,
                        tie_window_s=0.150, clock=clock, start_thread=False)
    yield panel, clock, events
    panel.close()


def _at(clock: Clock, panel: ButtonPanel, t: float) -> None:
    clock.now = t
    panel.poll()


def test_pins_are_pulled_up_inputs_watching_both_edges(table):
    panel, _, _ = table
    pin = panel.pin("HOME")
    assert (pin.function, pin.pull, pin.edges, pin.state) == ("input", "up", "both", True)


def test_home_pressed_and_released_is_one_press_then_one_release_each_on_its_edge(table):
    panel, clock, events = table
    panel.pin("HOME").drive_low()
    assert events == [ButtonPress("HOME", "press", 100.0)]  # from the edge callback: no waiting
    clock.now = 100.3
    panel.pin("HOME").drive_high()
    assert events[1:] == [ButtonPress("HOME", "release", 100.3)]
    _at(clock, panel, 100.4)
    assert len(events) == 2


def test_a_bouncing_contact_gives_exactly_one_press_reported_on_the_first_edge(table):
    panel, clock, events = table
    pin = panel.pin("CONFIRM")
    pin.drive_low()
    assert events == [ButtonPress("CONFIRM", "press", 100.0)]
    for i in range(1, 9):  # eight more edges 1 ms apart, ending low (pressed)
        clock.now = 100.0 + i * 0.001
        pin.drive_high() if i % 2 else pin.drive_low()
    _at(clock, panel, 100.5)
    assert events == [ButtonPress("CONFIRM", "press", 100.0)]


def test_a_bouncing_release_gives_exactly_one_release(table):
    panel, clock, events = table
    pin = panel.pin("CONFIRM")
    pin.drive_low()
    for i in range(9):  # the release bounces: nine edges 1 ms apart, ending high (up)
        clock.now = 100.5 + i * 0.001
        pin.drive_high() if i % 2 == 0 else pin.drive_low()
    _at(clock, panel, 101.0)
    assert events == [ButtonPress("CONFIRM", "press", 100.0), ButtonPress("CONFIRM", "release", 100.5)]


def test_a_tap_inside_the_bounce_time_is_released_when_the_time_is_up(table):
    panel, clock, events = table
    pin = panel.pin("HOME")
    pin.drive_low()
    clock.now = 100.008
    pin.drive_high()  # inside the lockout: taken as bounce for now
    _at(clock, panel, 100.019)
    assert events == [ButtonPress("HOME", "press", 100.0)]
    _at(clock, panel, 100.020)
    assert events == [ButtonPress("HOME", "press", 100.0), ButtonPress("HOME", "release", 100.008)]


def test_undo_held_one_second_fires_hold_while_down(table):
    panel, clock, events = table
    panel.pin("UNDO").drive_low()
    _at(clock, panel, 100.5)
    assert events == []
    _at(clock, panel, 101.0)
    assert events == [ButtonPress("UNDO", "hold", 100.0)]
    clock.now = 103.0
    panel.pin("UNDO").drive_high()
    _at(clock, panel, 103.1)
    assert events == [ButtonPress("UNDO", "hold", 100.0), ButtonPress("UNDO", "release", 103.0)]


def test_undo_tapped_is_a_press_not_a_hold(table):
    panel, clock, events = table
    panel.pin("UNDO").drive_low()
    clock.now = 100.3
    panel.pin("UNDO").drive_high()
    _at(clock, panel, 101.5)
    assert events == [ButtonPress("UNDO", "press", 100.0), ButtonPress("UNDO", "release", 100.3)]


def test_home_and_away_together_are_a_tie(table):
    panel, clock, events = table
    panel.pin("AWAY").drive_low()
    clock.now = 100.040
    panel.pin("HOME").drive_low()
    _at(clock, panel, 100.2)
    assert events == [ButtonPress("AWAY", "press", 100.0), ButtonPress("HOME", "press", 100.040),
                      ButtonTie(("AWAY", "HOME"), (100.0, 100.040))]


def test_home_then_away_outside_the_window_is_two_presses_and_no_tie(table):
    panel, clock, events = table
    panel.pin("HOME").drive_low()
    _at(clock, panel, 100.1)
    clock.now = 100.2
    panel.pin("AWAY").drive_low()
    _at(clock, panel, 100.5)
    assert [type(e) for e in events] == [ButtonPress, ButtonPress]


def test_close_detaches_the_callbacks(factory, table):
    panel, clock, events = table
    pin = panel.pin("HOME")
    panel.close()
    pin.drive_low()
    clock.now = 101
    assert events == []


def test_with_the_timer_thread_a_tap_inside_the_bounce_time_is_released_by_itself(factory):
    events: list = []
    released = threading.Event()

    def emit(event):
        events.append(event)
        if event.kind == "release":
            released.set()

    panel = ButtonPanel({"HOME": 5}, emit, factory, debounce_s=0.005)
    try:
        pin = panel.pin("HOME")
        pin.drive_low()
        pin.drive_high()  # inside 5 ms (unless the machine stalls): the timer thread reports it
        assert released.wait(5)
        assert [(e.role, e.kind) for e in events] == [("HOME", "press"), ("HOME", "release")]
    finally:
        panel.close()


def test_with_the_timer_thread_a_hold_fires_by_itself(factory):
    events: list = []
    panel = ButtonPanel({"UNDO": 19}, events.append, factory, hold_s={"UNDO": 0.05}, debounce_s=0.005)
    try:
        panel.pin("UNDO").drive_low()
        deadline = time.monotonic() + 2
        while not events and time.monotonic() < deadline:
            time.sleep(0.005)
        assert [(e.role, e.kind) for e in events] == [("UNDO", "hold")]
    finally:
        panel.close()


def test_encoder_turned_clockwise_gives_positive_steps(factory):
    events: list = []
    dial = Dial(17, 27, events.append, factory)
    a, b = dial.encoder.a.pin, dial.encoder.b.pin
    # One detent by hand: A falls first, then B, then A rises, then B.
    a.drive_low(); b.drive_low(); a.drive_high(); b.drive_high()  # noqa: E702
    assert events == [EncoderTurn(1)]
    dial.close()


def test_encoder_turned_counter_clockwise_gives_negative_steps(factory):
    events: list = []
    dial = Dial(17, 27, events.append, factory)
    a, b = dial.encoder.a.pin, dial.encoder.b.pin
    b.drive_low(); a.drive_low(); b.drive_high(); a.drive_high()  # noqa: E702
    dial.turn(-2)
    assert events == [EncoderTurn(-1)] * 3
    dial.close()


def test_encoder_jitter_on_one_pin_gives_no_step(factory):
    events: list = []
    dial = Dial(17, 27, events.append, factory)
    a = dial.encoder.a.pin
    for _ in range(10):
        a.drive_low(); a.drive_high()  # noqa: E702
    assert events == []
    dial.close()


def test_a_failing_receiver_does_not_break_the_next_press(factory):
    clock, received = Clock(), []

    def emit(event):
        if event.role == "HOME":
            raise RuntimeError("service hiccup")
        received.append(event)

    panel = ButtonPanel({"HOME": 5, "AWAY": 6}, emit, factory, clock=clock, start_thread=False)
    try:
        panel.pin("HOME").drive_low()
        _at(clock, panel, 100.2)  # outside the tie window: two separate presses
        panel.pin("AWAY").drive_low()
        _at(clock, panel, 100.3)
        assert received == [ButtonPress("AWAY", "press", 100.2)]
    finally:
        panel.close()


def test_on_the_real_clock_a_bouncing_press_is_one_press_emitted_by_its_first_edge(factory):
    events: list = []
    # A bounce time far longer than the toggling below takes, however slow the machine.
    panel = ButtonPanel({"CONFIRM": 13}, events.append, factory, debounce_s=1.0)
    try:
        pin = panel.pin("CONFIRM")
        pin.drive_low()
        assert [(e.role, e.kind) for e in events] == [("CONFIRM", "press")]  # before any bounce
        for _ in range(4):
            pin.drive_high()
            pin.drive_low()
        assert [(e.role, e.kind) for e in events] == [("CONFIRM", "press")]
    finally:
        panel.close()
