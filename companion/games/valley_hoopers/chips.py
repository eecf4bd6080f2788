"""Onfire chips on a hooper card: redeeming them from the track and spending them.

The chips lie face down: the companion counts them, and the table says which effect a chip had
when it is spent. Muy Schillato gets a spent LV.1 chip back once (``reused_chips``), without its
stellar extra.
"""

from __future__ import annotations

from companion.errors import RuleError
from companion.frozen import replace
from companion.games.valley_hoopers.model import FLAT, LV1_SPACE, Hooper, State

LV1_EFFECTS = ("boost", "unstoppable", "remove_intercept", "remove_steal", "block")
LV2_EFFECTS = (
    "fast_break",
    "coast_to_coast",
    "tap_out",
    "goal_tending",
    "never_give_up",
    "energy_drink",
    "no_way_block",
    "buzzer_beater",
)


def spend_lv1(state: State, side: int, name: str, effect: str) -> tuple[State, bool]:
    """Spend one LV.1 chip for ``effect``; returns the state and whether it was a reused chip."""
    hooper = state.side(side).hooper(name)
    if effect in hooper.reused_chips:
        reused = list(hooper.reused_chips)
        reused.remove(effect)
        return state.with_hooper(side, replace(hooper, reused_chips=tuple(reused))), True
    if hooper.chips_lv1 < 1:
        raise RuleError(f"{hooper.name} has no Onfire LV.1 chip to spend")
    hooper = replace(hooper, chips_lv1=hooper.chips_lv1 - 1)
    if hooper.has_skill("reuses_lv1_chip"):
        hooper = replace(hooper, reused_chips=(*hooper.reused_chips, effect))
    return state.with_hooper(side, hooper), False


def on_lv1(hooper: Hooper) -> bool:
    """On the Onfire LV.I space, where a LV.1 chip is redeemed."""
    return hooper.onfire == LV1_SPACE


def check_redeem_lv1(state: State, hooper: Hooper) -> None:
    """Every refusal of a LV.1 chip redeemed: the hooper is not on LV.I, or The Series' stock is empty."""
    if not on_lv1(hooper):
        raise RuleError(f"{hooper.name} is not on the Onfire LV.I space")
    _check_stock(stock_left(state, "lv1"), "lv1")


def redeem_lv1(state: State, side: int, name: str) -> State:
    """A hooper on LV.I takes a LV.1 chip and goes back to flat (or keeps going for LV.2)."""
    hooper = state.side(side).hooper(name)
    check_redeem_lv1(state, hooper)
    state = take_from_stock(state, "lv1")
    return state.with_hooper(side, replace(hooper, onfire=FLAT, chips_lv1=hooper.chips_lv1 + 1))


def stock_left(state: State, level: str) -> int | None:
    """Chips left in The Series' stock of ``level`` (``lv1``/``lv2``); ``None``: no limit (not a series)."""
    if state.series is None:
        return None
    return state.series.chips_lv1 if level == "lv1" else state.series.chips_lv2


def take_from_stock(state: State, level: str) -> State:
    """One chip out of the stock. In The Series "if a type of Onfire Chip (Lv.1 or Lv.2) runs out,
    it becomes no longer available. Do not create new stacks": an empty stock refuses."""
    left = stock_left(state, level)
    if left is None:
        return state
    _check_stock(left, level)
    return state.with_series(**{f"chips_{level}": left - 1})


def _check_stock(left: int | None, level: str) -> None:
    if left is not None and left < 1:
        raise RuleError(f"the Onfire {level.upper().replace('LV', 'LV.')} chips have run out: "
                        "in The Series an empty stock stays empty")


def spend_lv2(state: State, side: int, name: str) -> State:
    hooper = state.side(side).hooper(name)
    if hooper.chips_lv2 < 1:
        raise RuleError(f"{hooper.name} has no Onfire LV.2 chip to spend")
    return state.with_hooper(side, replace(hooper, chips_lv2=hooper.chips_lv2 - 1))
