"""Hoop Godz's state: two players' juice ledgers, the clock tokens, the ball, and dice battles.

Every player owns 10 juice tokens, always: Available + Yellow + Red + the tokens on the juice bar.

>>> ledger = Ledger(available=6, yellow=4, red=0, bar=(None,) * 8)
>>> ledger.total
10
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import CommandError
from companion.frozen import by_identity, by_lower_name, replace
from companion.splits import Splits

if TYPE_CHECKING:
    from companion.games.hoop_godz.cards import ActionCard

JUICE_TOKENS = 10
MAX_DICE = 6  # "Can I ever use more than 6 Dice for a Dice Battle? No."
BATTLE_DICE = 3  # "Pick up 3 Dice + Additional Dice from BALLER Size and/or BOOST"
SIZES = ("small", "medium", "big")
MODES = {"standard": (7, 10), "pro": (10, 15)}  # points to win, clock tokens
# "B-Ball 4 All": "both players roll and re-roll dice together at the same rate"; the rulebook sets
# no rate, so the app beats one re-roll every 1.5 s (docs/games/hoop-godz.md).
TEMPO_MS = 1500


@dataclass(frozen=True)
class BarSpace:
    """One space of the juice bar: the box its juice drains to, and whether it is the PASS space."""

    drains_to: str  # "yellow" or "red"
    pass_only: bool = False


@dataclass(frozen=True)
class BarLayout:
    """The juice bar as printed on the team board: not in the rulebook, so a setup option.

    ``rest_line`` is how many spaces (from the left) lie left of the Rest line.
    """

    spaces: tuple[BarSpace, ...]
    rest_line: int


# A documented default, NOT the printed board: a blue PASS space, then yellow spaces, the Rest line
# after the third space, and red spaces at the end (docs/games/hoop-godz.md, reading 1).
DEFAULT_BAR = BarLayout(
    spaces=(
        BarSpace("yellow", pass_only=True),
        BarSpace("yellow"),
        BarSpace("yellow"),
        BarSpace("yellow"),
        BarSpace("yellow"),
        BarSpace("red"),
        BarSpace("red"),
        BarSpace("red"),
    ),
    rest_line=3,
)


@dataclass(frozen=True)
class Ledger:
    available: int
    yellow: int
    red: int
    bar: tuple[str | None, ...]  # what each bar space holds: None, or the action that used it

    @property
    def on_bar(self) -> int:
        return sum(1 for space in self.bar if space is not None)

    @property
    def total(self) -> int:
        return self.available + self.yellow + self.red + self.on_bar


@dataclass(frozen=True)
class Baller:
    name: str
    size: str  # small, medium or big
    splits: Splits = Splits()  # the SHOOTs and DUNKs this baller played: field goals made/attempted


@dataclass(frozen=True)
class Player:
    name: str
    score: int = 0
    ledger: Ledger = Ledger(6, 4, 0, (None,) * len(DEFAULT_BAR.spaces))
    squad: tuple[Baller, ...] = ()
    goat_draws: int = 0  # GOAT cards the app reminded this player to draw
    battles_won: int = 0
    juice_spent: int = 0
    splits: Splits = Splits()  # SHOOTs and DUNKs: field goals made/attempted (no free throws in the game)


@dataclass(frozen=True)
class Battle:
    """A dice battle under way: what each side plays, how many dice each rolls."""

    kind: str  # tip_off, action, rebound
    cards: tuple[str, str]  # each side's card ("" when the side plays none yet)
    dice: tuple[int, int]
    active_card: str = ""  # the card whose effect a win by the active player triggers
    points: int = 0  # a SHOOT's worth (2 grey, 3 black) and difficulty, for the final roll
    difficulty: int = 0
    baller: str = ""  # who plays the active card ("" in a log from before the events named the baller)


def _count_by_name(cards: tuple[ActionCard, ...]) -> dict[str | None, ActionCard]:
    return {card.name: card for card in reversed(cards)}  # the first of a name, as a scan finds it


_by_name = by_identity(_count_by_name, size=16)  # the cards are the table's, set at setup


_by_lower_name = by_identity(by_lower_name, size=64)


@dataclass(frozen=True)
class State:
    mode: str
    players: tuple[Player, Player]
    bar: BarLayout
    clock: int  # clock tokens left in the pool
    win_at: int
    pool: tuple[Baller, ...] = ()  # the nine ballers dealt for the draft, minus those picked
    picks: int = 0  # draft picks made
    first_pick: int = 0
    phase: str = "draft"  # draft, tip_off, turn, respond, battle, final_roll, final
    active: int = 0
    tie_breaker: int | None = None
    turn_started: bool = True  # nothing done yet this turn: PASS is allowed
    battle: Battle | None = None
    pending_card: str = ""  # the ACTIVE card waiting for the opponent's response
    pending_cost: int = 0
    shot: tuple[int, int, int] | None = None  # final roll: dice, difficulty, points
    shooter: str = ""  # the baller whose SHOOT is in the air ("" when the log does not say)
    overtime: bool = False  # the clock ran out tied: the next to score wins
    winner: int | None = None
    reason: str = ""
    ball_faces: int | None = None  # faces of a die that show a BALL icon (setup option), if known
    cards: tuple[ActionCard, ...] = ()
    turns: int = 0
    rerolls: int = 0  # tied tip-offs rolled again
    b_ball_4_all: bool = False  # the variant: both roll and re-roll together, to the app's beat

    def player(self, side: int) -> Player:
        return self.players[side]

    def with_player(self, side: int, **changes: object) -> State:
        players = list(self.players)
        players[side] = replace(players[side], **changes)  # type: ignore[arg-type]
        return replace(self, players=(players[0], players[1]))

    def with_ledger(self, side: int, **changes: object) -> State:
        return self.with_player(side, ledger=replace(self.player(side).ledger, **changes))  # type: ignore[arg-type]

    def card(self, name: object) -> ActionCard:
        wanted = name.strip().upper() if isinstance(name, str) else None
        card = _by_name(self.cards).get(wanted)
        if card is not None:
            return card
        raise CommandError(
            f"no action card called {name!r}; the cards are " f"{', '.join(c.name for c in self.cards)}"
        )

    def baller(self, side: int, name: object) -> Baller:
        if isinstance(name, str):
            baller = _by_lower_name(self.players[side].squad).get(name.strip().lower())
            if baller is not None:
                return baller
        squad = ", ".join(b.name for b in self.players[side].squad)
        raise CommandError(f"{self.players[side].name}'s squad has no baller called {name!r}: {squad}")

    @property
    def final(self) -> bool:
        return self.phase == "final"

    @property
    def names(self) -> tuple[str, str]:
        return (self.players[0].name, self.players[1].name)
