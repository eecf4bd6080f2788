"""The dice tray on a serial port: a reader thread that survives unplugging.

The port is opened by URL with ``serial.serial_for_url`` (a device path, ``loop://``, a pty's
slave name...), so tests and simulation use pyserial's own loopback or a real pseudo-terminal and
the code cannot tell the difference. Lines go through ``TrayProtocol``; events go to ``emit``. A
button line is acknowledged with ``$ACK`` at once; a roll only when whoever handled its event
calls ``answer()`` (after the roll is recorded: the firmware forgets a roll once it has its ACK),
or refused with ``$REJ``. The reader blocks in its read until a byte arrives (no timeout, so an idle
tray costs no wake-ups); whoever has something for it to write wakes it with pyserial's
``cancel_read``, which pyserial keeps pending when no read is under way. When the port fails
(``SerialException``, ``OSError``: the USB cable was pulled) the reader closes it and reopens it
with a backoff of 0.5 s doubling to 5 s, in its own thread, emitting ``TrayStatus`` on every
change of state.

>>> from hardware.dice_tray_protocol import frame
>>> from hardware.inputs import TrayRoll
>>> events = []
>>> tray = DiceTray("loop://", events.append)
>>> tray.wait_connected(2)
True
>>> tray.write_raw(frame("ROLL,1,d6,4"))  # loop:// reads back what is written
>>> tray.wait_for(lambda: any(isinstance(e, TrayRoll) for e in events), 2)
True
>>> roll = next(e for e in events if isinstance(e, TrayRoll))
>>> tray.answer(roll.seq, roll.epoch)  # recorded: "$ACK,1" goes out from the reader thread
>>> tray.close()
"""

from __future__ import annotations

import collections
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import serial

from hardware.dice_tray_protocol import TrayProtocol, expect_line
from hardware.inputs import Emit, TrayStatus

logger = logging.getLogger(__name__)

PortSource = str | Callable[[], str]


def backoff_delays(first: float = 0.5, cap: float = 5.0) -> Iterator[float]:
    """Waits between reconnect attempts: 0.5, 1, 2, 4, 5, 5... seconds by default."""
    delay = first
    while True:
        yield delay
        delay = min(delay * 2, cap)


# A tray that stops reading must not stall the table: a write gives up after this long (the reply
# is lost; the tray resends its line and gets its ACK again).
WRITE_TIMEOUT_S = 0.2


def open_port(url: str, baud: int, timeout: float) -> serial.SerialBase:
    """Open ``url`` with pyserial, exclusively where the platform supports it (not on Windows)."""
    try:
        return serial.serial_for_url(url, baudrate=baud, timeout=timeout, write_timeout=WRITE_TIMEOUT_S,
                                     exclusive=True)
    except ValueError as exc:  # some URL handlers refuse the exclusive flag
        if "exclusive" not in str(exc):
            raise
        return serial.serial_for_url(url, baudrate=baud, timeout=timeout, write_timeout=WRITE_TIMEOUT_S)


class DiceTray:
    """The serial dice tray. ``port`` is a URL or a callable giving one at each (re)connect.

    ``expect(die)`` tells the tray which die the game waits for; it is resent after a reconnect.
    ``status()`` reports the link state and the drop counters. ``close()`` stops the thread.
    """

    def __init__(self, port: PortSource, emit: Emit, *, baud: int = 115200, read_timeout: float | None = None,
                 backoff: tuple[float, float] = (0.5, 5.0), start: bool = True):
        self._port_source = port
        self._emit_to = emit
        self._baud = baud
        self._read_timeout = read_timeout
        self._backoff = backoff
        self._protocol = TrayProtocol()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._write_lock = threading.Lock()
        self._serial: serial.SerialBase | None = None
        self._expected: str | None = None
        self._expect_pending = threading.Event()
        # (seq, epoch, refusal) answers waiting for the reader thread to write them
        self._answers: collections.deque[tuple[int, int, str | None]] = collections.deque()
        self._state = "disconnected"
        self._detail = "not started"
        self._url = ""
        self._reconnects = 0
        self._thread = threading.Thread(target=self._run, name="companion-dice-tray", daemon=True)
        if start:
            self._thread.start()

    # -- what the service calls ---------------------------------------------------------------

    def expect(self, die: str | None) -> None:
        """Have ``$EXPECT,<die>`` sent at once, and again after every reconnect.

        The reader thread does the write: the caller (the table's owner thread) never waits on a
        serial port, even one whose far end has stopped reading.
        """
        expect_line(die)  # refuses an unknown die at once, in the caller's thread
        self._expected = die
        self._expect_pending.set()
        self._wake_reader()

    def answer(self, seq: int, epoch: int, refused: str | None = None) -> None:
        """Answer roll ``seq``: ``$ACK`` (recorded) or ``$REJ`` with the ``refused`` reason word.

        Call it only once the roll is durable (or refused): the tray stops resending on ``$ACK``.
        Like ``expect``, it only queues; the reader thread writes (and is woken to do it now).
        """
        self._answers.append((seq, epoch, refused))
        self._wake_reader()

    def status(self) -> dict[str, Any]:
        return {"state": self._state, "detail": self._detail, "port": self._url,
                "reconnects": self._reconnects, "counters": self._protocol.counters()}

    def close(self) -> None:
        """Stop reading, close the port and report ``disconnected`` (idempotent)."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake_reader()
        if self._thread.is_alive():
            self._thread.join(timeout=3)
        self._close_port()
        self._set_state("disconnected", "closed")

    # -- simulation and test helpers -----------------------------------------------------------

    @property
    def serial(self) -> serial.SerialBase | None:
        """The open pyserial object (``loop://`` in simulation: what is written here is read back)."""
        return self._serial

    def write_raw(self, data: bytes) -> None:
        """Write bytes to the port as they are (a ``loop://`` port reads them back as tray input)."""
        self._send(data)

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    @staticmethod
    def wait_for(condition: Callable[[], bool], timeout: float) -> bool:
        """Poll ``condition`` until true or ``timeout`` (tests: events arrive from the reader thread)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.002)
        return condition()

    # -- the reader thread ---------------------------------------------------------------------

    def _wake_reader(self) -> None:
        """End the reader's blocking read now (or its next one, if it is not reading yet).

        The reader checks its work after every read, so work queued before this call is done at
        once: pyserial's cancel is a byte on a pipe (posix) or a marker in the queue (loop://)
        that stays there until the read it cancels.
        """
        port = self._serial
        if port is not None:
            with contextlib.suppress(AttributeError, OSError, serial.SerialException):
                port.cancel_read()

    def _emit(self, event: Any) -> None:
        try:  # a failing receiver must not kill the reader thread (the tray would go deaf)
            self._emit_to(event)
        except Exception:
            logger.exception("emit failed for %r", event)

    def _send(self, data: bytes) -> None:
        with self._write_lock:
            port = self._serial
            if port is None:
                return
            # The reader sees the same failure and reconnects; the caller never waits for that.
            with contextlib.suppress(serial.SerialException, OSError):
                port.write(data)

    def _set_state(self, state: str, detail: str) -> None:
        if (state, detail) == (self._state, self._detail):
            return
        changed = state != self._state
        self._state, self._detail = state, detail
        if changed:
            self._emit(TrayStatus(state, detail))  # type: ignore[arg-type]

    def _close_port(self) -> None:
        with self._write_lock:
            port, self._serial = self._serial, None
        self._connected.clear()
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _run(self) -> None:
        delays = backoff_delays(*self._backoff)
        while not self._stop.is_set():
            url = self._port_source() if callable(self._port_source) else self._port_source
            self._url = url
            try:
                port = open_port(url, self._baud, self._read_timeout)
            except (serial.SerialException, OSError, ValueError) as exc:
                delay = next(delays)
                self._set_state("reconnecting", f"{url}: {exc}; next try in {delay:g} s")
                if self._stop.wait(delay):
                    break
                continue
            with self._write_lock:
                self._serial = port
            delays = backoff_delays(*self._backoff)
            self._connected.set()
            self._set_state("connected", url)
            if self._expected is not None:
                self._expect_pending.set()  # resent after every reconnect
            try:
                self._read_until_failure(port)
            except (serial.SerialException, OSError) as exc:
                if not self._stop.is_set():
                    self._reconnects += 1
                    self._set_state("reconnecting", f"{url}: {exc}")
            finally:
                self._close_port()

    def _read_until_failure(self, port: serial.SerialBase) -> None:
        while not self._stop.is_set():
            if self._expect_pending.is_set():
                self._expect_pending.clear()
                self._send(expect_line(self._expected))
            while self._answers:
                line = self._protocol.answer(*self._answers.popleft())
                if line is not None:
                    self._send(line)
            chunk = port.read(max(1, min(port.in_waiting, 4096)))
            if not chunk:
                continue
            events, replies = self._protocol.receive(chunk)
            for reply in replies:
                self._send(reply)  # button ACKs, and the earlier answer for a resent roll
            for event in events:
                self._emit(event)
