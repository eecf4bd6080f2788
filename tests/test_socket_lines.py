"""What the socket does with odd lines: too long, cut short by a half-close, an id that is not JSON."""

from __future__ import annotations

import doctest
import json
import socket
from pathlib import Path

import pytest

from companion import protocol, socket_lines
from companion.service import TableService
from companion.socket_server import MAX_LINE, TableClient, TableSocketServer


def strict(line: bytes) -> dict:
    """Parse like a strict JSON reader (a browser, Go, Rust): NaN and Infinity are not JSON."""
    def refuse(constant: str) -> None:
        raise ValueError(f"invalid JSON constant {constant}")
    return json.loads(line, parse_constant=refuse)


def read_lines_until_eof(sock: socket.socket) -> list[bytes]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return [line for line in data.split(b"\n") if line]


def replies(lines: list[bytes]) -> list[dict]:
    return [m for m in map(strict, lines) if "event" not in m]


def raw_client(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(20)
    sock.connect(str(path))
    return sock


def test_the_tail_of_an_oversized_line_never_runs_as_a_request(server: TableSocketServer) -> None:
    client = TableClient(server.path, timeout=20)
    client.sock.sendall(b"a" * (MAX_LINE + 4096))  # the old reader dropped at a 4 KiB boundary
    refusal = client.read_message()
    assert refusal["ok"] is False and "longer than" in refusal["error"]
    # The line goes on after the drop: what follows, up to its newline, is still the same line.
    client.sock.sendall(b'{"id": 7, "op": "new_game", "game": "tally"}\n')
    answer = client.request({"op": "state"})
    assert answer["snapshot"] is None, "the tail of the long line started a game"
    assert not [m for m in client.events if m.get("event") == "snapshot"]
    client.close()


def test_an_oversized_line_that_arrives_whole_is_refused_and_the_next_line_runs(
        server: TableSocketServer) -> None:
    sock = raw_client(server.path)
    sock.sendall(b'{"op": "state", "pad": "' + b"a" * MAX_LINE + b'"}\n{"id": 2, "op": "state"}\n')
    sock.shutdown(socket.SHUT_WR)
    answers = replies(read_lines_until_eof(sock))
    assert [a.get("id") for a in answers] == [None, 2]
    assert "longer than" in answers[0]["error"] and answers[1]["ok"]
    sock.close()


def test_a_command_then_a_half_close_is_applied_and_answered_before_the_close(
        server: TableSocketServer) -> None:
    sock = raw_client(server.path)
    sock.sendall(b'{"id": 1, "op": "new_game", "game": "tally"}\n'
                 b'{"id": 2, "op": "command", "command": {"type": "score", "side": 0, "points": 2}}\n'
                 b'{"id": 3, "op": "state"}')  # the last line without its newline still counts
    sock.shutdown(socket.SHUT_WR)
    answers = replies(read_lines_until_eof(sock))
    sock.close()
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert all(a["ok"] for a in answers) and answers[2]["snapshot"]["view"]["score"] == [2, 0]


def test_many_pipelined_requests_then_a_half_close_are_all_answered_in_order(
        server: TableSocketServer) -> None:
    sock = raw_client(server.path)
    sock.sendall(b"".join(b'{"id": %d, "op": "state"}\n' % n for n in range(1, 101)))
    sock.shutdown(socket.SHUT_WR)
    answers = replies(read_lines_until_eof(sock))
    sock.close()
    assert [a["id"] for a in answers] == list(range(1, 101))


@pytest.mark.parametrize("bad_id", [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"[1, 2]", b'{"a": 1}',
                                    b"1.5", b"true", b'"' + b"i" * 300 + b'"', b"1" + b"0" * 30])
def test_a_reply_is_always_valid_json_whatever_id_was_sent(server: TableSocketServer, bad_id: bytes) -> None:
    sock = raw_client(server.path)
    sock.sendall(b'{"id": ' + bad_id + b', "op": "new_game", "game": "tally"}\n{"id": 9, "op": "state"}\n')
    sock.shutdown(socket.SHUT_WR)
    lines = read_lines_until_eof(sock)
    sock.close()
    refused, state = replies(lines)  # strict parsing: a bare NaN here fails the test
    assert refused == {"id": None, "ok": False, "error_kind": "command", "error": refused["error"]}
    assert "an id is a string" in refused["error"]
    assert state["id"] == 9 and state["snapshot"] is None, "a request with a bad id must not run"


def test_good_ids_are_echoed_exactly(server: TableSocketServer) -> None:
    sock = raw_client(server.path)
    sock.sendall(b'{"id": "kiosk-1", "op": "state"}\n{"id": -42, "op": "state"}\n'
                 b'{"id": null, "op": "state"}\n')
    sock.shutdown(socket.SHUT_WR)
    assert [a["id"] for a in replies(read_lines_until_eof(sock))] == ["kiosk-1", -42, None]
    sock.close()


def test_a_reply_holding_nan_becomes_an_internal_error_not_invalid_json(server: TableSocketServer) -> None:
    service: TableService = server.service
    service.extra_ops["odd"] = lambda _svc, _req: {"ok": True, "value": float("nan")}
    sock = raw_client(server.path)
    sock.sendall(b'{"id": 5, "op": "odd"}\n')
    sock.shutdown(socket.SHUT_WR)
    (answer,) = replies(read_lines_until_eof(sock))
    sock.close()
    assert answer["id"] == 5 and answer["ok"] is False and answer["error_kind"] == "internal"


def test_the_examples_in_the_socket_modules_hold() -> None:
    for module in (socket_lines, protocol):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__
