"""A press's result and the next choice reach the OLEDs once rendered, before the entry is written.

The service gives ``early_hooks`` the new scoreboard and the snapshot it will make current before
the commit (``Session.handle``'s ``on_decided``); the table's OLEDs draw it (the next choice's words
on the bottom line) while the owner writes the entry; the snapshot published once the entry is
durable then changes nothing on the glass. An entry that cannot be written brings the current state
back, with the error; a state that cannot be rendered is neither shown nor written.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest
import tally_game
from table_driver import script, sim_table

import table.serve as serve
from companion.errors import StoreError
from companion.game import ScoreboardView
from companion.service import TableService
from companion.store import Store
from table.serve import dial_text


@pytest.fixture()
def service(tmp_path: Path):
    store = Store.open(tmp_path / "games.db")
    service = TableService(store, find_game=tally_game.find)
    service.execute({"op": "new_game", "game": "tally"})
    yield service
    store.close()


def test_the_hooks_get_the_new_scoreboard_before_its_entry_is_written_and_the_snapshot_after(
        service: TableService) -> None:
    order: list[tuple[str, object]] = []
    game_id = service.session.game_id

    early: list[dict] = []

    def hook(board: ScoreboardView, snapshot: dict) -> None:
        # Not written yet: the setup is the store's only entry while the result is shown.
        order.append(("early", ([s.score for s in board.sides], len(service.store.entries(game_id)))))
        early.append(snapshot)

    def published(message: dict) -> None:
        if message.get("event") == "snapshot":
            order.append(("snapshot", (message["snapshot"]["scoreboard"]["sides"][0]["score"],
                                       len(service.store.entries(game_id)))))

    service.early_hooks.append(hook)
    service.subscribers.append(published)
    assert service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})["ok"]
    assert order == [("early", ([2, 0], 1)), ("snapshot", (2, 2))]
    assert early == [service.session.snapshot()]  # what the entry made current, shown before it
    # Undo and redo: the snapshot shown early is the one they make current, can_undo and all.
    for kind in ("undo", "redo", "undo"):
        assert service.execute({"op": "command", "command": {"type": kind}})["ok"]
        assert early[-1] == service.session.snapshot()
    assert early[-1]["can_undo"] is False and early[-1]["can_redo"] is True


def _watch(service: TableService) -> tuple[list[list[int]], list[int]]:
    """The scores shown early, and side 0's score in every snapshot published, as they come."""
    boards: list[list[int]] = []
    published: list[int] = []
    service.early_hooks.append(lambda board, _: boards.append([s.score for s in board.sides]))

    def on_message(message: dict) -> None:
        if message.get("event") == "snapshot":
            published.append(message["snapshot"]["scoreboard"]["sides"][0]["score"])

    service.subscribers.append(on_message)
    return boards, published


def test_a_result_shown_early_whose_entry_cannot_be_written_is_replaced_by_the_current_one(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    boards, published = _watch(service)

    def full_disk(*args, **kwargs):
        raise StoreError("the game store's disk is full; the command was not recorded")

    monkeypatch.setattr(service.store, "append", full_disk)
    answer = service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})
    assert not answer["ok"] and "disk is full" in answer["error"]
    # Shown early, not recorded, then the current state published again: every screen shows 0.
    assert boards == [[2, 0]] and published == [0]
    assert service.session.state.score == (0, 0) and service.session.seq == 0
    monkeypatch.undo()
    assert service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 3}})["ok"]
    assert len(service.store.entries(service.session.game_id)) == 2 and service.session.state.score == (3, 0)


def test_a_refusal_shows_nothing_early(service: TableService) -> None:
    boards: list[ScoreboardView] = []
    service.early_hooks.append(lambda board, _: boards.append(board))
    answer = service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 5}})
    assert not answer["ok"] and boards == []


def test_a_state_that_cannot_be_rendered_is_neither_shown_nor_written(service: TableService) -> None:
    boards: list[list[int]] = []
    published: list[int] = []
    service.early_hooks.append(lambda board, _: boards.append([s.score for s in board.sides]))
    service.subscribers.append(lambda message: published.append(message["snapshot"]["scoreboard"]["sides"][0]
                                                                ["score"]))
    good = service.session.game

    def broken_prompt(state):
        if state.score[0] == 3:
            raise RuntimeError("prompt bug")
        return good.prompt(state)

    service.session.game = dataclasses.replace(good, prompt=broken_prompt)
    answer = service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 3}})
    assert answer["error_kind"] == "internal" and "nothing was recorded" in answer["error"]
    assert boards == [] and published == []  # nothing shown early: the screens keep the current state
    assert len(service.store.entries(service.session.game_id)) == 1 and service.session.seq == 0


def test_the_oled_shows_each_press_s_result_and_next_choice_before_the_entry_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The owner waits for the early frame at most EARLY_FRAME_WAIT_S (5 ms) so a slow display never
    # holds the table back; on a loaded machine the display thread can miss that. The order is
    # what is checked here, so the wait is long enough for any machine.
    monkeypatch.setattr(serve, "EARLY_FRAME_WAIT_S", 30.0)
    options, commands = script()
    with sim_table(tmp_path / "t.db") as table:
        table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
        panel = next(iter(table.hardware.sim.panels.values()))
        submitted: list[ScoreboardView] = []
        recorded_when_shown: list[int] = []
        lock = threading.Lock()
        original = table.hardware.worker.submit

        def spy(view: ScoreboardView) -> None:
            with lock:
                submitted.append(view)
                # On the owner thread: for the early frame, between the renders and the commit.
                recorded_when_shown.append(len(table.service.store.entries(table.service.session.game_id)))
            original(view)

        table.hardware.worker.submit = spy
        drawn_at_snapshot: list[int] = []
        table.service.subscribers.append(lambda message: drawn_at_snapshot.append(
            table.hardware.worker.views_drawn) if message.get("event") == "snapshot" else None)
        scored = 0
        for command in commands[:60]:
            table.hardware.worker.flush()
            with lock:
                submitted.clear()
                recorded_when_shown.clear()
            seq_before, sent_before = table.seq, panel.frames_sent
            drawn_before = table.hardware.worker.views_drawn
            drawn_at_snapshot.clear()
            before = table.snapshot()["scoreboard"]
            table.enter_reachable(command)
            table.hardware.worker.flush()
            after = table.snapshot()["scoreboard"]
            with lock:
                views, counts = list(submitted), list(recorded_when_shown)
            # The early frame: the new scoreboard and what CONFIRM enters now, not recorded yet.
            first = views[0]
            assert first.saving and counts[0] == seq_before + 1  # entries 0..seq_before: not written
            assert first.to_json()["sides"] == after["sides"]
            assert first.message == dial_text(table.controls)
            assert drawn_at_snapshot and drawn_at_snapshot[0] > drawn_before  # drawn before it was published
            # The snapshot's frame, once the entry is durable, is the same picture: nothing more is sent.
            assert all(dataclasses.replace(v, saving=False) == dataclasses.replace(first, saving=False)
                       for v in views[1:])
            assert panel.frames_sent - sent_before <= 1
            scored += after["sides"] != before["sides"]
        assert scored > 5
        assert panel.image is not None and panel.image.crop((2, 60, 126, 62)).getbbox() is None


def test_the_buzzer_sounds_once_for_a_final_whose_entry_failed_and_was_entered_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    options, commands = script()
    with sim_table(tmp_path / "t.db") as table:
        table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
        for command in commands[:-1]:
            table.enter_reachable(command)
        lights = table.hardware.lights
        assert lights is not None
        table.hardware.worker.flush()
        before = lights.buzzes
        original = table.service.store.append

        def full_disk(*args, **kwargs):
            raise StoreError("the disk holding the game store is full; the command was not recorded")

        monkeypatch.setattr(table.service.store, "append", full_disk)
        answer = table.service.request({"op": "command", "command": commands[-1]})
        assert not answer["ok"] and "full" in answer["error"]
        table.hardware.worker.flush()
        assert lights.buzzes == before  # the final was shown early, not recorded: no buzz
        monkeypatch.setattr(table.service.store, "append", original)
        table.enter_reachable(commands[-1])
        assert table.snapshot()["outcome"] is not None
        table.hardware.worker.flush()
        assert lights.buzzes == before + 1


def test_a_result_shown_early_whose_entry_and_carried_snapshot_both_fail_is_replaced_too(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.session as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 1)  # every entry leaves a snapshot due
    assert service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 1}})["ok"]
    assert service.session.snapshots_due  # no idle moment here: it rides with the next entry
    boards, published = _watch(service)
    tries: list[bool] = []

    def full_disk(*args, **kwargs):
        tries.append(args[-1] is not None if len(args) > 5 else kwargs.get("snapshots") is not None)
        raise StoreError("the game store's disk is full; the command was not recorded")

    monkeypatch.setattr(service.store, "append", full_disk)
    answer = service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})
    assert not answer["ok"] and "disk is full" in answer["error"]
    assert tries == [True, False]  # with the snapshot, then the entry alone
    assert boards == [[3, 0]] and published == [1] and service.session.state.score == (1, 0)
