"""Target numbers as arithmetic: stat + bonuses - (defense + foul bonus), and the chance on the d20.

``targets`` builds the terms from a hooper's card (upgrades, maluses) and re-exports these;
``companion calc vh attack`` needs only these, so they import neither the model nor the rules.

>>> target = attack_target(70, [("dribble", 15)], [30], 0)
>>> target.value, automatic(target), chance(target)
(55, False, Fraction(11, 20))
"""

from __future__ import annotations

from fractions import Fraction

from companion.dice import chance_at_most
from companion.games.valley_hoopers.dice import D20X5
from companion.target import Target, Term

TYPE_CHECKING = False  # typing is an import `companion calc` can do without
if TYPE_CHECKING:
    from collections.abc import Iterable

TermLike = Term | tuple[str, int] | int


def _term(raw: TermLike, default_label: str) -> Term:
    if isinstance(raw, Term):
        return raw
    if isinstance(raw, tuple):
        return Term(str(raw[0]), int(raw[1]))
    return Term(default_label, int(raw))


def attack_target(
    stat: TermLike, bonuses: Iterable[TermLike] = (), defense: Iterable[TermLike] = (), foul_bonus: int = 0
) -> Target:
    """The target for an attack: ``stat`` plus ``bonuses`` minus ``defense`` and the foul bonus.

    Each argument is a number or a ``(label, number)`` pair, so the CLI's ``calc`` can pass plain
    numbers and the game passes named terms.
    """
    base = _term(stat, "stat")
    defense_terms = [_term(d, "defense") for d in defense]
    if foul_bonus:
        defense_terms.append(Term("foul bonus", foul_bonus))
    return Target(base.label, base.value, tuple(_term(b, "bonus") for b in bonuses), tuple(defense_terms))


AUTOMATIC_FROM = 100  # "It is even possible to overreach 100 as maximum value, thus scoring without rolling"


def automatic(target: Target) -> bool:
    """A target of 100 or more succeeds without a roll."""
    return target.value >= AUTOMATIC_FROM


def succeeds(face: int, target: Target) -> bool:
    """A roll succeeds at or under the target (the d20's highest face is 100, so that covers 100+)."""
    return face <= target.value


def chance(target: Target) -> Fraction:
    """Exact chance of success on the d20 (x5): certain from 100 up, nil under 5."""
    if automatic(target):
        return Fraction(1)
    return chance_at_most(D20X5, target.value)
