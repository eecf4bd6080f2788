"""Out of file descriptors, too many clients, a dead socket loop: the table goes on or gets restarted."""

from __future__ import annotations

import json
import logging
import select
import socket
import threading
from pathlib import Path

import pytest
from socket_rig import build_service, rig, wait_until

from companion.service import TableService
from companion.socket_server import TableClient, TableSocketServer


def test_running_out_of_file_descriptors_refuses_clearly_and_accepting_goes_on(tmp_path: Path) -> None:
    with rig(tmp_path, "--nofile", "48") as (_child, path):
        crowd = []
        for _ in range(80):  # more than the service has descriptors for
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(10)
            sock.connect(str(path))
            crowd.append(sock)
        refusals: list[dict] = []

        def a_refusal_arrived() -> bool:
            readable, _, _ = select.select(crowd, [], [], 0.05)
            for sock in readable:
                line = sock.recv(4096).split(b"\n")[0]
                if line:
                    refusals.append(json.loads(line))
                    crowd.remove(sock)
                    sock.close()
            return bool(refusals)

        assert wait_until(a_refusal_arrived, timeout=30)
        assert refusals[0]["error_kind"] == "busy" and "run out of connections" in refusals[0]["error"]
        for sock in crowd:
            sock.close()
        # The descriptors come back as the crowd leaves, and the socket accepts again by itself.
        late = TableClient(path, timeout=30)
        assert late.request({"op": "state"})["ok"]
        late.close()


def test_one_client_too_many_is_told_so_and_a_freed_place_is_given_again(
        service: TableService, tmp_path: Path) -> None:
    server = TableSocketServer(service, tmp_path / "table.sock", max_clients=3)
    server.start()
    clients = [TableClient(server.path) for _ in range(3)]
    for client in clients:
        assert client.request({"op": "state"})["ok"]
    extra = TableClient(server.path)
    refused = extra.read_message()
    assert refused["ok"] is False and refused["error_kind"] == "busy"
    assert "already has 3 clients" in refused["error"]
    extra.close()
    clients.pop().close()

    def served_again() -> bool:
        client = TableClient(server.path)
        try:
            answer = client.request({"op": "state"})
        except ConnectionError:
            return False
        finally:
            client.close()
        return answer["ok"]

    assert wait_until(served_again)
    for client in clients:
        client.close()
    server.close()


def counting_heartbeat(service: TableService) -> list[int]:
    beats = [0]

    def beat() -> None:
        beats[0] += 1

    service.heartbeat = beat
    service.heartbeat_every = 0.005
    return beats


def test_the_watchdog_beats_only_while_every_vital_thread_is_alive(tmp_path: Path) -> None:
    service = build_service(tmp_path / "t.db")
    beats = counting_heartbeat(service)
    finish = threading.Event()
    reader = threading.Thread(target=finish.wait, name="tray-reader", daemon=True)
    reader.start()
    service.watch_vital(reader)
    service.start()
    try:
        assert wait_until(lambda: beats[0] >= 3), "beats while every vital thread lives"
        finish.set()
        reader.join()
        assert wait_until(lambda: service.beats_withheld >= 1)
        beats_at_death = beats[0]
        assert wait_until(lambda: service.beats_withheld >= 5)
        assert beats[0] == beats_at_death, "a beat was sent although the tray reader had died"
        assert service.dead_vitals() == ["tray-reader"]
    finally:
        service.stop()


def test_a_socket_loop_that_dies_stops_the_watchdog_and_says_why(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    service = build_service(tmp_path / "t.db")
    beats = counting_heartbeat(service)
    server = TableSocketServer(service, tmp_path / "table.sock")
    server.start()
    service.start()
    try:
        assert wait_until(lambda: beats[0] >= 3)

        def broken_accept() -> None:
            raise RuntimeError("an unexpected bug in the accept path")

        server._accept = broken_accept  # type: ignore[method-assign]
        with caplog.at_level(logging.ERROR), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(str(server.path))
            assert server._thread is not None
            server._thread.join(10)
            assert not server._thread.is_alive()
            assert wait_until(lambda: service.beats_withheld >= 1)
            beats_at_death = beats[0]
            assert wait_until(lambda: service.beats_withheld >= 5)
        assert beats[0] == beats_at_death
        assert "the table socket loop stopped" in caplog.text
        assert "withheld" in caplog.text
    finally:
        server.close()
        service.stop()


def test_a_server_closed_on_purpose_is_no_longer_vital(service: TableService, tmp_path: Path) -> None:
    server = TableSocketServer(service, tmp_path / "table.sock")
    server.start()
    assert service.dead_vitals() == [] and "table-socket" in service.vital_threads
    server.close()
    assert "table-socket" not in service.vital_threads
