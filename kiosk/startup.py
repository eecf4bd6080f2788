"""What ``companion run`` checks and arranges before Kivy loads: a display, a quiet console, logs.

A new player's terminal should show one line (where the window and the table service are), not
Kivy's start-up chatter: Kivy logs through Python's ``logging`` (``KIVY_LOG_MODE=PYTHON``) into a
file, reads and writes no ``~/.kivy/config.ini`` (``KIVY_NO_CONFIG``: our ``kivy_config.ini`` is
applied by the launcher anyway, and a fresh one only brings upgrade warnings), and the input
providers Kivy probes at import but we never use are not reported as errors.

>>> display_problem({"DISPLAY": ":0"}) is None
True
>>> display_problem({"SDL_VIDEODRIVER": "kmsdrm"}) is None
True
>>> display_problem({}).startswith("no display")
True
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path

# SDL video drivers that draw without a window system: straight on the Pi's screen (KMS/DRM,
# framebuffer, Broadcom's dispmanx...) or nowhere at all, on purpose.
SCREEN_DRIVERS = ("kmsdrm", "kmsdrm_legacy", "fbcon", "directfb", "rpi", "vivante", "evdev", "offscreen",
                  "dummy")


def display_problem(env: Mapping[str, str]) -> str | None:
    """Why no window can be opened with this environment, or None when there is somewhere to draw.

    A window needs an X server (``DISPLAY``), a Wayland compositor (``WAYLAND_DISPLAY``) or an SDL
    driver that draws on the screen itself (the appliance sets ``SDL_VIDEODRIVER=kmsdrm``). Over
    SSH none is set, and Kivy would otherwise keep running with no window anyone can see.
    """
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    drivers = [d.strip().lower() for d in env.get("SDL_VIDEODRIVER", "").split(",") if d.strip()]
    if any(d in SCREEN_DRIVERS for d in drivers):
        return None
    if env.get("KIVY_WINDOW", "").lower() in ("egl_rpi", "x11") or env.get("KIVY_BCM_DISPMANX_ID"):
        return None
    return ("no display to open the kiosk on: DISPLAY and WAYLAND_DISPLAY are not set, and "
            "SDL_VIDEODRIVER names no screen driver (kmsdrm, fbcon...). Over SSH, run it on the table's "
            "screen, with `ssh -X`, or as the appliance does (SDL_VIDEODRIVER=kmsdrm on the Pi's console); "
            "`companion serve --sim` runs the table without a screen")


def x_screen_size(display: str | None) -> tuple[int, int] | None:
    """The size of X ``display``'s default screen, or None (no X, no libX11).

    Fullscreen on X is a request to the window manager; a bare X server (an Xvfb, a Pi's X with no
    desktop) has none, and SDL then reports the screen's size while the window stays 800x600: the
    layout was drawn for a size the window does not have. Knowing the size, the launcher opens a
    borderless window exactly that big instead, which needs no window manager.
    """
    if not display:
        return None
    import ctypes
    import ctypes.util

    try:
        x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
    except OSError:
        return None
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    x11.XDefaultScreen.argtypes = [ctypes.c_void_p]
    x11.XDisplayWidth.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x11.XDisplayHeight.argtypes = [ctypes.c_void_p, ctypes.c_int]
    handle = x11.XOpenDisplay(display.encode())
    if not handle:
        return None
    try:
        screen = x11.XDefaultScreen(handle)
        return int(x11.XDisplayWidth(handle, screen)), int(x11.XDisplayHeight(handle, screen))
    finally:
        x11.XCloseDisplay(handle)


def log_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where ``companion run`` writes the kiosk's and its simulated service's logs."""
    env = os.environ if env is None else env
    state = env.get("XDG_STATE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".local" / "state")
    return Path(state) / "courtside-companion"


class _UnusedProviders(logging.Filter):
    """Drop Kivy's import-time reports about touch providers we never load (only ``mouse`` is used,
    see ``kivy_config.ini``): "MTDev is not supported by your version of linux" with a traceback
    reads like a broken install, yet means nothing for the kiosk."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.getMessage())
        return not (message.startswith("Input: ") and "not supported" in message)


def quiet_kivy(log_file: Path | None, verbose: bool = False) -> None:
    """Send Kivy's log to ``log_file`` (or, ``verbose``, to the console) before Kivy is imported.

    Under systemd (``log_file`` None) the log goes to stderr, the journal, at INFO. Environment
    variables already set win (``KIVY_LOG_MODE=KIVY`` brings Kivy's own console log back).
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # our argv is ours, not Kivy's
    os.environ.setdefault("KIVY_NO_CONFIG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")  # Kivy's own log files; ours is log_file
    root = logging.getLogger()
    if log_file is not None and not verbose:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(log_file, mode="w", encoding="utf-8")
    else:
        handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(_UnusedProviders())
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger("PIL").setLevel(logging.INFO)  # PIL's chunk-by-chunk DEBUG lines


def under_systemd(env: Mapping[str, str] | None = None) -> bool:
    """True when systemd started us (its journal is the log)."""
    env = os.environ if env is None else env
    return bool(env.get("INVOCATION_ID") or env.get("JOURNAL_STREAM"))


def hello_line(*, size: tuple[int, int], fullscreen: bool, display: str, socket_path: Path, sim: bool,
               started_service: bool, logs: Path | None) -> str:
    """The one line a start prints: where the window and the table service are, how to quit.

    >>> hello_line(size=(800, 480), fullscreen=False, display=":0", socket_path=Path("/run/t.sock"),
    ...            sim=True, started_service=True,
    ...            logs=Path("/home/a/logs"))  # doctest: +NORMALIZE_WHITESPACE
    'Courtside Companion: an 800x480 window on :0 (Escape or the close button quits); simulated table
    service started for this run on /run/t.sock (logs in /home/a/logs)'
    """
    width, height = size
    article = "an" if str(width).startswith("8") else "a"
    window = (f"fullscreen {width}x{height} on {display}" if fullscreen else
              f"{article} {width}x{height} window on {display} (Escape or the close button quits)")
    if started_service:
        service = f"{'simulated ' if sim else ''}table service started for this run on {socket_path}"
    else:
        service = f"the table service on {socket_path} (not started by this run)"
    return f"Courtside Companion: {window}; {service}" + (f" (logs in {logs})" if logs else "")
