"""The two Valley Hoopers dice: the d20 numbered 5 to 100 and the d8 foul die.

>>> D20X5.faces[:3], D20X5.faces[-1]
((5, 10, 15), 100)
>>> foul_die(blanks=3).faces
('whistle', 'whistle2', 'whistle3', 'charge', 'jumpball', 'blank', 'blank', 'blank')
>>> foul_die().face_label("jumpball")
'Jump ball'
"""

from __future__ import annotations

from companion.dice import Die
from companion.errors import RuleError

FOUL_FACES = ("whistle", "whistle2", "whistle3", "charge", "jumpball", "blank")
FOUL_FACE_LABELS = {"whistle": "Whistle", "whistle2": "Whistle 2", "whistle3": "Whistle 3",
                    "charge": "Charging foul", "jumpball": "Jump ball", "blank": "Blank"}

D20X5 = Die("d20x5", "d20 of Valley Hoopers", tuple(range(5, 101, 5)))


def foul_die(blanks: int = 3) -> Die:
    """The Valley Hoopers d8 foul die.

    The rulebook names five faces (whistle, whistle 2, whistle 3, charging foul, jump ball) on an
    eight-sided die but never says what the other three show; we read them as blank (no effect),
    configurable because a table may own a printing that differs (docs/games/valley-hoopers.md).
    """
    if not 0 <= blanks <= 3:
        raise RuleError(f"the d8 foul die has 5 named faces, so 0 to 3 blank faces, not {blanks}")
    # The same die for the same faces: the prompt's die JSON is remembered by the die's identity
    # (``RollInfo.json_parts``), and a table awaits the foul die every few commands.
    die = _FOUL_DICE.get(blanks)
    return _count_foul_die(blanks) if die is None else die


def _count_foul_die(blanks: int) -> Die:
    return Die("d8foul", "d8 foul die", FOUL_FACES[:5] + ("blank",) * blanks, FOUL_FACE_LABELS)


_FOUL_DICE = {blanks: _count_foul_die(blanks) for blanks in range(4)}


DICE = (D20X5, foul_die())
