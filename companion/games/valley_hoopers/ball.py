"""Ball dynamics: who may take the next card that needs the ball, after a dribble, pass or screen.

- dribble: the dribbler keeps the ball, so the next ball action is his (a teammate may screen);
- pass: the passer gives the ball away, so the next ball action is someone else's;
- screen: the screener has no ball, so he can't take the very next ball action.

>>> after = after_card(BallState(), "pass", "SG player")
>>> after = after_card(after, "screen", "C player")
>>> sorted(after.barred)
['C player', 'SG player']
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError
from companion.frozen import OwnDict


@dataclass(frozen=True)
class BallState(OwnDict):
    """``holder`` must take the next ball action if set; ``barred`` hoopers can't."""

    holder: str | None = None
    barred: tuple[str, ...] = ()
    last: tuple[tuple[str, str], ...] = ()


def needs_ball(action: str) -> bool:
    return action != "screen"


def check_card(ball: BallState, action: str, hooper: str, subject: str = "they") -> None:
    """Refuse a card the ball dynamics forbid, saying which card made it so."""
    refused = card_refusal(ball, action, hooper, subject)
    if refused is not None:
        raise refused


def card_refusal(ball: BallState, action: str, hooper: str, subject: str = "they") -> RuleError | None:
    """The refusal ``check_card`` raises, returned (for a prompt judging many cards)."""
    if needs_ball(action):
        if ball.holder is not None and ball.holder != hooper:
            return RuleError(
                f"{ball.holder} dribbled and still has the ball: {hooper} can't take the " f"{_what(action)}"
            )
        if hooper in ball.barred:
            why = dict(ball.last).get(hooper, "played")
            verb = {"pass": "passed", "screen": "screened"}.get(why, why)
            return RuleError(f"{hooper} {verb} last: {subject} can't take the {_what(action)}")
    elif ball.holder == hooper:
        return RuleError(f"{hooper} dribbled and must keep the ball: another hooper may screen")
    return None


def takes_any(ball: BallState, hooper: str) -> bool:
    """``check_card`` refuses ``hooper`` no card: nobody holds the ball and he/she is not barred (a
    prompt judging a court's cards checks each card only when this says no)."""
    return ball.holder is None and hooper not in ball.barred


def _what(action: str) -> str:
    return {"dribble": "dribble", "pass": "pass", "2PS": "shot", "3PS": "shot", "LUP": "lay-up"}.get(
        action, action
    )


def after_card(ball: BallState, action: str, hooper: str) -> BallState:
    """The ball state once ``hooper`` has played ``action`` (fundamental or attack)."""
    if action == "dribble":
        return BallState(holder=hooper, barred=(), last=((hooper, "dribble"),))
    if action == "pass":
        return BallState(holder=None, barred=(hooper,), last=((hooper, "pass"),))
    if action == "screen":
        return BallState(
            holder=ball.holder, barred=(*ball.barred, hooper), last=(*ball.last, (hooper, "screen"))
        )
    return BallState()
