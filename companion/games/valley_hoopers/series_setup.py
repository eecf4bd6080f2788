"""The Series: setting up the series and each of its games (Home/Away, the carry-over, the track).

"The player sets three hooper's Position token of his/her choice on the first step of the hot zone"
(Home), two "on the first step of the cold zone" (Away); "The tribe starts the game with 9 coach
action token" (Home); injured hoopers "will start the next game with two injured cube", and an
ejected hooper misses the very next game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers import setup_options
from companion.games.valley_hoopers.model import FLAT, POSITIONS, SeriesGame, State, other
from companion.games.valley_hoopers.series_game import CONDITIONS
from companion.games.valley_hoopers.series_state import (
    SUSAN_PEG,
    GameResult,
    SeriesState,
    home_side,
    hooper_names,
    susan_peg_side,
)
from companion.games.valley_hoopers.series_upgrades import sleeve

# Defaults when the table names none of Home's hot and Away's cold Position tokens.
DEFAULT_HOT = ("PG", "SG", "SF")
DEFAULT_COLD = ("PF", "C")


def _positions(raw: Any, default: tuple[str, ...], count: int, what: str) -> tuple[str, ...]:
    if raw is None:
        return default
    if not isinstance(raw, list | tuple) or len(raw) != count or len(set(raw)) != count:
        raise CommandError(f"{what} names {count} different positions of the starting five")
    for position in raw:
        if position not in POSITIONS:
            raise CommandError(f"{what}: {position!r} is not one of {', '.join(POSITIONS)}")
    return tuple(raw)


def _check_condition(raw: Any) -> str:
    if raw not in CONDITIONS:
        raise CommandError("condition is the marker drawn for the Series track: one of "
                           f"{', '.join(CONDITIONS)}")
    return str(raw)


def start_game(base: SeriesState | None, number: int, first_home: int, sides_raw: tuple[Any, Any],
               options: Mapping[str, Any], blanks: int, track_steps: int, chip_stock: tuple[int, int],
               wins: tuple[int, int] = (0, 0), previous: GameResult | None = None,
               sleeves: tuple[Any, Any] = (None, None),
               held: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
               decks: tuple[Any, Any] = ({}, {}), action_cards: Any = None) -> State:
    """Set up game ``number``: the Classic setup, then Home/Away, the carry-over and the Series track."""
    home = home_side(number, first_home)
    condition = _check_condition(options.get("condition"))
    hot = _positions(options.get("hot"), DEFAULT_HOT, 3, "hot (Home's three Position tokens)")
    cold = _positions(options.get("cold"), DEFAULT_COLD, 2, "cold (Away's two Position tokens)")
    susan = susan_peg_side(wins, number)
    for side, raw in enumerate(sides_raw):
        if isinstance(raw, Mapping) and not isinstance(raw.get("reserves", []), list):
            raise CommandError(f"sides[{side}].reserves must list the tribe's other hooper cards")
        names = hooper_names(raw)
        if any(n.lower() == SUSAN_PEG for n in names) and susan != side:
            raise RuleError(f"Susan Peg can't play game {number} for side {side}: she joins only the side "
                            "whose opponent can win the series with this game (before game 7)")
        if previous is not None:
            missing = [n for n in previous.ejected[side] if n.lower() in {m.lower() for m in names}]
            if missing:
                raise RuleError(f"{missing[0]} was ejected in game {previous.number}: "
                                "an ejected hooper misses the very next game")
    first = options.get("first_attacker", home)
    # ``series_game`` tells the game which gameplan list it plays (gameplans.py, when present).
    # "upgrade your deck by sleeving onto it only your six counter action cards": no action upgrade
    # card until one is earned; ``decks`` holds what each side sleeves (series_upgrades.check_deck).
    sides = [{**raw, "action_upgrades": [], "position_upgrades": [], **decks[i]} if isinstance(raw, Mapping)
             else raw for i, raw in enumerate(sides_raw)]
    state = setup_options.setup({"variant": "classic", "foul_die_blanks": blanks, "first_attacker": first,
                                 "sides": sides, "series_game": number, "action_upgrade_cards": action_cards})
    if base is not None and (state.sides[0].name, state.sides[1].name) != base.names:
        raise RuleError(f"the series is played by {base.names[0]} and {base.names[1]} to the end")
    for side in (0, 1):
        if sleeves[side]:
            state = sleeve(state, side, sleeves[side], held[side])
    # "The tribe starts the game with 9 coach action token" (one of them locked on the playbook).
    team = state.side(home)
    state = state.with_side(home, replace(team, coach_tokens=team.coach_tokens + 1))
    for side, positions, step in ((home, hot, +1), (other(home), cold, -1)):
        for position in positions:
            hooper = state.side(side).at(position)
            if hooper is not None:
                state = state.with_hooper(side, replace(hooper, onfire=FLAT + step))
    if previous is not None:
        for side in (0, 1):
            for name in previous.injured[side]:
                found = [h for h in state.side(side).hoopers if h.name.lower() == name.lower()]
                if found:  # "they will start the next game with two injured cube"
                    state = state.with_hooper(side, replace(found[0], white=2))
    starter = state.first_attacker
    words = f"Game {number}: {state.side(home).name} at Home, {state.side(starter).name} attacks first"
    game = SeriesGame(number=number, home=home, condition=condition, track_steps=track_steps, track_face=home,
                      chips_lv1=chip_stock[0], chips_lv2=chip_stock[1])
    return replace(state, series=game, message=words)


def _int_option(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CommandError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def setup_series(options: Mapping[str, Any]) -> SeriesState:
    """The series and its game 1 from setup options (docs/commands.md, The Series)."""
    first_home = options.get("home", 0)
    if first_home not in (0, 1) or isinstance(first_home, bool):
        raise CommandError(f"home must be 0 or 1 (the tribe drawn HOME for game 1), not {first_home!r}")
    blanks = options.get("foul_die_blanks", 3)
    track_steps = _int_option(options, "track_steps", 2, 1, 5)
    stock = (_int_option(options, "chips_lv1", 14, 0, 14), _int_option(options, "chips_lv2", 8, 0, 8))
    sides = options.get("sides")
    if not isinstance(sides, list | tuple) or len(sides) != 2:
        raise CommandError("sides must list exactly two sides")
    sides_raw = (sides[0], sides[1])
    cards = options.get("action_upgrade_cards")
    game = start_game(None, 1, first_home, sides_raw, options, blanks, track_steps, stock, action_cards=cards)
    return SeriesState(first_home=first_home, foul_die_blanks=blanks, track_steps=track_steps,
                       chip_stock=stock, side_options=sides_raw, game=game, message=game.message,
                       action_cards=cards)
