"""Hooper cards and rosters: read them from TOML or JSON, check them, ship the rulebook's own.

A roster holds a tribe's hooper cards. A stat, energy or flag that is missing (or ``null`` in
JSON) is "not entered": the companion refuses the action that needs it and asks for the card.
``card_stat`` and ``card_energy`` are the one check of a printed value, whichever way it comes in
(a roster file, the setup options, ``enter_card`` during the game, ``companion calc``).

>>> keepers = shipped_roster("keepers")
>>> keepers.tribe, len(keepers.hoopers), keepers.hooper("Edd Trapp").stat("D3")
('keepers', 10, 30)
>>> keepers.hooper("Edd Trapp").stat("2PS") is None
True
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CommandError
from companion.games.valley_hoopers.card_values import card_energy, card_stat  # apart: calc needs no model
from companion.games.valley_hoopers.model import POSITIONS, SKILLS, STATS, Hooper

ROSTER_DIR = Path(__file__).with_name("rosters")
SHIPPED = {"keepers": "keepers.toml", "unleashed": "unleashed.toml", "susan-peg": "susan-peg.toml"}
TRIBES = ("keepers", "unleashed", "custom")
# A skill may be named by its key or by the hooper who prints it ("Never Tired").
SKILL_BY_HOOPER = {text.split(":")[0].lower(): key for key, text in SKILLS.items()}


@dataclass(frozen=True)
class Roster:
    """A tribe's hooper cards as printed (and as entered so far)."""

    tribe: str
    playbook: str
    hoopers: tuple[Hooper, ...]

    def hooper(self, name: str) -> Hooper:
        for h in self.hoopers:
            if h.name.lower() == name.strip().lower():
                return h
        raise CommandError(f"the {self.tribe} roster has no hooper called {name!r}")


def _position(raw: object, field: str, who: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or raw.strip().upper() not in POSITIONS:
        raise CommandError(f"{who}: {field} must be one of {', '.join(POSITIONS)}, not {raw!r}")
    return raw.strip().upper()


def parse_hooper(raw: Mapping[str, Any]) -> Hooper:
    """One hooper card from a mapping (roster file or setup option), checked field by field."""
    if not isinstance(raw, Mapping):
        raise CommandError(f"a hooper must be an object with a name, not {raw!r}")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CommandError(f"every hooper needs a name, got {name!r}")
    name = name.strip()
    known = {
        "name",
        "pronoun",
        "first_position",
        "second_position",
        "stellar",
        "upgraded",
        "defense_positions",
        "energy",
        "stats",
        "skill",
    }
    unknown = sorted(set(raw) - known)
    if unknown:
        raise CommandError(f"{name}: unknown field {unknown[0]!r} (known: {', '.join(sorted(known))})")
    stats_raw = raw.get("stats") or {}
    if not isinstance(stats_raw, Mapping):
        raise CommandError(f'{name}: stats must be an object like {{"2PS": 55}}, not {stats_raw!r}')
    bad = [k for k in stats_raw if k not in STATS]
    if bad:
        raise CommandError(f"{name}: unknown stat {bad[0]!r} (stats are {', '.join(STATS)})")
    stats = tuple((s, card_stat(s, stats_raw.get(s), name)) for s in STATS)
    flag = raw.get("defense_positions")
    if flag is not None:
        if not isinstance(flag, list | tuple) or not flag:
            raise CommandError(f"{name}: defense_positions must be a list of positions, not {flag!r}")
        flag = tuple(p for p in (_position(p, "defense_positions", name) for p in flag) if p)
    skill = raw.get("skill")
    if skill is not None:
        if not isinstance(skill, str):
            raise CommandError(f"{name}: skill must be a skill name or null, not {skill!r}")
        skill = SKILL_BY_HOOPER.get(skill.strip().lower(), skill.strip())
        if skill not in SKILLS:
            raise CommandError(f"{name}: unknown skill {raw.get('skill')!r} (known: {', '.join(SKILLS)})")
    stellar = raw.get("stellar")
    if stellar is not None and not isinstance(stellar, bool):
        raise CommandError(f"{name}: stellar must be true, false or null, not {stellar!r}")
    upgraded = raw.get("upgraded", False)
    if not isinstance(upgraded, bool):
        raise CommandError(f"{name}: upgraded must be true or false, not {upgraded!r}")
    pronoun = raw.get("pronoun", "their")
    if pronoun not in ("his", "her", "their"):
        raise CommandError(f"{name}: pronoun must be his, her or their, not {pronoun!r}")
    energy = card_energy(raw.get("energy"), name)
    return Hooper(
        name=name,
        pronoun=pronoun,
        first_position=_position(raw.get("first_position"), "first_position", name),
        second_position=_position(raw.get("second_position"), "second_position", name),
        stellar=True if upgraded else stellar,
        upgraded=upgraded,
        defense_positions=flag,
        base_energy=energy,
        stats=stats,
        skill=skill,
        energy=energy,
    )


def parse_roster(raw: Mapping[str, Any], source: str = "roster") -> Roster:
    """A roster from a mapping: ``{"tribe": ..., "playbook": ..., "hoopers": [...]}``."""
    if not isinstance(raw, Mapping):
        raise CommandError(f"{source}: a roster is an object with tribe and hoopers")
    tribe = raw.get("tribe", "custom")
    if not isinstance(tribe, str):
        raise CommandError(f"{source}: tribe must be a name, not {tribe!r}")
    hoopers_raw = raw.get("hoopers")
    if not isinstance(hoopers_raw, list) or not hoopers_raw:
        raise CommandError(f"{source}: hoopers must be a non-empty list")
    hoopers = tuple(parse_hooper(h) for h in hoopers_raw)
    names = [h.name.lower() for h in hoopers]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise CommandError(f"{source}: hooper {dupes[0]!r} appears twice")
    return Roster(tribe=tribe, playbook=str(raw.get("playbook", "")), hoopers=hoopers)


def load_roster(path: str | Path) -> Roster:
    """Read and check a roster file, TOML or JSON by its extension."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        raw = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise CommandError(f"{path.name}: cannot read the roster: {exc}") from exc
    return parse_roster(raw, source=path.name)


def shipped_roster(name: str) -> Roster:
    """One of the rosters that come with the companion: keepers, unleashed, susan-peg."""
    key = name.strip().lower()
    if key not in SHIPPED:
        raise CommandError(f"no shipped roster called {name!r} (shipped: {', '.join(SHIPPED)})")
    return load_roster(ROSTER_DIR / SHIPPED[key])
