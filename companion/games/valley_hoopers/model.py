"""The Valley Hoopers table as immutable values: hoopers, sides, the attacking turn and the game.

Everything is a frozen dataclass of tuples, so ``apply`` can only build a new state, and two
states compare equal when the table is the same (this is how replay is tested).

>>> h = Hooper(name="Never Tired", stats=(("V", 55),))
>>> h.stat("V"), h.stat("2PS")
(55, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from companion.errors import RuleError
from companion.frozen import OwnDict, by_identities, by_identity, by_lower_name, replace
from companion.game import Term
from companion.games.valley_hoopers.ball import BallState
from companion.games.valley_hoopers.gameplan_tally import GameplanBook
from companion.games.valley_hoopers.record_parents import remember_side_parent
from companion.games.valley_hoopers.splits import splits_json
from companion.games.valley_hoopers.upgrade_cards import ActionUpgrade
from companion.splits import Splits

_SUBJECTS = {"his": "he", "her": "she"}
POSITIONS = ("PG", "SG", "SF", "PF", "C")
STATS = ("2PS", "3PS", "LUP", "D2", "D3", "DLU", "O", "V")
ATTACK_STATS = ("2PS", "3PS", "LUP")
DEFENSE_STATS = ("D2", "D3", "DLU")
FUNDAMENTALS = ("dribble", "pass", "screen")
# The Onfire track, left to right; a Position token starts (and comes back) on "flat".
ONFIRE_TRACK = ("cube", "light blue", "flat", "orange", "LV.I", "LV.II")
FLAT = 2
LV1_SPACE = 4
INJURY_EFFECTS = (
    "defense_minus_10",
    "attack_minus_10",
    "out",
    "lucky",
    "cannot_defend",
    "cannot_attack",
    "loses_skill",
)
SKILLS = {
    "dlu_vs_3ps": "Edd Trapp: can defend a 3 points shot with a defense lay-up",
    "no_counter_foul_die": "Manny Gentle: does not roll the foul die when countering",
    "donates_energy": "May Friend: can donate one of her energies to a not exhausted teammate",
    "free_pass": "Vernon Dely: spends no energy to pass",
    "free_attack_after_pass": "Chus Kinder: spends no energy to attack after a teammate's pass",
    "free_d3": "Henry Closure: spends no energy to defend a 3 points shot",
    "helps_defense": "Perry Hel: spends one energy to add his defense stat (half off his flag) to a defender",
    "whistle_is_no_foul": "Linda Siempre: a whistle when defending is no foul, she keeps the bonus",
    "cures_on_score": "Maddy Cure: a successful attack gives a teammate one energy",
    "onfire_on_defense": "Hector Prot: a successful defense moves him one step forward on the Onfire track",
    "rebound_counters": "Dime N'Shons: can play an offensive rebound card to intercept or steal",
    "failed_counter_malus": "Joy Kill: her failed counter gives the fundamental a -10 malus",
    "free_attack_after_screen": "Faust Exit: spends no energy to attack after a teammate's screen",
    "free_intercept": "Serge Ceptor: spends no energy to intercept",
    "no_foul_bonus_against": "Sin Miedo: a defender fouling him gains no foul bonus",
    "reuses_lv1_chip": "Muy Schillato: gets a used LV.1 chip back once, without the stellar extra",
    "free_substitution": "Reley Baton: no coach action token to move her from the bench to the court",
    "extra_recovery": "Never Tired: recovers one extra energy whenever he recovers energy",
    "spends_teammates_energy": "Lance Endure: can spend his teammates' energy while not exhausted",
    "free_screen": "Wally Block: spends no energy to screen",
    "rebound_layup": "Susan Peg: after a clean offensive rebound she shoots a lay-up with her V stat",
}


@dataclass(frozen=True)
class Hooper(OwnDict):
    """One hooper card and everything on it: stats as entered, energy, cubes, track, chips.

    ``None`` means "not entered yet": the companion never guesses a number from a card.
    """

    name: str
    pronoun: str = "their"
    first_position: str | None = None
    second_position: str | None = None
    stellar: bool | None = None
    upgraded: bool = False
    defense_positions: tuple[str, ...] | None = None
    base_energy: int | None = None
    stats: tuple[tuple[str, int | None], ...] = ()
    skill: str | None = None
    energy: int | None = None
    energy_bonus: int = 0
    stat_bonus: tuple[tuple[str, int], ...] = ()
    court: str | None = None
    out_of_position: bool = False
    onfire: int = FLAT
    red: int = 0
    white: int = 0
    injuries: tuple[str, ...] = ()
    ejected: bool = False
    injured_out: bool = False
    chips_lv1: int = 0
    chips_lv2: int = 0
    reused_chips: tuple[str, ...] = ()
    points: int = 0
    milestone: str | None = None
    splits: Splits = Splits()  # field goals and free throws, made/attempted (splits.py counts them)

    @property
    def max_energy(self) -> int | None:
        return None if self.base_energy is None else self.base_energy + self.energy_bonus

    @property
    def out(self) -> bool:
        """Ejected or injured out of the game: on the bench for good, card face down."""
        return self.ejected or self.injured_out

    def stat(self, name: str) -> int | None:
        if name in STATS:
            # Every stat of the card, counted once per pair of tuples (a new record keeps them).
            return _stats_json_of(self.stats, self.stat_bonus)[name]
        return self._count_stat(name)

    def _count_stat(self, name: str) -> int | None:
        # The last pair for a stat counts (as a dict of the pairs would say), without building one.
        printed = bonus = None
        for stat, value in self.stats:
            if stat == name:
                printed = value
        if printed is None:
            return None
        for stat, value in self.stat_bonus:
            if stat == name:
                bonus = value
        return printed + (bonus or 0)

    def _stats_json(self) -> dict[str, int | None]:
        # A changed hooper's JSON is written after every command, and a new record keeps its stats
        # and stat bonuses (``replace`` copies the references): counted once per pair of them.
        return dict(_stats_json_of(self.stats, self.stat_bonus))

    def has_skill(self, skill: str) -> bool:
        return self.skill == skill and "loses_skill" not in self.injuries

    @property
    def subject(self) -> str:
        return _SUBJECTS.get(self.pronoun, "they")

    def require_stat(self, name: str) -> int:
        value = self.stat(name)
        if value is None:
            raise RuleError(f"{self.name}'s {name} is not entered yet: enter it from {self.pronoun} card")
        return value

    def require_energy(self) -> int:
        if self.energy is None:
            raise RuleError(f"{self.name}'s energy is not entered yet: enter it from {self.pronoun} card")
        return self.energy

    def require_flag(self) -> tuple[str, ...]:
        if self.defense_positions is None:
            raise RuleError(
                f"{self.name}'s defensive position flag is not entered yet: "
                f"enter it from {self.pronoun} card"
            )
        return self.defense_positions

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "first_position": self.first_position,
            "second_position": self.second_position,
            "stellar": self.stellar,
            "upgraded": self.upgraded,
            "defense_positions": list(self.defense_positions) if self.defense_positions is not None else None,
            "stats": self._stats_json(),
            "skill": self.skill,
            "skill_text": SKILLS.get(self.skill or "", None),
            "position": self.court or "bench",
            "out_of_position": self.out_of_position,
            "energy": self.energy,
            "max_energy": self.max_energy,
            "red": self.red,
            "white": self.white,
            "onfire": ONFIRE_TRACK[self.onfire],
            "chips": {"lv1": self.chips_lv1, "lv2": self.chips_lv2, "reused_lv1": list(self.reused_chips)},
            "injuries": list(self.injuries),
            "ejected": self.ejected,
            "injured_out": self.injured_out,
            "points": self.points,
            "milestone_upgrade": self.milestone,
            **splits_json(self.splits),
        }


def count_stats_json(stats: tuple[tuple[str, int | None], ...],
                     stat_bonus: tuple[tuple[str, int], ...]) -> dict[str, int | None]:
    """``Hooper.stat`` for every stat in one pass over the pairs (the last pair for a stat counts, as a
    dict of them says)."""
    printed, bonus = dict(stats), dict(stat_bonus)
    return {s: None if printed.get(s) is None else printed[s] + (bonus.get(s) or 0) for s in STATS}


_stats_json_of = by_identities(count_stats_json, size=256)


@dataclass(frozen=True)
class Side(OwnDict):
    """One player's side of the table: the seven hoopers and the coach's resources."""

    name: str
    tribe: str
    hoopers: tuple[Hooper, ...]
    coach_tokens: int
    timeouts: int
    playbooks: tuple[str, ...]
    # The action upgrade cards sleeved in the deck this game, and the position upgrades (upgrade_cards.py).
    action_upgrades: tuple[ActionUpgrade, ...] = ()
    position_upgrades: tuple[str, ...] = ()

    def hooper(self, name: str) -> Hooper:
        found = _by_name(self.hoopers).get(str(name).strip().lower())
        if found is None:
            raise RuleError(f"{self.name} has no hooper called {name!r}")
        return found

    def at(self, position: str) -> Hooper | None:
        for h in self.hoopers:
            if h.court == position:
                return h
        return None

    def on_court(self) -> tuple[Hooper, ...]:
        return tuple(h for p in POSITIONS if (h := self.at(p)) is not None)

    def placed(self) -> tuple[tuple[str, Hooper], ...]:
        """Each court position with a hooper and who plays there (``at``), in ``POSITIONS`` order."""
        return _placed(self.hoopers)

    def bench(self) -> tuple[Hooper, ...]:
        return tuple(h for h in self.hoopers if h.court is None and not h.out)

    def with_hooper(self, hooper: Hooper) -> Side:
        name = hooper.name
        before = self.hoopers
        names = list(map(_NAME, before))  # the names read in C: a rule changes a hooper or two per command
        single = names.count(name) == 1
        if single:
            at = names.index(name)
            hoopers = (*before[:at], hooper, *before[at + 1:])
        else:  # none, or several of the name: every one of them
            hoopers = tuple([hooper if h.name == name else h for h in before])
        # The new tuple's index is the one of the tuple it came from, with the first record of the
        # name replaced when that one is named so (a later record of the name is not the one it holds).
        hit = _INDEXES.get(id(before))
        if hit is not None:
            index = hit[1]
            key = name.lower()
            first = index.get(key)
            if first is not None and first.name == name:
                index = {**index, key: hooper}
            _remember_index(hoopers, index)
        changed = replace(self, hoopers=hoopers)
        if single:
            remember_side_parent(changed, self, at)  # the view and the box score change one record's
        return changed


_NAME = attrgetter("name")

# Rules and prompts look hoopers up by name a few dozen times per command; a side's tuple of hoopers
# is shared by every state until one of them changes, so it is indexed once (``by_lower_name``): id of
# the tuple -> the tuple, its index (the entry holds the tuple, so its id is never reused while
# remembered). A tuple made by ``with_hooper`` gets its index from the one it was made from.
_INDEXES: dict[int, tuple[tuple[Hooper, ...], dict[str, Hooper]]] = {}


def _by_name(hoopers: tuple[Hooper, ...]) -> dict[str, Hooper]:
    hit = _INDEXES.get(id(hoopers))
    if hit is not None:
        return hit[1]
    index = by_lower_name(hoopers)
    _remember_index(hoopers, index)
    return index


def _remember_index(hoopers: tuple[Hooper, ...], index: dict[str, Hooper]) -> None:
    if len(_INDEXES) >= 256:
        _INDEXES.clear()  # cheaper than evicting one by one: a command makes a few new tuples
    _INDEXES[id(hoopers)] = (hoopers, index)


def _place(hoopers: tuple[Hooper, ...]) -> tuple[tuple[str, Hooper], ...]:
    placed = []
    for position in POSITIONS:
        for h in hoopers:
            if h.court == position:
                placed.append((position, h))
                break
    return tuple(placed)


# A play step's prompt reads the court for its cards and the hooper at each of their positions: once
# per tuple of hoopers (a command that changes none keeps it).
_placed = by_identity(_place, size=64)


@dataclass(frozen=True)
class Slot(OwnDict):
    """A card played in the current attacking turn and what became of it."""

    slot: str
    action: str
    hooper: str
    result: str = "played"

    def to_json(self) -> dict[str, str]:
        return {"slot": self.slot, "action": self.action, "hooper": self.hooper, "result": self.result}


@dataclass(frozen=True)
class Turn(OwnDict):
    """The attacking turn on the table: slots, bonuses earned, who may take the ball next."""

    attacker: int
    slots: tuple[Slot, ...] = ()
    lost_slots: tuple[str, ...] = ()
    bonuses: tuple[Term, ...] = ()
    ball: BallState = BallState()
    spent: tuple[tuple[str, str], ...] = ()
    playbook: str | None = None
    playbook_common: bool = False
    playbook_chip: bool = False
    rebound_bonus_for: str | None = None
    began_after: str = "start"
    free_substitutions: bool = False
    tribe_block_used: bool = False
    tribe_power: bool = False
    second_use_pending: bool = False
    retriever: str | None = None
    last_defender: str | None = None
    buzzer_beater: bool = False

    def played(self, slot: str) -> Slot | None:
        for s in self.slots:
            if s.slot == slot:
                return s
        return None

    @property
    def fresh(self) -> bool:
        """No card played yet: coach actions (timeout, substitutions) are still allowed."""
        return not self.slots and not self.lost_slots


@dataclass(frozen=True)
class Pending(OwnDict):
    """What the table is waiting for in the main flow of the attacking turn."""

    kind: str
    side: int
    action: str | None = None
    hooper: str | None = None
    other: str | None = None
    stat: str | None = None
    foul_bonus: int = 0
    foul_face: str | None = None
    fouled: bool = False
    free_throws: int = 0
    free_throws_if_made: int = 0
    after: str = ""
    block: str | None = None
    helper: str | None = None
    chip: str | None = None
    points: int = 0
    bonus: int = 0
    chip_bonus: int = 0
    defended: bool = False
    second_use: bool = False
    after_score: bool = False  # free throws of an attack that scored while fouled (an "and one")
    upgrade: tuple[str, int] | None = None  # a sleeved action upgrade's improvement: (label, value)


# Twenty-two fields, each set through ``object.__setattr__`` by the class's ``__init__``, and a command
# builds one or two: ``new_pending`` fills a copy of the defaults instead (``companion.frozen.replace``),
# the same record.
_NO_PENDING = Pending(kind="", side=0)


def new_pending(kind: str, side: int, **fields: Any) -> Pending:
    """``Pending(kind=kind, side=side, **fields)``, built without ``__init__``."""
    return replace(_NO_PENDING, kind=kind, side=side, **fields)


@dataclass(frozen=True)
class Decision(OwnDict):
    """A choice that interrupts the flow until answered (white cube, injury marker, replacement...)."""

    kind: str
    side: int | None
    hooper: str | None = None
    position: str | None = None
    period: int = 0


@dataclass(frozen=True)
class SeriesGame(OwnDict):
    """The Series' part of one game of the series (``None`` in a Classic, Fast or Friendly game).

    ``track`` counts the Tribe marker's steps from the centre of the Series track, positive towards
    side 0's board; ``track_face`` is the tribe the marker shows (a side index); ``track_off``: the
    marker left the track and lies on the action upgrade card. ``chips_lv1``/``chips_lv2`` are the
    Onfire chip stocks by the scoreboard (an empty one stays empty); ``common_playbooks`` the
    playbooks on the scoreboard; ``milestones`` the winner of periods 1-3 (``None``: a tied period).
    """

    number: int
    home: int
    condition: str
    track_steps: int = 2
    track: int = 0
    track_face: int = 0
    track_off: bool = False
    chips_lv1: int = 14
    chips_lv2: int = 8
    common_playbooks: int = 4
    milestones: tuple[int | None, ...] = ()


@dataclass(frozen=True)
class State(OwnDict):
    """The whole game: a pure value, rebuilt from the event log by ``apply``."""

    variant: str
    foul_die_blanks: int
    first_attacker: int
    sides: tuple[Side, Side]
    score: tuple[int, int] = (0, 0)
    period: int = 1
    turn_number: int = 1
    turn: Turn = Turn(attacker=0)
    pending: Pending = Pending(kind="play", side=0)
    decisions: tuple[Decision, ...] = ()
    team_fouls: tuple[int, int] = (0, 0)
    partial_scores: tuple[tuple[int, int], ...] = ()
    period_start_score: tuple[int, int] = (0, 0)
    free_substitutions: tuple[bool, bool] = (True, True)
    last_attack: tuple[int, str, int] | None = None
    last_attack_value: int | None = None  # the value to score of the last attack resolved (defense included)
    series: SeriesGame | None = None  # a game of The Series (series.py), else None
    message: str = ""
    reminders: tuple[str, ...] = ()
    winner: int | None = None
    final: bool = False
    gameplans: GameplanBook | None = None  # only in a game of The Series (setup option series_game)

    @property
    def regulation_periods(self) -> int:
        return 2 if self.variant == "fast" else 4

    @property
    def pairs_in_period(self) -> int:
        return 8 if self.period <= self.regulation_periods else 4

    @property
    def pair(self) -> int:
        return (self.turn_number + 1) // 2

    @property
    def ejection_reds(self) -> int:
        return 3 if self.variant == "fast" else 4

    @property
    def injury_whites(self) -> int:
        return 2 if self.variant == "fast" else 3

    def side(self, index: int) -> Side:
        return self.sides[index]

    def away(self, index: int) -> bool:
        """True for the Away side of a game of The Series."""
        return self.series is not None and self.series.home != index

    def with_series(self, **changes: Any) -> State:
        assert self.series is not None
        return replace(self, series=replace(self.series, **changes))

    def with_side(self, index: int, side: Side) -> State:
        sides = (side, self.sides[1]) if index == 0 else (self.sides[0], side)
        return replace(self, sides=sides)

    def with_hooper(self, index: int, hooper: Hooper) -> State:
        return self.with_side(index, self.sides[index].with_hooper(hooper))

    def owner(self, name: str) -> int:
        wanted = str(name).strip().lower()
        for i, side in enumerate(self.sides):
            if any(h.name.lower() == wanted for h in side.hoopers):
                return i
        raise RuleError(f"no hooper called {name!r} in this game")


def other(side: int) -> int:
    return 1 - side


def bump(pair: tuple[int, int], index: int, amount: int) -> tuple[int, int]:
    """A per-side pair with one side changed by ``amount``."""
    return (pair[0] + amount, pair[1]) if index == 0 else (pair[0], pair[1] + amount)
