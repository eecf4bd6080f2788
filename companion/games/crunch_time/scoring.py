"""Scoring one offensive possession: Shot cards zone by zone, then every Star card.

Pure functions over the possession the table entered; the rules module calls them once, when the
possession is scored, and the prompt calls them to show the points at stake.

>>> from companion.games.crunch_time.model import Possession, ShotCard, StarPlay, Zone
>>> card = ShotCard(None, (Zone(2, "both"), Zone(2, "both"), Zone(3, "offence")))
>>> p = Possession(0, (card,), (StarPlay("offence", 0, 0), StarPlay("defence", 0, 0)))
>>> possession_points(p)
PossessionPoints(shot_points=3, offence_stars=2, defence_stars=2, net=3)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError
from companion.games.crunch_time.model import Possession, ShotCard, StarPlay
from companion.splits import Splits


@dataclass(frozen=True)
class PossessionPoints:
    shot_points: int  # undefended offence players on highlighted zones
    offence_stars: int
    defence_stars: int
    net: int  # toward the offence


def star_draws(shots: tuple[ShotCard, ...]) -> int:
    """One Star draw per Shot card whose highlighted zones the offence fully covers."""
    return sum(1 for card in shots if card.fully_covered)


def zone_name(shots: tuple[ShotCard, ...], shot: int, zone: int) -> str:
    card = shots[shot]
    number = f" (card {card.number})" if card.number is not None else ""
    return f"the {card.zones[zone].points}-point zone {zone + 1} of Shot card {shot + 1}{number}"


def check_star(possession: Possession, play: StarPlay) -> None:
    """Refuse a Star card the rulebook does not allow here, naming the rule it breaks."""
    shots = possession.shots
    if not 0 <= play.shot < len(shots):
        raise RuleError(f"a Star card's zone must match a highlighted zone on a current Shot card: "
                        f"there is no Shot card {play.shot + 1} in this possession")
    if not 0 <= play.zone < len(shots[play.shot].zones):
        raise RuleError(f"a Star card's zone must match a highlighted zone on a current Shot card: "
                        f"Shot card {play.shot + 1} has no highlighted zone {play.zone + 1}")
    zone = shots[play.shot].zones[play.zone]
    # The zone's name only when refusing: the prompt asks this of every Star it could offer.
    if play.role == "offence" and not zone.has_offence:
        raise RuleError(f"an offensive Star card needs one of the offence's players in its zone: "
                        f"nobody of the offence stands on {zone_name(shots, play.shot, play.zone)}")
    if play.role == "defence" and zone.stand != "both":
        raise RuleError(f"a defensive Star card needs both an offensive and a defensive player in its "
                        f"zone: {zone_name(shots, play.shot, play.zone)} does not have both")
    if any(p.role == play.role and p.shot == play.shot and p.zone == play.zone for p in possession.stars):
        raise RuleError(f"no more than 1 Star card for each highlighted zone on a single Shot card: the "
                        f"{play.role} already played one on {zone_name(shots, play.shot, play.zone)}")


def possession_splits(possession: Possession) -> Splits:
    """The possession's field goals: every highlighted zone of its Shot cards where an offensive
    Player stands is a shot for the zone's points, made when no defensive Player stands there too
    (Star cards score apart: they are not shots)."""
    splits = Splits()
    for card in possession.shots:
        for zone in card.zones:
            if zone.has_offence:
                splits = splits.shot(zone.points, made=zone.scores_for_offence)
    return splits


def possession_points(possession: Possession) -> PossessionPoints:
    """The Shot cards zone by zone for the offence, then each Star card for the coach who played it."""
    shots = possession.shots
    shot_points = sum(z.points for card in shots for z in card.zones if z.scores_for_offence)
    stars = {"offence": 0, "defence": 0}
    for play in possession.stars:
        stars[play.role] += shots[play.shot].zones[play.zone].points
    return PossessionPoints(shot_points, stars["offence"], stars["defence"],
                            shot_points + stars["offence"] - stars["defence"])
