"""The next game's seven when a hooper must sit it out: "The ejected hoopers (four foul cube) cannot take
part in the very next game." A ready-made seven for the prompt, so the table (and the kiosk, which
cannot write a side) goes on with one tap.

Replacements come from the rest of the tribe: the shipped roster's other hoopers for a ``roster``
side, the side's ``reserves`` (cards or roster names, The Series only) otherwise. A vacated line-up
position goes to a hooper of the new seven whose first or second position matches it (the setup
rule); ``None`` when no such seven exists (the table then sends ``next_game`` with ``sides``).
Whoever sits a game out joins the reserves for the games after it.

>>> side = {"name": "Lucy", "roster": "unleashed", "hoopers": ["Serge Ceptor", "Muy Schillato",
...         "Dime N'Shons", "Wally Block", "Never Tired", "Reley Baton", "Joy Kill"],
...         "lineup": {"PG": "Serge Ceptor", "SG": "Muy Schillato", "SF": "Dime N'Shons",
...                    "PF": "Wally Block", "C": "Never Tired"}}
>>> new, words = side_without(side, ("Wally Block",))
>>> new["lineup"]["PF"], words
('Lance Endure', 'Lance Endure for Wally Block')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import CompanionError
from companion.games.valley_hoopers.model import POSITIONS
from companion.games.valley_hoopers.rosters import shipped_roster


def entry_name(entry: Any) -> str | None:
    name = entry if isinstance(entry, str) else entry.get("name") if isinstance(entry, Mapping) else None
    return name.strip() if isinstance(name, str) else None


def _positions(entry: Any, roster_name: str | None) -> tuple[str | None, str | None]:
    first = second = None
    name = entry_name(entry)
    if roster_name is not None and name is not None:
        try:
            card = shipped_roster(roster_name).hooper(name)
            first, second = card.first_position, card.second_position
        except CompanionError:
            pass
    if isinstance(entry, Mapping):
        first = entry.get("first_position", first)
        second = entry.get("second_position", second)
    return first, second


def _reserves(raw_side: Mapping[str, Any], seven: list[str]) -> list[Any]:
    roster_name = raw_side.get("roster")
    pool: list[Any] = list(raw_side.get("reserves") or [])
    if isinstance(roster_name, str):  # a shipped roster: the setup has checked its name
        pool += [h.name for h in shipped_roster(roster_name).hoopers]
    taken = {n.lower() for n in seven}
    out, seen = [], set()
    for entry in pool:
        name = entry_name(entry)
        if name is None or name.lower() in taken or name.lower() in seen or name.lower() == "susan peg":
            continue
        seen.add(name.lower())
        out.append(entry)
    return out


def side_without(raw_side: Mapping[str, Any], leaving: tuple[str, ...]) -> tuple[dict[str, Any], str] | None:
    """``raw_side`` with ``leaving`` replaced from the tribe's other hoopers, and the words for it."""
    gone = {n.lower() for n in leaving}
    hoopers = list(raw_side.get("hoopers") or [])
    seven = [e for e in hoopers if (entry_name(e) or "").lower() not in gone]
    reserves = [e for e in _reserves(raw_side, [entry_name(e) or "" for e in hoopers])
                if (entry_name(e) or "").lower() not in gone]
    lineup = {p: n for p, n in dict(raw_side.get("lineup") or {}).items() if str(n).lower() not in gone}
    roster_name = raw_side.get("roster") if isinstance(raw_side.get("roster"), str) else None
    added: list[str] = []
    for position in POSITIONS:
        if position in lineup:
            continue
        # A vacated spot: a benchwarmer of the seven, else a reserve, who can start there.
        bench = [e for e in seven if entry_name(e) not in lineup.values()]
        fits = [e for e in bench + reserves if position in _positions(e, roster_name)]
        if not fits:
            return None
        chosen = fits[0]
        if chosen in reserves:
            reserves.remove(chosen)
            seven.append(chosen)
            added.append(entry_name(chosen) or "")
        lineup[position] = entry_name(chosen) or ""
    while len(seven) < 7 and reserves:
        chosen = reserves.pop(0)
        seven.append(chosen)
        added.append(entry_name(chosen) or "")
    if len(seven) != 7:
        return None
    words = ", ".join(added) + " for " + ", ".join(leaving)
    # Who sits this game out is back among the reserves for the games after it.
    out = [e for e in hoopers if (entry_name(e) or "").lower() in gone]
    unused = [e for e in raw_side.get("reserves") or [] if entry_name(e) not in added]
    return {**raw_side, "hoopers": seven, "lineup": lineup, "reserves": unused + out}, words
