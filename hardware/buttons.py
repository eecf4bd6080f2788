"""Buttons by role on gpiozero pins: edges in, ``ButtonPress`` and ``ButtonTie`` events out.

The panel takes its pins from the pin factory it is given (``MockFactory()`` in simulation and
tests, gpiozero's default factory on the Pi), wires each as pull-up, active low, both edges, and
feeds the pure functions of ``hardware.debounce``: a press is emitted from the edge callback
itself, on the first edge. A small timer thread, asleep unless something is due, reports a level a
contact came to rest at during its bounce lockout and fires holds while a button stays down; tests
pass ``clock=`` and ``start_thread=False`` and call ``poll(now)`` themselves, so nothing depends on
real time.

>>> from gpiozero.pins.mock import MockFactory
>>> clock = [0.0]
>>> events = []
>>> panel = ButtonPanel({"HOME": 5}, events.append, MockFactory(), clock=lambda: clock[0],
...                     start_thread=False)
>>> panel.pin("HOME").drive_low()  # reported on this first edge, no waiting
>>> events
[ButtonPress(role='HOME', kind='press', at=0.0)]
>>> panel.close()
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from hardware.debounce import (
    Contact,
    Holdable,
    TieWatch,
    Transition,
    hold_deadline,
    hold_due,
    on_press_edge,
    on_transition,
    record_edge,
    settle,
    settle_deadline,
)
from hardware.inputs import ButtonPress, ButtonTie, Emit

logger = logging.getLogger(__name__)


class ButtonPanel:
    """Debounced buttons by role; ``emit`` receives ``ButtonPress`` and ``ButtonTie`` events.

    ``pins`` maps role to BCM pin; ``hold_s`` gives a hold time to some roles (see ``ButtonPress``
    for what press means then). ``clock`` returns seconds; it defaults to ``time.monotonic``, the
    clock ``ButtonPress.at`` is in and the race code (``companion.controls``) reads to judge how late
    a press reached it (gpiozero's mock and lgpio factories tick on it too; pigpio's ticks are
    wrapping microseconds). Edge times come from ``clock()`` when the callback runs, not from the
    callback's ``ticks`` argument, because backends disagree on its epoch (lgpio reports kernel
    nanosecond stamps) and a millisecond of callback latency is far below the debounce and tie windows.
    """

    def __init__(self, pins: Mapping[str, int], emit: Emit, pin_factory: Any, *,
                 hold_s: Mapping[str, float] | None = None, debounce_s: float = 0.020,
                 tie_window_s: float = 0.150, clock: Callable[[], float] | None = None,
                 start_thread: bool = True):
        self._emit_to = emit
        self._factory = pin_factory
        self._clock = clock or time.monotonic
        self._debounce_s = debounce_s
        self._tie_window_s = tie_window_s
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._pins: dict[str, Any] = {}
        self._contacts: dict[str, Contact] = {}
        self._buttons: dict[str, Holdable] = {}
        self._ties = TieWatch()
        # gpiozero keeps only a weak reference to a when_changed callback, so the closures live here.
        self._callbacks: dict[str, Callable[[float, int], None]] = {}
        hold_s = hold_s or {}
        for role, number in pins.items():
            pin = pin_factory.pin(number)
            pin.function = "input"
            pin.pull = "up"
            pin.bounce = None  # our own debounce, identical on every backend
            pin.edges = "both"
            pressed = not pin.state  # active low: a button already down at start counts as down
            self._contacts[role] = Contact(stable=pressed, raw=pressed)
            self._buttons[role] = Holdable(hold_s=hold_s.get(role), down_at=None)
            self._callbacks[role] = self._callback_for(role)
            pin.when_changed = self._callbacks[role]
            self._pins[role] = pin
        self._thread: threading.Thread | None = None
        if start_thread:
            self._thread = threading.Thread(target=self._run, name="companion-buttons", daemon=True)
            self._thread.start()

    def _emit(self, event: ButtonPress | ButtonTie) -> None:
        # A failing receiver must not leave the debounce state half-updated in gpiozero's thread.
        try:
            self._emit_to(event)
        except Exception:
            logger.exception("emit failed for %r", event)

    def pin(self, role: str) -> Any:
        """The gpiozero pin of a role (a ``MockPin`` in simulation: ``drive_low()`` presses it)."""
        return self._pins[role]

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(self._pins)

    def _callback_for(self, role: str) -> Callable[[float, int], None]:
        def changed(ticks: float, state: int) -> None:
            self._edge(role, not state)
        return changed

    def _edge(self, role: str, pressed: bool) -> None:
        with self._lock:
            if self._closed:
                return
            now = self._clock()
            self._advance(now)  # changes that settled before this edge happened first
            self._contacts[role], change = record_edge(self._contacts[role], now, pressed, self._debounce_s)
            if change is not None:
                self._report(role, change)
            self._wake.notify()

    def poll(self, now: float | None = None) -> None:
        """Settle every contact and fire due holds at ``now`` (default: the clock)."""
        with self._lock:
            self._advance(self._clock() if now is None else now)

    def _advance(self, now: float) -> None:
        settled: list[tuple[float, str, Transition]] = []
        for role in self._pins:
            contact, change = settle(self._contacts[role], now, self._debounce_s)
            self._contacts[role] = contact
            if change is not None:
                settled.append((change.at, role, change))
        # In time order across roles, so HOME-then-AWAY is reported that way whatever the pin order.
        for _, role, change in sorted(settled, key=lambda item: item[0]):
            self._report(role, change)
        for role in self._pins:
            button, kinds = hold_due(self._buttons[role], now)
            self._buttons[role] = button
            for kind, at in kinds:
                self._emit(ButtonPress(role, kind, at))

    def _report(self, role: str, change: Transition) -> None:
        button, kinds = on_transition(self._buttons[role], change)
        self._buttons[role] = button
        for kind, at in kinds:
            self._emit(ButtonPress(role, kind, at))
        if change.pressed:
            self._ties, tie = on_press_edge(self._ties, role, change.at, self._tie_window_s)
            if tie is not None:
                self._emit(ButtonTie(roles=tie[0], times=tie[1]))

    def _next_deadline(self) -> float | None:
        deadlines = [d for role in self._pins
                     for d in (settle_deadline(self._contacts[role]),
                               hold_deadline(self._buttons[role])) if d is not None]
        return min(deadlines) if deadlines else None

    def _run(self) -> None:
        with self._lock:
            while not self._closed:
                deadline = self._next_deadline()
                timeout = None if deadline is None else max(0.0, deadline - self._clock()) + 0.0005
                self._wake.wait(timeout)
                if not self._closed:
                    self.poll()

    def close(self) -> None:
        """Detach from the pins and stop the timer thread (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)
        for pin in self._pins.values():
            pin.when_changed = None
            pin.close()
