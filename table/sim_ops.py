"""Socket ops that play the simulated hardware: what the kiosk's simulation panel sends.

The simulated buttons, encoder and dice tray live in the service (gpiozero ``MockFactory`` pins,
a pseudo-terminal tray, luma ``dummy`` displays); these ops drive them from outside so that a
simulated press travels the same path as a real one: pin edge -> debounce -> controls -> command.
They are registered only when the service runs with ``--sim``.
"""

from __future__ import annotations

import base64
import io
import random
import threading
import time
from typing import Any

from companion.errors import CommandError, RuleError
from companion.game import JSON
from companion.games import known_dice
from companion.service import TableService

# A tap stays down, then up, this much longer than the debounce window: its release and the next
# press then land outside the bounce lockout of the edge before them. The pins call back on the
# thread that drives them, so each edge is timed before the sleep that follows it starts.
TAP_MARGIN_S = 0.005
# A press of another button waits this long past the tie window after the last press edge, or the
# two would be reported as a tie (HOME and AWAY at once) instead of two presses.
TIE_MARGIN_S = 0.03


class SimulatedTable:
    """The ops, bound to one simulated hardware set (``hardware.backends.TableHardware``)."""

    def __init__(self, hardware: Any, config: Any, rng: random.Random | None = None) -> None:
        self.hardware = hardware
        self.config = config
        self.rng = rng or random.Random()
        self._seq = 0
        self._lock = threading.Condition()
        self._tickets = 0  # presses and turns run one at a time, in the order they were asked for
        self._serving = 0
        self._last_press: tuple[str, float] | None = None  # (role, when it went down); cycles only

    def register(self, service: TableService) -> None:
        service.extra_ops.update({"sim_press": self.press, "sim_turn": self.turn, "sim_tray": self.tray,
                                  "sim_roll_for_me": self.roll_for_me, "oled": self.oled})

    def _pin_for(self, role: str) -> int:
        if role == "ENCODER" and self.config.encoder is not None and self.config.encoder.push is not None:
            return int(self.config.encoder.push)
        pins = dict(self.config.buttons.pins)
        if role not in pins:
            raise CommandError(f"no button {role!r}; the table has {', '.join(sorted(pins))}")
        return int(pins[role])

    def _hold_s(self, role: str) -> float:
        if role == "ENCODER" and self.config.encoder is not None:
            return float(self.config.encoder.push_hold_s)
        return float(dict(self.config.buttons.hold_s).get(role, 1.0))

    def press(self, _service: TableService, request: JSON) -> JSON:
        role = str(request.get("role", "")).upper()
        pin = self.hardware.sim.pin(self._pin_for(role))
        buttons = self.config.buttons
        # Paced by the configured windows rather than a fixed human-like tap, so a game entered on
        # the simulated buttons goes as fast as the debounce allows; a tap stays under half a hold.
        tap_s = min(float(buttons.debounce_ms) / 1000 + TAP_MARGIN_S, self._hold_s(role) / 2)
        down_for = self._hold_s(role) + 0.15 if request.get("hold") else tap_s
        tie_s = float(buttons.tie_window_ms) / 1000 + TIE_MARGIN_S

        def cycle() -> None:  # off the owner thread: a held button must not hold up the table
            if self._last_press is not None and self._last_press[0] != role:
                time.sleep(max(0.0, self._last_press[1] + tie_s - time.monotonic()))
            pin.drive_low()
            self._last_press = (role, time.monotonic())  # no earlier than the edge's own time
            time.sleep(down_for)
            pin.drive_high()
            # Stay up past the debounce window, or the next tap would read as switch bounce.
            time.sleep(tap_s)

        self._in_turn(cycle, "sim-press")
        return {"ok": True, "pressed": role, "held": bool(request.get("hold"))}

    def turn(self, _service: TableService, request: JSON) -> JSON:
        steps = request.get("steps")
        if isinstance(steps, bool) or not isinstance(steps, int) or not -50 <= steps <= 50:
            raise CommandError(f"steps must be a whole number from -50 to 50, not {steps!r}")
        if self.hardware.dial is None:
            raise RuleError("this table has no encoder configured")
        def turn() -> None:  # one turn at a time: two at once would mix their quadrature pulses
            self.hardware.dial.turn(steps)

        self._in_turn(turn, "sim-turn")
        return {"ok": True, "turned": steps}

    def _in_turn(self, action: Any, name: str) -> None:
        """Run ``action`` on a thread of its own, after every press and turn asked for before it
        (a race pressed SIDE3 then HOME must reach the pins in that order)."""
        with self._lock:
            ticket = self._tickets
            self._tickets += 1

        def run() -> None:
            with self._lock:
                self._lock.wait_for(lambda: self._serving == ticket)
            try:
                action()
            finally:
                with self._lock:
                    self._serving += 1
                    self._lock.notify_all()

        threading.Thread(target=run, name=name, daemon=True).start()

    def tray(self, _service: TableService, request: JSON) -> JSON:
        if self.hardware.sim is None or self.hardware.sim.tray is None:
            raise RuleError("this table has no dice tray configured")
        if "line" in request:
            raw = request["line"]
            if not isinstance(raw, str):
                raise CommandError("line must be text")
            self.hardware.sim.tray.send(raw.encode("latin-1", "replace"))
            return {"ok": True, "sent": raw}
        die, face = request.get("die"), request.get("face")
        dice = known_dice()
        if die not in dice:
            raise CommandError(f"die must be one of {', '.join(dice)}, not {die!r}")
        self._seq = (self._seq + 1) % 65536
        self.hardware.sim.tray.send(f"ROLL,{self._seq},{die},{face}")
        return {"ok": True, "sent": {"seq": self._seq, "die": die, "face": face}}

    def roll_for_me(self, service: TableService, request: JSON) -> JSON:
        snapshot = service.snapshot()
        prompt = {} if snapshot is None else snapshot["prompt"]
        die = prompt.get("die")
        if die is None:
            raise RuleError("the game is not waiting for a die")
        # Like a physical die: every face equally likely, so repeated faces (three blanks) count each
        # time: the prompt's ``faces`` keeps repeats, ``die_info`` lists each face once.
        faces = prompt.get("faces") or (prompt.get("die_info") or {}).get("faces") or known_dice()[die].faces
        pool = prompt.get("pool") or {}
        count = int(pool.get("count", 1)) if pool.get("die") == die else 1  # a pool: one line per die
        sent = [self.tray(service, {"die": die, "face": self.rng.choice(faces)})["sent"]
                for _ in range(count)]
        return {"ok": True, "sent": sent[0] if count == 1 else sent}

    def oled(self, _service: TableService, request: JSON) -> JSON:
        images = self.hardware.sim.images()
        names = list(images)
        index = request.get("index", 0)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(names):
            raise CommandError(f"index must be 0 to {len(names) - 1}, not {index!r}")
        image = images[names[index]]
        status = self.hardware.status()["displays"].get(names[index], {})
        if image is None:
            return {"ok": True, "name": names[index], "png": None, "online": status.get("online", True)}
        buffer = io.BytesIO()
        image.convert("L").save(buffer, format="PNG")
        return {"ok": True, "name": names[index], "png": base64.b64encode(buffer.getvalue()).decode(),
                "width": image.width, "height": image.height, "online": status.get("online", True)}
