"""The mark a result gets on the OLEDs when its entry is slow to be written.

A press's result is drawn before its entry is committed (``TableService.early_hooks``), unmarked;
if no newer view came a quarter of a second later, it is drawn again with a bar along the bottom
edge. The bar must never cover what a view says, in any layout of any game, and showing it or
taking it away must rewrite only the bottom controller page.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import ImageChops

from companion.game import ScoreboardView
from companion.games import find_game
from companion.session import parse_command
from companion.timeline import Timeline
from hardware import oled
from hardware.config import BurnInConfig
from hardware.oled import DisplayWorker, OledPanel
from hardware.oled_layout import NOTICE_MARK, render
from hardware.oled_partial import changed_windows, frame_pages

GAMES = Path(__file__).parent / "games"
SCRIPTS = {  # every layout: two sides (128 and 256 px), one signed lead, three to five columns
    "valley-hoopers": "full_game_valley_hoopers.jsonl",
    "nba-showdown": "full_game_nba_showdown.jsonl",
    "crunch-time": "full_game_crunch_time.jsonl",
    "hoop-godz": "full_game_hoop_godz.jsonl",
    "basketboss": "basketboss_5_managers.jsonl",
}
SIZES = ((128, 64), (256, 64))


def boards(game_name: str) -> Iterator[ScoreboardView]:
    game = find_game(game_name)
    lines = [json.loads(line) for line in (GAMES / SCRIPTS[game_name]).read_text().splitlines() if line]
    timeline = Timeline(game)
    timeline.commit(*timeline.plan_setup({k: v for k, v in lines[0].items() if k != "type"}))
    yield game.scoreboard(timeline.state)
    for line in lines[1:]:
        timeline.commit(*timeline.plan_command(parse_command(json.dumps(line))))
        yield game.scoreboard(timeline.state)


def mark_box(size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The mark's pixels as PIL's bounding box (right and bottom exclusive): two rows, margin to margin."""
    return (2, size[1] - 4, size[0] - 2, size[1] - 2)


@pytest.mark.parametrize("game_name", sorted(SCRIPTS))
def test_the_mark_is_all_a_saving_frame_adds_in_every_view_of_a_whole_game(game_name: str) -> None:
    seen = 0
    for board in boards(game_name):
        # The bottom line as the table fills it: the dial's words, or a notice long enough to wrap.
        for message in ("50 on d20", NOTICE_MARK + "the tray sent a d20, but the game is waiting for a d8"):
            view = dataclasses.replace(board, message=message)
            for size in SIZES:
                plain = render(view, size)
                marked = render(dataclasses.replace(view, saving=True), size)
                # The mark's place is empty without it, and it is all the saving frame changes.
                assert plain.crop(mark_box(size)).getbbox() is None, (game_name, size, view)
                assert ImageChops.difference(plain, marked).getbbox() == mark_box(size), (game_name, size)
                seen += 1
    assert seen > 100


def test_showing_and_taking_away_the_mark_rewrites_the_bottom_page_only() -> None:
    board = next(b for b in boards("valley-hoopers") if b.target is not None)
    view = dataclasses.replace(board, message="50 on d20")
    plain = frame_pages(render(view), 128, 64)
    marked = frame_pages(render(dataclasses.replace(view, saving=True)), 128, 64)
    for before, after in ((plain, marked), (marked, plain)):
        windows = changed_windows(before, after)
        assert [(w.page0, w.page1) for w in windows] == [(7, 7)]


def test_the_mark_stays_inside_the_frame_at_every_pixel_shift() -> None:
    view = dataclasses.replace(next(boards("valley-hoopers")), saving=True)
    for size in SIZES:
        for shift in ((0, 0), (1, 0), (1, 1), (0, 1)):
            _, _, right, bottom = render(view, size, shift=shift).getbbox()
            assert right <= size[0] - 1 and bottom <= size[1] - 1


def test_saving_is_never_in_the_json_clients_read() -> None:
    view = dataclasses.replace(next(boards("valley-hoopers")), saving=True)
    assert "saving" not in view.to_json()
    assert ScoreboardView.from_json(view.to_json()) == dataclasses.replace(view, saving=False)


class Shown:
    """The views a panel was asked to draw, and a wait for one (the worker's thread draws them)."""

    def __init__(self, panel: OledPanel) -> None:
        self.views: list[ScoreboardView] = []
        self._changed = threading.Condition()
        original = panel.show

        def spy(view: ScoreboardView, now: float | None = None) -> None:
            original(view, now)
            with self._changed:
                self.views.append(view)
                self._changed.notify_all()

        panel.show = spy  # type: ignore[method-assign]

    def wait_for(self, wanted: Callable[[ScoreboardView], bool]) -> ScoreboardView:
        with self._changed:
            found = self._changed.wait_for(lambda: next((v for v in self.views if wanted(v)), None), 10)
        assert found is not None, self.views
        return found


def _worker(monkeypatch: pytest.MonkeyPatch, after_s: float) -> tuple[DisplayWorker, OledPanel, list]:
    monkeypatch.setattr(oled, "SAVING_MARK_AFTER_S", after_s)
    panel = OledPanel("t", lambda: dummy(width=128, height=64, mode="1"), lambda event: None,
                      burn_in=BurnInConfig(idle_dim_s=0, pixel_shift_minutes=0))
    lit: list[ScoreboardView] = []
    return DisplayWorker([panel], on_view=[lit.append]), panel, lit


def test_a_result_not_yet_recorded_is_drawn_unmarked_and_the_recorded_view_replaces_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    worker, panel, lit = _worker(monkeypatch, 60.0)  # the mark would come only a minute later
    try:
        shown = Shown(panel)
        board = next(b for b in boards("valley-hoopers") if b.target is not None)
        early = dataclasses.replace(board, message="50 on d20", saving=True)
        worker.submit(early)
        assert worker.flush(10)
        assert shown.views == [dataclasses.replace(early, saving=False)]
        assert panel.image is not None and panel.image.crop(mark_box((128, 64))).getbbox() is None
        assert lit == []  # the lights and the buzzer wait for the recorded view
        recorded = dataclasses.replace(board, message="next choice")
        worker.submit(recorded)
        assert worker.flush(10)
        assert shown.views[-1] == recorded and lit == [recorded]
    finally:
        worker.close()


def test_a_result_still_not_recorded_after_a_while_gets_the_mark_until_a_newer_view_comes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    worker, panel, lit = _worker(monkeypatch, 0.05)
    try:
        shown = Shown(panel)
        board = next(boards("valley-hoopers"))
        worker.submit(dataclasses.replace(board, saving=True))
        shown.wait_for(lambda v: not v.saving)  # drawn at once, unmarked
        # Counted from here: a worker started with its panel not yet open may wake once to open it
        # before the first view comes (a loaded machine gives it the time), which is not this test's.
        woken = worker.wakeups
        marked = shown.wait_for(lambda v: v.saving)  # no newer view came: the write is slow
        assert marked == dataclasses.replace(board, saving=True) and lit == []
        assert panel.image is not None and panel.image.crop(mark_box((128, 64))).getbbox() is not None
        worker.submit(board)  # recorded at last (or the recorded state back, after a failure)
        assert worker.flush(10)
        assert panel.image.crop(mark_box((128, 64))).getbbox() is None and lit == [board]
        assert worker.wakeups == woken  # drawing the mark was work, not an idle wake-up
    finally:
        worker.close()
