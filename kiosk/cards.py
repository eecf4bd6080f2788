"""Hooper cards the table has typed in, remembered between games, and the setup the kiosk proposes.

Cards live in ``hooper-cards.json`` in the user config folder (``$XDG_CONFIG_HOME`` on Linux), keyed
by hooper name; only what was entered is stored (a missing stat stays "not entered"). The shipped
rosters are read as data from the game package's TOML files (never its rules); roster files the
table adds go in the ``rosters/`` folder beside the cards.

>>> merged = card_override({"name": "Edd Trapp", "stats": {"2PS": 60, "D2": None}, "energy": 5})
>>> merged
{'name': 'Edd Trapp', 'energy': 5, 'stats': {'2PS': 60}}
"""

from __future__ import annotations

import importlib.util
import json
import os
import tomllib
from pathlib import Path
from typing import Any

JSON = dict[str, Any]
POSITIONS = ("PG", "SG", "SF", "PF", "C")
STATS = ("2PS", "3PS", "LUP", "D2", "D3", "DLU", "O", "V")
CARD_FIELDS = ("first_position", "second_position", "stellar", "defense_positions", "energy", "skill")
SIDE_COLOURS = ("#2f7de1", "#e0452f", "#2fb35a", "#f0b81c", "#9b59d0", "#f2f2f2", "#1a1a1a")
SHIPPED_TRIBES = ("unleashed", "keepers")


def config_dir() -> Path:
    from platformdirs import user_config_path

    return user_config_path("courtside-companion")


def exports_dir() -> Path:
    from platformdirs import user_data_path

    return user_data_path("courtside-companion") / "exports"


def cards_path() -> Path:
    return config_dir() / "hooper-cards.json"


def load_cards(path: Path | None = None) -> dict[str, JSON]:
    path = path or cards_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def save_card(card: JSON, path: Path | None = None) -> None:
    """Remember one card (replacing what was stored for that name); atomic, so a crash keeps the old file."""
    path = path or cards_path()
    cards = load_cards(path)
    cards[str(card["name"])] = card_override(card)
    _write_atomically(path, json.dumps(cards, indent=2, sort_keys=True))


def _write_atomically(path: Path, text: str) -> None:
    """Write a temporary file and swap it in, so a crash mid-write keeps the old file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def card_override(card: JSON) -> JSON:
    """The entered fields of a card, ready to lay over the roster card in the setup options."""
    out: JSON = {"name": card["name"]}
    for key in CARD_FIELDS:
        if card.get(key) is not None:
            out[key] = list(card[key]) if key == "defense_positions" else card[key]
    stats = {k: v for k, v in (card.get("stats") or {}).items() if k in STATS and v is not None}
    if stats:
        out["stats"] = stats
    return out


def _roster_folder() -> Path | None:
    spec = importlib.util.find_spec("companion")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "games" / "valley_hoopers" / "rosters"


def _read_roster(path: Path) -> JSON | None:
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError):
        return None
    hoopers = data.get("hoopers") if isinstance(data, dict) else None
    if not isinstance(hoopers, list):
        return None
    return {"tribe": str(data.get("tribe", "custom")), "playbook": data.get("playbook"),
            "hoopers": [h for h in hoopers if isinstance(h, dict) and isinstance(h.get("name"), str)],
            "file": path.name}


def shipped_rosters() -> dict[str, JSON]:
    """The rosters that come with the game (``keepers``, ``unleashed``), by tribe."""
    folder = _roster_folder()
    found: dict[str, JSON] = {}
    for tribe in SHIPPED_TRIBES:
        roster = _read_roster(folder / f"{tribe}.toml") if folder else None
        if roster is not None:
            found[tribe] = roster
    return found


def imported_rosters() -> dict[str, JSON]:
    """Roster files the table put in ``<config>/rosters/`` (JSON or TOML, full hooper cards)."""
    folder = config_dir() / "rosters"
    found: dict[str, JSON] = {}
    for path in sorted(folder.glob("*.json")) + sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        roster = _read_roster(path)
        if roster is not None:
            found[f"import:{path.stem}"] = roster
    return found


def default_setup() -> JSON:
    """What the Setup screen starts from: the rulebook's gameplay example line-ups."""
    return {
        "variant": "classic", "first_attacker": 0,
        "sides": [
            {"name": "Lucy", "colour": SIDE_COLOURS[0], "roster": "unleashed",
             "picked": {"Serge Ceptor": "PG", "Muy Schillato": "SG", "Dime N'Shons": "SF",
                        "Wally Block": "PF", "Never Tired": "C", "Reley Baton": "bench",
                        "Joy Kill": "bench"}},
            {"name": "Karl", "colour": SIDE_COLOURS[1], "roster": "keepers",
             "picked": {"May Friend": "PG", "Chus Kinder": "SG", "Edd Trapp": "SF", "Hector Prot": "PF",
                        "Perry Hel": "C", "Linda Siempre": "bench", "Manny Gentle": "bench"}},
        ],
    }


def setup_store_path() -> Path:
    return config_dir() / "last-setup.json"


def load_last_setup() -> JSON:
    try:
        data = json.loads(setup_store_path().read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("sides"), list) and len(data["sides"]) == 2:
            return data
    except (OSError, ValueError):
        pass
    return default_setup()


def save_last_setup(setup: JSON) -> None:
    _write_atomically(setup_store_path(), json.dumps(setup, indent=2))


def game_options(setup: JSON, rosters: dict[str, JSON], cards: dict[str, JSON]) -> JSON:
    """The ``new_game`` options (docs/commands.md's setup shape) for what the Setup screen shows.

    Shipped rosters are sent by name with the entered cards laid over them; imported rosters are
    sent as full cards with the custom tribe. The service checks everything.
    """
    sides = []
    for side in setup["sides"]:
        picked = {name: where for name, where in side.get("picked", {}).items() if where}
        lineup = {where: name for name, where in picked.items() if where in POSITIONS}
        roster_key = side.get("roster", "keepers")
        roster = rosters.get(roster_key, {"hoopers": []})
        printed = {h["name"]: h for h in roster.get("hoopers", [])}
        out: JSON = {"name": side.get("name", "").strip()}
        if roster_key in SHIPPED_TRIBES:
            out["roster"] = roster_key
            out["hoopers"] = [card_override(cards[n]) if n in cards else n for n in picked]
        else:
            out["tribe"] = "custom"
            out["hoopers"] = [{**printed.get(n, {"name": n}), **card_override(cards.get(n, {"name": n}))}
                              for n in picked]
        out["lineup"] = lineup
        sides.append(out)
    return {"variant": setup.get("variant", "classic"), "first_attacker": int(setup.get("first_attacker", 0)),
            "sides": sides}


def card_for(name: str, rosters: dict[str, JSON], cards: dict[str, JSON]) -> JSON:
    """A hooper's card as the editor shows it: the printed roster card with what was entered on top."""
    printed: JSON = {"name": name}
    for roster in rosters.values():
        for h in roster.get("hoopers", []):
            if h.get("name") == name:
                printed = dict(h)
    entered = cards.get(name, {})
    card = {**printed, **{k: v for k, v in entered.items() if k != "stats"}}
    card["stats"] = {**(printed.get("stats") or {}), **(entered.get("stats") or {})}
    return card


def position_warnings(side: JSON, rosters: dict[str, JSON], cards: dict[str, JSON]) -> list[str]:
    """Plain words about a starting five: who is missing, who plays away from the card's positions.

    Only compares the card's printed positions with the spot chosen (the service applies the rule).
    """
    warnings = []
    picked = {n: w for n, w in side.get("picked", {}).items() if w}
    if len(picked) != 7:
        warnings.append(f"{len(picked)} of 7 hoopers picked")
    placed = [w for w in picked.values() if w in POSITIONS]
    missing = [p for p in POSITIONS if p not in placed]
    doubled = sorted({p for p in placed if placed.count(p) > 1})
    if missing:
        warnings.append("nobody at " + ", ".join(missing))
    if doubled:
        warnings.append("two hoopers at " + ", ".join(doubled))
    for name, where in picked.items():
        if where not in POSITIONS:
            continue
        card = card_for(name, rosters, cards)
        printed = [p for p in (card.get("first_position"), card.get("second_position")) if p]
        if printed and where not in printed:
            warnings.append(f"{name} out of position at {where} (card: {'/'.join(printed)})")
    return warnings
