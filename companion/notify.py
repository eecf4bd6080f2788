"""Tell systemd how the table service is doing: ready, alive, what it is busy with, stopping.

This is the ``sd_notify(3)`` protocol in a few lines of stdlib, so the service needs no libsystemd
binding on the Pi and the calls are harmless anywhere else (a laptop, CI, ``companion serve --sim``):
without ``$NOTIFY_SOCKET`` every call is a no-op that returns ``False``.

    >>> from companion import notify
    >>> notify.ready()            # after the store is open and the socket listens
    False
    >>> interval = notify.watchdog_interval()   # None unless systemd set WatchdogSec=
    >>> # ... then call notify.watchdog() every interval / 2 seconds from the main loop

Messages are the ``KEY=VALUE`` lines systemd reads (``READY=1``, ``WATCHDOG=1``, ``STATUS=...``,
``STOPPING=1``); ``notify()`` sends any of them as one datagram.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)

__all__ = ["notify", "ready", "status", "stopping", "watchdog", "watchdog_interval"]


def _socket_address(raw: str) -> str | None:
    """The address to send to: a filesystem path, or an abstract name ('@' becomes a NUL byte)."""
    if raw.startswith("@"):
        # Abstract namespace sockets have no file; the kernel name starts with a NUL byte.
        return "\0" + raw[1:]
    if raw.startswith("/"):
        return raw
    # systemd also knows vsock:… addresses (VMs); a table service never runs behind one.
    return None


def notify(message: str) -> bool:
    """Send one sd_notify datagram; ``True`` if systemd's socket accepted it.

    Never raises: a service must not fall over because its supervisor went away, so a failed send
    is logged and reported as ``False``.

    >>> notify("STATUS=warming up")   # no NOTIFY_SOCKET outside systemd
    False
    """
    raw = os.environ.get("NOTIFY_SOCKET", "")
    if not raw:
        return False
    address = _socket_address(raw)
    if address is None:
        log.debug("NOTIFY_SOCKET %r is not a unix socket address; not notifying", raw)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as exc:
        log.warning("could not notify systemd (%s): %s", raw, exc)
        return False
    return True


def ready() -> bool:
    """Tell systemd start-up is complete, so units ordered after us (the kiosk) may start."""
    return notify("READY=1")


def watchdog() -> bool:
    """Ping the watchdog: "the main loop is still turning". Call every ``watchdog_interval() / 2``."""
    return notify("WATCHDOG=1")


def status(text: str) -> bool:
    """Show a one-line status in ``systemctl status companion-serve`` ("waiting for dice tray")."""
    # A newline would start a new KEY=VALUE assignment, letting status text forge other messages.
    one_line = " ".join(text.splitlines())
    return notify(f"STATUS={one_line}")


def stopping() -> bool:
    """Tell systemd a clean shutdown has begun, so it waits instead of declaring us hung."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """Seconds within which systemd expects a ``watchdog()`` ping, or ``None`` if it expects none.

    Read from ``$WATCHDOG_USEC``; when ``$WATCHDOG_PID`` is set and is some other process (a child
    that inherited the environment), the watchdog is not ours and the answer is ``None``.

    >>> import os
    >>> os.environ.pop("WATCHDOG_USEC", None) and None
    >>> watchdog_interval() is None
    True
    """
    usec = os.environ.get("WATCHDOG_USEC", "")
    if not usec:
        return None
    pid = os.environ.get("WATCHDOG_PID", "")
    if pid:
        try:
            if int(pid) != os.getpid():
                return None
        except ValueError:
            return None
    try:
        value = int(usec)
    except ValueError:
        return None
    if value <= 0:
        return None
    return value / 1_000_000
