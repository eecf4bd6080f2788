"""BasketBoss renders every state as a fresh count would, and its prompt's legality checks agree
with ``decide``.

The view and the scoreboard reuse what earlier states counted for the managers a command left alone
(memos by the identity of their records), and the prompt asks each candidate command the rules'
checks (``rules.allowed``) instead of deciding it. Both are checked over every state of the
five-manager script, with undos, redos, a command taken again after an undo, and the log replayed
into a new timeline (a restore): each rendered snapshot must be byte for byte the render of a copy
of its state (a copy shares no record with anything seen before, so no memo can answer for it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from render_walk import fresh_render as fresh_render_of
from render_walk import walk

from companion.errors import CompanionError
from companion.games import find_game
from companion.games.basketboss import rules

SCRIPT = Path(__file__).parent / "games" / "basketboss_5_managers.jsonl"
GAME = find_game("basketboss")


@pytest.fixture(scope="module")
def walked() -> list[tuple[Any, dict[str, Any]]]:
    return list(walk(GAME, SCRIPT))


def fresh_render(state: Any) -> dict[str, Any]:
    return fresh_render_of(GAME, state, lambda s: s.managers[0])


def candidates(state: Any) -> Iterator[dict[str, Any]]:
    """Every command a prompt could offer on ``state``, and many it never would (wrong seat, phase,
    amount or slot)."""
    yield {"type": "market_done"}
    yield {"type": "award"}
    yield {"type": "reveal", "injury": True}
    yield {"type": "reveal", "card": "nobody of that name"}
    for card in state.deck:
        yield {"type": "reveal", "card": card.name}
    high = state.auction.high if state.auction is not None else 0
    for side in range(state.count + 1):  # one seat too many: refused whatever the phase
        money = state.manager(side).money if side < state.count else 0
        yield {"type": "pass", "side": side}
        yield {"type": "ribbon", "side": side}
        for amount in range(max(money, high) + 7):
            yield {"type": "bid", "side": side, "amount": amount}
        for slot in range(7):
            yield {"type": "place", "side": side, "slot": slot}
            yield {"type": "injure", "side": side, "slot": slot}
        for change in (-25, -1, 1, 25):
            yield {"type": "adjust", "side": side, "strength": change}
        for number in [a.number for a in state.advisors] + [98]:
            yield {"type": "hire", "side": side, "advisor": number}


def decides(state: Any, command: dict[str, Any]) -> bool:
    try:
        rules.decide(state, command)
    except CompanionError:
        return False
    return True


def test_every_snapshot_is_what_a_fresh_count_of_its_state_gives(
        walked: list[tuple[Any, dict[str, Any]]]) -> None:
    phases = set()
    count = 0
    fresh: dict[int, str] = {}  # an undo shows an earlier state again: counted afresh once
    for state, shown in walked:
        if id(state) not in fresh:
            fresh[id(state)] = json.dumps(fresh_render(state))
        assert json.dumps(shown) == fresh[id(state)], (count, state.phase)
        phases.add(state.phase)
        count += 1
    assert count > 300
    assert phases == {"market", "contracts", "place", "strength", "ties", "injury_bids", "hire", "final"}


def test_the_checks_the_prompt_asks_accept_exactly_what_decide_accepts(
        walked: list[tuple[Any, dict[str, Any]]]) -> None:
    accepted = refused = offered = 0
    seen: set[int] = set()
    for state, shown in walked:
        if id(state) in seen:
            continue
        seen.add(id(state))
        tried = list(candidates(state))
        for command in tried:
            ok = decides(state, command)
            assert rules.allowed(state, command) == ok, (state.phase, command)
            accepted += ok
            refused += not ok
        # What the prompt offers is among those candidates, and each is one decide accepts.
        for choice in shown["prompt"]["choices"]:
            assert choice["command"] in tried and decides(state, choice["command"]), (state.phase, choice)
            offered += 1
    assert accepted > 500 and refused > 10_000 and offered > 500
