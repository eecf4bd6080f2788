"""A test game that uses every part of the declaration Valley Hoopers does not: Shootout.

Three players (2 to 5 allowed). Each round: every player makes a sealed bid from their purse (the
highest bid holds the tie-breaker token for the round, ties to the lowest seat); then all race to
press their button first (a tie within the race window goes to the token holder); the winner rolls
the d12 and reads the chart (roll high): 1-4 miss, 5-9 two points, 10-11 three, 12 four. After the
set number of rounds the players are ranked by points, co-winners possible.

It lives under tests/ and is registered for tests only (tests/conftest.py); nothing in
``hardware/`` or ``kiosk/`` names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.commands import CommandSpec, Field, check_int, side_index, spec_for
from companion.dice import Die
from companion.errors import CommandError, RuleError
from companion.game import (
    JSON,
    Counter,
    Game,
    Lookup,
    Outcome,
    Prompt,
    Race,
    RollInfo,
    Row,
    ScoreboardView,
    Sealed,
    SideView,
)

D12 = Die("d12shoot", "Shootout d12", tuple(range(1, 13)))
CHART = Lookup((Row(1, 4, "miss", False), Row(5, 9, "2 points", True), Row(10, 11, "3 points", True),
                Row(12, 12, "4 points", True)))
POINTS = {"miss": 0, "2 points": 2, "3 points": 3, "4 points": 4}
RACE_WINDOW_MS = 40
PURSE = 10


def _order(name: str, raw: object) -> list[int]:
    if not isinstance(raw, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in raw):
        raise CommandError(f"{name} must be a list of side indexes")
    return list(raw)


def _presses(name: str, raw: object) -> list[JSON]:
    if not isinstance(raw, list) or not all(isinstance(p, dict) and {"side", "ms"} <= set(p) for p in raw):
        raise CommandError(f"{name} must be a list of {{side, ms}}")
    return [{"side": check_int("side", p["side"]), "ms": check_int("ms", p["ms"])} for p in raw]


COMMANDS = (
    CommandSpec("bid", "a sealed bid from the side's purse (secret until every side has bid)",
                {"type": "bid", "side": 0, "amount": 3},
                (Field("side", "side", required=True, check=side_index(5)),
                 Field("amount", "int", required=True)), sealed=("amount",)),
    CommandSpec("race", "who pressed first (sent by the controls from the buttons' edge times)",
                {"type": "race", "order": [2, 0, 1], "presses": [{"side": 2, "ms": 0}], "tie": False},
                (Field("order", "sides", required=True, check=_order),
                 Field("presses", "presses", check=_presses), Field("tie", "bool"))),
    CommandSpec("roll", "the shooter's d12", {"type": "roll", "die": "d12shoot", "face": 11},
                (Field("face", "face", required=True), Field("die", "text"))),
)


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    purse: tuple[int, ...]
    score: tuple[int, ...]
    rounds: int
    round: int = 1
    phase: str = "bid"  # bid -> race -> shot -> (next round) bid ... -> over
    bids: tuple[tuple[int, int], ...] = ()  # (side, amount) in the order entered
    token: int = 0  # who holds the tie-breaker
    shooter: int | None = None
    message: str = ""


def setup(options: Mapping[str, Any]) -> State:
    names = options.get("names", ["Ann", "Bo", "Cy"])
    if not isinstance(names, list) or not 2 <= len(names) <= 5:
        raise RuleError("Shootout needs 2 to 5 player names")
    rounds = options.get("rounds", 2)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 9:
        raise RuleError(f"rounds must be 1 to 9, not {rounds!r}")
    n = len(names)
    return State(tuple(str(x) for x in names), (PURSE,) * n, (0,) * n, rounds)


def _bump(values: tuple[int, ...], side: int, by: int) -> tuple[int, ...]:
    return tuple(v + by if i == side else v for i, v in enumerate(values))


def decide(state: State, command: Mapping[str, Any]) -> list[JSON]:
    if not isinstance(command, Mapping):
        raise CommandError("a command is a JSON object with a type")
    checked = spec_for(COMMANDS, command.get("type"), "Shootout").from_json(command)
    kind = checked["type"]
    if state.phase == "over":
        raise RuleError("the shootout is over")
    if kind == "bid":
        side, amount = checked["side"], checked["amount"]
        if state.phase != "bid":
            raise RuleError("bids are made at the start of a round, before the race")
        if side >= len(state.names):
            raise CommandError(f"side must be 0 to {len(state.names) - 1}, not {side}")
        if any(s == side for s, _ in state.bids):
            raise RuleError(f"{state.names[side]} has already bid this round")
        if not 0 <= amount <= state.purse[side]:
            raise RuleError(f"{state.names[side]} can bid 0 to {state.purse[side]} (the purse), not {amount}")
        event: JSON = {"type": "bid", "side": side, "amount": amount}
        if len(state.bids) + 1 == len(state.names):
            event["reveals"] = True  # the last bid opens every envelope at once
            event["text"] = "every bid is in: the bids are revealed"
        else:
            event["text"] = f"{state.names[side]} has bid"
        return [event]
    if kind == "race":
        if state.phase != "race":
            raise RuleError("there is no race now")
        order = checked["order"]
        if sorted(order) != list(range(len(state.names))):
            raise CommandError(f"order must list every side once, not {order}")
        tied = [p["side"] for p in checked.get("presses", []) if p["ms"] <= RACE_WINDOW_MS]
        if len(tied) > 1 and state.token in tied and order[0] != state.token:
            raise RuleError(f"a tie goes to the tie-breaker holder, {state.names[state.token]}")
        return [{"type": "race", "order": order, "presses": checked.get("presses", []),
                 "text": f"{state.names[order[0]]} wins the race"}]
    if state.phase != "shot":
        raise RuleError("the game is not waiting for the d12")
    face = D12.parse_face(checked["face"])
    if checked.get("die", D12.name) != D12.name:
        raise RuleError(f"the game is waiting for the {D12.title}, not {checked['die']}")
    row = CHART.row_for(face)
    assert row is not None
    return [{"type": "roll", "die": D12.name, "face": face, "points": POINTS[row.result],
             "text": f"{state.names[state.shooter or 0]} rolls {face}: {row.result}"}]


def apply(state: State, event: JSON) -> State:
    kind = event["type"]
    if kind == "bid":
        bids = (*state.bids, (event["side"], event["amount"]))
        if not event.get("reveals"):
            return replace(state, bids=bids, message=event["text"])
        top = max(amount for _, amount in bids)
        token = min(side for side, amount in bids if amount == top)
        purse = state.purse
        for side, amount in bids:
            purse = _bump(purse, side, -amount)
        return replace(state, bids=bids, purse=purse, token=token, phase="race",
                       message=f"{state.names[token]} bid most ({top}) and holds the token")
    if kind == "race":
        return replace(state, shooter=event["order"][0], phase="shot", message=event["text"])
    score = _bump(state.score, state.shooter or 0, event["points"])
    if state.round == state.rounds:
        return replace(state, score=score, phase="over", shooter=None, message=event["text"])
    return replace(state, score=score, round=state.round + 1, phase="bid", bids=(), shooter=None,
                   message=event["text"])


def outcome(state: State) -> Outcome | None:
    if state.phase != "over":
        return None
    levels = sorted(set(state.score), reverse=True)
    places = [[i for i, s in enumerate(state.score) if s == level] for level in levels]
    return Outcome.ranked(places, "most points after " + f"{state.rounds} rounds")


def prompt(state: State) -> Prompt:
    n = len(state.names)
    if state.phase == "over":
        return Prompt(side=None, text="the shootout is over", commands=())
    if state.phase == "bid":
        entered = tuple(side for side, _ in state.bids)
        return Prompt(side=None, text="everyone: enter a sealed bid", commands=("bid",),
                      sealed=Sealed(tuple(range(n)), entered, "bid", "amount", 0,
                                    {i: state.purse[i] for i in range(n)}))
    if state.phase == "race":
        return Prompt(side=None, text="race: first to press shoots", commands=("race",),
                      race=Race(tuple(range(n)), state.token, "race", RACE_WINDOW_MS,
                                "first to press shoots"))
    shooter = state.shooter or 0
    roll = RollInfo(D12, CHART)
    return Prompt(side=shooter, text=f"{state.names[shooter]}: roll the d12", commands=("roll",), roll=roll,
                  p_success=roll.chance())


def scoreboard(state: State) -> ScoreboardView:
    sides = tuple(SideView(name, state.score[i], counters=(Counter("$", state.purse[i]),),
                           active=state.shooter == i) for i, name in enumerate(state.names))
    return ScoreboardView(game="shootout", title="Shootout", sides=sides, period=f"R{state.round}", clock="",
                          possession=state.shooter, target=None if state.phase != "shot" else 5,
                          target_text="" if state.phase != "shot" else CHART.words,
                          message=state.message[:40], final=state.phase == "over",
                          period_over=state.round > 1 and state.phase == "bid" and not state.bids)


def view(state: State) -> JSON:
    revealed = state.phase != "bid"
    return {"names": list(state.names), "score": list(state.score), "purse": list(state.purse),
            "round": state.round, "rounds": state.rounds, "phase": state.phase,
            # Before the reveal only who has bid, never how much.
            "bids": ([{"side": s, "amount": a} for s, a in state.bids] if revealed
                     else [{"side": s} for s, _ in state.bids]),
            "token": state.token, "shooter": state.shooter,
            "sides": [{"name": n, "players": [{"name": n, "points": state.score[i]}]}
                      for i, n in enumerate(state.names)]}


def demo_script() -> tuple[JSON, list[JSON]]:
    """Two rounds: Cy wins the token and a tied race, then Bo shoots."""
    return ({"names": ["Ann", "Bo", "Cy"], "rounds": 2}, [
        {"type": "bid", "side": 0, "amount": 2}, {"type": "bid", "side": 2, "amount": 7},
        {"type": "bid", "side": 1, "amount": 3},
        {"type": "race", "order": [2, 0, 1], "presses": [{"side": 0, "ms": 0}, {"side": 2, "ms": 20}],
         "tie": True},
        {"type": "roll", "die": "d12shoot", "face": 11},
        {"type": "bid", "side": 1, "amount": 1}, {"type": "bid", "side": 0, "amount": 1},
        {"type": "bid", "side": 2, "amount": 0},
        {"type": "race", "order": [1, 0, 2], "presses": [{"side": 1, "ms": 0}], "tie": False},
        {"type": "roll", "die": "d12shoot", "face": 12},
    ])


GAME = Game(name="shootout", title="Shootout (test game)", aliases=("shoot",), setup=setup, decide=decide,
            apply=apply, outcome=outcome, scoreboard=scoreboard, prompt=prompt, view=view, commands=COMMANDS,
            dice=(D12,), sides=(2, 5), demo_script=demo_script)
