"""The d8 foul die table: what each face means for each action that rolls it.

This is the rulebook's "Foul: Summary Table" plus the screen, offensive rebound and block cases
written out in the "Foul: Cases" and "Block" paragraphs.

>>> foul_outcome("D2", "whistle").defense_bonus
20
>>> foul_outcome("DLU", "charge").by
'attacker'
>>> foul_outcome("D3", "whistle2").foul
False
>>> block_outcome("chip", "whistle2").restart, block_outcome("stellar_chip", "whistle2").recovers_ball
('F2', True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from companion.errors import CommandError
from companion.frozen import OwnDict, replace
from companion.games.valley_hoopers.dice import FOUL_FACES

FOUL_ACTIONS = ("D2", "D3", "DLU", "steal", "intercept", "screen", "rebound", "block", "tribe_block")

# Defensive fouls on a shot: face -> foul bonus added to the defense stat.
_SHOT_FOULS = {
    "D2": {"whistle": 20, "whistle2": 15},
    "D3": {"whistle": 25},
    "DLU": {"whistle": 10, "whistle2": 5, "whistle3": 0},
}
# Free throws after a fouled shot: (if the shot scores, if it misses).
SHOT_FREE_THROWS = {"D2": (1, 2), "D3": (1, 3), "DLU": (1, 2)}


@dataclass(frozen=True)
class FoulOutcome(OwnDict):
    """What one face of the foul die does to one action, as the table reads it off the rulebook."""

    action: str
    face: str
    foul: bool
    by: str | None
    defense_bonus: int
    free_throws_if_made: int
    free_throws_if_missed: int
    ends_turn: bool
    jump_ball: bool
    text: str
    restart: str | None = None
    recovers_ball: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def foul_outcome(action: str, face: str) -> FoulOutcome:
    """Read the foul die for ``action`` (D2, D3, DLU, steal, intercept, screen, rebound, block).

    ``block`` is a block from an Onfire chip; ``tribe_block`` the Keepers' tribe-power block, where
    the jump ball is one more foul face. Free throws on a block are those of a missed shot (two,
    three against a 3 points shot); the table tells the D2/DLU case apart from D3 itself.
    """
    if action not in FOUL_ACTIONS:
        raise CommandError(f"action must be one of {', '.join(FOUL_ACTIONS)}, not {action!r}")
    if face not in FOUL_FACES:
        raise CommandError(f"face must be one of {', '.join(FOUL_FACES)}, not {face!r}")
    none = FoulOutcome(action, face, False, None, 0, 0, 0, False, False, "no foul")
    if action in _SHOT_FOULS:
        if action == "DLU" and face == "charge":
            return FoulOutcome(
                action,
                face,
                True,
                "attacker",
                0,
                0,
                0,
                True,
                False,
                "charging foul by the attacker: red cube to the attacker, white cube to "
                "the defender, the attacking turn ends",
            )
        bonus = _SHOT_FOULS[action].get(face)
        if bonus is None:
            return none
        made, missed = SHOT_FREE_THROWS[action]
        return FoulOutcome(
            action,
            face,
            True,
            "defender",
            bonus,
            made,
            missed,
            False,
            False,
            f"foul by the defender, +{bonus} defense; {made} free throw if the shot scores, "
            f"{missed} if it misses",
        )
    if action in ("steal", "intercept"):
        if face in ("whistle", "whistle2"):
            return FoulOutcome(
                action,
                face,
                True,
                "defender",
                0,
                0,
                0,
                False,
                False,
                "counter foul: red cube to the counterer, white cube to the fundamental's "
                "hooper, that slot and its bonus are lost",
            )
        if face == "jumpball":
            return FoulOutcome(
                action,
                face,
                False,
                None,
                0,
                0,
                0,
                False,
                True,
                "jump ball: the counter uses the other of O and V",
            )
        return none
    if action == "screen":
        if face in ("whistle", "whistle2"):
            return FoulOutcome(
                action,
                face,
                True,
                "attacker",
                0,
                0,
                0,
                True,
                False,
                "offensive foul on the screen: red cube to the screener, the opponent "
                "gives a white cube, the attacking turn ends",
            )
        return none
    if action == "rebound":
        if face == "whistle":
            return FoulOutcome(
                action,
                face,
                True,
                "attacker",
                0,
                0,
                0,
                True,
                False,
                "offensive foul on the rebound: red cube to the rebounder, the opponent "
                "gives a white cube, the attacking turn ends",
            )
        if face == "jumpball":
            return FoulOutcome(
                action, face, False, None, 0, 0, 0, False, True, "jump ball: the rebound uses O instead of V"
            )
        return none
    # Blocks: the attempt to score is never rolled.
    if face == "whistle" or (action == "tribe_block" and face == "jumpball"):
        return FoulOutcome(
            action,
            face,
            True,
            "defender",
            0,
            0,
            2,
            True,
            False,
            "foul on the block: no shot, free throws directly (three on a 3 points shot)",
        )
    if face in ("whistle2", "whistle3"):
        return FoulOutcome(
            action,
            face,
            False,
            None,
            0,
            0,
            0,
            False,
            False,
            "the attacker starts a new action from F2",
            restart="F2",
        )
    if face in ("jumpball", "charge"):
        return FoulOutcome(
            action,
            face,
            False,
            None,
            0,
            0,
            0,
            False,
            False,
            "the attacker starts a new action from A",
            restart="A",
        )
    return FoulOutcome(
        action, face, False, None, 0, 0, 0, True, False, "the block recovers the ball", recovers_ball=True
    )


def block_outcome(block: str, face: str) -> FoulOutcome:
    """The foul die on a block: ``chip``, ``stellar_chip`` (the LV.1 chip by a stellar hooper),
    ``tribe`` (the Keepers' power) or ``no_way`` (the LV.2 chip).

    A stellar chip block that commits no foul recovers the ball, whatever the face ("If your
    hooper is stellar and does not commit any foul, then he/she recovers the ball"); so does the LV.2
    No Way Block, stellar or not ("if you do not commit foul, then you recover the ball").

    >>> block_outcome("no_way", "jumpball").recovers_ball, block_outcome("no_way", "whistle").foul
    (True, True)
    """
    outcome = foul_outcome("tribe_block" if block == "tribe" else "block", face)
    if block in ("stellar_chip", "no_way") and not outcome.foul and not outcome.recovers_ball:
        return replace(
            outcome,
            ends_turn=True,
            restart=None,
            recovers_ball=True,
            text=f"no foul on a {'No Way' if block == 'no_way' else 'stellar'} block: "
            "the blocker recovers the ball",
        )
    return outcome
