"""sd_notify: what systemd receives from the table service, read off a real AF_UNIX datagram socket."""

from __future__ import annotations

import doctest
import os
import socket
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import notify


@pytest.fixture
def systemd_socket(monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A datagram socket standing where systemd's notify socket would, with NOTIFY_SOCKET set."""
    # A short directory of our own: AF_UNIX paths stop at 108 bytes, and pytest's tmp_path can be long.
    with tempfile.TemporaryDirectory(prefix="sdn") as directory:
        path = Path(directory) / "notify"
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
            listener.bind(str(path))
            listener.settimeout(2)
            monkeypatch.setenv("NOTIFY_SOCKET", str(path))
            yield listener


@pytest.fixture
def abstract_systemd_socket(monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """The same, in the abstract namespace systemd uses inside containers ('@name')."""
    name = f"companion-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind("\0" + name)
        listener.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        yield listener


def test_ready_sends_ready_1(systemd_socket: socket.socket) -> None:
    assert notify.ready() is True
    assert systemd_socket.recv(4096) == b"READY=1"


def test_each_helper_sends_its_own_message(systemd_socket: socket.socket) -> None:
    assert notify.watchdog() and notify.stopping() and notify.status("waiting for the dice tray")
    received = [systemd_socket.recv(4096) for _ in range(3)]
    assert received == [b"WATCHDOG=1", b"STOPPING=1", b"STATUS=waiting for the dice tray"]


def test_notify_sends_one_datagram_with_several_assignments(systemd_socket: socket.socket) -> None:
    assert notify.notify("READY=1\nSTATUS=table open")
    assert systemd_socket.recv(4096) == b"READY=1\nSTATUS=table open"


def test_status_text_with_a_newline_cannot_forge_another_message(systemd_socket: socket.socket) -> None:
    notify.status("tray unplugged\nREADY=1")
    assert systemd_socket.recv(4096) == b"STATUS=tray unplugged READY=1"


def test_status_carries_utf8(systemd_socket: socket.socket) -> None:
    notify.status("Chus Kinder: tiro libre, 2ª parte")
    assert systemd_socket.recv(4096) == "STATUS=Chus Kinder: tiro libre, 2ª parte".encode()


def test_abstract_socket_named_with_at_sign_is_reached(abstract_systemd_socket: socket.socket) -> None:
    assert notify.ready() is True
    assert abstract_systemd_socket.recv(4096) == b"READY=1"


def test_without_notify_socket_every_call_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert [notify.ready(), notify.watchdog(), notify.status("x"), notify.stopping()] == [False] * 4


def test_a_socket_nobody_listens_on_returns_false_instead_of_raising(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert notify.ready() is False


def test_a_non_unix_address_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", "vsock:2:1234")
    assert notify.ready() is False


def test_watchdog_interval_is_watchdog_usec_in_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert notify.watchdog_interval() == 10.0


def test_watchdog_interval_for_our_own_pid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "2500000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert notify.watchdog_interval() == 2.5


def test_watchdog_meant_for_another_process_is_not_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert notify.watchdog_interval() is None


@pytest.mark.parametrize("usec", ["", "0", "-5", "ten seconds"])
def test_no_or_nonsense_watchdog_usec_means_no_watchdog(monkeypatch: pytest.MonkeyPatch, usec: str) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert notify.watchdog_interval() is None


def test_module_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    result = doctest.testmod(notify)
    assert result.attempted > 0 and result.failed == 0
