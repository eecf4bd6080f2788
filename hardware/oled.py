"""The OLED scoreboards: render a ``ScoreboardView``, send it, survive unplugging, spare the pixels.

``OledPanel`` owns one luma device (a real ``ssd1306``/``sh1106``/``ssd1309``/``ssd1322``, or
luma's ``dummy`` in simulation). An ``OSError`` from the bus (errno 121 when the display is
unplugged; luma turns it into ``DeviceNotFoundError``) marks the panel offline with a
``DisplayStatus`` event and the game goes on; every ``retry_s`` the panel probes the bus and, when
the display answers, re-creates the device (luma's constructor is the full init sequence) and
sends a whole frame. Burn-in care: contrast drops after ``idle_dim_s`` without a change, and the
picture moves by one pixel every ``pixel_shift_minutes``.

``DisplayWorker`` runs all panels on one thread and coalesces views: ``submit(view)`` only stores
the latest view, so a slow bus never holds up the buttons or the tray. Between views it sleeps
until the next thing a panel has due (a retry, the dimming, a pixel shift): minutes when all is
well, so an idle table costs no wake-ups. A view marked ``saving`` (a press's result shown before
its entry is written) is drawn as it is, without the mark; only if no newer view has come
``SAVING_MARK_AFTER_S`` later (the write is that slow, or failed) is it drawn again with the mark
along the bottom edge. The lights and the buzzer follow only recorded views.

>>> from luma.core.device import dummy
>>> from companion.game import ScoreboardView, SideView
>>> panel = OledPanel("main", lambda: dummy(width=128, height=64, mode="1"), print)
>>> panel.show(ScoreboardView("demo", (SideView("A", 2), SideView("B", 0)), "Q1", "9:58"))
DisplayStatus(name='main', online=True, detail='dummy 128x64')
>>> panel.online, panel.image.size
(True, (128, 64))
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from companion.game import ScoreboardView
from hardware.config import BurnInConfig
from hardware.inputs import DisplayStatus, Emit
from hardware.oled_layout import render
from hardware.oled_partial import PagedUpdater

logger = logging.getLogger(__name__)

SHIFT_CYCLE = ((0, 0), (1, 0), (1, 1), (0, 1))
# A write takes a few ms; a quarter of a second is long enough that the mark never flickers on a
# healthy card and short enough that nobody reads an unrecorded score as recorded for long.
SAVING_MARK_AFTER_S = 0.25
PARTIAL_TYPES = ("ssd1306", "ssd1309", "sh1106")

DeviceFactory = Callable[[], Any]


def describe_error(exc: BaseException) -> str:
    """``OSError [Errno 121] Remote I/O error`` style text for a DisplayStatus detail."""
    return f"{type(exc).__name__}: {exc}"


class OledPanel:
    """One display: ``show(view)`` and ``tick()`` never raise; ``image`` is the last frame drawn.

    ``open_device`` builds the luma device (it runs the init sequence); ``probe``, if given, is a
    cheap check that the display answers before a re-init is attempted (on I2C: a NOP command),
    so an unplugged display does not build a luma device every two seconds.
    """

    def __init__(self, name: str, open_device: DeviceFactory, emit: Emit, *, side: int | None = None,
                 partial: bool = True, burn_in: BurnInConfig | None = None,
                 probe: Callable[[], None] | None = None, retry_s: float = 2.0,
                 clock: Callable[[], float] = time.monotonic):
        self.name = name
        self._open_device = open_device
        self._probe = probe
        self._emit = emit
        self.side = side
        self._partial = partial
        self._burn_in = burn_in or BurnInConfig()
        self._retry_s = retry_s
        self._clock = clock
        self.device: Any = None
        self._updater: PagedUpdater | None = None
        self.online = False
        self._reported: bool | None = None
        self.detail = "not opened yet"
        self._next_try = float("-inf")
        self._view: ScoreboardView | None = None
        self._shown: tuple[ScoreboardView, tuple[int, int]] | None = None
        self.image: Image.Image | None = None
        self._started = clock()
        self._last_change = self._started
        self._dimmed = False
        self.frames_sent = 0

    # -- public --------------------------------------------------------------------------------

    def show(self, view: ScoreboardView, now: float | None = None) -> None:
        """Render and send ``view`` (a no-op if nothing would change on the glass)."""
        now = self._clock() if now is None else now
        if view != self._view:
            self._view = view
            self._last_change = now
        self.tick(now)

    def tick(self, now: float | None = None) -> None:
        """Retry an offline display, dim when idle, move the picture when its shift is due."""
        now = self._clock() if now is None else now
        if self.device is None and not self._reopen(now):
            return
        if self._view is None:
            return
        try:
            self._apply_contrast(now)
            shift = self.shift_at(now)
            if self._shown != (self._view, shift):
                size = (self.device.width, self.device.height)
                image = render(self._view, size, side=self.side, shift=shift)
                self._send(image)
                self.image = image
                self._shown = (self._view, shift)
        except Exception as exc:  # a display fault must never stop the game: report and retry
            self._fail(now, exc)

    def shift_at(self, now: float) -> tuple[int, int]:
        """The pixel offset in force at ``now`` (cycles right, down, left, up)."""
        minutes = self._burn_in.pixel_shift_minutes
        if minutes <= 0:
            return (0, 0)
        return SHIFT_CYCLE[int((now - self._started) // (minutes * 60)) % len(SHIFT_CYCLE)]

    def next_due(self) -> float | None:
        """When ``tick`` next has something to do: retry, dim or shift (``None``: nothing ever)."""
        due: list[float] = []
        if self.device is None:
            due.append(self._next_try)
        elif self._view is not None:
            idle = self._burn_in.idle_dim_s
            if idle > 0 and not self._dimmed:
                due.append(self._last_change + idle)
            period = self._burn_in.pixel_shift_minutes * 60
            if period > 0:
                due.append(self._started + ((self._clock() - self._started) // period + 1) * period)
        return min(due) if due else None

    @property
    def dimmed(self) -> bool:
        return self._dimmed

    @property
    def updater(self) -> PagedUpdater | None:
        return self._updater

    def status(self) -> dict[str, Any]:
        return {"online": self.online, "detail": self.detail, "dimmed": self._dimmed,
                "frames": self.frames_sent,
                "bytes": self._updater.bytes_sent if self._updater is not None else None}

    def close(self) -> None:
        """Blank and release the display (luma's ``cleanup``), ignoring a display already gone."""
        device, self.device = self.device, None
        if device is not None:
            # Apart: a failed write on the way out must not keep luma's cleanup from blanking the panel.
            with contextlib.suppress(Exception):  # unplugged already: nothing left to switch off
                if self._updater is not None:
                    self._updater.release()
            with contextlib.suppress(Exception):
                device.cleanup()

    # -- internals ------------------------------------------------------------------------------

    def _reopen(self, now: float) -> bool:
        if now < self._next_try:
            return False
        try:
            if self._probe is not None:
                self._probe()
            self.device = self._open_device()
        except Exception as exc:
            self._fail(now, exc)
            return False
        kind = type(self.device).__name__
        self._updater = PagedUpdater(self.device) if self._partial and kind in PARTIAL_TYPES else None
        self._shown = None  # a fresh init shows garbage or black: send a whole frame
        self._dimmed = False
        self._set_online(True, f"{kind} {self.device.width}x{self.device.height}")
        return True

    def _send(self, image: Image.Image) -> None:
        if self._updater is not None:
            self._updater.display(image)
        else:
            self.device.display(image.convert(self.device.mode) if self.device.mode != "1" else image)
        self.frames_sent += 1

    def _apply_contrast(self, now: float) -> None:
        idle = self._burn_in.idle_dim_s
        want_dim = idle > 0 and now - self._last_change >= idle
        if want_dim != self._dimmed:
            self.device.contrast(self._burn_in.dim_contrast if want_dim else self._burn_in.contrast)
            self._dimmed = want_dim

    def _fail(self, now: float, exc: BaseException) -> None:
        self.device = None
        self._updater = None
        self._shown = None
        self._next_try = now + self._retry_s
        self._set_online(False, describe_error(exc))

    def _set_online(self, online: bool, detail: str) -> None:
        self.online, self.detail = online, detail
        if self._reported != online:
            self._reported = online
            self._emit(DisplayStatus(self.name, online, detail))


class DisplayWorker:
    """Drives every panel from one thread; ``submit`` keeps only the newest view (coalescing)."""

    def __init__(self, panels: Sequence[OledPanel], start: bool = True,
                 on_view: Sequence[Callable[[ScoreboardView], None]] = ()):
        self.panels = list(panels)
        self._on_view = list(on_view)  # other slow outputs (LEDs, buzzer) that follow the view
        self.wakeups = 0  # times the thread woke with no view to draw (tests: no polling)
        self._lock = threading.Condition()
        self._pending: ScoreboardView | None = None
        self._submitted = 0
        self._done = 0
        self._closed = False
        self._unsaved: ScoreboardView | None = None  # drawn without its mark, due for it at _mark_at
        self._mark_at = 0.0
        self.views_drawn = 0
        self._thread = threading.Thread(target=self._run, name="companion-displays", daemon=True)
        if start:
            self._thread.start()

    def submit(self, view: ScoreboardView) -> None:
        """Hand over the latest view and return at once; an older view not yet drawn is dropped."""
        with self._lock:
            self._pending = view
            self._submitted += 1
            self._lock.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every submitted view has been drawn (tests, shutdown)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._done < self._submitted:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
        return True

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._pending is None and not self._closed:
                    self._lock.wait(self._sleep_for())
                    if self._pending is None and not self._mark_due():
                        self.wakeups += 1
                if self._closed:
                    return
                view, self._pending = self._pending, None
                upto = self._submitted
                if view is None and self._mark_due():  # still not recorded: now say so on the glass
                    view, self._unsaved = self._unsaved, None
                elif view is not None:
                    self._unsaved = None
                    if view.saving:
                        self._unsaved, self._mark_at = view, time.monotonic() + SAVING_MARK_AFTER_S
                        view = dataclasses.replace(view, saving=False)
            for panel in self.panels:
                if view is not None:
                    panel.show(view)
                else:
                    panel.tick()
            if view is not None and not view.saving and self._unsaved is None:
                # Lights and buzzer only for a recorded view: a period's buzz for a press whose
                # entry then fails would sound for nothing, and again on the retry.
                for hook in self._on_view:
                    try:
                        hook(view)
                    except Exception:  # a stuck LED must not stop the scoreboards
                        logger.exception("view hook %r failed", hook)
            with self._lock:
                if view is not None:
                    self.views_drawn += 1
                self._done = upto
                self._lock.notify_all()

    def _mark_due(self) -> bool:
        return self._unsaved is not None and time.monotonic() >= self._mark_at

    def _sleep_for(self) -> float | None:
        due = [d for d in (panel.next_due() for panel in self.panels) if d is not None]
        if self._unsaved is not None:
            due.append(self._mark_at)
        # The panels' clock is monotonic like ours; a few ms late keeps float rounding from waking
        # the thread just before its deadline, to find nothing due and sleep again.
        return None if not due else max(0.0, min(due) - time.monotonic()) + 0.005

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=3)
        for panel in self.panels:
            panel.close()


def save_png(image: Image.Image, path: str | Path, scale: int = 4) -> Path:
    """Save a frame as a PNG, enlarged ``scale`` times with square pixels (sim screenshots, docs)."""
    path = Path(path)
    big = image.convert("L").resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    big.save(path)
    return path
