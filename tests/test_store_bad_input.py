"""Hostile input gets a clear refusal, never a traceback (issue 9, item 12; issue 16, item 6).

Deeply nested JSON and integers over Python's 4,300-digit limit on the socket and in ``replay``, a
replay file that is not UTF-8, and game ids SQLite cannot hold (signed 64 bits) at every door:
``export``, ``show``, ``delete``, ``replay --resume`` and the service's ``resume``.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from companion.errors import CommandError, StoreError
from companion.session import MAX_JSON_DEPTH, parse_command, parse_json_object
from companion.store import MAX_GAME_ID, Store
from table.cli import main

FULL_GAME = Path(__file__).parent / "games" / "full_game_valley_hoopers.jsonl"
DEEP = '{"type": "x", "a": ' + "[" * 100_000 + "]" * 100_000 + "}"
HUGE_INT = '{"type": "roll", "die": "d20", "face": ' + "9" * 5_000 + "}"
TOO_BIG_ID = 10**30


@pytest.mark.parametrize(("line", "reason"), [
    (DEEP, f"nested more than {MAX_JSON_DEPTH} levels"),
    ("[" * 40 + "]" * 40, f"nested more than {MAX_JSON_DEPTH} levels"),
    (HUGE_INT, "more than 4300 digits"),
    (b'{"type": "undo", "note": "\xff"}', "not UTF-8"),
])
def test_a_hostile_line_is_a_command_error(line: str | bytes, reason: str) -> None:
    with pytest.raises(CommandError, match=reason):
        parse_command(line)


def test_brackets_inside_strings_are_not_nesting() -> None:
    text = "[" * 200
    assert parse_json_object(json.dumps({"type": "note", "text": text}))["text"] == text


def test_a_realistic_request_nests_well_within_the_limit() -> None:
    card = {"name": "A", "skills": [{"name": "x", "uses": [1]}]}
    options = {"sides": [{"name": "Lucy", "hoopers": [card]}]}
    assert parse_json_object(json.dumps({"op": "new_game", "options": options}))["op"] == "new_game"


def ask(path: Path, line: bytes) -> dict:
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(30)
        conn.connect(str(path))
        conn.sendall(line + b"\n")
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = conn.recv(65536)
            assert chunk, "the service closed the connection without a reply"
            reply += chunk
    return json.loads(reply.splitlines()[0])


@pytest.mark.parametrize(("line", "reason"), [
    (b'{"op": "state", "x": ' + b"[" * 20_000 + b"]" * 20_000 + b"}", "nested"),
    (HUGE_INT.encode(), "4300 digits"),
    (json.dumps({"op": "resume", "game_id": TOO_BIG_ID}).encode(), "no saved game"),
    (json.dumps({"op": "resume", "game_id": -1}).encode(), "no saved game"),
])
def test_the_socket_answers_hostile_requests_with_a_clear_error(server, line: bytes, reason: str) -> None:
    reply = ask(server.path, line)
    assert reply["ok"] is False and reply["error_kind"] != "internal" and reason in reply["error"]
    assert ask(server.path, b'{"op": "state"}')["ok"] is True  # and keeps serving


def test_game_ids_beyond_64_bits_are_refused_by_the_store(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "t.db")
    for game_id in (TOO_BIG_ID, MAX_GAME_ID + 1, 0, -5):
        with pytest.raises(StoreError, match=f"there is no saved game {game_id}: game ids are"):
            store.game(game_id)
        with pytest.raises(StoreError, match="game ids are"):
            store.delete_game(game_id)
    with pytest.raises(StoreError, match=f"there is no saved game {MAX_GAME_ID}$"):
        store.game(MAX_GAME_ID)  # in range: simply not there
    store.close()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ("export", str(TOO_BIG_ID)),
    ("export", str(TOO_BIG_ID), "--format", "csv"),
    ("show", str(TOO_BIG_ID)),
    ("delete", str(TOO_BIG_ID)),
    ("replay", str(FULL_GAME), "--resume", str(TOO_BIG_ID)),
])
def test_cli_game_ids_out_of_range_get_a_message_not_an_overflow(capsys, tmp_path: Path, argv) -> None:
    db = str(tmp_path / "g.db")
    assert run(capsys, "--db", db, "replay", str(FULL_GAME))[0] == 0  # a store with a game in it
    code, _, err = run(capsys, *argv, "--db", db)
    assert code == 2
    assert err == f"companion: there is no saved game {TOO_BIG_ID}: game ids are whole numbers from 1 to " \
                  f"{MAX_GAME_ID}\n"


@pytest.mark.parametrize(("bad", "reason"), [
    (DEEP.encode(), "line 3: not a table request: JSON nested more than"),
    (HUGE_INT.encode(), "line 3: not valid JSON: a number with more than 4300 digits"),
    (b'{"type": "roll", "die": "d20", "note": "caf\xe9"}', "line 3: not UTF-8 text (byte 44 is b'\\xe9')"),
])
def test_replay_names_the_line_of_a_hostile_file(capsys, tmp_path: Path, bad: bytes, reason: str) -> None:
    lines = FULL_GAME.read_bytes().splitlines()
    script = tmp_path / "bad.jsonl"
    script.write_bytes(b"\n".join([*lines[:2], bad, *lines[2:4]]) + b"\n")
    code, _, err = run(capsys, "replay", str(script), "--db", str(tmp_path / "g.db"))
    assert code == 2 and err.startswith(reason), err
    assert "Traceback" not in err


def test_replay_of_a_file_that_does_not_exist_says_so(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.jsonl"), "--db", str(tmp_path / "g.db"))
    assert code == 2 and "cannot read" in err and "No such file" in err


def test_global_options_work_after_every_subcommand(capsys, tmp_path: Path) -> None:
    db = tmp_path / "after.db"
    code, out, err = run(capsys, "replay", str(FULL_GAME), "--db", str(db), "--json")
    assert code == 0, err
    game_id = json.loads(out)["game_id"]
    assert db.exists()
    assert json.loads(run(capsys, "games", "--json", "--db", str(db))[1])[0]["id"] == game_id
    assert json.loads(run(capsys, "show", str(game_id), "--db", str(db))[1])["game_id"] == game_id
    assert json.loads(run(capsys, "export", str(game_id), "--db", str(db))[1])["id"] == game_id
    assert run(capsys, "calc", "vh", "attack", "--stat", "50", "--db", str(db))[0] == 0
    assert run(capsys, "delete", str(game_id), "--db", str(db))[1] == f"deleted game {game_id}\n"
    # Given both ways, the one after the subcommand wins (it is the more specific).
    other = tmp_path / "other.db"
    assert run(capsys, "--db", str(db), "replay", str(FULL_GAME), "--db", str(other))[0] == 0
    assert other.exists() and json.loads(run(capsys, "games", "--json", "--db", str(db))[1]) == []
