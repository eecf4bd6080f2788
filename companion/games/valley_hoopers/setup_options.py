"""Setting up a match from options: variant, foul die, who attacks first, two sides of seven.

>>> state = setup(example_options())
>>> state.sides[0].at("SG").name, state.sides[1].coach_tokens, state.sides[1].timeouts
('Muy Schillato', 7, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import CommandError, RuleError
from companion.frozen import replace
from companion.games.valley_hoopers.dice import foul_die
from companion.games.valley_hoopers.gameplan_tally import start_book
from companion.games.valley_hoopers.gameplans import check_series_game
from companion.games.valley_hoopers.model import POSITIONS, Hooper, Pending, Side, State, Turn
from companion.games.valley_hoopers.rosters import TRIBES, parse_hooper, shipped_roster
from companion.games.valley_hoopers.upgrade_cards import POSITION_KIT, catalogue, pick_cards, tribe_cards

VARIANTS = ("classic", "fast", "friendly", "draft")  # draft: a Classic game without milestones
TRIBE_PLAYBOOKS = {"keepers": "High Post", "unleashed": "Pick 'N' Stay", "custom": "personal playbook"}


def _merge(card: Hooper, override: Mapping[str, Any]) -> Mapping[str, Any]:
    """A roster card with the fields a side entered on top (stats merge one by one)."""
    base: dict[str, Any] = {
        "name": card.name,
        "pronoun": card.pronoun,
        "first_position": card.first_position,
        "second_position": card.second_position,
        "stellar": card.stellar,
        "upgraded": card.upgraded,
        "energy": card.base_energy,
        "skill": card.skill,
        "defense_positions": list(card.defense_positions) if card.defense_positions else None,
        "stats": dict(card.stats),
    }
    for key, value in override.items():
        if key == "stats" and isinstance(value, Mapping):
            base["stats"] = {**base["stats"], **value}
        else:
            base[key] = value
    return base


def _side_hoopers(raw: Mapping[str, Any], who: str) -> tuple[str, tuple[Hooper, ...]]:
    roster_name = raw.get("roster")
    chosen = raw.get("hoopers")
    if roster_name is None:
        tribe = raw.get("tribe", "custom")
        if tribe not in TRIBES:
            raise CommandError(f"{who}: tribe must be one of {', '.join(TRIBES)}, not {tribe!r}")
        if not isinstance(chosen, list):
            raise CommandError(f"{who}: hoopers must be a list of seven hooper cards")
        return tribe, tuple(parse_hooper(h) for h in chosen)
    if not isinstance(roster_name, str):
        raise CommandError(f"{who}: roster must be a shipped roster name, not {roster_name!r}")
    roster = shipped_roster(roster_name)
    extra = shipped_roster("susan-peg")
    if not isinstance(chosen, list):
        raise CommandError(
            f"{who}: pick seven of the {roster.tribe} hoopers in hoopers "
            f"({', '.join(h.name for h in roster.hoopers)})"
        )
    hoopers = []
    for entry in chosen:
        name = entry if isinstance(entry, str) else entry.get("name") if isinstance(entry, Mapping) else None
        if not isinstance(name, str):
            raise CommandError(f"{who}: each hooper is a roster name or a card object, not {entry!r}")
        pool = extra if name.strip().lower() == "susan peg" else roster
        card = pool.hooper(name)
        hoopers.append(parse_hooper(_merge(card, entry if isinstance(entry, Mapping) else {})))
    return roster.tribe, tuple(hoopers)


def _side(raw: object, index: int, variant: str) -> Side:
    if not isinstance(raw, Mapping):
        raise CommandError(f"sides[{index}] must be an object with name, hoopers and lineup")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CommandError(f"sides[{index}].name must be the player's name")
    name = name.strip()
    tribe, hoopers = _side_hoopers(raw, name)
    if len(hoopers) != 7:
        raise RuleError(f"{name} must bring seven hoopers to the match, not {len(hoopers)}")
    names = [h.name.lower() for h in hoopers]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise RuleError(f"{name} lists the hooper {dupes[0]!r} twice")
    lineup = raw.get("lineup")
    if not isinstance(lineup, Mapping) or sorted(lineup) != sorted(POSITIONS):
        raise CommandError(f"{name}: lineup must name one hooper for each of {', '.join(POSITIONS)}")
    by_name = {h.name.lower(): h for h in hoopers}
    placed: dict[str, str] = {}
    for position in POSITIONS:
        who = lineup[position]
        if not isinstance(who, str) or who.strip().lower() not in by_name:
            raise RuleError(
                f"{name}'s lineup puts {who!r} at {position}, but that hooper is not in the seven"
            )
        hooper = by_name[who.strip().lower()]
        if hooper.name in placed.values():
            raise RuleError(f"{name}'s lineup puts {hooper.name} on two positions")
        if position not in (hooper.first_position, hooper.second_position):
            shown = "/".join(p for p in (hooper.first_position, hooper.second_position) if p) or "not entered"
            raise RuleError(
                f"{hooper.name} can't start at {position}: at the start of the game a hooper's "
                f"first or second position must match the Position token ({shown})"
            )
        placed[position] = hooper.name
    court = {v: k for k, v in placed.items()}
    hoopers = tuple(replace(h, court=court.get(h.name)) for h in hoopers)
    tokens = 4 if variant == "fast" else 8
    playbook = raw.get("playbook") or TRIBE_PLAYBOOKS.get(tribe, "personal playbook")
    # The starting playbook has one of the coach action tokens locked on it.
    return Side(
        name=name,
        tribe=tribe,
        hoopers=hoopers,
        coach_tokens=tokens - 1,
        timeouts=1 if variant == "fast" else 3,
        playbooks=(str(playbook),),
    )


def _with_upgrade_cards(side: Side, raw: Any, cards: Mapping[str, Any], variant: str) -> Side:
    """The action upgrade cards sleeved in the side's deck (default in a one-off game: "All the four
    action upgrade cards of your tribe") and its position upgrade cards."""
    raw = raw if isinstance(raw, Mapping) else {}
    names = raw.get("action_upgrades")
    if names is None:
        names = list(tribe_cards(side.tribe)) if variant in ("classic", "fast", "friendly") else []
    action = pick_cards(names, cards, f"{side.name}: action_upgrades")
    positions = raw.get("position_upgrades") or []
    if not isinstance(positions, list) or any(p not in POSITIONS for p in positions):
        raise CommandError(f"{side.name}: position_upgrades lists positions ({', '.join(POSITIONS)})")
    for position in POSITIONS:
        if positions.count(position) > POSITION_KIT:
            raise RuleError(f"{side.name}'s upgrade kit has {POSITION_KIT} {position} position upgrades")
    return replace(side, action_upgrades=action, position_upgrades=tuple(positions))


def opening_roll_winner(field: str, raw: object) -> int:
    """The side that attacks first: "Each player rolls the d20 die. The one who gets the highest value
    starts" (the table says who won; also each next game of The Series, ``next_game``).

    >>> opening_roll_winner("first_attacker", 1)
    1
    """
    if isinstance(raw, bool) or raw not in (0, 1):
        raise CommandError(f"{field} must be 0 or 1 (the winner of the opening d20 roll), not {raw!r}")
    return 1 if raw == 1 else 0


def setup(options: Mapping[str, Any]) -> State:
    """Build the opening state from setup options (see docs/commands.md for the full shape)."""
    if not isinstance(options, Mapping):
        raise CommandError("setup options must be an object")
    variant = options.get("variant", "classic")
    if variant not in VARIANTS:
        raise CommandError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    blanks = options.get("foul_die_blanks", 3)
    if isinstance(blanks, bool) or not isinstance(blanks, int):
        raise CommandError(f"foul_die_blanks must be a whole number, not {blanks!r}")
    foul_die(blanks)
    first = opening_roll_winner("first_attacker", options.get("first_attacker", 0))
    sides_raw = options.get("sides")
    if not isinstance(sides_raw, list | tuple) or len(sides_raw) != 2:
        raise CommandError("sides must list exactly two sides")
    cards = catalogue(options.get("action_upgrade_cards"))
    sides = tuple(_with_upgrade_cards(_side(sides_raw[i], i, variant), sides_raw[i], cards, variant)
                  for i in (0, 1))
    all_names = [h.name.lower() for s in sides for h in s.hoopers]
    clash = sorted({n for n in all_names if all_names.count(n) > 1})
    if clash:
        raise RuleError(f"the hooper {clash[0]!r} can't play for both sides")
    if sides[0].name.lower() == sides[1].name.lower():
        raise RuleError("the two sides need different names")
    state = State(
        variant=variant,
        foul_die_blanks=blanks,
        first_attacker=first,
        sides=sides,
        turn=Turn(attacker=first),
        pending=Pending(kind="play", side=first),
        free_substitutions=(False, False),
        message=f"{sides[first].name} attacks first",
    )
    if options.get("series_game") is not None:
        state = replace(state, gameplans=start_book(state, check_series_game(options["series_game"])))
    return state


def example_options() -> dict[str, Any]:
    """Setup options with the shipped rosters, as in the rulebook's gameplay example."""
    return {
        "variant": "classic",
        "foul_die_blanks": 3,
        "first_attacker": 0,
        "sides": [
            {
                "name": "Lucy",
                "roster": "unleashed",
                "hoopers": [
                    "Serge Ceptor",
                    "Muy Schillato",
                    "Dime N'Shons",
                    "Wally Block",
                    "Never Tired",
                    "Reley Baton",
                    "Joy Kill",
                ],
                "lineup": {
                    "PG": "Serge Ceptor",
                    "SG": "Muy Schillato",
                    "SF": "Dime N'Shons",
                    "PF": "Wally Block",
                    "C": "Never Tired",
                },
            },
            {
                "name": "Karl",
                "roster": "keepers",
                "hoopers": [
                    "May Friend",
                    "Chus Kinder",
                    "Edd Trapp",
                    "Hector Prot",
                    "Perry Hel",
                    "Linda Siempre",
                    "Manny Gentle",
                ],
                "lineup": {
                    "PG": "May Friend",
                    "SG": "Chus Kinder",
                    "SF": "Edd Trapp",
                    "PF": "Hector Prot",
                    "C": "Perry Hel",
                },
            },
        ],
    }
