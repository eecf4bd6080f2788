"""A press's result reaches the OLEDs the moment its entry is durable, before the next prompt is shown.

The service gives ``durable_hooks`` the new scoreboard right after the commit (``Session.handle``'s
``on_durable``), before the prompt is rendered; the table's OLEDs draw it with the bottom line they
already showed, and the snapshot's frame then brings the next choice's words.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest
import tally_game
from table_driver import script, sim_table

import table.serve as serve
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


def test_the_hooks_get_the_new_scoreboard_once_durable_and_before_the_snapshot(service: TableService) -> None:
    order: list[tuple[str, object]] = []
    game_id = service.session.game_id

    def hook(board: ScoreboardView) -> None:
        # Durable already: the entry is in the store before anyone is shown its result.
        order.append(("durable", ([s.score for s in board.sides], len(service.store.entries(game_id)))))

    service.durable_hooks.append(hook)
    service.subscribers.append(lambda message: order.append(("snapshot", message["snapshot"]["scoreboard"]
                                                             ["sides"][0]["score"])))
    assert service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 2}})["ok"]
    assert order == [("durable", ([2, 0], 2)), ("snapshot", 2)]


def test_a_refusal_shows_nothing_early(service: TableService) -> None:
    boards: list[ScoreboardView] = []
    service.durable_hooks.append(boards.append)
    answer = service.execute({"op": "command", "command": {"type": "score", "side": 0, "points": 5}})
    assert not answer["ok"] and boards == []


def test_a_state_shown_early_then_taken_back_is_replaced_by_the_current_one(service: TableService) -> None:
    boards: list[list[int]] = []
    published: list[int] = []
    service.durable_hooks.append(lambda board: boards.append([s.score for s in board.sides]))
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
    # Shown as durable, taken back (the render failed), then the current state published again.
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
        lock = threading.Lock()
        original = table.hardware.worker.submit

        def spy(view: ScoreboardView) -> None:
            with lock:
                submitted.append(view)
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
            drawn_before = table.hardware.worker.views_drawn
            drawn_at_snapshot.clear()
            table.enter_reachable(command)
            after = table.snapshot()["scoreboard"]
            if [s["score"] for s in after["sides"]] != [s["score"] for s in before["sides"]]:
                break
        else:
            pytest.fail("the script never scores")
        with lock:
            views = list(submitted)
        # The early frame: the new score, the bottom line as it was; then the next choice's words.
        first, last = views[0], views[-1]
        assert [s.score for s in first.sides] == [s["score"] for s in after["sides"]]
        assert prior and first.message == prior
        # The early frame was drawn before the prompt was rendered and the snapshot published.
        assert drawn_at_snapshot and drawn_at_snapshot[0] > drawn_before
        assert len(views) >= 2 and [s.score for s in last.sides] == [s.score for s in first.sides]
        assert last.message == dial_text(table.controls)  # what CONFIRM enters now

