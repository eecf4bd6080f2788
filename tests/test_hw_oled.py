"""The OLED scoreboards: golden images on luma's dummy device, partial updates, faults, burn-in care.

Golden images are compared pixel-exactly with tests/reference/*.png. To redraw them after a
deliberate layout change: ``REGENERATE_REFERENCE=1 pytest tests/test_hw_oled.py`` (and look at them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from luma.core.device import dummy
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306, ssd1309
from PIL import Image, ImageChops

from companion.game import Counter, Lead, ScoreboardView, SideView
from hardware.config import BurnInConfig
from hardware.inputs import DisplayStatus
from hardware.oled import DisplayWorker, OledPanel, save_png
from hardware.oled_layout import render
from hardware.oled_partial import PagedUpdater, Window, changed_windows, frame_pages
from hardware.oled_ram_model import ControllerModel

REFERENCE = Path(__file__).parent / "reference"
REGENERATE = os.environ.get("REGENERATE_REFERENCE") == "1"

TEAMS = (SideView("Hoopers", 42, team_fouls=3), SideView("Dunkers", 38, team_fouls=5, bonus=True))
MIDGAME = ScoreboardView("valley_hoopers", TEAMS, "Q2", "7:45", possession=0, message="Chus Kinder to shoot")
TARGET = ScoreboardView("valley_hoopers", TEAMS, "Q2", "7:31", possession=0, target=55, target_text="<=55",
                        message="3PS Muy Schillato")
HIGH_SCORE = ScoreboardView(
    "valley_hoopers", (SideView("Hoopers", 102, team_fouls=1), SideView("Dunkers", 99, team_fouls=4)),
    "Q4", "0:12", possession=1, message="Timeout Dunkers")
FINAL = ScoreboardView(
    "valley_hoopers", (SideView("Hoopers", 88, team_fouls=7, bonus=True), SideView("Dunkers", 91, 2)),
    "Q4", "0:00", final=True, message="Dunkers win 91-88")

# Games that are not two sides face to face: three to five columns, one signed lead.
PLAYERS = [("Ann", 0, 8), ("Bo", 4, 7), ("Cy", 3, 3)]
THREE = ScoreboardView("demo", tuple(SideView(n, s, counters=(Counter("$", m),), active=i == 2)
                                     for i, (n, s, m) in enumerate(PLAYERS)),
                       "R2", "", target=5, target_text="chart", message="Cy: roll the d12")
FIVE = ScoreboardView("demo", tuple(SideView(n, s, team_fouls=f, bonus=f >= 5)
                                    for n, s, f in [("Anna", 12, 1), ("Boris", 103, 5), ("Cyd", 7, 0),
                                                    ("Dee", 45, 2), ("Eve", 0, 3)]),
                      "Y3", "Q2", target=12, target_text=">=12", message="Dee to bid")
LEAD = ScoreboardView("demo", (SideView("Lakers"), SideView("Celtics")), "Q4", "0:45", lead=Lead(1, 17),
                      message="Celtics ball")

GOLDEN = {
    "three_sides_128": (THREE, (128, 64), None),
    "five_sides_256": (FIVE, (256, 64), None),
    "five_sides_128": (FIVE, (128, 64), None),
    "lead_128": (LEAD, (128, 64), None),
    "lead_256": (LEAD, (256, 64), None),
    "midgame_128": (MIDGAME, (128, 64), None),
    "target_128": (TARGET, (128, 64), None),
    "away_side_high_score_128": (HIGH_SCORE, (128, 64), 1),
    "final_128": (FINAL, (128, 64), None),
    "target_256": (TARGET, (256, 64), None),
    "high_score_256": (HIGH_SCORE, (256, 64), None),
}


def _dummy_panel(size=(128, 64), side=None, events=None, **kwargs) -> OledPanel:
    sink = events if events is not None else []
    return OledPanel("test", lambda: dummy(width=size[0], height=size[1], mode="1"), sink.append,
                     side=side, **kwargs)


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("1"), b.convert("1")).getbbox() is None


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_scoreboard_matches_its_reference_image_pixel_for_pixel(name):
    view, size, side = GOLDEN[name]
    panel = _dummy_panel(size, side=side, burn_in=BurnInConfig(idle_dim_s=0, pixel_shift_minutes=0))
    panel.show(view)
    shown = panel.device.image
    path = REFERENCE / f"{name}.png"
    if REGENERATE:
        shown.save(path)
    assert path.exists(), f"{path} is missing: run with REGENERATE_REFERENCE=1 and look at it"
    with Image.open(path) as reference:
        assert _same(shown, reference), f"{name} differs from {path}"


def test_a_changed_score_does_not_match_the_reference():
    # Guard against a comparison that always passes.
    changed = ScoreboardView(MIDGAME.game, (SideView("Hoopers", 43, 3), MIDGAME.sides[1]), "Q2", "7:45",
                             possession=0, message=MIDGAME.message)
    with Image.open(REFERENCE / "midgame_128.png") as reference:
        assert not _same(render(changed), reference)


def test_score_digits_are_at_least_24_pixels_tall_on_a_64_pixel_display():
    bare = ScoreboardView("g", (SideView("", 88), SideView("", 88)), "", "")
    box = render(bare).getbbox()
    assert box is not None
    # Only the digits and the foul markers are drawn; measure the digits' band alone.
    digits = render(bare).crop((0, 0, 128, 40)).getbbox()
    assert digits is not None and digits[3] - digits[1] >= 24


def test_a_display_facing_the_away_side_shows_the_away_score_on_the_left():
    home_facing = render(HIGH_SCORE, side=0)
    away_facing = render(HIGH_SCORE, side=1)
    assert not _same(home_facing, away_facing)
    swapped = ScoreboardView(HIGH_SCORE.game, (HIGH_SCORE.sides[1], HIGH_SCORE.sides[0]), "Q4", "0:12",
                             possession=0, message=HIGH_SCORE.message)
    assert _same(away_facing, render(swapped))


def test_the_target_badge_reads_the_success_rule_not_always_at_most():
    assert render(ScoreboardView(**{**MIDGAME.__dict__, "target": 12, "target_text": ">=12"})) != render(
        ScoreboardView(**{**MIDGAME.__dict__, "target": 12, "target_text": "<=12"}))


def test_the_target_appears_only_when_a_roll_is_pending():
    without = render(MIDGAME)
    with_target = render(ScoreboardView(**{**MIDGAME.__dict__, "target": 55}))
    diff = ImageChops.difference(without, with_target).getbbox()
    assert diff is not None and diff[1] >= 48  # only the bottom line changed (page 6 and below)


def _model_device(chip="ssd1306"):
    model = ControllerModel("sh1106" if chip == "sh1106" else "ssd1306")
    cls = {"ssd1306": ssd1306, "sh1106": sh1106, "ssd1309": ssd1309}[chip]
    return model, cls(i2c(bus=model, address=0x3C))


@pytest.mark.parametrize("chip", ["ssd1306", "ssd1309", "sh1106"])
def test_a_score_change_sends_a_small_fraction_of_the_frame_and_leaves_the_same_picture(chip):
    model, device = _model_device(chip)
    updater = PagedUpdater(device)
    updater.display(render(MIDGAME))
    assert model.data_bytes >= 1024  # the first frame goes out whole
    model.reset_counts()
    scored = ScoreboardView(MIDGAME.game, (SideView("Hoopers", 44, 3), MIDGAME.sides[1]), "Q2", "7:45",
                            possession=1, message=MIDGAME.message)
    updater.display(render(scored))
    assert model.payload_bytes < 1024 * 0.2, model.payload_bytes
    # The RAM now holds exactly what luma's own full-frame display() would have put there.
    full_model, full_device = _model_device(chip)
    full_device.display(render(scored))
    assert model.ram == full_model.ram
    assert _same(model.image(), render(scored))


def test_a_clock_change_touches_only_the_top_page():
    before = frame_pages(render(MIDGAME), 128, 64)
    after = frame_pages(render(ScoreboardView(**{**MIDGAME.__dict__, "clock": "7:44"})), 128, 64)
    windows = changed_windows(before, after)
    assert [(w.page0, w.page1) for w in windows] == [(0, 0)]


def test_an_unchanged_frame_sends_nothing():
    model, device = _model_device()
    updater = PagedUpdater(device)
    updater.display(render(MIDGAME))
    model.reset_counts()
    assert updater.display(render(MIDGAME)) == []
    assert model.transactions == []


def test_after_invalidate_the_whole_frame_goes_out_again():
    model, device = _model_device()
    updater = PagedUpdater(device)
    updater.display(render(MIDGAME))
    updater.invalidate()
    model.reset_counts()
    updater.display(render(MIDGAME))
    assert model.data_bytes == 1024


def test_rotation_is_applied_before_the_pages_are_compared():
    model = ControllerModel()
    device = ssd1306(i2c(bus=model), rotate=2)
    PagedUpdater(device).display(render(MIDGAME))
    assert _same(model.image(), render(MIDGAME).rotate(180))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_unplugged_display_goes_offline_the_game_goes_on_and_it_comes_back_with_a_full_frame():
    model = ControllerModel()
    clock, events = Clock(), []
    panel = OledPanel("home", lambda: ssd1306(i2c(bus=model, address=0x3C)), events.append, clock=clock,
                      probe=lambda: model.write_i2c_block_data(0x3C, 0x00, [0xE3]))
    panel.show(MIDGAME)
    assert events == [DisplayStatus("home", True, "ssd1306 128x64")]
    model.unplugged = True
    panel.show(TARGET)  # must not raise
    assert events[-1].online is False and "I2C device not found" in events[-1].detail
    clock.now += 1.0
    panel.show(FINAL)  # still unplugged and not yet time to retry: no new event, no exception
    assert len(events) == 2
    model.unplugged = False
    clock.now += 0.5  # 1.5 s since the failure: too early
    panel.tick()
    assert not panel.online
    clock.now += 0.6  # 2.1 s: retried with a full re-init
    model.reset_counts()
    panel.tick()
    assert events[-1] == DisplayStatus("home", True, "ssd1306 128x64")
    assert model.data_bytes >= 1024 and model.display_on
    assert _same(model.image(), render(FINAL, shift=panel.shift_at(clock.now)))


def test_a_display_missing_at_start_is_offline_and_retried():
    model = ControllerModel("sh1106")
    model.unplugged = True
    clock, events = Clock(), []
    panel = OledPanel("away", lambda: sh1106(i2c(bus=model)), events.append, clock=clock)
    panel.show(MIDGAME)
    assert events == [DisplayStatus("away", False, events[0].detail)] and not panel.online
    model.unplugged = False
    clock.now += 2.0
    panel.tick()
    assert panel.online and _same(model.image(), render(MIDGAME))


def test_the_display_dims_after_the_idle_time_and_brightens_on_the_next_change():
    model = ControllerModel()
    clock = Clock()
    burn_in = BurnInConfig(idle_dim_s=60, pixel_shift_minutes=0, contrast=0xCF, dim_contrast=0x10)
    panel = OledPanel("home", lambda: ssd1306(i2c(bus=model)), [].append, clock=clock, burn_in=burn_in)
    panel.show(MIDGAME)
    clock.now += 59
    panel.tick()
    assert model.contrast == 0xCF
    clock.now += 1
    panel.tick()
    assert model.contrast == 0x10 and panel.dimmed
    clock.now += 5
    panel.show(TARGET)
    assert model.contrast == 0xCF and not panel.dimmed


def test_the_picture_moves_one_pixel_every_few_minutes():
    clock = Clock()
    panel = _dummy_panel(clock=clock, burn_in=BurnInConfig(idle_dim_s=0, pixel_shift_minutes=5))
    panel.show(MIDGAME)
    first = panel.device.image.copy()
    clock.now += 5 * 60
    panel.tick()
    moved = panel.device.image
    assert _same(first, render(MIDGAME))
    assert _same(moved, render(MIDGAME, shift=(1, 0)))
    assert [panel.shift_at(1000 + k * 300) for k in range(5)] == [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]


def test_the_worker_coalesces_to_the_latest_view_and_never_blocks_the_caller():
    panel = _dummy_panel(burn_in=BurnInConfig(idle_dim_s=0, pixel_shift_minutes=0))
    worker = DisplayWorker([panel])
    try:
        views = [ScoreboardView("g", (SideView("A", n), SideView("B", 0)), "Q1", "9:00") for n in range(50)]
        for view in views:
            worker.submit(view)
        assert worker.flush(5)
        assert _same(panel.device.image, render(views[-1]))
        assert worker.views_drawn <= len(views)
    finally:
        worker.close()


def test_a_frame_can_be_saved_as_an_enlarged_png(tmp_path):
    path = save_png(render(MIDGAME), tmp_path / "shot.png", scale=3)
    with Image.open(path) as shot:
        assert shot.size == (384, 192)


def test_luma_emulator_capture_writes_a_png_per_frame(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from luma.emulator.device import capture

    device = capture(width=128, height=64, mode="1", scale=1, transform="none",
                     file_template=str(tmp_path / "frame_{0:03}.png"))
    panel = OledPanel("cap", lambda: device, [].append,
                      burn_in=BurnInConfig(idle_dim_s=0, pixel_shift_minutes=0))
    panel.show(MIDGAME)
    panel.show(TARGET)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame_001.png", "frame_002.png"]
    with Image.open(tmp_path / "frame_002.png") as frame:
        assert frame.size == (128, 64)
        assert ImageChops.difference(frame.convert("1"), render(TARGET)).getbbox() is None


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_nothing_touches_the_edges_at_any_pixel_shift(name):
    view, size, side = GOLDEN[name]
    for shift in ((0, 0), (1, 0), (1, 1), (0, 1)):
        left, top, right, bottom = render(view, size, side=side, shift=shift).getbbox()
        assert left >= 1 and top >= 1 and right <= size[0] - 1 and bottom <= size[1] - 1, (shift, name)


def test_changes_far_apart_on_a_page_go_out_as_two_windows_and_near_ones_as_one():
    old = [bytes(128)] * 8
    far = [bytes(128)] * 8
    far[3] = bytes([0] * 10 + [1] + [0] * 100 + [1] + [0] * 16)
    assert [(w.col0, w.col1) for w in changed_windows(old, far)] == [(10, 10), (111, 111)]
    near = [bytes(128)] * 8
    near[3] = bytes([0] * 10 + [1, 0, 0, 0, 1] + [0] * 113)
    assert [(w.col0, w.col1) for w in changed_windows(old, near)] == [(10, 14)]


def test_a_change_down_several_pages_is_one_window_where_that_is_cheaper():
    old = [bytes(128)] * 8
    new = [bytes(20) + b"\xff" * 20 + bytes(88)] * 3 + [bytes(128)] * 5
    assert changed_windows(old, new) == [Window(0, 2, 20, 39)]
    assert len(changed_windows(old, new, per_page=True)) == 3  # SH1106: a window per page anyway


def _changed_pages(before: ScoreboardView, after: ScoreboardView) -> set[int]:
    windows = changed_windows(frame_pages(render(before), 128, 64), frame_pages(render(after), 128, 64))
    return {page for w in windows for page in range(w.page0, w.page1 + 1)}


def test_each_band_of_the_two_side_board_keeps_to_its_own_pages():
    scored = ScoreboardView(**{**MIDGAME.__dict__, "sides": (SideView("Hoopers", 44, 3), MIDGAME.sides[1])})
    assert _changed_pages(MIDGAME, scored) == {1, 2, 3}  # the digits
    assert _changed_pages(MIDGAME, ScoreboardView(**{**MIDGAME.__dict__, "possession": 1})) == {2}
    assert _changed_pages(MIDGAME, ScoreboardView(**{**MIDGAME.__dict__, "message": "Dunkers ball"})) == {6}
    with_target = ScoreboardView(**{**MIDGAME.__dict__, "target": 55, "target_text": "<=55"})
    assert _changed_pages(MIDGAME, with_target) == {6}


def test_a_new_message_rewrites_only_from_its_first_differing_character():
    before = frame_pages(render(ScoreboardView(**{**MIDGAME.__dict__, "message": "Chus Kinder to shoot"})),
                         128, 64)
    after = frame_pages(render(ScoreboardView(**{**MIDGAME.__dict__, "message": "Chus Kinder scores 2"})),
                        128, 64)
    windows = changed_windows(before, after)
    # "Chus Kinder " is 12 characters of 6 columns from column 2: its pixels stay.
    assert windows and all(w.page0 == w.page1 == 6 and w.col0 >= 2 + 12 * 6 for w in windows), windows


def test_a_long_message_is_cut_at_a_word_and_keeps_what_fits():
    from hardware.oled_text import CUT, fit_line, line_width

    cut = fit_line("Wally Block scores 2 (rolled 50, target 50)", 124)
    assert cut == "Wally Block scores 2" + CUT and line_width(cut) <= 124
    assert fit_line("Supercalifragilistic expialidocious", 60).endswith(CUT)  # no word fits: cut inside
    assert fit_line("short", 124) == "short"


@pytest.mark.parametrize("chip", ["ssd1306", "ssd1309"])
def test_a_change_within_one_page_goes_out_in_page_addressing_and_leaves_the_same_picture(chip):
    model, device = _model_device(chip)
    updater = PagedUpdater(device)
    updater.display(render(MIDGAME))
    model.reset_counts()
    changed = ScoreboardView(**{**MIDGAME.__dict__, "message": "Dunkers ball"})
    updater.display(render(changed))
    commands = [t.payload for t in model.transactions if t.control == 0x00]
    assert commands and commands[0][:2] == [0x20, 0x02] and 0x21 not in commands[0]  # page mode, no window
    full_model, full_device = _model_device(chip)
    full_device.display(render(changed))
    assert model.ram == full_model.ram
    updater.invalidate()  # a whole frame next: one window down all pages, back in horizontal addressing
    model.reset_counts()
    updater.display(render(MIDGAME))
    assert model.transactions[0].payload[:3] == [0x20, 0x00, 0x21] and model.data_bytes == 1024
    assert _same(model.image(), render(MIDGAME))


def test_closing_a_panel_left_in_page_addressing_clears_the_whole_screen():
    model = ControllerModel()
    panel = OledPanel("home", lambda: ssd1306(i2c(bus=model, address=0x3C)), [].append,
                      burn_in=BurnInConfig(idle_dim_s=0, pixel_shift_minutes=0))
    panel.show(MIDGAME)
    panel.show(ScoreboardView(**{**MIDGAME.__dict__, "message": "Dunkers ball"}))  # a one-page change
    assert not model.horizontal
    panel.close()  # luma's cleanup blanks the screen with its own full frame: horizontal addressing again
    assert model.horizontal and all(not any(page) for page in model.ram)
