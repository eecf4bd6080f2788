"""The juice ledger: spending onto the bar, the Rest line, recovering and exhausting.

Pure functions on one player's ``Ledger``; every one keeps the player's 10 tokens.

>>> from companion.games.hoop_godz.model import DEFAULT_BAR, Ledger
>>> start = Ledger(6, 4, 0, (None,) * 8)
>>> after = spend(start, DEFAULT_BAR, "PASS", pass_space=True)
>>> for action in ("MOVE", "MOVE", "MOVE"):
...     after = spend(after, DEFAULT_BAR, action)
>>> after.available, after.on_bar, right_of_rest(after, DEFAULT_BAR)
(2, 4, True)
>>> exhausted, to_red = exhaust(after, DEFAULT_BAR)
>>> exhausted.yellow, exhausted.red, to_red, exhausted.total
(8, 0, 0, 10)
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import RuleError
from companion.frozen import replace
from companion.games.hoop_godz.model import BarLayout, Ledger


def _free_space(bar: Sequence[str | None], layout: BarLayout, pass_space: bool) -> int | None:
    if pass_space:
        for i, space in enumerate(layout.spaces):
            if space.pass_only and bar[i] is None:
                return i
    for i, space in enumerate(layout.spaces):
        if not space.pass_only and bar[i] is None:
            return i
    return None


def bar_full(ledger: Ledger, layout: BarLayout) -> bool:
    """No space is left for anything but a start-of-turn PASS: the turn is over."""
    return _free_space(ledger.bar, layout, pass_space=False) is None


def _place(available: int, bar: list[str | None], layout: BarLayout, action: str, pass_space: bool) -> None:
    """One juice of ``available`` onto the leftmost empty space of ``bar`` (changed in place), or the
    refusal."""
    if available <= 0:
        raise RuleError(f"{action} needs 1 juice and no juice is Available")
    where = _free_space(bar, layout, pass_space)
    if where is None:
        raise RuleError(f"the juice bar is full: no space left for {action}; the turn is over")
    bar[where] = action


def spend(ledger: Ledger, layout: BarLayout, action: str, pass_space: bool = False) -> Ledger:
    """One juice from Available onto the leftmost empty space (the blue space only for a PASS)."""
    bar = list(ledger.bar)
    _place(ledger.available, bar, layout, action, pass_space)
    return replace(ledger, available=ledger.available - 1, bar=tuple(bar))


def check_spend(ledger: Ledger, layout: BarLayout, action: str, count: int = 1,
                pass_space: bool = False) -> None:
    """Refuses ``count`` spends in a row as ``spend`` would refuse the first that fails (in its words),
    without building a ledger for each."""
    bar = list(ledger.bar)
    for spent in range(count):
        _place(ledger.available - spent, bar, layout, action, pass_space)


def right_of_rest(ledger: Ledger, layout: BarLayout) -> bool:
    return any(space is not None for space in ledger.bar[layout.rest_line :])


def exhaust(ledger: Ledger, layout: BarLayout) -> tuple[Ledger, int]:
    """Move the juice down from the bar into the box under each space; returns how many went red."""
    if ledger.bar.count(None) == len(ledger.bar) == len(layout.spaces):
        # Nothing on the bar: the ledger as it is (the same record, so a state after a turn's end
        # shares the other player's record with the state before it).
        return ledger, 0
    yellow = red = 0
    for space, held in zip(layout.spaces, ledger.bar, strict=True):
        if held is not None:
            if space.drains_to == "red":
                red += 1
            else:
                yellow += 1
    emptied = replace(
        ledger, yellow=ledger.yellow + yellow, red=ledger.red + red, bar=(None,) * len(ledger.bar)
    )
    return emptied, red


def recover_rest(ledger: Ledger) -> tuple[Ledger, int]:
    """REST: "place 4 JUICE from the yellow JUICE Box into Available" (fewer if fewer are there)."""
    moved = min(4, ledger.yellow)
    return replace(ledger, yellow=ledger.yellow - moved, available=ledger.available + moved), moved


def recover_score(ledger: Ledger) -> Ledger:
    """SCORE: 1 Yellow to Available, then up to 2 Red to Yellow."""
    to_available = min(1, ledger.yellow)
    ledger = replace(ledger, yellow=ledger.yellow - to_available, available=ledger.available + to_available)
    from_red = min(2, ledger.red)
    return replace(ledger, red=ledger.red - from_red, yellow=ledger.yellow + from_red)
