"""What the front ends show for Hoop Godz: score, clock tokens, who is active, the TIE BREAKER,
each player's juice, and what the table can enter now (a race for a dice battle, the BALL count for
a final SHOOT roll).

>>> from companion.games.hoop_godz.rules import setup
>>> scoreboard(setup({})).clock
'10 CLK'
"""

from __future__ import annotations

from collections.abc import Callable

from companion.frozen import by_identities, by_identity
from companion.game import (
    JSON,
    AtLeast,
    Choice,
    Counter,
    Outcome,
    Prompt,
    Race,
    RollInfo,
    ScoreboardView,
    SideView,
)
from companion.games.hoop_godz.cards import card_json
from companion.games.hoop_godz.dice import BALLS, ball_count
from companion.games.hoop_godz.juice import right_of_rest
from companion.games.hoop_godz.model import TEMPO_MS, Baller, Player, State
from companion.games.hoop_godz.offers import (
    allowed_choices,
    battle_offer,
    respond_offer,
    tip_off_offer,
    turn_offer,
)
from companion.games.hoop_godz.races import RACE_WINDOW_MS
from companion.games.hoop_godz.rules import picker, responder
from companion.splits import Splits


def box_score(state: State) -> list[JSON]:
    """The game-end box score: each player's ballers (the points and field goals of the SHOOTs and
    DUNKs each played), then the player's total line (``total``: score, battles won, juice spent and
    all the side's field goals, those of a log that did not name the baller too)."""
    return [*_box_rows(state.players[0]), *_box_rows(state.players[1])]


def _count_box_rows(p: Player) -> list[JSON]:
    rows = [_baller_row(p.name, b) for b in p.squad]
    rows.append({"side": p.name, "name": "Total", "total": True, "points": p.score,
                 "battles_won": p.battles_won, "juice_spent": p.juice_spent, **_splits_json(p.splits)})
    return rows


def _count_baller_row(side: str, b: Baller) -> JSON:
    return {"side": side, "name": b.name, "points": b.splits.points, **_splits_json(b.splits)}


# A command changes one player's record at most (most change the other's not at all): what the view
# shows of a player is built once per record, a baller's row once per baller and the field goals'
# cells once per count (by identity; read-only, as every snapshot is: the cells are copied in).
_box_rows = by_identity(_count_box_rows, size=64)
_baller_row = by_identities(_count_baller_row, size=64)
_splits_json: Callable[[Splits], JSON] = by_identity(lambda splits: splits.to_json(free_throws=False),
                                                     size=128)


def outcome(state: State) -> Outcome | None:
    if not state.final or state.winner is None:
        return None
    return Outcome.ranked([[state.winner], [1 - state.winner]], state.reason)


def scoreboard(state: State) -> ScoreboardView:
    """Score, clock tokens left, the active player (the arrow), the TIE BREAKER holder and juice."""
    active = None if state.phase in ("draft", "tip_off", "final") else state.active
    # One counter a side, so the 128x64 layout (it draws the first only) shows it all: the juice
    # Available, marked TB on the TIE BREAKER holder. The bottom line is the table's dial at the
    # table, so nothing the players need lives only in the message.
    tie_breaker, (home, away) = state.tie_breaker, state.players
    sides = (_side_view(home, tie_breaker == 0, active == 0), _side_view(away, tie_breaker == 1, active == 1))
    parts = []
    if active is not None:
        parts.append(f"{state.names[active]} juice {state.player(active).ledger.available}")
    if state.tie_breaker is not None:
        parts.append(f"TB {state.names[state.tie_breaker]}")
    if state.overtime:
        parts.append("NEXT SCORE WINS")
    if state.final:
        parts = [f"{state.names[state.winner or 0]} WINS"]
    return ScoreboardView(
        game="hoop-godz",
        title="Hoop Godz",
        sides=sides,
        period=f"to {state.win_at}",
        clock=f"{state.clock} CLK",
        possession=active,
        message=" ".join(parts),
        final=state.final,
    )


def _count_side_view(p: Player, holds_tie_breaker: bool, active: bool) -> SideView:
    juice = Counter("TB J" if holds_tie_breaker else "J", p.ledger.available)
    return SideView(p.name, p.score, counters=(juice,), active=active)


# A player's side of the scoreboard, once per record and flags (most commands leave one player alone).
_side_view = by_identities(_count_side_view, size=64)


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
        return Prompt(
            side=None,
            text="tip-off: each player's baller next to the ball (Big: 4 dice)",
            commands=("tip_off",),
            choices=allowed_choices(state, tip_off_offer(state)),
        )
    if state.phase == "battle":
        battle = state.battle
        assert battle is not None
        text = (
            f"dice battle ({battle.kind.replace('_', '-')}): {names[0]} {battle.dice[0]} dice, "
            f"{names[1]} {battle.dice[1]} dice; first to match the three icons presses"
        )
        if battle.kind == "tip_off" and state.rerolls:
            text += f" (tie {state.rerolls}: roll again)"
        race = Race((0, 1), state.tie_breaker, "race", RACE_WINDOW_MS,  # type: ignore[arg-type]
                    label="first to match the card's three icons presses",
                    tempo_ms=TEMPO_MS if state.b_ball_4_all else None)
        return Prompt(side=None, text=text, commands=("race", "battle", "boost"), race=race,
                      choices=allowed_choices(state, battle_offer(state)))
    if state.phase == "final_roll":
        return _final_roll(state)
    active = state.active
    if state.phase == "respond":
        side = responder(state)
        battle = state.battle
        assert battle is not None
        return Prompt(
            side=side,
            text=f"{names[side]}: respond to {battle.active_card} (MOVE first if you like)",
            commands=("move", "respond", "boost", "no_response"),
            choices=allowed_choices(state, respond_offer(state)),
        )
    ledger = state.player(active).ledger
    rest = "" if right_of_rest(ledger, state.bar) else "; REST possible"
    text = f"{names[active]}'s turn: {ledger.available} juice available{rest}"
    return Prompt(
        side=active,
        text=text,
        commands=("move", "pass", "play", "goat", "rest", "end_turn"),
        choices=allowed_choices(state, turn_offer(state)),
    )


def view(state: State) -> JSON:
    return {
        "mode": state.mode,
        "phase": state.phase,
        "win_at": state.win_at,
        "clock": state.clock,
        "active": state.active if state.phase not in ("draft", "tip_off") else None,
        "tie_breaker": state.tie_breaker,
        "tie_breaker_name": "nobody yet" if state.tie_breaker is None else state.names[state.tie_breaker],
        "active_name": "" if state.phase in ("draft", "tip_off", "final") else state.names[state.active],
        "overtime": state.overtime,
        "b_ball_4_all": state.b_ball_4_all,
        "rerolls": state.rerolls,
        "sides": [_side(state.players[0]), _side(state.players[1])],
        "box_score": box_score(state),
        # The ballers left to pick, while the draft is on (the three never picked are out of the game).
        "pool": _ballers_json(state.pool) if state.phase == "draft" else [],
        "battle": None
        if state.battle is None
        else {"kind": state.battle.kind, "cards": list(state.battle.cards), "dice": list(state.battle.dice)},
        "shot": None
        if state.shot is None
        else dict(zip(("dice", "difficulty", "points"), state.shot, strict=True)),
        "bar_layout": _bar_layout_json(state.bar),
        "cards": _cards_json(state.cards),
        "winner": state.winner,
        "reason": state.reason,
    }


def _count_side(p: Player) -> JSON:
    return {
        # First list of objects: the export's box-score row for the player (companion.export).
        "box": [{"player": p.name, "points": p.score, "battles_won": p.battles_won,
                 "juice_spent": p.juice_spent, **_splits_json(p.splits)}],
        "name": p.name,
        "score": p.score,
        "available": p.ledger.available,
        "yellow": p.ledger.yellow,
        "red": p.ledger.red,
        "bar": list(p.ledger.bar),
        "juice_total": p.ledger.total,
        "squad": _ballers_json(p.squad),
        "goat_cards": p.goat_draws,
        "battles_won": p.battles_won,
        "juice_spent": p.juice_spent,
        **_splits_json(p.splits),
        "bar_text": " ".join("o" if held is None else "X" for held in p.ledger.bar),
    }


_side = by_identity(_count_side, size=64)
_ballers_json = by_identity(lambda ballers: [{"name": b.name, "size": b.size} for b in ballers], size=64)
# The table's cards and juice bar: set at setup, the same records all game.
_cards_json = by_identity(lambda cards: [card_json(c) for c in cards], size=16)
_bar_layout_json = by_identity(
    lambda bar: {"spaces": ["pass" if s.pass_only else s.drains_to for s in bar.spaces],
                 "rest_line": bar.rest_line}, size=16)


def _final_roll(state: State) -> Prompt:
    """The final SHOOT roll: the count of BALL icons, awaited as a die when ``ball_faces`` is known
    (the tray and the encoder enter it, the prompt carries the exact chance), else offered as choices."""
    assert state.shot is not None
    dice, difficulty, points = state.shot
    text = f"final SHOOT roll: roll all {dice} dice; {difficulty}+ BALL icons score {points}"
    counts = [{"type": "roll", "die": BALLS.name, "face": n} for n in range(dice + 1)]
    if state.ball_faces is None:
        return Prompt(side=state.active, text=text + " (set ball_faces to see the chance)",
                      commands=("roll",),
                      choices=tuple(Choice(BALLS.face_label(c["face"]), c) for c in counts))
    count = ball_count(dice, state.ball_faces)
    rule = AtLeast(difficulty, gives=f"{points} points", misses="REBOUND battle")
    chance = rule.chance(count)
    return Prompt(side=state.active, text=f"{text} ({float(chance):.0%})", commands=("roll",),
                  # One entry, the count of BALL icons (not a pool of faces entered one by one): the
                  # count die's faces and their binomial weights already say how many dice were rolled.
                  roll=RollInfo(count, rule), p_success=chance,
                  expected_points=chance * points)
