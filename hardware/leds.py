"""Possession and bonus LEDs and the end-of-period buzzer, on gpiozero's ``LED`` and ``Buzzer``.

Everything here is optional (a key left out of ``[leds]`` means that light is not wired). The
lights follow the ``ScoreboardView``; the buzzer sounds once when the view says a period is over
(``period_over``, set by the game) and once when the game becomes final, never again for the same
moment. A race that asks for a steady tempo (``beat``) makes every LED blink and the buzzer tick on
each beat until it stops, so players re-roll in step.

>>> from gpiozero.pins.mock import MockFactory
>>> from companion.game import ScoreboardView, SideView
>>> from hardware.config import LedConfig
>>> lights = TableLights(LedConfig(possession=(12, 16)), MockFactory())
>>> lights.show(ScoreboardView("g", (SideView("A", 0), SideView("B", 0)), "Q1", "9:00", possession=1))
>>> lights.lit()
{'possession': (False, True)}
>>> lights.close()
"""

from __future__ import annotations

import threading
from typing import Any

from gpiozero import LED, Buzzer

from companion.game import ScoreboardView
from hardware.config import LedConfig


class TableLights:
    """The optional LEDs and buzzer of one table, driven from views (call ``show`` for each)."""

    def __init__(self, config: LedConfig, pin_factory: Any):
        self._config = config
        self.possession = ([LED(p, pin_factory=pin_factory) for p in config.possession]
                           if config.possession else [])
        self.bonus = [LED(p, pin_factory=pin_factory) for p in config.bonus] if config.bonus else []
        self.buzzer = Buzzer(config.buzzer, pin_factory=pin_factory) if config.buzzer is not None else None
        self._last: ScoreboardView | None = None
        self.buzzes = 0
        self.beat_ms: int | None = None
        # Views come on the display thread, beats from the table's thread.
        self._lock = threading.Lock()

    def show(self, view: ScoreboardView) -> None:
        with self._lock:
            if self.beat_ms is None:  # while a beat runs the LEDs blink it; setting them would stop it
                self._light(view)
            if self._should_buzz(view):
                self.buzz()
            self._last = view

    def _light(self, view: ScoreboardView) -> None:
        for index, led in enumerate(self.possession):
            led.value = view.possession == index
        for index, led in enumerate(self.bonus):
            led.value = index < len(view.sides) and bool(view.sides[index].bonus)  # None: no fouls

    def beat(self, tempo_ms: int | None) -> None:
        """Blink every LED and tick the buzzer once every ``tempo_ms`` (gpiozero's background threads);
        ``None`` stops the beat and the lights show the last view again."""
        with self._lock:
            if tempo_ms == self.beat_ms:
                return
            self.beat_ms = tempo_ms
            if tempo_ms:
                period = tempo_ms / 1000
                flash, tick = min(0.15, period / 2), min(0.05, period / 4)
                for led in (*self.possession, *self.bonus):
                    led.blink(on_time=flash, off_time=period - flash, background=True)
                if self.buzzer is not None:
                    self.buzzer.beep(on_time=tick, off_time=period - tick, background=True)
                return
            if self.buzzer is not None:
                self.buzzer.off()
            if self._last is not None:
                self._light(self._last)
            else:
                for led in (*self.possession, *self.bonus):
                    led.off()

    def _should_buzz(self, view: ScoreboardView) -> bool:
        last = self._last
        if last is None:
            return False  # starting up on a finished period is not the moment the period ended
        if view.final and not last.final:
            return True
        already_over = last.period_over and last.period == view.period
        return view.period_over and not already_over and not view.final

    def buzz(self) -> None:
        """One buzz of the configured length, in gpiozero's background thread (never blocks)."""
        self.buzzes += 1
        if self.buzzer is not None:
            self.buzzer.beep(on_time=self._config.buzzer_s, off_time=0.1, n=1, background=True)

    def lit(self) -> dict[str, tuple[bool | int, ...]]:
        """Which lights are on (for ``status()`` and tests)."""
        out: dict[str, tuple[bool | int, ...]] = {}
        if self.possession:
            out["possession"] = tuple(bool(led.value) for led in self.possession)
        if self.bonus:
            out["bonus"] = tuple(bool(led.value) for led in self.bonus)
        if self.beat_ms:
            out["beat_ms"] = (self.beat_ms,)
        return out

    def close(self) -> None:
        for device in [*self.possession, *self.bonus, *([self.buzzer] if self.buzzer else [])]:
            device.close()
