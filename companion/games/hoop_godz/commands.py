"""The Hoop Godz commands, each declared once: typed fields, summary and example.

``COMMANDS`` checks every command in ``decide`` (``normalize``) and writes the Hoop Godz table of
docs/commands.md (``companion.commands.markdown_table``; a test keeps the two equal). Whether the
rules allow a command now is ``decide``'s question.

>>> normalize({"type": "play", "card": "shoot", "baller": "Demo Zip", "difficulty": 3, "points": 2})
{'type': 'play', 'card': 'SHOOT', 'baller': 'Demo Zip', 'difficulty': 3, 'points': 2}
>>> normalize({"type": "battle", "winner": 0, "tie": True})
Traceback (most recent call last):
...
companion.errors.CommandError: battle takes winner (0 or 1) or tie: true, one of them
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.commands import JSON, CommandSpec, Field, check_int, check_text, side_index, spec_for
from companion.errors import CommandError
from companion.games.hoop_godz.dice import BALLS

SIDE = side_index(2)


def _card(name: str, raw: object) -> str:
    return check_text(name, raw).upper()


def _nearest(name: str, raw: object) -> list[str]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise CommandError(f"{name} is each player's baller next to the ball, side 0 first (two names)")
    return [check_text(name, n) for n in raw]


def _order(name: str, raw: object) -> list[int]:
    if not isinstance(raw, list) or sorted(x for x in raw if not isinstance(x, bool)) != [0, 1]:
        raise CommandError(f"{name} is both sides, the winner first: [0, 1] or [1, 0], not {raw!r}")
    return [int(x) for x in raw]


def _presses(name: str, raw: object) -> list[JSON]:
    """Each press: the side and its time in ms after the first press (first edge, debounced)."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= 2:
        raise CommandError(f"{name} is one or two presses, each {{\"side\": 0, \"ms\": 0}}, not {raw!r}")
    out: list[JSON] = []
    for press in raw:
        if not isinstance(press, Mapping) or set(press) - {"side", "ms"}:
            raise CommandError(f"{name}: a press is {{\"side\": 0, \"ms\": 0}}, not {press!r}")
        ms = check_int(f"{name} ms", press.get("ms"))
        if ms < 0:
            raise CommandError(f"{name}: ms counts from the first press, so it is 0 or more, not {ms}")
        out.append({"side": SIDE(f"{name} side", press.get("side")), "ms": ms})
    if len({p["side"] for p in out}) != len(out):
        raise CommandError(f"{name}: each side presses once")
    return out


def _winner_or_tie(command: JSON) -> None:
    if ("winner" in command) == bool(command.get("tie")):
        raise CommandError("battle takes winner (0 or 1) or tie: true, one of them")


def _ball_die(name: str, raw: object) -> str:
    if raw != BALLS.name:
        raise CommandError(f"{name}: the final SHOOT roll is entered as {BALLS.name!r} "
                           "(a count of BALL icons)")
    return BALLS.name


def _count(name: str, raw: object) -> int:
    value = check_int(name, raw)
    if not 0 <= value <= 6:
        raise CommandError(f"{name} is how many BALL icons show (0 to 6), not {value}")
    return value


# Fields the companion adds to events for the log: a command may carry them back, and they are dropped.
EVENT_ONLY = ("text",)


def _spec(kind: str, summary: str, example: JSON, fields: tuple[Field, ...] = (), **more: Any) -> CommandSpec:
    return CommandSpec(kind, summary, example, fields, ignored=EVENT_ONLY, **more)


COMMANDS: tuple[CommandSpec, ...] = (
    _spec("pick", "draft a baller from the nine dealt (picks 1-2-2-1)",
          {"type": "pick", "baller": "Demo Tower"},
          (Field("baller", "text", required=True, summary="a name from the nine dealt"),)),
    _spec("tip_off", "each player's baller next to the ball: the tip-off battle (3 dice, 4 if Big)",
          {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]},
          (Field("nearest", "names", required=True, summary="[side 0's, side 1's]", check=_nearest),)),
    _spec("race", "a dice battle decided by the race buttons: sent by the controls from the edge times",
          {"type": "race", "order": [1, 0], "presses": [{"side": 1, "ms": 0}, {"side": 0, "ms": 180}],
           "tie": False},
          (Field("order", "sides", required=True, summary="the winner first", check=_order),
           Field("presses", "presses", required=True, summary="[{side, ms after the first press}]",
                 check=_presses),
           Field("tie", "bool", required=True, summary="presses within the race window"))),
    _spec("battle", "a dice battle told by the table (no race buttons): who matched the three icons first, "
          "or a tie (won by the TIE BREAKER holder)", {"type": "battle", "winner": 0},
          (Field("winner", "side", summary="0 or 1"), Field("tie", "bool", summary="true instead of winner")),
          extra_check=_winner_or_tie),
    _spec("move", "MOVE all the acting player's ballers one space (1 juice)", {"type": "move"},
          (Field("side", "side", summary="the acting player (checked)"),)),
    _spec("pass", "PASS the ball (1 juice; only at the start of a turn)", {"type": "pass"},
          (Field("allowed_by", "choice", choices=("skill", "goat"),
                 summary="a BALLER skill or GOAT card that allows a PASS mid-turn"),)),
    _spec("boost", "add one die to a battle you play a card in (1 juice, at most 6 dice)",
          {"type": "boost", "side": 0}, (Field("side", "side", summary="0 or 1"),)),
    _spec("play", "the active player plays an ACTIVE action card with a baller",
          {"type": "play", "card": "SHOOT", "baller": "Demo Zip", "difficulty": 3, "points": 2},
          (Field("card", "text", required=True, summary="a card name", check=_card),
           Field("baller", "text", required=True, summary="a squad baller"),
           Field("difficulty", "int", summary="SHOOT: the space's number (1 to 6)"),
           Field("points", "int", summary="SHOOT: 2 (grey) or 3 (black)"))),
    _spec("respond", "the other player answers with a RESPONSE card: a dice battle",
          {"type": "respond", "card": "BLOCK", "baller": "Demo Wall"},
          (Field("card", "text", required=True, check=_card), Field("baller", "text", required=True))),
    _spec("no_response", "the other player lets the ACTIVE card through", {"type": "no_response"}),
    _spec("roll", "the final SHOOT roll: how many BALL icons the battle's dice show (dice tray, encoder)",
          {"type": "roll", "die": BALLS.name, "face": 3},
          (Field("face", "int", required=True, summary="0 to the dice rolled", check=_count),
           Field("die", "text", summary=f"{BALLS.name!r}", check=_ball_die))),
    _spec("goat", "play a GOAT card (no response)", {"type": "goat", "name": "Mad Boards", "juice": 1},
          (Field("name", "text", summary="the card's name"),
           Field("juice", "int", summary="what it costs (0 to 10)"))),
    _spec("rest", "REST: end the turn with no juice right of the Rest line", {"type": "rest"}),
    _spec("end_turn", "end the turn", {"type": "end_turn"}),
)


def normalize(command: Mapping[str, Any]) -> JSON:
    """The checked, canonical command, or a ``CommandError`` naming the field."""
    return spec_for(COMMANDS, command.get("type"), "Hoop Godz").from_json(command)
