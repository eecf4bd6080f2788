"""Crunch Time's rules: setup, ``decide`` (what a command means now, or why not) and ``apply``.

No dice: each offensive possession the table enters the Shot card(s) the offence played, each
highlighted zone with its points and who stands there after movement, and the Star cards played;
the app checks the Star rules, scores the possession, moves the one signed lead and runs the
rounds, the mercy rule, the unplayed-Star points, overtime, and the solo AI's turns.

>>> s = setup({})
>>> s = run(s, {"type": "tip_off", "cards": [40, 12]})
>>> s = run(s, {"type": "shot_card"})
>>> s = run(s, {"type": "zone", "points": 3, "stand": "offence"})
>>> s = run(s, {"type": "score"})
>>> s.lead, s.offence
(3, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import CommandError, CompanionError, RuleError
from companion.frozen import replace
from companion.game import JSON
from companion.games.crunch_time import court_play, solo_ai
from companion.games.crunch_time.commands import check
from companion.games.crunch_time.court import court_option
from companion.games.crunch_time.model import (
    DIFFICULTY,
    DIFFICULTY_TITLES,
    MAX_ZONES,
    MERCY,
    OVERTIME_ROUNDS,
    OVERTIME_SHOT_CARDS,
    REGULATION_ROUNDS,
    SHOT_CARDS,
    SHOT_DECK,
    SOLO_SHOT_CARDS,
    STANDS,
    AiAnswer,
    Coach,
    Move,
    Possession,
    PossessionRecord,
    ShotCard,
    StarPlay,
    State,
    Zone,
    lead_text,
)
from companion.games.crunch_time.scoring import (
    check_star,
    possession_points,
    possession_splits,
    star_draws,
    zone_name,
)
from companion.splits import Splits

AI = 1  # in the solo game side 1 is the AI coach


# -- setup ---------------------------------------------------------------------------------------

def setup(options: Mapping[str, Any]) -> State:
    """Two coaches (``names``, or ``sides`` as ``[{"name": ...}, ...]``), or ``mode: solo`` against
    the AI at a ``difficulty``; an optional ``court``."""
    unknown = set(options) - {"names", "sides", "mode", "difficulty", "court"}
    if unknown:
        raise CommandError(f"Crunch Time has no setup option {sorted(unknown)[0]!r}; "
                           "it knows names (or sides), mode, difficulty and court")
    court = court_option(options.get("court"))
    state = _setup_without_court(options)
    if court is None:
        return state
    state = replace(state, court=court, positions=court_play.start_positions(court),
                    ai_display=(None,) * state.coach(AI).stars if state.solo else ())
    return replace(state, current=court_play.new_possession(state, 0)) if state.current else state


def _names(options: Mapping[str, Any], default: list[str]) -> list[Any]:
    """The coaches' names from ``names`` or from the front ends' ``sides`` (each side's ``name``)."""
    if "sides" in options:
        sides = options["sides"]
        if "names" in options:
            raise CommandError("give the coaches' names once: names or sides, not both")
        if not (isinstance(sides, list) and all(isinstance(s, Mapping) for s in sides)):
            raise CommandError("sides is a list of the two coaches, e.g. [{\"name\": \"Red\"}, "
                               "{\"name\": \"Blue\"}]")
        return [s.get("name") for s in sides]
    return options.get("names", default)


def _setup_without_court(options: Mapping[str, Any]) -> State:
    mode = options.get("mode") or "two"
    if mode not in ("two", "solo"):
        raise CommandError(f"mode is two (two coaches) or solo (against the AI), not {mode!r}")
    default_names = ["Red", "Blue"] if mode == "two" else ["You", "AI"]
    names = _names(options, default_names)
    if not (isinstance(names, list) and len(names) == 2
            and all(isinstance(n, str) and n.strip() for n in names)):
        raise CommandError("names must be a list of the two coaches' names, e.g. [\"Red\", \"Blue\"]")
    if names[0].strip() == names[1].strip():
        raise CommandError("the two coaches need different names")
    first, second = (n.strip()[:20] for n in names)
    if mode == "two":
        # A difficulty is the solo game's starting lead; the kiosk's form sends one either way.
        return State("two", None, (Coach(first, SHOT_CARDS, 1), Coach(second, SHOT_CARDS, 1)))
    difficulty = str(options.get("difficulty") or "rookie").strip().lower().replace(" ", "-")
    if difficulty not in DIFFICULTY:
        raise CommandError(f"difficulty is one of {', '.join(DIFFICULTY_TITLES.values())}, "
                           f"not {options.get('difficulty')!r}")
    # "the Score marker is placed on your side of the Score Track based on the difficulty";
    # "You have the first offensive possession each Round (no tip-off)".
    return State("solo", difficulty, (Coach(first, SOLO_SHOT_CARDS, 1), Coach(second, 0, 1)),
                 lead=DIFFICULTY[difficulty], phase="play", first=0, current=Possession(0))


# -- decide ----------------------------------------------------------------------------------------

def _int(command: Mapping[str, Any], key: str) -> int:
    value = command.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandError(f"{command.get('type')} needs {key} (a whole number), not {value!r}")
    return value


def _spot(command: Mapping[str, Any], key: str = "") -> tuple[int, int] | None:
    """``shot`` and ``zone`` as 1-based numbers a player reads, held 0-based."""
    shot_key, zone_key = (f"{key}shot", f"{key}zone") if key else ("shot", "zone")
    if command.get(shot_key) is None and command.get(zone_key) is None:
        return None
    return _int(command, shot_key) - 1, _int(command, zone_key) - 1


def _require_play(state: State) -> Possession:
    if state.final:
        raise RuleError("the game is over: undo to change the result, or start a new game")
    if state.phase == "tip_off" or state.current is None:
        raise RuleError("the tip-off comes first: each coach turns up a Shot card, the higher number "
                        "has the first offensive possession")
    return state.current


def shot_limits(state: State) -> tuple[int, int, str]:
    """How many Shot cards this possession takes (fewest, most) and the rule that says so."""
    if state.overtime:
        return 1, 1, "you may not play 2 Shot cards in 1 possession during overtime"
    if state.solo:
        return 1, 1, "there are no 2-Shot card possessions in the solo game"
    coach = state.coach(state.offence)
    if state.round == REGULATION_ROUNDS:
        return 2, 2, "2 Shot cards must also be played in round 5"
    if coach.doubles:
        return 1, 1, (f"a 2nd Shot card is played once during rounds 1-4, and {coach.name} "
                      "has played it already")
    if state.round == REGULATION_ROUNDS - 1:
        return 2, 2, (f"a 2nd Shot card must be played once during rounds 1-4: this is {coach.name}'s "
                      "last chance, so round 4 takes two Shot cards")
    return 1, 2, "a possession takes 1 Shot card, or 2 once during rounds 1-4"


def _ai_offence(state: State) -> bool:
    return state.solo and state.offence == AI


def _ai_defence(state: State) -> bool:
    return state.solo and state.offence != AI


def _ai_started(possession: Possession) -> bool:
    return bool(possession.ai_matches or possession.ai_answers or possession.ai_done)


def _ai_committed(state: State, possession: Possession) -> bool:
    """Whether the AI has acted on this possession's zones. Without a court its display Stars are
    matched to the zones entered so far (by their place on the card); with one they name court zones,
    re-matched whenever a zone is named, so only the AI's defensive move is decided from the zones."""
    return possession.ai_done if state.court is not None else _ai_started(possession)


def decide(state: State, command: Mapping[str, Any]) -> list[JSON]:
    """What ``command`` means now, or why not: its fields are checked by its spec first
    (``commands.COMMANDS``), then the rules of the moment."""
    checked = check(command)
    return _HANDLERS[checked["type"]](state, checked)


def allowed(state: State, command: Mapping[str, Any]) -> bool:
    """Whether ``decide`` accepts ``command`` now, for a command already in its checked form (as
    ``commands.check`` gives it: the prompt builds its candidates so). A kind whose events lead to
    more events (a tip-off, an AI display Star, an AI answer, a score) is judged by its checks
    alone (``_CHECKS``), without folding the events into a new state: what follows never refuses;
    a zone and a Star card by their checks, without the event's text."""
    try:
        kind = command["type"]
        _CHECKS.get(kind, _HANDLERS[kind])(state, command)
    except CompanionError:
        return False
    return True


def _tip_off(state: State, command: Mapping[str, Any]) -> list[JSON]:
    events = _tip_off_checked(state, command)
    return events + _begin_possession(_fold(state, events))


def _tip_off_checked(state: State, command: Mapping[str, Any]) -> list[JSON]:
    """The tip-off's event, or why not (the first possession's events follow from it)."""
    if state.final:
        raise RuleError("the game is over: undo to change the result, or start a new game")
    if state.phase != "tip_off":
        raise RuleError("the tip-off is over: it only starts the game and each overtime")
    names = state.names
    if "cards" in command:
        cards = command["cards"]
        if not (isinstance(cards, list) and len(cards) == 2
                and all(isinstance(c, int) and not isinstance(c, bool) for c in cards)):
            raise CommandError("tip_off cards are the two Shot card numbers, e.g. [40, 12]")
        for card in cards:
            if not 1 <= card <= SHOT_DECK:
                raise CommandError(f"Shot cards are numbered 1 to {SHOT_DECK}, not {card}")
        if cards[0] == cards[1]:
            raise RuleError(f"two Shot cards can't both be number {cards[0]}: check the cards")
        winner = 0 if cards[0] > cards[1] else 1
        text = f"tip-off: {names[0]} {cards[0]}, {names[1]} {cards[1]}: {names[winner]} wins it"
    else:
        winner = command.get("winner")
        if winner not in (0, 1) or isinstance(winner, bool):
            raise CommandError("tip_off needs cards (the two Shot card numbers) or winner (0 or 1)")
        text = f"{names[winner]} wins the tip-off"
    return [{"type": "tipped_off", "first": winner, "text": text}]


def _shot_card(state: State, command: Mapping[str, Any]) -> list[JSON]:
    possession = _require_play(state)
    number = command.get("number")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                               or not 1 <= number <= SHOT_DECK):
        raise CommandError(f"a Shot card's number is 1 to {SHOT_DECK}, not {number!r}")
    _, most, rule = shot_limits(state)
    if len(possession.shots) >= most:
        raise RuleError(rule)
    if possession.shots and not possession.shots[-1].zones:
        raise RuleError("enter the highlighted zones of the Shot card first, then play the next one")
    if possession.stars or _ai_committed(state, possession):
        raise RuleError("Shot cards come first in a possession: undo the Star cards to play another")
    offence = state.coach(state.offence)
    if not _ai_offence(state) and offence.shots <= 0:
        raise RuleError(f"{offence.name} has no Shot card left in hand")
    who = "the AI draws" if _ai_offence(state) else f"{offence.name} plays"
    shown = f" {number}" if number is not None else ""
    ordinal = "a 2nd Shot card" if possession.shots else "a Shot card"
    if state.court is not None:
        zones = court_play.shot_zones(state, command.get("zones", []))
        listed = f": {', '.join(zones)}" if zones else ""
        return court_play.shot_card_event(state, number, zones, f"{who} {ordinal}{shown}{listed}")
    if command.get("zones") is not None:
        raise CommandError("zones on a Shot card need a court file (setup option court); without one, "
                           "enter each zone with the zone command")
    return [{"type": "shot_card_played", "number": number, "text": f"{who} {ordinal}{shown}"}]


def _zone(state: State, command: Mapping[str, Any]) -> list[JSON]:
    possession = _require_play(state)
    if state.court is not None:
        return _court_zone(state, possession, command)
    points, stand = _plain_zone_checked(state, possession, command)
    words = {"offence": "an open shooter", "defence": "a defender only", "both": "defended",
             "empty": "nobody"}
    return [{"type": "zone_entered", "points": points, "stand": stand,
             "text": f"{points}-point zone: {words[stand]}"}]


def _zone_checked(state: State, command: Mapping[str, Any]) -> None:
    """Why a zone can't be entered now (``_zone`` without its events' words)."""
    possession = _require_play(state)
    if state.court is not None:
        _court_zone(state, possession, command)
    else:
        _plain_zone_checked(state, possession, command)


def _plain_zone_checked(state: State, possession: Possession, command: Mapping[str, Any]) -> tuple[int, str]:
    """A highlighted zone entered without a court: its points and who stands there, or why not."""
    points, stand = command.get("points"), command.get("stand")
    if points not in (2, 3) or isinstance(points, bool):
        raise CommandError(f"a highlighted zone is worth 2 (yellow) or 3 (violet) points, not {points!r}")
    if stand not in STANDS:
        raise CommandError(f"stand says who is in the zone after movement: {', '.join(STANDS)}; "
                           f"not {stand!r}")
    if not possession.shots:
        raise RuleError("play a Shot card first, then enter its highlighted zones")
    if len(possession.shots[-1].zones) >= MAX_ZONES:
        raise RuleError(f"a Shot card has at most {MAX_ZONES} highlighted zones (one per player)")
    if possession.stars or _ai_started(possession):
        raise RuleError("enter every zone before the Star cards: undo them to add a zone")
    if _ai_offence(state) and stand not in ("offence", "both"):
        raise RuleError("the AI places a player on every highlighted zone of its Shot card: the zone "
                        "holds the AI's player, with or without your defender (offence or both)")
    return points, stand


def _star(state: State, command: Mapping[str, Any]) -> list[JSON]:
    possession, role, spot, coach = _star_checked(state, command)
    return [{"type": "star_played", "role": role, "shot": spot[0], "zone": spot[1],
             "text": f"{coach.name} plays a Star card on {zone_name(possession.shots, *spot)}"}]


def _star_checked(state: State, command: Mapping[str, Any]) -> tuple[Possession, str, tuple[int, int], Coach]:
    """A Star card's possession, role, (Shot card, zone) and coach, or why it can't be played."""
    possession = _require_play(state)
    role = command.get("role")
    if role not in ("offence", "defence"):
        raise CommandError(f"a Star card is played by the offence or the defence, not {role!r}")
    spot = _court_spot(state, possession, command) if isinstance(command.get("zone"), str) \
        else _spot(command)
    if spot is None:
        raise CommandError("star needs shot and zone (1-based: Shot card 1, zone 2)")
    fewest, _, rule = shot_limits(state)
    if len(possession.shots) < fewest:
        raise RuleError(f"Star cards come after the Shot cards: {rule}")
    if any(not card.zones for card in possession.shots):
        raise RuleError("Star cards come after the Shot cards' highlighted zones: enter them first")
    side = state.offence if role == "offence" else 1 - state.offence
    coach = state.coach(side)
    if state.solo and side == AI:
        raise RuleError("the AI's Star cards are played by the app from its display")
    play = StarPlay(role, spot[0], spot[1])
    check_star(possession, play)
    played = sum(1 for p in possession.stars if p.role == role)
    have = coach.stars + (star_draws(possession.shots) if role == "offence" and not _ai_offence(state)
                          else 0)
    if played >= have:
        raise RuleError(f"{coach.name} has no Star card left to play (holds {coach.stars}"
                        + (f", draws {have - coach.stars}" if have > coach.stars else "") + ")")
    return possession, role, spot, coach


def _court_zone(state: State, possession: Possession, command: Mapping[str, Any]) -> list[JSON]:
    """With a court the table names the zone; its points and who stands there come from the court."""
    assert state.court is not None
    zone = state.court.zone(command.get("zone"))
    if not possession.shots:
        raise RuleError("play a Shot card first, then name its highlighted zones")
    if zone in possession.zone_ids[-1]:
        raise RuleError(f"this Shot card highlights {zone} already")
    if len(possession.zone_ids[-1]) >= MAX_ZONES:
        raise RuleError(f"a Shot card has at most {MAX_ZONES} highlighted zones (one per player)")
    # The zones are printed on the card, played before anyone moved: naming one after a move records
    # what was on the table (reading 15). Star cards and the AI's move are decided from the zones.
    if possession.stars:
        raise RuleError("name every highlighted zone before the Star cards: undo them to add a zone")
    if possession.ai_done:
        raise RuleError("the AI moved its defender from the zones named so far: undo its move to add a zone")
    points = state.court.points(zone)
    events: list[JSON] = [{"type": "zone_entered", "zone": zone, "points": points,
                           "text": f"Shot card zone {zone} ({points} points)"}]
    if _ai_offence(state) and zone not in state.positions[AI]:
        if "" not in state.positions[AI]:
            raise RuleError(f"the AI's players stand on its Shot card's zones and every one is placed, "
                            f"none on {zone}: undo a Star draw's placement (ai_place) to name {zone}")
        events.append({"type": "ai_placed", "zones": [zone], "text": f"the AI places a player on {zone}"})
    return events


def _court_spot(state: State, possession: Possession, command: Mapping[str, Any]) -> tuple[int, int]:
    """A zone named by its id on the court, as (Shot card, zone) of this possession."""
    if state.court is None:
        raise CommandError("a zone named by id needs a court file; without one, give shot and zone numbers")
    zone = state.court.zone(command.get("zone"))
    spots = [(s, z) for s, ids in enumerate(possession.zone_ids) for z, i in enumerate(ids) if i == zone]
    if command.get("shot") is not None:
        spots = [spot for spot in spots if spot[0] == _int(command, "shot") - 1]
    if not spots:
        raise RuleError(f"a Star card's zone must match a highlighted zone on a current Shot card: no "
                        f"current Shot card highlights {zone}")
    if len(spots) > 1:
        raise CommandError(f"both Shot cards highlight {zone}: say which with shot (1 or 2)")
    return spots[0]


def _ai_star(state: State, command: Mapping[str, Any]) -> list[JSON]:
    events = _ai_star_checked(state, command)
    if state.court is not None:
        return events
    return events + _ai_move_if_known(_fold(state, events))


def _ai_star_checked(state: State, command: Mapping[str, Any]) -> list[JSON]:
    """The zone an AI display Star shows, or why not (the AI's move may follow from it)."""
    possession = _require_play(state)
    if not state.solo:
        raise RuleError("only the solo game has an AI coach")
    if state.court is not None:
        if None not in state.ai_display:
            raise RuleError("every AI display Star's zone is entered already")
        zone = state.court.zone(command.get("zone"))
        index = state.ai_display.index(None)
        return [{"type": "ai_display_zone", "zone": zone,
                 "text": f"AI display Star {index + 1} shows {zone}"}]
    display = state.coach(AI).stars
    index = len(possession.ai_matches)
    if index >= display:
        raise RuleError(f"the AI's display holds {display} Star card{'s' * (display != 1)}, "
                        "and each is entered already")
    if not possession.shots or not possession.shots[-1].zones:
        raise RuleError("enter the Shot card and its highlighted zones first")
    spot = _spot(command)
    if spot is not None and not (0 <= spot[0] < len(possession.shots)
                                 and 0 <= spot[1] < len(possession.shots[spot[0]].zones)):
        raise RuleError("that zone is not on the current Shot card: name a highlighted zone, or none")
    where = zone_name(possession.shots, *spot) if spot else "no zone of this Shot card"
    return [{"type": "ai_star_matched", "shot": spot[0] if spot else None,
             "zone": spot[1] if spot else None,
             "text": f"AI display Star {index + 1} shows {where}"}]


def _ai_reach(state: State, command: Mapping[str, Any]) -> list[JSON]:
    events = _ai_reach_checked(state, command)
    return events + _ai_move_if_known(_fold(state, events))


def _ai_reach_checked(state: State, command: Mapping[str, Any]) -> list[JSON]:
    """The table's answer to the AI's question, or why not (the AI's move may follow from it)."""
    possession = _require_play(state)
    if not _ai_defence(state):
        raise RuleError("the AI only moves a defender when you have the ball in the solo game")
    if state.court is not None:
        raise RuleError("with a court file the app works out the AI's move itself (ai_move)")
    if len(possession.ai_matches) < state.coach(AI).stars:
        raise RuleError("first say which zone each AI display Star shows")
    step = solo_ai.next_step(possession)
    if step[0] != "ask":
        raise RuleError("the AI has nothing to ask: it has made its move")
    spot = _spot(command)
    if spot != step[1]:
        asked = step[1]
        assert asked is not None
        raise RuleError(f"the AI is asking about {zone_name(possession.shots, *asked)}, "
                        f"not another zone")
    answer = command.get("answer")
    if answer not in ("free", "uncovers", "no"):
        raise CommandError("answer is free (an AI player reaches it in one space), uncovers (only by "
                           "leaving a player it guards) or no")
    uncovers = _spot(command, "from_") if answer == "uncovers" else None
    if uncovers is not None:
        shot, zone = uncovers
        if not (0 <= shot < len(possession.shots) and 0 <= zone < len(possession.shots[shot].zones)
                and possession.shots[shot].zones[zone].stand == "both"):
            raise RuleError("the zone it would leave must be a highlighted zone where it defends now")
    words = {"free": "can reach", "uncovers": "can reach only by leaving a player it guards",
             "no": "can't reach"}
    assert spot is not None
    return [{"type": "ai_answered", "shot": spot[0], "zone": spot[1], "answer": answer,
             "uncovers": list(uncovers) if uncovers else None,
             "text": f"an AI player {words[answer]} {zone_name(possession.shots, *spot)}"}]


def _ai_move_if_known(state: State) -> list[JSON]:
    """Once the AI's choice follows from what the table said, make its move."""
    possession = state.current
    if (possession is None or not _ai_defence(state) or possession.ai_done
            or len(possession.ai_matches) < state.coach(AI).stars):
        return []
    if state.court is not None:
        return _court_ai_move(state, possession)
    step = solo_ai.next_step(possession)
    if step[0] == "ask":
        return []
    if step[0] == "stay":
        return [{"type": "ai_moved", "shot": None, "zone": None, "uncovers": None,
                 "text": "the AI does not move a defender"}]
    spot, answer = step[1], step[2]  # type: ignore[misc]
    assert spot is not None and isinstance(answer, AiAnswer)
    return [{"type": "ai_moved", "shot": spot[0], "zone": spot[1],
             "uncovers": list(answer.uncovers) if answer.uncovers else None,
             "text": f"the AI moves a defender onto {zone_name(possession.shots, *spot)}"}]


def _court_ai_move(state: State, possession: Possession) -> list[JSON]:
    """With a court, the app answers its own questions from the players' zones."""
    if possession.shots and any(not card.zones for card in possession.shots):
        return []
    players: dict[tuple[int, int], int | None] = {}
    while (step := solo_ai.next_step(possession))[0] == "ask":
        spot = step[1]
        assert spot is not None
        answer, player, _ = court_play.ai_defender(state, spot)
        players[spot] = player
        possession = replace(possession, ai_answers=possession.ai_answers + (AiAnswer(*spot, answer),))
    if step[0] == "stay":
        return [{"type": "ai_moved", "shot": None, "zone": None, "uncovers": None, "player": None,
                 "to": None, "text": "the AI does not move a defender"}]
    spot = step[1]
    assert spot is not None
    player = players[spot]
    assert player is not None
    to = possession.zone_ids[spot[0]][spot[1]]
    start = state.positions[AI][player]
    return [{"type": "ai_moved", "shot": spot[0], "zone": spot[1], "uncovers": None, "player": player,
             "to": to, "text": f"the AI moves its player {player + 1} from {start} to {to}"}]


def _move(state: State, command: Mapping[str, Any]) -> list[JSON]:
    possession = _require_play(state)
    if state.court is None:
        raise RuleError("moves need a court file (setup option court); without one, enter who stands in "
                        "each highlighted zone after movement")
    role = command.get("role")
    if role not in ("offence", "defence"):
        raise CommandError(f"a move is the offence's or the defence's, not {role!r}")
    player = _int(command, "player")
    to = state.court.zone(command.get("to"))
    side = court_play.check_move(state, possession, role, player, to)
    start = state.positions[side][player - 1]
    return [{"type": "moved", "side": side, "player": player - 1, "to": to,
             "text": f"{state.names[side]} moves player {player} from {start} to {to}"}]


def _ai_place(state: State, command: Mapping[str, Any]) -> list[JSON]:
    possession = _require_play(state)
    if state.court is None:
        raise RuleError("the AI's players are placed on a court file's zones (setup option court)")
    zone = state.court.zone(command.get("zone"))
    court_play.check_placement(state, possession, zone)
    player = state.positions[AI].index("")
    return [{"type": "ai_placed", "zones": [zone],
             "text": f"a Star draw places AI player {player + 1} on {zone}"}]


def _ai_move(state: State, command: Mapping[str, Any]) -> list[JSON]:
    possession = _require_play(state)
    if not (_ai_defence(state) and state.court is not None):
        raise RuleError("ai_move is the solo AI's defensive move with a court file")
    if possession.ai_done:
        raise RuleError("the AI has made its move this possession")
    if not possession.shots:
        raise RuleError("play your Shot card first")
    if any(not ids for ids in possession.zone_ids):
        raise RuleError("name your Shot card's highlighted zones first: the AI defends them")
    if None in state.ai_display:
        raise RuleError("first say which zone each AI display Star shows (ai_star)")
    return _court_ai_move(state, possession)


def _score(state: State, command: Mapping[str, Any]) -> list[JSON]:
    events = _score_checked(state, command)
    if events:
        state = _fold(state, events)
    possession = state.current
    assert possession is not None
    offence_role = "offence"
    ai_plays: tuple[tuple[int, StarPlay], ...] = ()
    if state.solo:
        ai_plays = solo_ai.ai_star_plays(possession, offence_role if _ai_offence(state) else "defence")
    counted = replace(possession, stars=possession.stars + tuple(play for _, play in ai_plays))
    points = possession_points(counted)
    names = state.names
    offence = state.offence
    draws = 0 if _ai_offence(state) else star_draws(possession.shots)
    parts = [f"{points.shot_points} from the Shot card{'s' * (len(possession.shots) > 1)}"]
    if points.offence_stars:
        parts.append(f"+{points.offence_stars} offensive Star")
    if points.defence_stars:
        parts.append(f"-{points.defence_stars} defensive Star")
    signed = points.net if offence == 0 else -points.net
    text = (f"{names[offence]} nets {points.net:+d} ({', '.join(parts)}): "
            f"{lead_text(names, state.lead + signed)}")
    if draws:
        text += f"; {names[offence]} drew {draws} Star card{'s' * (draws > 1)}"
    used = [index for index, _ in ai_plays]
    events.append({"type": "possession_scored", "offence": offence, "shots": len(possession.shots),
                   "ai_used": used,
                   "shot_points": points.shot_points, "offence_stars": points.offence_stars,
                   "defence_stars": points.defence_stars, "net": points.net, "draws": draws,
                   "offence_played": sum(1 for p in counted.stars if p.role == "offence"),
                   "defence_played": sum(1 for p in counted.stars if p.role == "defence"),
                   "text": text})
    after = _fold(state, events)
    follow = _after_possession(state, after)
    return events + follow


def _score_checked(state: State, command: Mapping[str, Any]) -> list[JSON]:
    """Why the possession can't be scored yet, or the AI's defensive move that comes first."""
    possession = _require_play(state)
    fewest, _, rule = shot_limits(state)
    if not possession.shots:
        raise RuleError("the offence plays a Shot card first")
    if len(possession.shots) < fewest:
        raise RuleError(rule)
    for i, card in enumerate(possession.shots):
        if not card.zones:
            raise RuleError(f"enter the highlighted zones of Shot card {i + 1} first")
    events: list[JSON] = []
    if state.solo and state.court is not None:
        if None in state.ai_display:
            raise RuleError("say which zone each AI display Star shows first (ai_star)")
        if "" in state.positions[AI]:
            raise RuleError("place every AI player first (Star draws for the zones its card leaves)")
    if state.solo:
        display = state.coach(AI).stars
        if len(possession.ai_matches) < display:
            raise RuleError(f"say which zone each AI display Star shows first "
                            f"({len(possession.ai_matches)} of {display} entered)")
        if _ai_defence(state) and not possession.ai_done:
            events = _ai_move_if_known(state)
            if not events:
                step = solo_ai.next_step(possession)
                assert step[1] is not None
                raise RuleError(f"the AI must move first: can an AI player reach "
                                f"{zone_name(possession.shots, *step[1])}?")
    return events


def _after_possession(before: State, state: State) -> list[JSON]:
    """Round ends, unplayed Stars, the end of regulation or of an overtime round, the next possession."""
    events: list[JSON] = []
    round_over = before.second_half
    if round_over and (before.overtime or before.round == REGULATION_ROUNDS):
        stars = [c.stars for c in state.coaches]
        names = state.names
        cash: JSON = {"type": "stars_cashed", "stars": stars,
                      "text": f"unplayed Star cards: {names[0]} {stars[0]}, {names[1]} {stars[1]}"}
        events.append(cash)
        state = _fold(state, [cash])
        if state.lead != 0:
            winner = 0 if state.lead > 0 else 1
            when = f"overtime {before.overtime}" if before.overtime else "regulation"
            over: JSON = {"type": "game_over", "winner": winner,
                          # The front ends put the winner's name before the reason ("Red wins: by 4 ...").
                          "reason": f"by {abs(state.lead)} after {when}",
                          "text": f"{names[winner]} wins by {abs(state.lead)}"}
            return events + [over]
        if not before.overtime:
            start: JSON = {"type": "overtime_started", "text": "tied after regulation: overtime"}
            events.append(start)
            state = _fold(state, [start])
            return events + (_begin_possession(state) if state.phase == "play" else [])
        if before.overtime % OVERTIME_ROUNDS == 0:
            refill: JSON = {"type": "hands_refilled",
                            "text": f"still tied after {OVERTIME_ROUNDS} overtime rounds: each coach "
                                    f"draws back to {OVERTIME_SHOT_CARDS} Shot cards and 1 Star card"}
            events.append(refill)
            state = _fold(state, [refill])
    return events + _begin_possession(state)


def _begin_possession(state: State) -> list[JSON]:
    """The start of an offensive possession: the mercy rule, and the AI's display Star."""
    if state.phase != "play" or state.final:
        return []
    offence = state.offence
    if state.ahead_by(offence) >= MERCY:
        name = state.names[offence]
        return [{"type": "game_over", "winner": offence,
                 "reason": f"mercy rule: ahead by {state.ahead_by(offence)} at the start of "
                           f"their own offensive possession",
                 "text": f"mercy rule: {name} wins, ahead by {state.ahead_by(offence)}"}]
    if _ai_offence(state):
        return [{"type": "ai_star_drawn",
                 "text": "the AI draws a Shot card and places its players on its highlighted zones "
                         "(Star draws place the rest), then draws a Star card to its display"}]
    return []


_HANDLERS = {
    "tip_off": _tip_off,
    "shot_card": _shot_card,
    "zone": _zone,
    "star": _star,
    "ai_star": _ai_star,
    "ai_reach": _ai_reach,
    "move": _move,
    "ai_place": _ai_place,
    "ai_move": _ai_move,
    "score": _score,
}

# ``allowed`` asks these kinds' checks alone: the events a tip-off, an AI display Star, an AI answer
# or a score lead to are folded into new states, and a zone's or a Star card's text is not needed.
_CHECKS = {
    "tip_off": _tip_off_checked,
    "zone": _zone_checked,
    "star": _star_checked,
    "ai_star": _ai_star_checked,
    "ai_reach": _ai_reach_checked,
    "score": _score_checked,
}


# -- apply -------------------------------------------------------------------------------------

def _fold(state: State, events: list[JSON]) -> State:
    for event in events:
        state = apply(state, event)
    return state


def _with_positions(state: State, side: int, zones: tuple[str, ...]) -> State:
    positions = list(state.positions)
    positions[side] = zones
    return replace(state, positions=tuple(positions))


def _with_current(state: State, **changes: Any) -> State:
    assert state.current is not None
    return replace(state, current=replace(state.current, **changes))


def _set_stand(possession: Possession, spot: tuple[int, int], stand: str) -> tuple[ShotCard, ...]:
    shots = list(possession.shots)
    card = shots[spot[0]]
    zones = list(card.zones)
    zones[spot[1]] = replace(zones[spot[1]], stand=stand)
    shots[spot[0]] = replace(card, zones=tuple(zones))
    return tuple(shots)


def apply(state: State, event: JSON) -> State:
    kind = event["type"]
    if kind == "tipped_off":
        return replace(state, phase="play", first=event["first"], second_half=False,
                       current=court_play.new_possession(state, event["first"]))
    if kind == "shot_card_played":
        assert state.current is not None
        if state.court is not None:
            card = court_play.shots_with_zones(tuple(event["zones"]), state.court, event["number"])
            state = _with_current(state, shots=state.current.shots + (card,),
                                  zone_ids=state.current.zone_ids + (tuple(event["zones"]),))
            return court_play.refresh(state)
        return _with_current(state, shots=state.current.shots + (ShotCard(event["number"]),))
    if kind == "ai_placed":
        zones = list(state.positions[AI])
        if event.get("reset"):
            zones = list(event["zones"]) + [""] * (len(zones) - len(event["zones"]))
        else:
            zones[zones.index("")] = event["zones"][0]
        return court_play.refresh(_with_positions(state, AI, tuple(zones)))
    if kind == "moved":
        assert state.current is not None
        zones = list(state.positions[event["side"]])
        zones[event["player"]] = event["to"]
        state = _with_current(state, moves=state.current.moves
                              + (Move(event["side"], event["player"], event["to"]),))
        return court_play.refresh(_with_positions(state, event["side"], tuple(zones)))
    if kind == "ai_display_zone":
        display = list(state.ai_display)
        display[display.index(None)] = event["zone"]
        return court_play.refresh(replace(state, ai_display=tuple(display)))
    if kind == "zone_entered" and state.court is not None:
        assert state.current is not None
        shots = list(state.current.shots)
        shots[-1] = replace(shots[-1], zones=shots[-1].zones + (Zone(event["points"], "empty"),))
        ids = state.current.zone_ids[:-1] + (state.current.zone_ids[-1] + (event["zone"],),)
        return court_play.refresh(_with_current(state, shots=tuple(shots), zone_ids=ids))
    if kind == "zone_entered":
        assert state.current is not None
        shots = list(state.current.shots)
        shots[-1] = replace(shots[-1], zones=shots[-1].zones + (Zone(event["points"], event["stand"]),))
        return _with_current(state, shots=tuple(shots))
    if kind == "star_played":
        assert state.current is not None
        return _with_current(state, stars=state.current.stars
                             + (StarPlay(event["role"], event["shot"], event["zone"]),))
    if kind == "ai_star_matched":
        assert state.current is not None
        match = None if event["shot"] is None else (event["shot"], event["zone"])
        return _with_current(state, ai_matches=state.current.ai_matches + (match,))
    if kind == "ai_answered":
        assert state.current is not None
        uncovers = tuple(event["uncovers"]) if event["uncovers"] else None
        answer = AiAnswer(event["shot"], event["zone"], event["answer"], uncovers)  # type: ignore[arg-type]
        return _with_current(state, ai_answers=state.current.ai_answers + (answer,))
    if kind == "ai_moved":
        possession = state.current
        assert possession is not None
        if state.court is not None:
            if event["player"] is not None:
                zones = list(state.positions[AI])
                zones[event["player"]] = event["to"]
                state = court_play.refresh(_with_positions(state, AI, tuple(zones)))
            return _with_current(state, ai_done=True)
        if event["shot"] is not None:
            possession = replace(possession, shots=_set_stand(possession, (event["shot"], event["zone"]),
                                                              "both"))
        if event["uncovers"]:
            possession = replace(possession, shots=_set_stand(possession, tuple(event["uncovers"]),
                                                              "offence"))
        return replace(state, current=replace(possession, ai_done=True))
    if kind == "ai_star_drawn":
        if state.court is not None:
            state = replace(state, ai_display=state.ai_display + (None,))
        return state.with_coach(AI, stars=state.coach(AI).stars + 1)
    if kind == "possession_scored":
        return _scored(state, event)
    if kind == "stars_cashed":
        s0, s1 = event["stars"]
        state = replace(state, lead=state.lead + s0 - s1, ai_display=())
        return state.with_coach(0, stars=0).with_coach(1, stars=0)
    if kind == "overtime_started":
        shots = (OVERTIME_SHOT_CARDS, 0 if state.solo else OVERTIME_SHOT_CARDS)
        state = state.with_coach(0, shots=shots[0], stars=1).with_coach(1, shots=shots[1], stars=1)
        # "Each Coach now turns over the top card of the Shot card deck to determine who wins the
        # tip-off"; the solo game has no tip-off: you always have the first possession.
        display = (None,) if state.solo and state.court is not None else ()
        state = replace(state, overtime=1, second_half=False, phase="play" if state.solo else "tip_off",
                        first=0 if state.solo else state.first, ai_display=display)
        return replace(state, current=court_play.new_possession(state, 0) if state.solo else None)
    if kind == "hands_refilled":
        ai_shots = 0 if state.solo else OVERTIME_SHOT_CARDS
        if state.solo and state.court is not None and not state.ai_display:
            state = replace(state, ai_display=(None,))
        return (state.with_coach(0, shots=OVERTIME_SHOT_CARDS, stars=max(1, state.coach(0).stars))
                .with_coach(1, shots=ai_shots, stars=max(1, state.coach(1).stars)))
    if kind == "game_over":
        return replace(state, phase="final", winner=event["winner"], reason=event["reason"], current=None)
    raise ValueError(f"unknown Crunch Time event {kind!r}")


def _scored(state: State, event: JSON) -> State:
    offence, defence = event["offence"], 1 - event["offence"]
    ai_offence = state.solo and offence == AI
    coach = state.coach(offence)
    state = state.with_coach(
        offence,
        shots=coach.shots - (0 if ai_offence else event["shots"]),
        stars=coach.stars + event["draws"] - event["offence_played"],
        doubles=coach.doubles + (1 if event["shots"] == 2 and not state.overtime else 0),
    )
    state = state.with_coach(defence, stars=state.coach(defence).stars - event["defence_played"])
    lead = state.lead + (event["net"] if offence == 0 else -event["net"])
    # The zones' stands are final once the possession is scored: its shots are read off them.
    splits = possession_splits(state.current) if state.current is not None else Splits()
    record = PossessionRecord(state.round, state.overtime, offence, event["shots"], event["shot_points"],
                              event["offence_stars"], event["defence_stars"], event["net"], lead, splits)
    display = tuple(z for i, z in enumerate(state.ai_display) if i not in event.get("ai_used", ()))
    state = replace(state, lead=lead, records=state.records + (record,), ai_display=display)
    if not state.second_half:
        return replace(state, second_half=True, current=court_play.new_possession(state, 1 - state.first))
    if state.overtime:
        state = replace(state, second_half=False, overtime=state.overtime + 1)
    else:
        state = replace(state, second_half=False, round=state.round + 1)
    return replace(state, current=court_play.new_possession(state, state.first))


def run(state: State, command: Mapping[str, Any]) -> State:
    """Decide and apply one command (doctests and tests)."""
    return _fold(state, decide(state, command))
