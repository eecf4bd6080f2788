"""Setting up a game from options: two teams (a shipped DEMO roster or cards entered by the
table), starting lineups, who rolls first, the rule switches and the rebound track's points.

>>> state = setup(example_options())
>>> state.teams[0].previous[0], state.teams[1].hand, state.stage
('Demo Dasher', 7, 'placement')
>>> setup({**example_options(), "quick_play": True}).stage
'choose'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from companion.errors import CommandError, RuleError
from companion.games.nba_showdown.cards import POSITIONS, Card, form_data, parse_card
from companion.games.nba_showdown.model import STARTING_HAND, Rules, State, Team
from companion.games.nba_showdown.quarters import start_quarter
from companion.games.nba_showdown.rosters import (
    DECK_SIZE,
    Roster,
    check_team,
    parse_deck,
    parse_roster,
    shipped_roster,
)

# DEMO default, not the printed playmat: enter your playmat's numbers as rebound_points.
DEFAULT_REBOUND_POINTS = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
RULE_NAMES = tuple(f.name for f in fields(Rules))


def example_options() -> dict[str, Any]:
    """The two DEMO teams with every rule on: what a new table can start from."""
    return {"teams": [{"roster": "demo-comets", "name": "DEMO Comets"},
                      {"roster": "demo-lanterns", "name": "DEMO Lanterns"}], "first": 0}


def _picked(roster: Roster, players: object, who: str) -> Roster:
    """The players a table picked from a shipped roster: names, or the card form's entries (only
    the fields typed in) laid over the roster's card."""
    if not isinstance(players, list) or not players:
        raise CommandError(f"{who}: players must list the roster's players picked, by name")
    cards = []
    for entry in players:
        if isinstance(entry, str):
            cards.append(roster.card(entry))
        elif isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
            printed = form_data(roster.card(entry["name"]))
            chart = {**printed["chart"], **entry["chart"]} if isinstance(entry.get("chart"), Mapping) \
                else entry.get("chart", printed["chart"])
            cards.append(parse_card({**printed, **entry, "chart": chart}))
        else:
            raise CommandError(f"{who}: a picked player is a name or a card, not {entry!r}")
    return Roster(team=roster.team, cards=tuple(cards), deck=roster.deck, demo=roster.demo)


def _roster(raw: Mapping[str, Any], who: str) -> Roster:
    if raw.get("roster") is not None:
        if not isinstance(raw["roster"], str):
            raise CommandError(f"{who}: roster must be a shipped roster name, not {raw['roster']!r}")
        roster = shipped_roster(raw["roster"])
        if raw.get("deck") is not None:
            raise CommandError(f"{who}: a shipped roster brings its deck list: give roster or deck, not both")
        if raw.get("players") is not None:
            roster = _picked(roster, raw["players"], who)
    else:
        roster = parse_roster({"team": raw.get("name"), "players": raw.get("players"),
                               "deck": raw.get("deck")}, source=who)
    name = raw.get("name") or roster.team  # a name left blank (the kiosk's form): the roster's
    if not isinstance(name, str) or not name.strip():
        raise CommandError(f"{who}: name must be the team's name, not {name!r}")
    return Roster(team=name.strip(), cards=roster.cards, deck=roster.deck, demo=roster.demo)


def auto_lineup(cards: tuple[Card, ...]) -> tuple[str | None, ...] | None:
    """The first placement (roster order) that puts a player who can play it on every position."""
    def place(index: int, taken: tuple[str, ...]) -> tuple[str, ...] | None:
        if index == len(POSITIONS):
            return taken
        for card in cards:
            if POSITIONS[index] in card.positions and card.name not in taken:
                found = place(index + 1, (*taken, card.name))
                if found:
                    return found
        return None

    return place(0, ())


def _lineup(raw: object, roster: Roster, who: str) -> tuple[str | None, ...]:
    if raw is None or raw == {}:  # no lineup (or none picked on the kiosk): the first who fit
        lineup = auto_lineup(roster.cards)
        if lineup is None:
            raise RuleError(f"{who}: no five of these players can fill PG, SG, SF, PF and C")
        return lineup
    if not isinstance(raw, Mapping) or set(k.upper() for k in raw) != set(POSITIONS):
        raise CommandError(f"{who}: lineup names one player per position, like "
                           f"{{\"PG\": ..., \"SG\": ..., \"SF\": ..., \"PF\": ..., \"C\": ...}}")
    by_position = {k.upper(): v for k, v in raw.items()}
    lineup = []
    for position in POSITIONS:
        name = by_position[position]
        if not isinstance(name, str):
            raise CommandError(f"{who}: lineup {position} must be a player's name, not {name!r}")
        card = roster.card(name)
        if position not in card.positions:
            raise RuleError(f"{who}: {card.name} can't play {position} (a player can only play a position "
                            f"his card says he can: {', '.join(card.positions)})")
        if card.name in lineup:
            raise RuleError(f"{who}: {card.name} is in the lineup twice")
        lineup.append(card.name)
    return tuple(lineup)


def _rules(options: Mapping[str, Any]) -> Rules:
    quick = options.get("quick_play", False)
    if not isinstance(quick, bool):
        raise CommandError(f"quick_play must be true or false, not {quick!r}")
    raw = options.get("rules", {})
    if not isinstance(raw, Mapping):
        raise CommandError(f"rules switches rules on or off, like {{\"hot_cold\": false}}; known: "
                           f"{', '.join(RULE_NAMES)}")
    base = Rules.quick_play() if quick else Rules()
    chosen = base.to_json()
    # A switch may also stand on its own (the setup form's fields); null leaves it to quick_play.
    flat = {k: options[k] for k in RULE_NAMES if options.get(k) is not None}
    for key, value in {**flat, **raw}.items():
        if key not in RULE_NAMES:
            raise CommandError(f"rules has no switch {key!r} (known: {', '.join(RULE_NAMES)})")
        if not isinstance(value, bool):
            raise CommandError(f"rules.{key} must be true or false, not {value!r}")
        chosen[key] = value
    return Rules(**chosen)


def _rebound_points(raw: object) -> tuple[int, ...]:
    if raw is None or raw == "":
        return DEFAULT_REBOUND_POINTS
    if isinstance(raw, str):  # as the setup form types it: "1 1 2 2 3 3 4 4 5 5"
        words = raw.replace(",", " ").split()
        raw = [int(w) if w.isdigit() else w for w in words]
    if (not isinstance(raw, list) or not raw
            or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 20 for p in raw)):
        raise CommandError("rebound_points lists the points of each space of the Rebound Track, from the "
                           f"one next to the centre outwards (whole numbers 0 to 20), not {raw!r}")
    return tuple(raw)


def setup(options: Mapping[str, Any]) -> State:
    """A new game from options; every refusal names the field (or the team-building rule)."""
    known = {"teams", "first", "quick_play", "rules", "rebound_points", "team_check", *RULE_NAMES}
    unknown = sorted(set(options) - known)
    if unknown:
        raise CommandError(f"NBA Showdown setup has no option {unknown[0]!r} "
                           f"(known: {', '.join(sorted(known))})")
    teams_raw = options.get("teams", example_options()["teams"])
    if not isinstance(teams_raw, list) or len(teams_raw) != 2:
        raise CommandError("teams must list the two teams, like [{\"roster\": \"demo-comets\"}, ...]")
    first = options.get("first", 0)
    if first not in (0, 1) or isinstance(first, bool):
        raise CommandError(f"first must be 0 or 1 (who won the roll to go first), not {first!r}")
    team_check = options.get("team_check", True)
    if not isinstance(team_check, bool):
        raise CommandError(f"team_check must be true or false, not {team_check!r}")
    rules = _rules(options)
    teams = []
    for index, raw in enumerate(teams_raw):
        who = f"teams[{index}]"
        if not isinstance(raw, Mapping):
            raise CommandError(f"{who} must be an object with a roster or players")
        unknown = sorted(set(raw) - {"roster", "name", "players", "deck", "lineup"})
        if unknown:
            raise CommandError(f"{who} has no field {unknown[0]!r} (roster, name, players, deck, lineup)")
        roster = _roster(raw, who)
        if team_check:
            check_team(roster, deck_needed=rules.strategy)
        deck = parse_deck(dict(roster.deck), who) if roster.deck else ()
        deck_size = sum(c for _, c in deck) if deck else DECK_SIZE
        hand = min(STARTING_HAND, deck_size) if rules.strategy else 0
        lineup = _lineup(raw.get("lineup"), roster, who)
        teams.append(Team(name=roster.team, cards=roster.cards, lineup=lineup,
                          deck=deck, hand=hand, deck_left=deck_size - hand if rules.strategy else 0))
    if teams[0].name == teams[1].name:
        raise CommandError(f"both teams are called {teams[0].name!r}: give one a name")
    state = State(rules=rules, teams=(teams[0], teams[1]),
                  rebound_points=_rebound_points(options.get("rebound_points")),
                  stage="choose", first_side=int(first), acting=int(first))
    return start_quarter(state)
