"""Words and numbers for the screens, made from a snapshot: formatting only, never a rule.

Every function takes the service's JSON and returns text the table reads, tolerating keys a game
does not send (the kiosk must not crash on a game whose view is still growing).

>>> percent(0.55)
'55%'
>>> target_breakdown({"stat_label": "3PS Muy Schillato", "stat": 70,
...     "bonuses": [{"label": "dribble", "value": 15}], "defense": [{"label": "D3 Edd Trapp", "value": 30}],
...     "target": 55})
'70 3PS Muy Schillato + 15 dribble - 30 D3 Edd Trapp = 55'
>>> face_label("whistle2")
'Whistle 2'
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

FACE_WORDS = {"whistle": "Whistle", "whistle2": "Whistle 2", "whistle3": "Whistle 3",
              "charge": "Charging foul", "jumpball": "Jump ball", "blank": "Blank"}
# Distinct faces of the dice the games name (what the on-screen pad offers). The service may send
# the faces itself in ``prompt["faces"]``; these are the faces printed on the physical dice.
DIE_FACES: dict[str, list[int | str]] = {
    "d20x5": list(range(5, 101, 5)),
    "d20": list(range(1, 21)),
    "d6": list(range(1, 7)),
    "d8foul": ["whistle", "whistle2", "whistle3", "charge", "jumpball", "blank"],
}
DIE_TITLES = {"d20x5": "d20 (5 to 100)", "d20": "d20", "d6": "d6", "d8foul": "foul die (d8)"}


def percent(p: float | None) -> str:
    return "" if p is None else f"{round(p * 100):d}%"


def face_label(face: int | str) -> str:
    return str(face) if isinstance(face, int) else FACE_WORDS.get(face, face.replace("_", " ").capitalize())


def die_faces(prompt: JSON | None) -> list[int | str]:
    """The faces the pad shows for the die the prompt awaits (none when no die is awaited)."""
    if not prompt or not prompt.get("die"):
        return []
    if isinstance(prompt.get("faces"), list):
        return list(dict.fromkeys(prompt["faces"]))
    return list(DIE_FACES.get(prompt["die"], []))


def target_breakdown(target: JSON | None) -> str:
    """``stat + bonuses - defense = target`` with every term named, in the service's numbers."""
    if not target:
        return ""
    parts = [f"{target.get('stat', '?')} {target.get('stat_label', '')}".strip()]
    for term in target.get("bonuses", []):
        value = int(term.get("value", 0))
        parts.append(f"{'+' if value >= 0 else '-'} {abs(value)} {term.get('label', '')}".strip())
    for term in target.get("defense", []):
        value = int(term.get("value", 0))
        parts.append(f"{'-' if value >= 0 else '+'} {abs(value)} {term.get('label', '')}".strip())
    return " ".join(parts) + f" = {target.get('target', '?')}"


def chance_line(prompt: JSON | None) -> str:
    """"Needs 55 or less: 55% · 1.65 points expected" (or "automatic success")."""
    if not prompt:
        return ""
    if prompt.get("automatic"):
        return "Automatic success: no roll needed"
    words = []
    target = prompt.get("target")
    if target and prompt.get("die") == "d20x5":
        words.append(f"Roll {target.get('target')} or less")
    if prompt.get("p_success") is not None:
        words.append(f"{percent(prompt['p_success'])} chance")
    if prompt.get("expected_points") is not None:
        words.append(f"{prompt['expected_points']:.2f} points expected")
    return " · ".join(words)


def side_names(snapshot: JSON | None) -> list[str]:
    board = (snapshot or {}).get("scoreboard") or {}
    names = [s.get("name", f"Side {i + 1}") for i, s in enumerate(board.get("sides", []))]
    return names or ["Home", "Away"]


def score_line(snapshot: JSON | None) -> str:
    """"Lucy 12 - 9 Karl" from the scoreboard (the same numbers the OLED shows)."""
    if not snapshot:
        return "No game"
    sides = (snapshot.get("scoreboard") or {}).get("sides", [])
    if len(sides) != 2:
        return " - ".join(f"{s.get('name')} {s.get('score')}" for s in sides) or "No game"
    a, b = sides
    return f"{a.get('name')} {a.get('score')} - {b.get('score')} {b.get('name')}"


def turn_line(snapshot: JSON | None) -> str:
    """"P2 · pair 3 of 8 · Lucy attacks"."""
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
    if isinstance(attacker, int) and 0 <= attacker < len(names):
        parts.append(f"{names[attacker]} attacks")
    return " · ".join(p for p in parts if p)


def fouls_line(snapshot: JSON | None, side: int) -> str:
    board = (snapshot or {}).get("scoreboard") or {}
    sides = board.get("sides", [])
    if side >= len(sides):
        return ""
    s = sides[side]
    bonus = "  BONUS" if s.get("bonus") else ""
    return f"Team fouls {s.get('team_fouls', 0)}{bonus}"


def hooper_line(hooper: JSON) -> str:
    """One line per hooper: position, name, energy, cubes, Onfire, chips, injuries, ejection."""
    energy = hooper.get("energy")
    max_energy = hooper.get("max_energy")
    position = str(hooper.get("position") or "bench")
    parts = [position if position == "bench" else position.upper(), str(hooper.get("name", "?"))]
    if energy is not None or max_energy is not None:
        parts.append(f"E {'?' if energy is None else energy}/{'?' if max_energy is None else max_energy}")
    if hooper.get("red"):
        parts.append(f"red {hooper['red']}")
    if hooper.get("white"):
        parts.append(f"white {hooper['white']}")
    onfire = hooper.get("onfire")
    if onfire and onfire != "flat":
        parts.append(f"Onfire {onfire}")
    chips = hooper.get("chips")
    if isinstance(chips, dict) and (chips.get("lv1") or chips.get("lv2")):
        parts.append(f"chips {chips.get('lv1', 0)}/{chips.get('lv2', 0)}")
    if hooper.get("injuries"):
        parts.append("injured: " + ", ".join(str(i).replace("_", " ") for i in hooper["injuries"]))
    if hooper.get("ejected"):
        parts.append("EJECTED")
    if hooper.get("injured_out"):
        parts.append("OUT (injury)")
    if hooper.get("out_of_position"):
        parts.append("out of position")
    return "  ".join(parts)


def hooper_cells(hooper: JSON) -> list[str]:
    """The table screen's columns for one hooper: spot, name, energy, cubes, everything else."""
    position = str(hooper.get("position") or "bench")
    energy, max_energy = hooper.get("energy"), hooper.get("max_energy")
    energy_text = "" if energy is None and max_energy is None else (
        f"{'?' if energy is None else energy}/{'?' if max_energy is None else max_energy}")
    cubes = " ".join(part for part in (f"R{hooper['red']}" if hooper.get("red") else "",
                                       f"W{hooper['white']}" if hooper.get("white") else "") if part)
    status = []
    onfire = hooper.get("onfire")
    if onfire and onfire != "flat":
        status.append(f"Onfire {onfire}")
    chips = hooper.get("chips")
    if isinstance(chips, dict) and (chips.get("lv1") or chips.get("lv2")):
        status.append(f"chips {chips.get('lv1', 0)}/{chips.get('lv2', 0)}")
    if hooper.get("injuries"):
        status.append("injured: " + ", ".join(str(i).replace("_", " ") for i in hooper["injuries"]))
    if hooper.get("ejected"):
        status.append("EJECTED")
    if hooper.get("injured_out"):
        status.append("OUT (injury)")
    if hooper.get("out_of_position"):
        status.append("out of position")
    return [position if position == "bench" else position.upper(), str(hooper.get("name", "?")), energy_text,
            cubes, ", ".join(status)]


def slots_line(view: JSON) -> str:
    """The current attacking turn's F1 / F2 / A / F3 slots as "F1 pass Serge Ceptor · A ..."."""
    turn = view.get("turn") if isinstance(view.get("turn"), dict) else {}
    slots = turn.get("slots", view.get("slots", []))
    shown = []
    for slot in slots or []:
        if isinstance(slot, dict):
            result = slot.get("result")
            tail = f" ({result})" if result and result != "played" else ""
            words = f"{slot.get('action', '')} {slot.get('hooper', '')}".strip()
            shown.append(f"{slot.get('slot')}: {words}{tail}")
    lost = turn.get("lost_slots") or []
    shown += [f"{s}: lost" for s in lost]
    by_name = {s.split(":")[0]: s for s in shown}
    ordered = [by_name.pop(k) for k in ("F1", "F2", "A", "F3") if k in by_name] + list(by_name.values())
    return "   ".join(ordered) if ordered else "F1 -   F2 -   A -   F3 -"


def coach_line(side: JSON) -> str:
    parts = []
    if side.get("coach_tokens") is not None:
        parts.append(f"coach tokens {side['coach_tokens']}")
    if side.get("timeouts") is not None:
        parts.append(f"timeouts {side['timeouts']}")
    if side.get("tribe"):
        parts.append(str(side["tribe"]))
    return " · ".join(parts)


def box_score_rows(view: JSON) -> list[list[str]]:
    """Header plus one row per hooper for the game-end table."""
    rows = [["Side", "Hooper", "Pts", "Energy", "Red", "White", "Notes"]]
    for side in view.get("sides", []):
        for h in side.get("hoopers", side.get("players", [])):
            notes = []
            if h.get("ejected"):
                notes.append("ejected")
            if h.get("injured_out"):
                notes.append("injured out")
            if h.get("injuries"):
                notes.append(f"{len(h['injuries'])} injury")
            energy = "" if h.get("energy") is None else f"{h.get('energy')}/{h.get('max_energy', '?')}"
            rows.append([str(side.get("name", "")), str(h.get("name", "")), str(h.get("points", 0)),
                         energy, str(h.get("red", 0)), str(h.get("white", 0)), ", ".join(notes)])
    return rows


def result_line(snapshot: JSON | None) -> str:
    if not snapshot or not snapshot.get("outcome"):
        return ""
    outcome = snapshot["outcome"]
    names = side_names(snapshot)
    winner = outcome.get("winner")
    who = "A draw" if winner is None else f"{names[winner]} wins" if 0 <= winner < len(names) else "Game over"
    return f"{who}: {outcome.get('reason', '')}".rstrip(": ")


def log_line(entry: JSON) -> str:
    """A log entry in plain words (``view.log`` entries may be text or objects with a ``text``)."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        return str(entry.get("text") or entry.get("message") or entry)
    return str(entry)


def score_difference(score: Any) -> int | None:
    if isinstance(score, list | tuple) and len(score) == 2:
        return int(score[0]) - int(score[1])
    return None


POSITIONS = ("PG", "SG", "SF", "PF", "C")


Matrix = list[tuple[str, list[JSON | None]]]


def choice_matrix(prompt: JSON | None, view: JSON | None) -> tuple[Matrix, list[JSON]]:
    """The prompt's choices laid out as the table thinks of them: one row per action (2PS, 3PS, LUP,
    dribble...), one column per court position; the other choices (end turn...) come back apart.

    Only a layout of the commands the service offers: which exist is the service's business.

    >>> prompt = {"choices": [{"label": "2PS PG Ann", "command": {"type": "attack", "shot": "2PS",
    ...                                                          "position": "PG"}},
    ...                       {"label": "end turn", "command": {"type": "end_turn"}}]}
    >>> rows, rest = choice_matrix(prompt, {})
    >>> [(label, [c and c["label"] for c in cells]) for label, cells in rows], [c["label"] for c in rest]
    ([('2PS', ['2PS PG Ann', None, None, None, None])], ['end turn'])
    """
    rows: dict[str, list[JSON | None]] = {}
    rest: list[JSON] = []
    for choice in (prompt or {}).get("choices", []):
        if not isinstance(choice, dict) or not isinstance(choice.get("command"), dict):
            continue
        command = choice["command"]
        row = command.get("shot") or command.get("action")
        position = command.get("position")
        if isinstance(row, str) and position in POSITIONS:
            rows.setdefault(row, [None] * len(POSITIONS))[POSITIONS.index(position)] = choice
        else:
            rest.append(choice)
    return list(rows.items()), rest


def on_court(view: JSON | None, side: int | None) -> dict[str, str]:
    """Position -> hooper name for one side, from the view (empty when the view has no line-up)."""
    sides = (view or {}).get("sides") or []
    if not isinstance(side, int) or not 0 <= side < len(sides):
        return {}
    return {str(h.get("position")): str(h.get("name")) for h in sides[side].get("hoopers", [])
            if h.get("position") in POSITIONS}
