"""The Series' reward phase as pure functions: what each side earns when a game of the series ends.

"Winner game marker: the winner of the game can choose one hooper upgrade from the deck under the
marker." "Strength marker: the related upgrade card is assigned to the winner of the game if the
difference between the two scores is higher or equal to 7 points; the loser of the game if the
difference is lower or equal to 3 points; nobody if the difference is equal to 4, 5 or 6 points."
"The Series track: the tribe shown by the tribe marker gains the action upgrade card related."
Then the chips: gameplan milestones (one chip for one, two chips plus a hooper upgrade for both),
one chip per period milestone marker, one chip to the winner of the fourth period's partial score;
with the chips left on the hoopers, "exchange 2 Onfire Lv.1 chips with one Position upgrade card
... each [Lv.2] with one position upgrade card. Discard every chips that can't be exchanged."

The rulebook's example, to the number:

>>> r = side_reward(won=False, margin=5, track_card=False, chips_left=(3, 1), gameplan_met=2,
...                 markers=2, fourth_period=False)
>>> r.lv1_total, r.lv2_total, r.position_upgrades, r.discarded_lv1, r.hooper_upgrades
(7, 1, 4, 1, 1)
>>> [strength_card(m) for m in (7, 3, 5)]
['winner', 'loser', None]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

STRENGTH_TO_WINNER_FROM = 7
STRENGTH_TO_LOSER_UP_TO = 3


def strength_card(margin: int) -> str | None:
    """Who takes the strength marker's card for a final margin: ``winner``, ``loser`` or ``None``."""
    margin = abs(margin)
    if margin >= STRENGTH_TO_WINNER_FROM:
        return "winner"
    if margin <= STRENGTH_TO_LOSER_UP_TO:
        return "loser"
    return None


def gameplan_reward(met: int) -> tuple[int, int]:
    """Chips and hooper upgrades for the milestones met on the gameplan card: (chips, upgrades).

    >>> [gameplan_reward(m) for m in (0, 1, 2)]
    [(0, 0), (1, 0), (2, 1)]
    """
    if met not in (0, 1, 2):
        raise ValueError(f"a gameplan card has two milestones: {met} met is not possible")
    return {0: (0, 0), 1: (1, 0), 2: (2, 1)}[met]


def position_upgrades(lv1: int, lv2: int) -> tuple[int, int]:
    """Position upgrades for the chips gathered, and the Lv.1 chips discarded: 2 Lv.1 or 1 Lv.2 each.

    >>> position_upgrades(7, 1)
    (4, 1)
    """
    return lv1 // 2 + lv2, lv1 % 2


@dataclass(frozen=True)
class SideReward:
    """What one side takes in a reward phase (each count is one card or chip to hand over)."""

    hooper_upgrades: int
    strength_card: bool
    track_card: bool
    chips_left_lv1: int
    chips_left_lv2: int
    gameplan_chips: int
    marker_chips: int
    fourth_period_chip: int
    lv1_total: int
    lv2_total: int
    position_upgrades: int
    discarded_lv1: int

    def items(self) -> list[tuple[str, str]]:
        """The checklist for this side: (key, words), the things the table hands over or does."""
        out: list[tuple[str, str]] = []
        if self.hooper_upgrades:
            out.append(("hooper_upgrades", f"{self.hooper_upgrades} hooper upgrade card"
                        f"{'s' if self.hooper_upgrades > 1 else ''}"))
        if self.strength_card:
            out.append(("strength", "the strength marker's action upgrade card"))
        if self.track_card:
            out.append(("track", "the Series track's action upgrade card"))
        if self.position_upgrades:
            out.append(("positions", f"{self.position_upgrades} position upgrade card"
                        f"{'s' if self.position_upgrades > 1 else ''} for {self.lv1_total} Lv.1 + "
                        f"{self.lv2_total} Lv.2 chips"))
        if self.discarded_lv1:
            out.append(("discard", f"discard {self.discarded_lv1} Lv.1 chip"))
        return out

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "items": [{"key": k, "text": t} for k, t in self.items()]}


def side_reward(*, won: bool, margin: int, track_card: bool, chips_left: tuple[int, int], gameplan_met: int,
                markers: int, fourth_period: bool) -> SideReward:
    """One side's rewards from the facts of the game (``margin``: the final difference, positive)."""
    plan_chips, plan_upgrades = gameplan_reward(gameplan_met)
    strength = strength_card(margin)
    fourth = 1 if fourth_period else 0
    lv1 = chips_left[0] + plan_chips + markers + fourth
    lv2 = chips_left[1]
    positions, discarded = position_upgrades(lv1, lv2)
    return SideReward(
        hooper_upgrades=(1 if won else 0) + plan_upgrades,
        strength_card=strength == ("winner" if won else "loser"),
        track_card=track_card,
        chips_left_lv1=chips_left[0],
        chips_left_lv2=chips_left[1],
        gameplan_chips=plan_chips,
        marker_chips=markers,
        fourth_period_chip=fourth,
        lv1_total=lv1,
        lv2_total=lv2,
        position_upgrades=positions,
        discarded_lv1=discarded,
    )


def game_rewards(score: tuple[int, int], track_holder: int,
                 chips_left: tuple[tuple[int, int], tuple[int, int]], gameplan_met: tuple[int, int],
                 milestones: tuple[int | None, ...],
                 fourth_period_winner: int | None) -> tuple[SideReward, SideReward]:
    """Both sides' rewards at the end of a game of the series.

    >>> a, b = game_rewards((70, 61), 1, ((0, 0), (2, 0)), (0, 1), (0, None, 1), 0)
    >>> (a.hooper_upgrades, a.strength_card, a.lv1_total), (b.track_card, b.lv1_total, b.position_upgrades)
    ((1, True, 2), (True, 4, 2))
    """
    if score[0] == score[1]:
        raise ValueError("a game of the series ends with a winner")
    winner = 0 if score[0] > score[1] else 1
    margin = abs(score[0] - score[1])
    return tuple(  # type: ignore[return-value]
        side_reward(won=side == winner, margin=margin, track_card=track_holder == side,
                    chips_left=chips_left[side], gameplan_met=gameplan_met[side],
                    markers=sum(1 for m in milestones if m == side),
                    fourth_period=fourth_period_winner == side)
        for side in (0, 1)
    )
