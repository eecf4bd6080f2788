"""Hoop Godz's rules: setup, the draft, ``decide`` and ``apply``.

The players roll real dice in races; the companion keeps the juice ledgers, the clock tokens, the
score, who is active and who holds the TIE BREAKER, and decides each dice battle from the race
(who matched first, a tie going to the TIE BREAKER holder, who hands it over).

>>> s = setup({})
>>> for name in ("Demo Tower", "Demo Zip", "Demo Flash", "Demo Swing", "Demo Arc", "Demo Wall"):
...     s = run(s, {"type": "pick", "baller": name})
>>> s = run(s, {"type": "tip_off", "nearest": ["Demo Tower", "Demo Zip"]})
>>> s.battle.dice
(4, 3)
>>> s = run(s, {"type": "battle", "winner": 0})
>>> s.active, s.tie_breaker, s.player(0).ledger.available, s.player(0).ledger.yellow
(0, 1, 5, 5)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from companion.errors import CommandError, CompanionError, RuleError
from companion.frozen import replace
from companion.game import JSON
from companion.games.hoop_godz import juice
from companion.games.hoop_godz.commands import normalize
from companion.games.hoop_godz.model import MAX_DICE, Baller, Battle, State
from companion.games.hoop_godz.races import race_winner
from companion.games.hoop_godz.setup_options import setup
from companion.splits import Splits

if TYPE_CHECKING:
    from companion.games.hoop_godz.cards import ActionCard

__all__ = ["CHECKS", "allowed", "apply", "decide", "picker", "play", "responder", "run", "setup"]

# "First pick will select one BALLER ... Second pick will select two ... First pick selects their
# final two ... Second pick selects their last": 1-2-2-1.
PICK_ORDER = (0, 1, 1, 0, 0, 1)


# -- decide ----------------------------------------------------------------------------------------


def picker(state: State) -> int:
    order = PICK_ORDER[state.picks]
    return state.first_pick if order == 0 else 1 - state.first_pick


def responder(state: State) -> int:
    return 1 - state.active


def _side(state: State, command: Mapping[str, Any], default: int) -> int:
    side = command.get("side", default)
    if side not in (0, 1) or isinstance(side, bool):
        raise CommandError(f"side is 0 or 1, not {side!r}")
    return side


def _phase(state: State, *allowed: str) -> None:
    if state.final:
        raise RuleError("the game is over: undo to change the result, or start a new game")
    if state.phase not in allowed:
        raise RuleError(WAITING[state.phase])


WAITING = {
    "draft": "the draft comes first: pick the ballers 1-2-2-1",
    "tip_off": "the tip-off comes first: both players place a baller next to the ball",
    "turn": "it is a turn: the active player acts (MOVE, PASS, BOOST, an action card, REST or end turn)",
    "respond": "the active card waits for the other player's response (or no response)",
    "battle": "a dice battle is on: say who matched the three icons first",
    "final_roll": "the final SHOOT roll comes first: how many BALL icons?",
}


def decide(state: State, command: Mapping[str, Any]) -> list[JSON]:
    checked = normalize(command)
    return _HANDLERS[checked["type"]](state, checked)


def allowed(state: State, command: Mapping[str, Any]) -> bool:
    """Whether ``decide`` accepts ``command``, a canonical one (``normalize`` gives it back unchanged,
    as the prompt builds them), asked of its kind's check alone (``CHECKS``).

    Each check holds every refusal its handler can give: the handler calls it first, and nothing
    after it refuses (the events it then builds only fold a spend the check paid for), so the state
    after the command is not built (tests/test_hoop_godz_choices.py compares with ``decide``)."""
    check = CHECKS.get(command["type"])
    try:
        if check is None:
            decide(state, command)
        else:
            check(state, command)
    except CompanionError:
        return False
    return True


def _pick(state: State, command: Mapping[str, Any]) -> list[JSON]:
    _phase(state, "draft")
    side = picker(state)
    name = command.get("baller")
    for baller in state.pool:
        if isinstance(name, str) and baller.name.lower() == name.strip().lower():
            return [
                {
                    "type": "picked",
                    "side": side,
                    "baller": baller.name,
                    "size": baller.size,
                    "text": f"{state.names[side]} picks {baller.name} ({baller.size})",
                }
            ]
    left = ", ".join(b.name for b in state.pool)
    raise RuleError(f"{name!r} is not among the ballers left to pick: {left}")


def check_tip_off(state: State, command: Mapping[str, Any]) -> list[Baller]:
    """Every refusal of a tip-off; the two ballers next to the ball, side 0's first."""
    _phase(state, "tip_off")
    nearest = command.get("nearest")
    if not (isinstance(nearest, list) and len(nearest) == 2):
        raise CommandError("tip_off needs nearest: each player's baller next to the ball, side 0 first")
    return [state.baller(side, nearest[side]) for side in (0, 1)]


def _tip_off(state: State, command: Mapping[str, Any]) -> list[JSON]:
    ballers = check_tip_off(state, command)
    # "Both players get 3 Dice (or 4 Dice if the BALLER closest to the ball is Big)".
    dice = [4 if b.size == "big" else 3 for b in ballers]
    return [
        {
            "type": "battle_started",
            "kind": "tip_off",
            "cards": ["REBOUND", "REBOUND"],
            "dice": dice,
            "active_card": "REBOUND",
            "text": f"tip-off: {state.names[0]} {dice[0]} dice, {state.names[1]} {dice[1]} dice",
        }
    ]


def _check_spend(state: State, side: int, action: str, count: int = 1, pass_space: bool = False) -> None:
    """Refuses a spend the player can't pay whole (before anything is kept)."""
    juice.check_spend(state.player(side).ledger, state.bar, action, count, pass_space)


def _spend_events(side: int, action: str, count: int = 1, pass_space: bool = False) -> list[JSON]:
    """The spend a check has paid for (``_check_spend``)."""
    return [{"type": "juice_spent", "side": side, "action": action, "count": count, "pass_space": pass_space}]


def _end_of_action(state: State, events: list[JSON]) -> list[JSON]:
    """A full bar ends the active player's turn."""
    after = _fold(state, events)
    if after.phase == "turn" and juice.bar_full(after.player(after.active).ledger, after.bar):
        end: JSON = {
            "type": "turn_ended",
            "rest": False,
            "text": f"{after.names[after.active]}'s juice bar " "is full: the turn is over",
        }
        return events + _turn_end(after, end)
    return events


def check_move(state: State, command: Mapping[str, Any]) -> int:
    """Every refusal of a MOVE; the side that moves."""
    _phase(state, "turn", "respond")
    side = state.active if state.phase == "turn" else responder(state)
    if command.get("side") is not None and _side(state, command, side) != side:
        who = "the active player" if state.phase == "turn" else "the responding player"
        raise RuleError(f"only {who} may MOVE now")
    _check_spend(state, side, "MOVE")
    return side


def _move(state: State, command: Mapping[str, Any]) -> list[JSON]:
    side = check_move(state, command)
    events = _spend_events(side, "MOVE")
    events[0]["text"] = f"{state.names[side]}: MOVE (1 juice)"
    return _end_of_action(state, events)


def check_pass(state: State, command: Mapping[str, Any]) -> None:
    """Every refusal of a PASS."""
    _phase(state, "turn")
    allowed_by = command.get("allowed_by")
    if allowed_by not in (None, "skill", "goat"):
        raise CommandError("allowed_by is skill or goat (a BALLER skill or GOAT card that allows it)")
    if not state.turn_started and allowed_by is None:
        raise RuleError(
            "a PASS must be at the start of your turn (unless a BALLER skill or a GOAT " "card says you can)"
        )
    _check_spend(state, state.active, "PASS", pass_space=state.turn_started)


def _pass(state: State, command: Mapping[str, Any]) -> list[JSON]:
    check_pass(state, command)
    events = _spend_events(state.active, "PASS", pass_space=state.turn_started)
    events[0]["text"] = f"{state.names[state.active]}: PASS (1 juice)"
    return _end_of_action(state, events)


def check_boost(state: State, command: Mapping[str, Any]) -> tuple[int, Battle]:
    """Every refusal of a BOOST; the side that boosts and the battle."""
    _phase(state, "respond", "battle")
    battle = state.battle
    assert battle is not None
    default = state.active if state.phase == "respond" else responder(state)
    side = _side(state, command, default)
    if battle.kind == "tip_off" or not battle.cards[side]:
        raise RuleError(
            "a BOOST goes with an action card you play: " f"{state.names[side]} has no card in this battle"
        )
    if battle.dice[side] >= MAX_DICE:
        raise RuleError(
            f"at most {MAX_DICE} dice in a dice battle: {state.names[side]} already rolls "
            f"{battle.dice[side]}"
        )
    _check_spend(state, side, "BOOST")
    return side, battle


def _boost(state: State, command: Mapping[str, Any]) -> list[JSON]:
    side, battle = check_boost(state, command)
    events = _spend_events(side, "BOOST")
    events[0]["text"] = f"{state.names[side]}: BOOST (1 juice), {battle.dice[side] + 1} dice"
    events.append({"type": "boosted", "side": side})
    return events


def check_play(state: State, command: Mapping[str, Any]) -> tuple[ActionCard, Baller, int, dict[str, int]]:
    """Every refusal of an ACTIVE card played; the card, its baller, the cost and a SHOOT's fields.

    Of a card of the table and a baller of the squad it reads only whether the card is ACTIVE and what
    it costs the baller: the prompt judges one per kind and cost (``offers._card_key``)."""
    _phase(state, "turn")
    card = state.card(command.get("card"))
    if not card.active:
        raise RuleError(f"{card.name} is a RESPONSE card: it answers the other player's ACTIVE card")
    baller = state.baller(state.active, command.get("baller"))
    cost = card.cost(baller.size)
    _check_spend(state, state.active, card.name, cost)
    shot: dict[str, int] = {}
    if card.effect == "shoot":
        difficulty, points = command.get("difficulty"), command.get("points")
        if isinstance(difficulty, bool) or not isinstance(difficulty, int) or not 1 <= difficulty <= MAX_DICE:
            raise CommandError(
                f"a SHOOT needs difficulty: the number on the space you shoot from (1 to "
                f"{MAX_DICE}), not {difficulty!r}"
            )
        if points not in (2, 3):
            raise CommandError("a SHOOT needs points: 2 from a grey space, 3 from a black one")
        shot = {"difficulty": difficulty, "points": points}
    return card, baller, cost, shot


def _play(state: State, command: Mapping[str, Any]) -> list[JSON]:
    card, baller, cost, shot = check_play(state, command)
    side = state.active
    events = _spend_events(side, card.name, cost)
    surcharge = f" + 1 for a {baller.size} baller" if cost > card.juice else ""
    events[0]["text"] = f"{state.names[side]}: {card.name} by {baller.name} ({card.juice} juice{surcharge})"
    events.append(
        {
            "type": "card_played",
            "side": side,
            "card": card.name,
            "baller": baller.name,
            "dice": card.dice(baller.size),
            "cost": cost,
            **shot,
        }
    )
    return events


def check_respond(state: State, command: Mapping[str, Any]) -> tuple[int, ActionCard, Baller, int]:
    """Every refusal of a RESPONSE card; the responder, the card, its baller and the cost (of a card of
    the table and a baller of the squad, only the kind and the cost count: ``offers._card_key``)."""
    _phase(state, "respond")
    side = responder(state)
    card = state.card(command.get("card"))
    if card.active:
        raise RuleError(f"{card.name} is an ACTIVE (whistle) card: it is played on your own turn")
    baller = state.baller(side, command.get("baller"))
    cost = card.cost(baller.size)
    _check_spend(state, side, card.name, cost)
    return side, card, baller, cost


def _respond(state: State, command: Mapping[str, Any]) -> list[JSON]:
    side, card, baller, cost = check_respond(state, command)
    events = _spend_events(side, card.name, cost)
    events[0]["text"] = f"{state.names[side]} responds: {card.name} by {baller.name} ({cost} juice)"
    events.append(
        {"type": "responded", "side": side, "card": card.name, "dice": card.dice(baller.size), "cost": cost}
    )
    return events


def check_no_response(state: State, command: Mapping[str, Any]) -> None:
    """The only refusal of "no response": the phase (the ACTIVE card's effect then refuses nothing)."""
    _phase(state, "respond")


def _no_response(state: State, command: Mapping[str, Any]) -> list[JSON]:
    check_no_response(state, command)
    battle = state.battle
    assert battle is not None
    events: list[JSON] = [
        {
            "type": "unanswered",
            "text": f"{state.names[responder(state)]} does not respond: "
            f"{battle.active_card} goes through",
        }
    ]
    return events + _effect(_fold(state, events), state.active, unanswered=True)


def check_battle(state: State, command: Mapping[str, Any]) -> None:
    """The only refusal of a told battle: the phase (the winning card's effect then refuses nothing)."""
    _phase(state, "battle")


def _battle(state: State, command: Mapping[str, Any]) -> list[JSON]:
    """The table says who matched first (no race buttons): a tie goes to the TIE BREAKER holder."""
    check_battle(state, command)
    if command.get("tie"):
        return _decided(state, state.tie_breaker, tie=True, how={"told": True})
    return _decided(state, command["winner"], tie=False, how={"told": True})


def _race(state: State, command: Mapping[str, Any]) -> list[JSON]:
    """The race buttons (or the kiosk's race pads): checked against their own press times."""
    _phase(state, "battle")
    winner, tie = race_winner(command, state.tie_breaker)
    return _decided(state, winner if not tie or state.tie_breaker is not None else None, tie,
                    how={"presses": command["presses"]})


def _decided(state: State, winner: int | None, tie: bool, how: JSON) -> list[JSON]:
    battle = state.battle
    assert battle is not None
    if tie and winner is None:
        # Nobody holds the TIE BREAKER before the tip-off ("Tip-Off loser takes the TIE BREAKER").
        return [{"type": "battle_tied", **how,
                 "text": "a tie at the tip-off: nobody holds the TIE BREAKER yet, so both roll again"}]
    assert winner is not None
    if tie:
        text = (f"a tie: {state.names[winner]} holds the TIE BREAKER, wins the battle and hands the "
                f"token to {state.names[1 - winner]}")
    else:
        what = battle.kind.replace("_", "-")
        text = f"{state.names[winner]} matches the three icons first and wins the {what}"
    events: list[JSON] = [{"type": "battle_won", "side": winner, "tie": tie, **how, "text": text}]
    return events + _effect(_fold(state, events), winner)


def _effect(state: State, winner: int, unanswered: bool = False) -> list[JSON]:
    """What the winning card does (the battle is over in ``state``)."""
    battle = state.battle
    assert battle is not None
    names = state.names
    if battle.kind == "tip_off":
        # "Tip-Off winner takes the Active Player Token, moves 1 Juice Token to the Yellow Juice Box
        # ... Tip-Off loser takes the TIE BREAKER."
        return [
            {
                "type": "tipped_off",
                "active": winner,
                "text": f"{names[winner]} is active and moves 1 juice to Yellow; {names[1 - winner]} "
                "takes the TIE BREAKER",
            }
        ]
    if battle.kind == "rebound":
        if winner == state.active:
            return [{"type": "rebound", "side": winner, "text": f"{names[winner]} takes the rebound"}]
        end: JSON = {
            "type": "turn_ended",
            "rest": False,
            "text": f"{names[winner]} takes the rebound and the ball: the turn is over",
        }
        return [
            {"type": "rebound", "side": winner, "text": f"{names[winner]} takes the rebound"}
        ] + _turn_end(_fold(state, [{"type": "rebound", "side": winner}]), end)
    card = state.card(battle.cards[winner])
    events: list[JSON] = []
    if winner == state.active and card.effect == "dunk":
        # "DUNK immediately scores 2 points after winning a Dice Battle with that card played."
        return _scored(state, winner, 2, f"{names[winner]} DUNKS for 2")
    if winner == state.active and card.effect == "shoot":
        return [
            {
                "type": "shot_taken",
                "dice": battle.dice[winner],
                "difficulty": battle.difficulty,
                "points": battle.points,
                "text": f"{names[winner]} SHOOTS: roll all {battle.dice[winner]} dice once more; "
                f"{battle.difficulty} or more BALL icons score {battle.points}",
            }
        ]
    if winner != state.active and card.effect == "crossover":
        end = {
            "type": "turn_ended",
            "rest": False,
            "text": f"CROSSOVER wins: {names[winner]} moves {names[state.active]}'s baller one space, "
            "and the turn is over",
        }
        return [{"type": "card_resolved", "side": winner}] + _turn_end(
            _fold(state, [{"type": "card_resolved", "side": winner}]), end
        )
    events.append(
        {
            "type": "card_resolved",
            "side": winner,
            "text": f"{card.name} takes effect" + (" (no response)" if unanswered else ""),
        }
    )
    after = _fold(state, events)
    if card.ends_turn:
        end = {"type": "turn_ended", "rest": False, "text": f"{card.name} ends the turn"}
        return events + _turn_end(after, end)
    return _end_of_action(state, events)


def _roll(state: State, command: Mapping[str, Any]) -> list[JSON]:
    """The final SHOOT roll, entered as the count of BALL icons the battle's dice show."""
    _phase(state, "final_roll")
    assert state.shot is not None
    dice, difficulty, points = state.shot
    balls = command["face"]
    if balls > dice:
        raise RuleError(f"{dice} dice show at most {dice} BALL icons, not {balls}")
    names = state.names
    if balls >= difficulty:
        return _scored(
            state,
            state.active,
            points,
            f"{names[state.active]} makes the shot with {balls} BALL "
            f"icons (needs {difficulty}): {points} points",
        )
    return [
        {
            "type": "battle_started",
            "kind": "rebound",
            "cards": ["REBOUND", "REBOUND"],
            "dice": [3, 3],
            "active_card": "REBOUND",
            "text": f"{balls} BALL icons, {difficulty} needed: a miss; both play REBOUND for a dice battle",
        }
    ]


def _scored(state: State, side: int, points: int, text: str) -> list[JSON]:
    events: list[JSON] = [{"type": "scored", "side": side, "points": points, "text": text}]
    after = _fold(state, events)
    names = state.names
    score = after.player(side).score
    if score >= state.win_at or state.overtime:
        why = (
            f"{names[side]} reaches {score} points"
            if score >= state.win_at
            else f"the clock ran out tied and {names[side]} scored next"
        )
        return events + [
            {"type": "game_over", "winner": side, "reason": why, "text": f"{names[side]} wins: {why}"}
        ]
    end: JSON = {
        "type": "turn_ended",
        "rest": False,
        "score": side,
        "text": f"after the score {names[1 - side]} gets the ball",
    }
    return events + _turn_end(after, end)


def check_rest(state: State, command: Mapping[str, Any]) -> None:
    """Every refusal of a REST."""
    _phase(state, "turn")
    ledger = state.player(state.active).ledger
    if juice.right_of_rest(ledger, state.bar):
        raise RuleError(
            "REST means ending your turn without putting any juice to the right of the "
            "Rest line, and this turn did"
        )


def _rest(state: State, command: Mapping[str, Any]) -> list[JSON]:
    check_rest(state, command)
    end: JSON = {
        "type": "turn_ended",
        "rest": True,
        "text": f"{state.names[state.active]} RESTS: up to 4 Yellow to Available, and takes a " "clock token",
    }
    return _turn_end(state, end)


def check_end_turn(state: State, command: Mapping[str, Any]) -> None:
    """The only refusal of an ended turn: the phase."""
    _phase(state, "turn")


def _end_turn(state: State, command: Mapping[str, Any]) -> list[JSON]:
    check_end_turn(state, command)
    return _turn_end(
        state, {"type": "turn_ended", "rest": False, "text": f"{state.names[state.active]} ends the turn"}
    )


def check_goat(state: State, command: Mapping[str, Any]) -> int:
    """Every refusal of a GOAT card; what it costs."""
    _phase(state, "turn")
    side = state.active
    held = state.player(side).goat_draws
    if held <= 0:
        raise RuleError(f"{state.names[side]} holds no GOAT card")
    cost = command.get("juice", 0)
    if isinstance(cost, bool) or not isinstance(cost, int) or not 0 <= cost <= 10:
        raise CommandError(f"juice is what the GOAT card costs (0 to 10), not {cost!r}")
    if cost:
        _check_spend(state, side, "GOAT", cost)
    return cost


def _goat(state: State, command: Mapping[str, Any]) -> list[JSON]:
    cost = check_goat(state, command)
    side = state.active
    events = _spend_events(side, "GOAT", cost) if cost else []
    name = str(command.get("name") or "a GOAT card")[:30]
    events.append(
        {
            "type": "goat_played",
            "side": side,
            "text": f"{state.names[side]} plays {name} (no response allowed), then discards it",
        }
    )
    return _end_of_action(state, events)


def _turn_end(state: State, end: JSON) -> list[JSON]:
    """End of turn: recover (REST or score) first, then both players exhaust their bars."""
    events: list[JSON] = [end]
    after = _fold(state, events)
    for side in (0, 1):
        _, to_red = juice.exhaust(state.player(side).ledger, state.bar)  # the bars before they drain
        if to_red:
            events.append(
                {
                    "type": "goat_drawn",
                    "side": side,
                    "text": f"{after.names[side]} put juice in the red box: draw a GOAT card",
                }
            )
    if end.get("rest") and after.clock == 0 and not after.final and not state.overtime:
        scores = [p.score for p in after.players]
        if scores[0] != scores[1]:
            leader = 0 if scores[0] > scores[1] else 1
            why = f"the clock ran out with {after.names[leader]} ahead {max(scores)}-{min(scores)}"
            events.append(
                {
                    "type": "game_over",
                    "winner": leader,
                    "reason": why,
                    "text": f"{after.names[leader]} wins: {why}",
                }
            )
        else:
            events.append(
                {"type": "clock_out_tied", "text": "the clock ran out tied: the next to score wins"}
            )
    return events


_HANDLERS = {
    "pick": _pick,
    "tip_off": _tip_off,
    "race": _race,
    "battle": _battle,
    "move": _move,
    "pass": _pass,
    "boost": _boost,
    "play": _play,
    "respond": _respond,
    "no_response": _no_response,
    "roll": _roll,
    "goat": _goat,
    "rest": _rest,
    "end_turn": _end_turn,
}


# What refuses each command the prompt offers, before its handler builds anything (``allowed``).
CHECKS: dict[str, Callable[[State, Mapping[str, Any]], object]] = {
    "tip_off": check_tip_off,
    "battle": check_battle,
    "move": check_move,
    "pass": check_pass,
    "boost": check_boost,
    "play": check_play,
    "respond": check_respond,
    "no_response": check_no_response,
    "goat": check_goat,
    "rest": check_rest,
    "end_turn": check_end_turn,
}


# -- apply -------------------------------------------------------------------------------------


# The events ``decide`` folded on its way, while ``play`` decides: (id(state), id(event)) -> (state, event,
# the state after it). The entry holds both, so their ids stay theirs while it is kept.
Folded = dict[tuple[int, int], tuple[State, JSON, State]]
_FOLDED: ContextVar[Folded | None] = ContextVar("folded", default=None)


def _fold(state: State, events: list[JSON]) -> State:
    folded = _FOLDED.get()
    for event in events:
        if folded is None:
            state = apply(state, event)
            continue
        hit = folded.get((id(state), id(event)))
        if hit is None:
            after = apply(state, event)
            folded[id(state), id(event)] = (state, event, after)
            state = after
        else:
            state = hit[2]
    return state


def play(state: State, command: Mapping[str, Any]) -> tuple[State, list[JSON]]:
    """``decide``, and the state its events lead to, without applying again what deciding applied on its
    way (a turn's end, a battle's effect: ``apply`` is pure, and an event is not changed once folded
    but for its ``text``, which ``apply`` does not read).

    >>> s = setup({"squads": [["Demo Zip", "Demo Swing", "Demo Tower"],
    ...                       ["Demo Flash", "Demo Arc", "Demo Wall"]]})
    >>> after, events = play(s, {"type": "tip_off", "nearest": ["Demo Tower", "Demo Arc"]})
    >>> after == run(s, {"type": "tip_off", "nearest": ["Demo Tower", "Demo Arc"]}), events[0]["dice"]
    (True, [4, 3])
    """
    token = _FOLDED.set({})
    try:
        events = decide(state, command)
        return _fold(state, events), events
    finally:
        _FOLDED.reset(token)


def apply(state: State, event: JSON) -> State:
    kind = event["type"]
    if kind == "picked":
        side = event["side"]
        baller = next(b for b in state.pool if b.name == event["baller"])
        state = state.with_player(side, squad=state.player(side).squad + (baller,))
        state = replace(state, pool=tuple(b for b in state.pool if b is not baller), picks=state.picks + 1)
        return replace(state, phase="tip_off") if state.picks == len(PICK_ORDER) else state
    if kind == "battle_started":
        return replace(
            state,
            phase="battle",
            battle=Battle(
                event["kind"],
                tuple(event["cards"]),  # type: ignore[arg-type]
                tuple(event["dice"]),
                event["active_card"],
            ),  # type: ignore[arg-type]
            shot=None,
        )
    if kind == "juice_spent":
        side = event["side"]
        ledger = state.player(side).ledger
        for _ in range(event["count"]):
            ledger = juice.spend(ledger, state.bar, event["action"], event["pass_space"])
        state = state.with_player(
            side, ledger=ledger, juice_spent=state.player(side).juice_spent + event["count"]
        )
        return replace(state, turn_started=False) if side == state.active else state
    if kind == "boosted":
        battle = state.battle
        assert battle is not None
        dice = list(battle.dice)
        dice[event["side"]] += 1
        return replace(state, battle=replace(battle, dice=(dice[0], dice[1])))
    if kind == "card_played":
        dice = [0, 0]
        dice[event["side"]] = event["dice"]
        cards = ["", ""]
        cards[event["side"]] = event["card"]
        return replace(
            state,
            phase="respond",
            battle=Battle(
                "action",
                (cards[0], cards[1]),
                (dice[0], dice[1]),
                event["card"],
                event.get("points", 0),
                event.get("difficulty", 0),
                event.get("baller", ""),
            ),
        )
    if kind == "responded":
        battle = state.battle
        assert battle is not None
        cards, dice = list(battle.cards), list(battle.dice)
        cards[event["side"]], dice[event["side"]] = event["card"], event["dice"]
        return replace(
            state, phase="battle", battle=replace(battle, cards=(cards[0], cards[1]), dice=(dice[0], dice[1]))
        )
    if kind == "unanswered":
        return replace(state, phase="battle")
    if kind == "battle_tied":
        return replace(state, rerolls=state.rerolls + 1)
    if kind == "battle_won":
        side = event["side"]
        state = state.with_player(side, battles_won=state.player(side).battles_won + 1)
        if event["tie"]:
            state = replace(state, tie_breaker=1 - side)
        return state
    if kind == "tipped_off":
        side = event["active"]
        ledger = state.player(side).ledger
        moved = min(1, ledger.available)
        state = state.with_ledger(side, available=ledger.available - moved, yellow=ledger.yellow + moved)
        return replace(state, phase="turn", active=side, tie_breaker=1 - side, battle=None, turn_started=True)
    if kind in ("card_resolved", "rebound", "goat_played"):
        if kind == "goat_played":
            side = event["side"]
            return state.with_player(side, goat_draws=state.player(side).goat_draws - 1)
        return replace(state, phase="turn", battle=None)
    if kind == "shot_taken":
        # The ball flies once the SHOOT's battle is won: a field-goal attempt, its result the final roll.
        shooter = state.battle.baller if state.battle is not None else ""
        state = _count_shot(state, state.active, shooter, lambda s: s.shot(event["points"], made=False))
        return replace(
            state, phase="final_roll", battle=None, shooter=shooter,
            shot=(event["dice"], event["difficulty"], event["points"]),
        )
    if kind == "scored":
        side = event["side"]
        three = event["points"] == 3
        if state.phase == "final_roll":  # the SHOOT's final roll goes in: its attempt is made
            state = _count_shot(state, side, state.shooter,
                                lambda s: replace(s, fgm=s.fgm + 1, tpm=s.tpm + three))
        else:  # a DUNK scores right after its won battle: attempted and made at once
            dunker = state.battle.baller if state.battle is not None else ""
            state = _count_shot(state, side, dunker, lambda s: s.shot(event["points"], made=True))
        return state.with_player(side, score=state.player(side).score + event["points"])
    if kind == "turn_ended":
        return _apply_turn_end(state, event)
    if kind == "goat_drawn":
        side = event["side"]
        return state.with_player(side, goat_draws=state.player(side).goat_draws + 1)
    if kind == "clock_out_tied":
        return replace(state, overtime=True)
    if kind == "game_over":
        return replace(
            state, phase="final", winner=event["winner"], reason=event["reason"], battle=None, shot=None
        )
    raise ValueError(f"unknown Hoop Godz event {kind!r}")


def _count_shot(state: State, side: int, baller: str, count: Callable[[Splits], Splits]) -> State:
    """A shot on the side's line and on the baller's who played it (when the log names one)."""
    player = state.player(side)
    squad = tuple(replace(b, splits=count(b.splits)) if b.name == baller else b for b in player.squad)
    return state.with_player(side, splits=count(player.splits), squad=squad)


def _apply_turn_end(state: State, event: JSON) -> State:
    active = state.active
    if event.get("rest"):
        ledger, _ = juice.recover_rest(state.player(active).ledger)
        state = state.with_player(active, ledger=ledger)
        state = replace(state, clock=max(0, state.clock - 1))  # sudden death: none left to take
    scorer = event.get("score")
    if scorer is not None:
        state = state.with_player(scorer, ledger=juice.recover_score(state.player(scorer).ledger))
    for side in (0, 1):
        ledger, _ = juice.exhaust(state.player(side).ledger, state.bar)
        if ledger is not state.player(side).ledger:
            state = state.with_player(side, ledger=ledger)
    return replace(
        state,
        phase="turn",
        active=1 - active,
        battle=None,
        shot=None,
        turn_started=True,
        turns=state.turns + 1,
    )


def run(state: State, command: Mapping[str, Any]) -> State:
    return _fold(state, decide(state, command))
