"""What the front ends show for Crunch Time: the signed lead, whose possession, what to enter next.

Choices are the commands the rules accept now (each candidate is judged by ``rules.allowed``, the
checks ``decide`` runs), so the encoder and the kiosk never offer a refused entry.
"""

from __future__ import annotations

import functools
from typing import Any

from companion.frozen import by_identities, by_identity
from companion.game import JSON, Choice, Counter, Lead, Outcome, Prompt, ScoreboardView, SideView
from companion.games.crunch_time import solo_ai
from companion.games.crunch_time.court import Court
from companion.games.crunch_time.model import (
    DIFFICULTY_TITLES,
    STANDS,
    Coach,
    Possession,
    PossessionRecord,
    State,
    lead_text,
)
from companion.games.crunch_time.rules import AI, allowed, shot_limits
from companion.games.crunch_time.scoring import possession_points, zone_name
from companion.splits import total

STAND_WORDS = {"offence": "open", "both": "defended", "empty": "empty", "defence": "defender only"}


def period_label(state: State) -> str:
    """``R3`` or ``OT1``; once the game is over, the period its last possession was played in."""
    if state.final and state.records:
        last = state.records[-1]
        return f"OT{last.overtime}" if last.overtime else f"R{last.round}"
    return f"OT{state.overtime}" if state.overtime else f"R{min(state.round, 5)}"


def outcome(state: State) -> Outcome | None:
    if not state.final:
        return None
    if state.winner is None:
        return Outcome.ranked([[0, 1]], state.reason)
    return Outcome.ranked([[state.winner], [1 - state.winner]], state.reason)


def scoreboard(state: State) -> ScoreboardView:
    """One signed lead, as the score track shows it ("Red +7"); each side counts its cards in hand.

    The solo AI draws its Shot cards from the deck, so it shows only its display Stars.
    """
    possession = None if state.final or state.phase != "play" else state.offence
    return _board(state.coaches, state.solo, state.lead, possession, period_label(state), state.final)


@functools.lru_cache(maxsize=64)
def _board(coaches: tuple[Coach, Coach], solo: bool, lead: int, possession: int | None, period: str,
           final: bool) -> ScoreboardView:
    """The scoreboard from what it shows: built once, not once per command (a zone or a Star card
    leaves all of it as it was; the view is frozen)."""
    names = (coaches[0].name, coaches[1].name)
    leader = None if lead == 0 else (0 if lead > 0 else 1)
    sides = []
    for i in (0, 1):
        coach = coaches[i]
        counters = (Counter("Stars", coach.stars),) if solo and i == AI else \
            (Counter("Shot", coach.shots), Counter("Stars", coach.stars))
        sides.append(SideView(names[i], None, counters=counters, active=possession == i))
    # The top bar's middle says whose ball it is (the OLED's lead layout has no possession arrow).
    clock = f"{names[possession][:8]} ball" if possession is not None else ""
    return ScoreboardView(game="crunch-time", title="Crunch Time", sides=(sides[0], sides[1]),
                          period=period, clock=clock,
                          possession=possession, message=lead_text(names, lead),
                          lead=Lead(leader, abs(lead)), final=final)


def _legal(state: State, candidates: list[Choice]) -> tuple[Choice, ...]:
    # Each candidate is built in its checked form, so the rules' checks judge it (``allowed``)
    # without a field check or the state a score would leave.
    return tuple(choice for choice in candidates if allowed(state, choice.command))


# The candidates are the same Choice objects from state to state (frozen; their commands are read,
# never changed): built once per court, names and Shot card, not once per command.
_ZONES = tuple(Choice(f"{points}-pt zone: {STAND_WORDS[stand]}",
                      {"type": "zone", "points": points, "stand": stand})
               for points in (3, 2) for stand in STANDS)
_NO_AI_ZONE = Choice("AI Star shows no zone here", {"type": "ai_star", "shot": None, "zone": None})
_SCORE = Choice("score the possession", {"type": "score"})


@functools.lru_cache(maxsize=64)
def _shot_card(label: str) -> Choice:
    return Choice(label, {"type": "shot_card"})


@functools.lru_cache(maxsize=256)
def _card_choices(shot: int, points: tuple[int, ...], offence_name: str, defence_name: str, solo: bool
                  ) -> tuple[Choice, ...]:
    """A Shot card's Star candidates, and in the solo game its AI Star ones (only the AI coach
    shows Stars), from its place in the possession and its zones' points."""
    found = []
    for zone, zone_points in enumerate(points):
        where = f"card {shot + 1} zone {zone + 1} ({zone_points})"
        for role, name in (("offence", offence_name), ("defence", defence_name)):
            found.append(Choice(f"{name} Star on {where}",
                                {"type": "star", "role": role, "shot": shot + 1, "zone": zone + 1}))
        if solo:
            found.append(Choice(f"AI Star shows {where}",
                                {"type": "ai_star", "shot": shot + 1, "zone": zone + 1}))
    return tuple(found)


def stars_open(possession: Possession, fewest: int) -> bool:
    """Whether Star cards may come now: after the possession's Shot cards and their zones (the first
    refusals of ``rules._star_checked``; the prompt offers no Star card before)."""
    return len(possession.shots) >= fewest and all(card.zones for card in possession.shots)


def prompt(state: State) -> Prompt:
    names = state.names
    if state.final:
        winner = "" if state.winner is None else f"{names[state.winner]} wins "
        return Prompt(side=None, text=f"game over: {winner}{state.reason}", commands=())
    if state.phase == "tip_off":
        text = ("tip-off: each coach turns up a Shot card; the higher number has the first offensive "
                "possession of every round")
        return Prompt(side=None, text=text, commands=("tip_off",),
                      choices=tuple(Choice(f"{names[i]} wins the tip-off", {"type": "tip_off", "winner": i})
                                    for i in (0, 1)))
    possession = state.current
    assert possession is not None
    offence = state.offence
    defence = 1 - offence
    ai_offence = state.solo and offence == AI
    candidates: list[Choice] = []
    fewest, most, _ = shot_limits(state)
    card_word = "the AI's Shot card" if ai_offence else "a Shot card"
    if not possession.shots:
        text = (f"{names[offence]} has the ball: " +
                ("the AI draws a Shot card and places its players; enter the card's zones"
                 if ai_offence else "play a Shot card, move, then enter its highlighted zones"))
        candidates.append(_shot_card(f"{names[offence]}: {card_word}"))
    elif state.court is not None:
        candidates += court_candidates(state.court, names, possession.offence, state.positions,
                                       possession.zone_ids, state.solo)
        points = possession_points(possession)
        text = (f"{names[offence]} on offence, {len(possession.shots)} Shot card"
                f"{'s' * (len(possession.shots) > 1)}: {points.shot_points} open so far")
        # The order the table meets them: the card's zones, the AI's Star-draw placements, its display.
        unnamed = next((n for n, ids in enumerate(possession.zone_ids) if not ids), None)
        if unnamed is not None:
            text = (f"{'the AI' if ai_offence else names[offence]}: name the highlighted zones of "
                    f"Shot card {unnamed + 1}")
        elif state.solo and "" in state.positions[AI]:
            text = "AI: draw a Star card and place an AI player on its zone (redraw a zone it holds)"
        elif state.solo and None in state.ai_display:
            text = f"AI display Star {state.ai_display.index(None) + 1}: which zone does it show?"
    else:
        points = possession_points(possession)
        text = (f"{names[offence]} on offence, {len(possession.shots)} Shot card"
                f"{'s' * (len(possession.shots) > 1)}: {points.shot_points} open so far")
        if state.solo and not ai_offence and not possession.ai_done:
            step = solo_ai.next_step(possession)
            if len(possession.ai_matches) < state.coach(AI).stars:
                text = (f"AI display Star {len(possession.ai_matches) + 1}: which highlighted zone does "
                        "it show?")
            elif step[0] == "ask" and step[1] is not None:
                text = (f"AI defence: can an AI player reach {zone_name(possession.shots, *step[1])} "
                        "in one space?")
                for answer, label in (("free", "yes"), ("uncovers", "only by leaving a player it guards"),
                                      ("no", "no")):
                    candidates.append(Choice(label, {"type": "ai_reach", "shot": step[1][0] + 1,
                                                     "zone": step[1][1] + 1, "answer": answer}))
        candidates += _ZONES
        if len(possession.shots) < most:
            candidates.append(_shot_card(f"{names[offence]}: 2nd Shot card"))
        if state.solo or stars_open(possession, fewest):
            for s, card in enumerate(possession.shots):
                candidates += _card_choices(s, tuple(zone.points for zone in card.zones), names[offence],
                                            names[defence], state.solo)
        if state.solo:
            candidates.append(_NO_AI_ZONE)
        if len(possession.shots) >= fewest:
            candidates.append(_SCORE)
    solo: tuple[str, ...] = ()
    if state.solo:
        solo = ("ai_star", "ai_place", "ai_move") if state.court else ("ai_star", "ai_reach")
    commands = ("shot_card", "zone", "star", "score", *(("move",) if state.court else ()), *solo)
    return Prompt(side=offence, text=text, commands=commands, choices=_legal(state, candidates))


@functools.lru_cache(maxsize=64)
def court_candidates(court: Court, names: tuple[str, str], offence: int,
                     positions: tuple[tuple[str, ...], ...], zone_ids: tuple[tuple[str, ...], ...],
                     solo: bool) -> tuple[Choice, ...]:
    """Everything the table could enter now on a court (judged with ``allowed`` by the caller): built
    once per court, names, offence, players' zones and Shot cards' zones."""
    found: list[Choice] = []
    for zone in court.ids:
        found.append(Choice(f"Shot card zone {zone} ({court.points(zone)})", {"type": "zone", "zone": zone}))
    found.append(Choice(f"{names[offence]}: 2nd Shot card", {"type": "shot_card"}))
    for role, side in (("offence", offence), ("defence", 1 - offence)):
        for player, here in enumerate(positions[side]):
            for zone in court.ids:
                if zone != here:
                    found.append(Choice(f"{names[side]} player {player + 1}: {here} to {zone}",
                                        {"type": "move", "role": role, "player": player + 1, "to": zone}))
    for s, ids in enumerate(zone_ids):
        for zone in ids:
            for role, side in (("offence", offence), ("defence", 1 - offence)):
                found.append(Choice(f"{names[side]} Star on {zone}",
                                    {"type": "star", "role": role, "zone": zone, "shot": s + 1}))
    if solo:
        for zone in court.ids:
            found.append(Choice(f"AI Star shows {zone}", {"type": "ai_star", "zone": zone}))
            found.append(Choice(f"AI player on {zone}", {"type": "ai_place", "zone": zone}))
        found.append(Choice("AI's defensive move", {"type": "ai_move"}))
    found.append(_SCORE)
    return tuple(found)


def _star_side(offence: int, role: str) -> int:
    return offence if role == "offence" else 1 - offence


def _count_row(record: PossessionRecord, first: str, second: str) -> dict[str, Any]:
    """One possession's row (a record never changes once scored: built once per record)."""
    r = record
    names = (first, second)
    return {"period": f"OT{r.overtime}" if r.overtime else f"R{r.round}", "round": r.round,
            "overtime": r.overtime, "offence": r.offence, "offence_name": names[r.offence],
            "shots": r.shots, "shot_points": r.shot_points, "offence_stars": r.offence_stars,
            "defence_stars": r.defence_stars, "net": r.net, "lead": r.lead,
            "lead_text": lead_text(names, r.lead), **r.splits.to_json(free_throws=False)}


# By the identity of the record and of the coaches' name strings (a copied state shares neither).
_possession_row = by_identities(_count_row, size=512)


def _count_records(records: tuple[PossessionRecord, ...], first: str, second: str
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The view's possessions and box score: built once per tuple of records (every command that
    scores no possession leaves the state's tuple as it was)."""
    rows = [_possession_row(r, first, second) for r in records]
    box = list(rows)
    for side, name in enumerate((first, second)):
        mine = [r for r in records if r.offence == side]
        shot_points = sum(r.shot_points for r in mine)
        offence_stars = sum(r.offence_stars for r in mine)
        defence_stars = sum(r.defence_stars for r in records if r.offence != side)
        box.append({"period": "Total", "offence": side, "offence_name": name, "total": True,
                    "shots": sum(r.shots for r in mine), "shot_points": shot_points,
                    "offence_stars": offence_stars, "defence_stars": defence_stars,
                    "net": shot_points + offence_stars + defence_stars,
                    **total(r.splits for r in mine).to_json(free_throws=False)})
    return [dict(row) for row in rows], box


_records_json = by_identities(_count_records, size=16)
_court_json = by_identity(Court.to_json, size=8)  # every state of a game shares its court


def box_score(state: State) -> list[dict[str, Any]]:
    """The game-end box score: the possessions in order, then each coach's total line (``total``):
    their Shot cards, field goals and offensive Stars on offence, their defensive Stars on defence,
    and under Net all the points they scored (unplayed Stars cashed at the end not included)."""
    return _records_json(state.records, state.coaches[0].name, state.coaches[1].name)[1]


def view(state: State) -> JSON:
    possessions, box = _records_json(state.records, state.coaches[0].name, state.coaches[1].name)
    possession = state.current
    current: Any = None
    if possession is not None:
        points = possession_points(possession)
        current = {
            "offence": possession.offence,
            "shots": [{"card": n + 1, "number": c.number,
                       "zones": [{"points": z.points, "stand": z.stand} for z in c.zones],
                       "zones_text": ", ".join(f"{z.points} {STAND_WORDS[z.stand]}" for z in c.zones)
                       or "no zone yet"}
                      for n, c in enumerate(possession.shots)],
            "stars": [{"role": p.role, "shot": p.shot + 1, "zone": p.zone + 1,
                       "text": f"{state.names[_star_side(possession.offence, p.role)]} on "
                               f"{zone_name(possession.shots, p.shot, p.zone)}"}
                      for p in possession.stars],
            "ai_matches": [None if m is None else [m[0] + 1, m[1] + 1] for m in possession.ai_matches],
            "ai_done": possession.ai_done,
            "open_points": points.shot_points,
            "zone_ids": [list(ids) for ids in possession.zone_ids],
        }
    return {
        "mode": state.mode,
        "difficulty": DIFFICULTY_TITLES.get(state.difficulty or "", None),
        "lead": state.lead,
        "lead_text": lead_text(state.names, state.lead),
        "phase": state.phase,
        "round": min(state.round, 5),
        "overtime": state.overtime,
        "period": period_label(state),
        "period_label": period_label(state),
        "offence": None if state.phase != "play" else state.offence,
        "first": state.first,
        "sides": [{"name": c.name, "shot_cards": c.shots, "star_cards": c.stars, "doubles": c.doubles,
                   "ai": state.solo and i == AI} for i, c in enumerate(state.coaches)],
        "current": current,
        "possessions": possessions,
        "box_score": box,
        "winner": state.winner,
        "reason": state.reason,
        "court": _court_json(state.court) if state.court else None,
        "positions": [list(zones) for zones in state.positions],
        "ai_display": list(state.ai_display),
    }
