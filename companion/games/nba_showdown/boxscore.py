"""NBA Showdown's box score as the view shows it: each quarter's lines, each player's totals, the
game-end box score with its shot-check splits and team total lines, the players' Table panel, and
the score flow.

Every command renders the view. Most leave the box score alone, and a scoring roll or a shot check
changes one line or adds one: what is read from the box score is counted once per box score (by
identity: successive states share it), and a box score one step on from the last one counted is
counted from it, the changed line only (``_step``; ``following`` for the lists of lines and of the
flow). A side whose sums a step left alone keeps them (the same object), so its players' panel too.

>>> box = (BoxLine(0, "Ann", 1, pts=2), BoxLine(1, "Bo", 1, pts=3), BoxLine(0, "Ann", 2, pts=1))
>>> count_sides(box)[0]["Ann"][:3], list(count_sides(box)[1])
((3, 0, 0), ['Bo'])
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

from companion.frozen import Lineage, by_identities, by_identity
from companion.games.nba_showdown.cards import POSITIONS, Card
from companion.games.nba_showdown.model import BoxLine
from companion.splits import Splits

T = TypeVar("T")
Sums = dict[str, tuple[int, ...]]  # player -> PTS, AST, REB and six split counts, in scoring order


def _box_line_json(b: BoxLine) -> dict[str, Any]:
    s = b.splits  # a new line's splits are the few values already written (``_splits_json``)
    return {"side": b.side, "player": b.player, "quarter": b.quarter, "pts": b.pts, "ast": b.ast,
            "reb": b.reb, **_splits_json(s.fgm, s.fga, s.tpm, s.tpa, s.ftm, s.fta)}


def _numbers(line: BoxLine) -> tuple[int, ...]:
    """PTS, AST, REB and the six split counts of one line."""
    s = line.splits
    return (line.pts, line.ast, line.reb, s.fgm, s.fga, s.tpm, s.tpa, s.ftm, s.fta)


def _step(previous: tuple[Any, ...], items: tuple[Any, ...]) -> tuple[int, Any] | None:
    """How ``items`` follows ``previous`` when one item changed or one was added: its index and the
    item it replaced (None: added); None when it is any other tuple."""
    if len(items) == len(previous):
        differs = list(map(operator.is_not, previous, items))
        if differs.count(True) != 1:
            return None
        index = differs.index(True)
        return index, previous[index]
    if len(items) == len(previous) + 1 and not any(map(operator.is_not, previous, items)):
        return len(previous), None
    return None


def count_sides(box: tuple[BoxLine, ...]) -> tuple[Sums, Sums]:
    """Each side's players with their lines summed, in the order they first scored: what the box
    totals, the box score and the players' panel read."""
    groups: tuple[dict[str, list[tuple[int, ...]]], dict[str, list[tuple[int, ...]]]] = ({}, {})
    for line in box:
        groups[line.side].setdefault(line.player, []).append(_numbers(line))
    first, second = ({player: lines[0] if len(lines) == 1 else tuple(map(sum, zip(*lines, strict=True)))
                      for player, lines in group.items()} for group in groups)
    return first, second


# The box score the last count was for, and that count: the next one is usually one step on.
_latest: tuple[tuple[BoxLine, ...], tuple[Sums, Sums]] = ((), ({}, {}))


def _count_from_latest(box: tuple[BoxLine, ...]) -> tuple[Sums, Sums]:
    """``count_sides(box)``, from the last box score counted when ``box`` is one step on from it."""
    global _latest
    previous, sides = _latest  # read once: another thread may replace it, never change it
    found = _stepped(sides, previous, box)
    if found is None:
        found = count_sides(box)
    _latest = (box, found)
    return found


def _stepped(sides: tuple[Sums, Sums], previous: tuple[BoxLine, ...],
             box: tuple[BoxLine, ...]) -> tuple[Sums, Sums] | None:
    step = _step(previous, box)
    if step is None:
        return None
    index, old = step
    new = box[index]
    mine = sides[new.side]
    had = mine.get(new.player)
    numbers = _numbers(new)
    if old is not None:
        if (old.side, old.player) != (new.side, new.player) or had is None:
            return None
        numbers = tuple(h - o + n for h, o, n in zip(had, _numbers(old), numbers, strict=True))
    elif had is not None:
        numbers = tuple(map(operator.add, had, numbers))
    stepped = {**mine, new.player: numbers}  # a player new to the box score goes last: he scored last
    _remember_sums_parent(stepped, mine, new.player)
    return (stepped, sides[1]) if new.side == 0 else (sides[0], stepped)


# A side's sums made by ``_stepped``, with the sums they were made from and the one player whose
# numbers differ (or who was added last): the rows and the panel counted from the old sums are then
# stepped for that player alone, without comparing every player's numbers. The dicts are never
# changed.
_SUMS_PARENTS: Lineage[Sums, str] = Lineage(size=64)
_remember_sums_parent = _SUMS_PARENTS.remember
sums_parent = _SUMS_PARENTS.parent  # (the sums stepped from, the player changed or added) or None


# Undo and redo come back to box scores counted before: the last few are kept as they are.
_sides = by_identity(_count_from_latest, size=8)

def following(item_json: Callable[[T], Any], size: int = 16) -> Callable[[tuple[T, ...]], list[Any]]:
    """``[item_json(item) for item in items]``, remembered for the last ``size`` tuples by identity,
    and built from the last list when ``items`` is the last tuple with one item changed or added
    (the box score's lines, the score flow: a roll changes one or adds one). Read-only.

    >>> calls = []
    >>> listed = following(lambda item: calls.append(item) or [item])
    >>> listed((1, 2)), listed((1, 2, 3)), calls
    ([[1], [2]], [[1], [2], [3]], [1, 2, 3])
    """
    latest: list[tuple[tuple[T, ...], list[Any]]] = [((), [])]

    def count(items: tuple[T, ...]) -> list[Any]:
        previous, shown = latest[0]  # read once: another thread may replace it, never change it
        step = _step(previous, items)
        if step is None:
            found = [item_json(item) for item in items]
        else:
            found = list(shown)
            index = step[0]
            if index == len(found):
                found.append(item_json(items[index]))
            else:
                found[index] = item_json(items[index])
        latest[0] = (items, found)
        return found

    return by_identity(count, size=size)


# The lines of the box score, each line's JSON once per line.
box_lines_json = following(by_identity(_box_line_json, size=2048))
# The score after each roll.
flow_json = following(list)


@lru_cache(maxsize=512)
def _total_row(side: int, team: str, player: str, pts: int, ast: int, reb: int) -> dict[str, Any]:
    # A roll changes one player's line: the others' rows are the ones already built (read-only).
    return {"side": side, "team": team, "player": player, "pts": pts, "ast": ast, "reb": reb}


def _count_side_rows(side: int, team: str, sums: Sums) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One side's rows of the box totals (PTS, AST, REB per player) and of the game-end box score:
    each player with his shot-check splits, then the team's total line (``total``: its players' sums,
    rebound-track points not included). A shot check is a field goal (a 3-pointer when its card says
    so), a foul shot a free throw."""
    last = _last_rows[side]  # read once: another thread may replace it, never change it
    found = None
    if last is not None and last[0] == team:
        made = sums_parent(sums)
        found = (_step_rows_for(side, last, sums, made[1]) if made is not None and made[0] is last[1]
                 else _step_rows(side, last, sums))
    if found is None:
        totals = [_total_row(side, team, player, *numbers[:3]) for player, numbers in sums.items()]
        rows = [_score_row(side, team, player, numbers, False) for player, numbers in sums.items()]
        total = tuple(map(sum, zip(*sums.values(), strict=True))) or _ZEROS
    else:
        totals, rows, total = found
    _last_rows[side] = (team, sums, totals, rows, total)
    return totals, [*rows, _score_row(side, team, "Team total", total, True)]


_ZEROS = (0,) * 9

# Each side's last rows (its players', the team total line's numbers apart), with the team and the
# sums they were counted from: a step of the box score (``_stepped``) changes one player's numbers
# (a new tuple) or adds a player last, so the next rows are the last ones with his rebuilt.
_last_rows: list[tuple[str, Sums, list[dict[str, Any]], list[dict[str, Any]], tuple[int, ...]] | None] = [
    None, None]


def _step_rows(side: int, last: tuple[Any, ...], sums: Sums
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], tuple[int, ...]] | None:
    """``_count_side_rows``' player rows and the team's numbers from the last ones, when ``sums``
    keeps the last players in their order, one player's numbers changed or one player added (the
    same tuple for each player left alone); else None."""
    _, old, totals, rows, total = last
    if len(sums) < len(old) or list(sums)[:len(old)] != list(old):
        return None
    get = old.get
    changed = [player for player, numbers in sums.items() if get(player) is not numbers]
    if not changed:
        return totals, rows, total
    if len(changed) > 1:
        return None  # not a step (a state counted afresh, an undo far back): every row is counted
    return _step_rows_for(side, last, sums, changed[0])


def _step_rows_for(side: int, last: tuple[Any, ...], sums: Sums, player: str
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], tuple[int, ...]]:
    """``_step_rows`` when ``sums`` is the last rows' sums with ``player``'s numbers changed or added
    last (``sums_parent``): his rows built again, the team's numbers moved by his change."""
    team, old, totals, rows, total = last
    numbers = sums[player]
    had = old.get(player)
    total = tuple(map(operator.add, total if had is None else map(operator.sub, total, had), numbers))
    totals, rows = list(totals), list(rows)
    row = _total_row(side, team, player, *numbers[:3]), _score_row(side, team, player, numbers, False)
    if had is None:
        totals.append(row[0])
        rows.append(row[1])
    else:
        index = list(old).index(player)  # a changed player keeps his place in the dict
        totals[index], rows[index] = row
    return totals, rows, total


# A roll changes one side's sums (``_stepped`` keeps the other's dict): that side's rows are put
# together again, the other's are the lists already built (the team names never change).
_side_rows = by_identities(_count_side_rows, size=8)


@lru_cache(maxsize=512)
def _score_row(side: int, team: str, player: str, found: tuple[int, ...], total: bool) -> dict[str, Any]:
    """One player's row of the box score, or the team's total line; the rows a roll left alone are
    the ones already built (read-only)."""
    head = {"side": side, "team": team, "player": player, **({"total": True} if total else {})}
    return {**head, "pts": found[0], "ast": found[1], "reb": found[2], **_splits_json(*found[3:])}


@lru_cache(maxsize=256)
def _splits_json(*counts: int) -> dict[str, Any]:
    """``Splits(*counts).to_json()``: a roll changes PTS, AST or REB, a shot check alone the splits
    (read-only: copied into each row)."""
    return Splits(*counts).to_json()


def box_sums(box: tuple[BoxLine, ...]) -> tuple[Sums, Sums]:
    """Each side's players with their lines summed (``count_sides``), remembered and stepped: read-only."""
    return _sides(box)


def stepped_players(team: Any, sums: Sums) -> list[dict[str, Any]]:
    """``team_players(team, sums)`` for a team or sums just changed (a finished roll's): stepped from
    the side's last panel without a look-up in ``_team_players``, which would not hold it."""
    return _count_players(team.cards, team.lineup, team.markers, team.used, sums)


def team_players(team: Any, sums: Sums) -> list[dict[str, Any]]:
    """One side's cards for the Table panel (on the court in playmat order, then the bench), for its
    team record and its sums in the box score."""
    return _team_players(team.cards, team.lineup, team.markers, team.used, sums)


def box_views(box: tuple[BoxLine, ...], first: str, second: str) -> tuple[list[Any], list[Any], list[Any]]:
    """The view's box score parts: its lines, the totals and the box score for ``box`` and the
    teams called ``first`` and ``second``, counted from the box alone (the view steps them: ``box_parts``)."""
    return box_parts(box, _sides(box), first, second)


def box_parts(box: tuple[BoxLine, ...], sums: tuple[Sums, Sums], first: str, second: str
              ) -> tuple[list[Any], list[Any], list[Any]]:
    """``box_views`` for a box score whose sums per side (``box_sums(box)``) the caller holds."""
    totals, rows = _side_rows(0, first, sums[0])
    other_totals, other_rows = _side_rows(1, second, sums[1])
    return box_lines_json(box), totals + other_totals, rows + other_rows


def _count_team_players(team: Any, box: tuple[BoxLine, ...], side: int) -> list[dict[str, Any]]:
    """Side ``side``'s panel (``team_players``) counted afresh: no remembered order, sums or last panel."""
    return _panel_rows(_count_panel_order(team.cards, team.lineup), team.markers, team.used,
                       count_sides(box)[side])


def _panel_rows(order: tuple[tuple[str, dict[str, Any]], ...], markers: tuple[tuple[str, int], ...],
                used: tuple[str, ...], sums: Sums) -> list[dict[str, Any]]:
    marker_of = dict(markers)
    return [_player_row(head, name in used, marker_of.get(name, 0), sums.get(name, _NOTHING))
            for name, head in order]


def _count_players(cards: tuple[Card, ...], lineup: tuple[str | None, ...],
                   markers: tuple[tuple[str, int], ...], used: tuple[str, ...],
                   sums: Sums) -> list[dict[str, Any]]:
    order = _panel_order(cards, lineup)
    last = _last_panel.get(id(order))  # read once: another thread may replace it, never change it
    rows = None if last is None or last[0] is not order else _step_panel(last, markers, used, sums)
    if rows is None:
        rows = _panel_rows(order, markers, used, sums)
    if len(_last_panel) >= 16:
        _last_panel.clear()  # a bound, not a policy: a game has two panels
    _last_panel[id(order)] = (order, markers, used, sums, rows)
    return rows


def _player_row(head: dict[str, Any], rolled: bool, marker: int, numbers: tuple[int, ...]) -> dict[str, Any]:
    # What the card and its place give (the same dict from roll to roll), then what a roll moves.
    return {**head, "rolled": rolled, "hot": marker if marker > 0 else 0,
            "cold": -marker if marker < 0 else 0, "pts": numbers[0], "ast": numbers[1], "reb": numbers[2]}


# Each panel order's last rows, with what they were counted from: a roll moves one player of a
# panel (he rolled, his markers, his line), so the next panel of the side is the last one with his
# row built again.
_last_panel: dict[int, tuple[Any, ...]] = {}


def _step_panel(last: tuple[Any, ...], markers: tuple[tuple[str, int], ...], used: tuple[str, ...],
                sums: Sums) -> list[dict[str, Any]] | None:
    """The panel from the last one counted for its order, the rows of the players whose markers,
    rolled flag or sums differ built again; None when a player stopped counting as rolled."""
    order, old_markers, old_used, old_sums, rows = last
    if used[:len(old_used)] != old_used:
        return None
    changed = set(used[len(old_used):])
    if markers is not old_markers:
        changed.update(name for name, _ in set(markers) ^ set(old_markers))
    made = None if sums is old_sums else sums_parent(sums)
    if made is not None and made[0] is old_sums:
        changed.add(made[1])  # the one player ``_stepped`` changed or added
    elif sums is not old_sums:
        # A step of the box score (``_stepped``) keeps every other player's numbers, the same tuple:
        # the players whose tuple is another one, or who are gone, are the ones counted again.
        get = old_sums.get
        changed.update([name for name, numbers in sums.items() if get(name) is not numbers])
        if not sums.keys() >= old_sums.keys():
            changed.update(old_sums.keys() - sums.keys())
    if not changed:
        return rows  # type: ignore[no-any-return]
    rows = list(rows)
    marker_of = dict(markers)
    for index, (name, head) in enumerate(order):
        if name in changed:
            rows[index] = _player_row(head, name in used, marker_of.get(name, 0), sums.get(name, _NOTHING))
    return rows  # type: ignore[no-any-return]


def _count_panel_order(cards: tuple[Card, ...],
                       lineup: tuple[str | None, ...]) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The panel's cards (on the court in playmat order, then the bench): each one's name, and the
    head of its row (name, position, Speed and Power)."""
    placed: dict[str, str] = {}
    for position, name in zip(POSITIONS, lineup, strict=True):
        if name is not None:
            placed.setdefault(name.lower(), position)
    at = sorted(((card, placed.get(card.name.lower())) for card in cards),
                key=lambda c: (c[1] is None, _POSITION_ORDER[c[1] or "PG"]))
    return tuple((card.name, {"name": card.name, "position": position or "bench", "speed": card.speed,
                              "power": card.power}) for card, position in at)


# Who stands where changes only between quarters: the order is read again by every roll.
_panel_order = by_identities(_count_panel_order, size=8)


_NOTHING = (0, 0, 0)
_POSITION_ORDER = {position: index for index, position in enumerate(POSITIONS)}
# Read from a team: its cards, lineup, markers and who rolled, not its hand, cards played or
# assists; from the box score, its own side's sums only (a roll by the other side leaves them).
_team_players = by_identities(_count_players, size=8)
