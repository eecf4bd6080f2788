"""Valley Hoopers' shooting splits: which rolls are shots, counted on the shooter's card.

The rulebook's words this rests on (docs/games/valley-hoopers.md quotes them whole):

- a field-goal attempt is an attack the attacker rolls the d20 for, "tries to score even if getting
  fouled" (2PS and lay-up for 2 points, 3PS for 3; Susan Peg's rebound lay-up too); a BLOCK negates
  the attempt ("no attempt to score is resolved"), so a blocked attack is none;
- Goal Tending turns the own unsuccessful attack into a successful one, Tap-Out the opponent's
  successful attack into an unsuccessful one: the made count follows, the attempt stays;
- Fast Break and Coast to Coast score two points with no shot: points, not field goals;
- "A FREE THROW is a shot that can't be defended and it worths just one point": every free-throw
  roll is a free-throw attempt.

>>> from companion.games.valley_hoopers.setup_options import example_options, setup
>>> state = setup(example_options())
>>> name = state.side(0).hoopers[0].name
>>> state = attack(state, 0, name, 3, made=False)
>>> state = free_throw(state, 0, name, made=True)
>>> state.side(0).hooper(name).splits
Splits(fgm=0, fga=1, tpm=0, tpa=1, ftm=1, fta=1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.frozen import by_identities, by_identity, replace
from companion.games.valley_hoopers.record_parents import energy_parent, stepped_by_side
from companion.splits import Splits, total

if TYPE_CHECKING:  # the model imports this module's callers, not the reverse
    from companion.games.valley_hoopers.model import Hooper, Side, State


def _change(state: State, side: int, name: str, splits: Splits) -> State:
    hooper = state.side(side).hooper(name)
    return state.with_hooper(side, replace(hooper, splits=splits))


def attack(state: State, side: int, name: str, points: int, made: bool) -> State:
    """An attack rolled (or needing no roll) for ``points``: one more field-goal attempt."""
    return _change(state, side, name, state.side(side).hooper(name).splits.shot(points, made))


def free_throw(state: State, side: int, name: str, made: bool) -> State:
    return _change(state, side, name, state.side(side).hooper(name).splits.free_throw(made))


def made_after_all(state: State, side: int, name: str, points: int, made: bool) -> State:
    """Goal Tending (``made``) or Tap-Out (not ``made``): the last attempt's result turned over."""
    splits = state.side(side).hooper(name).splits
    step = 1 if made else -1
    three = points == 3
    turned = replace(splits, fgm=splits.fgm + step, tpm=splits.tpm + (step if three else 0))
    return _change(state, side, name, turned)


# A hooper's splits change with his or her shots only: a new record (energy, cubes) keeps the same
# object, and the view and the box score both write its cells. Unpacked into the caller's dict.
splits_json = by_identity(Splits.to_json, size=512)


def _hooper_row(side: str, h: Hooper) -> dict[str, object]:
    return {"side": side, "name": h.name, "points": h.points, "red": h.red, "white": h.white,
            "energy": h.energy, "max_energy": h.max_energy, "injuries": list(h.injuries),
            "ejected": h.ejected, "injured_out": h.injured_out, **splits_json(h.splits)}


# A command changes a hooper or two: the others keep their objects, and their rows (id of the hooper
# -> the hooper, the side's name, the row; the entry holds the hooper, so the id is never reused while
# it is remembered); the team's line changes only with a shot (the splits of the others are the same
# objects too).
_ROWS: dict[int, tuple[Hooper, str, dict[str, object]]] = {}


_team_splits = by_identities(lambda *lines: total(lines), size=32)


def _side_rows(side: Side) -> list[dict[str, object]]:
    """A side's hoopers, then its total line (``total``): one pass over the hoopers."""
    name = side.name
    rows: list[dict[str, object]] = []
    lines = []
    points = red = 0
    for h in side.hoopers:
        rows.append(_row(name, h))
        lines.append(h.splits)
        points += h.points
        red += h.red
    rows.append({"side": name, "name": "Team total", "total": True, "points": points, "red": red,
                 **splits_json(_team_splits(*lines))})
    return rows


def _row(side: str, h: Hooper) -> dict[str, object]:
    """A hooper's row, remembered by the record and the side's name."""
    hit = _ROWS.get(id(h))
    if hit is None or hit[0] is not h or hit[1] != side:
        if len(_ROWS) >= 512:
            _ROWS.clear()
        hit = _ROWS[id(h)] = (h, side, _changed_row(side, h))
    return hit[2]


def _changed_row(side: str, h: Hooper) -> dict[str, object]:
    """``_hooper_row``; for a record that only changed its energy (``energy_parent``) the row of
    the one it was made from with the energy changed, when that is remembered under the same side name."""
    parent = energy_parent(h)
    if parent is not None:
        hit = _ROWS.get(id(parent))
        if hit is not None and hit[0] is parent and hit[1] == side:
            row = hit[2].copy()  # its injuries list is shared, read only
            row["energy"] = h.energy
            return row
    return _hooper_row(side, h)


def _step_rows(side: Side, parent: Side, before: list[dict[str, object]],
               at: int) -> list[dict[str, object]] | None:
    """The rows of ``parent`` (``before``) with the record at ``at`` changed, the team line (the last
    row) kept; ``None`` (count afresh) when the record's points, cubes or splits moved it."""
    h, was = side.hoopers[at], parent.hoopers[at]
    if h.points != was.points or h.red != was.red or h.splits is not was.splits:
        return None
    rows = before.copy()
    rows[at] = _row(side.name, h)
    return rows


# Most commands leave one side (or both) untouched: its rows keep their objects; a side that changed one
# record is the rows of the side it came from with that record's changed.
_rows_of = stepped_by_side(_side_rows, _step_rows, size=512)


def box_score(state: State) -> list[dict[str, object]]:
    """The game-end box score: every hooper of a side, then the side's total line (``total``)."""
    return [row for side in state.sides for row in _rows_of(side)]
