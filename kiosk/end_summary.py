"""The final score and box-score summary a phone reads from the game end screen's QR code: short,
plain words (the game, the final score, the result, the top scorers), from the snapshot and the
game's declared box score alone (formatting only, never a rule, no game named).

The top scorers are read from the box score's points column: the first column whose key or label
says points ("pts", "points"), named by the column before it (and the one before that, in
brackets, when there is one: a side or team).

>>> info = {"box_score": {"source": "/players", "columns": [{"key": "team", "label": "Team"},
...     {"key": "name", "label": "Player"}, {"key": "pts", "label": "PTS"}]}}
>>> view = {"players": [{"team": "Comets", "name": "Relay", "pts": 23},
...     {"team": "Owls", "name": "Hoot", "pts": 25}, {"team": "Comets", "name": "Sharpe", "pts": 9}]}
>>> top_scorers(info, view)
['Hoot (Owls) 25', 'Relay (Comets) 23', 'Sharpe (Comets) 9']
>>> board = {"sides": [{"name": "Comets", "score": 90}, {"name": "Owls", "score": 88}], "period": "Q4"}
>>> print(summary_text({"scoreboard": board, "view": view, "outcome": {"winner": 0, "reason": "after 4"}},
...                    info, "NBA Showdown"))
NBA Showdown: final
Comets 90 - 88 Owls
Comets wins: after 4
Top: Hoot (Owls) 25, Relay (Comets) 23, Sharpe (Comets) 9
"""

from __future__ import annotations

from typing import Any

from kiosk import parts, present

JSON = dict[str, Any]
POINT_WORDS = ("pts", "points")
MOST_SCORERS = 3


def _points_column(columns: list[JSON]) -> int | None:
    for n, column in enumerate(columns):
        words = {str(column.get("key", "")).lower(), str(column.get("label", "")).lower()}
        if words & set(POINT_WORDS):
            return n
    return None


def top_scorers(info: JSON | None, view: Any, most: int = MOST_SCORERS) -> list[str]:
    """"Name (side) points" for the ``most`` highest scorers of the box score (none without points)."""
    columns = ((info or {}).get("box_score") or {}).get("columns") or []
    at = _points_column(columns)
    if not at:  # no points column, or nothing before it to name the scorer by
        return []
    scored = []
    for row in parts.box_score(info, view)[1:]:
        try:
            points = int(row[at])
        except ValueError:
            continue
        name = row[at - 1]
        if at >= 2 and row[at - 2] and row[at - 2] != name:
            name = f"{name} ({row[at - 2]})"
        scored.append((points, name))
    scored.sort(key=lambda found: -found[0])  # stable: equal points keep the box score's order
    return [f"{name} {points}" for points, name in scored[:most]]


def summary_text(snapshot: JSON | None, info: JSON | None, title: str) -> str:
    """What the QR code says: a few lines a person can read without the companion."""
    snapshot = snapshot or {}
    lines = [f"{title}: final" if snapshot.get("outcome") else f"{title}: in progress",
             present.score_line(snapshot)]
    periods = present.period_scores(snapshot.get("view") or {})
    if periods:
        lines.append(periods)
    result = present.result_line(snapshot)
    if result:
        lines.append(result)
    top = top_scorers(info, snapshot.get("view") or {})
    if top:
        lines.append("Top: " + ", ".join(top))
    return "\n".join(lines)


MAX_ROW = 30.0  # px: a row never taller than this (a short box score stays compact)
MAX_FONT = 17
MIN_FONT = 10
LINE_SPACE = 1.38  # a font's line needs this many times its size (Roboto, with room to spare)
CHAR_WIDTH = 0.6  # an average character's width, in font sizes (Roboto, digits and letters)
CHART_AT_LEAST = 70  # px: below this the chart is left out rather than drawn unreadable
CHART_AT_MOST = 260  # px: taller tells nothing more
READABLE_ROW = 18.0  # px: a row of 13 px text (2.5 mm on the 7-inch screen); the chart never squeezes below


def fit_rows(rows: int, height: float, spacing: float = 0.0) -> tuple[float, int]:
    """The height of each of ``rows`` rows sharing ``height`` px and the font (px) that fits in one:
    the game end screen's box score shares the height there is instead of scrolling.

    >>> fit_rows(16, 314)
    (19.6, 14)
    >>> fit_rows(4, 314)
    (30.0, 17)
    """
    row = min(MAX_ROW, (height - spacing * max(0, rows - 1)) / max(1, rows))
    return round(row, 1), max(MIN_FONT, min(MAX_FONT, int(row / LINE_SPACE)))


def usb_words(reply: JSON) -> tuple[str, bool]:
    """The notice after ``usb_export``: the files written and where, or the table's reason (an error).

    >>> usb_words({"ok": True, "stick": "/media/pi/STICK", "files": ["/media/pi/STICK/g-1.csv",
    ...                                                              "/media/pi/STICK/g-1.json"]})
    ('Saved to the USB stick STICK: g-1.csv and g-1.json. You can pull it out now.', False)
    >>> usb_words({"ok": False, "error": "No USB stick found: plug one in (looked in /media)"})
    ('No USB stick found: plug one in (looked in /media)', True)
    """
    if not reply.get("ok"):
        return str(reply.get("error") or "The USB export failed"), True
    names = [str(f).rsplit("/", 1)[-1] for f in reply.get("files") or []]
    stick = str(reply.get("stick", "")).rstrip("/").rsplit("/", 1)[-1]
    return f"Saved to the USB stick {stick}: {' and '.join(names)}. You can pull it out now.", False
