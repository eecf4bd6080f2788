"""The NBA Showdown commands, each declared once: typed fields, summary and example.

``COMMANDS`` is the single source for checking a command (``normalize``) and for the NBA Showdown
table of docs/commands.md (``companion.commands.markdown_table``; a test keeps the two equal).
``normalize`` turns a raw command into the event ``apply`` will read, or raises ``CommandError``
naming the field. Whether the rules allow it now is ``decide``'s question, not this module's.

>>> normalize({"type": "shoot", "position": "sg", "stat": "Speed"})
{'type': 'shoot', 'stat': 'speed', 'position': 'SG'}
>>> normalize({"type": "assist", "count": -1})
Traceback (most recent call last):
...
companion.errors.CommandError: count must be a whole number from 0 to 99, not -1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.commands import JSON, CommandSpec, Field, checked_once, spec_for
from companion.errors import CommandError
from companion.games.nba_showdown.cards import POSITIONS, STATS

Check = Callable[[str, object], object]


def _int_between(low: int, high: int) -> Check:
    def check(field: str, raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
            raise CommandError(f"{field} must be a whole number from {low} to {high}, not {raw!r}")
        return raw

    return check


def _face(field: str, raw: object) -> int | str:
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise CommandError(f"{field} must be a d20 face (1 to 20), not {raw!r}")
    return raw


def _change(name: str, summary: str) -> Field:
    return Field(name, "int", minimum=-20, maximum=20, summary=summary)


# A card's effects as the table reads them: declared once, so the same fields check the command and
# draw the kiosk's form (choices as buttons, numbers on a keypad).
REQUIRES = Field("requires", "object", summary="{more|less: speed|power, at_least: {power: 15}, "
                 "position: [..], hot, cold}", parts=(
                     Field("more", "stat", choices=STATS, summary="more Speed or Power than the opponent"),
                     Field("less", "stat", choices=STATS, summary="less Speed or Power than the opponent"),
                     Field("at_least", "object", summary="a Speed or Power of at least", parts=(
                         Field("speed", "int", minimum=1, maximum=60, summary="Speed at least"),
                         Field("power", "int", minimum=1, maximum=60, summary="Power at least"))),
                     Field("position", "position", choices=POSITIONS, multiple=True,
                           summary="the player plays one of these"),
                     Field("hot", "bool", summary="the player has a hot marker"),
                     Field("cold", "bool", summary="the player has a cold marker")))
ADJUST = Field("adjust", "object", summary="{pts, ast, reb} added to the chart's result", parts=(
    _change("pts", "points added"), _change("ast", "assists added"), _change("reb", "rebounds added")))
SHOT_CHECK = Field("shot_check", "object", summary="{points, bonus, three_point, foul_shot, markers, "
                   "gives_markers}", parts=(
                       Field("points", "int", minimum=0, maximum=10, summary="points if made"),
                       _change("bonus", "the card's bonus to the shot check"),
                       Field("three_point", "bool", summary="a 3-point shot (the card's 3-point bonus)"),
                       Field("foul_shot", "bool", summary="a foul shot: 1 point at +10"),
                       Field("markers", "bool", summary="hot and cold markers count"),
                       Field("gives_markers", "bool", summary="a natural 19-20 or 1-2 gives a marker")))

# Fields the companion adds to events for the log; a replayed event may carry them back (dropped).
EVENT_ONLY = ("points", "text", "quarter", "roll_number")


def _position_or_player(command: JSON) -> None:
    if not ("position" in command) ^ ("player" in command):
        raise CommandError("shoot needs the field 'position' or 'player', one of them")


def _two_players(command: JSON) -> None:
    if command["helped"] == command["helper"]:
        raise CommandError("double_team needs two players: helped and helper are different positions")


def _spec(kind: str, summary: str, example: JSON, fields: tuple[Field, ...] = (), **more: Any) -> CommandSpec:
    return CommandSpec(kind, summary, example, fields, ignored=EVENT_ONLY, **more)


def _position(name: str, summary: str, required: bool = True) -> Field:
    return Field(name, "position", required=required, summary=summary, choices=POSITIONS)


_SIDE = Field("side", "side", summary="the team (0 or 1); defaults to the team whose turn it is")

COMMANDS: tuple[CommandSpec, ...] = (
    _spec("place", "at a quarter's start (substitutions on): put one player in one position; the teams "
          "take turns, whoever rolls first places first",
          {"type": "place", "position": "PG", "player": "Demo Relay"},
          (_position("position", "where he plays"),
           Field("player", "text", required=True, summary="the card's name"), _SIDE)),
    _spec("keep", "put last quarter's players (or the setup lineup) back in every open position of the team",
          {"type": "keep"}, (_SIDE,)),
    _spec("double_team", "before the quarter's rolls: the `helper` (a neighbouring position in "
          "PG-SG-SF-PF-C) helps the `helped` position defend, +2 / -4 on defence for the quarter",
          {"type": "double_team", "helped": "SG", "helper": "PG"},
          (_position("helped", "the position of the player being helped"),
           _position("helper", "a neighbouring position (PG-SG-SF-PF-C)"), _SIDE),
          extra_check=_two_players),
    _spec("no_double_team", "no double-team this quarter", {"type": "no_double_team"}, (_SIDE,)),
    _spec("shoot", "choose the player who rolls (`position` or `player`) and `stat` `speed` or `power`",
          {"type": "shoot", "position": "PG", "stat": "speed"},
          (Field("stat", "stat", required=True, choices=STATS, summary="speed or power"),
           _position("position", "the roller's position", required=False),
           Field("player", "text", summary="or the card's name"), _SIDE),
          extra_check=_position_or_player),
    _spec("play_card", "a strategy card before the roll (the roller's offensive card first, then the "
          "defender's): `card` (a name of the deck list), and what it does as the table reads it: "
          "`roll_bonus`, `speed`, "
          "`power` (this roll only), `adjust` `{pts, ast, reb}` (added to the chart's result), `requires` "
          "(checked now: `more`/`less`: `speed`/`power` than the opposing player, `at_least` `{power: 15}`, "
          "`position` `[..]`, `hot`, `cold`), `shot_check` `{points, bonus, three_point, foul_shot, markers, "
          "gives_markers}`",
          {"type": "play_card", "side": 0, "card": "Demo Drive", "roll_bonus": 2,
           "requires": {"more": "speed"}},
          (Field("side", "side", required=True, summary="the team playing it"),
           Field("card", "text", required=True, summary="the strategy card's name",
                 options="/sides/{side}/strategy_cards"),
           _change("roll_bonus", "added to the scoring roll"),
           _change("speed", "to this player's Speed for this roll"),
           _change("power", "to this player's Power for this roll"),
           ADJUST, REQUIRES, SHOT_CHECK)),
    _spec("roll", "the natural d20 (`die` `d20`, optional): the scoring roll, or the shot check a card "
          "called for", {"type": "roll", "die": "d20", "face": 14},
          (Field("face", "face", required=True, check=_face, summary="1 to 20"),
           Field("die", "text", summary="d20 (optional)"))),
    _spec("assist", "after seeing the roll: how many assists to add (+1 each, off the Assist Track); asked "
          "only when one could reach a higher row", {"type": "assist", "count": 2},
          (Field("count", "int", required=True, check=_int_between(0, 99), summary="taken off the track"),
           _SIDE)),
)


def normalize(command: Mapping[str, Any]) -> dict[str, Any]:
    """A checked copy of ``command`` with canonical spellings; unknown types or fields are refused."""
    return dict(_normalized(command))  # the caller adds the event's fields to its copy


def _checked(command: Mapping[str, Any]) -> dict[str, Any]:
    return spec_for(COMMANDS, command.get("type"), "NBA Showdown").from_json(command)


# A game sends the same few commands again and again (a roll's face, a shot, an assist): each is
# checked once.
_normalized = checked_once(_checked, size=512)
