"""Teams of NBA Showdown cards kept as TOML (or JSON) rosters, the team-building check, and the
shipped DEMO rosters (invented cards, never official ones).

A roster file holds ``team``, ``[[players]]`` (cards, see ``cards.parse_card``) and a ``[deck]``
table of strategy card names to copies.

>>> comets = shipped_roster("demo-comets")
>>> comets.demo, len(comets.cards), sum(dict(comets.deck).values())
(True, 8, 40)
>>> check_team(comets)
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CommandError, RuleError
from companion.games.nba_showdown.cards import POSITIONS, Card, parse_card

ROSTER_DIR = Path(__file__).with_name("rosters")
SHIPPED = {"demo-comets": "demo-comets.toml", "demo-lanterns": "demo-lanterns.toml"}
MAX_PLAYERS = 12
MAX_TEAM_POINTS = 5000
MAX_TOP_FIVE_POINTS = 4000
DECK_SIZE = 40
MAX_COPIES = 4


@dataclass(frozen=True)
class Roster:
    """A team's player cards and strategy deck list, as entered."""

    team: str
    cards: tuple[Card, ...]
    deck: tuple[tuple[str, int], ...] = ()
    demo: bool = False

    def card(self, name: str) -> Card:
        for card in self.cards:
            if card.name.lower() == name.strip().lower():
                return card
        raise CommandError(f"{self.team} has no player called {name!r} "
                           f"(players: {', '.join(c.name for c in self.cards)})")


def parse_deck(raw: object, who: str) -> tuple[tuple[str, int], ...]:
    """A strategy deck list: ``{"Card name": copies}``; an empty list means "not listed"."""
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise CommandError(f"{who}: deck maps strategy card names to copies, like {{\"Fast Break\": 4}}")
    deck = []
    for name, copies in raw.items():
        if not isinstance(name, str) or not name.strip():
            raise CommandError(f"{who}: a strategy card needs a name, not {name!r}")
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise CommandError(f"{who}: deck copies of {name!r} must be a whole number from 1, "
                               f"not {copies!r}")
        deck.append((name.strip(), copies))
    return tuple(deck)


def parse_roster(raw: Mapping[str, Any], source: str = "roster") -> Roster:
    """A roster from a mapping: ``{"team": ..., "players": [cards], "deck": {name: copies}}``."""
    if not isinstance(raw, Mapping):
        raise CommandError(f"{source}: a roster is an object with team and players")
    team = raw.get("team")
    if not isinstance(team, str) or not team.strip():
        raise CommandError(f"{source}: team must be the team's name, not {team!r}")
    unknown = sorted(set(raw) - {"team", "players", "deck", "demo", "note"})
    if unknown:
        raise CommandError(f"{source}: unknown field {unknown[0]!r} (team, players, deck, demo, note)")
    players = raw.get("players")
    if not isinstance(players, list) or not players:
        raise CommandError(f"{source}: players must be a non-empty list of cards")
    cards = tuple(parse_card(p) for p in players)
    return Roster(team=team.strip(), cards=cards, deck=parse_deck(raw.get("deck"), source),
                  demo=raw.get("demo") is True)


def check_team(roster: Roster, deck_needed: bool = True) -> None:
    """The "Building Your Own Team" check; a refusal names the rule it breaks.

    ``deck_needed`` is off when strategy cards are not played (the deck is then not part of the game).
    """
    team = roster.team
    rule = "Building Your Own Team"
    names = [c.name.lower() for c in roster.cards]
    dupes = sorted({c.name for c in roster.cards if names.count(c.name.lower()) > 1})
    if dupes:
        raise RuleError(f"{team}: {dupes[0]} is on the team twice "
                        f"({rule}: no more than 1 copy of any player)")
    if len(roster.cards) > MAX_PLAYERS:
        raise RuleError(f"{team}: {len(roster.cards)} players ({rule}: at most {MAX_PLAYERS} players total)")
    missing = [p for p in POSITIONS if not any(p in c.positions for c in roster.cards)]
    if missing:
        raise RuleError(f"{team}: nobody can play {', '.join(missing)} "
                        f"({rule}: at least 1 player who can play at each position)")
    total = sum(c.point_value for c in roster.cards)
    if total > MAX_TEAM_POINTS:
        raise RuleError(f"{team}: the players total {total:,} points "
                        f"({rule}: a total player point value of {MAX_TEAM_POINTS:,} or less)")
    top = sorted(roster.cards, key=lambda c: c.point_value, reverse=True)[:5]
    top_total = sum(c.point_value for c in top)
    if top_total > MAX_TOP_FIVE_POINTS:
        raise RuleError(f"{team}: the 5 most expensive players ({', '.join(c.name for c in top)}) cost "
                        f"{top_total:,} ({rule}: the 5 most expensive players cost no more than "
                        f"{MAX_TOP_FIVE_POINTS:,} points)")
    if not deck_needed:
        return
    size = sum(copies for _, copies in roster.deck)
    if size != DECK_SIZE:
        raise RuleError(f"{team}: the strategy deck has {size} cards ({rule}: a deck of {DECK_SIZE} "
                        f"strategy cards)")
    over = [name for name, copies in roster.deck if copies > MAX_COPIES]
    if over:
        copies = dict(roster.deck)[over[0]]
        raise RuleError(f"{team}: {copies} copies of {over[0]} in the deck ({rule}: no more than "
                        f"{MAX_COPIES} copies of any one card)")


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
    """A roster that comes with the companion: only the DEMO teams (invented cards)."""
    key = name.strip().lower()
    if key not in SHIPPED:
        raise CommandError(f"no shipped NBA Showdown roster called {name!r} (shipped: {', '.join(SHIPPED)})")
    return load_roster(ROSTER_DIR / SHIPPED[key])
