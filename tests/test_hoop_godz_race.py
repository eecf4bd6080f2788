"""Hoop Godz's dice battles as races on gpiozero's mock pins (a short run of benchmarks/race.py): the
buttons' debounce, the controls' race window and the game's decide, wired as the service wires them."""

from __future__ import annotations

from benchmarks.race import run_races


def test_three_hundred_races_first_press_wins_past_the_window_and_the_holder_wins_a_tie() -> None:
    report = run_races(300, seed=7)
    assert report["errors"] == 0, report["first_errors"]
    assert report["window_ms"] == 50
    assert report["clean"] > 200 and report["tie"] > 5 and report["rolled_again"] > 5


def test_gaps_around_the_window_are_called_by_the_edge_times_whatever_the_callback_order() -> None:
    # Gaps of 0 to 100 ms: half inside the 50 ms window, half outside, many within a debounce.
    report = run_races(300, seed=11, max_gap_ms=100)
    assert report["errors"] == 0, report["first_errors"]
    assert report["clean"] > 100 and report["tie"] + report["rolled_again"] > 100
