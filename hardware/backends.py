"""The one place that decides real hardware or simulation, and builds the table's whole set.

``build_hardware(config, sim, emit)`` returns a ``TableHardware``: buttons, encoder, dice tray,
OLEDs and lights wired to ``emit``. With ``sim=True`` every part uses its library's own double:
gpiozero's ``MockFactory``, luma's ``dummy`` devices, a real pseudo-terminal for the tray (or
``loop://`` where there are no ptys). With ``sim=False`` it uses gpiozero's default pin factory,
luma's I2C/SPI interfaces and the configured serial port, and refuses with ``HardwareUnavailable``
naming what is missing (a library, /dev/i2c-1...). A display or tray that is merely unplugged is
not "missing": it is reported offline and retried while the game goes on.

>>> from hardware.config import HardwareConfig
>>> table = build_hardware(HardwareConfig(), sim=True, emit=lambda event: None)
>>> sorted(table.status())
['buttons', 'displays', 'encoder', 'lights', 'sim', 'tray']
>>> table.close()
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import threading
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.game import ScoreboardView
from hardware.buttons import ButtonPanel
from hardware.config import DisplayConfig, HardwareConfig
from hardware.dice_tray import DiceTray
from hardware.dice_tray_protocol import frame
from hardware.encoder import Dial
from hardware.inputs import Emit
from hardware.leds import TableLights
from hardware.oled import DeviceFactory, DisplayWorker, OledPanel

ENCODER_ROLE = "ENCODER"


class HardwareUnavailable(RuntimeError):
    """A library or device the real table needs is missing; the message names it and the fix."""


@dataclass
class SimTray:
    """The far end of the simulated tray's pseudo-terminal: play the tray's firmware from here.

    Like a real tray's firmware, it keeps reading what the companion sends (ACKs, EXPECTs) on a
    thread of its own; otherwise the pty's buffer would fill and the companion's writes would stall.
    ``read()`` returns what arrived since the last call (the newest 64 KiB at most).
    """

    master_fd: int | None
    url: str
    tray: DiceTray
    _received: bytearray = field(default_factory=bytearray, repr=False)
    _arrived: threading.Condition = field(default_factory=threading.Condition, repr=False)
    _drain: threading.Thread | None = field(default=None, repr=False)
    _wake_r: int = field(default=-1, init=False, repr=False)
    _wake_w: int = field(default=-1, init=False, repr=False)

    def __post_init__(self) -> None:
        self._wake_r, self._wake_w = os.pipe()  # close() wakes the drain out of its select()
        if self.master_fd is not None:
            self._drain = threading.Thread(target=self._drain_loop, name="sim-tray-firmware", daemon=True)
            self._drain.start()

    def _drain_loop(self) -> None:
        while (fd := self.master_fd) is not None:
            try:
                ready, _, _ = select.select([fd, self._wake_r], [], [])  # asleep until bytes arrive
                if self._wake_r in ready:
                    return
                chunk = os.read(fd, 4096)
            except OSError as exc:  # EIO: the tray side is closed for a moment (reconnecting)
                if exc.errno not in (errno.EIO, errno.EBADF):
                    raise
                # Without a reader on the tray side the master reads EIO at once: wait for the
                # tray to reopen (its backoff is at least 10 ms) rather than spin.
                if select.select([self._wake_r], [], [], 0.01)[0]:
                    return
                continue
            except ValueError:  # the fd was closed under select()
                return
            if chunk:
                with self._arrived:
                    self._received += chunk
                    del self._received[:-65536]
                    self._arrived.notify_all()

    def send(self, body_or_line: str | bytes) -> None:
        """Send ``ROLL,1,d6,4`` (framed for you) or raw bytes exactly as given."""
        data = frame(body_or_line) if isinstance(body_or_line, str) else body_or_line
        if self.master_fd is None:
            self.tray.write_raw(data)  # loop://: what is written is read back
        else:
            os.write(self.master_fd, data)

    def read(self, timeout: float = 1.0, until: bytes | None = None) -> bytes:
        """What the companion sent the tray (ACKs, EXPECTs), waiting up to ``timeout`` seconds."""
        if self.master_fd is None:
            return b""
        with self._arrived:
            self._arrived.wait_for(lambda: until is not None and until in self._received, timeout)
            got = bytes(self._received)
            self._received.clear()
        return got

    def close(self) -> None:
        if self.master_fd is not None:
            fd, self.master_fd = self.master_fd, None
            os.write(self._wake_w, b"x")
            if self._drain is not None:
                self._drain.join(timeout=1)
            with contextlib.suppress(OSError):
                os.close(fd)
        ends, self._wake_r, self._wake_w = (self._wake_r, self._wake_w), -1, -1
        for end in ends:
            if end >= 0:
                os.close(end)


@dataclass
class SimHandles:
    """What tests and the simulator need to play the table: the mock pins, the screens, the tray."""

    pin_factory: Any
    tray: SimTray | None
    panels: dict[str, OledPanel] = field(default_factory=dict)

    def pin(self, number: int) -> Any:
        """The ``MockPin`` for a BCM number: ``drive_low()`` presses a button wired there."""
        return self.pin_factory.pin(number)

    def images(self) -> dict[str, Any]:
        """The last frame each dummy display received (``None`` before the first)."""
        return {name: getattr(panel.device, "image", None) for name, panel in self.panels.items()}


class TableHardware:
    """The table's hardware as the service sees it: ``show``, ``expect``, ``status``, ``close``."""

    def __init__(self, *, buttons: ButtonPanel | None, dial: Dial | None, tray: DiceTray | None,
                 worker: DisplayWorker, lights: TableLights | None, sim: SimHandles | None):
        self.buttons = buttons
        self.dial = dial
        self.tray = tray
        self.worker = worker
        self.lights = lights
        self.sim = sim
        self._closed = False

    def show(self, view: ScoreboardView) -> None:
        """Show ``view`` on every display and light; returns at once (drawn on the display thread)."""
        self.worker.submit(view)

    def beat(self, tempo_ms: int | None) -> None:
        """Beat a steady tempo on the LEDs and the buzzer (``None``: stop), when the table has them."""
        if self.lights is not None:
            self.lights.beat(tempo_ms)

    def expect(self, die: str | None) -> None:
        """Tell the dice tray which die the game waits for (``None``: none)."""
        if self.tray is not None:
            self.tray.expect(die)

    def answer_tray(self, roll: Mapping[str, Any], refused: str | None) -> None:
        """Answer a ``TrayRoll`` (its JSON form) once it is recorded (``refused``: the reason word)."""
        if self.tray is not None:
            self.tray.answer(int(roll["seq"]), int(roll.get("epoch", 0)), refused)

    def status(self) -> dict[str, Any]:
        if self._closed:  # the service may still push a status while the table shuts down
            return {"sim": self.sim is not None, "closed": True}
        return {
            "sim": self.sim is not None,
            "buttons": list(self.buttons.roles) if self.buttons else [],
            "encoder": self.dial is not None,
            "tray": self.tray.status() if self.tray else None,
            "displays": {p.name: p.status() for p in self.worker.panels},
            "lights": self.lights.lit() if self.lights else {},
        }

    def close(self) -> None:
        """Stop every thread and release pins, ports and displays (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self.worker.close()
        for part in (self.tray, self.buttons, self.dial, self.lights):
            if part is not None:
                part.close()
        if self.sim is not None and self.sim.tray is not None:
            self.sim.tray.close()


def build_hardware(config: HardwareConfig, sim: bool, emit: Emit, *,
                   clock: Callable[[], float] | None = None) -> TableHardware:
    """Build the real or the simulated table from ``config``; inputs go to ``emit``."""
    pin_factory = _mock_factory() if sim else _real_pin_factory()
    parts: list[Any] = []
    try:
        buttons = _build_buttons(config, pin_factory, emit, clock)
        parts.append(buttons)
        dial = None
        if config.encoder is not None:
            dial = Dial(config.encoder.a, config.encoder.b, emit, pin_factory)
            parts.append(dial)
        panels = [_build_panel(d, config, sim, emit) for d in config.displays]
        lights = None
        if config.leds.possession or config.leds.bonus or config.leds.buzzer is not None:
            lights = TableLights(config.leds, pin_factory)
            parts.append(lights)
        tray, sim_tray = None, None
        if config.tray is not None:
            tray, sim_tray = _build_tray(config, sim, emit)
            parts.append(tray)
        worker = DisplayWorker(panels, on_view=[lights.show] if lights else [])
    except BaseException:
        for part in reversed(parts):
            with contextlib.suppress(Exception):
                part.close()
        raise
    handles = SimHandles(pin_factory, sim_tray, {p.name: p for p in panels}) if sim else None
    return TableHardware(buttons=buttons, dial=dial, tray=tray, worker=worker, lights=lights, sim=handles)


def _mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


def _real_pin_factory() -> Any:
    try:
        from gpiozero import Device
        from gpiozero.exc import BadPinFactory
    except ImportError as exc:
        raise HardwareUnavailable(f"gpiozero is not installed ({exc}): "
                                  "pip install '.[hardware,pi]'") from None
    # gpiozero tries lgpio, RPi.GPIO, pigpio, native in turn and warns about each failure; those
    # reasons are exactly what the operator needs, so they go into the message instead of stderr.
    with warnings.catch_warnings(record=True) as tried:
        warnings.simplefilter("always")
        try:
            return Device._default_pin_factory()
        except BadPinFactory:
            reasons = "; ".join(str(w.message) for w in tried) or "no factory could load"
            raise HardwareUnavailable(
                f"no GPIO pin library works here ({reasons}): on a Raspberry Pi install lgpio "
                "(pip install '.[pi]'), elsewhere run with --sim") from None


def _build_buttons(config: HardwareConfig, pin_factory: Any, emit: Emit,
                   clock: Callable[[], float] | None) -> ButtonPanel:
    pins = dict(config.buttons.pins)
    hold_s = dict(config.buttons.hold_s)
    if config.encoder is not None and config.encoder.push is not None:
        # The encoder's push switch is one more button, so it shares debounce, hold and tie rules.
        pins[ENCODER_ROLE] = config.encoder.push
        hold_s[ENCODER_ROLE] = config.encoder.push_hold_s
    return ButtonPanel(pins, emit, pin_factory, hold_s=hold_s, debounce_s=config.buttons.debounce_ms / 1000,
                       tie_window_s=config.buttons.tie_window_ms / 1000, clock=clock)


def _build_panel(display: DisplayConfig, config: HardwareConfig, sim: bool, emit: Emit) -> OledPanel:
    width, height = display.size
    probe: Callable[[], None] | None = None
    if sim:
        from luma.core.device import dummy

        def open_device() -> Any:
            return dummy(width=width, height=height, rotate=display.rotate, mode="1")
    else:
        open_device, probe = _real_device(display)
    return OledPanel(display.name, open_device, emit, side=display.side, partial=display.partial,
                     burn_in=config.burn_in, probe=probe)


def _real_device(display: DisplayConfig) -> tuple[DeviceFactory, Callable[[], None] | None]:
    try:
        import luma.core.error
        from luma.core.interface.serial import i2c, spi
        from luma.oled import device as oled
    except ImportError as exc:
        raise HardwareUnavailable(f"luma.oled is not installed ({exc}): pip install '.[hardware]'") from None
    driver = getattr(oled, display.type)
    width, height = display.size
    if display.is_spi:
        try:
            import spidev  # noqa: F401  (luma imports it lazily; fail here with a clear message)
        except ImportError:
            raise HardwareUnavailable(f"display {display.name!r} is on SPI but spidev is not installed: "
                                      "pip install '.[pi]'") from None
        path = f"/dev/spidev{display.port}.{display.device}"
        if not os.path.exists(path):
            raise HardwareUnavailable(f"display {display.name!r}: {path} not found: enable SPI "
                                      "(sudo raspi-config nonint do_spi 0) and reboot")
        try:
            interface = spi(port=display.port, device=display.device,
                            gpio_DC=display.dc, gpio_RST=display.reset)
        except (luma.core.error.Error, OSError, RuntimeError) as exc:
            raise HardwareUnavailable(f"display {display.name!r}: cannot open SPI: {exc}") from None

        def open_spi() -> Any:
            return driver(interface, width=width, height=height, rotate=display.rotate)
        return open_spi, None
    try:
        import smbus2  # noqa: F401
    except ImportError:
        raise HardwareUnavailable(f"display {display.name!r} is on I2C but smbus2 is not installed: "
                                  "pip install '.[pi]'") from None
    try:
        interface = i2c(port=display.bus, address=display.address)
    except luma.core.error.Error as exc:
        raise HardwareUnavailable(f"display {display.name!r}: {exc}: enable I2C "
                                  "(sudo raspi-config nonint do_i2c 0) and reboot") from None

    def open_i2c() -> Any:
        return driver(interface, width=width, height=height, rotate=display.rotate)

    def probe() -> None:
        interface.command(0xE3)  # NOP: raises while the display does not answer
    return open_i2c, probe


def _build_tray(config: HardwareConfig, sim: bool, emit: Emit) -> tuple[DiceTray, SimTray | None]:
    assert config.tray is not None
    try:
        import serial  # noqa: F401
    except ImportError as exc:
        raise HardwareUnavailable(f"pyserial is not installed ({exc}): pip install '.[hardware]'") from None
    if not sim:
        return DiceTray(config.tray.port, emit, baud=config.tray.baud), None
    master: int | None = None
    url = "loop://"
    if hasattr(os, "openpty"):
        master, slave = os.openpty()
        url = os.ttyname(slave)
        os.close(slave)  # the tray opens it by name, like a real /dev/ttyACM0
    tray = DiceTray(url, emit, baud=config.tray.baud)
    return tray, SimTray(master, url, tray)
