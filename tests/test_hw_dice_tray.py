"""The dice tray over real pyserial ports: loop://, pseudo-terminals, unplugging and replugging."""

from __future__ import annotations

import errno
import os
import select
import time

import pytest

from hardware.dice_tray import DiceTray, backoff_delays
from hardware.dice_tray_protocol import ack, expect_line, frame, refusal
from hardware.inputs import TrayRejected, TrayRoll, TrayStatus

FAST = (0.02, 0.08)  # backoff for tests; the default 0.5..5 s is checked on backoff_delays


class Pty:
    """A real pseudo-terminal: the tray opens the slave by name, the test plays the tray on the master."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.name = os.ttyname(slave)
        os.close(slave)  # the name stays valid while the master is open

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_until(self, wanted: bytes, timeout: float = 3.0) -> bytes:
        got = b""
        deadline = time.monotonic() + timeout
        while wanted not in got and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                got += os.read(self.master, 1024)
            except OSError as exc:  # EIO while nobody has the slave open yet (the tray is reconnecting)
                if exc.errno != errno.EIO:
                    raise
                time.sleep(0.01)
        return got

    def unplug(self) -> None:
        os.close(self.master)


@pytest.fixture
def events():
    return []


class Recorder:
    """Plays the table for the tray: keeps every event and answers each roll as recorded at once."""

    def __init__(self) -> None:
        self.events: list = []
        self.tray: DiceTray | None = None

    def __call__(self, event) -> None:
        self.events.append(event)
        if isinstance(event, TrayRoll) and self.tray is not None:
            self.tray.answer(event.seq, event.epoch)


def answering_tray(port, **kwargs) -> tuple[DiceTray, list]:
    recorder = Recorder()
    recorder.tray = DiceTray(port, recorder, backoff=FAST, **kwargs)
    return recorder.tray, recorder.events


def _wait(predicate, timeout: float = 3.0) -> bool:
    return DiceTray.wait_for(predicate, timeout)


def _rolls(events):
    return [e for e in events if isinstance(e, TrayRoll)]


def test_backoff_doubles_from_half_a_second_up_to_five():
    delays = backoff_delays()
    assert [next(delays) for _ in range(7)] == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0]


def test_on_loop_what_is_written_is_read_back_as_a_roll(events):
    tray = DiceTray("loop://", events.append, backoff=FAST)
    try:
        assert tray.wait_connected(2)
        tray.write_raw(frame("ROLL,1,d20x5,35") + frame("ROLL,2,d8foul,charge"))
        assert _wait(lambda: len(_rolls(events)) == 2)
        assert _rolls(events) == [TrayRoll(1, "d20x5", 35), TrayRoll(2, "d8foul", "charge")]
        assert events[0] == TrayStatus("connected", "loop://")
        # Our ACKs came back through the loop too and were ignored as echoes, not refused.
        assert not [e for e in events if isinstance(e, TrayRejected)]
    finally:
        tray.close()
    assert events[-1] == TrayStatus("disconnected", "closed")


def test_on_a_pty_lines_written_by_the_tray_are_acknowledged():
    pty = Pty()
    tray, events = answering_tray(pty.name)
    try:
        assert tray.wait_connected(2)
        pty.send(frame("ROLL,7,d6,5"))
        assert pty.read_until(ack(7)).endswith(ack(7))
        assert _wait(lambda: _rolls(events) == [TrayRoll(7, "d6", 5)])
    finally:
        tray.close()
        pty.unplug()


def test_a_line_split_byte_by_byte_still_arrives_once(events):
    pty = Pty()
    tray = DiceTray(pty.name, events.append, backoff=FAST)
    try:
        assert tray.wait_connected(2)
        for byte in frame("ROLL,8,d20,13"):
            pty.send(bytes([byte]))
        assert _wait(lambda: _rolls(events) == [TrayRoll(8, "d20", 13)])
    finally:
        tray.close()
        pty.unplug()


def test_a_roll_is_acknowledged_only_once_answered_and_resends_before_that_get_nothing(events):
    pty = Pty()
    tray = DiceTray(pty.name, events.append, backoff=FAST)
    try:
        assert tray.wait_connected(2)
        pty.send(frame("ROLL,3,d6,2"))
        assert _wait(lambda: _rolls(events) == [TrayRoll(3, "d6", 2)])
        pty.send(frame("ROLL,3,d6,2") + frame("BTN,4,reroll,press"))
        # The button's ACK shows the resend of roll 3 was read too, and not answered.
        assert ack(3) not in pty.read_until(ack(4))
        assert _rolls(events) == [TrayRoll(3, "d6", 2)]
        tray.answer(3, 0, "wrong_die")
        assert pty.read_until(refusal(3, "wrong_die")).endswith(refusal(3, "wrong_die"))
        pty.send(frame("ROLL,3,d6,2"))  # the refusal was lost on the wire: the same answer again
        assert pty.read_until(refusal(3, "wrong_die")).endswith(refusal(3, "wrong_die"))
        assert _rolls(events) == [TrayRoll(3, "d6", 2)]
    finally:
        tray.close()
        pty.unplug()


def test_a_bad_line_is_reported_and_not_acknowledged():
    pty = Pty()
    tray, events = answering_tray(pty.name)
    try:
        assert tray.wait_connected(2)
        pty.send(b"$ROLL,9,d6,4*00\r\n" + frame("ROLL,10,d6,4"))
        replies = pty.read_until(ack(10))
        assert ack(9) not in replies and ack(10) in replies
        assert _wait(lambda: any(isinstance(e, TrayRejected) for e in events))
        rejected = [e for e in events if isinstance(e, TrayRejected)]
        assert rejected[0].reason.startswith("bad checksum: got 00, computed ")
        assert tray.status()["counters"]["checksum"] == 1
    finally:
        tray.close()
        pty.unplug()


def test_expect_is_sent_now_and_again_after_a_reconnect(events):
    first = Pty()
    current = {"name": first.name}
    tray = DiceTray(lambda: current["name"], events.append, backoff=FAST)
    try:
        assert tray.wait_connected(2)
        tray.expect("d8foul")
        assert expect_line("d8foul") in first.read_until(expect_line("d8foul"))
        second = Pty()
        current["name"] = second.name
        first.unplug()
        assert expect_line("d8foul") in second.read_until(expect_line("d8foul"))
        second.unplug()
    finally:
        tray.close()


def test_unplug_mid_stream_then_replug_on_a_new_port_carries_on_and_applies_a_resend_once():
    first = Pty()
    current = {"name": first.name}
    tray, events = answering_tray(lambda: current["name"])
    try:
        assert tray.wait_connected(2)
        first.send(frame("ROLL,5,d20x5,55") + b"$ROLL,6,d2")  # cable pulled in the middle of line 6
        assert _wait(lambda: len(_rolls(events)) == 1)
        first.unplug()
        assert _wait(lambda: any(e == TrayStatus("reconnecting", e.detail) for e in events
                                 if isinstance(e, TrayStatus)))
        assert tray.status()["state"] == "reconnecting"
        second = Pty()
        current["name"] = second.name
        assert _wait(lambda: tray.status()["state"] == "connected")
        # The tray never saw ACK 5 arrive, so it resends 5 and then sends 6 whole.
        second.send(frame("ROLL,5,d20x5,55") + frame("ROLL,6,d20x5,20"))
        assert ack(6) in second.read_until(ack(6))
        assert _wait(lambda: len(_rolls(events)) == 2)
        assert _rolls(events) == [TrayRoll(5, "d20x5", 55), TrayRoll(6, "d20x5", 20)]
        states = [e.state for e in events if isinstance(e, TrayStatus)]
        assert states == ["connected", "reconnecting", "connected"]
        assert tray.status()["counters"]["duplicate"] == 1
        second.unplug()
    finally:
        tray.close()


def test_a_missing_port_keeps_retrying_without_blocking_and_connects_when_it_appears(events, tmp_path):
    attempts: list[str] = []
    pty_holder: dict[str, Pty] = {}

    def port() -> str:
        attempts.append("try")
        if len(attempts) < 3:
            return str(tmp_path / "ttyACM-missing")
        pty_holder.setdefault("pty", Pty())
        return pty_holder["pty"].name

    tray = DiceTray(port, events.append, backoff=FAST)
    try:
        assert tray.status()["state"] in ("disconnected", "reconnecting", "connected")  # never blocks
        assert tray.wait_connected(3)
        assert [e.state for e in events if isinstance(e, TrayStatus)] == ["reconnecting", "connected"]
        assert "ttyACM-missing" in next(e.detail for e in events if isinstance(e, TrayStatus))
    finally:
        tray.close()
        pty_holder["pty"].unplug()


def test_close_stops_the_reader_thread_promptly(events):
    tray = DiceTray("loop://", events.append, read_timeout=5.0, backoff=FAST)
    assert tray.wait_connected(2)
    tray.close()
    assert not tray._thread.is_alive()
    assert tray.status()["state"] == "disconnected"


def test_a_failing_receiver_does_not_kill_the_reader():
    received = []

    def emit(event):
        if isinstance(event, TrayRoll) and event.seq == 1:
            raise RuntimeError("service hiccup")
        received.append(event)

    tray = DiceTray("loop://", emit, backoff=FAST)
    try:
        assert tray.wait_connected(2)
        tray.write_raw(frame("ROLL,1,d6,1") + frame("ROLL,2,d6,2"))
        assert _wait(lambda: TrayRoll(2, "d6", 2) in received)
    finally:
        tray.close()
