"""What the front ends show of The Series: the game's own prompt, scoreboard and view while a game is
on, and between games the reward checklist and the next game's setup as ready-made choices (the
kiosk renders them like any other prompt: it names no game).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement
from typing import Any

from companion.errors import CompanionError
from companion.game import Choice, Counter, Outcome, Prompt, ScoreboardView
from companion.games.valley_hoopers import views
from companion.games.valley_hoopers.model import STATS, other
from companion.games.valley_hoopers.series import (
    COURT_PATTERN,
    SeriesState,
    apply_between,
    bench_names,
    home_side,
    reward_items,
    seven_before_susan,
    sleeve_candidates,
    suggested_sides,
    susan_peg_side,
)
from companion.games.valley_hoopers.series_game import CONDITIONS, MARKER_NAMES, track_words
from companion.games.valley_hoopers.series_upgrades import DECK, WORDS, action_deck_left, deck_left, kit_left


def outcome(series: SeriesState) -> Outcome | None:
    if series.phase != "over":
        return None
    wins = series.wins
    winner = 0 if wins[0] > wins[1] else 1
    return Outcome(winner=winner, reason=f"{wins[winner]}-{wins[1 - winner]} in games")


def _legal(series: SeriesState, candidates: list[tuple[str, dict[str, Any]]]) -> tuple[Choice, ...]:
    chosen = []
    for label, command in candidates:
        try:
            apply_between(series, command)
        except CompanionError:
            continue
        chosen.append(Choice(label, command))
    return tuple(chosen)


def _reward_prompt(series: SeriesState) -> Prompt:
    assert series.reward is not None
    names = series.names
    waiting = [s for s in (0, 1) if series.reward.gameplan_met[s] is None]
    if waiting:
        side = waiting[0]
        return Prompt(
            side=side,
            text=f"{names[side]}'s gameplan card: how many of its two milestones were met in game "
                 f"{series.number}? (0 without a card)",
            commands=("gameplan_result",),
            choices=tuple(Choice(f"{names[side]}: {met} milestone{'s' if met != 1 else ''}",
                                 {"type": "gameplan_result", "side": side, "met": met}) for met in (0, 1, 2)),
        )
    items = reward_items(series)
    text = "Reward phase: " + ("; ".join(words for _, words in items) if items else "nothing to hand over")
    candidates: list[tuple[str, dict[str, Any]]] = []
    for key, words in items:
        side, kind = int(key.split(":")[0]), key.split(":")[1]
        if kind in ("strength", "track"):
            # One button per action upgrade card still in the deck: the table names the card drawn.
            for card in action_deck_left(series.action_held):
                under = "the strength marker" if kind == "strength" else "the Series track"
                candidates.append((f"done: {names[side]} takes {card} (under {under})",
                                   {"type": "reward", "item": key, "cards": [card]}))
            continue
        if kind == "positions":
            # One position at a time (the item stays open until all are named): at most five buttons.
            for position in kit_left(series.positions_held[side]):
                candidates.append((f"done: {names[side]} takes a {position} position upgrade",
                                   {"type": "reward", "item": key, "cards": [position]}))
            if kit_left(series.positions_held[side]):
                continue
        if kind != "hooper_upgrades":
            candidates.append((f"done: {words}", {"type": "reward", "item": key}))
            continue
        # One button per hand of cards the deck still allows: the side picks its upgrade(s).
        count = int(words.split(": ", 1)[1].split()[0])
        for cards in combinations_with_replacement(DECK, count):
            taken = " and ".join(WORDS[c] for c in cards)
            candidates.append((f"done: {names[side]} takes {taken}",
                               {"type": "reward", "item": key, "cards": list(cards)}))
    candidates.append(("all handed over", {"type": "reward", "all": True}))
    return Prompt(side=None, text=text, commands=("reward",), choices=_legal(series, candidates))


def _stat_prompt(series: SeriesState, side: int, hooper: str) -> Prompt:
    names = series.names
    choices = [(f"{names[side]}: +10 on {hooper}'s {stat}",
                {"type": "sleeve", "side": side, "hooper": hooper, "stat": stat}) for stat in STATS]
    return Prompt(side=side, text=f"{names[side]}: which stat does the {WORDS['stat_energy']} card on "
                  f"{hooper} raise?", commands=("sleeve",), choices=_legal(series, choices))


def _planning_candidates(series: SeriesState) -> list[tuple[str, dict[str, Any]]]:
    """Sleeve a held hooper upgrade card on a hooper of the next seven; bring Susan Peg in."""
    names = series.names
    candidates: list[tuple[str, dict[str, Any]]] = []
    for side in (0, 1):
        planned = series.plan.side_sleeves(side)
        for card in dict.fromkeys(series.upgrades[side]):
            for hooper in sleeve_candidates(series, side):
                if hooper not in planned:
                    candidates.append((f"{names[side]}: sleeve {WORDS[card]} on {hooper}",
                                       {"type": "sleeve", "side": side, "hooper": hooper, "card": card}))
    susan = susan_peg_side(series.wins, series.next_number)
    if susan is None or series.plan.susan_start[susan] is not None:
        return candidates
    raw = seven_before_susan(series, susan)
    lineup = raw.get("lineup") if isinstance(raw, dict) else None
    planned = series.plan.susan[susan]
    if planned is None:
        starters = {str(n).lower() for n in (lineup or {}).values()}
        for name in bench_names(raw, starters):
            candidates.append((f"Susan Peg joins {names[susan]}'s seven instead of {name}",
                               {"type": "susan_peg", "side": susan, "instead_of": name}))
        return candidates
    # Planned on the bench: she may start instead, at any position (its starter goes to the bench).
    for position, starter in (lineup or {}).items():
        candidates.append((f"Susan Peg starts at {position} for {names[susan]} ({starter} to the bench)",
                           {"type": "susan_peg", "side": susan, "instead_of": planned, "start": position}))
    return candidates


def _next_game_prompt(series: SeriesState) -> Prompt:
    number = series.next_number
    names = series.names
    waiting = series.plan.waiting_stat()
    if waiting is not None:
        return _stat_prompt(series, *waiting)
    home = home_side(number, series.first_home)
    susan = susan_peg_side(series.wins, number)
    text = (f"Game {number}: {names[home]} at Home. Each player rolls the d20 (the highest attacks first) "
            "and draws a Series track condition marker: tap the marker by who won the roll")
    if susan is not None:
        text += f"; Susan Peg may join {names[susan]}"
    sides, changes = suggested_sides(series)
    extra: dict[str, Any] = {} if sides is None else {"sides": sides}
    if changes:
        text += f"; {changes}"
    planned = [f"{names[s]}: " + ", ".join(f"{c if isinstance(c, str) else c['card']} on {h}"
                                           for h, c in series.plan.sleeves[s])
               for s in (0, 1) if series.plan.sleeves[s]]
    planned += [f"Susan Peg for {names[s]} instead of {series.plan.susan[s]}"
                + (f", starting at {series.plan.susan_start[s]}" if series.plan.susan_start[s] else "")
                for s in (0, 1) if series.plan.susan[s]]
    if planned:
        text += "; planned: " + "; ".join(planned)
    # "Each player rolls the d20 die. The one who gets the highest value starts" (Player Boards Setup,
    # which The Series keeps): one choice per marker and winner of the roll, as Classic's setup asks
    # who won it, named short (the kiosk lays them out as marker by winner: frontend.py's
    # NEXT_GAME_GRID). Who attacks first can't make a game illegal, so each marker is tried once (a
    # setup per try) and offered for both.
    markers = _legal(series, [(MARKER_NAMES[key], {"type": "next_game", "condition": key,
                                                   "first_attacker": home, **extra}) for key in CONDITIONS])
    games = tuple(Choice(f"Game {number}: {names[first]} attacks first, marker: {marker.label}",
                         {**marker.command, "first_attacker": first})
                  for marker in markers for first in (home, other(home)))
    return Prompt(side=None, text=text, commands=("next_game", "sleeve", "susan_peg"),
                  choices=games + _legal(series, _planning_candidates(series)))


def prompt(series: SeriesState) -> Prompt:
    if series.phase == "game":
        return views.prompt(series.game)
    if series.phase == "reward":
        return _reward_prompt(series)
    if series.phase == "next_game":
        return _next_game_prompt(series)
    return Prompt(side=None, text=series.message, commands=())


def scoreboard(series: SeriesState) -> ScoreboardView:
    board = views.scoreboard(series.game)
    wins = series.wins
    playing = series.phase == "game"
    sides = tuple(replace(s, counters=(*s.counters, Counter("W", wins[i])), active=s.active and playing)
                  for i, s in enumerate(board.sides))
    return replace(
        board,
        sides=sides,
        title=f"Series G{series.number} {wins[0]}-{wins[1]}",
        possession=board.possession if playing else None,
        clock=board.clock if playing else "",
        target=board.target if playing else None,
        target_text=board.target_text if playing else "",
        message=series.message[:40],
        final=series.phase == "over",
        period_over=board.period_over and playing,
    )


def view(series: SeriesState) -> dict[str, Any]:
    """The game's view with the series beside it (``series``: games, wins, phase, track, rewards)."""
    data = views.view(series.game)
    game = series.game.series
    names = series.names
    last = series.last()
    rewards = None
    if series.reward is not None and last is not None:
        found = series.reward.rewards(last)
        rewards = {
            "gameplan_met": list(series.reward.gameplan_met),
            "sides": None if found is None else [r.to_json() for r in found],
            "open": [{"item": k, "text": t} for k, t in reward_items(series)],
            "done": list(series.reward.done),
        }
    data["variant"] = "series"
    data["final"] = series.phase == "over"
    wins = series.wins
    if series.phase == "game":
        data["period_label"] = f"G{series.number} {data['period_label']}"
    else:
        # Between games nobody attacks: the front ends' turn line reads the series instead.
        data["period_label"] = f"Game {series.number} over · series {wins[0]}-{wins[1]}"
        data["turn"] = {**data["turn"], "pair": None, "attacker": None}
    data["series"] = {
        "phase": series.phase,
        "game": series.number,
        "wins": list(wins),
        "first_home": series.first_home,
        "court_pattern": [names[home_side(n, series.first_home)] for n in range(1, len(COURT_PATTERN) + 1)],
        "home": None if game is None else game.home,
        "condition": None if game is None else game.condition,
        "condition_text": None if game is None else CONDITIONS[game.condition],
        "condition_name": None if game is None else MARKER_NAMES[game.condition],
        "track": None if game is None else {"steps": game.track, "face": game.track_face,
                                            "off": game.track_off, "text": track_words(game, names)},
        "chip_stock": None if game is None else {"lv1": game.chips_lv1, "lv2": game.chips_lv2},
        "common_playbooks": None if game is None else game.common_playbooks,
        "milestones": [] if game is None else list(game.milestones),
        "results": [r.to_json() for r in series.results],
        "hooper_upgrades": {"held": [list(h) for h in series.upgrades],
                            "deck_left": deck_left(series.upgrades)},
        "action_upgrades": {"held": [list(h) for h in series.action_held],
                            "deck_left": list(action_deck_left(series.action_held))},
        "position_upgrades": {"held": [list(h) for h in series.positions_held]},
        "reward": rewards,
        "susan_peg_side": susan_peg_side(series.wins, series.next_number),  # the game on or next
        "message": series.message,
    }
    data["message"] = series.message
    return data
