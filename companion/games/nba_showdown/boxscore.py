"""NBA Showdown's box score as the view shows it: each quarter's lines, each player's totals, the
game-end box score with its shot-check splits and team total lines, and the players' Table panel.

Every command renders the view, and most leave the box score alone: what is read from it is counted
once per box score (by identity: successive states share it until a roll changes it), and each line's
JSON once per line.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.frozen import by_identities, by_identity
from companion.games.nba_showdown.cards import POSITIONS, Card
from companion.games.nba_showdown.model import BoxLine, State
from companion.splits import Splits


def _box_line_json(b: BoxLine) -> dict[str, Any]:
    return {"side": b.side, "player": b.player, "quarter": b.quarter,
            "pts": b.pts, "ast": b.ast, "reb": b.reb, **b.splits.to_json()}


# The box score grows by a line or so per roll; the lines already there keep their objects.
_box_json = by_identity(_box_line_json, size=2048)
# Read-only, like every rendered snapshot.
box_lines_json = by_identity(lambda box: [_box_json(b) for b in box], size=16)


def box_totals(state: State) -> list[dict[str, Any]]:
    """Each player's PTS / AST / REB over the game so far, team by team in the order they first scored."""
    return _box_totals(state.box, state.teams[0].name, state.teams[1].name)


def _count_by_player(box: tuple[BoxLine, ...]) -> dict[tuple[int, str], tuple[int, ...]]:
    """Each (side, player)'s PTS, AST, REB and six split counts summed over his lines, team by team
    in the order they first scored: what the box totals, the box score and the players panel read."""
    groups: dict[tuple[int, str], list[tuple[int, ...]]] = {}
    for line in sorted(box, key=lambda b: b.side):
        groups.setdefault((line.side, line.player), []).append(_line_numbers(line))
    return {key: lines[0] if len(lines) == 1 else tuple(map(sum, zip(*lines, strict=True)))
            for key, lines in groups.items()}


def _count_box_totals(box: tuple[BoxLine, ...], *names: str) -> list[dict[str, Any]]:
    return [{"side": side, "team": names[side], "player": player, "pts": found[0], "ast": found[1],
             "reb": found[2]} for (side, player), found in _by_player(box).items()]


def box_score(state: State) -> list[dict[str, Any]]:
    """The game-end box score: each team's players (as ``box_totals``) with their shot-check splits,
    then the team's total line (``total``: its players' sums, rebound-track points not included).

    A shot check is a field goal (a 3-pointer when its card says so), a foul shot a free throw.
    """
    return _box_score(state.box, state.teams[0].name, state.teams[1].name)


def _count_box_score(box: tuple[BoxLine, ...], *names: str) -> list[dict[str, Any]]:
    by_player = _by_player(box)
    rows: list[dict[str, Any]] = []
    for side in (0, 1):
        name = names[side]
        mine = [(player, found) for (owner, player), found in by_player.items() if owner == side]
        team = [sum(column) for column in zip(*(found for _, found in mine), strict=True)] or [0] * 9
        for player, found in mine:
            rows.append({"side": side, "team": name, "player": player, "pts": found[0], "ast": found[1],
                         "reb": found[2], **_splits_json(found[3:])})
        rows.append({"side": side, "team": name, "player": "Team total", "total": True, "pts": team[0],
                     "ast": team[1], "reb": team[2], **_splits_json(tuple(team[3:]))})
    return rows


@lru_cache(maxsize=256)
def _splits_json(counts: tuple[int, ...]) -> dict[str, Any]:
    """The split cells of six counts (most players' are all 0): merged into each row, never changed."""
    return Splits(*counts).to_json()


def _line_numbers_of(line: BoxLine) -> tuple[int, ...]:
    """PTS, AST, REB and the six split counts of one line."""
    s = line.splits
    return (line.pts, line.ast, line.reb, s.fgm, s.fga, s.tpm, s.tpa, s.ftm, s.fta)


# A roll changes one line: the others keep their objects and their numbers.
_line_numbers = by_identity(_line_numbers_of, size=2048)
# The box score changes with a scoring roll or a shot check, the team names never: most commands
# leave both, and the rows are counted again only when the box score changes (the view is read-only).
_by_player = by_identity(_count_by_player, size=8)
_box_totals = by_identities(_count_box_totals, size=8)
_box_score = by_identities(_count_box_score, size=8)


def players(state: State, side: int) -> list[dict[str, Any]]:
    """The team's cards for the Table panel: on the court in playmat order, then the bench."""
    team = state.team(side)
    return _team_players(team.cards, team.lineup, team.markers, team.used, state.box, side)


def _count_team_players(team: Any, box: tuple[BoxLine, ...], side: int) -> list[dict[str, Any]]:
    """``players`` counted afresh."""
    return _count_players(team.cards, team.lineup, team.markers, team.used, box, side)


def _count_players(cards: tuple[Card, ...], lineup: tuple[str | None, ...],
                   markers: tuple[tuple[str, int], ...], used: tuple[str, ...], box: tuple[BoxLine, ...],
                   side: int) -> list[dict[str, Any]]:
    # One pass over the lineup, the box score's sums shared with the totals (not a pass per card).
    placed: dict[str, str] = {}
    for position, name in zip(POSITIONS, lineup, strict=True):
        if name is not None:
            placed.setdefault(name.lower(), position)
    by_player = _by_player(box)
    marker_of = dict(markers)
    found = []
    at = [(card, placed.get(card.name.lower())) for card in cards]
    for card, position in sorted(at, key=lambda c: (c[1] is None, _POSITION_ORDER[c[1] or "PG"])):
        marker = marker_of.get(card.name, 0)
        pts, ast, reb = by_player.get((side, card.name), _NOTHING)[:3]
        found.append({"name": card.name, "position": position or "bench",
                      "speed": card.speed, "power": card.power, "rolled": card.name in used,
                      "hot": max(0, marker), "cold": max(0, -marker), "pts": pts, "ast": ast, "reb": reb})
    return found


_NOTHING = (0, 0, 0)
_POSITION_ORDER = {position: index for index, position in enumerate(POSITIONS)}
# Read from a team: its cards, lineup, markers and who rolled, not its hand, cards played or
# assists (a strategy card or an assist leaves the panel as it was).
_team_players = by_identities(_count_players, size=8)
