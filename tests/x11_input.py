"""Real X11 input for the kiosk tests: a key pressed through XTest, and the window manager's close.

The kiosk under test is a real SDL window on a private Xvfb; these go through the X server like a
keyboard and a window manager would (libX11 and libXtst via ctypes, no extra package):

    window = find_window(":5", "Courtside Companion")
    press_key(":5", window, "Escape")
    ask_to_close(":5", window)       # WM_DELETE_WINDOW, what a title bar's close button sends
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
import subprocess

_x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
_xtst = ctypes.cdll.LoadLibrary(ctypes.util.find_library("Xtst") or "libXtst.so.6")
_x11.XOpenDisplay.restype = ctypes.c_void_p
_x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
_x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
_x11.XFlush.argtypes = [ctypes.c_void_p]
_x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
_x11.XStringToKeysym.restype = ctypes.c_ulong
_x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
_x11.XKeysymToKeycode.restype = ctypes.c_ubyte
_x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
_x11.XInternAtom.restype = ctypes.c_ulong
_x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
_x11.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
_x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
_xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]

CLIENT_MESSAGE = 33
REVERT_TO_PARENT = 2


class _ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]


class _XEvent(ctypes.Union):
    _fields_ = [("client", _ClientMessage), ("pad", ctypes.c_long * 24)]


def find_window(display: str, title: str) -> int | None:
    """The id of the top-level window named ``title`` on ``display`` (None while there is none)."""
    tree = subprocess.run(["xwininfo", "-root", "-tree", "-display", display], capture_output=True,
                          text=True, timeout=10).stdout
    for line in tree.splitlines():
        found = re.match(r'\s*(0x[0-9a-f]+) "(.*)":', line)
        if found and found.group(2) == title:
            return int(found.group(1), 16)
    return None


def _open(display: str) -> int:
    handle = _x11.XOpenDisplay(display.encode())
    if not handle:
        raise RuntimeError(f"cannot open X display {display}")
    return handle


def press_key(display: str, window: int, key: str) -> None:
    """Focus ``window`` and press and release ``key`` (an X keysym name, e.g. "Escape")."""
    handle = _open(display)
    try:
        _x11.XSetInputFocus(handle, window, REVERT_TO_PARENT, 0)
        code = _x11.XKeysymToKeycode(handle, _x11.XStringToKeysym(key.encode()))
        _xtst.XTestFakeKeyEvent(handle, code, 1, 0)
        _xtst.XTestFakeKeyEvent(handle, code, 0, 0)
        _x11.XSync(handle, 0)
    finally:
        _x11.XCloseDisplay(handle)


def ask_to_close(display: str, window: int) -> None:
    """Send ``window`` the WM_DELETE_WINDOW request a window manager's close button sends."""
    handle = _open(display)
    try:
        event = _XEvent()
        event.client.type = CLIENT_MESSAGE
        event.client.window = window
        event.client.message_type = _x11.XInternAtom(handle, b"WM_PROTOCOLS", 0)
        event.client.format = 32
        event.client.data[0] = _x11.XInternAtom(handle, b"WM_DELETE_WINDOW", 0)
        event.client.data[1] = 0  # CurrentTime
        _x11.XSendEvent(handle, window, 0, 0, ctypes.byref(event))
        _x11.XSync(handle, 0)
    finally:
        _x11.XCloseDisplay(handle)
