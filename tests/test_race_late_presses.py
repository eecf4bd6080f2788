"""Races judged by the presses' edge times, however late a press reaches the controls.

A press is dated by its first edge (``at``) on the buttons' thread and reaches the controls on the
table's owner thread, later on a loaded machine. The race's window runs from the first press's
edge, a press dated before the race's prompt was shown belongs to an older race and is not in this
one (after a tied tip-off, the roll again is raced by fresh presses only), and a press that reaches
the table after the race was sent, dated so that it would have changed the result, is told to the
table (hold UNDO and race again) instead of being lost or jumping the dial.

The first tests drive the controls with explicit edge times, a hand-advanced clock and timers run
by hand; the last ones press gpiozero's mock pins through the real button panel at a Hoop Godz
dice battle, with the buttons' thread stalled before it hands a press on.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpiozero.pins.mock import MockFactory

from benchmarks.race import battle_states
from companion.controls import RACE_GRACE_S, TableControls
from companion.games.hoop_godz import GAME
from hardware.buttons import ButtonPanel
from hardware.inputs import to_json


class Clock:
    """The clock the buttons and the controls share, advanced by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def race_prompt(holder: int | None, text: str = "dice battle") -> dict[str, Any]:
    return {"prompt": {"die": None, "text": text, "choices": [],
                       "race": {"sides": [0, 1], "tie_breaker": holder, "command": "race",
                                "window_ms": 50, "label": "first to press"}}}


NEXT_TURN = {"prompt": {"die": None, "text": "the battle is decided", "choices": []}}


@dataclass
class Table:
    """The controls as the service runs them: an accepted race moves the prompt on at once."""

    clock: Clock
    after_race: list[dict[str, Any]]  # the snapshot each accepted race leads to, in turn
    sent: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    statuses: list[tuple[str, Any]] = field(default_factory=list)
    timers: list[tuple[float, int, Callable[[], None]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.controls = TableControls(submit=self.submit, notify=self.notes.append,
                                      status=lambda key, value: self.statuses.append((key, value)),
                                      later=self.later, clock=self.clock)

    def later(self, delay: float, call: Callable[[], None]) -> None:
        heapq.heappush(self.timers, (self.clock.now + delay, len(self.sent) * 1000 + len(self.timers), call))

    def submit(self, command: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(command)
        if command.get("type") == "race" and self.after_race:
            self.controls.update(self.after_race.pop(0))
        return {"ok": True}

    def press(self, role: str, at: float, reaches_at: float | None = None) -> None:
        """``role`` pressed at ``at``; the press reaches the controls at ``reaches_at`` (default: at once)."""
        self.run_until(at if reaches_at is None else reaches_at)
        self.controls.on_input({"type": "ButtonPress", "role": role, "kind": "press", "at": at})

    def run_until(self, until: float) -> None:
        while self.timers and self.timers[0][0] <= until:
            due, _, call = heapq.heappop(self.timers)
            self.clock.now = max(self.clock.now, due)
            call()
        self.clock.now = max(self.clock.now, until)

    def race_notes(self) -> list[tuple[str, Any]]:
        return [(key, value) for key, value in self.statuses if key == "race_late"]


def table_at(now: float, holder: int | None, after_race: list[dict[str, Any]] | None = None) -> Table:
    table = Table(Clock(now), after_race if after_race is not None else [NEXT_TURN])
    table.controls.update(race_prompt(holder))
    return table


def test_the_window_closes_a_window_and_grace_after_the_first_edge_however_late_the_press_arrived() -> None:
    table = table_at(9.0, holder=1)
    # HOME's edge at 10.000 reaches the controls 80 ms late (the owner thread was busy).
    table.press("HOME", 10.000, reaches_at=10.080)
    assert len(table.timers) == 1
    assert abs(table.timers[0][0] - (10.000 + 0.050 + RACE_GRACE_S)) < 1e-9
    table.run_until(10.2)
    assert table.sent == [{"type": "race", "order": [0, 1], "tie": False,
                           "presses": [{"side": 0, "ms": 0}]}]


def test_a_press_reaching_the_controls_after_its_window_and_grace_closes_the_race_at_once() -> None:
    table = table_at(9.0, holder=1)
    table.press("HOME", 10.000, reaches_at=10.300)
    # Presses dated in its window had all their time to arrive: nothing left to wait for.
    assert [due for due, _, _ in table.timers] == [10.300]


def test_a_press_dated_before_the_race_was_shown_is_not_in_the_race() -> None:
    table = table_at(5.0, holder=1)
    table.press("HOME", 4.990, reaches_at=5.010)  # pressed before this race's prompt existed
    assert table.timers == [] and table.sent == []
    table.press("AWAY", 5.500)
    table.run_until(6.0)
    assert table.sent == [{"type": "race", "order": [1, 0], "tie": False,
                           "presses": [{"side": 1, "ms": 0}]}]


def test_after_a_tied_tip_off_a_late_press_of_the_tied_race_does_not_start_the_roll_again() -> None:
    roll_again = race_prompt(None, text="dice battle (tie 1: roll again)")
    table = table_at(1.0, holder=None, after_race=[roll_again, NEXT_TURN])
    table.press("HOME", 1.100)
    table.press("AWAY", 1.110)
    table.run_until(1.300)
    assert table.sent[0]["tie"] is True  # the tip-off tied: the game rolls it again
    # HOME hit the button again during the tied race; that press reaches the controls only now.
    table.press("HOME", 1.150, reaches_at=1.320)
    assert table.timers == [] and len(table.sent) == 1
    # The roll again: AWAY matches first, HOME 80 ms later (outside the window, before it closes).
    table.press("AWAY", 3.000)
    table.press("HOME", 3.080)
    table.run_until(4.0)
    assert table.sent[1] == {"type": "race", "order": [1, 0], "tie": False,
                             "presses": [{"side": 1, "ms": 0}, {"side": 0, "ms": 80}]}


def test_a_tying_press_that_reaches_the_table_after_the_race_was_sent_is_told_to_the_table() -> None:
    table = table_at(9.0, holder=1)  # AWAY holds the tie-breaker: a tie is AWAY's
    table.press("HOME", 10.000)
    table.run_until(10.200)
    assert table.sent[0]["order"] == [0, 1] and table.sent[0]["tie"] is False
    # AWAY pressed 20 ms after HOME; its press reaches the controls 280 ms late.
    table.press("AWAY", 10.020, reaches_at=10.300)
    assert len(table.sent) == 1 and table.timers == []
    assert table.notes == ["AWAY's race press reached the table 280 ms late, after the race was sent: "
                           "it was 20 ms after HOME's, inside the 50 ms window, so the race was a tie to "
                           "AWAY, not won by HOME; hold UNDO and race again"]
    [(_, late)] = table.race_notes()
    assert late == {"role": "AWAY", "side": 1, "ms": 20, "late_ms": 280, "changes_result": True,
                    "sent": {"order": [0, 1], "tie": False}, "with_it": {"order": [1, 0], "tie": True}}


def test_a_late_press_that_was_really_first_is_told_to_the_table() -> None:
    table = table_at(9.0, holder=0)
    table.press("HOME", 10.000)
    table.run_until(10.200)
    table.press("AWAY", 9.900, reaches_at=10.250)  # AWAY pressed 100 ms before HOME
    assert table.notes == ["AWAY's race press reached the table 350 ms late, after the race was sent: "
                           "it was 100 ms before HOME's, so the race was won by AWAY, not won by HOME; "
                           "hold UNDO and race again"]


def test_a_late_press_that_lost_anyway_changes_nothing_and_jumps_no_dial() -> None:
    table = table_at(9.0, holder=1)
    table.press("HOME", 10.000)
    table.run_until(10.200)
    table.controls.update({"prompt": {"die": None, "text": "AWAY's turn", "choices": [
        {"label": "AWAY rests", "command": {"type": "rest", "side": 1}},
        {"label": "AWAY drives", "command": {"type": "drive", "side": 1}}]}})
    # AWAY pressed 80 ms after HOME (outside the window, before the race went out): it lost anyway.
    table.press("AWAY", 10.080, reaches_at=10.300)
    assert table.notes == [] and table.controls.dial == 0 and len(table.sent) == 1
    [(_, late)] = table.race_notes()
    assert late["changes_result"] is False and late["ms"] == 80
    # A press made after the race went out is the next prompt's: it jumps the dial as ever.
    table.press("AWAY", 10.400)
    assert table.controls.dial == 1


def test_a_refused_race_is_raced_again_on_the_same_prompt_by_fresh_presses_only() -> None:
    table = table_at(9.0, holder=1, after_race=[])  # the game refuses the race: the prompt stays
    table.press("HOME", 10.000)
    table.run_until(10.200)
    table.press("HOME", 10.060, reaches_at=10.250)  # a second press of that race, handed on late
    assert len(table.sent) == 1 and table.timers == []
    table.press("AWAY", 11.000)
    table.press("HOME", 11.030)
    table.run_until(12.0)
    assert table.sent[1] == {"type": "race", "order": [1, 0], "tie": True,
                             "presses": [{"side": 1, "ms": 0}, {"side": 0, "ms": 30}]}


# -- through gpiozero's mock pins at a Hoop Godz dice battle -------------------------------------------


@dataclass
class PinTable:
    """The button panel on MockFactory pins, the controls and Hoop Godz, on one hand-advanced clock.

    Each press is stamped by the panel on its edge; the buttons' thread then hands it to the owner
    thread after ``stall`` seconds (a loaded machine), in time order with the race window's timer.
    """

    holder: int | None
    clock: Clock = field(default_factory=lambda: Clock(100.0))
    queue: list[tuple[float, int, Callable[[], None]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    decided: list[dict[str, Any]] = field(default_factory=list)
    stall: float = 0.0
    _count: int = 0

    def __post_init__(self) -> None:
        self.factory = MockFactory()
        self.state = battle_states()[self.holder]
        self.panel = ButtonPanel({"HOME": 5, "AWAY": 6}, self.emit, self.factory, debounce_s=0.020,
                                 clock=self.clock, start_thread=False)
        self.controls = TableControls(submit=self.submit, notify=self.notes.append,
                                      later=self.later, clock=self.clock)
        self.controls.update({"prompt": GAME.prompt(self.state).to_json()})

    def _at(self, due: float, call: Callable[[], None]) -> None:
        self._count += 1
        heapq.heappush(self.queue, (due, self._count, call))

    def emit(self, event: Any) -> None:
        as_json = to_json(event)
        self._at(self.clock.now + self.stall, lambda: self.controls.on_input(as_json))

    def later(self, delay: float, call: Callable[[], None]) -> None:
        self._at(self.clock.now + delay, call)

    def submit(self, command: dict[str, Any]) -> dict[str, Any]:
        self.state, events = GAME.run(self.state, command)
        self.decided += [e for e in events if e["type"] in ("battle_won", "battle_tied")]
        self.controls.update({"prompt": GAME.prompt(self.state).to_json()})
        return {"ok": True}

    def run_until(self, until: float) -> None:
        while self.queue and self.queue[0][0] <= until:
            due, _, call = heapq.heappop(self.queue)
            self.clock.now = max(self.clock.now, due)
            call()
        self.clock.now = max(self.clock.now, until)

    def tap(self, role: str, at: float, stall: float = 0.0) -> None:
        """Down at ``at``, up 30 ms later (past the debounce); the buttons' thread stalls ``stall``."""
        self.run_until(at)
        self.stall = stall
        self.panel.pin(role).drive_low()
        self.stall = 0.0
        self.run_until(at + 0.030)
        self.panel.pin(role).drive_high()

    def close(self) -> None:
        self.panel.close()
        self.factory.reset()


def test_on_the_pins_a_tie_whose_second_press_is_handed_on_late_is_told_not_lost() -> None:
    table = PinTable(holder=1)  # Away holds the TIE BREAKER
    try:
        table.tap("HOME", 100.500)
        table.tap("AWAY", 100.520, stall=0.300)  # the buttons' thread hands it on 300 ms later
        table.run_until(102.0)
        assert [(e["type"], e["side"], e["tie"]) for e in table.decided] == [("battle_won", 0, False)]
        assert len(table.notes) == 1 and table.notes[0].startswith("AWAY's race press reached the table")
        assert "a tie to AWAY, not won by HOME; hold UNDO and race again" in table.notes[0]
    finally:
        table.close()


def test_on_the_pins_a_tied_tip_off_is_rolled_again_by_fresh_presses_only() -> None:
    table = PinTable(holder=None)  # the tip-off: nobody holds the TIE BREAKER
    try:
        table.tap("HOME", 100.500)
        table.tap("AWAY", 100.510)
        # HOME's player hits the button again at once; the buttons' thread hands that press on late,
        # after the tie was sent and the roll again shown.
        table.tap("HOME", 100.560, stall=0.200)
        table.run_until(101.0)
        assert [e["type"] for e in table.decided] == ["battle_tied"]
        assert table.controls.snapshot is not None and table.controls.snapshot["prompt"]["race"] is not None
        # The roll again: AWAY matches first, HOME 70 ms later (outside the window).
        table.tap("AWAY", 103.000)
        table.tap("HOME", 103.070)
        table.run_until(104.0)
        assert [(e["type"], e.get("side")) for e in table.decided] == [("battle_tied", None),
                                                                      ("battle_won", 1)]
    finally:
        table.close()
