"""Interpreter settings for the press -> frame path of ``companion serve``, made once at start.

A press crosses two threads before its frame is drawn (the pin's callback queues it for the owner
thread; the owner hands the new view to the display thread), and each of them must get the GIL.
CPython lets a thread that waits for the GIL have it only when the running one blocks or has run
for the switch interval, 5 ms by default: at every hand-over the frame could wait that long behind
the owner still publishing the snapshot, or behind a socket client's thread. ``SWITCH_INTERVAL_S``
caps that wait at 1 ms; a thread that blocks (the owner in its commit's fsync, in ``queue.get``)
hands the GIL over at once either way, so an idle table is not woken any more often.

Everything built at start (the games' modules, the fonts, the hardware objects: most of the heap)
never becomes garbage: ``gc.freeze()`` moves it out of the collector's sight, so the full
collection a long game sets off now and then scans only what the game made since, not the whole
program (a full collection of the started table took tens of ms on a loaded machine, inside a press).

>>> with press_tuning():
...     sys.getswitchinterval() == SWITCH_INTERVAL_S
True
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

SWITCH_INTERVAL_S = 0.001


def tune_for_presses() -> tuple[float, bool]:
    """Apply the settings for the rest of the process; returns what ``untune`` needs to undo them."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    # The young garbage of the start-up is freed rather than frozen with the rest; a full collection
    # here would add tens of ms to every start for the few cycles older than that.
    gc.collect(1)
    gc.freeze()
    return before, True


def untune(before: tuple[float, bool]) -> None:
    interval, frozen = before
    sys.setswitchinterval(interval)
    if frozen:
        gc.unfreeze()


@contextmanager
def press_tuning() -> Iterator[None]:
    """The settings while a block runs (the latency benchmark measures the path ``serve`` runs)."""
    before = tune_for_presses()
    try:
        yield
    finally:
        untune(before)
