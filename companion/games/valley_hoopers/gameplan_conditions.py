"""The 48 gameplan milestones of The Series, as data: the rulebook's words and a pure evaluator each.

A condition's evaluator reads a ``Table`` (the state and its gameplan book, for one side) and
returns whether the milestone is met now and a short progress text ("5 of 7 free throws"). How
the progress reads while the game goes on depends on the condition's ``kind``:

- ``reach``: something to achieve ("score at least 7 free throws"): met stays met;
- ``avoid``: something not to do ("do not spend two or more timeout cubes"): met until broken;
- ``standing``: how things stand when the game ends (comparisons, "have ..."): may swing both ways.

A condition the app can't always see declares ``asked``: a function that returns the question for
the table when the log does not settle it (``None`` when it does); the table's yes/no answer (the
``gameplan_answer`` command) is then used.

>>> [c.id for c in CONDITIONS[:2]], len(CONDITIONS)
(['g12.01', 'g12.02'], 48)
>>> CONDITIONS[4].text
'One single hooper of yours scores at least 15 points.'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.games.valley_hoopers.gameplan_tally import GameplanBook, Shots
from companion.games.valley_hoopers.model import Hooper, State, other

HOT_ZONE = 3  # orange, LV.I: the first step towards LV.II is where the Home tokens start
COLD_ZONE = 1  # light blue (and the cube space): the first step back from flat
MARKER_CUBES = 3  # "an injured hooper worth as 3 injury cubes"
EJECTED_CUBES = 4  # "an ejected hooper worth as 4 foul cubes"
MILESTONE_PERIODS = 3  # three period milestone markers (I, II, III); the fourth period gives a chip


@dataclass(frozen=True)
class Table:
    """One side's view of the game for the evaluators: its hoopers and the opponent's, with the book."""

    state: State
    book: GameplanBook
    side: int

    @property
    def opponent(self) -> Table:
        return Table(self.state, self.book, other(self.side))

    @property
    def hoopers(self) -> tuple[Hooper, ...]:
        return self.state.side(self.side).hoopers

    @property
    def starters(self) -> tuple[Hooper, ...]:
        """The court side of the player board: the starting five (cards never move, tokens do)."""
        names = self.book.starters[self.side]
        return tuple(h for h in self.hoopers if h.name in names)

    @property
    def bench_side(self) -> tuple[Hooper, ...]:
        names = self.book.starters[self.side]
        return tuple(h for h in self.hoopers if h.name not in names)

    def shots(self, hoopers: Iterable[Hooper] | None = None) -> list[Shots]:
        return [self.book.shots_of(h.name) for h in (self.hoopers if hoopers is None else hoopers)]

    def points(self, hoopers: Iterable[Hooper] | None = None) -> int:
        return sum(h.points for h in (self.hoopers if hoopers is None else hoopers))

    @property
    def score(self) -> int:
        return self.state.score[self.side]

    @property
    def counts(self):  # noqa: ANN201 - a SideCounts
        return self.book.counts[self.side]

    @property
    def timeouts_spent(self) -> int:
        return self.book.timeouts_at_start[self.side] - self.state.side(self.side).timeouts

    def reds(self, hooper: Hooper) -> int:
        """Foul cubes received this game (an ejected hooper counts as four)."""
        received = hooper.red - self.book.hooper_start(hooper.name).red
        return max(received, EJECTED_CUBES) if hooper.ejected else received

    def markers(self, hooper: Hooper) -> int:
        """Injury markers drawn this game."""
        return len(hooper.injuries) - self.book.hooper_start(hooper.name).markers

    def whites(self, hooper: Hooper) -> int:
        """Injury cubes received this game: the cubes a marker took away count three each."""
        start = self.book.hooper_start(hooper.name)
        return hooper.white - start.white + MARKER_CUBES * self.markers(hooper)

    def hurt(self, hooper: Hooper) -> bool:
        """An injury cube or an injury marker this game."""
        return self.markers(hooper) > 0 or hooper.white > self.book.hooper_start(hooper.name).white

    @property
    def chips_to_spend(self) -> int:
        return sum(h.chips_lv1 + h.chips_lv2 + len(h.reused_chips) for h in self.hoopers)

    @property
    def playbooks(self) -> int:
        """Active playbooks: the ones with a coach action token on them (personal and achieved)."""
        return len(self.state.side(self.side).playbooks)

    @property
    def periods_won(self) -> int:
        scores = self.state.partial_scores[:MILESTONE_PERIODS]
        return sum(1 for p in scores if p[self.side] > p[other(self.side)])

    def unknown_stellar(self) -> list[str]:
        return [h.name for h in self.hoopers if h.stellar is None and h.points]


Progress = tuple[bool, str]
Evaluate = Callable[[Table], Progress]


@dataclass(frozen=True)
class Condition:
    """One gameplan milestone: ``id`` (``g12.05``: Game 1-2 list, fifth), the rulebook's ``text``."""

    id: str
    games: str
    number: int
    text: str
    kind: str
    evaluate: Evaluate
    asked: Callable[[Table], str | None] | None = None

    @property
    def list_title(self) -> str:
        return f"Game {self.games} Milestones"


# --- small builders: each returns an evaluator ---------------------------------------------------

def at_least(count: Callable[[Table], int], goal: int, noun: str) -> Evaluate:
    def evaluate(t: Table) -> Progress:
        have = count(t)
        return have >= goal, f"{have} of {goal} {noun}"
    return evaluate


def fewer_than(count: Callable[[Table], int], limit: int, noun: str) -> Evaluate:
    """Met while the count stays under ``limit`` ("do not ... two or more")."""
    def evaluate(t: Table) -> Progress:
        have = count(t)
        return have < limit, f"{have} {noun} (fails at {limit})"
    return evaluate


def more_than_opponent(count: Callable[[Table], int], noun: str) -> Evaluate:
    def evaluate(t: Table) -> Progress:
        mine, theirs = count(t), count(t.opponent)
        return mine > theirs, f"{mine} {noun} against {theirs}"
    return evaluate


def fewer_than_opponent(count: Callable[[Table], int], noun: str) -> Evaluate:
    def evaluate(t: Table) -> Progress:
        mine, theirs = count(t), count(t.opponent)
        return mine < theirs, f"{mine} {noun} against {theirs}"
    return evaluate


def best_hooper(value: Callable[[Table, Hooper], int], goal: int, noun: str) -> Evaluate:
    """One single hooper reaches ``goal``: progress names the best one so far."""
    def evaluate(t: Table) -> Progress:
        best = max(t.hoopers, key=lambda h: value(t, h))
        have = value(t, best)
        return have >= goal, f"best {best.name}: {have} of {goal} {noun}"
    return evaluate


def every_hooper(group: Callable[[Table], tuple[Hooper, ...]], goal: int) -> Evaluate:
    def evaluate(t: Table) -> Progress:
        hoopers = group(t)
        done = [h for h in hoopers if h.points >= goal]
        short = [h.name for h in hoopers if h.points < goal]
        text = f"{len(done)} of {len(hoopers)} with {goal}+ points"
        return not short, text + (f" (missing: {', '.join(short)})" if short else "")
    return evaluate


def hoopers_with(test: Callable[[Table, Hooper], bool], goal: int, noun: str) -> Evaluate:
    return at_least(lambda t: sum(1 for h in t.hoopers if test(t, h)), goal, noun)


def best_of_side(value: Callable[[Table, Hooper], int]) -> Callable[[Table], int]:
    return lambda t: max(value(t, h) for h in t.hoopers)


def shots_of(field: str, group: Callable[[Table], Iterable[Hooper]] | None = None) -> Callable[[Table], int]:
    return lambda t: sum(getattr(s, field) for s in t.shots(None if group is None else group(t)))


def hooper_shots(field: str) -> Callable[[Table, Hooper], int]:
    return lambda t, h: getattr(t.book.shots_of(h.name), field)


def stellar_points(stellar: bool) -> Callable[[Table], int]:
    return lambda t: t.points(h for h in t.hoopers if bool(h.stellar) is stellar)


def ask_stellar(t: Table) -> str | None:
    unknown = t.unknown_stellar()
    if not unknown:
        return None
    return (f"stellar mark not entered for {', '.join(unknown)}: enter it, "
            "or answer whether the milestone is met")


def _no_hooper(test: Callable[[Table, Hooper], bool], noun: str) -> Evaluate:
    def evaluate(t: Table) -> Progress:
        hit = [h.name for h in t.hoopers if test(t, h)]
        return not hit, f"{noun}: {', '.join(hit)}" if hit else f"no hooper {noun} so far"
    return evaluate


def _cold_or_injured(t: Table, h: Hooper) -> bool:
    return (h.court is not None and h.onfire <= COLD_ZONE) or bool(h.injuries)


def _hot_or_lv2(t: Table, h: Hooper) -> bool:
    return (h.court is not None and h.onfire >= HOT_ZONE) or h.chips_lv2 > 0


def _hooper_points(t: Table, h: Hooper) -> int:
    return h.points


# --- the three lists, in the rulebook's order ----------------------------------------------------

G12: tuple[tuple[str, str, Evaluate], ...] = (
    ("Do not spend two or more timeout cubes.", "avoid",
     fewer_than(lambda t: t.timeouts_spent, 2, "timeout cubes spent")),
    ("Two or more hoopers of yours do not receive any injury cube or injury marker.", "avoid",
     hoopers_with(lambda t, h: not t.hurt(h), 2, "hoopers without injury cubes or markers")),
    ("Do not spend two or more coach action tokens.", "avoid",
     fewer_than(lambda t: t.counts.coach_tokens_spent, 2, "coach action tokens spent")),
    ("Do not commit three or more fouls as a team during the fourth period.", "avoid",
     fewer_than(lambda t: t.counts.fourth_period_fouls, 3, "fouls in the fourth period")),
    ("One single hooper of yours scores at least 15 points.", "reach",
     best_hooper(_hooper_points, 15, "points")),
    ("Score at least 7 free throws as a team.", "reach",
     at_least(shots_of("free_throws"), 7, "free throws")),
    ("All your starting five hoopers (the hoopers placed on the court side of your player board) score "
     "at least 1 point.", "reach", every_hooper(lambda t: t.starters, 1)),
    ("Score more free throws than your opponent considering only one single hooper.", "standing",
     more_than_opponent(best_of_side(hooper_shots("free_throws")), "free throws (best hooper)")),
    ("No hooper of yours receives 3 or more foul cubes (do not commit 3 or more personal fouls).", "avoid",
     _no_hooper(lambda t, h: t.reds(h) >= 3, "with 3+ foul cubes")),
    ("One single hooper of yours scores at least 4 three-points shots.", "reach",
     best_hooper(hooper_shots("threes"), 4, "three-point shots")),
    ("No hooper of yours gets injured.", "avoid", _no_hooper(lambda t, h: t.markers(h) > 0, "injured")),
    ("One single hooper of yours scores at least 10 points considering only the shots that worth two "
     "points (2PS and Lay-Up).", "reach", best_hooper(hooper_shots("two_points"), 10, "points from 2PS/LUP")),
    ("At least one hooper of your opponent gets injured.", "reach",
     at_least(lambda t: sum(1 for h in t.opponent.hoopers if t.opponent.markers(h) > 0), 1,
              "opponent hoopers injured")),
    ("Score at least 8 points considering the two hoopers placed on the bench side of your player board.",
     "reach", at_least(lambda t: t.points(t.bench_side), 8, "points from the bench side")),
    ("Score at least 8 three-points shots as a team.", "reach",
     at_least(shots_of("threes"), 8, "three-point shots")),
    ("Two or more hoopers of yours do not receive any foul cube (do not commit any foul).", "avoid",
     hoopers_with(lambda t, h: t.reds(h) == 0, 2, "hoopers without foul cubes")),
)

G34: tuple[tuple[str, str, Evaluate], ...] = (
    ("Score more points than your opponent considering all your starting-five hoopers (the hoopers "
     "placed on the court side).", "standing",
     more_than_opponent(lambda t: t.points(t.starters), "points from the starting five")),
    ("Have more active playbooks than your opponent.", "standing",
     more_than_opponent(lambda t: t.playbooks, "active playbooks")),
    ("Score more points than your opponent considering the two hoopers placed on the bench side of your "
     "player board.", "standing",
     more_than_opponent(lambda t: t.points(t.bench_side), "points from the bench side")),
    ("Have at least 3 active playbooks.", "standing", at_least(lambda t: t.playbooks, 3, "active playbooks")),
    ("Have at least 3 hoopers in the hot zone or still having an Onfire Lv.2 chip to spend.", "standing",
     hoopers_with(_hot_or_lv2, 3, "hoopers in the hot zone or with a LV.2 chip")),
    ("Spend at least 1 Onfire chip to perform a block.", "reach",
     at_least(lambda t: t.counts.chip_blocks, 1, "blocks with a chip")),
    ("Score at least 51 points as a team.", "reach", at_least(lambda t: t.score, 51, "points")),
    ("One single hooper of yours scores at least 20 points.", "reach",
     best_hooper(_hooper_points, 20, "points")),
    ("Score at least 15 points considering only your un-stellar hoopers.", "reach",
     at_least(stellar_points(False), 15, "points from un-stellar hoopers")),
    ("Have more Onfire chip to spend than your opponent.", "standing",
     more_than_opponent(lambda t: t.chips_to_spend, "Onfire chips to spend")),
    ("Score at least 30 points considering only your stellar hoopers.", "reach",
     at_least(stellar_points(True), 30, "points from stellar hoopers")),
    ("Spend at least 1 Onfire Lv.2 chip.", "reach",
     at_least(lambda t: t.counts.lv2_spent, 1, "LV.2 chips spent")),
    ("All your seven hoopers score at least 1 point.", "reach", every_hooper(lambda t: t.hoopers, 1)),
    ("Do not spend any timeout cube.", "avoid",
     fewer_than(lambda t: t.timeouts_spent, 1, "timeout cubes spent")),
    ("Score more three-points shots than your opponent.", "standing",
     more_than_opponent(shots_of("threes"), "three-point shots")),
    ("Do not receive more than 7 foul cubes (do not commit more than 7 fouls) as a team.", "avoid",
     fewer_than(lambda t: sum(t.reds(h) for h in t.hoopers), 8, "foul cubes")),
)

G56: tuple[tuple[str, str, Evaluate], ...] = (
    ("Spend at least 2 Onfire Lv.2 chips.", "reach",
     at_least(lambda t: t.counts.lv2_spent, 2, "LV.2 chips spent")),
    ("Have at least 5 active playbooks.", "standing", at_least(lambda t: t.playbooks, 5, "active playbooks")),
    ("Score more free-throws than your opponent.", "standing",
     more_than_opponent(shots_of("free_throws"), "free throws")),
    ("Have no hoopers in the cold zone or injured.", "standing",
     _no_hooper(_cold_or_injured, "in the cold zone or injured")),
    ("Score more points than your opponent considering only one single hooper.", "standing",
     more_than_opponent(best_of_side(_hooper_points), "points (best hooper)")),
    ("Spend at least one Onfire chip to remove an opponent's attempt to intercept.", "reach",
     at_least(lambda t: t.counts.removed_intercepts, 1, "intercepts removed")),
    ("Score more shots that worth two points (2PS and lay-up) than your opponent considering the two "
     "hoopers placed on the bench side of the player boards.", "standing",
     more_than_opponent(shots_of("twos", lambda t: t.bench_side), "2PS/LUP from the bench side")),
    ("Spend at least one Onfire chip to remove an opponent's attempt to steal.", "reach",
     at_least(lambda t: t.counts.removed_steals, 1, "steals removed")),
    ("All your seven hoopers score at least 3 points.", "reach", every_hooper(lambda t: t.hoopers, 3)),
    ("Receive fewer foul cubes than your opponent (an ejected hooper worth as 4 foul cubes).", "standing",
     fewer_than_opponent(lambda t: sum(t.reds(h) for h in t.hoopers), "foul cubes")),
    ("All your starting five hoopers (the hoopers placed on the court side) score at least 6 points.",
     "reach",
     every_hooper(lambda t: t.starters, 6)),
    ("Receive fewer injury cubes than your opponent (an injured hooper worth as 3 injury cubes).", "standing",
     fewer_than_opponent(lambda t: sum(t.whites(h) for h in t.hoopers), "injury cubes")),
    ("Score more three-points shots than your opponent considering the two hoopers placed on the bench side "
     "of the player boards.", "standing",
     more_than_opponent(shots_of("threes", lambda t: t.bench_side), "three-point shots from the bench side")),
    ("Score at least 24 points as a team considering only the shots that worth 2 points (2PS and Lay-up).",
     "reach", at_least(shots_of("two_points"), 24, "points from 2PS/LUP")),
    ("Have at least 2 period milestone markers (win at least 2 periods considering their partial score).",
     "standing", at_least(lambda t: t.periods_won, 2, "period milestone markers")),
    ("Score more shots that worth two points (2PS and lay-up) as a team than your opponent.", "standing",
     more_than_opponent(shots_of("twos"), "2PS/LUP shots")),
)

LISTS = (("1-2", "g12", G12), ("3-4", "g34", G34), ("5-6", "g56", G56))
STELLAR_IDS = ("g34.09", "g34.11")  # the app needs the hoopers' stellar marks to tell


def _build() -> tuple[Condition, ...]:
    out = []
    for games, prefix, rows in LISTS:
        for number, (text, kind, evaluate) in enumerate(rows, start=1):
            cid = f"{prefix}.{number:02d}"
            out.append(Condition(cid, games, number, text, kind, evaluate,
                                 ask_stellar if cid in STELLAR_IDS else None))
    return tuple(out)


CONDITIONS: tuple[Condition, ...] = _build()
BY_ID = {c.id: c for c in CONDITIONS}
