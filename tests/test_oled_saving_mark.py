"""The mark a result carries on the OLEDs while its entry is still being written.

A press's result is drawn before its entry is committed (``TableService.early_hooks``); the frame
carries a 3x2 block in the bottom-right corner until the snapshot's frame (the entry durable)
replaces it. The mark must never cover what a view says, in any layout of any game, and showing
it or taking it away must rewrite only the bottom controller page.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import ImageChops

from companion.game import ScoreboardView
from companion.games import find_game
from companion.session import parse_command
from companion.timeline import Timeline
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
    """The mark's pixels as PIL's bounding box (right and bottom exclusive)."""
    return (size[0] - 5, size[1] - 4, size[0] - 2, size[1] - 2)


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
        assert sum(w.col1 - w.col0 + 1 for w in windows) <= 4


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
