"""What ``companion calc nba-showdown roll|shot`` answers (the calculators in ``frontend.py``): a
scoring roll's row distribution and a shot check's chance, as plain JSON.

>>> report = scoring_roll(player="Demo Dasher", roster="demo-comets", mine=17, theirs=14)
>>> report["matchup"], report["modifier"], report["expected_pts"]
(3, 3, 4.4)
>>> shot_check(shot_line=16)["p_success"], shot_check(shot_line=18)["p_success"]
(0.25, 0.15)
"""

from __future__ import annotations

from typing import Any

from companion.dice import D20
from companion.games.nba_showdown import odds
from companion.games.nba_showdown.cards import Card
from companion.games.nba_showdown.rosters import shipped_roster
from companion.success import RollInfo


def scoring_roll(player: str | Card, roster: str = "demo-comets", stat: str = "speed",
                 mine: int | None = None, theirs: int = 0, markers: int = 0,
                 bonus: int = 0) -> dict[str, Any]:
    """The row distribution of one scoring roll: ``mine`` (default: the card's stat) against ``theirs``,
    ``markers`` hot (+) or cold (-), ``bonus`` from strategy cards."""
    card = player if isinstance(player, Card) else shipped_roster(roster).card(player)
    matchup = odds.matchup_bonus(card.stat(stat) if mine is None else mine, theirs)
    found = odds.stat_odds(card, stat, matchup, odds.MARKER_STEP * markers + bonus)
    return {"player": card.name, **found.to_json(),
            "outcomes": [o.to_json() for o in RollInfo(D20, found.lookup).outcomes()]}


def shot_check(shot_line: int, bonus: int = 0, three_point_bonus: int = 0, markers: int = 0,
               foul_shot: bool = False, points: int = 2) -> dict[str, Any]:
    """The chance a shot check reaches the Shot Line (a foul shot: 1 point at +10)."""
    total = bonus + three_point_bonus + odds.MARKER_STEP * markers
    total += odds.FOUL_SHOT_BONUS if foul_shot else 0
    chance = odds.shot_check_chance(shot_line, total)
    points = 1 if foul_shot else points
    return {"needs": shot_line, "bonus": total, "p_success": float(chance), "fraction": str(chance),
            "expected_points": float(chance * points)}
