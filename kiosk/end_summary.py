"""The final score and box-score summary a phone reads from the game end screen's QR code: short,
plain words (the game, the final score, the result, the top scorers), from the snapshot and the
game's declared box score alone (formatting only, never a rule, no game named).

Each side's total line adds its splits when the text stays short (``total_lines``). The top
scorers are read from the box score's points column: the first column whose key or label
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
MOST_CHARACTERS = 300  # a QR code of this much text still reads off the small code beside the box score


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
    for total, row in parts.box_rows(info, view):
        if total:
            continue  # a side's total line is nobody's score
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


def total_lines(info: JSON | None, view: Any) -> list[str]:
    """One line per side's total line of the box score (every row when the game marks none: a row
    is then a side): its name (the ``total_name`` column's cell, else the first), then each column
    the game lists in its ``summary`` as "label cell".

    >>> info = {"box_score": {"source": "/rows", "total_key": "total", "summary": ["fg", "ft"],
    ...     "columns": [{"key": "team", "label": "Team"}, {"key": "pts", "label": "PTS"},
    ...                 {"key": "fg", "label": "FG"}, {"key": "ft", "label": "FT"}]}}
    >>> total_lines(info, {"rows": [{"team": "Owls", "pts": 9, "fg": "3-7", "ft": "3-4"},
    ...                             {"team": "Owls", "total": True, "pts": 9, "fg": "3-7", "ft": "3-4"}]})
    ['Owls FG 3-7 FT 3-4']
    """
    declared = (info or {}).get("box_score") or {}
    columns = declared.get("columns") or []
    wanted = [n for n, c in enumerate(columns) if c.get("key") in (declared.get("summary") or [])]
    if not wanted:
        return []
    name = next((n for n, c in enumerate(columns) if c.get("key") == declared.get("total_name")), 0)
    return [" ".join([row[name], *(f"{columns[n].get('label', '')} {row[n]}" for n in wanted if row[n])])
            for total, row in parts.box_rows(info, view) if total or not declared.get("total_key")]


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
    splits = total_lines(info, snapshot.get("view") or {})
    if len("\n".join(lines + splits)) <= MOST_CHARACTERS:  # the sides' splits, when the code stays small
        lines += splits
    return "\n".join(lines)


BOX_FONTS = (16, 15, 14)  # sp, largest first: 14 sp is 2.6 mm, the smallest box-score text
ROW_LINES = 1.45  # a row's height in font sizes (Roboto's line, with room to spare)
CHART_AT_LEAST = 70  # dp: below this the chart is left out rather than drawn unreadable
CHART_AT_MOST = 260  # dp: taller tells nothing more
QR_AT_LEAST = 130  # dp: a small QR code beside the box score only when a phone still reads it


def halves(rows: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    """Two halves of the box score's rows (header left out), cut where the first column changes
    (one side each) when that is near the middle, else in the middle.

    >>> rows = [["A", "x"], ["A", "y"], ["A", "z"], ["B", "u"], ["B", "v"]]
    >>> halves(rows)
    ([['A', 'x'], ['A', 'y'], ['A', 'z']], [['B', 'u'], ['B', 'v']])
    >>> halves([[str(n)] for n in range(4)])
    ([['0'], ['1']], [['2'], ['3']])
    """
    middle = (len(rows) + 1) // 2
    cuts = [i for i in range(1, len(rows)) if rows[i][:1] != rows[i - 1][:1]]
    cut = min(cuts, key=lambda i: abs(i - middle)) if cuts else middle
    cut = cut if abs(cut - middle) <= 2 else middle
    return rows[:cut], rows[cut:]


def pick_layout(one_rows: int, two_rows: int, row_height: float, height: float, one_width: float,
                width: float, gap: float, chart_room: float) -> int | None:
    """How many tables side by side (1 or 2) show the box score in ``height`` x ``width``: one table
    of ``one_rows`` rows (header included), or two halves whose taller has ``two_rows`` (its header
    too), each table ``one_width`` wide, every row ``row_height`` high; ``None`` when neither fits.
    One table when it fits with room for the chart (``chart_room``) too, else two halves when they
    fit, else one table when it fits at all.

    >>> pick_layout(15, 8, 22, 340, 400, 822, 12, 94)  # one table is 330 high: no room for the chart
    2
    >>> pick_layout(6, 4, 22, 340, 400, 822, 12, 94)
    1
    >>> pick_layout(30, 16, 22, 340, 300, 822, 12, 94) is None
    True
    """
    one_height, two_height = one_rows * row_height, two_rows * row_height
    if one_height + chart_room <= height and one_width <= width:
        return 1
    if one_rows > 3 and two_height <= height and 2 * one_width + gap <= width:
        return 2
    if one_height <= height and one_width <= width:
        return 1
    return None


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
