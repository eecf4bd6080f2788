"""The NBA Showdown table as immutable values: rule switches, teams on the playmat, the scoring
roll being made, and the game.

Everything is a frozen dataclass of tuples, so ``apply`` can only build a new state and two
states compare equal when the table is the same (this is how replay is tested).

>>> Rules.quick_play().any_on
False
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from companion.errors import RuleError
from companion.frozen import by_identities, by_identity, by_lower_name, replace
from companion.games.nba_showdown.cards import POSITIONS, Card
from companion.splits import Splits

ROLLS_PER_QUARTER = 10
REGULATION_QUARTERS = 4
STARTING_HAND = 7
DRAW_AFTER_QUARTER = 3


@dataclass(frozen=True)
class Rules:
    """Which of the added and advanced rules the table plays with (quick play: none of them)."""

    hot_cold: bool = True
    assists: bool = True
    rebounds: bool = True
    strategy: bool = True
    substitutions: bool = True
    double_team: bool = True

    @classmethod
    def quick_play(cls) -> Rules:
        return cls(**{f.name: False for f in fields(cls)})

    @property
    def any_on(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    def to_json(self) -> dict[str, bool]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Team:
    """One coach's side: cards, who stands where, markers, assist track, strategy cards counted."""

    name: str
    cards: tuple[Card, ...]
    lineup: tuple[str | None, ...]  # a player name per position, in POSITIONS order
    previous: tuple[str | None, ...] = (None,) * 5  # last quarter's lineup, while players are placed
    markers: tuple[tuple[str, int], ...] = ()  # player -> hot markers (+) or cold markers (-)
    used: tuple[str, ...] = ()  # turned sideways: rolled this quarter
    assists: int = 0
    deck: tuple[tuple[str, int], ...] = ()  # the deck list, if entered: card name -> copies
    hand: int = 0
    deck_left: int = 0
    played: tuple[str, ...] = ()  # strategy cards played, in order
    double_team: tuple[str, str] | None = None  # (helped position, helper position) this quarter
    double_team_decided: bool = False

    def card(self, name: str) -> Card:
        found = _cards_by_name(self.cards).get(name.strip().lower())
        if found is None:
            raise RuleError(f"{self.name} has no player called {name!r}")
        return found

    def at(self, position: str) -> Card | None:
        index = _POSITION_INDEX.get(position)
        if index is None:
            index = POSITIONS.index(position)  # not a position: the ValueError a lookup gives
        hit = _recent_placed.get(id(self))
        found = (hit[1] if hit is not None and hit[0] is self else _placed_now(self))[index]
        if found is _NOT_ON_TEAM:
            return self.card(self.lineup[index])  # type: ignore[arg-type]  # raises the RuleError
        return found

    def on_court(self) -> tuple[Card | None, ...]:
        """The card at each position, in POSITIONS order (None: nobody there): ``at`` for all five."""
        found = _placed(self)
        for index, card in enumerate(found):
            if card is _NOT_ON_TEAM:
                self.card(self.lineup[index])  # type: ignore[arg-type]  # raises the RuleError
        return found

    def position_of(self, name: str) -> str | None:
        for position, placed in zip(POSITIONS, self.lineup, strict=True):
            if placed is not None and placed.lower() == name.lower():
                return position
        return None

    def marker(self, name: str) -> int:
        return dict(self.markers).get(name, 0)

    def with_marker(self, name: str, change: int) -> Team:
        markers = dict(self.markers)
        markers[name] = markers.get(name, 0) + change
        return replace(self, markers=tuple((k, v) for k, v in sorted(markers.items()) if v))

    def bench(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.name not in self.lineup)


# A team's cards are set at setup and shared by every state after it: looked up by name on every roll.
_cards_by_name = by_identity(by_lower_name, size=16)

_POSITION_INDEX = {position: index for index, position in enumerate(POSITIONS)}
_NOT_ON_TEAM: Any = object()  # a lineup name no card of the team carries (``card`` says so)


def _place_cards(cards: tuple[Card, ...], lineup: tuple[str | None, ...]) -> tuple[Card | None, ...]:
    """The card at each position, in POSITIONS order (``at`` without a name lookup)."""
    by_name = _cards_by_name(cards)
    return tuple(None if name is None else by_name.get(name.strip().lower(), _NOT_ON_TEAM)
                 for name in lineup)


# The matchups, the prompt and the view ask a team who stands where a few dozen times per command.
# A finished roll makes a new team record with the same cards and lineup (who stands where changes
# between quarters only): once per cards and lineup, not per record.
_placed_by = by_identities(_place_cards, size=16)


def _placed(team: Team) -> tuple[Card | None, ...]:
    return _placed_by(team.cards, team.lineup)


def _placed_now(team: Team) -> tuple[Card | None, ...]:
    """``_placed(team)``, kept with the team among the last few asked: a command asks the roller's
    team and the defender's, in turn, a few times each."""
    found = _placed(team)
    if len(_recent_placed) >= 8:
        _recent_placed.clear()  # a bound, not a policy: a command asks two teams
    _recent_placed[id(team)] = (team, found)  # the entry holds the team: its id is not reused
    return found


_recent_placed: dict[int, tuple[Any, tuple[Card | None, ...]]] = {}


@dataclass(frozen=True)
class CardPlay:
    """A strategy card played before a scoring roll, with the effects the table entered."""

    side: int
    name: str
    role: str  # offense (the roller's card) or defense (the defender's)
    roll_bonus: int = 0
    speed: int = 0
    power: int = 0
    pts: int = 0
    ast: int = 0
    reb: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "card": self.name, "role": self.role, "roll_bonus": self.roll_bonus,
                "speed": self.speed, "power": self.power, "pts": self.pts, "ast": self.ast, "reb": self.reb}


@dataclass(frozen=True)
class ShotCheck:
    """A shot check a strategy card called for, waiting for its d20."""

    side: int
    position: str
    points: int
    bonus: int = 0
    three_point: bool = False
    foul_shot: bool = False
    markers: bool = True
    gives_markers: bool = False
    card: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "position": self.position, "points": self.points, "bonus": self.bonus,
                "three_point": self.three_point, "foul_shot": self.foul_shot, "markers": self.markers,
                "gives_markers": self.gives_markers, "card": self.card}


@dataclass(frozen=True)
class ScoringRoll:
    """The roll being made: who, with which stat, the cards played on it, and the face once rolled."""

    side: int
    position: str
    stat: str
    cards: tuple[CardPlay, ...] = ()
    shot_check: ShotCheck | None = None
    face: int | None = None


@dataclass(frozen=True)
class BoxLine:
    """One player's line for one quarter."""

    side: int
    player: str
    quarter: int
    pts: int = 0
    ast: int = 0
    reb: int = 0
    splits: Splits = Splits()  # the shot checks this quarter: field goals and foul shots, made/tried

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a state snapshot) as its fields in order, not a dict of them: a late state holds a
        # hundred lines.
        return BoxLine, (self.side, self.player, self.quarter, self.pts, self.ast, self.reb, self.splits)


@dataclass(frozen=True)
class State:
    rules: Rules
    teams: tuple[Team, Team]
    rebound_points: tuple[int, ...]  # points of the spaces 1, 2, ... away from the centre
    stage: str  # placement, double_team, choose, roll, shot_check, assist, over
    quarter: int = 1
    first_side: int = 0  # rolls first this quarter
    acting: int = 0  # places, decides or rolls now
    rolls_done: int = 0
    score: tuple[int, int] = (0, 0)
    quarter_points: tuple[int, int] = (0, 0)  # this quarter so far (rebound points come at its end)
    quarter_scores: tuple[tuple[int, int], ...] = ()  # finished quarters, rebound points included
    rebound_awards: tuple[tuple[int, int], ...] = ()  # rebound-track points per finished quarter
    rebound: int = 0  # the rebound marker: + towards side 0, - towards side 1
    box: tuple[BoxLine, ...] = ()
    flow: tuple[tuple[int, int, int, int], ...] = ()  # (quarter, roll, score 0, score 1) after each roll
    roll: ScoringRoll | None = None
    message: str = ""
    winner: int | None = None
    period_over: bool = False  # true right after a quarter ends (the buzzer), until the next command

    @property
    def final(self) -> bool:
        return self.stage == "over"

    def team(self, side: int) -> Team:
        return self.teams[side]

    def with_team(self, side: int, team: Team) -> State:
        teams = list(self.teams)
        teams[side] = team
        return replace(self, teams=(teams[0], teams[1]))


def other(side: int) -> int:
    return 1 - side


@lru_cache(maxsize=16)  # asked by every scoreboard and view: a handful of quarters per game
def quarter_label(quarter: int) -> str:
    return f"Q{quarter}" if quarter <= REGULATION_QUARTERS else f"OT{quarter - REGULATION_QUARTERS}"
