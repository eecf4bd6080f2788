"""The Series before the next game: the next sevens (an ejected hooper replaced, Susan Peg), the cards
planned on them (``sleeve``, ``susan_peg``) and ``next_game`` itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import RuleError
from companion.games.valley_hoopers.series_lineups import side_without
from companion.games.valley_hoopers.series_plan import Plan, add_sleeve, eligible, merged_sleeves, with_susan
from companion.games.valley_hoopers.series_setup import start_game
from companion.games.valley_hoopers.series_state import SUSAN_PEG, SeriesState, hooper_names, susan_peg_side
from companion.games.valley_hoopers.series_upgrades import check_deck, worn


def suggested_sides(series: SeriesState) -> tuple[list[Any] | None, str]:
    """The next game's sides when the last game's ejected hoopers are in a seven: ``[side or None]``
    (``None`` keeps a side) and the words, or ``(None, why)`` when no seven can be made up."""
    last = series.last()
    sides: list[Any] = [None, None]
    words = []
    for side in (0, 1):
        ejected = last.ejected[side] if last is not None else ()
        names = {n.lower() for n in hooper_names(series.side_options[side])}
        leaving = tuple(n for n in ejected if n.lower() in names)
        if not leaving:
            continue
        found = side_without(series.side_options[side], leaving)
        if found is None:
            return None, f"{series.names[side]} needs another seven ({', '.join(leaving)} misses this game)"
        sides[side], change = found
        words.append(change)
    return (sides if any(s is not None for s in sides) else None), "; ".join(words)


def _with_planned_susan(series: SeriesState, side: int, raw: Any) -> Any:
    planned = series.plan.susan[side]
    return with_susan(raw, planned, series.plan.susan_start[side]) if planned else raw


def seven_before_susan(series: SeriesState, side: int) -> Any:
    """The side's options for the next game without the plan's Susan Peg: its seven without an
    ejected hooper (a ready-made replacement)."""
    suggested, _ = suggested_sides(series)
    if suggested is not None and suggested[side] is not None:
        return suggested[side]
    return series.side_options[side]


def next_side(series: SeriesState, side: int) -> Any:
    """The side's options for the next game as things stand: its seven without an ejected hooper, and
    Susan Peg if planned."""
    return _with_planned_susan(series, side, seven_before_susan(series, side))


def sleeve_candidates(series: SeriesState, side: int) -> list[str]:
    """The hoopers of the next seven who may take a hooper upgrade card (last game's cards say so)."""
    seven = {n.lower() for n in hooper_names(next_side(series, side))}
    return [h.name for h in series.game.side(side).hoopers if h.name.lower() in seven and eligible(h)]


def bench_names(raw_side: Any, starters: set[str]) -> list[str]:
    """The hoopers of a side's seven who do not start (Susan Peg may take one's place)."""
    return [n for n in hooper_names(raw_side) if n.lower() not in starters and n.lower() != SUSAN_PEG]


def plan_sleeve(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    side = int(event["side"])
    seven = hooper_names(next_side(series, side))
    plan = add_sleeve(series.plan, side, event, series.upgrades[side], seven)
    card = dict(plan.sleeves[side])[str(event["hooper"])]
    words = card if isinstance(card, str) else f"{card['card']} ({card['stat'] or 'stat to name'})"
    return replace(series, plan=plan, message=f"{series.names[side]} sleeves {words} on {event['hooper']}")


def plan_susan(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    side = int(event["side"])
    if susan_peg_side(series.wins, series.next_number) != side:
        raise RuleError(f"Susan Peg can't join {series.names[side]} in game {series.next_number}: she joins "
                        "only the side whose opponent can win the series with it (before game 7)")
    instead_of = str(event["instead_of"])
    start = event.get("start")
    base = seven_before_susan(series, side)
    # Refuses a starter or a hooper not in the seven, and a start where the line-up names nobody.
    with_susan(base, instead_of, start)
    susan, starts = list(series.plan.susan), list(series.plan.susan_start)
    susan[side], starts[side] = instead_of, start
    plan = replace(series.plan, susan=(susan[0], susan[1]), susan_start=(starts[0], starts[1]))
    words = f"Susan Peg joins {series.names[side]}'s seven instead of {instead_of}"
    if start is not None:
        words += f" and starts at {start} ({base['lineup'][start]} to the bench)"
    return replace(series, plan=plan, message=words)


def _still_worn(series: SeriesState, side: int, raw_side: Any) -> dict[str, Any]:
    """The upgrade cards stay on the hoopers that wore them, for those in the next seven."""
    names = {n.lower() for n in hooper_names(raw_side)}
    return {name: card for name, card in worn(series.game, side).items() if name.lower() in names}


def _deck(series: SeriesState, event: Mapping[str, Any], side: int) -> dict[str, Any]:
    """The action and position upgrade cards the side sleeves in its deck (default: all it holds)."""
    who = series.names[side]
    action = (event.get("action_upgrades") or [None, None])[side]
    positions = (event.get("position_upgrades") or [None, None])[side]
    return {"action_upgrades": check_deck(action, series.action_held[side], who, "action_upgrades"),
            "position_upgrades": check_deck(positions, series.positions_held[side], who, "position_upgrades")}


def next_game(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    number = series.next_number
    given = event.get("sides") or [None, None]
    sides_raw = tuple(given[i] if given[i] is not None else series.side_options[i] for i in (0, 1))
    given_sleeves = event.get("upgrades") or [None, None]
    # The plan made tap by tap (series_plan.py) counts unless the command says otherwise.
    sides_raw = tuple(_with_planned_susan(series, i, sides_raw[i]) for i in (0, 1))
    sleeves = tuple(given_sleeves[i] if given_sleeves[i] is not None
                    else merged_sleeves(series.plan.side_sleeves(i), _still_worn(series, i, sides_raw[i]),
                                        series.upgrades[i])
                    for i in (0, 1))
    decks = tuple(_deck(series, event, i) for i in (0, 1))
    game = start_game(series, number, series.first_home, sides_raw, event, series.foul_die_blanks,  # type: ignore[arg-type]
                      series.track_steps, series.chip_stock, series.wins, series.last(), sleeves,  # type: ignore[arg-type]
                      series.upgrades, decks, series.action_cards)  # type: ignore[arg-type]
    return replace(series, game=game, side_options=sides_raw, phase="game", reward=None,  # type: ignore[arg-type]
                   plan=Plan(), message=game.message)
