"""The Series' reward phase as a checklist the table ticks (``gameplan_result``, ``reward``).

Each item is one reward of ``series_rewards.game_rewards`` for one side ("0:positions"); the cards a
side takes (hooper upgrade, action upgrade under the strength marker or the Series track, position
upgrades) are named as the item is ticked. When nothing is open, the next game's setup begins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import RuleError
from companion.games.valley_hoopers.series_state import SeriesState
from companion.games.valley_hoopers.series_upgrades import check_cards, take_action_card, take_positions


def reward_items(series: SeriesState) -> list[tuple[str, str]]:
    """The reward checklist still open: ``("0:positions", "Lucy: 4 position upgrade cards ...")``."""
    result = series.last()
    if series.reward is None or result is None:
        return []
    rewards = series.reward.rewards(result)
    if rewards is None:
        return []
    items = []
    for side, reward in enumerate(rewards):
        for key, words in reward.items():
            item = f"{side}:{key}"
            named = [card for it, card in series.reward.named if it == item]
            if named:
                words += f" (taken: {', '.join(named)})"
            if item not in series.reward.done:
                items.append((item, f"{series.names[side]}: {words}"))
    return items


def positions_still(series: SeriesState, item: str) -> int:
    """How many position upgrade cards of ``item`` are still to be named."""
    assert series.reward is not None and series.last() is not None
    rewards = series.reward.rewards(series.last())  # type: ignore[arg-type]
    total = rewards[int(item.split(":")[0])].position_upgrades if rewards else 0
    return total - sum(1 for it, _ in series.reward.named if it == item)


def gameplan_result(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    assert series.reward is not None
    side = int(event["side"])
    if series.reward.done:
        # The table may tell or correct a count until the checklist, built on it, has begun.
        raise RuleError(f"the reward checklist has begun: {series.names[side]}'s gameplan count stays")
    met = list(series.reward.gameplan_met)
    met[side] = int(event["met"])
    return replace(series, reward=replace(series.reward, gameplan_met=(met[0], met[1])),
                   message=f"{series.names[side]} met {event['met']} of the gameplan's milestones")


def _take_cards(series: SeriesState, side: int, cards: Any) -> SeriesState:
    rewards = series.reward.rewards(series.last()) if series.reward and series.last() else None
    count = rewards[side].hooper_upgrades if rewards else 0
    taken = check_cards(cards, count, series.upgrades, series.names[side])
    held = list(series.upgrades)
    held[side] = (*held[side], *taken)
    return replace(series, upgrades=(held[0], held[1]))


def tick(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    assert series.reward is not None
    if series.reward.rewards(series.last()) is None:  # type: ignore[arg-type]
        waiting = [series.names[s] for s in (0, 1) if series.reward.gameplan_met[s] is None]
        raise RuleError(f"first say how many gameplan milestones {' and '.join(waiting)} met "
                        "(gameplan_result)")
    open_items = dict(reward_items(series))
    if event.get("all"):
        choosing = [k for k in open_items if k.endswith(":hooper_upgrades")]
        if choosing:
            side = int(choosing[0].split(":")[0])
            raise RuleError(f"first name {series.names[side]}'s hooper upgrade cards (item {choosing[0]})")
        done = (*series.reward.done, *open_items)
    else:
        item = event.get("item")
        if item not in open_items:
            raise RuleError(f"no reward item {item!r} is open; open: {', '.join(open_items) or 'none'}")
        done = (*series.reward.done, str(item))
        side, key = int(str(item).split(":")[0]), str(item).split(":")[1]
        cards = event.get("cards")
        if key == "hooper_upgrades":
            series = _take_cards(series, side, cards)
        elif key in ("strength", "track") and cards is not None:
            # A tick without cards hands the card over unnamed (logs from before the cards were tracked).
            name = take_action_card(cards, series.action_held, series.names[side])
            held = list(series.action_held)
            held[side] = (*held[side], name)
            series = replace(series, action_held=(held[0], held[1]))
        elif key == "positions" and cards is not None:
            taken = take_positions(cards, series.positions_held[side], positions_still(series, str(item)),
                                   series.names[side])
            held = list(series.positions_held)
            held[side] = (*held[side], *taken)
            named = (*series.reward.named, *((str(item), p) for p in taken))
            series = replace(series, positions_held=(held[0], held[1]),
                             reward=replace(series.reward, named=named))
            if positions_still(series, str(item)) > 0:
                return replace(series, message=f"{series.names[side]} takes position upgrade "
                               f"{', '.join(taken)} ({positions_still(series, str(item))} more to name)")
        elif cards is not None:
            raise RuleError("cards go with the hooper_upgrades, strength, track and positions items")
    assert series.reward is not None
    series = replace(series, reward=replace(series.reward, done=done))
    if event.get("all") or not reward_items(series):
        return replace(series, phase="next_game",
                       message=f"rewards handed over: set up game {series.next_number}")
    return replace(series, message=f"done: {open_items[str(event.get('item'))]}")
