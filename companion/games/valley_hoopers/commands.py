"""The Valley Hoopers commands: their fields, examples, and the check that a command is well formed.

``normalize`` turns a raw command into the event ``apply`` will read, or raises ``CommandError``
naming the field. Whether the rules allow it now is ``decide``'s question, not this module's.

>>> normalize({"type": "attack", "shot": "3ps", "position": "sg"})
{'type': 'attack', 'shot': '3PS', 'position': 'SG'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.errors import CommandError
from companion.game import CommandSpec
from companion.games.valley_hoopers.chips import LV1_EFFECTS, LV2_EFFECTS
from companion.games.valley_hoopers.model import INJURY_EFFECTS, POSITIONS, STATS

Check = Callable[[str, object], object]


def _text(field: str, raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise CommandError(f"{field} must be a name, not {raw!r}")
    return raw.strip()


def _one_of(*allowed: str, upper: bool = False) -> Check:
    def check(field: str, raw: object) -> str:
        value = raw.strip() if isinstance(raw, str) else raw
        if isinstance(value, str):
            match = {a.lower(): a for a in allowed}.get(value.lower())
            if match is not None:
                return match
        raise CommandError(f"{field} must be one of {', '.join(allowed)}, not {raw!r}")

    return check


def _int(field: str, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise CommandError(f"{field} must be a whole number, not {raw!r}")
    return raw


def _side(field: str, raw: object) -> int:
    if raw not in (0, 1) or isinstance(raw, bool):
        raise CommandError(f"{field} must be 0 or 1 (the side's index), not {raw!r}")
    return int(raw)  # type: ignore[arg-type]


def _bool(field: str, raw: object) -> bool:
    if not isinstance(raw, bool):
        raise CommandError(f"{field} must be true or false, not {raw!r}")
    return raw


def _face(field: str, raw: object) -> int | str:
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise CommandError(f"{field} must be a die face (5..100 or a foul die face), not {raw!r}")
    return raw


def _changes(field: str, raw: object) -> dict[str, str]:
    if not isinstance(raw, Mapping) or not raw:
        raise CommandError(f'{field} must map positions to hoopers, like {{"PG": "May Friend"}}')
    position = _one_of(*POSITIONS)
    return {str(position(f"{field} position", p)): _text(f"{field}.{p}", n) for p, n in raw.items()}


def _names(field: str, raw: object) -> list[str]:
    if not isinstance(raw, list):
        raise CommandError(f"{field} must be a list of hooper names")
    return [_text(field, n) for n in raw]


def _stats(field: str, raw: object) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise CommandError(f'{field} must map stats to numbers, like {{"2PS": 55}}')
    stat = _one_of(*STATS)
    return {str(stat(f"{field} stat", k)): _int(f"{field}.{k}", v) for k, v in raw.items()}


def _positions(field: str, raw: object) -> list[str]:
    if not isinstance(raw, list) or not raw:
        raise CommandError(f"{field} must be a list of positions")
    position = _one_of(*POSITIONS)
    return [str(position(field, p)) for p in raw]


def _nullable(check: Check) -> Check:
    def wrapped(field: str, raw: object) -> object:
        return None if raw is None else check(field, raw)

    wrapped.nullable = True  # type: ignore[attr-defined]
    return wrapped


_POSITION = _one_of(*POSITIONS)
_BY_HOOPER = {"position": _POSITION, "hooper": _text}
# type -> (required fields, optional fields)
FIELDS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "roll": ({"face": _face}, {"die": _text}),
    "fundamental": (
        {"action": _one_of("dribble", "pass", "screen")},
        {**_BY_HOOPER, "bonus": _int, "chip": _one_of("boost", "unstoppable"), "energy_from": _text},
    ),
    "attack": (
        {"shot": _one_of("2PS", "3PS", "LUP")},
        {**_BY_HOOPER, "chip": _one_of("boost", "unstoppable"), "energy_from": _text},
    ),
    "counter": (
        {"hooper": _text},
        {
            "card": _one_of("steal", "intercept", "rebound"),
            "chip": _one_of("boost"),
            "block": _one_of("chip"),
            "energy_from": _text,
        },
    ),
    "no_counter": ({}, {}),
    "defend": (
        {"hooper": _text},
        {
            "defense": _one_of("D2", "D3", "DLU"),
            "helper": _text,
            "block": _one_of("chip", "tribe", "no_way"),
            "chip": _one_of("boost"),
            "energy_from": _text,
        },
    ),
    "no_defense": ({}, {}),
    "rebound": ({"hooper": _text}, {"energy_from": _text}),
    "no_rebound": ({}, {}),
    "rebound_reward": ({"reward": _one_of("draw2", "bonus15")}, {}),
    "end_turn": ({}, {}),
    "timeout": ({}, {}),
    "timeout_energy": ({}, {"hoopers": _names, "coach_token": _bool, "changes": _changes}),
    "substitute": ({"changes": _changes}, {"side": _side}),
    "replace": ({"hooper": _text}, {}),
    "white_cube": ({"hooper": _text}, {}),
    "injury": ({"effect": _one_of(*INJURY_EFFECTS)}, {}),
    "upgrade": ({}, {"hooper": _nullable(_text), "stat": _one_of(*STATS), "side": _nullable(_side)}),
    "cure": ({}, {"hooper": _nullable(_text)}),
    "donate": ({"hooper": _text, "to": _text}, {}),
    "playbook": ({"name": _text}, {"common": _bool, "chip": _bool}),
    "playbook_reward": ({"reward": _one_of("energy", "draw2", "mixed")}, {"slot": _one_of("F2", "A")}),
    "renounce_playbook": ({"side": _side, "name": _text}, {}),
    "coach_cards": ({"side": _side, "action": _one_of("draw3", "swap")}, {}),
    "redeem": ({"hooper": _text}, {}),
    "chip": ({"hooper": _text, "effect": _one_of(*LV1_EFFECTS, *LV2_EFFECTS)}, {}),
    "tribe_power": ({}, {}),
    "enter_card": (
        {"hooper": _text},
        {
            "side": _side,
            "stats": _stats,
            "energy": _int,
            "first_position": _POSITION,
            "second_position": _POSITION,
            "stellar": _bool,
            "defense_positions": _positions,
        },
    ),
}
# Fields the companion adds to events for the log; a command may not send them.
EVENT_ONLY = ("points", "text", "period", "pair")


def normalize(command: Mapping[str, Any]) -> dict[str, Any]:
    """A checked copy of ``command`` with canonical spellings; unknown types or fields are refused."""
    if not isinstance(command, Mapping):
        raise CommandError("a command is a JSON object with a type")
    kind = command.get("type")
    if kind not in FIELDS:
        raise CommandError(f"unknown command type {kind!r}; Valley Hoopers knows: {', '.join(FIELDS)}")
    required, optional = FIELDS[kind]
    event: dict[str, Any] = {"type": kind}
    for field, check in required.items():
        if command.get(field) is None:
            raise CommandError(f"{kind} needs the field {field!r}")
        event[field] = check(field, command[field])
    for field, check in optional.items():
        if command.get(field) is not None:
            event[field] = check(field, command[field])
        elif field in command and getattr(check, "nullable", False):
            event[field] = None
    unknown = sorted(set(command) - set(required) - set(optional) - {"type", *EVENT_ONLY})
    if unknown:
        raise CommandError(f"{kind} has no field {unknown[0]!r}")
    if kind in ("fundamental", "attack") and not ("position" in event) ^ ("hooper" in event):
        raise CommandError(
            f"{kind} needs the field 'position' (the card's position) or 'hooper', one of them"
        )
    return event


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "roll",
        "a die result, told by the table (the die defaults to the one the prompt expects)",
        {"type": "roll", "die": "d20x5", "face": 45},
        {
            "face": "5..100 for the d20; whistle, whistle2, whistle3, charge, jumpball, blank for the d8",
            "die": "d20x5 or d8foul (optional)",
        },
    ),
    CommandSpec(
        "fundamental",
        "play a dribble (+15), pass or screen (card bonus, 25 by default) in F1/F2",
        {"type": "fundamental", "action": "dribble", "position": "SG"},
        {
            "position": "the position the card requires",
            "bonus": "pass/screen card bonus",
            "chip": "boost or unstoppable (LV.1 chip)",
            "energy_from": "Lance Endure: teammate paying",
        },
    ),
    CommandSpec(
        "attack",
        "play the attack card in A",
        {"type": "attack", "shot": "3PS", "position": "SG"},
        {"shot": "2PS, 3PS or LUP", "position": "the position the card requires"},
    ),
    CommandSpec(
        "counter",
        "steal a dribble / intercept a pass",
        {"type": "counter", "hooper": "Never Tired"},
        {"card": "rebound: Dime N'Shons countering with a rebound card"},
    ),
    CommandSpec("no_counter", "let the fundamental through", {"type": "no_counter"}),
    CommandSpec(
        "defend",
        "contest the attack",
        {"type": "defend", "hooper": "Edd Trapp"},
        {
            "defense": "DLU for Edd Trapp against a 3PS",
            "helper": "Perry Hel adding his stat",
            "block": "chip, tribe (Keepers) or no_way (LV.2)",
        },
    ),
    CommandSpec("no_defense", "let the attack through", {"type": "no_defense"}),
    CommandSpec(
        "rebound", "offensive rebound in F3 after a miss", {"type": "rebound", "hooper": "Edd Trapp"}
    ),
    CommandSpec("no_rebound", "no offensive rebound: the opponent rebounds", {"type": "no_rebound"}),
    CommandSpec("rebound_reward", "after a won rebound", {"type": "rebound_reward", "reward": "bonus15"}),
    CommandSpec("end_turn", "give up the ball without attacking", {"type": "end_turn"}),
    CommandSpec("timeout", "coach token + timeout cube at the start of the turn", {"type": "timeout"}),
    CommandSpec(
        "timeout_energy",
        "the opponent's answer to a timeout",
        {"type": "timeout_energy", "hoopers": ["Edd Trapp", "May Friend"]},
    ),
    CommandSpec("substitute", "substitutions", {"type": "substitute", "changes": {"C": "Reley Baton"}}),
    CommandSpec(
        "replace",
        "a benchwarmer takes an ejected/injured hooper's position",
        {"type": "replace", "hooper": "Joy Kill"},
    ),
    CommandSpec(
        "white_cube",
        "the opponent gives the white cube of an offensive foul",
        {"type": "white_cube", "hooper": "Chus Kinder"},
    ),
    CommandSpec("injury", "the injury marker drawn", {"type": "injury", "effect": "attack_minus_10"}),
    CommandSpec(
        "upgrade", "a period milestone upgrade", {"type": "upgrade", "hooper": "Joy Kill", "stat": "3PS"}
    ),
    CommandSpec("cure", "Maddy Cure's teammate energy", {"type": "cure", "hooper": "Hector Prot"}),
    CommandSpec(
        "donate",
        "May Friend gives an energy",
        {"type": "donate", "hooper": "May Friend", "to": "Chus Kinder"},
    ),
    CommandSpec(
        "playbook",
        "activate a playbook after a successful F1",
        {"type": "playbook", "name": "HOT ZONE", "common": True},
    ),
    CommandSpec("playbook_reward", "after a scored playbook", {"type": "playbook_reward", "reward": "draw2"}),
    CommandSpec(
        "renounce_playbook",
        "free a locked coach token",
        {"type": "renounce_playbook", "side": 0, "name": "HOT ZONE"},
    ),
    CommandSpec(
        "coach_cards",
        "coach token to draw 3 / swap cards",
        {"type": "coach_cards", "side": 0, "action": "draw3"},
    ),
    CommandSpec(
        "redeem", "take the LV.1 chip on the LV.I space", {"type": "redeem", "hooper": "Muy Schillato"}
    ),
    CommandSpec(
        "chip",
        "spend an Onfire chip by its effect",
        {"type": "chip", "hooper": "Muy Schillato", "effect": "energy_drink"},
    ),
    CommandSpec("tribe_power", "Unleashed: second action of the same card", {"type": "tribe_power"}),
    CommandSpec(
        "enter_card",
        "enter what a card shows",
        {"type": "enter_card", "hooper": "Muy Schillato", "stats": {"2PS": 50}},
    ),
)
