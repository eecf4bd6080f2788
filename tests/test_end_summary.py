"""The QR code's words: the game, the final score, the result and the top scorers, read from the
snapshot and the game's declared box score (no game named in the kiosk)."""

from __future__ import annotations

import io
import json

import segno
from PIL import Image

from companion.frontend import game_info
from companion.games import find_game
from kiosk import end_summary
from kiosk.qr import QUIET_ZONE, qr_png

NBA_INFO = json.loads(json.dumps(game_info(find_game("nba-showdown"))))
VH_INFO = json.loads(json.dumps(game_info(find_game("valley-hoopers"))))


def test_the_top_three_scorers_come_from_the_points_column_with_their_team() -> None:
    view = {"box_score": [
        {"team": "Comets", "player": "Relay", "pts": 23, "ast": 7, "reb": 7},
        {"team": "Comets", "player": "Sharpe", "pts": 10, "ast": 3, "reb": 6},
        {"team": "Lanterns", "player": "Ember", "pts": 26, "ast": 8, "reb": 9},
        {"team": "Lanterns", "player": "Spark", "pts": 23, "ast": 1, "reb": 1}]}
    assert end_summary.top_scorers(NBA_INFO, view) == [
        "Ember (Lanterns) 26", "Relay (Comets) 23", "Spark (Lanterns) 23"]


def test_the_summary_reads_game_final_score_periods_result_and_top_scorers() -> None:
    hooper = {"side": "Lucy", "name": "Serge Ceptor", "points": 13, "red": 2, "fg": "5-9", "3p": "1-3",
              "ft": "2-2"}
    totals = [{"side": "Lucy", "name": "Team total", "total": True, "points": 21, "fg": "8-17", "3p": "1-4",
               "ft": "4-6"},
              {"side": "Karl", "name": "Team total", "total": True, "points": 17, "fg": "7-20", "3p": "0-2",
               "ft": "3-3"}]
    view = {"partial_scores": [[16, 11], [5, 6]], "box_score": [hooper, *totals]}
    snapshot = {"scoreboard": {"sides": [{"name": "Lucy", "score": 21}, {"name": "Karl", "score": 17}]},
                "view": view, "outcome": {"winner": 0, "reason": "21-17 after P2"}}
    assert end_summary.summary_text(snapshot, VH_INFO, "Valley Hoopers").splitlines() == [
        "Valley Hoopers: final", "Lucy 21 - 17 Karl", "P1 16-11   P2 5-6", "Lucy wins: 21-17 after P2",
        "Top: Serge Ceptor (Lucy) 13", "Lucy FG 8-17 3P 1-4 FT 4-6", "Karl FG 7-20 3P 0-2 FT 3-3"]


def test_the_splits_are_left_out_of_the_qr_text_when_they_would_make_it_too_long() -> None:
    long_name = "A" * 120
    view = {"box_score": [{"side": long_name, "name": "Team total", "total": True, "points": 1, "fg": "0-1"},
                          {"side": long_name, "name": "Team total", "total": True, "points": 1, "fg": "0-1"}]}
    snapshot = {"scoreboard": {"sides": [{"name": long_name, "score": 1}, {"name": "B", "score": 0}]},
                "view": view, "outcome": {"winner": 0, "reason": "after P4"}}
    text = end_summary.summary_text(snapshot, VH_INFO, "Valley Hoopers")
    assert "FG" not in text and len(text) <= end_summary.MOST_CHARACTERS


def test_a_box_score_without_a_points_column_names_no_scorers() -> None:
    info = {"box_score": {"source": "/sides", "columns": [{"key": "name", "label": "Manager"},
                                                           {"key": "money", "label": "$"}]}}
    assert end_summary.top_scorers(info, {"sides": [{"name": "Blue", "money": 4}]}) == []


def test_the_qr_picture_is_the_code_segno_makes_for_those_words_with_a_quiet_zone() -> None:
    text = "Valley Hoopers: final\nLucy 21 - 17 Karl"
    with Image.open(io.BytesIO(qr_png(text, scale=4))) as image:
        size = image.size
    modules = segno.make(text, error="m", micro=False).symbol_size(scale=1, border=QUIET_ZONE)
    assert size == (modules[0] * 4, modules[1] * 4)


def test_the_examples_in_the_end_summary_and_qr_docstrings_hold() -> None:
    import doctest

    import kiosk.qr

    for module in (end_summary, kiosk.qr):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
