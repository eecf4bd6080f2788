"""A simulated service the kiosk started stops when the kiosk dies, even by SIGKILL.

``companion run --sim`` starts its own ``companion serve --sim`` and stops it on a clean exit; a
kiosk killed outright never runs that stop. On Linux the kernel then sends the service SIGTERM
(``kiosk.launcher.stopped_with``), so no orphan keeps the socket and the store.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import textwrap
from pathlib import Path

import pytest
from kiosk_support import PYTHON, ROOT, kiosk_env

from kiosk.launcher import stopped_with

KIOSK_STAND_IN = textwrap.dedent("""
    import sys, threading
    from pathlib import Path
    from kiosk.launcher import start_service
    child = start_service(Path(sys.argv[1]), Path(sys.argv[2]), 60, [sys.executable, "-m", "table.cli"],
                          log=Path(sys.argv[3]))
    print(child.pid, flush=True)
    threading.Event().wait()  # alive until killed, as a kiosk showing the table would be
""")


def _wait_for_exit(pid: int, timeout: float) -> bool:
    """True once ``pid`` (not our child) has ended: its pidfd becomes readable."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    finally:
        os.close(fd)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_service_a_killed_kiosk_started_stops_too(tmp_path: Path, how: signal.Signals) -> None:
    socket_path, db, log = tmp_path / "t.sock", tmp_path / "t.db", tmp_path / "serve.log"
    kiosk = subprocess.Popen([PYTHON, "-c", KIOSK_STAND_IN, str(socket_path), str(db), str(log)],
                             env=kiosk_env(tmp_path, display=""), cwd=ROOT, stdout=subprocess.PIPE, text=True)
    service_pid = 0
    try:
        assert kiosk.stdout is not None
        line = kiosk.stdout.readline()
        said = log.read_text() if log.exists() else ""
        assert line.strip().isdigit(), f"no service started: {line!r}; {said}"
        service_pid = int(line)
        os.kill(service_pid, 0)  # running, answering on the socket
        kiosk.send_signal(how)  # the stand-in has no handler: it dies at once, without stopping anything
        kiosk.wait(30)
        assert _wait_for_exit(service_pid, 30), "the service outlived the kiosk that started it"
        assert not socket_path.exists()  # a clean stop on SIGTERM: it took its socket down
    finally:
        kiosk.kill()
        kiosk.wait(30)
        if service_pid and not _wait_for_exit(service_pid, 0):
            os.killpg(service_pid, signal.SIGKILL)


def test_a_child_whose_kiosk_died_before_the_watch_began_stops_even_under_the_kiosks_handler() -> None:
    # The kiosk notes a SIGTERM in a handler of its own (it must stop cleanly); its child inherits
    # that handler until the exec, and the check for a parent already gone must still end it.
    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        child = subprocess.Popen([PYTHON, "-c", "pass"],
                                 preexec_fn=stopped_with(os.getpid() + 1_000_000))  # not its parent
        assert child.wait(30) == -signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, previous)
