"""The dice the games use, by the names the CLI, the kiosk and the dice tray share.

A die is a tuple of faces; every chance the companion shows comes from counting faces, so it is
exact, never simulated.

>>> D20X5.faces[:3], D20X5.faces[-1]
((5, 10, 15), 100)
>>> chance_at_most(D20X5, 55)
Fraction(11, 20)
>>> foul_die(blanks=3).faces
('whistle', 'whistle2', 'whistle3', 'charge', 'jumpball', 'blank', 'blank', 'blank')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.errors import RuleError

FOUL_FACES = ("whistle", "whistle2", "whistle3", "charge", "jumpball", "blank")


@dataclass(frozen=True)
class Die:
    """A physical die: its wire name (as the dice tray sends it), what the table calls it, its faces."""

    name: str
    title: str
    faces: tuple[int | str, ...]

    def __repr__(self) -> str:
        return f"Die({self.name!r})"

    def parse_face(self, raw: object) -> int | str:
        """Turn what a player or the tray reported into a face of this die, or refuse it by name."""
        if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
            raw = int(raw.strip())
        if isinstance(raw, bool):
            raw = str(raw)
        if isinstance(raw, str):
            raw = raw.strip().lower()
        if raw in self.faces:
            return raw  # type: ignore[return-value]
        shown = _describe_faces(self.faces)
        raise RuleError(f"the {self.title} shows {shown}, not {raw!r}" if isinstance(raw, str)
                        else f"the {self.title} shows {shown}, not {raw}")


def _describe_faces(faces: tuple[int | str, ...]) -> str:
    distinct = list(dict.fromkeys(faces))
    if all(isinstance(f, int) for f in distinct) and len(distinct) > 2:
        ints = [int(f) for f in distinct]
        step = ints[1] - ints[0]
        if all(b - a == step for a, b in zip(ints, ints[1:], strict=False)):
            return f"{ints[0]} to {ints[-1]}" + (f" in steps of {step}" if step != 1 else "")
    return ", ".join(str(f) for f in distinct)


D20X5 = Die("d20x5", "d20 of Valley Hoopers", tuple(range(5, 101, 5)))
D20 = Die("d20", "d20", tuple(range(1, 21)))
D6 = Die("d6", "d6", tuple(range(1, 7)))


def foul_die(blanks: int = 3) -> Die:
    """The Valley Hoopers d8 foul die.

    The rulebook names five faces (whistle, whistle 2, whistle 3, charging foul, jump ball) on an
    eight-sided die but never says what the other three show; we read them as blank (no effect),
    configurable because a table may own a printing that differs (docs/games/valley-hoopers.md).
    """
    if not 0 <= blanks <= 3:
        raise RuleError(f"the d8 foul die has 5 named faces, so 0 to 3 blank faces, not {blanks}")
    return Die("d8foul", "d8 foul die", FOUL_FACES[:5] + ("blank",) * blanks)


DICE_BY_NAME = {d.name: d for d in (D20X5, D20, D6, foul_die())}


def chance_at_most(die: Die, target: int) -> Fraction:
    """Chance that a numeric die shows ``target`` or less (lower is better in Valley Hoopers)."""
    numeric = [f for f in die.faces if isinstance(f, int)]
    return Fraction(sum(1 for f in numeric if f <= target), len(die.faces))

