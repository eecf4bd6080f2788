"""Cards the table has typed in, remembered between games, and the setup the kiosk proposes.

Everything here is shaped by the game's declaration (``game_info``: its card form, rosters and setup
form), never by a game's name. Cards live in ``cards/<game>.json`` in the user config folder
(``$XDG_CONFIG_HOME`` on Linux), keyed by the card form's key (a name); only what was entered is
stored (a missing stat stays "not entered"). Roster files the table adds go in ``rosters/`` beside
them (or ``rosters/<game>/``); the last setup of every game in ``last-setup.json``.

>>> form = {"key": "name", "fields": [{"key": "energy"}, {"key": "stats.2PS"}, {"key": "stats.D2"}]}
>>> card_override({"name": "Edd Trapp", "stats": {"2PS": 60, "D2": None}, "energy": 5, "x": 1}, form)
{'name': 'Edd Trapp', 'energy': 5, 'stats': {'2PS': 60}}
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

JSON = dict[str, Any]
SIDE_COLOURS = ("#2f7de1", "#e0452f", "#2fb35a", "#f0b81c", "#9b59d0", "#f2f2f2", "#1a1a1a")


def config_dir() -> Path:
    from platformdirs import user_config_path

    return user_config_path("courtside-companion")


def exports_dir() -> Path:
    from platformdirs import user_data_path

    return user_data_path("courtside-companion") / "exports"


def cards_path(game: str) -> Path:
    return config_dir() / "cards" / f"{game}.json"


def _write_atomically(path: Path, text: str) -> None:
    """Write a temporary file and swap it in, so a crash mid-write keeps the old file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# -- one card ------------------------------------------------------------------------------------------

def get_field(card: JSON, key: str) -> Any:
    """A card field by its (maybe dotted) key: ``stats.2PS`` is ``card["stats"]["2PS"]``."""
    head, _, rest = key.partition(".")
    value = card.get(head)
    return (value.get(rest) if isinstance(value, dict) else None) if rest else value


def set_field(card: JSON, key: str, value: Any) -> None:
    head, _, rest = key.partition(".")
    if rest:
        card.setdefault(head, {})
        card[head] = {**(card[head] if isinstance(card[head], dict) else {}), rest: value}
    else:
        card[head] = value


def card_override(card: JSON, form: JSON | None) -> JSON:
    """The entered fields of a card (those of the form that hold something), nested as the form says."""
    key = (form or {}).get("key", "name")
    out: JSON = {key: card[key]}
    for field in (form or {}).get("fields", []):
        value = get_field(card, str(field.get("key")))
        if value is not None:
            set_field(out, str(field["key"]), list(value) if isinstance(value, list | tuple) else value)
    return out


def load_cards(game: str, path: Path | None = None) -> dict[str, JSON]:
    path = path or cards_path(game)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def save_card(game: str, card: JSON, form: JSON | None, path: Path | None = None) -> None:
    """Remember one card (replacing what was stored under its key); atomic, so a crash keeps the old."""
    path = path or cards_path(game)
    cards = load_cards(game, path)
    entered = card_override(card, form)
    cards[str(entered[(form or {}).get("key", "name")])] = entered
    _write_atomically(path, json.dumps(cards, indent=2, sort_keys=True))


def merge_card(printed: JSON, entered: JSON) -> JSON:
    """The printed card with what was entered on top (nested objects merge field by field)."""
    card = dict(printed)
    for key, value in entered.items():
        card[key] = {**card[key], **value} if isinstance(value, dict) and isinstance(card.get(key), dict) \
            else value
    return card


def card_for(name: str, rosters: dict[str, JSON], cards: dict[str, JSON], key: str = "name") -> JSON:
    """A card as the editor shows it: the roster's printed card with what was entered on top."""
    printed: JSON = {key: name}
    for roster in rosters.values():
        for card in roster.get("cards", []):
            if card.get(key) == name:
                printed = dict(card)
    return merge_card(printed, cards.get(name, {}))


# -- rosters -------------------------------------------------------------------------------------------

def shipped_rosters(info: JSON) -> dict[str, JSON]:
    """The rosters the game ships (served as data in its ``game_info``), by name."""
    return {str(r["name"]): {**r, "shipped": True} for r in info.get("rosters") or [] if r.get("name")}


def _read_roster(path: Path, member_keys: tuple[str, ...], file_keys: tuple[str, ...] = ()) -> JSON | None:
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".toml":
            import tomllib  # only for a roster file in TOML: the kiosk's start never needs it

            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    found = next((data[k] for k in (*member_keys, "cards") if isinstance(data.get(k), list)), None)
    if found is None:
        return None
    return {"name": f"import:{path.stem}", "label": path.stem.replace("_", " ").capitalize(), "demo": False,
            "cards": [c for c in found if isinstance(c, dict) and isinstance(c.get("name"), str)],
            "file": path.name, "file_fields": {k: data[k] for k in file_keys if k in data}}


def imported_rosters(info: JSON) -> dict[str, JSON]:
    """Roster files the table put in ``<config>/rosters/`` (or ``rosters/<game>/``): JSON or TOML with
    the cards under the roster field's key (or ``cards``)."""
    pickers = [f for f in (info.get("setup_form") or {}).get("side_fields", []) if f.get("kind") == "roster"]
    keys = tuple(str(f["key"]) for f in pickers)
    # What else of the file the game takes with an imported roster (a strategy deck list).
    file_keys = tuple(str(k) for f in pickers for k in (f.get("pick") or {}).get("file_keys") or [])
    found: dict[str, JSON] = {}
    for folder in (config_dir() / "rosters", config_dir() / "rosters" / str(info.get("name"))):
        paths = sorted(folder.glob("*.json")) + sorted(folder.glob("*.toml")) if folder.is_dir() else []
        for path in paths:
            roster = _read_roster(path, keys, file_keys)
            if roster is not None:
                found[roster["name"]] = roster
    return found


# -- the setup -----------------------------------------------------------------------------------------

def roster_field(info: JSON) -> JSON | None:
    fields = (info.get("setup_form") or {}).get("side_fields", [])
    return next((f for f in fields if f.get("kind") == "roster"), None)


def setup_from_options(info: JSON, options: JSON) -> JSON:
    """The Setup screen's state for a preset's ``new_game`` options."""
    form = info.get("setup_form") or {}
    sides_key = form.get("sides_key", "sides")
    state: JSON = {"game": info.get("name"), "fields": {}, "sides": []}
    for field in form.get("fields", []):
        state["fields"][field["key"]] = options.get(field["key"], field.get("default"))
    for key, value in options.items():  # options the form does not show travel unchanged
        if key != sides_key and key not in state["fields"]:
            state["fields"][key] = value
    picker = roster_field(info)
    for index, raw in enumerate(options.get(sides_key) or []):
        side: JSON = {"colour": SIDE_COLOURS[index % len(SIDE_COLOURS)], "fields": {}}
        for field in form.get("side_fields", []):
            if field.get("kind") == "roster":
                continue
            side["fields"][field["key"]] = raw.get(field["key"], field.get("default"))
        side["name"] = str(raw.get("name", side["fields"].pop("name", "") or ""))
        side["fields"].pop("name", None)
        if picker:
            pick = picker.get("pick") or {}
            members = [m if isinstance(m, str) else m.get("name") for m in raw.get(picker["key"]) or []]
            spots = {str(name): spot for spot, name in (raw.get(pick.get("spots_key", "")) or {}).items()}
            side["roster"] = raw.get(pick.get("roster_key", "roster"), "")
            reserve = pick.get("reserve") or "picked"
            side["picked"] = {str(m): spots.get(str(m), reserve) for m in members if m}
        state["sides"].append(side)
    return state


def quick_preset(info: JSON) -> JSON:
    """The preset Quick start plays: the first one marked demo (ready-to-play invented values), else
    the first one; {} for a game without presets.

    >>> quick_preset({"setup_form": {"presets": [{"label": "a"}, {"label": "b", "demo": True}]}})["label"]
    'b'
    >>> quick_preset({})
    {}
    """
    presets = (info.get("setup_form") or {}).get("presets") or []
    return next((p for p in presets if p.get("demo")), presets[0] if presets else {})


def blank_setup(info: JSON) -> JSON:
    """A setup from the form's defaults and the declared side names (a game with no preset)."""
    presets = (info.get("setup_form") or {}).get("presets") or []
    if presets:
        return setup_from_options(info, dict(presets[0].get("options") or {}))
    sides = info.get("sides") or {}
    names = (sides.get("names") or ["Side 1", "Side 2"])[:max(1, int(sides.get("min", 2)))]
    state = setup_from_options(info, {})
    for index, name in enumerate(names):
        state["sides"].append(new_side(info, index, name))
    return state


def new_side(info: JSON, index: int, name: str) -> JSON:
    """A side as Setup adds it: the form's side defaults, the next roster, nothing picked."""
    rosters = info.get("rosters") or []
    defaults = {str(f["key"]): f["default"] for f in (info.get("setup_form") or {}).get("side_fields", [])
                if f.get("default") is not None and f.get("kind") != "roster" and f.get("key") != "name"}
    return {"name": name, "colour": SIDE_COLOURS[index % len(SIDE_COLOURS)], "fields": defaults,
            "roster": rosters[index % len(rosters)]["name"] if rosters else "", "picked": {}}


def setup_store_path() -> Path:
    return config_dir() / "last-setup.json"


def _stored_setups() -> JSON:
    try:
        data = json.loads(setup_store_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and isinstance(data.get("games"), dict) else {}


def load_last_setup(info: JSON) -> JSON:
    """The last setup of this game (a rematch is two taps), else the first preset."""
    stored = _stored_setups().get("games", {}).get(str(info.get("name")))
    low, high = int((info.get("sides") or {}).get("min", 2)), int((info.get("sides") or {}).get("max", 2))
    if isinstance(stored, dict) and isinstance(stored.get("sides"), list) \
            and low <= len(stored["sides"]) <= high:
        return stored
    return blank_setup(info)


def save_last_setup(setup: JSON) -> None:
    stored = _stored_setups() or {"games": {}}
    stored["games"][str(setup.get("game"))] = setup
    stored["last"] = setup.get("game")
    _write_atomically(setup_store_path(), json.dumps(stored, indent=2))


def side_colours() -> dict[str, str]:
    """Side name -> colour from the remembered setups (the last game set up wins a clash)."""
    stored = _stored_setups()
    games = stored.get("games", {})
    last = stored.get("last")
    order = [g for g in games if g != last] + ([last] if last in games else [])
    colours: dict[str, str] = {}
    for game in order:
        for side in games[game].get("sides", []):
            if isinstance(side.get("colour"), str):
                colours[str(side.get("name"))] = side["colour"].lstrip("#")
    return colours


def game_options(info: JSON, setup: JSON, rosters: dict[str, JSON], cards: dict[str, JSON]) -> JSON:
    """The ``new_game`` options for what the Setup screen shows, in the shape the game's form declares.

    A shipped roster is sent by name with the entered cards laid over its members; an imported one
    is sent as full cards with the form's ``custom`` fields. The service checks everything.
    """
    form = info.get("setup_form") or {}
    card_form = info.get("card_form")
    picker = roster_field(info)
    sides = []
    for side in setup["sides"]:
        out: JSON = {"name": str(side.get("name", "")).strip(), **(side.get("fields") or {})}
        if picker:
            pick = picker.get("pick") or {}
            picked = {name: where for name, where in (side.get("picked") or {}).items() if where}
            roster_name = side.get("roster", "")
            roster = rosters.get(roster_name, {"cards": []})
            printed = {c["name"]: c for c in roster.get("cards", [])}
            if roster.get("shipped"):
                out[pick.get("roster_key", "roster")] = roster_name
                out[picker["key"]] = [card_override(cards[n], card_form) if n in cards else n for n in picked]
            else:
                out.update(pick.get("custom") or {})
                out.update(roster.get("file_fields") or {})
                out[picker["key"]] = [merge_card(printed.get(n, {"name": n}),
                                                 card_override(cards.get(n, {"name": n}), card_form))
                                      for n in picked]
            if pick.get("spots_key"):
                out[pick["spots_key"]] = {where: name for name, where in picked.items()
                                          if where in pick.get("spots", [])}
        sides.append(out)
    return {**setup.get("fields", {}), form.get("sides_key", "sides"): sides}


def pick_warnings(info: JSON, side: JSON, rosters: dict[str, JSON], cards: dict[str, JSON]) -> list[str]:
    """Plain words about a side's picks: how many, which spot is empty or doubled, who stands on a spot
    the card does not print. Only compares with the cards (the service applies the rules)."""
    picker = roster_field(info)
    if not picker:
        return []
    pick = picker.get("pick") or {}
    spots, nouns = list(pick.get("spots", [])), pick.get("nouns", "members")
    warnings = []
    picked = {n: w for n, w in (side.get("picked") or {}).items() if w}
    if pick.get("count") and len(picked) != pick["count"]:
        warnings.append(f"{len(picked)} of {pick['count']} {nouns} picked")
    placed = [w for w in picked.values() if w in spots]
    missing = [p for p in spots if p not in placed]
    doubled = [p for p in spots if placed.count(p) > 1]
    if missing:
        warnings.append("nobody at " + ", ".join(missing))
    if doubled:
        warnings.append(f"two {nouns} at " + ", ".join(doubled))
    for name, where in picked.items():
        if where not in spots or not pick.get("spot_fields"):
            continue
        card = card_for(name, rosters, cards)
        printed = [str(card[f]) for f in pick["spot_fields"] if card.get(f)]
        if printed and where not in printed:
            warnings.append(f"{name} out of position at {where} (card: {'/'.join(printed)})")
    return warnings
