"""The table service and its socket: one owner thread, clear errors, pushes to every client."""

from __future__ import annotations

import os
import socket
import stat
import threading
from pathlib import Path

import tally_game

from companion.service import TableService
from companion.snapshots import SNAPSHOT_EVERY
from companion.socket_server import TableClient, TableSocketServer
from companion.store import CHECKPOINT_AFTER_COMMITS, Store


def test_commands_from_many_threads_are_applied_one_at_a_time(service: TableService) -> None:
    service.request({"op": "new_game", "game": "tally", "options": {}})
    owner_threads: set[str] = set()
    service.subscribers.append(lambda _m: owner_threads.add(threading.current_thread().name))

    def press(side: int) -> None:
        for _ in range(3):
            service.request({"op": "command", "command": {"type": "score", "side": side, "points": 1}})

    workers = [threading.Thread(target=press, args=(s,)) for s in (0, 1, 0, 1)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    snap = service.request({"op": "state"})["snapshot"]
    assert snap["view"]["score"] == [6, 6]
    assert owner_threads == {"table-owner"}


def test_command_without_a_game_is_refused_clearly(service: TableService) -> None:
    answer = service.request({"op": "command", "command": {"type": "score", "side": 0, "points": 1}})
    assert answer == {"ok": False, "error_kind": "rule",
                      "error": "no game in progress: start a new game or resume one first"}


def test_unknown_op_names_the_known_ones(service: TableService) -> None:
    answer = service.request({"op": "dance"})
    assert not answer["ok"] and "unknown op 'dance'" in answer["error"] and "new_game" in answer["error"]


def test_resume_latest_picks_the_unfinished_game(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "t.db")
    svc = TableService(store, find_game=tally_game.find)
    svc.execute({"op": "new_game", "game": "tally"})
    svc.execute({"type": "score", "side": 1, "points": 3})
    again = TableService(Store.open(tmp_path / "t.db"), find_game=tally_game.find)
    assert again.resume_latest() is not None
    assert again.snapshot()["view"]["score"] == [0, 3]


def test_socket_is_owner_and_group_only(server: TableSocketServer) -> None:
    mode = stat.S_IMODE(os.stat(server.path).st_mode)
    assert mode == 0o660


def test_socket_round_trip_and_push_to_other_clients(server: TableSocketServer) -> None:
    kiosk, phone = TableClient(server.path), TableClient(server.path)
    # connect() returns while the connection still waits to be accepted; an answer proves the
    # service holds the phone as a client, so every push from now on reaches it.
    assert phone.request({"op": "state"})["ok"]
    assert kiosk.request({"op": "new_game", "game": "tally"})["ok"]
    reply = kiosk.request({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})
    assert reply["ok"] and reply["snapshot"]["view"]["score"] == [2, 0]
    pushed = phone.read_message()
    while pushed.get("event") != "snapshot" or pushed["snapshot"]["view"]["score"] != [2, 0]:
        pushed = phone.read_message()
    assert pushed["snapshot"]["scoreboard"]["sides"][0]["score"] == 2
    kiosk.close()
    phone.close()


def test_bad_lines_get_a_clear_error_and_change_nothing(server: TableSocketServer) -> None:
    client = TableClient(server.path)
    client.request({"op": "new_game", "game": "tally"})
    client.sock.sendall(b"{not json\n")
    message = client.read_message()
    while "event" in message:
        message = client.read_message()
    assert not message["ok"] and "not valid JSON" in message["error"]
    refused = client.request({"op": "command", "command": {"type": "score", "side": 0, "points": 9}})
    assert refused["error_kind"] == "rule" and "not 9" in refused["error"]
    state = client.request({"op": "state"})
    assert state["snapshot"]["view"]["score"] == [0, 0]
    client.close()


def test_no_tcp_listener_is_opened(server: TableSocketServer) -> None:
    # Every socket this process holds is AF_UNIX: read our own fds.
    families = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            s = socket.socket(fileno=int(fd))
        except OSError:
            continue
        families.add(s.family)
        s.detach()
    assert socket.AF_INET not in families and socket.AF_INET6 not in families


def test_a_closed_server_releases_its_accept_thread_and_a_new_one_takes_the_path(
        service: TableService, tmp_path: Path) -> None:
    first = TableSocketServer(service, tmp_path / "again.sock")
    first.start()
    first.close()
    assert first._thread is not None and not first._thread.is_alive()
    second = TableSocketServer(service, tmp_path / "again.sock")
    second.start()
    client = TableClient(second.path)
    assert client.request({"op": "state"})["ok"]
    client.close()
    second.close()


def test_a_bad_query_is_answered_but_not_announced_to_every_client(service: TableService) -> None:
    heard: list[dict] = []
    service.subscribers.append(heard.append)
    assert not service.request({"op": "resume", "game_id": 99})["ok"]
    assert not [m for m in heard if m.get("event") == "notice"]
    service.request({"op": "new_game", "game": "tally"})
    assert not service.request({"op": "command", "command": {"type": "score", "side": 0, "points": 7}})["ok"]
    notices = [m["text"] for m in heard if m.get("event") == "notice"]
    assert notices == ["a basket is worth 1 to 3 points, not 7"]


def test_the_log_holds_the_commands_in_effect_with_the_score_after_each(service: TableService) -> None:
    service.request({"op": "new_game", "game": "tally"})
    for points in (2, 3, 1):
        service.request({"type": "score", "side": 0, "points": points})
    service.request({"type": "undo"})
    answer = service.request({"op": "log"})
    assert [line["score"] for line in answer["log"]] == [[0, 0], [2, 0], [5, 0]]
    assert answer["log"][0]["text"] == "game set up" and answer["log"][2]["command"]["points"] == 3


def test_a_saved_game_that_no_longer_replays_is_skipped_at_start(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "t.db")
    TableService(store, find_game=tally_game.find).execute({"op": "new_game", "game": "tally"})
    plain = TableService(store)  # this service knows no "tally" game
    assert plain.resume_latest() is None
    assert plain.status["unresumable"][0]["error"].startswith("no game called 'tally'")


def test_the_wal_is_copied_back_while_the_table_is_idle_not_inside_a_press(service: TableService) -> None:
    service.request({"op": "new_game", "game": "tally", "options": {}})
    for n in range(CHECKPOINT_AFTER_COMMITS + 20):  # a score and its undo: the game never ends
        command = {"type": "undo"} if n % 2 else {"type": "score", "side": 0, "points": 1}
        assert service.request({"op": "command", "command": command})["ok"]
    # The owner does its idle work once a request is answered and nothing else waits, before it
    # takes the next request: this one is answered after the checkpoint that came due.
    service.request({"op": "state"})
    assert not service.store.wal_checkpoint_due  # 121 commits: copied back after the 100th


def test_a_due_snapshot_is_written_while_the_table_is_idle_not_inside_the_press(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "t.db")
    try:
        svc = TableService(store, find_game=tally_game.find)  # no owner thread: idle is called below
        svc.execute({"op": "new_game", "game": "tally", "options": {}})
        game_id = svc.session.game_id
        for n in range(SNAPSHOT_EVERY):  # a score and its undo: the game never ends
            command = {"type": "undo"} if n % 2 else {"type": "score", "side": 0, "points": 1}
            assert svc.execute({"op": "command", "command": command})["ok"]
        assert store.head_snapshot(game_id) is None  # the 64th press wrote its entry alone
        svc._while_idle()  # what the owner runs once a request is answered and nothing waits
        assert store.head_snapshot(game_id)[0] == SNAPSHOT_EVERY
        assert store.entries(game_id)[-1]["kind"] == "undo"
    finally:
        store.close()


def test_a_game_leaving_the_table_writes_the_snapshot_it_owes_first(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "t.db")
    try:
        svc = TableService(store, find_game=tally_game.find)
        svc.execute({"op": "new_game", "game": "tally", "options": {}})
        game_id = svc.session.game_id
        for n in range(SNAPSHOT_EVERY):
            command = {"type": "undo"} if n % 2 else {"type": "score", "side": 0, "points": 1}
            assert svc.execute({"op": "command", "command": command})["ok"]
        svc.execute({"op": "new_game", "game": "tally", "options": {}})  # no idle moment between
        assert store.head_snapshot(game_id)[0] == SNAPSHOT_EVERY
    finally:
        store.close()


def test_a_checkpoint_copies_every_wal_page_back_and_comes_due_again(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "t.db")
    try:
        svc = TableService(store, find_game=tally_game.find)  # no owner thread: nothing runs while idle
        svc.execute({"op": "new_game", "game": "tally", "options": {}})
        for n in range(CHECKPOINT_AFTER_COMMITS - 1):
            command = {"type": "undo"} if n % 2 else {"type": "score", "side": 0, "points": 1}
            assert svc.execute({"op": "command", "command": command})["ok"]
        assert store.wal_checkpoint_due
        pages, copied = store.checkpoint_wal()
        assert pages > 0 and copied == pages
        assert not store.wal_checkpoint_due
    finally:
        store.close()
