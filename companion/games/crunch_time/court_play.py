"""Playing with a court file: zones named by id, movement checked, who stands where worked out.

With a court the table names a Shot card's zones (``{"type": "shot_card", "zones": ["V3", "Y2"]}``)
and moves players (``{"type": "move", "role": "offence", "player": 2, "to": "V3"}``); the app keeps
every player's zone, so each highlighted zone's ``stand`` follows from the positions, and the solo
AI's defender and its placement are worked out instead of asked.

Movement (Offensive Possession, "Movement Reminder"): the offence moves 0, 1 or 2 players, each no
more than 2 spaces from where it began the possession; the defence 0 or 1 player, 1 space; "Each
Coach may have a maximum of 1 player per Zone after Movement".
"""

from __future__ import annotations

from companion.errors import CommandError, RuleError
from companion.frozen import replace
from companion.games.crunch_time.court import PLAYERS, Court
from companion.games.crunch_time.model import Possession, ShotCard, State, Zone

AI = 1


def stand_of(zone: str, offence_at: tuple[str, ...], defence_at: tuple[str, ...]) -> str:
    attack, guard = zone in offence_at, zone in defence_at
    return "both" if attack and guard else "offence" if attack else "defence" if guard else "empty"


def restand(possession: Possession, positions: tuple[tuple[str, ...], ...]) -> Possession:
    """Each highlighted zone's ``stand`` from where the players are now."""
    offence_at, defence_at = positions[possession.offence], positions[1 - possession.offence]
    shots = tuple(replace(card, zones=tuple(Zone(zone.points, stand_of(zone_id, offence_at, defence_at))
                                            for zone, zone_id in zip(card.zones, ids, strict=True)))
                  for card, ids in zip(possession.shots, possession.zone_ids, strict=True))
    return replace(possession, shots=shots)


def display_matches(state: State, possession: Possession) -> tuple[tuple[int, int] | None, ...]:
    """Where each AI display Star (whose zone is known) sits on the current Shot card(s)."""
    matches: list[tuple[int, int] | None] = []
    for zone_id in state.ai_display:
        if zone_id is None:
            break
        spot = next(((s, z) for s, ids in enumerate(possession.zone_ids) for z, i in enumerate(ids)
                     if i == zone_id), None)
        matches.append(spot)
    return tuple(matches)


def refresh(state: State) -> State:
    """Re-derive the current possession's stands and AI Star matches after positions changed."""
    if state.court is None or state.current is None:
        return state
    possession = restand(state.current, state.positions)
    if state.solo and possession.zone_ids:
        possession = replace(possession, ai_matches=display_matches(state, possession))
    return replace(state, current=possession)


def start_positions(court: Court) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """"Coaches place the 5 Players in their color in the 5 indicated yellow start Zones"."""
    return (court.starts, court.starts)


def shot_zones(state: State, raw: object) -> tuple[str, ...]:
    court = state.court
    assert court is not None
    if not isinstance(raw, list) or len(raw) > PLAYERS:
        raise CommandError(f"with a court, shot_card may name its highlighted zones: a list of up to "
                           f"{PLAYERS} zone ids, e.g. [\"V3\", \"Y2\"] (or add them with zone)")
    zones = tuple(court.zone(z) for z in raw)
    if len(set(zones)) != len(zones):
        raise CommandError("a Shot card highlights each zone once")
    return zones


def shot_card_event(state: State, number: int | None, zones: tuple[str, ...], text: str) -> list[dict]:
    events: list[dict] = [{"type": "shot_card_played", "number": number, "zones": list(zones), "text": text}]
    if state.solo and state.offence == AI:
        placed = list(zones)
        events.append({"type": "ai_placed", "zones": placed, "reset": True,
                       "text": "the AI takes its players off the court to place them on its Shot card's "
                               "zones (Star draws place the rest)"})
    return events


def check_move(state: State, possession: Possession, role: str, player: int, to: str) -> int:
    """Refuse a move the movement rules don't allow; the side that moves."""
    court = state.court
    assert court is not None
    side = possession.offence if role == "offence" else 1 - possession.offence
    name = state.names[side]
    if state.solo and side == AI:
        raise RuleError("the AI's players are moved by the app")
    if not possession.shots or any(not ids for ids in possession.zone_ids):
        raise RuleError("the offence plays its Shot card(s) and names their zones first, then moves")
    if state.solo and possession.offence == AI and "" in state.positions[AI]:
        raise RuleError("place every AI player first (Star draws for the zones its card leaves)")
    if not 1 <= player <= PLAYERS:
        raise CommandError(f"player is 1 to {PLAYERS} (as the players stood at the start), not {player}")
    index = player - 1
    defence_moves = [m for m in possession.moves if m.side != possession.offence]
    if role == "offence" and (possession.stars or defence_moves):
        raise RuleError("the offence moves before any Star card and before the defence responds")
    if role == "defence" and any(p.role == "defence" for p in possession.stars):
        raise RuleError("the defence moves before it plays its Star cards")
    movers = {m.player for m in possession.moves if m.side == side} | {index}
    most, reach = (2, 2) if role == "offence" else (1, 1)
    if len(movers) > most:
        raise RuleError(f"the {role} may move 0 to {most} player{'s' * (most > 1)}: {name} has moved "
                        f"{len(movers) - 1} already")
    begin = possession.start[side][index] if possession.start and possession.start[side][index] \
        else state.positions[side][index]
    spaces = court.distance(begin, to)
    if spaces > reach:
        raise RuleError(f"a {role} player moves no more than {reach} space{'s' * (reach > 1)}: {begin} to "
                        f"{to} is {spaces}")
    for other, zone in enumerate(state.positions[side]):
        if other != index and zone == to:
            raise RuleError(f"each coach may have at most 1 player per zone: {name}'s player {other + 1} "
                            f"is on {to}")
    return side


def check_placement(state: State, possession: Possession, zone: str) -> None:
    if not (state.solo and possession.offence == AI and possession.shots):
        raise RuleError("only the AI places players from Star draws, after its Shot card")
    if not possession.zone_ids[-1]:
        raise RuleError("name the AI's Shot card's highlighted zones first: its players stand there, "
                        "then Star draws place the rest")
    if "" not in state.positions[AI]:
        raise RuleError("every AI player is placed already")
    if zone in state.positions[AI]:
        raise RuleError(f"the AI already has a player on {zone}: discard that Star card and draw another")


def ai_defender(state: State, spot: tuple[int, int]) -> tuple[str, int | None, bool]:
    """Can an AI defender reach the zone in one space: (answer, which player, uncovers a player)."""
    court = state.court
    possession = state.current
    assert court is not None and possession is not None
    target = possession.zone_ids[spot[0]][spot[1]]
    human = state.positions[1 - AI]
    if target in state.positions[AI]:
        return ("no", None, False)
    reachers = [(p, zone in human) for p, zone in enumerate(state.positions[AI])
                if zone and court.distance(zone, target) == 1]
    for player, uncovers in sorted(reachers, key=lambda r: r[1]):
        return ("uncovers" if uncovers else "free", player, uncovers)
    return ("no", None, False)


def new_possession(state: State, offence: int) -> Possession:
    return Possession(offence, start=state.positions) if state.court else Possession(offence)


def shots_with_zones(zones: tuple[str, ...], court: Court, number: int | None) -> ShotCard:
    return ShotCard(number, tuple(Zone(court.points(z), "empty") for z in zones))
