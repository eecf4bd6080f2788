"""Reading a game's front-end parts (the ``game_info`` op) against a snapshot: paths into the view,
templates, panel rows, the box score and the grid of choices. Formatting only, never a rule, and no
game named: every word here comes from the game's declaration or its view.

>>> view = {"sides": [{"name": "Ann", "players": [{"name": "Bo", "energy": 2, "max_energy": 5,
...                                                "red": 1, "white": 0, "tags": ["quick_feet"]}]}]}
>>> lookup(view, "/sides/0/players/0/name")
'Bo'
>>> fill("{energy}/{max_energy}", view["sides"][0]["players"][0])
'2/5'
>>> cell({"key": "cubes", "parts": [{"template": "R{red}", "when": "red"},
...                                 {"template": "W{white}", "when": "white"}], "join": " "},
...      view["sides"][0]["players"][0])
'R1'
>>> [r["row"]["name"] for r in rows_at(view, "/sides/*/players")], fill("{tags}", {"tags": ["a_b", "c"]})
(['Bo'], 'a b, c')
"""

from __future__ import annotations

import re
from typing import Any

JSON = dict[str, Any]
FIELD = re.compile(r"\{([^{}|]*)(?:\|(count))?\}")


def lookup(data: Any, path: str, default: Any = None) -> Any:
    """The value at ``/a/0/b`` (or ``a.b``) in ``data``; ``default`` when any step is missing."""
    if path in (".", ""):
        return data["."] if isinstance(data, dict) and "." in data else data
    steps = [s for s in re.split(r"[/.]", path) if s]
    for step in steps:
        if isinstance(data, dict):
            if step not in data:
                return default
            data = data[step]
        elif isinstance(data, list) and step.lstrip("-").isdigit() and -len(data) <= int(step) < len(data):
            data = data[int(step)]
        else:
            return default
    return data


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("_", " ")


def fill(template: str, row: Any, missing: str = "?") -> str:
    """``template`` with every ``{path}`` replaced by the row's value (``{path|count}``: its length)."""

    def one(match: re.Match[str]) -> str:
        value = lookup(row, match.group(1).strip())
        if match.group(2) == "count":
            return str(len(value)) if isinstance(value, list | dict | str) else "0"
        return missing if value is None else _shown(value)

    return FIELD.sub(one, template)


def _holds(row: Any, when: str, hide: list[Any]) -> bool:
    """Whether any of the ``when`` paths (comma separated) holds something shown (not in ``hide``)."""
    if not when:
        return True
    for path in when.split(","):
        value = lookup(row, path.strip())
        if value not in (None, False, 0, "", [], {}) and value not in hide:
            return True
    return False


def parts_text(parts: list[JSON], row: Any, join: str, missing: str = "?") -> str:
    shown = [fill(str(p.get("template", "")), row, missing) for p in parts
             if _holds(row, str(p.get("when", "")), list(p.get("hide", [])))]
    return join.join(s for s in shown if s.strip())


def cell(column: JSON, row: Any) -> str:
    """One cell: a template, parts, or the value at ``key`` (``default`` when it is missing)."""
    missing = str(column.get("missing", "?"))
    if column.get("parts"):
        return parts_text(column["parts"], row, str(column.get("join", ", ")), missing)
    template = column.get("template")
    if template:
        names = [m.group(1).strip() for m in FIELD.finditer(template)]
        if names and all(lookup(row, n) is None for n in names):
            return ""
        return fill(template, row, missing)
    value = lookup(row, str(column.get("key", "")))
    if value is None:
        value = column.get("default")
    if value is None:
        return ""
    text = _shown(value)
    if column.get("upper") and value != column.get("default"):
        text = text.upper()
    return text


def rows_at(view: Any, source: str, side: int | None = None) -> list[JSON]:
    """The items at ``source`` as ``{"row", "side"}``: ``{side}`` is the side shown, ``*`` walks a list
    (and the item it walked becomes the row's ``@side``)."""
    path = source.replace("{side}", str(side if side is not None else 0))
    steps = [s for s in path.split("/") if s]
    found: list[tuple[Any, Any]] = [(view, None)]
    for step in steps:
        nxt: list[tuple[Any, Any]] = []
        for data, owner in found:
            if step == "*":
                if isinstance(data, list):
                    nxt += [(item, item) for item in data]
                continue
            value = lookup(data, step)
            if value is not None:
                nxt.append((value, owner))
        found = nxt
    rows: list[JSON] = []
    for data, owner in found:
        items = data if isinstance(data, list) else [data]
        for item in items:
            row = dict(item) if isinstance(item, dict) else {".": item}
            if owner is not None:
                row["@side"] = owner
            rows.append({"row": row, "side": owner})
    return rows


def panel_line(panel: JSON, view: Any, side: int | None = None) -> str:
    """A ``line`` panel: its parts over the object at its source, or over each item of a list."""
    source = str(panel.get("source", "")).replace("{side}", str(side if side is not None else 0))
    target = lookup(view, source)
    parts, join = panel.get("parts", []), str(panel.get("join", " · "))
    if isinstance(target, list):
        items = [item if isinstance(item, dict) else {".": item} for item in target]
        return join.join(t for t in (parts_text(parts, item, " ", "").strip() for item in items) if t)
    return parts_text(parts, target, join, "") if isinstance(target, dict) else ""


def panel_rows(panel: JSON, view: Any, side: int | None = None) -> list[tuple[JSON, list[str], str]]:
    """A table panel's rows as ``(item, cells, tone)``; tone is ``alert``, ``muted`` or ``""``;
    muted rows come last, as the declaration asks."""
    columns = panel.get("columns", [])
    muted_key, muted_values = panel.get("muted"), panel.get("muted_values", [])
    shown, later = [], []
    for found in rows_at(view, str(panel.get("source", "")), side):
        row = found["row"]
        tone = ""
        muted = bool(muted_key) and lookup(row, str(muted_key)) in muted_values
        if any(lookup(row, key) for key in panel.get("alert", [])):
            tone = "alert"
        elif muted:
            tone = "muted"
        (later if muted else shown).append((row, [cell(c, row) for c in columns], tone))
    return shown + later


def box_score(info: JSON | None, view: Any) -> list[list[str]]:
    """Header plus one row per item of the game's box score (the game end table and the CSV)."""
    declared = (info or {}).get("box_score") or {}
    columns = declared.get("columns") or []
    return [[str(c.get("label", "")) for c in columns]] + [cells for _total, cells in box_rows(info, view)]


def box_rows(info: JSON | None, view: Any) -> list[tuple[bool, list[str]]]:
    """The box score's rows (no header) as ``(total, cells)``: ``total`` when the row is a side's
    total line (the declared ``total_key`` holds something true there)."""
    declared = (info or {}).get("box_score") or {}
    columns = declared.get("columns") or []
    total_key = str(declared.get("total_key") or "")
    found = rows_at(view, str(declared.get("source", "")), None) if declared.get("source") else []
    return [(bool(total_key) and bool(lookup(item["row"], total_key)),
             [cell(c, item["row"]) for c in columns]) for item in found]


Matrix = list[tuple[str, list[JSON | None]]]


def choice_grid(prompt: JSON | None, grid: JSON | None) -> tuple[Matrix, list[JSON]]:
    """The prompt's choices laid out as the game's grid asks: one row per value of the first of
    ``row_keys`` a command has, one column per value of ``column_key``; the rest come back apart.

    >>> grid = {"row_keys": ["shot"], "column_key": "spot", "columns": ["L", "R"], "at_least": 1}
    >>> prompt = {"choices": [{"label": "2 R", "command": {"shot": "2", "spot": "R"}},
    ...                       {"label": "pass", "command": {"type": "pass"}}]}
    >>> rows, rest = choice_grid(prompt, grid)
    >>> [(label, [c and c["label"] for c in cells]) for label, cells in rows], [c["label"] for c in rest]
    ([('2', [None, '2 R'])], ['pass'])
    """
    choices = [c for c in (prompt or {}).get("choices", [])
               if isinstance(c, dict) and isinstance(c.get("command"), dict)]
    if not grid:
        return [], choices
    columns = list(grid.get("columns", []))
    rows: dict[str, list[JSON | None]] = {}
    rest: list[JSON] = []
    for choice in choices:
        command = choice["command"]
        row = next((str(command[k]) for k in grid.get("row_keys", [])
                    if isinstance(command.get(k), str | int) and not isinstance(command.get(k), bool)), None)
        column = command.get(str(grid.get("column_key")))
        if row is not None and column in columns:
            rows.setdefault(row, [None] * len(columns))[columns.index(column)] = choice
        else:
            rest.append(choice)
    if sum(1 for _r, cells in rows.items() for c in cells if c) < int(grid.get("at_least", 6)):
        return [], choices
    return list(rows.items()), rest


def first_grid(prompt: JSON | None, grids: list[JSON]) -> tuple[JSON | None, Matrix, list[JSON]]:
    """The first of the game's grids that lays out the prompt's choices: the grid, its rows, the rest.

    >>> spots = {"row_keys": ["shot"], "column_key": "spot", "columns": ["L", "R"], "at_least": 1}
    >>> starts = {"row_keys": ["marker"], "column_key": "first", "columns": [0, 1], "at_least": 1}
    >>> grid, rows, rest = first_grid({"choices": [{"label": "a", "command": {"marker": "m", "first": 1}}]},
    ...                               [spots, starts])
    >>> grid is starts, [(label, [c and c["label"] for c in cells]) for label, cells in rows], rest
    (True, [('m', [None, 'a'])], [])
    """
    for grid in grids:
        rows, rest = choice_grid(prompt, grid)
        if rows:
            return grid, rows, rest
    return None, [], [c for c in (prompt or {}).get("choices", [])
                      if isinstance(c, dict) and isinstance(c.get("command"), dict)]


def grid_words(labels: list[Any], columns: list[Any], side_names: list[str]) -> list[str]:
    """A grid's labels, one per column, with ``{side}`` the name of the side a column stands for.

    >>> grid_words(["{side} first", "{side} first"], [0, 1], ["Lucy", "Karl"])
    ['Lucy first', 'Karl first']
    """
    words = []
    for label, column in zip(labels, columns, strict=True):
        named = isinstance(column, int) and not isinstance(column, bool) and 0 <= column < len(side_names)
        words.append(str(label).replace("{side}", side_names[column] if named else str(column)))
    return words


def grid_names(grid: JSON | None, view: Any, side: Any) -> dict[str, str]:
    """Column value -> the name the grid shows in a cell (who stands at that spot), from the view."""
    names = (grid or {}).get("names") or {}
    if not names or not isinstance(side, int):
        return {}
    return {str(lookup(r["row"], str(names.get("key")))): str(lookup(r["row"], str(names.get("label"))))
            for r in rows_at(view, str(names.get("source", "")), side)
            if lookup(r["row"], str(names.get("key"))) in (grid or {}).get("columns", [])}
