"""Undo and redo tell every client what they took back or put back, in the log's words; a sealed
value stays secret in those words too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.games.nba_showdown.frontend import DEMO_TEAMS
from companion.service import TableService
from companion.store import Store


def _notices(heard: list[dict[str, Any]]) -> list[str]:
    return [m["text"] for m in heard if m.get("event") == "notice"]


def test_undo_and_redo_name_the_command_they_take_back_and_put_back(tmp_path: Path) -> None:
    service = TableService(Store.open(tmp_path / "g.db"))
    heard: list[dict[str, Any]] = []
    service.subscribers.append(heard.append)
    snapshot = service.execute({"op": "new_game", "game": "nba-showdown", "options": DEMO_TEAMS})["snapshot"]
    choice = snapshot["prompt"]["choices"][0]
    service.execute({"op": "command", "command": choice["command"]})
    words = service.execute({"op": "log"})["log"][-1]["text"]
    assert service.execute({"op": "command", "command": {"type": "undo"}})["ok"]
    assert service.execute({"op": "command", "command": {"type": "redo"}})["ok"]
    assert _notices(heard) == [f"Undid: {words}", f"Redid: {words}"]
    service.store.close()


def test_the_undo_notice_keeps_a_sealed_value_secret(shootout: object, tmp_path: Path) -> None:
    service = TableService(Store.open(tmp_path / "g.db"))
    heard: list[dict[str, Any]] = []
    service.subscribers.append(heard.append)
    service.execute({"op": "new_game", "game": "shootout", "options": {}})
    prompt = service.execute({"op": "state"})["snapshot"]["prompt"]
    assert prompt.get("sealed"), prompt
    assert service.execute({"op": "command", "command": {"type": "bid", "side": 0, "amount": 7}})["ok"]
    assert service.execute({"op": "command", "command": {"type": "undo"}})["ok"]
    [notice] = _notices(heard)
    assert notice.startswith("Undid: ") and "7" not in notice
    service.store.close()
