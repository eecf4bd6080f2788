"""A press's result reaches the OLEDs as soon as the rules have decided it, before its entry is written.

The service gives ``early_hooks`` the new scoreboard before the commit (``Session.handle``'s
``on_decided``); the table's OLEDs draw it, marked as being written, with the bottom line they
already showed, while the owner writes the entry; the snapshot's frame (the entry durable) then takes
the mark away and brings the next choice's words. An entry that cannot be written brings the
current state back, with the error.
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
from hardware.oled_layout import render
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

    def hook(board: ScoreboardView) -> None:
        # Not written yet: the setup is the store's only entry while the result is shown.
        order.append(("early", ([s.score for s in board.sides], len(service.store.entries(game_id)))))

    def published(message: dict) -> None:
        order.append(("snapshot", (message["snapshot"]["scoreboard"]["sides"][0]["score"],
                                   len(service.store.entries(game_id)))))

    service.early_hooks.append(hook)
    service.subscribers.append(published)
    assert service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})["ok"]
    assert order == [("early", ([2, 0], 1)), ("snapshot", (2, 2))]


def test_a_result_shown_early_whose_entry_cannot_be_written_is_replaced_by_the_current_one(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    boards: list[list[int]] = []
    published: list[int] = []
    service.early_hooks.append(lambda board: boards.append([s.score for s in board.sides]))

    def on_message(message: dict) -> None:
        if message.get("event") == "snapshot":
            published.append(message["snapshot"]["scoreboard"]["sides"][0]["score"])

    service.subscribers.append(on_message)

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
    service.early_hooks.append(boards.append)
    answer = service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 5}})
    assert not answer["ok"] and boards == []


def test_a_state_shown_early_then_taken_back_is_replaced_by_the_current_one(service: TableService) -> None:
    boards: list[list[int]] = []
    published: list[int] = []
    service.early_hooks.append(lambda board: boards.append([s.score for s in board.sides]))
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
    # Shown early, written, taken back (the render failed), then the current state published again.
    assert boards == [[3, 0]] and published == [0]
    assert len(service.store.entries(service.session.game_id)) == 1


def test_the_oled_shows_the_new_score_before_the_next_choice_keeping_its_bottom_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The owner waits for the early frame at most EARLY_FRAME_WAIT_S (5 ms) so a slow display never
    # holds the table back; on a loaded machine the display thread can miss that. The order is
    # what is checked here, so the wait is long enough for any machine.
    monkeypatch.setattr(serve, "EARLY_FRAME_WAIT_S", 30.0)
    options, commands = script()
    with sim_table(tmp_path / "t.db") as table:
        table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
        submitted: list[ScoreboardView] = []
        recorded_when_shown: list[int] = []
        lock = threading.Lock()
        original = table.hardware.worker.submit

        def spy(view: ScoreboardView) -> None:
            with lock:
                submitted.append(view)
                # On the owner thread, between the rules and the commit for the early frame.
                recorded_when_shown.append(len(table.service.store.entries(table.service.session.game_id)))
            original(view)

        table.hardware.worker.submit = spy
        drawn_at_snapshot: list[int] = []
        table.service.subscribers.append(lambda message: drawn_at_snapshot.append(
            table.hardware.worker.views_drawn) if message.get("event") == "snapshot" else None)
        prior = ""
        for command in commands:
            before = table.snapshot()["scoreboard"]  # answered after the last command's frames went out
            with lock:
                prior = submitted[-1].message if submitted else prior
                submitted.clear()
                recorded_when_shown.clear()
            seq_before = table.seq
            drawn_before = table.hardware.worker.views_drawn
            drawn_at_snapshot.clear()
            table.enter_reachable(command)
            after = table.snapshot()["scoreboard"]
            if [s["score"] for s in after["sides"]] != [s["score"] for s in before["sides"]]:
                break
        else:
            pytest.fail("the script never scores")
        with lock:
            views, seqs = list(submitted), list(recorded_when_shown)
        # The early frame: the new score, the bottom line as it was, marked as being written (its
        # entry was not recorded yet); then the next choice's words, the mark gone.
        first, last = views[0], views[-1]
        assert [s.score for s in first.sides] == [s["score"] for s in after["sides"]]
        assert prior and first.message == prior
        assert first.saving and seqs[0] == seq_before + 1 and not last.saving  # entries 0..seq_before
        # The early frame was drawn before the prompt was rendered and the snapshot published.
        assert drawn_at_snapshot and drawn_at_snapshot[0] > drawn_before
        assert len(views) >= 2 and [s.score for s in last.sides] == [s.score for s in first.sides]
        assert last.message == dial_text(table.controls)  # what CONFIRM enters now
        table.hardware.worker.flush()
        panel = next(iter(table.hardware.sim.panels.values()))
        assert panel.image is not None and panel.image.crop((123, 60, 126, 62)).getbbox() is None
        assert render(first).crop((123, 60, 126, 62)).getbbox() == (0, 0, 3, 2)



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
    boards: list[list[int]] = []
    published: list[int] = []
    service.early_hooks.append(lambda board: boards.append([s.score for s in board.sides]))

    def on_message(message: dict) -> None:
        if message.get("event") == "snapshot":
            published.append(message["snapshot"]["scoreboard"]["sides"][0]["score"])

    service.subscribers.append(on_message)
    tries: list[bool] = []

    def full_disk(*args, **kwargs):
        tries.append(args[-1] is not None if len(args) > 5 else kwargs.get("snapshots") is not None)
        raise StoreError("the game store's disk is full; the command was not recorded")

    monkeypatch.setattr(service.store, "append", full_disk)
    answer = service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})
    assert not answer["ok"] and "disk is full" in answer["error"]
    assert tries == [True, False]  # with the snapshot, then the entry alone
    assert boards == [[3, 0]] and published == [1] and service.session.state.score == (1, 0)
