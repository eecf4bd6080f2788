"""What the front ends show: the prompt (who acts, which die, the modifier's breakdown, the chance
of every chart row), the scoreboard, the outcome and the full JSON view.

Choices are the candidate commands the rules accept on the state (``rules.allowed``: each kind's
own checks, the ones its handler makes), so the kiosk never offers a command the rules would refuse.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

from companion.dice import D20
from companion.frozen import by_identities, by_identity, by_lower_name, replace
from companion.game import Choice, Counter, Outcome, Prompt, RollInfo, ScoreboardView, SideView, Target, Term
from companion.games.nba_showdown import odds, rolls
from companion.games.nba_showdown.boxscore import (
    box_parts,
    box_sums,
    flow_json,
    stepped_players,
    team_players,
)
from companion.games.nba_showdown.cards import POSITIONS, STATS, Card
from companion.games.nba_showdown.model import (
    ROLLS_PER_QUARTER,
    Rules,
    ScoringRoll,
    ShotCheck,
    State,
    Team,
    other,
    quarter_label,
)
from companion.games.nba_showdown.quarters import NEIGHBOURS
from companion.games.nba_showdown.rules import allowed, placements

R = TypeVar("R")

# Cards never change after setup and the odds are counted once (odds.stat_odds): their JSON too.
_card_json = by_identity(Card.to_json)
_odds_json = by_identity(odds.StatOdds.to_json)
_rules_json = by_identity(Rules.to_json, size=4)  # the rule switches are set once, at setup


# A team's cards never change after setup: each list is built once per tuple (read-only, like every
# rendered snapshot).
_cards_json = by_identity(lambda cards: [_card_json(c) for c in cards], size=16)
_strategy_cards = by_identities(
    lambda deck, played: [name for name, copies in deck if played.count(name) < copies], size=16)


_NOTHING_YET: Any = object()


def _per_state(function: Callable[[State], R]) -> Callable[[State], R]:
    """``function(state)``, remembered for the latest state asked, by identity: the scoreboard, the
    view and the prompt of one state share it. One slot, replaced whole (another thread reads either
    the old pair or the new): a state seen again after another (an undo) is counted again, and no
    memo fills up and evicts (``by_identity``'s bookkeeping, on every new state, cost more)."""
    latest: list[tuple[Any, Any]] = [(_NOTHING_YET, None)]

    def remembered(state: State) -> R:
        record, value = latest[0]
        if record is state:
            return value  # type: ignore[no-any-return]
        value = function(state)
        latest[0] = (state, value)
        return value

    remembered.__wrapped__ = function  # type: ignore[attr-defined]
    return remembered


def outcome(state: State) -> Outcome | None:
    if state.stage != "over" or state.winner is None:
        return None
    # The front ends name the winner before the reason ("Comets wins: 90-44 after Q4").
    return Outcome.ranked([[state.winner], [other(state.winner)]],
                          f"{max(state.score)}-{min(state.score)} after {quarter_label(state.quarter)}")


# The prompt, the scoreboard and the view all read the modifiers of the roll under way (the states of
# one roll share them: ``rolls.roll_terms``, so the target and the odds built on them too).
_current_terms = _per_state(lambda state: rolls.roll_terms(state, state.roll))  # type: ignore[arg-type]


def _terms(state: State, roll: ScoringRoll) -> tuple[Term, ...]:
    return _current_terms(state) if roll is state.roll else rolls.roll_terms(state, roll)


def _modifier(state: State, roll: ScoringRoll) -> int:
    return rolls.modifier(state, roll) if roll is not state.roll else rolls.sum_terms(_current_terms(state))


def stat_odds_for(state: State, roll: ScoringRoll) -> odds.StatOdds:
    """The odds of ``roll`` as it stands (matchup, markers and cards played so far)."""
    return _current_odds(state) if roll is state.roll else _count_stat_odds(state, roll)


def _count_stat_odds(state: State, roll: ScoringRoll) -> odds.StatOdds:
    card = state.teams[roll.side].at(roll.position)
    assert card is not None
    return _terms_odds(card, roll.stat, _terms(state, roll), state.rules.hot_cold)


def _count_terms_odds(card: Card, stat: str, terms: tuple[Term, ...], markers_on: bool) -> odds.StatOdds:
    return _stat_odds(card, stat, terms[0].value, sum(t.value for t in terms[1:]), markers_on)


# ``odds.stat_odds`` by the identity of its card (its own cache hashes the whole card and chart);
# the numbers are small ints, shared objects, so the same odds asked again hit.
_stat_odds = by_identities(odds.stat_odds, size=64)


# The states of one roll share its terms: its odds are looked up once (``stat_odds`` hashes the card).
_terms_odds = by_identities(_count_terms_odds, size=16)


# The prompt and the view both read the odds of the roll under way: once per state.
_current_odds = _per_state(lambda state: _count_stat_odds(state, state.roll))  # type: ignore[arg-type]


def _count_roll_info(stat: odds.StatOdds) -> tuple[RollInfo, Fraction | None]:
    info = RollInfo(D20, stat.lookup)
    return info, info.chance()


# A roll's rule and its chance, for the odds (cached, shared) it reads: counted once per odds.
_roll_info = by_identity(_count_roll_info, size=64)


def _count_fresh_odds(attacker: Card, defender: Card, change: int, markers: int, stat: str,
                      markers_on: bool) -> odds.StatOdds:
    """``stat_odds_for`` a roll with no card played yet, from what ``rolls._matchup`` read."""
    terms = rolls.terms_of(attacker, defender, change, markers, stat)
    return _stat_odds(attacker, stat, terms[0].value, sum(t.value for t in terms[1:]), markers_on)


Offer = tuple[tuple[Choice, ...], list[dict[str, Any]]]


def _count_offer(position: str, attacker: Card, defender: Card, change: int, markers: int,
                 markers_on: bool) -> Offer:
    """A player still to roll, with Speed and with Power: the prompt's choices and the view's odds,
    from what ``rolls._matchup`` read at ``position``."""
    found = [(name, _count_fresh_odds(attacker, defender, change, markers, name, markers_on))
             for name in STATS]
    choices = tuple(Choice(f"{position} {attacker.name} {stat.stat.title()} {stat.matchup:+d}",
                           {"type": "shoot", "position": position, "stat": name},
                           p_success=stat.p_score, expected_points=stat.expected_pts, hint=stat.hint)
                    for name, stat in found)
    return choices, [{"position": position, **_odds_json(stat)} for _, stat in found]


# Between two of a side's choices a roll changes a player or two (who rolled, a marker): the other
# matchups keep their cards, double-team and markers, so their offers (ints and strings by
# identity: the small ones are shared objects, a miss only counts again). Read-only.
_offer = by_identities(_count_offer, size=32)


def _count_offers(state: State) -> tuple[Offer, ...]:
    """For each player still to roll this quarter, in playmat order, what choosing him offers."""
    side = state.acting
    team, against = state.teams[side], state.teams[1 - side]
    hot_cold = state.rules.hot_cold
    used = team.used
    # What the offers read: the side's cards, lineup, markers and who rolled; the other side's cards,
    # lineup and double-team; whether markers count.
    read = (team.cards, team.lineup, team.markers, used, against.cards, against.lineup,
            against.double_team, hot_cold)
    last = _last_offers[side]  # read once: another thread may replace it, never change it
    named = None if last is None else _step_offers(last[0], read, last[1])
    if named is None:
        markers = dict(team.markers) if hot_cold else {}
        changes = rolls.double_team_changes(against.double_team)
        # What ``rolls._matchup`` reads at each position, the team's markers looked up once.
        named = tuple((card.name,
                       _offer(position, card, defender, change, markers.get(card.name, 0), hot_cold))
                      for position, card, defender, change in zip(POSITIONS, team.on_court(),
                                                                  against.on_court(), changes, strict=True)
                      if card is not None and defender is not None and card.name not in used)
    _last_offers[side] = (read, named)
    return tuple(offer for _, offer in named)


# Each side's last offers (each with its player's name), with what they were read from: between
# two of a side's choices only its own roll happened to it, one player turned sideways (his
# markers may move), so its next offers are the last ones without him.
_last_offers: list[tuple[tuple[Any, ...], tuple[tuple[str, Offer], ...]] | None] = [None, None]


def _step_offers(old: tuple[Any, ...], read: tuple[Any, ...],
                 named: tuple[tuple[str, Offer], ...]) -> tuple[tuple[str, Offer], ...] | None:
    """The offers read from ``read``, from the last ones (``named``, read from ``old``) when the two
    differ only by players who rolled since (and their markers); None otherwise."""
    cards, lineup, markers, used, *rest = read
    old_cards, old_lineup, old_markers, old_used, *old_rest = old
    if (cards is not old_cards or lineup is not old_lineup or used[:len(old_used)] != old_used
            or any(map(operator.is_not, rest, old_rest))):
        return None
    gone = set(used[len(old_used):])
    if markers is not old_markers and read[-1]:
        moved = {name for name, _ in set(markers) ^ set(old_markers)}
        if not moved <= gone.union(old_used):
            return None
    if not gone:
        return named
    return tuple(found for found in named if found[0] not in gone)


# The prompt and the view both show them for the same state: counted once per state.
_offers = _per_state(_count_offers)


def _count_distribution_text(stat: odds.StatOdds) -> str:
    rows = ", ".join(f"{c.row.label} {float(c.probability):.0%}" for c in stat.rows if c.probability)
    return f"{rows}; {float(stat.expected_pts):.1f} pts expected"


# Every command before the roll (a strategy card, a shot check) shows the same odds' words again.
_distribution_text = by_identity(_count_distribution_text, size=64)


def prompt_outcomes(state: State) -> list[dict[str, Any]]:
    """The exact distribution of the awaited d20 roll as the engine sends it (the prompt's ``roll``);
    empty while no roll is awaited."""
    roll = prompt(state).roll
    return [] if roll is None else [o.to_json() for o in roll.outcomes()]


def _roll_target(state: State, roll: ScoringRoll) -> Target:
    return _target_of(_terms(state, roll))


def _count_target(terms: tuple[Term, ...]) -> Target:
    return Target(terms[0].label, terms[0].value, terms[1:])


# One target per roll's terms (the states of a roll share them), its JSON with it.
_target_of = by_identity(_count_target, size=16)
_target_json = by_identity(Target.to_json, size=16)


def _count_roster(cards: tuple[Card, ...]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Each card's name, its name in lower case and the positions of the card that name finds (a
    name finds the team's first card of that name, as ``place`` finds it)."""
    by_name = by_lower_name(cards)
    return tuple((card.name, card.name.lower(), by_name[card.name.lower()].positions) for card in cards)


# A team's cards are set at setup: every placement prompt reads them the same way.
_roster = by_identity(_count_roster, size=16)


@lru_cache(maxsize=512)
def _keep_choice(label: str, side: int) -> Choice:
    return Choice(label, {"type": "keep", "side": side})


@lru_cache(maxsize=1024)
def _place_choice(side: int, position: str, player: str) -> Choice:
    # The same placement is offered every quarter: one choice (and its JSON) per player and position.
    return Choice(f"{position} {player}",
                  {"type": "place", "side": side, "position": position, "player": player})


def _placement_prompt(state: State) -> Prompt:
    side = state.acting
    team = state.teams[side]
    keep = "keep the starting lineup" if state.quarter == 1 else "keep last quarter's lineup"
    choices = [_keep_choice(keep, side)] if allowed(state, {"type": "keep", "side": side}) else []
    judge = placements(state, side)
    if judge is not None:
        # Who is in already, or can't play the position, ``place`` refuses: not asked. Of the others
        # only ``Placements.check``'s last check can refuse (whether the rest can still be filled).
        placed = {name.lower() for name in team.lineup if name is not None}
        free = [(name, can) for name, lower, can in _roster(team.cards) if lower not in placed]
        for position, name in zip(POSITIONS, team.lineup, strict=True):
            if name is None:
                choices += [_place_choice(side, position, player) for player, can in free
                            if position in can and judge.fills(position, player)]
    return replace(_PROMPT, side=side, text=f"{quarter_label(state.quarter)}: {team.name} put a player in",
                   commands=("place", "keep"), choices=tuple(choices))


def _double_team_prompt(state: State) -> Prompt:
    side = state.acting
    team = state.teams[side]
    # The same candidates every quarter (a choice, and its JSON, per side, pair and helper's name),
    # each offered when the rules' checks accept it on this state.
    candidates = [_no_double_team_choice(side)]
    for helped in POSITIONS:
        for helper in NEIGHBOURS[helped]:
            candidates.append(_double_team_choice(side, helped, helper, team.at(helper).name))  # type: ignore[union-attr]
    choices = tuple(choice for choice in candidates if allowed(state, choice.command))
    return replace(_PROMPT, side=side, text=f"{quarter_label(state.quarter)}: {team.name} may double-team",
                   commands=("double_team", "no_double_team"), choices=choices)


@lru_cache(maxsize=8)
def _no_double_team_choice(side: int) -> Choice:
    return Choice("no double-team", {"type": "no_double_team", "side": side})


@lru_cache(maxsize=256)
def _double_team_choice(side: int, helped: str, helper: str, name: str) -> Choice:
    return Choice(f"{helper} {name} helps {helped}",
                  {"type": "double_team", "side": side, "helped": helped, "helper": helper})


@lru_cache(maxsize=1)
def _markers_text() -> str:
    """The choose prompt's words on markers: the d20's chances, the same for every roll."""
    hot, cold = odds.marker_chances()
    return f"; any roll: hot marker {float(hot):.0%} (19-20), cold {float(cold):.0%} (1-2)"


def _choose_prompt(state: State) -> Prompt:
    side = state.acting
    team = state.teams[side]
    offers = _offers(state)
    if state.stage == "choose":
        # An offer is made for a player who has not rolled, with a defender across: exactly what
        # ``rolls.check_choice`` asks of a shot in this stage (the guard test compares the two).
        choices = tuple(choice for offer in offers for choice in offer[0])
    else:
        choices = tuple(choice for offer in offers for choice in offer[0] if allowed(state, choice.command))
    markers = _markers_text() if state.rules.hot_cold else ""
    return replace(_PROMPT, side=side, text=f"{team.name}: choose a player and Speed or Power "
                                            f"(roll {state.rolls_done + 1}/{ROLLS_PER_QUARTER}){markers}",
                   commands=("shoot",), choices=choices)


def _roll_prompt(state: State, roll: ScoringRoll) -> Prompt:
    team = state.teams[roll.side]
    card = team.at(roll.position)
    assert card is not None
    stat = stat_odds_for(state, roll)
    cards = ("play_card",) if state.rules.strategy and len(roll.cards) < 2 else ()
    text = (f"{team.name}: roll the d20 for {card.name} ({stat.stat.title()} {stat.modifier:+d}): "
            f"{_distribution_text(stat)}")
    info, chance = _roll_info(stat)
    return replace(_PROMPT, side=roll.side, text=text, commands=("roll", *cards), roll=info,
                   target=_roll_target(state, roll), p_success=chance, expected_points=stat.expected_pts)


def _shot_check_prompt(state: State, roll: ScoringRoll) -> Prompt:
    check = roll.shot_check
    assert check is not None
    card = state.teams[check.side].at(check.position)
    assert card is not None
    terms = rolls.shot_check_terms(state, check)
    info = RollInfo(D20, odds.shot_check_rule(card.shot_line, sum(t.value for t in terms)))
    chance = info.chance()
    assert chance is not None
    what = "foul shot" if check.foul_shot else "shot check"
    text = (f"{state.teams[check.side].name}: roll the d20 for {card.name}'s {what} "
            f"(needs {card.shot_line} or more, {float(chance):.0%})")
    return replace(_PROMPT, side=check.side, text=text, commands=("roll",), roll=info,
                   target=Target("no matchup bonus", 0, terms), p_success=chance,
                   expected_points=chance * check.points)


def _assist_prompt(state: State, roll: ScoringRoll) -> Prompt:
    team = state.teams[roll.side]
    card = team.at(roll.position)
    assert card is not None and roll.face is not None
    total = odds.roll_total(roll.face, _modifier(state, roll))
    row = card.row_for(total)
    # The same few rows are reached again and again: a choice (and its JSON) per words and count.
    candidates = [_assist_choice(f"no assist: {row.label} {row.pts} PTS", 0)]
    candidates += [_assist_choice(f"+{k} assist{'s' if k > 1 else ''}: {r.label} {r.pts} PTS", k)
                   for k, r in odds.assist_steps(card, total, team.assists)]
    needed = odds.assists_to_next_row(card, total)
    reach = "s reach" if needed != 1 else " reaches"
    text = (f"{team.name}: {card.name} reads {total} ({row.label}); "
            f"{needed} assist{reach} the next row, {team.assists} on the track")
    return replace(_PROMPT, side=roll.side, text=text, commands=("assist",),
                   choices=tuple(choice for choice in candidates if allowed(state, choice.command)))


@lru_cache(maxsize=256)
def _assist_choice(label: str, count: int) -> Choice:
    return Choice(label, {"type": "assist", "count": count})


# ``replace`` of a prompt with every field at its default: the record ``Prompt(...)`` gives, its
# fields filled at once instead of one frozen ``__setattr__`` each (every command builds one).
_PROMPT = Prompt(side=None, text="", commands=())


def _prompt(state: State) -> Prompt:
    """What the table must do next; before a roll, the chance of every chart row."""
    if state.stage == "over":
        return replace(_PROMPT, side=None, text=state.message or "game over", commands=())
    if state.stage == "placement":
        return _placement_prompt(state)
    if state.stage == "double_team":
        return _double_team_prompt(state)
    if state.stage == "choose" or state.roll is None:
        return _choose_prompt(state)
    if state.stage == "shot_check":
        return _shot_check_prompt(state, state.roll)
    if state.stage == "assist":
        return _assist_prompt(state, state.roll)
    return _roll_prompt(state, state.roll)


# The scoreboard reads the shot check's rule from it: counted once per state.
prompt = _per_state(_prompt)


def _count_counters(team: Any, spaces: int, rules: Rules) -> tuple[Counter, ...]:
    """A side's tracks and markers: assists, the rebound ``spaces`` towards it, hot and cold players
    on court, strategy cards in hand."""
    counters = []
    if rules.assists:
        counters.append(_counter("AST", team.assists))
    if rules.rebounds:
        counters.append(_counter("REB", spaces))
    if rules.hot_cold:
        counters += _hot_cold(team.markers, team.lineup)
    if rules.strategy:
        counters.append(_counter("SC", team.hand))
    return tuple(counters)


# Only a finished roll, a card or a quarter's end moves a side's tracks (the rebound spaces are a
# small int: one shared object per value): the other commands show the counters already built.
_team_counters = by_identities(_count_counters, size=8)


def _count_hot_cold(markers: tuple[tuple[str, int], ...],
                    lineup: tuple[str | None, ...]) -> tuple[Counter, Counter]:
    """The hot and cold markers of the players on court."""
    marker_of = dict(markers)
    on_court = [marker_of.get(name, 0) for name in lineup if name is not None]
    return (_counter("HOT", sum(m for m in on_court if m > 0)),
            _counter("COLD", -sum(m for m in on_court if m < 0)))


# Markers move on a natural 1-2 or 19-20 only: most finished rolls leave them.
_hot_cold = by_identities(_count_hot_cold, size=8)


# A counter is a frozen label and whole number: the same few values over a game, each built once.
_counter = lru_cache(maxsize=256)(Counter)


@lru_cache(maxsize=64)  # two team names per game, asked for by every scoreboard
def short_name(name: str) -> str:
    """A team name the OLED can show whole: a long name's last word ("DEMO Comets" -> "Comets"),
    so two teams whose names start alike stay apart on a 128-pixel screen."""
    words = name.split()
    return words[-1] if len(name) > 10 and len(words) > 1 else name


def _board_side(team: Team, score: int, spaces: int, has_ball: bool, rules: Rules,
                last: tuple[Team, int, int, bool, SideView] | None) -> SideView:
    """One side of the scoreboard; ``last`` (the side's team, score, rebound spaces, possession and
    view on the last board, under the same rules) gives its view when each of them is this one's."""
    if (last is not None and team is last[0] and score == last[1] and spaces == last[2]
            and has_ball == last[3]):
        return last[4]
    return _side_view(short_name(team.name), score, _team_counters(team, spaces, rules), has_ball)


def scoreboard(state: State) -> ScoreboardView:
    possession = None if state.stage == "over" else state.acting
    first, second = state.teams
    score, rebound, rules = state.score, state.rebound, state.rules
    last, last_possession, sides = _last_board[0]  # read once: another thread may replace it
    if (first is not last.teams[0] or second is not last.teams[1] or score != last.score
            or rebound != last.rebound or rules is not last.rules or possession != last_possession):
        # A side whose own fields are the last board's keeps its side: a roll moves the roller's.
        same = rules is last.rules and len(sides) == 2
        sides = (_board_side(first, score[0], max(0, rebound), possession == 0, rules,
                             (last.teams[0], last.score[0], max(0, last.rebound), last_possession == 0,
                              sides[0]) if same else None),
                 _board_side(second, score[1], max(0, -rebound), possession == 1, rules,
                             (last.teams[1], last.score[1], max(0, -last.rebound), last_possession == 1,
                              sides[1]) if same else None))
        _last_board[0] = (state, possession, sides)
    target, words = None, ""
    if state.roll is not None and state.stage == "roll":
        target, words = _modifier(state, state.roll), "chart"
    elif state.roll is not None and state.stage == "shot_check":
        rule = prompt(state).roll.rule  # type: ignore[union-attr]
        target, words = rule.target, rule.words  # type: ignore[union-attr]
    # ``replace`` of a board with the same game and title: the record ``ScoreboardView(...)`` gives,
    # its fields filled at once instead of one frozen ``__setattr__`` each.
    return replace(_BOARD, sides=sides, period=quarter_label(state.quarter),
                   clock=f"{state.rolls_done}/{ROLLS_PER_QUARTER}",
                   possession=possession, target=target, target_text=words,
                   message=state.message[:40], final=state.stage == "over", period_over=state.period_over)


class _NoTeam:
    name = None


class _NoState:
    """What the first view and scoreboard compare a state with: no field is any state's."""

    teams = (_NoTeam(), _NoTeam())
    rules = box = flow = score = quarter_points = quarter_scores = rebound_awards = rebound_points = object()
    quarter = rebound = -1


# The sides of the last scoreboard built, with the state and possession they were built from: they
# read the teams (the same records until a command changes one), the score, the rebound marker, the
# rule switches and who has the ball, and most commands change none of these. One slot, replaced whole.
_last_board: list[tuple[Any, int | None, tuple[SideView, SideView]]] = [(_NoState, None, ())]  # type: ignore[list-item]


_BOARD = ScoreboardView(game="nba-showdown", title="NBA Showdown", sides=(), period="", clock="")


def _count_side_view(name: str, score: int, counters: tuple[Counter, ...], active: bool) -> SideView:
    # ``replace`` of a side with every field at its default: what ``SideView(...)`` gives.
    return replace(_SIDE, name=name, score=score, counters=counters, active=active)


_SIDE = SideView(name="")


# Most commands leave a side's score and counters (small ints are shared objects, the counters the
# tuple already built): its scoreboard side is the one already built.
_side_view = by_identities(_count_side_view, size=8)


# The cards played on a roll and its shot check stay the same records from one state to the next.
_cards_played_json = by_identity(lambda cards: [c.to_json() for c in cards], size=16)
_shot_check_json = by_identity(ShotCheck.to_json, size=16)


def _roll_json(state: State) -> dict[str, Any] | None:
    roll = state.roll
    if roll is None:
        return None
    found: dict[str, Any] = {"side": roll.side, "position": roll.position, "stat": roll.stat,
                             "face": roll.face,
                             "cards": _cards_played_json(roll.cards),
                             "shot_check": _shot_check_json(roll.shot_check) if roll.shot_check else None,
                             "target": _target_json(_roll_target(state, roll)),
                             "odds": _odds_json(stat_odds_for(state, roll))}
    card = state.teams[roll.side].at(roll.position)
    if roll.face is not None and card is not None:
        total = odds.roll_total(roll.face, _modifier(state, roll))
        found["total"] = total
        found["assists_to_next_row"] = odds.assists_to_next_row(card, total)
    return found


def reminders(state: State) -> list[str]:
    """Between quarters (before the new quarter's first roll): what the table does by hand."""
    if state.quarter == 1 or state.rolls_done or state.stage not in ("placement", "double_team", "choose"):
        return []
    done = [f"write down {quarter_label(state.quarter - 1)}: "
            f"{state.quarter_scores[-1][0]}-{state.quarter_scores[-1][1]}",
            "turn every player upright"]
    if state.rules.rebounds:
        done.append("put the rebound marker back in the centre")
    if state.rules.strategy:
        done.append("draw 3 strategy cards each (none after Q4 or overtime)" if state.quarter <= 4
                    else "no strategy card draw after Q4 or overtime")
    if state.rules.substitutions:
        done.append("substitutions: benched players lose their markers")
    return done


def rebound_line(state: State) -> str:
    """Where the rebound marker stands, in words."""
    return _rebound_line(state.rules, state.rebound, state.teams[0].name, state.teams[1].name,
                         state.rebound_points)


def _count_rebound_line(rules: Rules, rebound: int, first: str, second: str, points: tuple[int, ...]) -> str:
    """``rebound_line`` from what it reads of the state (``rebound_award`` as its own function reads it)."""
    if not rules.rebounds:
        return "off in this game"
    if rebound == 0:
        return "in the centre"
    spaces = abs(rebound)
    award = points[min(spaces, len(points)) - 1]
    return (f"{spaces} space{'s' if spaces > 1 else ''} towards {first if rebound > 0 else second} "
            f"(+{max(award, 0)} at the end of the quarter)")


# The marker moves on a rebound only, and a handful of spaces each way (small ints: shared objects):
# most commands show the words already written.
_rebound_line = by_identities(_count_rebound_line, size=16)


def _head_of(t: Any) -> tuple[Any, ...]:
    """What a side's head (``_side_head``) is written from: the team's fields that no roll moves."""
    return t.name, t.cards, t.lineup, t.double_team, t.hand, t.deck_left, t.deck, t.played


def _count_side(t: Any, players: list[dict[str, Any]]) -> dict[str, Any]:
    """One side as the view shows it; ``players`` is its Table panel (``boxscore.team_players``): its head
    (every key in its place) with what a roll moves put in."""
    side = dict(_side_head(*_head_of(t)))
    side["players"] = players
    side["markers"] = dict(t.markers)
    side["used"] = list(t.used)
    side["assists"] = t.assists
    return side


def _count_side_head(name: str, cards: tuple[Card, ...], lineup: tuple[str | None, ...],
                     plan: tuple[str, str] | None, hand: int, deck_left: int,
                     deck: tuple[tuple[str, int], ...], played: tuple[str, ...]) -> dict[str, Any]:
    """A side's view from what a roll leaves alone, in the view's order; the players' panel, the
    markers, who rolled and the assist track (None here) are put in by ``_count_side``."""
    lineup_json, bench, double_team, words, cards_json = _lineup_parts(name, cards, lineup, plan)
    return {
        "name": name,
        "players": None,
        "lineup": lineup_json,
        "bench": bench,
        "markers": None,
        "used": None,
        "assists": None,
        "hand": hand,
        "deck_left": deck_left,
        "played": list(played),
        # The deck list's cards with a copy left to play (the kiosk's card buttons).
        "strategy_cards": _strategy_cards(deck, played),
        "double_team": double_team,
        "double_team_words": words,
        "cards": cards_json,
    }


# A finished roll changes a team's markers, assists and who rolled: the rest of the side (its hand
# and cards played move on a strategy card, who stands where between quarters) is the head already
# built (ints by identity: the small ones are shared objects, a miss only counts again). Read-only.
_side_head = by_identities(_count_side_head, size=8)


def _count_lineup_parts(name: str, cards: tuple[Card, ...], lineup: tuple[str | None, ...],
                        plan: tuple[str, str] | None) -> tuple[dict[str, Any], list[str], list[str] | None,
                                                             str, list[dict[str, Any]]]:
    """The parts of a side that read only its name, cards, who stands where and its double-team: the
    lineup, the bench, the double-team and its words, the cards' JSON."""
    if plan is None:
        words = ""
    else:
        helped, helper = plan
        # ``Team.at`` as the side reads it: a team of these cards in this lineup.
        at = Team(name, cards, lineup).at(helper)
        words = f"{helper} {at.name} helps double-team {helped}"  # type: ignore[union-attr]
    return (dict(zip(POSITIONS, lineup, strict=True)), [c.name for c in cards if c.name not in lineup],
            list(plan) if plan else None, words, _cards_json(cards))


# A finished roll changes a team's tracks and who rolled, a card its hand: who stands where changes
# only between quarters, so these parts are the ones already built (read-only).
_lineup_parts = by_identities(_count_lineup_parts, size=8)


# A command changes one team at most, and a roll that doesn't finish none: the other side's part
# of the view is the one already built.
_side_json = by_identities(_count_side, size=8)


def view(state: State) -> dict[str, Any]:
    """The whole state as JSON (kiosk, replay, exports)."""
    # Each part reads named fields of the state: one whose fields are the last view's state's (the
    # same records: a command replaces the few it changes) is the last view's part (read-only).
    last, shown, last_sums = _last_view[0]  # read once: another thread may replace it, never change it
    teams, box, rules = state.teams, state.box, state.rules
    first, second = teams
    last_first, last_second = last.teams
    if first is last_first and second is last_second and box is last.box:
        sides, sums = shown["sides"], last_sums
    else:
        sides, sums = _step_sides(teams, box, last.teams, last_sums, shown.get("sides"))
    names = first.name == last_first.name and second.name == last_second.name
    if box is last.box and names:
        lines, totals, box_score = shown["box"], shown["box_totals"], shown["box_score"]
    else:
        lines, totals, box_score = box_parts(box, sums, first.name, second.name)  # sums: this box's
    found = {
        "game": "nba-showdown",
        "rules": shown["rules"] if rules is last.rules else _rules_json(rules),
        "quarter": state.quarter,
        "quarter_label": (shown["quarter_label"] if state.quarter == last.quarter
                          else quarter_label(state.quarter)),
        "stage": state.stage,
        "acting": state.acting,
        "first_side": state.first_side,
        "rolls_done": state.rolls_done,
        "score": shown["score"] if state.score is last.score else list(state.score),
        "quarter_points": (shown["quarter_points"] if state.quarter_points is last.quarter_points
                           else list(state.quarter_points)),
        "quarter_scores": (shown["quarter_scores"] if state.quarter_scores is last.quarter_scores
                           else [list(q) for q in state.quarter_scores]),
        "rebound_awards": (shown["rebound_awards"] if state.rebound_awards is last.rebound_awards
                           else [list(a) for a in state.rebound_awards]),
        "rebound": state.rebound,
        "rebound_points": (shown["rebound_points"] if state.rebound_points is last.rebound_points
                           else list(state.rebound_points)),
        # Each side's first list of objects is its box score (companion export --format csv).
        "sides": sides,
        "rebound_line": (shown["rebound_line"] if rules is last.rules and state.rebound == last.rebound
                         and names and state.rebound_points is last.rebound_points else rebound_line(state)),
        "box": lines,
        "box_totals": totals,
        "box_score": box_score,
        "flow": shown["flow"] if state.flow is last.flow else flow_json(state.flow),
        "roll": _roll_json(state),
        "choices_odds": ([found for offer in _offers(state) for found in offer[1]]
                         if state.stage == "choose" else []),
        "reminders": reminders(state),
        "message": state.message,
        "winner": state.winner,
        "final": state.stage == "over",
    }
    _last_view[0] = (state, found, sums)
    return found


def _step_sides(teams: tuple[Team, Team], box: tuple[Any, ...], last_teams: tuple[Any, Any],
                last_sums: Any, last_sides: list[dict[str, Any]] | None
                ) -> tuple[list[dict[str, Any]], Any]:
    """The view's sides (``_side_json`` of each team and its panel) and the box score's sums per side,
    a side whose team record and sums are the last view's (the same objects: a roll changes the
    roller's alone) taking the last view's part whole."""
    sums = box_sums(box)
    found = []
    for side, team in enumerate(teams):
        if last_sides is None:
            found.append(_side_json(team, team_players(team, sums[side])))
            continue
        was, shown = last_teams[side], last_sides[side]
        if team is was and sums[side] is last_sums[side]:
            found.append(shown)
        elif _head_of(team) == _head_of(was):  # each field the same object, or equal (tuples compare so)
            # What ``_side_head`` reads is the last team's: its head is the last side's, with what a
            # roll moves put in (``_count_side``'s keys, in their places).
            found.append({**shown, "players": stepped_players(team, sums[side]),
                          "markers": shown["markers"] if team.markers is was.markers else dict(team.markers),
                          "used": shown["used"] if team.used is was.used else list(team.used),
                          "assists": team.assists})
        else:
            found.append(_side_json(team, team_players(team, sums[side])))
    return found, sums


# The last view built, with the state it was built from and the box score's sums per side it read
# (``view``). One slot, replaced whole.
_last_view: list[tuple[Any, dict[str, Any], Any]] = [(_NoState, {}, None)]
