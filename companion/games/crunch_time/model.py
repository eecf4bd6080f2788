"""Crunch Time's state: two coaches, one signed lead, rounds of two offensive possessions.

The score track shows how far one coach is ahead, not two scores, so the state holds one number:
``lead`` > 0 means side 0 is ahead by that much, < 0 means side 1 is.

>>> Zone(3, "offence").scores_for_offence, Zone(2, "both").scores_for_offence
(True, False)
>>> lead_text(("Red", "Blue"), -7)
'Blue +7'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.frozen import replace
from companion.games.crunch_time.court import Court
from companion.splits import Splits

REGULATION_ROUNDS = 5
SHOT_CARDS = 7  # "Deal 7 Shot cards to each Coach"
SOLO_SHOT_CARDS = 5  # "Draw 5 Shot cards and 1 Star card for yourself"
OVERTIME_SHOT_CARDS = 3  # "Deal 3 Shot cards and 1 Star card to each Coach"
OVERTIME_ROUNDS = 3  # then "each Coach draws back to 3 Shot Cards and 1 Star card"
MERCY = 15  # "winning with a score of 15 or more points at the beginning of their offensive possession"
SHOT_DECK = 69  # Shot cards are numbered; the tip-off compares the numbers
MAX_ZONES = 5  # a coach has 5 players, and the AI's rule speaks of a Shot card with "less than 5 Zones"

# "Score marker starts at" by difficulty, toward the human coach (Solo Rules, Difficulty Scale).
DIFFICULTY = {"rookie": 10, "veteran": 8, "starter": 6, "all-star": 4, "hall-of-fame": 2, "goat": 0}
DIFFICULTY_TITLES = {"rookie": "Rookie", "veteran": "Veteran", "starter": "Starter", "all-star": "All-Star",
                     "hall-of-fame": "Hall of Fame", "goat": "GOAT"}

STANDS = ("offence", "defence", "both", "empty")  # who stands in a highlighted zone after movement
ROLES = ("offence", "defence")


@dataclass(frozen=True)
class Zone:
    """A highlighted zone of a played Shot card: its points and who stands there after movement."""

    points: int
    stand: str

    @property
    def has_offence(self) -> bool:
        return self.stand in ("offence", "both")

    @property
    def scores_for_offence(self) -> bool:
        return self.stand == "offence"


@dataclass(frozen=True)
class ShotCard:
    number: int | None
    zones: tuple[Zone, ...] = ()

    @property
    def fully_covered(self) -> bool:
        """The offence has a player on every highlighted zone: one Star draw."""
        return bool(self.zones) and all(z.has_offence for z in self.zones)


@dataclass(frozen=True)
class StarPlay:
    role: str  # offence or defence
    shot: int  # index of the Shot card in this possession
    zone: int  # index of the highlighted zone on that card


@dataclass(frozen=True)
class AiAnswer:
    """The table's answer to "can an AI defender reach this zone in one space?"."""

    shot: int
    zone: int
    answer: str  # free, uncovers (it would leave a player it guards), no
    uncovers: tuple[int, int] | None = None  # the highlighted zone it would leave, if any


@dataclass(frozen=True)
class Move:
    """A player moved along the movement lines (court file only); ``player`` counts from 0."""

    side: int
    player: int
    to: str


@dataclass(frozen=True)
class Possession:
    offence: int
    shots: tuple[ShotCard, ...] = ()
    stars: tuple[StarPlay, ...] = ()
    # Solo only: which highlighted zone each AI display Star shows (None: no zone of this card),
    # the table's answers to "can an AI player reach this zone?", and whether the AI has moved.
    ai_matches: tuple[tuple[int, int] | None, ...] = ()
    ai_answers: tuple[AiAnswer, ...] = ()
    ai_done: bool = False
    # With a court file: each Shot card's zone ids, the players' zones when the possession began
    # (movement is measured from there) and the moves entered so far.
    zone_ids: tuple[tuple[str, ...], ...] = ()
    start: tuple[tuple[str, ...], ...] = ()
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True)
class Coach:
    name: str
    shots: int  # Shot cards in hand
    stars: int  # Star cards in hand (the AI's display in solo)
    doubles: int = 0  # possessions with two Shot cards this regulation


@dataclass(frozen=True)
class PossessionRecord:
    """One scored possession for the box score and the score-flow chart."""

    round: int
    overtime: int
    offence: int
    shots: int
    shot_points: int
    offence_stars: int
    defence_stars: int
    net: int  # toward the offence
    lead: int  # after it, signed toward side 0
    splits: Splits = Splits()  # the Shot cards' zones with an offensive Player: field goals made/tried


@dataclass(frozen=True)
class State:
    mode: str  # "two" or "solo" (side 1 is then the AI)
    difficulty: str | None
    coaches: tuple[Coach, Coach]
    lead: int = 0
    phase: str = "tip_off"  # tip_off, play, final
    round: int = 1  # 1-5 in regulation; counts on within an overtime block
    overtime: int = 0  # 0 in regulation, then the overtime round number 1, 2, 3...
    first: int = 0  # the coach with the first offensive possession of every round
    second_half: bool = False  # the second possession of the round is being played
    current: Possession | None = None
    winner: int | None = None
    reason: str = ""
    records: tuple[PossessionRecord, ...] = ()
    court: Court | None = None
    positions: tuple[tuple[str, ...], ...] = ()  # with a court: each side's players' zones ("" unplaced)
    ai_display: tuple[str | None, ...] = ()  # with a court, solo: the zone each AI display Star shows

    @property
    def names(self) -> tuple[str, str]:
        return (self.coaches[0].name, self.coaches[1].name)

    @property
    def offence(self) -> int:
        return self.first if not self.second_half else 1 - self.first

    @property
    def solo(self) -> bool:
        return self.mode == "solo"

    @property
    def final(self) -> bool:
        return self.phase == "final"

    def coach(self, side: int) -> Coach:
        return self.coaches[side]

    def with_coach(self, side: int, **changes: object) -> State:
        coaches = list(self.coaches)
        coaches[side] = replace(coaches[side], **changes)  # type: ignore[arg-type]
        return replace(self, coaches=(coaches[0], coaches[1]))

    def ahead_by(self, side: int) -> int:
        """How far ``side`` leads (negative when it trails)."""
        return self.lead if side == 0 else -self.lead


def lead_text(names: tuple[str, str], lead: int) -> str:
    if lead == 0:
        return "tied"
    return f"{names[0]} +{lead}" if lead > 0 else f"{names[1]} +{-lead}"
