"""Exports leave the device on a USB stick: the table finds the stick under its media roots and writes
the game's CSV box score and JSON log there, or says plainly what was wrong (no stick, read-only,
full) and writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.export import export_csv, export_json
from companion.games import find_game
from companion.service import TableService
from companion.store import Store
from table.usb_export import Room, UsbExports, roots_from


def finished_service(tmp_path: Path, exports: UsbExports) -> TableService:
    """Crunch Time's demo played on a table whose USB ops are ``exports``."""
    service = TableService(Store.open(tmp_path / "t.db"))
    exports.register(service)
    options, commands = find_game("crunch-time").demo_script()
    assert service.execute({"op": "new_game", "game": "crunch-time", "options": options})["ok"]
    for command in commands:
        assert service.execute({"op": "command", "command": command})["ok"]
    return service


def test_the_csv_and_json_exports_are_written_whole_onto_the_stick(tmp_path: Path) -> None:
    media = tmp_path / "media"
    (media / "STICK").mkdir(parents=True)
    service = finished_service(tmp_path, UsbExports([media], explicit=True, clock=lambda: 1.8e9))
    reply = service.execute({"op": "usb_export"})
    assert reply["ok"], reply
    assert reply["stick"] == str(media / "STICK")
    csv_file, json_file = (Path(f) for f in reply["files"])
    assert csv_file.name.startswith("courtside-game-1-") and csv_file.suffix == ".csv"
    assert csv_file.read_text(encoding="utf-8") == export_csv(service.store, 1)
    assert json.loads(json_file.read_text(encoding="utf-8")) == json.loads(export_json(service.store, 1))
    assert sorted(p.name for p in (media / "STICK").iterdir()) == sorted([csv_file.name, json_file.name])
    drives = service.execute({"op": "usb_drives"})["drives"]
    assert [(d["name"], d["read_only"]) for d in drives] == [("STICK", False)] and drives[0]["free"] > 0


def test_no_stick_is_said_with_where_the_table_looked(tmp_path: Path) -> None:
    media = tmp_path / "media"
    media.mkdir()
    service = finished_service(tmp_path, UsbExports([media], explicit=True))
    reply = service.execute({"op": "usb_export"})
    assert not reply["ok"] and reply["error"] == f"No USB stick found: plug one in (looked in {media})"


@pytest.mark.parametrize(("room", "words"), [
    (Room(free=10**9, read_only=True), "The USB stick STICK is read-only: nothing was written"),
    (Room(free=100, read_only=False), "The USB stick STICK is full: "),
])
def test_a_read_only_or_full_stick_is_named_and_nothing_is_written(tmp_path: Path, room: Room,
                                                                   words: str) -> None:
    stick = tmp_path / "media" / "STICK"
    stick.mkdir(parents=True)
    service = finished_service(tmp_path, UsbExports([stick.parent], explicit=True, room=lambda _p: room))
    reply = service.execute({"op": "usb_export"})
    assert not reply["ok"] and reply["error"].startswith(words), reply
    assert list(stick.iterdir()) == []


def test_under_the_default_roots_only_mounted_folders_count(tmp_path: Path) -> None:
    # A folder left behind under /media/<user> is no stick; a mount point is (/proc is one under /).
    (tmp_path / "pi" / "OLD-STICK").mkdir(parents=True)
    assert UsbExports([tmp_path]).sticks() == []
    assert Path("/proc") in UsbExports([Path("/")]).sticks()
    assert UsbExports([tmp_path], explicit=True).sticks() == [tmp_path / "pi"]


def test_the_media_roots_come_from_the_option_then_the_environment_then_the_defaults(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_MEDIA_ROOTS", "/a:/b")
    assert roots_from(["/x"]) == ([Path("/x")], True)
    assert roots_from(None) == ([Path("/a"), Path("/b")], True)
    monkeypatch.delenv("COMPANION_MEDIA_ROOTS")
    assert roots_from(None) == ([Path("/media"), Path("/run/media")], False)


def test_the_examples_in_the_usb_export_docstring_hold() -> None:
    import doctest

    import table.usb_export

    result = doctest.testmod(table.usb_export)
    assert result.attempted > 0 and result.failed == 0
