"""A line of the game's log as the History screen shows it: the period and the score at that point,
then what happened, all from the service's ``log`` op (formatting only, never a rule).

>>> entry_text({"text": "Lucy scores 2", "period": "P2", "score": [12, 9], "lead": None})
'P2 · 12-9 · Lucy scores 2'
>>> entry_text({"text": "Ann plays", "period": "Q1", "score": [None, None], "lead": {"side": 1, "value": 4}},
...            ["Ann", "Bo"])
'Q1 · Bo +4 · Ann plays'
>>> entry_text({"text": "tip-off"})
'tip-off'
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def score_words(entry: JSON, names: list[str] | None = None) -> str:
    """The score after a log line: "12-9" (one number per side), or a one-lead game's "Bo +4" / "level"."""
    lead = entry.get("lead")
    if isinstance(lead, dict) and isinstance(lead.get("value"), int):
        side = lead.get("side")
        if side is None or lead["value"] == 0:
            return "level"
        names = names or []
        who = names[side] if isinstance(side, int) and 0 <= side < len(names) else f"side {side}"
        return f"{who} +{lead['value']}"
    score = entry.get("score")
    if isinstance(score, list) and score and all(isinstance(v, int) for v in score):
        return "-".join(str(v) for v in score)
    return ""


def entry_text(entry: JSON, names: list[str] | None = None) -> str:
    """"P2 · 12-9 · what happened": the period and score at that point lead the line."""
    words = [str(entry.get("period") or ""), score_words(entry, names), str(entry.get("text", ""))]
    return " · ".join(w for w in words if w)
