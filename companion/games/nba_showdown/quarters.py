"""Before and after a quarter: placing players (substitutions), double-teams, the rebound track's
points, the strategy draw, overtime and the end of the game.

Whoever rolls first in a quarter also puts in the first player and decides first on a double-team
(rulebook: Substitutions, FAQ "Who decides if they will use a double team first?").
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.errors import RuleError
from companion.frozen import by_identity, replace
from companion.games.nba_showdown.cards import POSITIONS, Card
from companion.games.nba_showdown.model import (
    DRAW_AFTER_QUARTER,
    REGULATION_QUARTERS,
    State,
    Team,
    other,
    quarter_label,
)

NEIGHBOURS = {p: tuple(POSITIONS[j] for j in (i - 1, i + 1) if 0 <= j < len(POSITIONS))
              for i, p in enumerate(POSITIONS)}


def _first_stage(state: State) -> State:
    """After placement: the double-team decisions, or straight to the first scoring roll."""
    if state.rules.double_team:
        return replace(state, stage="double_team", acting=state.first_side)
    return replace(state, stage="choose", acting=state.first_side)


def start_quarter(state: State) -> State:
    """Players turned up again, scoring and rebound tracks at 0, the quarter's first step."""
    teams = tuple(replace(t, used=(), double_team=None, double_team_decided=False) for t in state.teams)
    state = replace(state, teams=(teams[0], teams[1]), rolls_done=0, quarter_points=(0, 0), rebound=0,
                    roll=None, acting=state.first_side)
    if state.rules.substitutions:
        teams = tuple(replace(t, previous=t.lineup, lineup=(None,) * len(POSITIONS)) for t in state.teams)
        return replace(state, teams=(teams[0], teams[1]), stage="placement",
                       message=f"{quarter_label(state.quarter)}: {state.team(state.first_side).name} puts "
                               f"in the first player")
    return _first_stage(replace(state, message=f"{quarter_label(state.quarter)} begins"))


def _require_acting(state: State, side: int, stage: str, what: str) -> None:
    if state.stage != stage:
        raise RuleError(f"{what} only at the start of a quarter, before any scoring roll")
    if side != state.acting:
        raise RuleError(f"it is {state.team(state.acting).name}'s turn to {what.split(' ')[0]}")


def _after_placing(state: State, side: int) -> State:
    """Alternate placements; once both lineups are full, benched players lose their markers."""
    full = [None not in t.lineup for t in state.teams]
    if not all(full):
        return replace(state, acting=other(side) if not full[other(side)] else side)
    teams = []
    for team in state.teams:
        markers = tuple((name, n) for name, n in team.markers if name in team.lineup)
        teams.append(replace(team, markers=markers, previous=team.lineup))
    return _first_stage(replace(state, teams=(teams[0], teams[1])))


@lru_cache(maxsize=1024)
def _can_fill(positions: tuple[str, ...], options: tuple[tuple[str, ...], ...]) -> bool:
    """Whether distinct cards, of which ``options`` are the positions each can play (in any order),
    can take every one of ``positions``: asked of every placement the prompt offers, on the same few
    benches."""
    if not positions:
        return True
    first, rest = positions[0], positions[1:]
    return any(first in can and _can_fill(rest, options[:i] + options[i + 1:])
               for i, can in enumerate(options))


def _count_positions_by_name(cards: tuple[Card, ...]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """For each card name, the positions each card of that name can play, in ``_can_fill``'s order."""
    found: dict[str, list[tuple[str, ...]]] = {}
    for card in cards:
        found.setdefault(card.name, []).append(card.positions)
    return {name: tuple(sorted(positions)) for name, positions in found.items()}


# A team's cards are set at setup: read by every placement the prompt offers.
_positions_by_name = by_identity(_count_positions_by_name, size=16)


class Placements:
    """Every check of ``place`` for one side on one state, what they read of the state counted once:
    ``place`` asks it of its own placement, the prompt of each it offers (``rules.placements``).

    A placement leaves the other open positions to the bench without the placed player, so whether
    they can still be filled reads only the positions the players taken off the bench can play: one
    answer per position and those positions, shared by every player who plays the same ones.
    """

    def __init__(self, state: State, side: int) -> None:
        _require_acting(state, side, "placement", "place players")
        self.team = team = state.team(side)
        self.bench = [c for c in team.cards if c.name not in team.lineup]
        self.open = [p for p, name in zip(POSITIONS, team.lineup, strict=True) if name is None]
        self._options = sorted(c.positions for c in self.bench)  # the bench's, in ``_can_fill``'s order
        self._fills: dict[tuple[str, tuple[tuple[str, ...], ...]], bool] = {}

    def check(self, position: str, player: str) -> Card:
        """The card put in, or ``RuleError``: ``placed_lineup``'s checks (nothing after them refuses)."""
        team = self.team
        card = team.card(player)
        if team.at(position) is not None:
            raise RuleError(f"{team.name} already put {team.at(position).name} at {position}")  # type: ignore[union-attr]
        if team.position_of(card.name) is not None:
            raise RuleError(f"{card.name} is already in at {team.position_of(card.name)}")
        if position not in card.positions:
            raise RuleError(f"{card.name} can't play {position} (Substitutions: everyone in a position he "
                            f"can play: {', '.join(card.positions)})")
        if not self.fills(position, card.name):
            raise RuleError(f"with {card.name} at {position}, {team.name} could not fill "
                            f"{', '.join(p for p in self.open if p != position)} with players who can play "
                            f"there")
        return card

    def fills(self, position: str, player: str) -> bool:
        """Whether the open positions but ``position`` can still be filled from the bench once the card
        ``player`` names is put in there: ``check``'s last check alone, for a placement whose others
        hold (the prompt offers only open positions to players not in yet who can play them)."""
        # The bench after him: every card of his name leaves it (a lineup names, it doesn't point); all
        # of them are on the bench, or ``check`` would have refused him as in already.
        key = (position, _positions_by_name(self.team.cards)[self.team.card(player).name])
        fills = self._fills.get(key)
        if fills is None:
            options = list(self._options)
            for can in key[1]:
                options.remove(can)
            fills = self._fills[key] = _can_fill(tuple(p for p in self.open if p != position), tuple(options))
        return fills


# The last state's placements: the prompt asks them of its candidates, and the placement then picked
# on that state is checked by the same (its fill check already answered). One slot, replaced whole,
# holding its state (so its identity is not reused while it is remembered).
_latest: list[tuple[Any, int, Placements]] = [(None, -1, None)]  # type: ignore[list-item]


def placements_of(state: State, side: int) -> Placements:
    """``Placements(state, side)``, the one made last when it was for this state and side."""
    latest, latest_side, found = _latest[0]
    if latest is state and latest_side == side:
        return found
    found = Placements(state, side)
    _latest[0] = (state, side, found)
    return found


def placed_lineup(state: State, side: int, position: str, player: str) -> tuple[Card, list[str | None]]:
    """The card and the side's lineup with it at ``position``, or ``RuleError``: every check of
    ``place`` (``Placements``; nothing after them can refuse)."""
    card = placements_of(state, side).check(position, player)
    lineup = list(state.team(side).lineup)
    lineup[POSITIONS.index(position)] = card.name
    return card, lineup


def place(state: State, side: int, position: str, player: str) -> State:
    """One player put in one position (Substitutions: coaches take turns putting players in)."""
    card, lineup = placed_lineup(state, side, position, player)
    team = state.team(side)
    state = state.with_team(side, replace(team, lineup=tuple(lineup)))
    state = replace(state, message=f"{team.name} put {card.name} in at {position}")
    return _after_placing(state, side)


def kept_lineup(state: State, side: int) -> list[str | None]:
    """The side's lineup with last quarter's players back, or ``RuleError``: every check of ``keep``."""
    _require_acting(state, side, "placement", "place players")
    team = state.team(side)
    lineup = list(team.lineup)
    for index, name in enumerate(team.previous):
        if lineup[index] is not None:
            continue
        if name is None or name in lineup:
            raise RuleError(f"{team.name} can't keep the lineup: {name or 'nobody'} was at "
                            f"{POSITIONS[index]}; put players in one by one")
        lineup[index] = name
    return lineup


def keep(state: State, side: int) -> State:
    """Every open position of the side gets last quarter's player back (no substitution)."""
    lineup = kept_lineup(state, side)
    team = state.team(side)
    state = state.with_team(side, replace(team, lineup=tuple(lineup)))
    state = replace(state, message=f"{team.name} kept their lineup")
    return _after_placing(state, side)


def _after_deciding(state: State, side: int) -> State:
    if not state.team(other(side)).double_team_decided:
        return replace(state, acting=other(side))
    return replace(state, stage="choose", acting=state.first_side)


def check_double_team(state: State, side: int, helped: str, helper: str) -> None:
    """``RuleError`` unless the side may have ``helper`` help ``helped`` now: ``double_team``'s checks."""
    _require_acting(state, side, "double_team", "decide on a double-team")
    if helper not in NEIGHBOURS[helped]:
        near = " and ".join(NEIGHBOURS[helped])
        raise RuleError(f"{state.team(side).name}: {helper} is not next to {helped} (Double-Teaming: only "
                        f"a player next to him can help; {helped}'s neighbours are {near})")


def check_no_double_team(state: State, side: int) -> None:
    """``RuleError`` unless the side decides on a double-team now: the check of ``no_double_team``."""
    _require_acting(state, side, "double_team", "decide on a double-team")


def double_team(state: State, side: int, helped: str, helper: str) -> State:
    """Double-Teaming: the helper (next to him on the playmat) helps the helped player defend."""
    check_double_team(state, side, helped, helper)
    team = state.team(side)
    state = state.with_team(side, replace(team, double_team=(helped, helper), double_team_decided=True))
    state = replace(state, message=f"{team.name}: {team.at(helper).name} helps "  # type: ignore[union-attr]
                                   f"{team.at(helped).name} double-team {helped}")  # type: ignore[union-attr]
    return _after_deciding(state, side)


def no_double_team(state: State, side: int) -> State:
    check_no_double_team(state, side)
    team = state.team(side)
    state = state.with_team(side, replace(team, double_team_decided=True))
    return _after_deciding(replace(state, message=f"{team.name}: no double-team"), side)


def rebound_award(state: State) -> tuple[int, int]:
    """Points the rebound marker gives now: to whoever it is closer to, the space's points."""
    if not state.rules.rebounds or state.rebound == 0:
        return (0, 0)
    points = state.rebound_points[min(abs(state.rebound), len(state.rebound_points)) - 1]
    return (points, 0) if state.rebound > 0 else (0, points)


def _draw(team: Team) -> Team:
    drawn = min(DRAW_AFTER_QUARTER, team.deck_left)  # an empty deck: no more draws, no penalty
    return replace(team, hand=team.hand + drawn, deck_left=team.deck_left - drawn)


def end_quarter(state: State) -> State:
    """Write down the quarter (rebounds included), draw after Q1-Q3, then overtime or the end."""
    award = rebound_award(state)
    quarter = (state.quarter_points[0] + award[0], state.quarter_points[1] + award[1])
    score = (state.score[0] + award[0], state.score[1] + award[1])
    teams = state.teams
    if state.rules.strategy and state.quarter < REGULATION_QUARTERS:
        teams = (_draw(teams[0]), _draw(teams[1]))
    label = quarter_label(state.quarter)
    text = f"end of {label}: {quarter[0]}-{quarter[1]} in the quarter, {score[0]}-{score[1]}"
    if any(award):
        text += f" ({state.team(0 if award[0] else 1).name} +{max(award)} on the Rebound Track)"
    state = replace(state, teams=teams, score=score, quarter_scores=(*state.quarter_scores, quarter),
                    rebound_awards=(*state.rebound_awards, award), rebound=0, roll=None, period_over=True)
    if state.quarter >= REGULATION_QUARTERS and score[0] != score[1]:
        winner = 0 if score[0] > score[1] else 1
        return replace(state, stage="over", winner=winner,
                       message=f"{text}; {state.team(winner).name} win {max(score)}-{min(score)}")
    state = replace(state, quarter=state.quarter + 1, first_side=other(state.first_side))
    state = start_quarter(state)
    return replace(state, message=f"{text}; {quarter_label(state.quarter)} next, "
                                  f"{state.team(state.first_side).name} go first")
