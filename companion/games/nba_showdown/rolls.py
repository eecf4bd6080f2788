"""Scoring rolls and shot checks: the matchup bonus, markers, strategy cards, assists, the chart.

A scoring roll goes: ``choose`` (player and Speed or Power) -> strategy cards (offense first, then
defense) -> ``roll`` (the natural d20) -> ``assist`` (spent after seeing the roll) -> the chart row's
PTS / AST / REB are marked, markers come from the natural roll, the player is turned sideways.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.errors import RuleError
from companion.frozen import by_identities, by_identity, replace
from companion.game import Term
from companion.games.nba_showdown import odds
from companion.games.nba_showdown.cards import POSITIONS, Card
from companion.games.nba_showdown.model import (
    ROLLS_PER_QUARTER,
    BoxLine,
    CardPlay,
    ScoringRoll,
    ShotCheck,
    State,
    Team,
    other,
)
from companion.games.nba_showdown.quarters import end_quarter

HELPED_BONUS = 2
HELPER_PENALTY = -4


def roller_of(state: State, roll_number: int) -> int:
    """Rolls alternate, the quarter's first side on the 1st, 3rd, ... roll."""
    return state.first_side if roll_number % 2 == 0 else other(state.first_side)


def _player(state: State, side: int, position: str) -> Card:
    return _at(state.teams[side], position)


def double_team_change(state: State, defending_side: int, position: str) -> tuple[int, str]:
    """What the defending side's double-team does to its player at ``position`` on defence."""
    plan = state.teams[defending_side].double_team
    if plan is None:
        return 0, ""
    helped, helper = plan
    if position == helped:
        return HELPED_BONUS, "double-teamed"
    if position == helper:
        return HELPER_PENALTY, "helping the double-team"
    return 0, ""


@lru_cache(maxsize=64)
def double_team_changes(plan: tuple[str, str] | None) -> tuple[int, ...]:
    """``double_team_change`` at each position (POSITIONS order) for a side whose plan is ``plan``."""
    if plan is None:
        return (0,) * len(POSITIONS)
    helped, helper = plan
    return tuple(HELPED_BONUS if position == helped else HELPER_PENALTY if position == helper else 0
                 for position in POSITIONS)


def _card_change(cards: tuple[CardPlay, ...], role: str, stat: str) -> int:
    if not cards:
        return 0  # most rolls: no card played, no sum to count
    return sum(getattr(c, stat) for c in cards if c.role == role)


def _attacking(card: Card, stat: str, cards: tuple[CardPlay, ...]) -> int:
    return odds.floor_one(card.stat(stat) + _card_change(cards, "offense", stat))


def _defending(card: Card, stat: str, change: int, cards: tuple[CardPlay, ...]) -> int:
    return odds.floor_one(card.stat(stat) + change + _card_change(cards, "defense", stat))


def attacker_stat(state: State, roll: ScoringRoll, stat: str) -> int:
    return _attacking(_player(state, roll.side, roll.position), stat, roll.cards)


def defender_stat(state: State, roll: ScoringRoll, stat: str) -> int:
    card = _player(state, other(roll.side), roll.position)
    change, _ = double_team_change(state, other(roll.side), roll.position)
    return _defending(card, stat, change, roll.cards)


def _marker_term(markers: int) -> Term | None:
    if not markers:
        return None
    word = "hot" if markers > 0 else "cold"
    count = f"{abs(markers)} {word} markers" if abs(markers) > 1 else f"{word} marker"
    return Term(count, odds.MARKER_STEP * markers)


def marker_term(state: State, side: int, name: str) -> Term | None:
    return _marker_term(state.teams[side].marker(name) if state.rules.hot_cold else 0)


def _matchup(teams: tuple[Team, Team], markers_on: bool, side: int,
             position: str) -> tuple[Card, Card, int, int]:
    """What the modifiers of a roll at ``position`` read from the table (the state's teams, and
    whether markers count), besides the cards played on it: the roller's card, the defender's, the
    defender's double-team change and the roller's markers (0 when markers are off). ``RuleError``
    if either position is empty."""
    mine, theirs = teams[side], teams[1 - side]
    attacker = _at(mine, position)
    defender = _at(theirs, position)
    change = double_team_changes(theirs.double_team)[POSITIONS.index(position)]
    return attacker, defender, change, mine.marker(attacker.name) if markers_on else 0


def _at(team: Team, position: str) -> Card:
    """The card at ``position`` of a team, refused when nobody stands there."""
    card = team.at(position)
    if card is None:
        raise RuleError(f"{team.name} have nobody at {position}")
    return card


def terms_of(attacker: Card, defender: Card, change: int, markers: int, stat: str,
             cards: tuple[CardPlay, ...] = ()) -> tuple[Term, ...]:
    """Every modifier of a scoring roll from what ``_matchup`` read, matchup first."""
    mine, theirs = _attacking(attacker, stat, cards), _defending(defender, stat, change, cards)
    terms = [Term(f"{stat.title()} {mine} vs {theirs}", odds.matchup_bonus(mine, theirs))]
    marker = _marker_term(markers)
    if marker is not None:
        terms.append(marker)
    terms += [Term(c.name, c.roll_bonus) for c in cards if c.roll_bonus]
    return tuple(terms)


def roll_terms(state: State, roll: ScoringRoll) -> tuple[Term, ...]:
    """Every modifier of the scoring roll, matchup first (the Target breakdown)."""
    return _roll_terms(state.teams, state.rules.hot_cold, roll.side, roll.position, roll.stat, roll.cards)


def _count_roll_terms(teams: tuple[Team, Team], markers_on: bool, side: int, position: str, stat: str,
                      cards: tuple[CardPlay, ...]) -> tuple[Term, ...]:
    return _matchup_terms(*_matchup(teams, markers_on, side, position), stat, cards)


# From the roll to its last assist the states share their teams and the roll's position, stat and
# cards (the same records): the roll, the assist and the prompt after it read the terms once.
_roll_terms = by_identities(_count_roll_terms, size=16)


# A roll's terms read its matchup, stat and cards played: from the choice to the last assist the
# states of one roll ask for the same ones (the prompt before the roll, the roll itself, the view
# after it), so they are built once and shared (the same tuple: what is built on it can be too).
_matchup_terms = by_identities(terms_of, size=16)


def modifier(state: State, roll: ScoringRoll) -> int:
    return sum_terms(roll_terms(state, roll))


def _count_sum(terms: tuple[Term, ...]) -> int:
    return sum(t.value for t in terms)


# The modifier of a roll's terms (the scoreboard's target, the total rolled): once per terms.
sum_terms = by_identity(_count_sum, size=16)


def check_choice(state: State, side: int, position: str, stat: str) -> Card:
    """The roller's card, or ``RuleError``: every check of ``choose`` (someone must stand at the
    position on both sides: the matchup reads the defender). Any ``stat`` but ``speed`` reads Power
    (``normalize`` lets only the two through)."""
    if state.stage != "choose":
        raise RuleError(_not_now(state, "choose a player"))
    if side != state.acting:
        raise RuleError(f"it is {state.teams[state.acting].name}'s scoring roll")
    card = _player(state, side, position)
    if card.name in state.teams[side].used:
        raise RuleError(f"{card.name} already rolled this quarter (he is turned sideways)")
    _player(state, other(side), position)
    return card


def choose(state: State, side: int, position: str, stat: str) -> State:
    """Steps 1-2: choose a player who has not rolled this quarter, and Speed or Power."""
    card = check_choice(state, side, position, stat)
    roll = ScoringRoll(side=side, position=position, stat=stat)
    mine, theirs = attacker_stat(state, roll, stat), defender_stat(state, roll, stat)
    return replace(state, stage="roll", roll=roll,
                   message=f"{card.name} ({position}) rolls with {stat.title()} {mine} against {theirs}")


def _not_now(state: State, what: str) -> str:
    waiting = {"placement": "players are being put in", "double_team": "the double-teams are being decided",
               "choose": f"{state.teams[state.acting].name} choose a player and Speed or Power",
               "roll": "the scoring roll is awaited", "shot_check": "the shot check's d20 is awaited",
               "assist": f"{state.teams[state.acting].name} decide how many assists to add",
               "over": "the game is over"}
    return f"can't {what} now: {waiting[state.stage]}"


def _requirement_met(state: State, roll: ScoringRoll, role: str, requires: dict[str, Any]) -> str | None:
    """None if the card's requirement holds now, else the sentence saying what fails."""
    side = roll.side if role == "offense" else other(roll.side)
    card = _player(state, side, roll.position)
    mine = attacker_stat if role == "offense" else defender_stat
    theirs = defender_stat if role == "offense" else attacker_stat
    for key, value in requires.items():
        if key in ("more", "less"):
            a, b = mine(state, roll, value), theirs(state, roll, value)
            if (key == "more" and not a > b) or (key == "less" and not a < b):
                return f"{card.name}'s {value.title()} {a} is not {'more' if key == 'more' else 'less'} " \
                       f"than the opposing player's {b}"
        elif key == "at_least":
            for stat, needed in value.items():
                if mine(state, roll, stat) < needed:
                    return f"{card.name}'s {stat.title()} {mine(state, roll, stat)} is under {needed}"
        elif key == "position" and roll.position not in value:
            return f"{card.name} plays {roll.position}, not {' or '.join(value)}"
        elif key in ("hot", "cold"):
            markers = state.teams[side].marker(card.name)
            if value and not (markers > 0 if key == "hot" else markers < 0):
                return f"{card.name} has no {key} marker"
    return None


def play_card(state: State, event: dict[str, Any]) -> State:
    """Steps 3-4: one offensive card on the roller, then one defensive card on the defender."""
    if state.stage != "roll" or state.roll is None:
        raise RuleError(_not_now(state, "play a strategy card") + " (Strategy Cards: after choosing a "
                        "player and Speed or Power, before the roll)")
    if not state.rules.strategy:
        raise RuleError("strategy cards are switched off in this game")
    roll = state.roll
    side = event["side"]
    team = state.teams[side]
    role = "offense" if side == roll.side else "defense"
    if any(c.role == role for c in roll.cards):
        raise RuleError(f"{team.name} already played a {role} card on this roll (Strategy Cards: 1 each)")
    if role == "offense" and roll.cards:
        raise RuleError("the offensive card comes first: the defence already played (Advanced Turn Sequence)")
    if team.hand < 1:
        raise RuleError(f"{team.name} have no strategy cards in hand")
    name = event["card"]
    if team.deck:
        copies = dict(team.deck).get(name)
        if copies is None:
            raise RuleError(f"{name!r} is not in {team.name}'s strategy deck")
        if team.played.count(name) >= copies:
            raise RuleError(f"{team.name} already played all {copies} copies of {name}")
    failed = _requirement_met(state, roll, role, event.get("requires", {}))
    if failed:
        raise RuleError(f"{name} can't be played: {failed} (its requirement is checked when it is played)")
    adjust = event.get("adjust", {})
    play = CardPlay(side=side, name=name, role=role, roll_bonus=event.get("roll_bonus", 0),
                    speed=event.get("speed", 0), power=event.get("power", 0),
                    pts=adjust.get("pts", 0), ast=adjust.get("ast", 0), reb=adjust.get("reb", 0))
    state = state.with_team(side, replace(team, hand=team.hand - 1, played=(*team.played, name)))
    roll = replace(roll, cards=(*roll.cards, play))
    shot = event.get("shot_check")
    player = _player(state, side, roll.position)
    text = f"{team.name} play {name} ({role}) on {player.name}"
    if shot is None:
        return replace(state, roll=roll, message=text)
    check = ShotCheck(side=side, position=roll.position, card=name,
                      points=1 if shot.get("foul_shot") else shot.get("points", 2),
                      bonus=shot.get("bonus", 0), three_point=shot.get("three_point", False),
                      foul_shot=shot.get("foul_shot", False), markers=shot.get("markers", True),
                      gives_markers=shot.get("gives_markers", False))
    return replace(state, roll=replace(roll, shot_check=check), stage="shot_check",
                   message=f"{text}: "
                           f"{player.name} makes a {'foul shot' if check.foul_shot else 'shot check'}")


def shot_check_terms(state: State, check: ShotCheck) -> tuple[Term, ...]:
    """Shot check modifiers: the card's bonus, 3-pt bonus, foul shot +10, markers; never the matchup."""
    card = _player(state, check.side, check.position)
    terms = []
    if check.bonus:
        terms.append(Term("card bonus", check.bonus))
    if check.three_point and card.three_point_bonus:
        terms.append(Term("3PT bonus", card.three_point_bonus))
    if check.foul_shot:
        terms.append(Term("foul shot", odds.FOUL_SHOT_BONUS))
    marker = marker_term(state, check.side, card.name) if check.markers else None
    if marker is not None:
        terms.append(marker)
    return tuple(terms)


def _credit(state: State, side: int, player: str, pts: int, ast: int, reb: int) -> State:
    """Points on the Scoring Track and the player's line in the box score."""
    box, score, quarter = _credited(state, side, player, pts, ast, reb)
    return replace(state, box=box, score=score, quarter_points=quarter)


def _credited(state: State, side: int, player: str, pts: int, ast: int, reb: int
              ) -> tuple[tuple[BoxLine, ...], tuple[int, int], tuple[int, int]]:
    """``_credit``'s box score, score and quarter points."""
    box = list(state.box)
    at = _line_of(state.box, side, player, state.quarter)
    if at is None:
        box.append(BoxLine(side, player, state.quarter, pts, ast, reb))
    else:
        line = box[at]
        box[at] = replace(line, pts=line.pts + pts, ast=line.ast + ast, reb=line.reb + reb)
    score = list(state.score)
    quarter = list(state.quarter_points)
    score[side] += pts
    quarter[side] += pts
    return tuple(box), (score[0], score[1]), (quarter[0], quarter[1])


def _line_of(box: tuple[BoxLine, ...], side: int, player: str, quarter: int) -> int | None:
    """Where the player's line for ``quarter`` is in the box score, if he has one. A player has one
    line per quarter, added when he first scores or shoots in it, so the lines run in quarter order:
    this quarter's are the last ones, and the search stops at the first line of another quarter."""
    for i in range(len(box) - 1, -1, -1):
        line = box[i]
        if line.quarter != quarter:
            return None
        if line.side == side and line.player == player:
            return i
    return None


def _count_shot(state: State, check: ShotCheck, player: str, made: bool) -> State:
    """The shot check on the player's line: a foul shot is a free throw, any other a field goal
    (a 3-pointer when the card calls it a three-point shot check, whatever points it is worth)."""
    box = list(state.box)
    at = _line_of(state.box, check.side, player, state.quarter)
    if at is None:
        box.append(BoxLine(check.side, player, state.quarter))
        at = len(box) - 1
    splits = box[at].splits
    splits = (splits.free_throw(made) if check.foul_shot
              else splits.shot(check.points, made, three=check.three_point))
    box[at] = replace(box[at], splits=splits)
    return replace(state, box=tuple(box))


def _natural_markers(state: State, side: int, name: str, face: int) -> State:
    if not state.rules.hot_cold:
        return state
    change = 1 if face in odds.HOT_FACES else -1 if face in odds.COLD_FACES else 0
    if not change:
        return state
    # A hot marker on a cold player removes a cold one (and the other way): a signed count does both.
    return state.with_team(side, state.teams[side].with_marker(name, change))


def _shot_check_roll(state: State, face: int) -> State:
    roll = state.roll
    assert roll is not None and roll.shot_check is not None
    check = roll.shot_check
    card = _player(state, check.side, check.position)
    total = odds.roll_total(face, sum(t.value for t in shot_check_terms(state, check)))
    made = total >= card.shot_line
    what = "foul shot" if check.foul_shot else "shot check"
    state = _count_shot(state, check, card.name, made)
    if made:
        state = _credit(state, check.side, card.name, check.points, 0, 0)
    if check.gives_markers:
        state = _natural_markers(state, check.side, card.name, face)
    text = (f"{card.name}'s {what}: {face} -> {total}, {'made' if made else 'missed'} "
            f"(needs {card.shot_line}){f', +{check.points}' if made else ''}")
    return replace(state, stage="roll", roll=replace(roll, shot_check=None), message=text)


def roll_die(state: State, face: int) -> State:
    """Step 5: the natural d20. Assists are offered if they could lift the total onto a higher row."""
    if state.stage == "shot_check":
        return _shot_check_roll(state, face)
    if state.stage != "roll" or state.roll is None:
        raise RuleError(_not_now(state, "roll the d20"))
    roll = replace(state.roll, face=face)
    card = _player(state, roll.side, roll.position)
    total = odds.roll_total(face, modifier(state, roll))
    team = state.teams[roll.side]
    needed = odds.assists_to_next_row(card, total)
    if state.rules.assists and needed is not None and needed <= team.assists:
        row = card.row_for(total)
        return replace(state, roll=roll, stage="assist",
                       message=f"{card.name} rolled {face} -> {total} ({row.label}: {row.result}); "
                               f"{needed} assist{'s reach' if needed > 1 else ' reaches'} the next row")
    return _finish(replace(state, roll=roll), 0, total)


def check_assists(state: State, count: int) -> None:
    """``RuleError`` unless ``count`` assists can be added now: every check of ``spend_assists``."""
    if state.stage != "assist" or state.roll is None:
        raise RuleError(_not_now(state, "add assists"))
    team = state.teams[state.roll.side]
    if count < 0:
        raise RuleError("assists are added, never taken away (0 or more)")
    if count > team.assists:
        raise RuleError(f"{team.name} have {team.assists} assist{'s' if team.assists != 1 else ''} on the "
                        f"Assist Track, not {count}")


def spend_assists(state: State, count: int) -> State:
    """Assists added after seeing the roll: +1 each, taken off the Assist Track."""
    check_assists(state, count)
    return _finish(state, count)


def _finish(state: State, assists: int, before: int | None = None) -> State:
    """Step 6-7: mark points, assists and rebounds, markers from the natural roll, turn him sideways.
    ``before`` is the total before assists when the roll was just counted."""
    roll = state.roll
    assert roll is not None and roll.face is not None
    side = roll.side
    card = _player(state, side, roll.position)
    if before is None:
        before = odds.roll_total(roll.face, modifier(state, roll))
    total = before + assists
    row = card.row_for(total)
    cards = roll.cards  # most rolls have none played: no sums to count
    pts = max(0, row.pts + sum(c.pts for c in cards)) if cards else max(0, row.pts)
    ast = reb = 0
    if state.rules.assists:
        ast = max(0, row.ast + sum(c.ast for c in cards)) if cards else max(0, row.ast)
    if state.rules.rebounds:
        reb = max(0, row.reb + sum(c.reb for c in cards)) if cards else max(0, row.reb)
    box, score, quarter = _credited(state, side, card.name, pts, ast, reb)
    # The team and the state after the roll are built once each (``_credit``, the tracks, who
    # rolled, the rebound marker and the markers of the natural roll, in one change).
    team = state.teams[side]
    rules = state.rules
    changed: dict[str, Any] = {"used": (*team.used, card.name)}
    if rules.assists:
        changed["assists"] = team.assists - assists + ast
    team = replace(team, **changed)
    if rules.hot_cold:
        marker = 1 if roll.face in odds.HOT_FACES else -1 if roll.face in odds.COLD_FACES else 0
        if marker:
            # A hot marker on a cold player removes a cold one (and the other way): a signed count.
            team = team.with_marker(card.name, marker)
    rebound = state.rebound
    if rules.rebounds:
        reach = len(state.rebound_points)
        rebound = max(-reach, min(reach, rebound + (reb if side == 0 else -reb)))
    spent = f" + {assists} assist{'s' if assists > 1 else ''}" if assists else ""
    text = (f"{card.name}: {roll.face} -> {before}{spent} = {total}, "
            f"{row.label}: {pts} PTS {ast} AST {reb} REB")
    done = state.rolls_done + 1
    after = {"teams": (team, state.teams[1]) if side == 0 else (state.teams[0], team), "box": box,
             "score": score, "quarter_points": quarter, "rebound": rebound, "roll": None, "rolls_done": done,
             "message": text, "flow": (*state.flow, (state.quarter, done, *score))}
    if done == ROLLS_PER_QUARTER:
        ended = end_quarter(replace(state, **after))
        return replace(ended, message=f"{text}; {ended.message}")
    return replace(state, **after, stage="choose",
                   acting=roller_of(state, done))  # the quarter's first side: not changed above
