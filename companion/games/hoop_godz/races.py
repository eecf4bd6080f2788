"""Dice battles decided by a race: who pressed first, checked against the press times (pure).

The controls (``companion.controls.race_command``) date each side's first edge, call presses within
the race window a tie, and put the TIE BREAKER holder first on a tie. Here the game only checks that
the command says what its own times say, so a hand-typed or damaged race cannot decide a battle the
times contradict.

>>> race_winner({"order": [1, 0], "presses": [{"side": 1, "ms": 0}, {"side": 0, "ms": 200}],
...              "tie": False}, holder=0)
(1, False)
>>> race_winner({"order": [0, 1], "presses": [{"side": 1, "ms": 0}, {"side": 0, "ms": 20}],
...              "tie": True}, holder=0)
(0, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import RuleError

# Presses closer than this are a tie (the TIE BREAKER decides): 50 ms is under the time anyone can
# see which of two hands moved first, and far over the buttons' debounce jitter (docs/games/hoop-godz.md).
RACE_WINDOW_MS = 50
# The times come rounded to whole ms: a gap within 1 ms of the window may be called either way.
ROUNDING_MS = 1


def race_winner(command: Mapping[str, Any], holder: int | None,
                window_ms: int = RACE_WINDOW_MS) -> tuple[int, bool]:
    """``(winner, tie)`` of a checked race command; ``RuleError`` if its order or tie contradicts
    its own press times. With no holder (the tip-off) a tie has no winner: the caller rolls again."""
    presses = sorted(command["presses"], key=lambda p: p["ms"])
    order, tie = command["order"], command["tie"]
    if presses[0]["ms"] != 0:
        raise RuleError("a race's press times count from the first press: the first is at 0 ms")
    gap = presses[1]["ms"] if len(presses) == 2 else None
    if gap is None or gap > window_ms + ROUNDING_MS:
        if tie:
            raise RuleError(f"no tie: the presses are more than the {window_ms} ms race window apart")
    elif gap < window_ms - ROUNDING_MS and not tie:
        raise RuleError(f"a tie: the presses are {gap} ms apart, within the {window_ms} ms race window")
    if tie and holder is not None:
        if order[0] != holder:
            raise RuleError("a tie goes to the TIE BREAKER holder, who must come first in the order")
        return holder, True
    if not tie and order[0] != presses[0]["side"]:
        raise RuleError("the winner of a race is the side that pressed first (0 ms)")
    return order[0], tie
