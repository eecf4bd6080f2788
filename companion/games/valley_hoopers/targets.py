"""Target numbers: stat + bonuses - (defense stat + foul bonus), with every term named.

The d20 of Valley Hoopers shows 5 to 100; a roll at or under the target succeeds, and a target of
100 or more succeeds without rolling.

>>> attack_target(("3PS Muy Schillato", 70), [("dribble", 15)], [("D3 Edd Trapp", 30)], 0).text
'70 (3PS Muy Schillato) + 15 (dribble) - 30 (D3 Edd Trapp) = 55'
>>> chance(attack_target(60, [("screen", 25), ("dribble", 15)], [], 0))
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from companion.errors import RuleError
from companion.game import Target, Term
from companion.games.valley_hoopers.model import ATTACK_STATS, DEFENSE_STATS, Hooper

# The arithmetic of a target number (what ``companion calc`` computes) lives apart, without the model.
from companion.games.valley_hoopers.target_numbers import (
    AUTOMATIC_FROM,
    TermLike,
    attack_target,
    automatic,
    chance,
    succeeds,
)

__all__ = ["AUTOMATIC_FROM", "TermLike", "attack_stat_terms", "attack_target", "automatic", "chance",
           "defense_terms", "free_throw_target", "succeeds"]


def _upgrade(hooper: Hooper, stat: str) -> tuple[int, tuple[Term, ...]]:
    """The stat as printed and the upgrade's +10 as its own labelled term (a sleeved upgrade card)."""
    value = hooper.require_stat(stat)
    bonus = dict(hooper.stat_bonus).get(stat, 0)
    return value - bonus, ((Term(f"upgrade {hooper.name}", bonus),) if bonus else ())


def _attack_stat_terms(hooper: Hooper, shot: str) -> tuple[Term, tuple[Term, ...]]:
    """The attacker's stat, then what comes with the card: an upgrade's bonus, the maluses (out of
    position, injuries)."""
    value, upgrade = _upgrade(hooper, shot)
    maluses: list[Term] = list(upgrade)
    if shot in ATTACK_STATS:
        if hooper.out_of_position:
            maluses.append(Term(f"out of position {hooper.name}", -10))
        maluses += [Term(f"injury {hooper.name}", -10) for i in hooper.injuries if i == "attack_minus_10"]
    return Term(f"{shot} {hooper.name}", value), tuple(maluses)


# (name, shot, out of position, ids of the stats, stat bonuses and injuries) -> (those three tuples,
# the terms): what ``_attack_stat_terms`` reads. A prompt asks for every shot of every court hooper,
# and a new hooper record (energy spent, a cube, a point) keeps these tuples (``replace`` copies the
# references): counted once per card as printed, not once per record. The entry holds the tuples,
# so an id is never reused while it is remembered.
_StatTerms = tuple[Term, tuple[Term, ...]]
_STAT_TERMS: dict[tuple[str, str, bool, int, int, int], tuple[tuple[object, ...], _StatTerms]] = {}


def attack_stat_terms(hooper: Hooper, shot: str) -> _StatTerms:
    """``_attack_stat_terms``, remembered by what it reads (the terms are immutable, so shared)."""
    read = (hooper.stats, hooper.stat_bonus, hooper.injuries)
    key = (hooper.name, shot, hooper.out_of_position, id(read[0]), id(read[1]), id(read[2]))
    hit = _STAT_TERMS.get(key)
    if hit is not None and hit[0][0] is read[0] and hit[0][1] is read[1] and hit[0][2] is read[2]:
        return hit[1]
    terms = _attack_stat_terms(hooper, shot)  # a stat not entered yet raises: nothing is remembered
    if len(_STAT_TERMS) >= 1024:
        _STAT_TERMS.clear()
    _STAT_TERMS[key] = (read, terms)
    return terms


# (name, out of position, ids of the stats, stat bonuses and injuries) -> (those three tuples, each
# shot's value), as ``_STAT_TERMS`` keeps a card's terms; ``None``: a shot's stat is not entered yet.
_ATTACK_VALUES: dict[tuple[str, bool, int, int, int],
                     tuple[tuple[object, ...], Mapping[str, int] | None]] = {}


def attack_values(hooper: Hooper) -> Mapping[str, int] | None:
    """Each shot's stat plus what comes with it (``attack_stat_terms``: the attack's target before the
    turn's bonuses), remembered by what it reads; ``None`` when a stat is not entered yet. A play
    step's prompt reads a court hooper's three shots at once."""
    read = (hooper.stats, hooper.stat_bonus, hooper.injuries)
    key = (hooper.name, hooper.out_of_position, id(read[0]), id(read[1]), id(read[2]))
    hit = _ATTACK_VALUES.get(key)
    if hit is not None and hit[0][0] is read[0] and hit[0][1] is read[1] and hit[0][2] is read[2]:
        return hit[1]
    counted = count_attack_values(hooper)
    values = None if counted is None else MappingProxyType(counted)  # shared: read-only
    if len(_ATTACK_VALUES) >= 512:
        _ATTACK_VALUES.clear()
    _ATTACK_VALUES[key] = (read, values)
    return values


def count_attack_values(hooper: Hooper) -> dict[str, int] | None:
    """``attack_values`` counted afresh."""
    values = {}
    for shot in ATTACK_STATS:
        try:
            stat, maluses = _attack_stat_terms(hooper, shot)
        except RuleError:
            return None
        values[shot] = Target.total(stat.value, maluses)
    return values


# (name, out of position, the stat, ids of the stats, stat bonuses and injuries) -> (those three tuples,
# the value), as ``_ATTACK_VALUES``.
_DEFENSE_VALUES: dict[tuple[str, bool, str, int, int, int], tuple[tuple[object, ...], int]] = {}


def defense_value(hooper: Hooper, defense_stat: str) -> int:
    """What ``defense_terms`` takes off the target, remembered by what it reads: a defense window's
    prompt offers each defender's defense from window to window."""
    read = (hooper.stats, hooper.stat_bonus, hooper.injuries)
    key = (hooper.name, hooper.out_of_position, defense_stat, id(read[0]), id(read[1]), id(read[2]))
    hit = _DEFENSE_VALUES.get(key)
    if hit is not None and hit[0][0] is read[0] and hit[0][1] is read[1] and hit[0][2] is read[2]:
        return hit[1]
    value = Target.total(0, defense_terms(hooper, defense_stat))  # a stat not entered yet raises
    if len(_DEFENSE_VALUES) >= 512:
        _DEFENSE_VALUES.clear()
    _DEFENSE_VALUES[key] = (read, value)
    return value


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
