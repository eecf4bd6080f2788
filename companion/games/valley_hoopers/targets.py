"""Target numbers: stat + bonuses - (defense stat + foul bonus), with every term named.

The d20 of Valley Hoopers shows 5 to 100; a roll at or under the target succeeds, and a target of
100 or more succeeds without rolling.

>>> attack_target(("3PS Muy Schillato", 70), [("dribble", 15)], [("D3 Edd Trapp", 30)], 0).text
'70 (3PS Muy Schillato) + 15 (dribble) - 30 (D3 Edd Trapp) = 55'
>>> chance(attack_target(60, [("screen", 25), ("dribble", 15)], [], 0))
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from companion.dice import chance_at_most
from companion.game import Target, Term
from companion.games.valley_hoopers.dice import D20X5
from companion.games.valley_hoopers.model import ATTACK_STATS, DEFENSE_STATS, Hooper

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


def _upgrade(hooper: Hooper, stat: str) -> tuple[int, tuple[Term, ...]]:
    """The stat as printed and the upgrade's +10 as its own labelled term (a sleeved upgrade card)."""
    value = hooper.require_stat(stat)
    bonus = dict(hooper.stat_bonus).get(stat, 0)
    return value - bonus, ((Term(f"upgrade {hooper.name}", bonus),) if bonus else ())


def attack_stat_terms(hooper: Hooper, shot: str) -> tuple[Term, tuple[Term, ...]]:
    """The attacker's stat, then what comes with the card: an upgrade's bonus, the maluses (out of
    position, injuries)."""
    value, upgrade = _upgrade(hooper, shot)
    maluses: list[Term] = list(upgrade)
    if shot in ATTACK_STATS:
        if hooper.out_of_position:
            maluses.append(Term(f"out of position {hooper.name}", -10))
        maluses += [Term(f"injury {hooper.name}", -10) for i in hooper.injuries if i == "attack_minus_10"]
    return Term(f"{shot} {hooper.name}", value), tuple(maluses)


def defense_terms(hooper: Hooper, defense_stat: str) -> tuple[Term, ...]:
    """What a defender takes off the target: the stat, less out-of-position and injury maluses."""
    value, upgrade = _upgrade(hooper, defense_stat)
    terms = [Term(f"{defense_stat} {hooper.name}", value), *upgrade]
    if defense_stat in DEFENSE_STATS:
        if hooper.out_of_position:
            terms.append(Term(f"out of position {hooper.name}", -5))
        terms += [Term(f"injury {hooper.name}", -10) for i in hooper.injuries if i == "defense_minus_10"]
    return tuple(terms)


def free_throw_target(hooper: Hooper, basic: bool = False) -> Target:
    """A free throw: the hooper's 2PS (with its maluses) plus a fixed 15; it can't be defended.

    ``basic``: the Away side of a game of The Series shoots with the basic 2PS, without the +15.
    """
    stat, maluses = attack_stat_terms(hooper, "2PS")
    extra = () if basic else (Term("free throw", 15),)
    return Target(stat.label, stat.value, (*extra, *maluses))
