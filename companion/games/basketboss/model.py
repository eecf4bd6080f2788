"""BasketBoss's state: 2-5 managers round a table, six seasons of five phases.

>>> card = Card("Demo Ace", "PG", 1, (3, 4, 2))
>>> card.stars, card.aged().stars, card.aged().aged().aged().retired
(3, 4, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.frozen import by_identity, replace

POSITIONS = ("PG", "SG", "SF", "PF", "C")
SEASONS = 6
START_MONEY = 11  # "takes $11"
REFEREE_FEE = 2  # "They return $2m to the supply"
START_STRENGTH = 10  # "5 stars (Strength) + 5 Positions = 10 Team Strength"
MIN_MANAGERS, MAX_MANAGERS = 2, 5


@dataclass(frozen=True)
class Card:
    """A player card: one row of stars per season from the top, a position and income symbols.

    ``age`` is how many rows have slid into the team board; the top visible row is ``rows[age]``.
    A starting player printed on a team board is a card with ``starter`` set: one star, never ages.
    """

    name: str
    position: str
    income: int
    rows: tuple[int, ...]
    age: int = 0
    starter: bool = False

    @property
    def stars(self) -> int:
        if self.starter:
            return 1
        return self.rows[self.age] if self.age < len(self.rows) else 0

    @property
    def retired(self) -> bool:
        """ "If a player shows no more rows that have any stars, that player is retired"."""
        return not self.starter and not any(self.rows[self.age :])

    def aged(self) -> Card:
        return self if self.starter else replace(self, age=self.age + 1)


def starter(position: str) -> Card:
    return Card(f"starting {position}", position, 0, (1,), starter=True)


@dataclass(frozen=True)
class Advisor:
    number: int
    name: str


@dataclass(frozen=True)
class Manager:
    name: str
    money: int
    slots: tuple[Card, ...]  # five slots; a starting player until a signed card covers it
    advisor: int | None = None  # the advisor card's number
    trophies: tuple[int, ...] = ()
    ribbons: int = 0
    injured: tuple[int, ...] = ()  # the slots injury cards cover
    adjust: int = 0  # this season's strength change from the season card, entered by the table
    signed: tuple[str, ...] = ()  # players signed this season (an injured one replaced is healed)


@dataclass(frozen=True)
class Auction:
    """An ascending auction for one market card, round the table from ``starter``."""

    card: Card
    turn: int  # whose turn to bid or pass
    high: int = 0
    leader: int | None = None
    passed: tuple[int, ...] = ()


@dataclass(frozen=True)
class SealedRound:
    """A round of sealed bids: for a trophy tie (``tied`` sides bid) or an injury (all but the PT)."""

    kind: str  # "tie" or "injury"
    bidders: tuple[int, ...]
    bids: tuple[tuple[int, int], ...] = ()  # (side, amount) as entered; shown to nobody until all are in


@dataclass(frozen=True)
class State:
    managers: tuple[Manager, ...]
    advisors: tuple[Advisor, ...]
    trophy_values: tuple[int, ...]
    market_size: int
    deck: tuple[Card, ...]  # the player cards the table may reveal (the table's own or the demo deck)
    referee: int  # the Referee advisor's number
    therapist: int | None  # the Physical Therapist's number
    season: int = 1
    phase: str = "market"  # market, contracts, place, strength, ties, hire, final
    market: tuple[Card | None, ...] = ()  # None: an injury card in the market
    auctioned: int = 0  # market cards settled so far (the market is worked through in order)
    auction: Auction | None = None
    placing: tuple[int, Card] | None = None  # the winner of an auction choosing a slot
    sealed: SealedRound | None = None
    ranking: tuple[int, ...] = ()  # this season's trophy order, best first, once ties are resolved
    groups: tuple[tuple[int, ...], ...] = ()  # strength groups still to rank, best first
    hire_order: tuple[int, ...] = ()
    injury_loser: int | None = None  # the manager who must choose which tied player is injured
    revealed: tuple[str, ...] = ()  # card names revealed so far (each card once)
    retired: tuple[str, ...] = ()
    history: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...] = ()  # season, strengths, ranking
    final: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return _names(self.managers)

    @property
    def count(self) -> int:
        return len(self.managers)

    def manager(self, side: int) -> Manager:
        return self.managers[side]

    def with_manager(self, side: int, **changes: object) -> State:
        managers = list(self.managers)
        managers[side] = replace(managers[side], **changes)  # type: ignore[arg-type]
        return replace(self, managers=tuple(managers))

    def holder(self, number: int | None) -> int | None:
        """The manager holding the advisor ``number``, if anyone does."""
        for side, manager in enumerate(self.managers):
            if number is not None and manager.advisor == number:
                return side
        return None


def _count_names(managers: tuple[Manager, ...]) -> tuple[str, ...]:
    return tuple(m.name for m in managers)


# Every prompt, event text and refusal reads the names; a manager's name never changes, and the
# managers' tuple is shared by every state until a command changes one of them: once per tuple.
_names = by_identity(_count_names, size=16)
