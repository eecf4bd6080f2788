"""What a Valley Hoopers game of The Series has to remember for the gameplan milestones.

Most milestones read the table as it is (points markers, cubes, chips, playbooks). The rest need
what happened on the way: which kind of shot made the points, how many coach action tokens left
the game, fouls in the fourth period, chips spent for a block or to remove a counter. ``tally``
folds one accepted event into a ``GameplanBook`` by comparing the state before and after it, so the
book is the replay of the log like every other part of the state.

>>> from companion.games.valley_hoopers.setup_options import example_options, setup
>>> state = setup({**example_options(), "series_game": 1})
>>> book = state.gameplans
>>> book.game, book.taken, book.starters[0]
(1, (None, None), ('Serge Ceptor', 'Muy Schillato', "Dime N'Shons", 'Wally Block', 'Never Tired'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the book is part of the state: the model imports this module, not the reverse
    from companion.games.valley_hoopers.model import State

CHIP_BASKETS = ("fast_break", "coast_to_coast")  # two points from a chip: no shot was taken


@dataclass(frozen=True)
class HooperStart:
    """A hooper as the game began: court or bench side, and cubes/markers carried over."""

    name: str
    side: int
    starter: bool
    red: int = 0
    white: int = 0
    markers: int = 0


@dataclass(frozen=True)
class Shots:
    """One hooper's made shots by kind (a Tap-Out takes its basket back)."""

    name: str
    free_throws: int = 0
    twos: int = 0
    two_points: int = 0
    threes: int = 0


@dataclass(frozen=True)
class SideCounts:
    """Per side: what only the events can tell."""

    coach_tokens_spent: int = 0
    fourth_period_fouls: int = 0
    lv2_spent: int = 0
    chip_blocks: int = 0
    removed_intercepts: int = 0
    removed_steals: int = 0


@dataclass(frozen=True)
class GameplanBook:
    """The gameplans of one game of The Series: the cards taken, the table's answers, the tallies.

    ``game`` is the game's number in the series (1 to 7); ``taken[side]`` the gameplan card the side
    took (1 to 8, ``None`` before); ``answers`` the table's yes/no for milestones the app asks about,
    as ``(side, condition_id, met)``.
    """

    game: int
    starters: tuple[tuple[str, ...], tuple[str, ...]]
    start: tuple[HooperStart, ...]
    timeouts_at_start: tuple[int, int]
    taken: tuple[int | None, int | None] = (None, None)
    answers: tuple[tuple[int, str, bool], ...] = ()
    shots: tuple[Shots, ...] = ()
    counts: tuple[SideCounts, SideCounts] = (SideCounts(), SideCounts())

    def hooper_start(self, name: str) -> HooperStart:
        return next(h for h in self.start if h.name == name)

    def shots_of(self, name: str) -> Shots:
        return next((s for s in self.shots if s.name == name), Shots(name))

    def answer(self, side: int, condition: str) -> bool | None:
        return next((met for s, c, met in self.answers if s == side and c == condition), None)


def start_book(state: State, game: int) -> GameplanBook:
    """The book at setup: who stands on the court side of each player board, what each hooper carries."""
    starters = tuple(tuple(h.name for h in side.on_court()) for side in state.sides)
    start = tuple(
        HooperStart(h.name, index, h.court is not None, h.red, h.white, len(h.injuries))
        for index, side in enumerate(state.sides)
        for h in side.hoopers
    )
    return GameplanBook(
        game=game,
        starters=(starters[0], starters[1]),
        start=start,
        timeouts_at_start=(state.sides[0].timeouts, state.sides[1].timeouts),
        shots=tuple(Shots(h.name) for h in start),
    )


def _tokens_held(state: State, side: int) -> int:
    """Coach action tokens still in the game: free, locked in playbooks, or locked in the playbook
    being resolved right now (it leaves the game only if the basket is missed)."""
    team = state.side(side)
    turn = state.turn
    resolving = (
        turn.attacker == side and turn.playbook_common and turn.playbook is not None
        and turn.playbook not in team.playbooks
    )
    return team.coach_tokens + len(team.playbooks) + int(resolving)


def _fourth_period(state: State) -> bool:
    """The fourth period itself: not an overtime (Fast Play's fourth period is its second overtime)."""
    return state.period == 4 <= state.regulation_periods


def _hooper_counts(before: State, after: State, side: int) -> tuple[int, int]:
    """LV.2 chips spent and red cubes received by a side's hoopers in one event."""
    if before.sides[side] is after.sides[side]:  # most events leave a side untouched: nothing to scan
        return 0, 0
    lv2 = fouls = 0
    for old, new in zip(before.side(side).hoopers, after.side(side).hoopers, strict=True):
        lv2 += max(0, old.chips_lv2 - new.chips_lv2)
        fouls += max(0, new.red - old.red)
    return lv2, fouls


def _side_counts(book: GameplanBook, before: State, event: Mapping[str, Any], after: State,
                 side: int) -> SideCounts:
    counts = book.counts[side]
    lv2, fouls = _hooper_counts(before, after, side)
    spent = max(0, _tokens_held(before, side) - _tokens_held(after, side))
    kind = event.get("type")
    mine = (kind in ("chip", "defend", "counter") and bool(event.get("hooper"))
            and after.owner(event["hooper"]) == side)
    block = mine and kind in ("defend", "counter") and event.get("block") in ("chip", "no_way")
    effect = event.get("effect") if mine else None
    if not (lv2 or fouls or spent or block or effect in ("remove_intercept", "remove_steal")):
        return counts
    return replace(
        counts,
        coach_tokens_spent=counts.coach_tokens_spent + spent,
        fourth_period_fouls=counts.fourth_period_fouls + (fouls if _fourth_period(before) else 0),
        lv2_spent=counts.lv2_spent + lv2,
        chip_blocks=counts.chip_blocks + int(block),
        removed_intercepts=counts.removed_intercepts + int(effect == "remove_intercept"),
        removed_steals=counts.removed_steals + int(effect == "remove_steal"),
    )


def _shot(tally: Shots, points: int, free_throw: bool) -> Shots:
    if free_throw:
        return replace(tally, free_throws=tally.free_throws + points)
    sign = 1 if points > 0 else -1
    if abs(points) == 3:
        return replace(tally, threes=tally.threes + sign)
    if abs(points) == 2:
        return replace(tally, twos=tally.twos + sign, two_points=tally.two_points + points)
    return tally


def _shots(book: GameplanBook, before: State, event: Mapping[str, Any], after: State) -> tuple[Shots, ...]:
    if before.score == after.score or event.get("type") == "chip" and event.get("effect") in CHIP_BASKETS:
        return book.shots  # every point on a hooper's marker is also on the score track
    free_throw = event.get("type") == "roll" and before.pending.kind == "free_throw" and not before.decisions
    gained = {}
    for old_side, new_side in zip(before.sides, after.sides, strict=True):
        for old, new in zip(old_side.hoopers, new_side.hoopers, strict=True):
            if new.points != old.points:
                gained[new.name] = new.points - old.points
    if not gained:
        return book.shots
    return tuple(_shot(s, gained[s.name], free_throw) if s.name in gained else s for s in book.shots)


def tally(before: State, event: Mapping[str, Any], after: State) -> GameplanBook | None:
    """The book after one accepted event (``after`` already holds any card taken or answer given)."""
    book = after.gameplans
    if book is None:
        return None
    counts = (_side_counts(book, before, event, after, 0), _side_counts(book, before, event, after, 1))
    shots = _shots(book, before, event, after)
    if counts == book.counts and shots is book.shots:
        return book
    return replace(book, shots=shots, counts=counts)
