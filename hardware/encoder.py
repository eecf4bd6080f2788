"""The rotary encoder: gpiozero's ``RotaryEncoder`` turned into ``EncoderTurn`` events.

gpiozero's state machine already rejects contact jitter (a step needs the full quadrature cycle),
so no extra debounce is applied. The push switch is an ordinary button with the role ``ENCODER``
and lives in the ``ButtonPanel``, so it gets the same debounce, hold and tie rules as the others.

>>> from gpiozero.pins.mock import MockFactory
>>> events = []
>>> dial = Dial(17, 27, events.append, MockFactory())
>>> dial.turn(2); events
[EncoderTurn(steps=1), EncoderTurn(steps=1)]
>>> dial.close()
"""

from __future__ import annotations

from typing import Any

from gpiozero import RotaryEncoder

from hardware.inputs import Emit, EncoderTurn

# One detent clockwise, as the pin levels (a, b) pass through them: A leads B.
CLOCKWISE_CYCLE = ((0, 1), (0, 0), (1, 0), (1, 1))


class Dial:
    """A rotary encoder on BCM pins ``a`` and ``b``; each detent emits ``EncoderTurn(+1 or -1)``."""

    def __init__(self, a: int, b: int, emit: Emit, pin_factory: Any):
        self._emit = emit
        # max_steps=0: count forever; the service only wants the direction of each detent.
        self._encoder = RotaryEncoder(a, b, max_steps=0, pin_factory=pin_factory)
        self._encoder.when_rotated_clockwise = self._clockwise
        self._encoder.when_rotated_counter_clockwise = self._counter_clockwise

    def _clockwise(self) -> None:
        self._emit(EncoderTurn(1))

    def _counter_clockwise(self) -> None:
        self._emit(EncoderTurn(-1))

    @property
    def encoder(self) -> RotaryEncoder:
        """The gpiozero device (its ``a.pin`` and ``b.pin`` are ``MockPin`` objects in simulation)."""
        return self._encoder

    def turn(self, detents: int) -> None:
        """Simulation only: drive the mock pins through ``detents`` full quadrature cycles."""
        a, b = self._encoder.a.pin, self._encoder.b.pin
        cycle = CLOCKWISE_CYCLE if detents > 0 else tuple((y, x) for x, y in CLOCKWISE_CYCLE)
        for _ in range(abs(detents)):
            for level_a, level_b in cycle:
                for pin, level in ((a, level_a), (b, level_b)):
                    if pin.state != level:
                        pin.drive_high() if level else pin.drive_low()

    def close(self) -> None:
        self._encoder.close()
