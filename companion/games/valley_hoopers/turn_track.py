"""The turn track and the period track: pairs of attacking turns, reminders, periods, overtime, end.

A period is eight pairs of attacking turns (four in overtime). Reminders after each pair tell the
table what to draw; bench energy is tracked, so the companion applies it.

>>> period_starter(first_attacker=0, period=2, regulation=4), period_starter(0, 4, 4)
(1, 0)
"""

from __future__ import annotations

from companion.frozen import replace
from companion.games.valley_hoopers.hooper_ops import queue, recover, recover_to
from companion.games.valley_hoopers.model import FLAT, Decision, State, Turn, new_pending, other


def period_starter(first_attacker: int, period: int, regulation: int) -> int:
    """Who attacks first in a period.

    The first attacker of period 1 starts period 4, the other starts periods 2 and 3. Overtimes
    alternate from the period before (our reading: docs/games/valley-hoopers.md). In Fast Play the
    second period goes to the other side.
    """
    if period == 1:
        return first_attacker
    if period <= regulation:
        return first_attacker if period == 4 else other(first_attacker)
    previous = period_starter(first_attacker, period - 1, regulation)
    return other(previous)


BENCH_RECOVERY = "bench hoopers recover 1 energy"


def pair_reminders(pair: int, overtime: bool = False) -> tuple[str, ...]:
    """What the turn track asks for after a pair of attacking turns (the period's last is apart).

    "If an overtime will be played the hoopers don't recover any energy": in an overtime the
    cards are still drawn, but the bench gets nothing.

    >>> pair_reminders(2), pair_reminders(2, overtime=True)
    (('each player draws 3 cards', 'bench hoopers recover 1 energy'), ('each player draws 3 cards',))
    """
    if pair in (1, 3, 5, 7):
        reminders: tuple[str, ...] = ("each player draws 1 card",)
    elif pair in (2, 6):
        reminders = ("each player draws 3 cards", BENCH_RECOVERY)
    elif pair == 4:
        reminders = ("each player refills the hand to 7 cards", BENCH_RECOVERY)
    else:
        reminders = ()
    if overtime:
        return tuple(r for r in reminders if r != BENCH_RECOVERY)
    return reminders


def _bench_recovery(state: State) -> State:
    for index, side in enumerate(state.sides):
        for hooper in side.bench():
            state = recover(state, index, hooper.name, 1)
    return state


def start_turn(state: State, attacker: int, began_after: str) -> State:
    """A fresh attacking turn for ``attacker``: empty slots, no bonus."""
    return replace(
        state,
        turn=Turn(attacker=attacker, began_after=began_after),
        pending=new_pending(kind="play", side=attacker),
    )


def end_attacking_turn(state: State, began_after: str) -> State:
    """Close the attacking turn: move the turn token, run the reminders, maybe end the period.

    A Buzzer Beater turn is an extra one: the same side then plays its own turn. A turn played with
    the Unleashed tribe power does not move the turn token either.
    """
    attacker = state.turn.attacker
    if state.turn.buzzer_beater:
        return start_turn(state, attacker, "buzzer_beater")
    if state.turn.tribe_power:
        return start_turn(state, other(attacker), began_after)
    finished = state.turn_number
    reminders: tuple[str, ...] = ()
    if finished % 2 == 0:
        pair = finished // 2
        if pair >= state.pairs_in_period:
            return end_period(state)
        reminders = pair_reminders(pair, overtime=state.period > state.regulation_periods)
        if BENCH_RECOVERY in reminders:
            state = _bench_recovery(state)
    state = replace(state, turn_number=finished + 1, reminders=reminders)
    return start_turn(state, other(attacker), began_after)


def _period_recovery(state: State, period: int) -> State:
    """Energy before the next period: +1, full -1, +1 (Fast Play: +1 after its first period)."""
    if period > state.regulation_periods - 1:
        return state
    for index, side in enumerate(state.sides):
        for hooper in side.hoopers:
            if hooper.out:
                continue
            state = (
                recover_to(state, index, hooper.name, 1)
                if period == 2
                else recover(state, index, hooper.name, 1)
            )
    return state


def _milestone_periods(state: State) -> tuple[int, ...]:
    # Draft: "You will not use the milestones during the game."
    return {"fast": (1,), "draft": ()}.get(state.variant, (1, 2, 3))


# The Series: "Refill the playbook on the scoreboard: up to three before starting the second period;
# up to two before starting the third period; up to one before starting the fourth period."
SERIES_REFILLS = {2: 3, 3: 2, 4: 1}
COMMON_PLAYBOOK_SLOTS = 4


def refilled_playbooks(on_board: int, next_period: int) -> int:
    """Common playbooks on the scoreboard after The Series' refill before ``next_period``.

    >>> refilled_playbooks(0, 2), refilled_playbooks(0, 3), refilled_playbooks(3, 4), refilled_playbooks(1, 5)
    (3, 2, 4, 1)
    """
    return min(COMMON_PLAYBOOK_SLOTS, on_board + SERIES_REFILLS.get(next_period, 0))


def _playbook_reminder(state: State, next_period: int) -> str:
    if state.series is None:
        return "replenish the four common playbooks on the scoreboard"
    on_board = state.series.common_playbooks
    after = refilled_playbooks(on_board, next_period)
    if after == on_board:
        return f"no playbook refill: {on_board} common playbooks stay on the scoreboard"
    return f"refill the common playbooks on the scoreboard from {on_board} to {after}"


def _series_period_end(state: State, period: int, partial: tuple[int, int]) -> State:
    """The Series: no milestone upgrade now; the winner of periods 1-3 takes its milestone marker."""
    assert state.series is not None
    if period > 3:
        return state
    winner = None if partial[0] == partial[1] else (0 if partial[0] > partial[1] else 1)
    return state.with_series(milestones=(*state.series.milestones, winner))


def end_period(state: State) -> State:
    """Partial score, team fouls back to zero, energy recovery, milestone, then the next period or the end."""
    period = state.period
    partial = (state.score[0] - state.period_start_score[0], state.score[1] - state.period_start_score[1])
    state = replace(
        state,
        partial_scores=(*state.partial_scores, partial),
        team_fouls=(0, 0),
        period_start_score=state.score,
    )
    state = _period_recovery(state, period)
    if period == 2:
        # The Onfire tokens all go back to the flat zone when the second period ends.
        for index, side in enumerate(state.sides):
            for hooper in side.hoopers:
                if hooper.onfire != FLAT:
                    state = state.with_hooper(index, replace(hooper, onfire=FLAT))
    if state.series is not None:
        state = _series_period_end(state, period, partial)
    elif period in _milestone_periods(state) and period <= state.regulation_periods:
        if state.variant == "friendly":
            state = queue(state, Decision(kind="upgrade", side=None, period=period))
        elif partial[0] != partial[1]:
            state = queue(
                state, Decision(kind="upgrade", side=0 if partial[0] > partial[1] else 1, period=period)
            )
    if period >= state.regulation_periods and state.score[0] != state.score[1]:
        winner = 0 if state.score[0] > state.score[1] else 1
        return replace(
            state,
            final=True,
            winner=winner,
            pending=new_pending(kind="game_over", side=winner),
            reminders=(),
            message=f"{state.side(winner).name} wins " f"{max(state.score)}-{min(state.score)}",
        )
    next_period = period + 1
    starter = period_starter(state.first_attacker, next_period, state.regulation_periods)
    reminders = (
        "each player refills the hand to 7 cards",
        _playbook_reminder(state, next_period),
        "free substitutions before the period starts",
    )
    if state.series is not None:
        refilled = refilled_playbooks(state.series.common_playbooks, next_period)
        state = state.with_series(common_playbooks=refilled)
    name = (
        f"overtime {next_period - state.regulation_periods}"
        if next_period > state.regulation_periods
        else f"period {next_period}"
    )
    state = replace(
        state,
        period=next_period,
        turn_number=1,
        reminders=reminders,
        free_substitutions=(True, True),
        message=f"{name}: {state.side(starter).name} attacks first",
    )
    return start_turn(state, starter, "period")
