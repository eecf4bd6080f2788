"""The NBA Showdown commands: their fields, examples, and the check that a command is well formed.

``normalize`` turns a raw command into the event ``apply`` will read, or raises ``CommandError``
naming the field. Whether the rules allow it now is ``decide``'s question, not this module's.

>>> normalize({"type": "shoot", "position": "sg", "stat": "Speed"})
{'type': 'shoot', 'stat': 'speed', 'position': 'SG'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.errors import CommandError
from companion.game import CommandSpec
from companion.games.nba_showdown.cards import POSITIONS, STATS

Check = Callable[[str, object], object]


def _text(field: str, raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise CommandError(f"{field} must be a name, not {raw!r}")
    return raw.strip()


def _one_of(*allowed: str) -> Check:
    def check(field: str, raw: object) -> str:
        if isinstance(raw, str):
            match = {a.lower(): a for a in allowed}.get(raw.strip().lower())
            if match is not None:
                return match
        raise CommandError(f"{field} must be one of {', '.join(allowed)}, not {raw!r}")

    return check


def _int_between(low: int, high: int) -> Check:
    def check(field: str, raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
            raise CommandError(f"{field} must be a whole number from {low} to {high}, not {raw!r}")
        return raw

    return check


def _bool(field: str, raw: object) -> bool:
    if not isinstance(raw, bool):
        raise CommandError(f"{field} must be true or false, not {raw!r}")
    return raw


def _side(field: str, raw: object) -> int:
    if raw not in (0, 1) or isinstance(raw, bool):
        raise CommandError(f"{field} must be 0 or 1 (the team's index), not {raw!r}")
    return int(raw)  # type: ignore[arg-type]


def _face(field: str, raw: object) -> int | str:
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise CommandError(f"{field} must be a d20 face (1 to 20), not {raw!r}")
    return raw


def _object(spec: dict[str, Check], example: str) -> Check:
    def check(field: str, raw: object) -> dict[str, Any]:
        if not isinstance(raw, Mapping):
            raise CommandError(f"{field} must be an object like {example}")
        unknown = sorted(set(raw) - set(spec))
        if unknown:
            raise CommandError(f"{field} has no field {unknown[0]!r} (known: {', '.join(spec)})")
        return {k: spec[k](f"{field}.{k}", v) for k, v in raw.items()}

    return check


_POSITION = _one_of(*POSITIONS)
_STAT = _one_of(*STATS)
_CHANGE = _int_between(-20, 20)


def _positions(field: str, raw: object) -> list[str]:
    if not isinstance(raw, list) or not raw:
        raise CommandError(f"{field} must be a list of positions, like [\"PF\", \"C\"]")
    return [str(_POSITION(field, p)) for p in raw]


def _at_least(field: str, raw: object) -> dict[str, int]:
    if not isinstance(raw, Mapping) or not raw:
        raise CommandError(f"{field} must map speed or power to a number, like {{\"power\": 15}}")
    return {str(_STAT(field, k)): _int_between(1, 60)(f"{field}.{k}", v) for k, v in raw.items()}


REQUIRES = _object({"more": _STAT, "less": _STAT, "at_least": _at_least, "position": _positions,
                    "hot": _bool, "cold": _bool}, '{"more": "power"}')
ADJUST = _object({"pts": _CHANGE, "ast": _CHANGE, "reb": _CHANGE}, '{"reb": 1}')
SHOT_CHECK = _object({"points": _int_between(0, 10), "bonus": _CHANGE, "three_point": _bool,
                      "foul_shot": _bool, "markers": _bool, "gives_markers": _bool},
                     '{"points": 3, "three_point": true}')

# type -> (required fields, optional fields)
FIELDS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "place": ({"position": _POSITION, "player": _text}, {"side": _side}),
    "keep": ({}, {"side": _side}),
    "double_team": ({"helped": _POSITION, "helper": _POSITION}, {"side": _side}),
    "no_double_team": ({}, {"side": _side}),
    "shoot": ({"stat": _STAT}, {"position": _POSITION, "player": _text, "side": _side}),
    "play_card": ({"side": _side, "card": _text},
                  {"roll_bonus": _CHANGE, "speed": _CHANGE, "power": _CHANGE, "adjust": ADJUST,
                   "requires": REQUIRES, "shot_check": SHOT_CHECK}),
    "roll": ({"face": _face}, {"die": _text}),
    "assist": ({"count": _int_between(0, 99)}, {"side": _side}),
}
# Fields the companion adds to events for the log; a command may not send them.
EVENT_ONLY = ("points", "text", "quarter", "roll_number")


def normalize(command: Mapping[str, Any]) -> dict[str, Any]:
    """A checked copy of ``command`` with canonical spellings; unknown types or fields are refused."""
    if not isinstance(command, Mapping):
        raise CommandError("a command is a JSON object with a type")
    kind = command.get("type")
    if kind not in FIELDS:
        raise CommandError(f"unknown command type {kind!r}; NBA Showdown knows: {', '.join(FIELDS)}")
    required, optional = FIELDS[kind]
    event: dict[str, Any] = {"type": kind}
    for field, check in required.items():
        if command.get(field) is None:
            raise CommandError(f"{kind} needs the field {field!r}")
        event[field] = check(field, command[field])
    for field, check in optional.items():
        if command.get(field) is not None:
            event[field] = check(field, command[field])
    unknown = sorted(set(command) - set(required) - set(optional) - {"type", *EVENT_ONLY})
    if unknown:
        raise CommandError(f"{kind} has no field {unknown[0]!r}")
    if kind == "shoot" and not ("position" in event) ^ ("player" in event):
        raise CommandError("shoot needs the field 'position' or 'player', one of them")
    if kind == "double_team" and event["helped"] == event["helper"]:
        raise CommandError("double_team needs two players: helped and helper are different positions")
    return event


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("place", "put one player in a position at the start of a quarter (substitutions; "
                "the teams take turns, whoever rolls first places first)",
                {"type": "place", "position": "PG", "player": "Demo Relay"},
                {"side": "optional: must be the team whose turn it is to place"}),
    CommandSpec("keep", "put last quarter's players back in every open position of the team",
                {"type": "keep"}, {"side": "optional"}),
    CommandSpec("double_team", "before the quarter's rolls: the helper (next to him) helps the helped "
                "player defend (+2 / -4 on defence), one per team per quarter",
                {"type": "double_team", "helped": "SG", "helper": "PG"},
                {"helped": "the position of the player being helped", "helper": "a neighbouring position"}),
    CommandSpec("no_double_team", "no double-team this quarter", {"type": "no_double_team"}),
    CommandSpec("shoot", "choose the player who rolls and Speed or Power",
                {"type": "shoot", "position": "PG", "stat": "speed"},
                {"position": "or player (the card's name)", "stat": "speed or power"}),
    CommandSpec("play_card", "a strategy card before the roll (the roller's offensive card first, then "
                "the defender's); its effects as the table reads them",
                {"type": "play_card", "side": 0, "card": "Demo Drive", "roll_bonus": 2,
                 "requires": {"more": "speed"}},
                {"roll_bonus": "added to the scoring roll", "speed": "to this player's Speed for this roll",
                 "power": "to this player's Power", "adjust": "{pts, ast, reb} added to the chart's result",
                 "requires": "{more|less: speed|power, at_least: {power: 15}, position: [..], hot, cold}",
                 "shot_check": "{points, bonus, three_point, foul_shot, markers, gives_markers}"}),
    CommandSpec("roll", "the natural d20 (scoring roll or shot check)", {"type": "roll", "face": 14},
                {"face": "1 to 20", "die": "d20 (optional)"}),
    CommandSpec("assist", "assists added to the roll just made (0 for none)", {"type": "assist", "count": 2}),
)
