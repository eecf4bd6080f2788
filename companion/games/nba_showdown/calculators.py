"""NBA Showdown's calculators (``companion calc nba-showdown roll|shot``, listed in the front end).

The fields are declared here; the odds (``calc``, ``odds``) are imported only when an answer is
computed, so the CLI builds its options without loading the game's rules or front end.

>>> [c.name for c in CALCULATORS]
['roll', 'shot']
>>> roll_calculation({"player": "Demo Dasher", "roster": "demo-comets", "stat": "speed", "mine": 17,
...                   "theirs": 14, "markers": 0, "bonus": 0, "chart": ""})["expected_pts"]
4.4
>>> shot_calculation({"shot_line": 16})["p_success"]
0.25
"""

from __future__ import annotations

from companion.errors import CommandError
from companion.forms import Calculator, FieldChoice, FormField
from companion.games.nba_showdown.cards import ROW_SLOTS, STATS
from companion.games.nba_showdown.rosters import SHIPPED

TYPE_CHECKING = False  # typing is an import `companion calc` can do without
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _int(values: Mapping[str, Any], key: str) -> int:
    value = values.get(key)
    return 0 if value in (None, "") else int(value)


def roll_calculation(values: Mapping[str, Any]) -> dict[str, Any]:
    """``companion calc nba-showdown roll``: the chance of every chart row for one scoring roll.

    The card is a DEMO roster's player or a chart typed in (``"1-4 0 0 0, 5-9 2 1 0, ..."``).
    """
    from companion.games.nba_showdown import calc
    from companion.games.nba_showdown.cards import parse_card

    chart = str(values.get("chart") or "").strip()
    player: Any = str(values.get("player") or "")
    if chart:
        lines = [line.strip() for line in chart.split(",") if line.strip()]
        player = parse_card(
            {
                "name": player or "card",
                "positions": ["PG"],
                "speed": _int(values, "mine") or 1,
                "power": _int(values, "mine") or 1,
                "point_value": 0,
                "shot_line": _row_start(lines),
                "chart": dict(zip(ROW_SLOTS, lines, strict=False)),
            }
        )
    elif not player:
        raise CommandError("give --player (a DEMO roster's player) or --chart (the card's lines)")
    mine = _int(values, "mine") or None
    return calc.scoring_roll(
        player,
        str(values.get("roster") or "demo-comets"),
        str(values.get("stat") or "speed"),
        mine,
        _int(values, "theirs"),
        _int(values, "markers"),
        _int(values, "bonus"),
    )


def _row_start(lines: list[str]) -> int:
    """Any row's first number will do as a Shot Line: a roll's distribution does not read it."""
    return (
        int(lines[1].replace("+", " ").replace("-", " ").replace(":", " ").split()[0])
        if len(lines) > 1
        else 2
    )


def shot_calculation(values: Mapping[str, Any]) -> dict[str, Any]:
    """``companion calc nba-showdown shot``: the chance a shot check (or foul shot) reaches the Shot Line."""
    from companion.games.nba_showdown import calc

    return calc.shot_check(
        _int(values, "shot_line"),
        _int(values, "bonus"),
        _int(values, "three_point_bonus"),
        _int(values, "markers"),
        str(values.get("foul_shot") or "no") == "yes",
        _int(values, "points") or 2,
    )


CALCULATORS = (
    Calculator(
        "roll",
        "the chance of every chart row for a scoring roll (Speed or Power)",
        (
            FormField("player", "a DEMO roster's player (or name the typed-in chart)", "text", default=""),
            FormField(
                "roster",
                "the DEMO roster",
                "choice",
                default="demo-comets",
                choices=tuple(FieldChoice(n, n) for n in SHIPPED),
            ),
            FormField(
                "stat",
                "speed or power",
                "choice",
                default="speed",
                choices=tuple(FieldChoice(s, s) for s in STATS),
            ),
            FormField("mine", "the roller's Speed or Power (0: the card's)", "int", default=0),
            FormField("theirs", "the defender's Speed or Power", "int", default=0),
            FormField("markers", "hot markers (negative: cold)", "int", default=0),
            FormField("bonus", "strategy-card bonus", "int", default=0),
            FormField(
                "chart",
                "the card's chart lines, comma-separated: 1-4 0 0 0, 5-9 2 1 0, ...",
                "text",
                default="",
            ),
        ),
        compute=roll_calculation,
    ),
    Calculator(
        "shot",
        "the chance a shot check or foul shot reaches the Shot Line",
        (
            FormField("shot_line", "the first number of the row under the Shot Line", "int"),
            FormField("bonus", "the strategy card's bonus", "int", default=0),
            FormField("three_point_bonus", "the card's 3-point bonus, on a 3-point shot", "int", default=0),
            FormField("markers", "hot markers (negative: cold)", "int", default=0),
            FormField(
                "foul_shot",
                "a foul shot (+10, 1 point)",
                "choice",
                default="no",
                choices=(FieldChoice("no", "no"), FieldChoice("yes", "yes")),
            ),
            FormField("points", "points if made", "int", default=2),
        ),
        compute=shot_calculation,
    ),
)
