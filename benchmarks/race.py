"""Dice-battle races on gpiozero's mock pins: first press wins, a tie within the window goes to the holder.

    .venv/bin/python benchmarks/race.py [--races 10000] [--seed 1]

Each race presses HOME and AWAY on a ``MockFactory`` (``drive_low()``) with an edge gap drawn from 0 to
500 ms, through ``hardware.buttons.ButtonPanel`` (its own debounce) and ``companion.controls`` wired as
``table/serve.py`` wires them (events as JSON onto the owner thread's queue, the race window's timer
back onto that thread), and the race command goes to Hoop Godz's ``decide`` at a dice battle. Time is
simulated (the panel's clock, the timers), so 10,000 races take seconds, and the panel is polled at
its own deadlines, as its thread would be. Which side presses first, which TIE BREAKER holder (side 0,
side 1, nobody at the tip-off) and, for presses dated the same, the order the callbacks run in are
drawn at random.

Checked: a gap wider than the window is won by the first press, never called a tie; a narrower gap is
a tie won by the holder (the tip-off: rolled again). Reported: the window and the decision latency,
the wall time from the race window's timer firing to ``decide``'s answer (p50/p99; the press
itself waits by design for the window plus a grace for a press handed on late, both counted from the
first press's edge, printed as ``decided_after_ms``).
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion.controls import RACE_GRACE_S, TableControls  # noqa: E402
from companion.games.hoop_godz import GAME  # noqa: E402
from hardware.buttons import ButtonPanel  # noqa: E402
from hardware.inputs import to_json  # noqa: E402

PINS = {"HOME": 5, "AWAY": 6}
DEBOUNCE_S = 0.020
MAX_GAP_MS = 500
DECIDED = {"prompt": {"text": "the battle is decided", "die": None, "choices": []}}


def battle_states() -> dict[int | None, Any]:
    """Hoop Godz at a dice battle with the TIE BREAKER held by side 0, side 1, or nobody (the tip-off)."""
    state = GAME.setup({"names": ["Home", "Away"]})
    for name in ("Demo Tower", "Demo Zip", "Demo Flash", "Demo Swing", "Demo Arc", "Demo Wall"):
        state, _ = GAME.run(state, {"type": "pick", "baller": name})
    tip_off, _ = GAME.run(state, {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]})
    # Home wins the tip-off: Away holds the TIE BREAKER; Home plays DRIVE and Away answers: a battle.
    held_by_1, _ = GAME.run(tip_off, {"type": "battle", "winner": 0})
    for command in ({"type": "play", "card": "DRIVE", "baller": "Demo Swing"},
                    {"type": "respond", "card": "BLOCK", "baller": "Demo Wall"}):
        held_by_1, _ = GAME.run(held_by_1, command)
    # Away wins the tip-off instead: Home holds it.
    held_by_0, _ = GAME.run(tip_off, {"type": "battle", "winner": 1})
    for command in ({"type": "play", "card": "DRIVE", "baller": "Demo Zip"},
                    {"type": "respond", "card": "BLOCK", "baller": "Demo Tower"}):
        held_by_0, _ = GAME.run(held_by_0, command)
    states = {None: tip_off, 0: held_by_0, 1: held_by_1}
    for holder, state in states.items():
        assert state.phase == "battle" and state.tie_breaker == holder
    return states


@dataclass
class SimTable:
    """The panel, the controls and the owner thread's queue, on a simulated clock."""

    now: float = 1000.0
    timers: list[tuple[float, int, Callable[[], None]]] = field(default_factory=list)
    owner_queue: list[Callable[[], None]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    shuffle: random.Random = field(default_factory=random.Random)
    fired_at_wall: float = 0.0
    state: Any = None  # the game state the race is for
    decided: list[list[dict[str, Any]]] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    _count: int = 0

    def __post_init__(self) -> None:
        self.panel = ButtonPanel(PINS, self.emit, MockFactory(), debounce_s=DEBOUNCE_S,
                                 clock=lambda: self.now, start_thread=False)
        # The controls judge presses on the panel's clock (their edge times), as on the table.
        self.controls = TableControls(submit=self.submit, notify=lambda text: None, later=self.later,
                                      clock=lambda: self.now)

    # As table/serve.py: events leave the library thread as JSON and run on the owner thread.
    def emit(self, event: Any) -> None:
        as_json = to_json(event)
        self.owner_queue.append(lambda: self.controls.on_input(as_json))

    def later(self, delay: float, call: Callable[[], None]) -> None:
        self._count += 1
        heapq.heappush(self.timers, (self.now + delay, self._count, lambda: self.owner_queue.append(call)))

    def submit(self, command: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(command)
        self.decided.append(GAME.decide(self.state, command))
        self.latencies_ms.append((time.perf_counter() - self.fired_at_wall) * 1000)
        # As the service: the accepted race moves the prompt on, so a later press races no more.
        self.controls.update(DECIDED)
        return {"ok": True}

    def run_owner(self) -> None:
        # Events queued by one poll may reach the owner thread in any order: shuffle them.
        batch, self.owner_queue = self.owner_queue, []
        self.shuffle.shuffle(batch)
        for call in batch:
            call()
        while self.owner_queue:  # anything those calls queued, in order
            self.owner_queue.pop(0)()

    def advance_to(self, until: float) -> None:
        """Run the panel's deadlines and the timers up to ``until``, in time order."""
        while True:
            deadline = self.panel._next_deadline()
            timer = self.timers[0][0] if self.timers else None
            due = min(t for t in (deadline, timer, until) if t is not None)
            if due > until or (due == until and deadline != until and timer != until):
                self.now = until
                self.panel.poll()
                self.run_owner()
                return
            self.now = max(self.now, due)
            if timer is not None and timer <= due:
                _, _, fire = heapq.heappop(self.timers)
                self.fired_at_wall = time.perf_counter()
                fire()
            else:
                self.panel.poll()
            self.run_owner()

    def press(self, role: str) -> None:
        self.panel.pin(role).drive_low()
        self.run_owner()

    def release_all(self) -> None:
        for role in PINS:
            self.panel.pin(role).drive_high()
        self.advance_to(self.now + 0.2)


def run_races(races: int, seed: int = 1, max_gap_ms: int = MAX_GAP_MS) -> dict[str, Any]:
    rng = random.Random(seed)
    states = battle_states()
    snapshots = {holder: {"prompt": GAME.prompt(state).to_json(), "id": holder}
                 for holder, state in states.items()}
    window_ms = snapshots[0]["prompt"]["race"]["window_ms"]
    table = SimTable(shuffle=random.Random(seed + 1))
    errors: list[str] = []
    counts = {"clean": 0, "tie": 0, "rolled_again": 0}
    for n in range(races):
        holder = rng.choice((0, 1, None))
        table.controls.update(snapshots[holder])
        table.state = states[holder]
        first = rng.choice((0, 1))
        gap_us = rng.randint(0, max_gap_ms * 1000)
        roles = ("HOME", "AWAY")
        start = table.now
        table.sent.clear()
        table.decided.clear()
        if gap_us == 0:
            # The same instant: the two callbacks run in either order.
            for side in rng.sample((first, 1 - first), 2):
                table.press(roles[side])
        else:
            table.press(roles[first])
            table.advance_to(start + gap_us / 1e6)
            table.press(roles[1 - first])
        table.advance_to(start + (MAX_GAP_MS + window_ms) / 1000 + RACE_GRACE_S + 0.1)
        if len(table.sent) != 1:
            errors.append(f"race {n}: {len(table.sent)} commands sent")
            table.release_all()
            continue
        events = table.decided[0]
        won = next((e for e in events if e["type"] in ("battle_won", "battle_tied")), None)
        gap_ms = gap_us / 1000
        if gap_ms > window_ms:
            if won is None or won["type"] != "battle_won" or won["side"] != first or won["tie"]:
                errors.append(f"race {n}: gap {gap_ms} ms, first press {first}, decided {won}")
            counts["clean"] += 1
        elif gap_ms < window_ms:
            expected = "battle_tied" if holder is None else "battle_won"
            if won is None or won["type"] != expected or (holder is not None
                                                          and (won["side"] != holder or not won["tie"])):
                errors.append(f"race {n}: gap {gap_ms} ms, holder {holder}, decided {won}")
            counts["rolled_again" if holder is None else "tie"] += 1
        table.release_all()
    table.panel.close()
    latencies_ms = sorted(table.latencies_ms)

    def pct(p: float) -> float:
        return round(latencies_ms[min(len(latencies_ms) - 1, int(p / 100 * len(latencies_ms)))], 3)

    return {"races": races, "window_ms": window_ms, "debounce_ms": DEBOUNCE_S * 1000,
            # From the first press's edge: the debounce reports that edge at once.
            "decided_after_ms": round(window_ms + RACE_GRACE_S * 1000),
            "errors": len(errors), "first_errors": errors[:5], **counts,
            "decision_latency_p50_ms": pct(50), "decision_latency_p99_ms": pct(99)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report = run_races(args.races, args.seed)
    print(json.dumps(report, indent=2))
    return 0 if report["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
