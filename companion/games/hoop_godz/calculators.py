"""Hoop Godz's calculator (``companion calc hoop-godz shot``, listed in the front end).

The fields are declared here; the dice arithmetic is imported only when the answer is computed, so
the CLI builds its options without loading the game's rules or front end.

>>> shot_calculation({"dice": 4, "difficulty": 3, "ball_faces": 2})["p_success"]
0.1111111111111111
"""

from __future__ import annotations

from companion.errors import CommandError
from companion.forms import Calculator, FormField
from companion.games.hoop_godz.model import MAX_DICE

TYPE_CHECKING = False  # typing is an import `companion calc` can do without
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def shot_calculation(values: Mapping[str, Any]) -> dict[str, Any]:
    """``companion calc hoop-godz shot``: the exact chance to make a SHOOT's final roll."""
    from companion.games.hoop_godz.dice import shot_chance

    dice, difficulty, faces = values.get("dice"), values.get("difficulty"), values.get("ball_faces")
    for name, value, low, high in (("dice", dice, 1, MAX_DICE), ("difficulty", difficulty, 1, MAX_DICE),
                                   ("ball_faces", faces, 0, 6)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise CommandError(f"{name} is {low} to {high}, not {value!r}")
    chance = shot_chance(dice, difficulty, faces)  # type: ignore[arg-type]
    return {"p_success": float(chance), "exact": str(chance),
            "text": f"{dice} dice, {difficulty}+ BALL icons with {faces} BALL faces a die: "
                    f"{float(chance):.1%}"}


CALCULATORS = (
    Calculator("shot", "the chance to make a SHOOT: n dice, a difficulty, the BALL faces of a die",
               (FormField("dice", "dice rolled (3 + size die + BOOSTs)", "int", minimum=1, maximum=MAX_DICE),
                FormField("difficulty", "the space's difficulty", "int", minimum=1, maximum=MAX_DICE),
                FormField("ball_faces", "faces of a die showing a BALL", "int", minimum=0, maximum=6)),
               compute=shot_calculation),
)
