"""What the table's OLEDs show while a player dials: the face CONFIRM enters, never cut off; and
the partial driver leaves the same picture as luma's full frame for a whole real game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from luma.core.device import dummy
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import ImageChops

from companion.controls import TableControls
from companion.game import ScoreboardView, SideView
from hardware.oled_layout import render
from hardware.oled_partial import PagedUpdater, changed_windows, frame_pages
from hardware.oled_ram_model import ControllerModel
from table.serve import table_view

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.measures import game_frames  # noqa: E402

BOARD = ScoreboardView("valley-hoopers", (SideView("Lucy", 12, 2), SideView("Karl", 9, 1)), "P1", "3/8",
                       possession=0, target=55, target_text="<=55", message="Lucy attacks")


def _controls(die: str, target: int) -> TableControls:
    controls = TableControls(submit=lambda command: {"ok": True}, notify=lambda text: None)
    controls.update({"prompt": {"die": die, "text": "roll", "choices": [], "target": {"target": target}}})
    return controls


def _shown(view: ScoreboardView):
    device = dummy(width=128, height=64, mode="1")
    device.display(render(view))
    return device.image


def test_while_the_dial_turns_the_oled_shows_the_face_confirm_would_enter() -> None:
    controls = _controls("d20x5", 55)
    assert table_view(BOARD, None, controls).message == "55 on d20"  # not "d20 of Vall."
    controls.on_input({"type": "EncoderTurn", "steps": -3})
    view = table_view(BOARD, None, controls)
    assert view.message == "40 on d20"
    expected = render(ScoreboardView(**{**BOARD.__dict__, "message": "40 on d20"}))
    assert ImageChops.difference(_shown(view), expected).getbbox() is None


def test_a_dial_step_changes_only_the_face_on_the_glass() -> None:
    controls = _controls("d20x5", 55)
    before = frame_pages(render(table_view(BOARD, None, controls)), 128, 64)
    controls.on_input({"type": "EncoderTurn", "steps": 1})
    after = frame_pages(render(table_view(BOARD, None, controls)), 128, 64)
    windows = changed_windows(before, after)
    assert windows and all(w.page0 >= 6 and w.col1 < 20 for w in windows), windows  # the two digits


def test_a_recovery_banner_comes_before_the_dial() -> None:
    assert table_view(BOARD, "store repaired from backup", _controls("d20x5", 55)).message == \
        "store repaired from backup"


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_partial_updates_through_a_whole_game_leave_what_a_full_frame_would(chip: str) -> None:
    cls = sh1106 if chip == "sh1106" else ssd1306
    partial_model, full_model = ControllerModel(chip), ControllerModel(chip)
    updater = PagedUpdater(cls(i2c(bus=partial_model, address=0x3C)))
    full = cls(i2c(bus=full_model, address=0x3C))
    frames, _ = game_frames()
    for n, frame in enumerate(frames):
        updater.display(frame)
        full.display(frame)
        assert partial_model.ram == full_model.ram, f"frame {n}"
