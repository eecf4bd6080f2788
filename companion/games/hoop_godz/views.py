"""What the front ends show for Hoop Godz: score, clock tokens, who is active, the TIE BREAKER,
each player's juice, and what the table can enter now.

>>> shot_chance(dice=4, difficulty=3, ball_faces=2)
Fraction(1, 9)
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from companion.errors import CompanionError
from companion.game import JSON, Choice, Outcome, Prompt, ScoreboardView, SideView
from companion.games.hoop_godz.cards import card_json
from companion.games.hoop_godz.juice import right_of_rest
from companion.games.hoop_godz.model import MAX_DICE, State
from companion.games.hoop_godz.rules import decide, picker, responder


def shot_chance(dice: int, difficulty: int, ball_faces: int) -> Fraction:
    """Exact chance that ``dice`` dice show at least ``difficulty`` BALL icons."""
    p = Fraction(ball_faces, 6)
    return sum(
        (comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(difficulty, dice + 1)), Fraction(0)
    )


def outcome(state: State) -> Outcome | None:
    return Outcome(state.winner, state.reason) if state.final else None


def scoreboard(state: State) -> ScoreboardView:
    sides = tuple(
        SideView(p.name, p.score, extra=f"A{p.ledger.available} Y{p.ledger.yellow} R{p.ledger.red}")
        for p in state.players
    )
    holder = "" if state.tie_breaker is None else f"TIE {state.names[state.tie_breaker]}"
    active = None if state.phase in ("draft", "tip_off", "final") else state.active
    juice = ""
    if active is not None:
        juice = f"{state.names[active]} juice {state.player(active).ledger.available}"
    message = " ".join(part for part in (holder, juice, "NEXT SCORE WINS" if state.overtime else "") if part)
    return ScoreboardView(
        game="hoop-godz",
        sides=sides,
        period=f"to {state.win_at}",
        clock=f"{state.clock} clk",
        possession=active,
        message=message,
        final=state.final,
    )


def _legal(state: State, candidates: list[tuple[str, JSON]]) -> tuple[Choice, ...]:
    chosen = []
    for label, command in candidates:
        try:
            decide(state, command)
        except CompanionError:
            continue
        chosen.append(Choice(label, command))
    return tuple(chosen)


def _battle_choices(state: State) -> list[tuple[str, JSON]]:
    names = state.names
    found: list[tuple[str, JSON]] = [
        (f"{names[side]} matched first", {"type": "battle", "winner": side}) for side in (0, 1)
    ]
    if state.tie_breaker is not None:
        found.append(
            (f"tie: {names[state.tie_breaker]} holds the TIE BREAKER", {"type": "battle", "tie": True})
        )
    for side in (0, 1):
        found.append((f"{names[side]}: BOOST", {"type": "boost", "side": side}))
    return found


def prompt(state: State) -> Prompt:
    names = state.names
    if state.final:
        return Prompt(side=None, text=f"game over: {state.reason}", commands=())
    if state.phase == "draft":
        side = picker(state)
        return Prompt(
            side=side,
            text=f"draft: {names[side]} picks a baller (pick {state.picks + 1} of 6)",
            commands=("pick",),
            choices=tuple(
                Choice(f"{b.name} ({b.size})", {"type": "pick", "baller": b.name}) for b in state.pool
            ),
        )
    if state.phase == "tip_off":
        candidates = [
            (f"tip-off: {a.name} and {b.name}", {"type": "tip_off", "nearest": [a.name, b.name]})
            for a in state.player(0).squad
            for b in state.player(1).squad
        ]
        return Prompt(
            side=None,
            text="tip-off: each player's baller next to the ball (Big: 4 dice)",
            commands=("tip_off",),
            choices=_legal(state, candidates),
        )
    if state.phase == "battle":
        battle = state.battle
        assert battle is not None
        text = (
            f"dice battle ({battle.kind.replace('_', '-')}): {names[0]} {battle.dice[0]} dice, "
            f"{names[1]} {battle.dice[1]} dice; first to match the three icons presses"
        )
        return Prompt(
            side=None, text=text, commands=("battle", "boost"), choices=_legal(state, _battle_choices(state))
        )
    if state.phase == "final_roll":
        assert state.shot is not None
        dice, difficulty, points = state.shot
        text = f"final SHOOT roll: {dice} dice, {difficulty}+ BALL icons score {points}"
        chance = None
        if state.ball_faces is not None:
            chance = shot_chance(dice, difficulty, state.ball_faces)
            text += f" ({float(chance):.0%})"
        return Prompt(
            side=state.active,
            text=text,
            commands=("shot_roll",),
            p_success=chance,
            expected_points=None if chance is None else chance * points,
            choices=tuple(
                Choice(f"{n} BALL icon{'s' * (n != 1)}", {"type": "shot_roll", "balls": n})
                for n in range(dice + 1)
            ),
        )
    active = state.active
    if state.phase == "respond":
        side = responder(state)
        battle = state.battle
        assert battle is not None
        candidates: list[tuple[str, JSON]] = [(f"{names[side]}: MOVE", {"type": "move"})]
        candidates += [
            (
                f"{names[side]}: {card.name} by {b.name}",
                {"type": "respond", "card": card.name, "baller": b.name},
            )
            for card in state.cards
            if not card.active
            for b in state.player(side).squad
        ]
        candidates += [
            (f"{names[active]}: BOOST", {"type": "boost", "side": active}),
            ("no response", {"type": "no_response"}),
        ]
        return Prompt(
            side=side,
            text=f"{names[side]}: respond to {battle.active_card} (MOVE first if you like)",
            commands=("move", "respond", "boost", "no_response"),
            choices=_legal(state, candidates),
        )
    ledger = state.player(active).ledger
    candidates = [(f"{names[active]}: MOVE", {"type": "move"}), (f"{names[active]}: PASS", {"type": "pass"})]
    for card in state.cards:
        if not card.active:
            continue
        for b in state.player(active).squad:
            if card.effect == "shoot":
                candidates += [
                    (
                        f"SHOOT by {b.name}: {points} pts, difficulty {d}",
                        {
                            "type": "play",
                            "card": card.name,
                            "baller": b.name,
                            "difficulty": d,
                            "points": points,
                        },
                    )
                    for points in (2, 3)
                    for d in range(1, MAX_DICE + 1)
                ]
            else:
                candidates.append(
                    (f"{card.name} by {b.name}", {"type": "play", "card": card.name, "baller": b.name})
                )
    if state.player(active).goat_draws:
        candidates.append(("GOAT card", {"type": "goat", "juice": 0}))
    candidates += [("REST", {"type": "rest"}), ("end turn", {"type": "end_turn"})]
    rest = "" if right_of_rest(ledger, state.bar) else "; REST possible"
    text = f"{names[active]}'s turn: {ledger.available} juice available{rest}"
    return Prompt(
        side=active,
        text=text,
        commands=("move", "pass", "play", "goat", "rest", "end_turn"),
        choices=_legal(state, candidates),
    )


def view(state: State) -> JSON:
    return {
        "mode": state.mode,
        "phase": state.phase,
        "win_at": state.win_at,
        "clock": state.clock,
        "active": state.active if state.phase not in ("draft", "tip_off") else None,
        "tie_breaker": state.tie_breaker,
        "overtime": state.overtime,
        "sides": [
            {
                "name": p.name,
                "score": p.score,
                "available": p.ledger.available,
                "yellow": p.ledger.yellow,
                "red": p.ledger.red,
                "bar": list(p.ledger.bar),
                "juice_total": p.ledger.total,
                "squad": [{"name": b.name, "size": b.size} for b in p.squad],
                "goat_cards": p.goat_draws,
                "battles_won": p.battles_won,
                "juice_spent": p.juice_spent,
            }
            for p in state.players
        ],
        "pool": [{"name": b.name, "size": b.size} for b in state.pool],
        "battle": None
        if state.battle is None
        else {"kind": state.battle.kind, "cards": list(state.battle.cards), "dice": list(state.battle.dice)},
        "shot": None
        if state.shot is None
        else dict(zip(("dice", "difficulty", "points"), state.shot, strict=True)),
        "bar_layout": {
            "spaces": ["pass" if s.pass_only else s.drains_to for s in state.bar.spaces],
            "rest_line": state.bar.rest_line,
        },
        "cards": [card_json(c) for c in state.cards],
        "winner": state.winner,
        "reason": state.reason,
    }
