"""Saved games through the service: listed with their status, abandoned (log kept) or deleted (only when
confirmed), and a restart after a finished game starts with no game (the kiosk's Home)."""

from __future__ import annotations

from pathlib import Path

import tally_game

from companion.service import TableService
from companion.store import Store


def _service(path: Path) -> TableService:
    return TableService(Store.open(path), find_game=tally_game.find)


def _finish(service: TableService) -> None:
    for _ in range(7):
        assert service.execute({"type": "score", "side": 0, "points": 3})["ok"]
    assert service.snapshot()["outcome"] is not None


def test_a_restart_after_a_finished_game_starts_at_home_not_in_an_older_one(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.db")
    service.execute({"op": "new_game", "game": "tally"})
    service.execute({"type": "score", "side": 1, "points": 2})  # game 1 stays unfinished
    service.execute({"op": "new_game", "game": "tally"})
    _finish(service)  # game 2, played last, is over
    again = _service(tmp_path / "t.db")
    assert again.resume_latest() is None and again.snapshot() is None
    statuses = {g["id"]: g["status"] for g in again.execute({"op": "games"})["games"]}
    assert statuses == {1: "playing", 2: "finished"}


def test_a_restart_resumes_the_last_game_played_while_it_is_unfinished(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.db")
    service.execute({"op": "new_game", "game": "tally"})
    _finish(service)
    service.execute({"op": "new_game", "game": "tally"})
    service.execute({"type": "score", "side": 1, "points": 2})
    again = _service(tmp_path / "t.db")
    assert again.resume_latest() is not None and again.snapshot()["game_id"] == 2


def test_games_lists_every_game_with_its_status_and_which_one_is_on_the_table(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.db")
    service.execute({"op": "new_game", "game": "tally"})
    _finish(service)
    service.execute({"op": "new_game", "game": "tally"})
    games = service.execute({"op": "games"})["games"]
    assert [(g["id"], g["status"], g["on_table"]) for g in games] == [(2, "playing", True),
                                                                      (1, "finished", False)]


def test_abandon_keeps_the_whole_log_and_puts_the_game_away(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.db")
    pushed: list[dict] = []
    service.subscribers.append(pushed.append)
    service.execute({"op": "new_game", "game": "tally"})
    for points in (1, 2, 3):
        service.execute({"type": "score", "side": 0, "points": points})
    log_before = service.execute({"op": "log"})["log"]
    answer = service.execute({"op": "abandon", "game_id": 1})
    assert answer["ok"] and answer["game"]["status"] == "abandoned" and not answer["game"]["on_table"]
    assert service.snapshot() is None and pushed[-1] == {"event": "snapshot", "snapshot": None}
    assert len(service.store.entries(1)) == 4, "nothing recorded is lost"
    # Nothing resumes it at start; resume still opens it exactly where it was.
    assert _service(tmp_path / "t.db").resume_latest() is None
    assert service.execute({"op": "resume", "game_id": 1})["snapshot"]["view"]["score"] == [6, 0]
    assert service.execute({"op": "log"})["log"] == log_before
    # A command recorded in it makes it unfinished again.
    service.execute({"type": "score", "side": 1, "points": 1})
    assert service.store.game(1).status == "playing"


def test_abandon_refuses_a_finished_or_unknown_game_with_a_clear_error(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.db")
    service.execute({"op": "new_game", "game": "tally"})
    _finish(service)
    assert service.execute({"op": "abandon", "game_id": 1}) == {
        "ok": False, "error_kind": "rule",
        "error": "game 1 is finished: only an unfinished game can be abandoned"}
    missing = service.execute({"op": "abandon", "game_id": 9})
    assert missing["error"] == "there is no saved game 9" and missing["error_kind"] == "store"
    assert service.execute({"op": "abandon"})["error"] == "game_id must be a whole number, not None"


def test_delete_only_with_confirm_true_then_the_game_and_its_log_are_gone(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.db")
    service.execute({"op": "new_game", "game": "tally"})
    service.execute({"type": "score", "side": 0, "points": 2})
    for confirm in (None, False, "yes", 1):
        refused = service.execute({"op": "delete", "game_id": 1, "confirm": confirm})
        assert refused["error_kind"] == "command" and "for good" in refused["error"]
        assert '"confirm": true' in refused["error"]
    assert service.snapshot()["game_id"] == 1 and len(service.store.entries(1)) == 2, "nothing was deleted"
    assert service.execute({"op": "delete", "game_id": 1, "confirm": True}) == {"ok": True, "deleted": 1}
    assert service.snapshot() is None and service.execute({"op": "games"})["games"] == []
    assert service.store.entries(1) == []
    assert service.execute({"op": "delete", "game_id": 1, "confirm": True})["error"] == \
        "there is no saved game 1"


def test_a_pushed_status_carries_the_hardware_summary_too(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.db")
    pushed: list[dict] = []
    service.subscribers.append(pushed.append)
    service.status_sources["hardware"] = lambda: {"sim": True, "tray": {"state": "connected"}}
    service.set_status("tray", {"state": "connected"})
    assert pushed[-1]["status"] == {"tray": {"state": "connected"},
                                    "hardware": {"sim": True, "tray": {"state": "connected"}}}
