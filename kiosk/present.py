"""Words and numbers for the screens, made from a snapshot: formatting only, never a rule.

Every function takes the service's JSON and returns text the table reads, tolerating keys a game
does not send (the kiosk must not crash on a game whose view is still growing). Words a game gives
its dice faces come from its ``game_info`` (``dice``), never from here.

>>> percent(0.55)
'55%'
>>> target_breakdown({"stat_label": "3PS Muy Schillato", "stat": 70,
...     "bonuses": [{"label": "dribble", "value": 15}], "defense": [{"label": "D3 Edd Trapp", "value": 30}],
...     "target": 55})
'70 3PS Muy Schillato + 15 dribble - 30 D3 Edd Trapp = 55'
>>> face_label("whistle2", {"whistle2": "Whistle 2"}), face_label("jump_ball")
('Whistle 2', 'Jump ball')
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def percent(p: float | None) -> str:
    return "" if p is None else f"{round(p * 100):d}%"


def face_label(face: int | str, labels: dict[str, str] | None = None) -> str:
    if isinstance(face, int):
        return str(face)
    return (labels or {}).get(face) or face.replace("_", " ").capitalize()


def die_entry(prompt: JSON | None, info: JSON | None) -> JSON:
    """What the table knows of the awaited die: the prompt's ``die_info`` over the game's ``dice``."""
    if not prompt or not prompt.get("die"):
        return {}
    declared = next((d for d in (info or {}).get("dice") or [] if d.get("name") == prompt["die"]), {})
    sent = prompt.get("die_info") if isinstance(prompt.get("die_info"), dict) else {}
    return {"name": prompt["die"], **declared, **{k: v for k, v in sent.items() if v is not None}}


def die_faces(prompt: JSON | None, info: JSON | None = None) -> list[int | str]:
    """The faces the pad shows for the die the prompt awaits (none when no die is awaited)."""
    if not prompt or not prompt.get("die"):
        return []
    die = die_entry(prompt, info)
    if isinstance((prompt.get("die_info") or {}).get("faces"), list):
        return list(dict.fromkeys(prompt["die_info"]["faces"]))
    if isinstance(prompt.get("faces"), list) and prompt["faces"]:
        return list(dict.fromkeys(prompt["faces"]))
    return list(dict.fromkeys(die.get("faces") or []))


def face_success(prompt: JSON | None, info: JSON | None, face: int | str) -> bool | None:
    """Whether ``face`` succeeds: the prompt's ``face_marks`` when sent, else the die's declared
    reading (at most / at least) against the target; ``None`` when neither says."""
    for mark in (prompt or {}).get("face_marks") or []:
        if isinstance(mark, dict) and mark.get("face") == face:
            return mark.get("success")
    target = ((prompt or {}).get("target") or {}).get("target")
    rule = die_entry(prompt, info).get("success")
    if not isinstance(face, int) or not isinstance(target, int):
        return None
    return face <= target if rule == "at_most" else face >= target if rule == "at_least" else None


def face_mark_label(prompt: JSON | None, face: int | str) -> str:
    """What a face gives, in the prompt's ``face_marks`` (short), or nothing."""
    for mark in (prompt or {}).get("face_marks") or []:
        if isinstance(mark, dict) and mark.get("face") == face and mark.get("label"):
            return str(mark["label"])
    return ""


def target_breakdown(target: JSON | None) -> str:
    """``stat + bonuses - defense = target`` with every term named, in the service's numbers."""
    if not target:
        return ""
    if target.get("text") and "stat" not in target and not (target.get("bonuses") or target.get("defense")):
        return str(target["text"])
    parts = [f"{target.get('stat', '?')} {target.get('stat_label', '')}".strip()]
    for term in target.get("bonuses", []):
        value = int(term.get("value", 0))
        parts.append(f"{'+' if value >= 0 else '-'} {abs(value)} {term.get('label', '')}".strip())
    for term in target.get("defense", []):
        value = int(term.get("value", 0))
        parts.append(f"{'-' if value >= 0 else '+'} {abs(value)} {term.get('label', '')}".strip())
    return " ".join(parts) + f" = {target.get('target', '?')}"


def chance_line(prompt: JSON | None, info: JSON | None = None) -> str:
    """"Roll 55 or less · 55% chance · 1.65 points expected" (or "automatic success")."""
    if not prompt:
        return ""
    if prompt.get("automatic"):
        return "Automatic success: no roll needed"
    words = []
    target = prompt.get("target")
    rule = die_entry(prompt, info).get("success")
    if target and target.get("target") is not None and rule in ("at_most", "at_least"):
        words.append(f"Roll {target.get('target')} or {'less' if rule == 'at_most' else 'more'}")
    if prompt.get("p_success") is not None:
        words.append(f"{percent(prompt['p_success'])} chance")
    if prompt.get("expected_points") is not None:
        words.append(f"{prompt['expected_points']:.2f} points expected")
    return " · ".join(words)


def outcome_lines(prompt: JSON | None) -> list[str]:
    """The awaited roll's outcomes, "Whistle: +20 defense (12%)", when the game sends them."""
    lines = []
    for outcome in (prompt or {}).get("outcomes") or []:
        if isinstance(outcome, dict):
            gives = f": {outcome['gives']}" if outcome.get("gives") else ""
            lines.append(f"{outcome.get('label', '?')}{gives} ({percent(outcome.get('probability'))})")
    return lines


def choice_odds(choice: JSON) -> str:
    """A choice's own odds in a few words: its target and its chance, as far as it carries them.

    >>> choice_odds({"hint": "55 or less", "p_success": 0.55}), choice_odds({"target": 11, "p_success": 0.5})
    ('55 or less · 55%', 'target 11 · 50%')
    >>> choice_odds({"hint": "2.3 pts, scores 70%", "p_success": 0.7}), choice_odds({"label": "pass"})
    ('2.3 pts, scores 70%', '')
    """
    words = []
    hint = str(choice.get("hint") or "")
    target = choice.get("target")
    if isinstance(target, dict):
        target = target.get("target")
    if target is not None and not hint:
        words.append(f"target {target}")
    if hint:
        words.append(hint)
    if choice.get("p_success") is not None and "%" not in hint:
        words.append(percent(choice["p_success"]))
    return " · ".join(words)


def choice_label(choice: JSON, prompt_side: Any = None, names: list[str] | None = None) -> str:
    """A choice's label with its own odds when it carries them ("3PS Ann · 55%" or its hint), and the
    side that makes it when that is not the prompt's side.

    >>> choice_label({"label": "2PS SG Muy", "side": 0}, 1, ["Lucy", "Karl"])
    'Lucy: 2PS SG Muy'
    """
    label = str(choice.get("label", ""))
    side = choice.get("side")
    if isinstance(side, int) and side != prompt_side and names and 0 <= side < len(names):
        label = f"{names[side]}: {label}"
    odds = choice_odds(choice)
    return f"{label} · {odds}" if odds else label


def side_names(snapshot: JSON | None) -> list[str]:
    board = (snapshot or {}).get("scoreboard") or {}
    names = [s.get("name", f"Side {i + 1}") for i, s in enumerate(board.get("sides", []))]
    return names or ["Home", "Away"]


def score_line(snapshot: JSON | None) -> str:
    """"Lucy 12 - 9 Karl" from the scoreboard (the same numbers the OLED shows)."""
    if not snapshot:
        return "No game"
    board = snapshot.get("scoreboard") or {}
    sides = board.get("sides", [])
    lead = board.get("lead")
    if isinstance(lead, dict) and all(s.get("score") is None for s in sides):
        # One signed lead instead of a score per side: "Ann leads by 3".
        names = [s.get("name") for s in sides]
        who = lead.get("side")
        return (f"{names[who]} leads by {lead.get('value')}" if isinstance(who, int) and 0 <= who < len(names)
                else "Level") if names else "No game"
    if len(sides) != 2:
        return " - ".join(f"{s.get('name')} {s.get('score')}" for s in sides) or "No game"
    a, b = sides
    return f"{a.get('name')} {a.get('score')} - {b.get('score')} {b.get('name')}"


def turn_line(snapshot: JSON | None) -> str:
    """"P2 · pair 3 of 8 · Lucy attacks", or who acts when the prompt waits for the other side.

    >>> board = {"sides": [{"name": "Lucy"}, {"name": "Karl"}], "possession": 0}
    >>> turn_line({"scoreboard": board, "prompt": {"side": 1}, "view": {"period": 1}})
    'P1 · Karl to act (Lucy attacks)'
    """
    if not snapshot:
        return ""
    view = snapshot.get("view") or {}
    board = snapshot.get("scoreboard") or {}
    names = side_names(snapshot)
    turn = view.get("turn") if isinstance(view.get("turn"), dict) else {}
    parts = []
    period = view.get("period_label") or (f"P{view['period']}" if view.get("period") is not None else None)
    parts.append(str(period) if period else str(board.get("period", "")))
    if snapshot.get("outcome") or board.get("final"):
        return " · ".join(p for p in (*parts, "final") if p)
    if turn.get("pair") is not None:
        parts.append(f"pair {turn['pair']} of {turn.get('pairs_in_period', '?')}")
    elif board.get("clock"):
        parts.append(str(board["clock"]))
    attacker = turn.get("attacker", board.get("possession"))
    acting = (snapshot.get("prompt") or {}).get("side")
    # The side the prompt waits for leads, so the bar and the prompt name the same side.
    if isinstance(acting, int) and acting != attacker and 0 <= acting < len(names):
        known = isinstance(attacker, int) and 0 <= attacker < len(names)
        attacks = f" ({names[attacker]} attacks)" if known else ""
        parts.append(f"{names[acting]} to act{attacks}")
    elif isinstance(attacker, int) and 0 <= attacker < len(names):
        parts.append(f"{names[attacker]} attacks")
    return " · ".join(p for p in parts if p)


def fouls_line(snapshot: JSON | None, side: int) -> str:
    """"Team fouls 3  BONUS" from the scoreboard (nothing for a game that keeps no fouls)."""
    sides = ((snapshot or {}).get("scoreboard") or {}).get("sides", [])
    if side >= len(sides):
        return ""
    fouls = sides[side].get("fouls", sides[side].get("team_fouls"))
    return "" if fouls is None else f"Team fouls {fouls}" + ("  BONUS" if sides[side].get("bonus") else "")


def counters_line(snapshot: JSON | None, side: int) -> str:
    """The side's declared counters from the scoreboard, "TO 3 · CT 7"."""
    sides = ((snapshot or {}).get("scoreboard") or {}).get("sides", [])
    if side >= len(sides):
        return ""
    return " · ".join(f"{c.get('label')} {c.get('value')}" for c in sides[side].get("counters") or []
                      if isinstance(c, dict))


def period_scores(view: JSON) -> str:
    """"P1 20-18   P2 15-19" from the view's ``partial_scores`` (when the game keeps them)."""
    partial = view.get("partial_scores") or []
    return "   ".join(f"P{i + 1} " + "-".join(str(v) for v in p) for i, p in enumerate(partial)
                      if isinstance(p, list) and p)


def result_line(snapshot: JSON | None) -> str:
    """"Lucy wins: 60-55 after 4 periods", "A draw: ...", or the places of a ranking."""
    if not snapshot or not snapshot.get("outcome"):
        return ""
    outcome = snapshot["outcome"]
    names = side_names(snapshot)
    winner = outcome.get("winner")
    places = [p for p in outcome.get("places") or [] if isinstance(p, list)]
    if winner is not None:
        who = f"{names[winner]} wins" if 0 <= winner < len(names) else "Game over"
    elif places and len(places[0]) > 1 and len(places) > 1:
        who = " and ".join(names[i] for i in places[0] if 0 <= i < len(names)) + " share first place"
    else:
        who = "A draw"
    return f"{who}: {outcome.get('reason', '')}".rstrip(": ")


def places_line(snapshot: JSON | None) -> str:
    """"1st Ann · 2nd Bo and Cy · 4th Di" when the outcome ranks more than two sides."""
    outcome = (snapshot or {}).get("outcome") or {}
    places = [p for p in outcome.get("places") or [] if isinstance(p, list)]
    names = side_names(snapshot)
    if len(names) <= 2 or not places:
        return ""
    words, rank = [], 1
    for tied in places:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank, "th")
        words.append(f"{rank}{suffix} " + " and ".join(names[i] for i in tied if 0 <= i < len(names)))
        rank += len(tied)
    return " · ".join(words)


def log_mark(line: JSON, names: list[str] | None = None) -> str:
    """A log line's period and the score after it, as the Log screen shows them beside its words.

    >>> lead = {"period": "R1", "lead": {"side": 0, "value": 6}}
    >>> log_mark({"period": "Q2", "score": [12, 9]}), log_mark(lead, ["Red", "Blue"])
    ('Q2 12-9', 'R1 Red +6')
    """
    period = str(line.get("period") or "")
    lead = line.get("lead")
    score = line.get("score")
    if isinstance(lead, dict) and isinstance(lead.get("value"), int):
        side = lead.get("side")
        who = (names or [])[side] if isinstance(side, int) and 0 <= side < len(names or []) else ""
        shown = f"{who} +{lead['value']}".strip() if side is not None and lead["value"] else "level"
    elif isinstance(score, list) and score and all(isinstance(v, int) for v in score):
        shown = "-".join(str(v) for v in score)
    else:
        shown = ""
    return " ".join(p for p in (period, shown) if p)


def log_line(entry: JSON) -> str:
    """A log entry in plain words (``view.log`` entries may be text or objects with a ``text``)."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        return str(entry.get("text") or entry.get("message") or entry)
    return str(entry)


def score_difference(score: Any, lead: Any = None) -> int | None:
    """The first side's margin after a log line: its score minus the second's, or the game's one
    signed lead toward the first side.

    >>> score_difference([12, 9]), score_difference([None, None], {"side": 1, "value": 7})
    (3, -7)
    """
    if isinstance(lead, dict) and isinstance(lead.get("value"), int):
        side = lead.get("side")
        return 0 if side is None else lead["value"] if side == 0 else -lead["value"]
    if isinstance(score, list | tuple) and len(score) == 2 and all(isinstance(v, int) for v in score):
        return int(score[0]) - int(score[1])
    return None


def lead_share(snapshot: JSON | None) -> tuple[float, str, str] | None:
    """The tug-of-war bar of a one-lead game: where the marker sits (0 = all the way to the first
    side, 0.5 = level, 1 = the second side), and the two sides' names; ``None`` without a lead.

    The bar spans the game's own words for a decisive lead when it has none: 15 points either way.

    >>> board = {"sides": [{"name": "Red"}, {"name": "Blue"}], "lead": {"side": 0, "value": 6}}
    >>> lead_share({"scoreboard": board})
    (0.3, 'Red', 'Blue')
    """
    board = (snapshot or {}).get("scoreboard") or {}
    lead, sides = board.get("lead"), board.get("sides") or []
    margin = score_difference(None, lead)
    if margin is None or len(sides) != 2:
        return None
    reach = 15
    share = 0.5 - max(-reach, min(reach, margin)) / reach / 2
    return round(share, 3), str(sides[0].get("name", "")), str(sides[1].get("name", ""))
