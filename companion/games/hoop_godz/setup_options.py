"""Hoop Godz's setup options: the players, the mode, the first pick, the table's own data (cards,
ballers, the juice bar, the BALL faces of a die), the B-Ball 4 All variant, and squads already drafted.

>>> state = setup({"mode": "pro", "sides": [{"name": "Hana"}, {"name": "Ravi"}]})
>>> state.names, state.win_at, state.clock
(('Hana', 'Ravi'), 10, 15)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import CommandError
from companion.games.hoop_godz.cards import parse_ballers, parse_cards
from companion.games.hoop_godz.model import DEFAULT_BAR, MODES, BarLayout, BarSpace, Ledger, Player, State


def _bar_option(raw: object) -> BarLayout:
    if raw is None:
        return DEFAULT_BAR
    if not isinstance(raw, Mapping) or not isinstance(raw.get("spaces"), list):
        raise CommandError('juice_bar is {"spaces": ["pass", "yellow", ..., "red"], "rest_line": n}')
    spaces: list[BarSpace] = []
    for n, space in enumerate(raw["spaces"], 1):
        if space not in ("pass", "yellow", "red"):
            raise CommandError(f"juice_bar space {n} is pass, yellow or red, not {space!r}")
        spaces.append(BarSpace("yellow" if space == "pass" else space, pass_only=space == "pass"))
    rest = raw.get("rest_line")
    if isinstance(rest, bool) or not isinstance(rest, int) or not 1 <= rest <= len(spaces):
        raise CommandError(
            f"juice_bar rest_line is how many spaces lie left of the Rest line (1 to "
            f"{len(spaces)}), not {rest!r}"
        )
    if sum(s.pass_only for s in spaces) > 1 or not any(not s.pass_only for s in spaces):
        raise CommandError("juice_bar has at most one pass space and at least one other space")
    return BarLayout(tuple(spaces), rest)


def setup(options: Mapping[str, Any]) -> State:
    """Two players (``names``), ``mode`` standard or pro, and the table's own cards and ballers."""
    known = {"names", "sides", "mode", "first_pick", "ballers", "cards", "juice_bar", "ball_faces",
             "b_ball_4_all", "squads"}
    unknown = set(options) - known
    if unknown:
        raise CommandError(
            f"Hoop Godz has no setup option {sorted(unknown)[0]!r}; it knows " f"{', '.join(sorted(known))}"
        )
    names = options.get("names", ["Home", "Away"])
    sides = options.get("sides")
    if sides is not None:  # the kiosk's setup form: one object per side
        if "names" in options:
            raise CommandError("give the players' names once: names or sides, not both")
        if not isinstance(sides, list) or not all(isinstance(s, Mapping) and set(s) <= {"name"}
                                                  for s in sides):
            raise CommandError('sides is [{"name": "Home"}, {"name": "Away"}]: each player\'s name')
        names = [s.get("name") for s in sides]
    if not (
        isinstance(names, list)
        and len(names) == 2
        and all(isinstance(n, str) and n.strip() for n in names)
        and names[0].strip() != names[1].strip()
    ):
        raise CommandError('names must be the two players\' different names, e.g. ["Home", "Away"]')
    mode = options.get("mode", "standard")
    if mode not in MODES:
        raise CommandError(
            f"mode is standard (7 points, 10 clock tokens) or pro (10 points, 15), not {mode!r}"
        )
    first = options.get("first_pick", 0)
    if first not in (0, 1) or isinstance(first, bool):
        raise CommandError("first_pick is 0 or 1: the player who most recently played basketball")
    faces = options.get("ball_faces")
    if faces is not None and (isinstance(faces, bool) or not isinstance(faces, int) or not 0 <= faces <= 6):
        raise CommandError(
            f"ball_faces is how many of a die's 6 faces show a BALL icon (0 to 6), not {faces!r}"
        )
    bar = _bar_option(options.get("juice_bar"))
    tempo = options.get("b_ball_4_all", False)
    if not isinstance(tempo, bool):
        raise CommandError(f"b_ball_4_all is true (both roll together to the app's beat) or false, "
                           f"not {tempo!r}")
    win_at, clock = MODES[mode]
    # "Each player places 6 Juice Tokens into the Available Juice Box and 4 ... into the Yellow".
    ledger = Ledger(6, 4, 0, (None,) * len(bar.spaces))
    players = (Player(names[0].strip()[:16], ledger=ledger), Player(names[1].strip()[:16], ledger=ledger))
    state = State(
        mode,
        players,
        bar,
        clock,
        win_at,
        pool=parse_ballers(options.get("ballers")),
        first_pick=first,
        ball_faces=faces,
        cards=tuple(parse_cards(options.get("cards")).values()),
        b_ball_4_all=tempo,
    )
    squads = options.get("squads")
    return state if squads is None else drafted(state, squads)


def drafted(state: State, squads: object) -> State:
    """The ``squads`` setup option: each player's three ballers, drafted before the app took the table
    (or the demo's): the game starts at the tip-off, the ballers nobody drafted are out of the game.

    >>> after = setup({"squads": [["Demo Zip", "Demo Swing", "Demo Tower"],
    ...                           ["Demo Flash", "Demo Arc", "Demo Wall"]]})
    >>> after.phase, [b.name for b in after.player(1).squad], after.pool
    ('tip_off', ['Demo Flash', 'Demo Arc', 'Demo Wall'], ())
    """
    if not (isinstance(squads, list) and len(squads) == 2
            and all(isinstance(s, list) and len(s) == 3 for s in squads)):
        raise CommandError('squads is each player\'s three drafted ballers: [["Zip", "Swing", "Tower"], '
                           '["Flash", "Arc", "Wall"]]')
    by_name = {b.name.lower(): b for b in state.pool}
    taken: set[str] = set()
    for side, names in enumerate(squads):
        squad = []
        for name in names:
            key = name.strip().lower() if isinstance(name, str) else ""
            if key not in by_name:
                raise CommandError(f"squads: {name!r} is not among the ballers dealt: "
                                   f"{', '.join(b.name for b in state.pool)}")
            if key in taken:
                raise CommandError(f"squads: {by_name[key].name} is drafted twice")
            taken.add(key)
            squad.append(by_name[key])
        state = state.with_player(side, squad=tuple(squad))
    return replace(state, pool=(), picks=len(squads) * 3, phase="tip_off")
