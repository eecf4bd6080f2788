"""The pure button logic: bounces, holds and ties decided from (edge_time, pressed) pairs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.debounce import (
    Holdable,
    TieWatch,
    Transition,
    debounce,
    hold_due,
    on_press_edge,
    on_transition,
)

DEBOUNCE = 0.020


def test_a_clean_press_and_release_give_two_transitions_dated_by_their_edges():
    assert debounce([(1.0, True), (1.5, False)], DEBOUNCE, until=2.0) == [
        Transition(1.0, True), Transition(1.5, False)]


def test_bounces_inside_the_window_collapse_into_one_press_reported_on_the_first_edge():
    edges = [(0.000, True), (0.001, False), (0.002, True), (0.004, False), (0.005, True)]
    assert debounce(edges[:1], DEBOUNCE, until=0.0) == [Transition(0.0, True)]  # no waiting
    assert debounce(edges, DEBOUNCE, until=0.1) == [Transition(0.0, True)]


def test_a_tap_shorter_than_the_debounce_time_is_a_press_and_a_release_once_the_bounce_time_is_up():
    assert debounce([(0.0, True), (0.010, False)], DEBOUNCE, until=0.019) == [Transition(0.0, True)]
    assert debounce([(0.0, True), (0.010, False)], DEBOUNCE, until=0.020) == [
        Transition(0.0, True), Transition(0.010, False)]


def test_a_release_is_reported_on_its_first_edge_and_its_bounces_ignored():
    edges = [(0.0, True), (0.5, False), (0.501, True), (0.503, False)]
    assert debounce(edges, DEBOUNCE, until=0.5) == [Transition(0.0, True), Transition(0.5, False)]
    assert debounce(edges, DEBOUNCE, until=1.0) == [Transition(0.0, True), Transition(0.5, False)]


def test_an_edge_just_after_the_bounce_time_is_a_new_press():
    edges = [(0.0, True), (0.005, False), (0.030, True)]
    assert debounce(edges, DEBOUNCE, until=1.0) == [
        Transition(0.0, True), Transition(0.005, False), Transition(0.030, True)]


def test_a_role_without_hold_presses_on_the_way_down_and_releases_on_the_way_up():
    button, events = on_transition(Holdable(), Transition(1.0, True))
    assert events == [("press", 1.0)]
    button, events = on_transition(button, Transition(1.2, False))
    assert events == [("release", 1.2)]


def test_undo_tapped_is_a_press_reported_on_release_with_the_press_time():
    button, events = on_transition(Holdable(hold_s=1.0), Transition(5.0, True))
    assert events == []
    button, events = hold_due(button, 5.5)
    assert events == []
    button, events = on_transition(button, Transition(5.6, False))
    assert events == [("press", 5.0), ("release", 5.6)]


def test_undo_held_one_second_fires_hold_while_still_down_and_never_a_press():
    button, _ = on_transition(Holdable(hold_s=1.0), Transition(5.0, True))
    button, events = hold_due(button, 5.999)
    assert events == []
    button, events = hold_due(button, 6.0)
    assert events == [("hold", 5.0)]
    button, events = hold_due(button, 9.0)
    assert events == []  # one hold per press, however long it stays down
    button, events = on_transition(button, Transition(9.5, False))
    assert events == [("release", 9.5)]


def test_home_and_away_within_the_window_are_a_tie_in_press_order():
    watch, tie = on_press_edge(TieWatch(), "AWAY", 1.00, 0.150)
    assert tie is None
    watch, tie = on_press_edge(watch, "HOME", 1.10, 0.150)
    assert tie == (("AWAY", "HOME"), (1.00, 1.10))
    watch, tie = on_press_edge(watch, "CONFIRM", 1.12, 0.150)
    assert tie is None  # both presses were used by the first tie


def test_presses_further_apart_than_the_window_are_no_tie():
    watch, _ = on_press_edge(TieWatch(), "HOME", 1.0, 0.150)
    _, tie = on_press_edge(watch, "AWAY", 1.151, 0.150)
    assert tie is None


def test_the_same_button_twice_is_not_a_tie_with_itself():
    watch, _ = on_press_edge(TieWatch(), "HOME", 1.0, 0.150)
    _, tie = on_press_edge(watch, "HOME", 1.05, 0.150)
    assert tie is None


def _edges(gaps: list[int]) -> list[tuple[float, bool]]:
    # Integer milliseconds so float rounding cannot sit exactly on the debounce boundary.
    times = [sum(gaps[: i + 1]) / 1000 for i in range(len(gaps))]
    return [(t, i % 2 == 0) for i, t in enumerate(times)]


@settings(max_examples=300, deadline=None)
@given(gaps=st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=60),
       tail=st.integers(min_value=20, max_value=100))
def test_rapid_toggles_give_alternating_changes_ending_at_the_level_the_contact_rests_at(
        gaps: list[int], tail: int):
    edges = _edges(gaps)
    transitions = debounce(edges, DEBOUNCE, until=edges[-1][0] + tail / 1000)
    # Transitions alternate, start with a press, are in time order and are never more than the edges.
    assert [t.pressed for t in transitions] == [i % 2 == 0 for i in range(len(transitions))]
    assert [t.at for t in transitions] == sorted(t.at for t in transitions)
    assert len(transitions) <= len(edges)
    assert transitions[-1].pressed == edges[-1][1]  # once still for the bounce time, it is believed
    assert transitions[0] == Transition(edges[0][0], True)  # the very first edge, never a later one


@settings(max_examples=200, deadline=None)
@given(gaps=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=4))
def test_a_burst_shorter_than_the_debounce_time_is_one_press_on_its_first_edge(gaps: list[int]):
    edges = _edges(gaps)  # at most 16 ms from the first edge to the last
    settled = debounce(edges, DEBOUNCE, until=edges[-1][0] + 0.1)
    if edges[-1][1]:
        assert settled == [Transition(edges[0][0], True)]
    else:  # it ended released: a short tap, released at its last edge
        assert settled == [Transition(edges[0][0], True), Transition(edges[-1][0], False)]
