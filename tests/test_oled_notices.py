"""A table with no kiosk still reads why a press did nothing: the OLEDs' bottom line shows the notice.

Driven through the simulated hardware (gpiozero's MockFactory pins, the simulated dice tray, luma's
dummy panels): a tapped UNDO, a tray line for a die the game is not waiting for. The notice gives
way to the dial when the player turns it, and goes by itself once stale.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from table_driver import script, sim_table

import table.serve as serve
from companion.game import ScoreboardView, SideView
from hardware.oled_layout import render
from table.notice_line import NoticeLine
from table.serve import dial_text

WAIT_S = 30  # generous: a loaded machine; every wait ends on the frame itself


class Frames:
    """Every view handed to the OLED worker, and a wait for one that matches."""

    def __init__(self, worker) -> None:
        self.views: list[ScoreboardView] = []
        self._changed = threading.Condition()
        original = worker.submit

        def spy(view: ScoreboardView) -> None:
            with self._changed:
                self.views.append(view)
                self._changed.notify_all()
            original(view)

        worker.submit = spy

    def mark(self) -> int:
        with self._changed:
            return len(self.views)

    def wait_for(self, wanted: Callable[[ScoreboardView], bool], since: int) -> ScoreboardView:
        with self._changed:
            found = self._changed.wait_for(
                lambda: next((v for v in self.views[since:] if wanted(v)), None), WAIT_S)
        assert found is not None, [v.message for v in self.views[since:]]
        return found


def test_a_tapped_undo_says_on_the_oled_to_hold_it_and_the_dial_takes_the_line_back(tmp_path: Path) -> None:
    options, _ = script()
    with sim_table(tmp_path / "t.db") as table:
        table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
        frames = Frames(table.hardware.worker)
        since = frames.mark()
        table.request({"op": "sim_press", "role": "UNDO"})
        shown = frames.wait_for(lambda v: v.message.startswith("!"), since)
        assert shown.message == "! hold UNDO for a second to undo"
        seq = table.snapshot()["seq"]
        assert seq == 0  # nothing was undone or recorded

        since = frames.mark()
        table.request({"op": "sim_turn", "steps": 1})
        back = frames.wait_for(lambda v: not v.message.startswith("!"), since)
        assert back.message == dial_text(table.controls)


def test_a_tray_roll_nobody_waits_for_is_named_on_the_oled_then_goes_by_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A short-lived notice, so its going is seen without waiting the table's seconds.
    monkeypatch.setattr(serve, "NoticeLine", lambda: NoticeLine(seconds=0.3))
    options, _ = script()
    with sim_table(tmp_path / "t.db") as table:
        table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
        assert table.snapshot()["prompt"].get("die") is None  # the game starts on a play step, no die
        frames = Frames(table.hardware.worker)
        since = frames.mark()
        table.request({"op": "sim_tray", "die": "d20", "face": 7})
        shown = frames.wait_for(lambda v: v.message.startswith("!"), since)
        assert "the game is not waiting for a die" in shown.message and "d20" in shown.message
        since = frames.mark()
        gone = frames.wait_for(lambda v: not v.message.startswith("!"), since)
        assert gone.message == dial_text(table.controls)
        assert table.snapshot()["seq"] == 0


def test_a_recorded_command_takes_the_notice_down() -> None:
    line = NoticeLine(clock=lambda: 0.0)
    line.post("no choice for HOME right now")
    assert line.current() == "! no choice for HOME right now"
    line.clear()
    assert line.current() == ""


def test_the_notice_comes_before_the_recovery_banner_and_the_dial() -> None:
    from companion.controls import TableControls
    from companion.game import SideView

    board = ScoreboardView("valley-hoopers", (SideView("Lucy", 1, 0), SideView("Karl", 0, 0)), "P1", "1/8")
    controls = TableControls(submit=lambda command: {"ok": True}, notify=lambda text: None)
    controls.update({"prompt": {"text": "play", "choices": [{"label": "2PS PG Lucy", "command": {}}]}})
    banner = "store repaired from backup"
    assert serve.table_view(board, banner, controls, "! hold UNDO").message == "! hold UNDO"
    assert serve.table_view(board, banner, controls).message == banner
    assert serve.table_view(board, None, controls).message == "2PS PG Lucy"


def test_the_notice_lines_own_example_holds() -> None:
    import doctest

    import table.notice_line

    result = doctest.testmod(table.notice_line)
    assert result.attempted >= 4 and result.failed == 0


def _frame(message: str, names: tuple[str, str] = ("Lucy", "Karl"),
           size: tuple[int, int] = (128, 64)) -> bytes:
    view = ScoreboardView("demo", (SideView(names[0], 12, team_fouls=2), SideView(names[1], 10)), "P1", "1/8",
                          possession=0, target=55, target_text="<=55", message=message)
    return render(view, size).tobytes()


def test_a_long_notice_takes_the_names_row_on_128_px_so_its_last_words_show() -> None:
    undo = "! hold UNDO for a second to undo"
    # The names' row is the notice's now (no name shows), and its last word is on the glass: the
    # bottom line alone, beside the target badge, held "! hold UN..".
    assert _frame(undo) == _frame(undo, names=("Xavier", "Yolanda"))
    assert _frame(undo) != _frame(undo.replace("to undo", "to redo"))
    # One that fits the line but not beside the target badge takes the badge's place only.
    offline = ScoreboardView("demo", (SideView("Lucy", 12, team_fouls=2), SideView("Karl", 10)), "P1",
                             "1/8", possession=0, message="! tray offline")
    assert _frame("! tray offline") == render(offline).tobytes()
    assert _frame("! tray offline") != _frame("! tray offline", names=("Xavier", "Yolanda"))
    # A notice that fits beside the badge, a message and the 256 px panel keep the names.
    for message, size in (("! UNDO held", (128, 64)), ("42 on d20", (128, 64)), (undo, (256, 64))):
        assert _frame(message, size=size) != _frame(message, names=("Xavier", "Yolanda"), size=size)


def test_a_press_whose_entry_cannot_be_written_shows_its_result_marked_then_the_recorded_score_and_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.errors import StoreError

    options, _ = script()
    with sim_table(tmp_path / "t.db") as table:
        table.request({"op": "new_game", "game": "valley-hoopers", "options": options})
        recorded = table.snapshot()
        frames = Frames(table.hardware.worker)

        def full_disk(*args, **kwargs):
            raise StoreError("the disk holding the game store is full; the command was not recorded")

        monkeypatch.setattr(table.service.store, "append", full_disk)
        since = frames.mark()
        table.request({"op": "sim_press", "role": "CONFIRM"})
        early = frames.wait_for(lambda v: v.saving, since)
        why = frames.wait_for(lambda v: v.message.startswith("!"), since)
        assert frames.views.index(early) < frames.views.index(why)
        assert not why.saving and "full" in why.message
        assert why.to_json()["sides"] == recorded["scoreboard"]["sides"]
        assert table.snapshot()["seq"] == recorded["seq"]  # nothing was recorded
        table.hardware.worker.flush()
        panel = next(iter(table.hardware.sim.panels.values()))
        assert panel.image is not None and panel.image.crop((123, 60, 126, 62)).getbbox() is None
