"""The Series' values: the state of a whole series, one finished game's result, the reward phase.

"During "The Series" the players will compete to win four out of seven games. They will alternate
each other by playing in the home court and in the away court: Home Home Away Away Home Away Home"
(from the side of the tribe chosen HOME for game 1). A ``SeriesState`` holds the game on the table
(a Valley Hoopers ``State`` carrying its ``SeriesGame``), the results of the games played, and the
phase between games: the reward checklist, then the next game's setup (``next_game``).

>>> [home_side(n, first_home=0) for n in range(1, 8)]
[0, 0, 1, 1, 0, 1, 0]
>>> series_winner((4, 0)), series_winner((3, 3))
(0, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.valley_hoopers.model import State, other
from companion.games.valley_hoopers.series_plan import Plan
from companion.games.valley_hoopers.series_rewards import SideReward, game_rewards

COURT_PATTERN = ("home", "home", "away", "away", "home", "away", "home")
WINS_NEEDED = 4
SUSAN_PEG = "susan peg"


def home_side(number: int, first_home: int) -> int:
    """The side playing at Home in game ``number`` (1-7) when ``first_home`` is Home in game 1."""
    return first_home if COURT_PATTERN[number - 1] == "home" else other(first_home)


def series_winner(wins: tuple[int, int]) -> int | None:
    """The side with four wins, if any: the series is over then (a 4-0 ends after game 4)."""
    return next((side for side in (0, 1) if wins[side] >= WINS_NEEDED), None)


def susan_peg_side(wins: tuple[int, int], number: int) -> int | None:
    """The side that may deploy Susan Peg in game ``number``: "If a player is going to begin a game that
    worths for the victory of the series before Game 7, the opponent will gain the favors of Susan Peg".

    >>> [susan_peg_side(wins, game) for wins, game in (((3, 1), 5), ((2, 3), 6), ((3, 3), 7), ((2, 2), 5))]
    [1, 0, None, None]
    """
    if number >= 7:
        return None
    facing = [side for side in (0, 1) if wins[other(side)] == WINS_NEEDED - 1]
    return facing[0] if len(facing) == 1 else None


def hooper_names(raw_side: Any) -> list[str]:
    """The names of a side's seven as its setup options give them (a name, or a card with one).

    >>> hooper_names({"hoopers": ["Ann", {"name": " Bo "}, 7]})
    ['Ann', 'Bo']
    """
    hoopers = raw_side.get("hoopers") if isinstance(raw_side, Mapping) else None
    names = []
    for entry in hoopers if isinstance(hoopers, list) else []:
        name = entry if isinstance(entry, str) else entry.get("name") if isinstance(entry, Mapping) else None
        if isinstance(name, str):
            names.append(name.strip())
    return names


@dataclass(frozen=True)
class GameResult:
    """One finished game of the series and what the next game inherits from it."""

    number: int
    home: int
    score: tuple[int, int]
    winner: int
    periods: tuple[tuple[int, int], ...]
    milestones: tuple[int | None, ...]
    fourth_period_winner: int | None
    track_face: int
    chips_left: tuple[tuple[int, int], tuple[int, int]]
    gameplans_met: tuple[int | None, int | None]
    injured: tuple[tuple[str, ...], tuple[str, ...]]
    ejected: tuple[tuple[str, ...], tuple[str, ...]]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.number, "home": self.home, "score": list(self.score), "winner": self.winner,
                "periods": [list(p) for p in self.periods], "milestones": list(self.milestones),
                "fourth_period_winner": self.fourth_period_winner, "track_card_to": self.track_face,
                "chips_left": [list(c) for c in self.chips_left], "gameplans_met": list(self.gameplans_met),
                "injured": [list(i) for i in self.injured], "ejected": [list(e) for e in self.ejected]}


@dataclass(frozen=True)
class RewardPhase:
    """The reward phase of the last game: gameplan milestones met (``None``: the table still has to
    tell), the checklist items ticked."""

    gameplan_met: tuple[int | None, int | None]
    done: tuple[str, ...] = ()
    named: tuple[tuple[str, str], ...] = ()  # (item, card) named so far, for items of several cards

    def rewards(self, result: GameResult) -> tuple[SideReward, SideReward] | None:
        if None in self.gameplan_met:
            return None
        met = (int(self.gameplan_met[0] or 0), int(self.gameplan_met[1] or 0))
        return game_rewards(result.score, result.track_face, result.chips_left, met, result.milestones,
                            result.fourth_period_winner)


@dataclass(frozen=True)
class SeriesState:
    """The whole series: options that stay, the game on the table, the results, the phase between games."""

    first_home: int
    foul_die_blanks: int
    track_steps: int
    chip_stock: tuple[int, int]
    side_options: tuple[Any, Any]
    game: State
    results: tuple[GameResult, ...] = ()
    phase: str = "game"  # game, reward, next_game, over
    reward: RewardPhase | None = None
    message: str = ""
    upgrades: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # hooper upgrade cards each side holds
    action_held: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # action upgrade cards each side holds
    positions_held: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # position upgrade cards
    action_cards: Any = None  # the table's entered action upgrade cards (setup option action_upgrade_cards)
    plan: Plan = Plan()  # the next game prepared tap by tap (series_plan.py)

    @property
    def number(self) -> int:
        """The game on the table (or just finished)."""
        return self.game.series.number if self.game.series is not None else len(self.results) + 1

    @property
    def next_number(self) -> int:
        """The game the next ``next_game`` sets up: one more than the games played."""
        return len(self.results) + 1

    @property
    def wins(self) -> tuple[int, int]:
        return (sum(1 for r in self.results if r.winner == 0), sum(1 for r in self.results if r.winner == 1))

    @property
    def names(self) -> tuple[str, str]:
        return (self.game.sides[0].name, self.game.sides[1].name)

    def last(self) -> GameResult | None:
        return self.results[-1] if self.results else None
