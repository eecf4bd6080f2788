"""The Valley Hoopers commands, each declared once: fields with types, summary and example.

``COMMANDS`` is the single source for checking a command (``normalize``) and for the Valley
Hoopers table of docs/commands.md (``companion.commands.markdown_table``; a test keeps the two
equal). ``normalize`` turns a raw command into the event ``apply`` will read, or raises
``CommandError`` naming the field. Whether the rules allow it now is ``decide``'s question.

>>> normalize({"type": "attack", "shot": "3ps", "position": "sg"})
{'type': 'attack', 'shot': '3PS', 'position': 'SG'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.commands import JSON, CommandSpec, Field, check_int, check_text, one_of, spec_for
from companion.errors import CommandError
from companion.games.valley_hoopers.chips import LV1_EFFECTS, LV2_EFFECTS
from companion.games.valley_hoopers.gameplans import check_card, check_condition
from companion.games.valley_hoopers.model import INJURY_EFFECTS, POSITIONS, STATS
from companion.games.valley_hoopers.series_game import CONDITIONS
from companion.games.valley_hoopers.setup_options import opening_roll_winner


def _face(field: str, raw: object) -> int | str:
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise CommandError(f"{field} must be a die face (5..100 or a foul die face), not {raw!r}")
    return raw


def _changes(field: str, raw: object) -> dict[str, str]:
    if not isinstance(raw, Mapping) or not raw:
        raise CommandError(f'{field} must map positions to hoopers, like {{"PG": "May Friend"}}')
    position = one_of(*POSITIONS)
    return {str(position(f"{field} position", p)): check_text(f"{field}.{p}", n) for p, n in raw.items()}


def _names(field: str, raw: object) -> list[str]:
    if not isinstance(raw, list):
        raise CommandError(f"{field} must be a list of hooper names")
    return [check_text(field, n) for n in raw]


def _stats(field: str, raw: object) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise CommandError(f'{field} must map stats to numbers, like {{"2PS": 55}}')
    stat = one_of(*STATS)
    return {str(stat(f"{field} stat", k)): check_int(f"{field}.{k}", v) for k, v in raw.items()}


def _positions(field: str, raw: object) -> list[str]:
    if not isinstance(raw, list) or not raw:
        raise CommandError(f"{field} must be a list of positions")
    position = one_of(*POSITIONS)
    return [str(position(field, p)) for p in raw]


def _position_or_hooper(command: JSON) -> None:
    if not ("position" in command) ^ ("hooper" in command):
        raise CommandError(
            f"{command['type']} needs the field 'position' (the card's position) or 'hooper', one of them"
        )


# Fields the companion adds to events for the log; a command may send them back (a replayed
# event), and they are dropped.
EVENT_ONLY = ("points", "text", "period", "pair", "game")


def _spec(kind: str, summary: str, example: JSON, fields: tuple[Field, ...] = (), **more: Any) -> CommandSpec:
    return CommandSpec(kind, summary, example, fields, ignored=EVENT_ONLY, **more)


COMMANDS: tuple[CommandSpec, ...] = (
    _spec(
        "roll",
        "a die result; `die` (`d20x5` or `d8foul`) defaults to the one the prompt expects",
        {'type': 'roll', 'die': 'd20x5', 'face': 45},
        (
            Field("face", "face", required=True, check=_face),
            Field("die", "text"),
        ),
    ),
    _spec(
        "fundamental",
        (
            "dribble (+15), pass or screen in F1/F2, by the hooper on the card's `position` (or "
            "`hooper`); `bonus` for pass/screen (default 25); `chip`: `boost`/`unstoppable`; "
            "`energy_from` (Lance Endure); `upgrade`: the action upgrade card sleeved on the card"
        ),
        {'type': 'fundamental', 'action': 'dribble', 'position': 'SG'},
        (
            Field("action", "choice", required=True, choices=("dribble", "pass", "screen")),
            Field("position", "position", choices=POSITIONS),
            Field("hooper", "text"),
            Field("bonus", "int"),
            Field("chip", "choice", choices=("boost", "unstoppable")),
            Field("energy_from", "text"),
            Field("upgrade", "text"),
        ),
        extra_check=_position_or_hooper,
    ),
    _spec(
        "attack",
        "the attack in A: `shot` `2PS`/`3PS`/`LUP`, `position` or `hooper`, `chip`, `energy_from`, "
        "`upgrade` (the action upgrade card sleeved on the card)",
        {'type': 'attack', 'shot': '3PS', 'position': 'SG'},
        (
            Field("shot", "choice", required=True, choices=("2PS", "3PS", "LUP")),
            Field("position", "position", choices=POSITIONS),
            Field("hooper", "text"),
            Field("chip", "choice", choices=("boost", "unstoppable")),
            Field("energy_from", "text"),
            Field("upgrade", "text"),
        ),
        extra_check=_position_or_hooper,
    ),
    _spec(
        "counter",
        (
            "steal a dribble / intercept a pass; `card: \"rebound\"` for Dime N'Shons; `chip: \"boost\"`; "
            "`block: \"chip\"` (LV.1 block chip) or `\"no_way\"` (the LV.2 No Way Block)"
        ),
        {'type': 'counter', 'hooper': 'Never Tired'},
        (
            Field("hooper", "text", required=True),
            Field("card", "choice", choices=("steal", "intercept", "rebound")),
            Field("chip", "choice", choices=("boost",)),
            Field("block", "choice", choices=("chip", "no_way")),
            Field("energy_from", "text"),
        ),
    ),
    _spec(
        "no_counter",
        "let the fundamental through (the attacker's next card does the same)",
        {'type': 'no_counter'},
        (),
    ),
    _spec(
        "defend",
        (
            "contest the attack; `defense` (`DLU` for Edd Trapp against a 3PS), `helper` (Perry Hel), "
            "`block` (`chip`, `tribe` for the Keepers, `no_way` for the LV.2 chip), `chip: \"boost\"`, "
            "`upgrade` (the action upgrade card sleeved on the card)"
        ),
        {'type': 'defend', 'hooper': 'Edd Trapp'},
        (
            Field("hooper", "text", required=True),
            Field("defense", "choice", choices=("D2", "D3", "DLU")),
            Field("helper", "text"),
            Field("block", "choice", choices=("chip", "tribe", "no_way")),
            Field("chip", "choice", choices=("boost",)),
            Field("energy_from", "text"),
            Field("upgrade", "text"),
        ),
    ),
    _spec(
        "no_defense",
        "let the attack through (a d20 roll does the same)",
        {'type': 'no_defense'},
        (),
    ),
    _spec(
        "rebound",
        "offensive rebound in F3 after a missed attack",
        {'type': 'rebound', 'hooper': 'Edd Trapp'},
        (
            Field("hooper", "text", required=True),
            Field("energy_from", "text"),
        ),
    ),
    _spec(
        "no_rebound",
        "the defense rebounds, the turn ends",
        {'type': 'no_rebound'},
        (),
    ),
    _spec(
        "rebound_reward",
        "`draw2` or `bonus15` after a won rebound (a new attacking turn either way)",
        {'type': 'rebound_reward', 'reward': 'bonus15'},
        (
            Field("reward", "choice", required=True, choices=("draw2", "bonus15")),
        ),
    ),
    _spec(
        "end_turn",
        "give up the ball without attacking",
        {'type': 'end_turn'},
        (),
    ),
    _spec(
        "timeout",
        "coach token + timeout cube, at the start of the own turn",
        {'type': 'timeout'},
        (),
    ),
    _spec(
        "timeout_energy",
        "the opponent's answer: `hoopers` (two names) or `coach_token: true` (+ optional `changes`)",
        {'type': 'timeout_energy', 'hoopers': ['Edd Trapp', 'May Friend']},
        (
            Field("hoopers", "names", check=_names),
            Field("coach_token", "bool"),
            Field("changes", "changes", check=_changes),
        ),
    ),
    _spec(
        "substitute",
        "`changes` maps positions to hoopers; `side` between periods",
        {'type': 'substitute', 'changes': {'C': 'Reley Baton'}},
        (
            Field("changes", "changes", required=True, check=_changes),
            Field("side", "side"),
        ),
    ),
    _spec(
        "replace",
        "a benchwarmer takes the position an ejected/injured hooper left",
        {'type': 'replace', 'hooper': 'Joy Kill'},
        (
            Field("hooper", "text", required=True),
        ),
    ),
    _spec(
        "white_cube",
        "who gets the white cube of an offensive foul (the fouled side chooses)",
        {'type': 'white_cube', 'hooper': 'Chus Kinder'},
        (
            Field("hooper", "text", required=True),
        ),
    ),
    _spec(
        "injury",
        (
            "the injury marker drawn: `defense_minus_10`, `attack_minus_10`, `out`, `lucky`, "
            "`cannot_defend`, `cannot_attack`, `loses_skill`"
        ),
        {'type': 'injury', 'effect': 'attack_minus_10'},
        (
            Field("effect", "choice", required=True, choices=INJURY_EFFECTS),
        ),
    ),
    _spec(
        "upgrade",
        "period milestone: `hooper` (or `null`), `stat` for period 2, `side` in Friendly Play",
        {'type': 'upgrade', 'hooper': 'Joy Kill', 'stat': '3PS'},
        (
            Field("hooper", "text", nullable=True),
            Field("stat", "choice", choices=STATS),
            Field("side", "side", nullable=True),
        ),
    ),
    _spec(
        "cure",
        "Maddy Cure scored: the teammate who recovers one energy (or `null`)",
        {'type': 'cure', 'hooper': 'Hector Prot'},
        (
            Field("hooper", "text", nullable=True),
        ),
    ),
    _spec(
        "donate",
        "May Friend gives one energy to a teammate",
        {'type': 'donate', 'hooper': 'May Friend', 'to': 'Chus Kinder'},
        (
            Field("hooper", "text", required=True),
            Field("to", "text", required=True),
        ),
    ),
    _spec(
        "playbook",
        "after a successful F1; `common` (locks a coach token), `chip` (LV.1 icon)",
        {'type': 'playbook', 'name': 'HOT ZONE', 'common': True},
        (
            Field("name", "text", required=True),
            Field("common", "bool"),
            Field("chip", "bool"),
        ),
    ),
    _spec(
        "playbook_reward",
        "`energy`, `draw2` or `mixed` with `slot` `F2`/`A`",
        {'type': 'playbook_reward', 'reward': 'draw2'},
        (
            Field("reward", "choice", required=True, choices=("energy", "draw2", "mixed")),
            Field("slot", "choice", choices=("F2", "A")),
        ),
    ),
    _spec(
        "renounce_playbook",
        "give up a playbook to free its coach token",
        {'type': 'renounce_playbook', 'side': 0, 'name': 'HOT ZONE'},
        (
            Field("side", "side", required=True),
            Field("name", "text", required=True),
        ),
    ),
    _spec(
        "coach_cards",
        "coach token at any time: `draw3` or `swap`",
        {'type': 'coach_cards', 'side': 0, 'action': 'draw3'},
        (
            Field("side", "side", required=True),
            Field("action", "choice", required=True, choices=("draw3", "swap")),
        ),
    ),
    _spec(
        "redeem",
        "take the LV.1 chip on the LV.I space (back to flat)",
        {'type': 'redeem', 'hooper': 'Muy Schillato'},
        (
            Field("hooper", "text", required=True),
        ),
    ),
    _spec(
        "chip",
        (
            "spend a chip: LV.1 `remove_intercept`/`remove_steal`; LV.2 `fast_break`, `coast_to_coast`, "
            "`tap_out`, `goal_tending`, `never_give_up`, `energy_drink`, `buzzer_beater`"
        ),
        {'type': 'chip', 'hooper': 'Muy Schillato', 'effect': 'energy_drink'},
        (
            Field("hooper", "text", required=True),
            Field("effect", "choice", required=True, choices=(*LV1_EFFECTS, *LV2_EFFECTS)),
        ),
    ),
    _spec(
        "tribe_power",
        "Unleashed: the card's other action after winning the ball back",
        {'type': 'tribe_power'},
        (),
    ),
    _spec(
        "gameplan",
        (
            "The Series: take gameplan `card` (1-8, its pair of milestones in this game's list) for a "
            "coach token, at the beginning of the own attacking turn; one per game"
        ),
        {'type': 'gameplan', 'card': 3},
        (
            Field("card", "card", required=True, check=check_card),
        ),
    ),
    _spec(
        "gameplan_answer",
        "The Series: the table's yes/no (`met`) for a gameplan milestone the app asks about",
        {'type': 'gameplan_answer', 'side': 0, 'condition': 'g34.09', 'met': True},
        (
            Field("side", "side", required=True),
            Field("condition", "milestone", required=True, check=check_condition),
            Field("met", "bool", required=True),
        ),
    ),
    _spec(
        "enter_card",
        (
            "fill in what a card shows (`stats`, `energy`, `second_position`, `stellar`, "
            "`defense_positions`...); entered values are not overwritten"
        ),
        {'type': 'enter_card', 'hooper': 'Muy Schillato', 'stats': {'2PS': 50}},
        (
            Field("hooper", "text", required=True),
            Field("side", "side"),
            Field("stats", "stats", check=_stats),
            Field("energy", "int"),
            Field("first_position", "position", choices=POSITIONS),
            Field("second_position", "position", choices=POSITIONS),
            Field("stellar", "bool"),
            Field("defense_positions", "positions", check=_positions),
        ),
    ),
)


def _sides_or_keep(field: str, raw: object) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise CommandError(f"{field} must list two sides (null keeps a side as it was)")
    for index, side in enumerate(raw):
        if side is not None and not isinstance(side, Mapping):
            raise CommandError(f"{field}[{index}] must be an object for side {index}, or null")
    return list(raw)


def _lists_or_all(field: str, raw: object) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise CommandError(f"{field} must list two sides (null sleeves all the side holds)")
    for index, side in enumerate(raw):
        if side is not None and not isinstance(side, list):
            raise CommandError(f"{field}[{index}] must list card names for side {index}, or null")
    return list(raw)


def _upgrade_map(field: str, raw: object) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise CommandError(f'{field} maps hooper names to upgrade cards, like {{"Joy Kill": "+3 energy"}}')
    return dict(raw)


def _met(name: str, raw: object) -> int:
    value = check_int(name, raw)
    if value not in (0, 1, 2):
        raise CommandError(f"{name} is 0, 1 or 2 (a gameplan card has two milestones), not {value}")
    return value


SERIES_COMMANDS: tuple[CommandSpec, ...] = (
    _spec(
        "track",
        "The Series: move the Tribe marker for `side` (a condition the companion can't see)",
        {'type': 'track', 'side': 0},
        (
            Field("side", "side", required=True),
        ),
    ),
    _spec(
        "gameplan_result",
        "The Series, reward phase: how many of its gameplan's milestones `side` met (`met` 0-2; 0: no card)",
        {'type': 'gameplan_result', 'side': 0, 'met': 2},
        (
            Field("side", "side", required=True),
            Field("met", "int", required=True, check=_met),
        ),
    ),
    _spec(
        "reward",
        (
            "The Series, reward phase: tick `item` of the checklist done (`cards` taken: for "
            "`hooper_upgrades` `stellar_energy`, `stat_energy`, `energy`; for `strength`/`track` the "
            "action upgrade card; for `positions` one or more positions), or `all: true`"
        ),
        {'type': 'reward', 'item': '0:hooper_upgrades', 'cards': ['stat_energy']},
        (
            Field("item", "text"),
            Field("cards", "names", check=_names),
            Field("all", "bool"),
        ),
    ),
    _spec(
        "next_game",
        (
            "The Series: start the next game; `condition` marker drawn; `first_attacker` (who won the "
            "opening d20 roll; default Home); `sides` (null "
            "keeps a side); `hot` (Home) / `cold` (Away) positions on the Onfire track; `upgrades` "
            "per side: hooper -> held upgrade card (null keeps where they were); `action_upgrades` / "
            "`position_upgrades` per side: the held cards sleeved in the deck (null: all)"
        ),
        {'type': 'next_game', 'condition': 'playbook', 'first_attacker': 1},
        (
            Field("condition", "choice", required=True, choices=tuple(CONDITIONS)),
            Field("first_attacker", "side", check=opening_roll_winner),
            Field("sides", "sides", check=_sides_or_keep),
            Field("hot", "positions", check=_positions),
            Field("cold", "positions", check=_positions),
            Field("upgrades", "sides", check=_sides_or_keep),
            Field("action_upgrades", "sides", check=_lists_or_all),
            Field("position_upgrades", "sides", check=_lists_or_all),
        ),
    ),
    _spec(
        "sleeve",
        (
            "The Series, before the next game: plan one held hooper upgrade `card` on `hooper` of `side`'s "
            "next seven (`stat` for a `stat_energy` card, alone to complete one planned)"
        ),
        {'type': 'sleeve', 'side': 0, 'hooper': 'Joy Kill', 'card': 'energy'},
        (
            Field("side", "side", required=True),
            Field("hooper", "text", required=True),
            Field("card", "choice", choices=("stellar_energy", "stat_energy", "energy")),
            Field("stat", "choice", choices=STATS),
        ),
    ),
    _spec(
        "susan_peg",
        (
            "The Series, before the next game: Susan Peg joins `side`'s seven `instead_of` a benchwarmer; "
            "`start`: she starts at that position (its starter goes to the bench)"
        ),
        {'type': 'susan_peg', 'side': 1, 'instead_of': 'Linda Siempre', 'start': 'C'},
        (
            Field("side", "side", required=True),
            Field("instead_of", "text", required=True),
            Field("start", "position", choices=POSITIONS),
        ),
    ),
)


DRAFT_COMMANDS: tuple[CommandSpec, ...] = (
    _spec(
        "draft_pick",
        "Draft: the side whose pick it is takes (or first discards) the named hooper or upgrade card",
        {'type': 'draft_pick', 'card': 'Edd Trapp'},
        (
            Field("card", "text", required=True),
        ),
    ),
    _spec(
        "draft_lineup",
        "Draft: a side's starting five from its seven (`lineup` maps positions to hoopers); `upgrades`: "
        "hooper -> drafted hooper upgrade card sleeved on him (`{\"card\", \"stat\"}` for a stat card)",
        {'type': 'draft_lineup', 'side': 0, 'lineup': {'PG': 'May Friend', 'SG': 'Chus Kinder'}},
        (
            Field("side", "side", required=True),
            Field("lineup", "changes", required=True, check=_changes),
            Field("upgrades", "changes", check=_upgrade_map),
        ),
    ),
)

COMMANDS = COMMANDS + SERIES_COMMANDS + DRAFT_COMMANDS


def normalize(command: Mapping[str, Any]) -> dict[str, Any]:
    """A checked copy of ``command`` with canonical spellings; unknown types or fields are refused."""
    if not isinstance(command, Mapping):
        raise CommandError("a command is a JSON object with a type")
    return spec_for(COMMANDS, command.get("type"), "Valley Hoopers").from_json(command)
