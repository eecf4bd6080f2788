"""The Series: a best of seven, a game of games in one log (setup option ``"variant": "series"``).

This module is the series' ``decide`` and ``apply``: while a game is on, its commands go to the
game's own rules (each event gets ``game``, its number) and its final state closes it
(``finish_game``); between games the phase's commands go to the reward checklist
(``series_checklist.py``) or the next game's setup (``series_next_game.py``). The values are in
``series_state.py``, the setup of the series and of each game in ``series_setup.py``.

>>> from companion.games.valley_hoopers.series_state import home_side
>>> [home_side(n, first_home=1) for n in range(1, 8)]
[1, 1, 0, 0, 1, 0, 1]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import RuleError
from companion.games.valley_hoopers.commands import normalize
from companion.games.valley_hoopers.gameplans import milestones_met
from companion.games.valley_hoopers.model import State, other
from companion.games.valley_hoopers.series_checklist import gameplan_result, reward_items, tick
from companion.games.valley_hoopers.series_next_game import (
    bench_names,
    next_game,
    next_side,
    plan_sleeve,
    plan_susan,
    seven_before_susan,
    sleeve_candidates,
    suggested_sides,
)
from companion.games.valley_hoopers.series_setup import setup_series, start_game
from companion.games.valley_hoopers.series_state import (
    COURT_PATTERN,
    GameResult,
    RewardPhase,
    SeriesState,
    home_side,
    series_winner,
    susan_peg_side,
)

PLANNING = ("sleeve", "susan_peg")
BETWEEN_GAMES = ("gameplan_result", "reward", "next_game", *PLANNING)

__all__ = ["BETWEEN_GAMES", "COURT_PATTERN", "PLANNING", "GameResult", "RewardPhase", "SeriesState", "apply",
           "apply_between", "bench_names", "decide", "finish_game", "gameplans_met", "home_side",
           "next_side", "reward_items", "series_winner", "setup_series", "seven_before_susan",
           "sleeve_candidates", "start_game", "suggested_sides", "susan_peg_side"]


def gameplans_met(game: State) -> tuple[int | None, int | None]:
    """Each side's gameplan milestones met in ``game``, counted from the log by the gameplans module
    (the 48 conditions); the table may still correct a count with ``gameplan_result``."""
    return (milestones_met([game], 0), milestones_met([game], 1))


def _result(game: State) -> GameResult:
    assert game.series is not None and game.winner is not None
    partials = game.partial_scores
    fourth = partials[3] if len(partials) > 3 else None
    fourth_winner = None if fourth is None or fourth[0] == fourth[1] else (0 if fourth[0] > fourth[1] else 1)

    def injured(side: int) -> tuple[str, ...]:
        return tuple(h.name for h in game.side(side).hoopers if any(i != "lucky" for i in h.injuries))

    return GameResult(
        number=game.series.number, home=game.series.home, score=game.score, winner=game.winner,
        periods=partials, milestones=game.series.milestones, fourth_period_winner=fourth_winner,
        track_face=game.series.track_face,
        chips_left=tuple((sum(h.chips_lv1 for h in s.hoopers), sum(h.chips_lv2 for h in s.hoopers))
                         for s in game.sides),  # type: ignore[arg-type]
        gameplans_met=gameplans_met(game),
        injured=(injured(0), injured(1)),
        ejected=tuple(tuple(h.name for h in s.hoopers if h.ejected) for s in game.sides),  # type: ignore[arg-type]
    )


def finish_game(series: SeriesState, game: State) -> SeriesState:
    """The series once ``game`` is final: its result kept, then the reward phase, or the end of the
    series at four wins ("a 4-0 ends after game 4": nothing is left to upgrade for)."""
    result = _result(game)
    series = replace(series, game=game, results=(*series.results, result))
    wins = series.wins
    names = series.names
    score = f"{max(result.score)}-{min(result.score)}"
    winner = series_winner(wins)
    if winner is not None:
        return replace(series, phase="over", reward=None,
                       message=f"{names[winner]} wins the series {wins[winner]}-{wins[other(winner)]} "
                               f"(game {result.number} {score})")
    return replace(series, phase="reward", reward=RewardPhase(gameplan_met=result.gameplans_met),
                   message=f"{names[result.winner]} wins game {result.number} {score}: "
                           f"series {wins[0]}-{wins[1]}, reward phase")


def apply_between(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    """A command of the phase between games (reward checklist, next game); refuses the rest."""
    kind = event["type"]
    if series.phase == "over":
        raise RuleError(f"the series is over: {series.message}")
    wanted = ("gameplan_result", "reward") if series.phase == "reward" else ("next_game", *PLANNING)
    if kind not in wanted:
        doing = "the reward phase" if series.phase == "reward" else f"the setup of game {series.next_number}"
        raise RuleError(f"game {series.number} is over: {doing} comes first ({' or '.join(wanted)})")
    if kind == "gameplan_result":
        return gameplan_result(series, event)
    if kind == "reward":
        return tick(series, event)
    if kind == "sleeve":
        return plan_sleeve(series, event)
    if kind == "susan_peg":
        return plan_susan(series, event)
    return next_game(series, event)


def decide(series: SeriesState, command: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Check a command against the series: a game's command while a game is on, else the phase's."""
    from companion.games.valley_hoopers import rules

    kind = command.get("type") if isinstance(command, Mapping) else None
    if series.phase == "game":
        if kind in BETWEEN_GAMES:
            raise RuleError(f"{str(kind).replace('_', ' ')} comes after the game: game {series.number} is on")
        events = rules.decide(series.game, command)
        return [{**e, "game": series.number} for e in events]
    event = normalize(command)
    after = apply_between(series, event)
    return [{**event, "text": after.message, "game": series.number}]


def apply(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    """The series after an accepted event (pure)."""
    from companion.games.valley_hoopers import rules

    if series.phase != "game":
        return apply_between(series, event)
    game = rules.apply(series.game, event)
    if game.final:
        return finish_game(series, game)
    return replace(series, game=game, message=game.message)
