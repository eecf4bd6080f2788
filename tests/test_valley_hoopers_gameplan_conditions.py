"""Every gameplan milestone of The Series on a game that meets it and on one that just misses it.

Each game is played through the rules (``SeriesTable``: attacks, fouls, screens, chips, playbooks,
substitutions), never by editing the state. Lucy is side 0, the side the milestone is read for.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from games.valley_hoopers_series_table import SeriesTable

from companion.games.valley_hoopers.gameplan_conditions import CONDITIONS

Play = Callable[[SeriesTable], object]
MUY, SERGE, DIME, WALLY, NEVER = "Muy Schillato", "Serge Ceptor", "Dime N'Shons", "Wally Block", "Never Tired"
REL, JOY, CHUS = "Reley Baton", "Joy Kill", "Chus Kinder"
STARTERS = (SERGE, MUY, DIME, WALLY, NEVER)
BENCH_IN = {"C": REL, "SF": JOY}


def each(*plays: Play) -> Play:
    def play(t: SeriesTable) -> None:
        for one in plays:
            one(t)
    return play


def scores(*shots: tuple[str, str]) -> Play:
    return each(*(lambda t, n=name, s=shot: t.score(n, s) for name, shot in shots))


def reds(*names: str) -> Play:
    return each(*(lambda t, n=name: t.red_to(n) for name in names))


def whites(*names: str) -> Play:
    return each(*(lambda t, n=name: t.white_to(n) for name in names))


def bench_in(t: SeriesTable) -> None:
    t.bring_in(0, dict(BENCH_IN))


def playbooks(count: int, missed: int = 0) -> Play:
    def play(t: SeriesTable) -> None:
        for n in range(count):
            t.playbook(STARTERS[n % 5], f"COMMON {n}")
        for n in range(missed):
            t.playbook(STARTERS[n % 5], f"MISSED {n}", made=False)
    return play


def chip_block(with_chip: bool) -> Play:
    def play(t: SeriesTable) -> None:
        t.lv1_chip(MUY).turn_to(1).do("attack", shot="2PS", hooper=CHUS)
        if with_chip:
            t.do("defend", hooper=MUY, block="chip").roll("whistle2")
        else:
            t.do("defend", hooper=MUY).roll("blank").roll(100).do("no_rebound")
        t.settle()
    return play


def remove_counter(fundamental: str) -> Play:
    effect = "remove_steal" if fundamental == "dribble" else "remove_intercept"

    def play(t: SeriesTable) -> None:
        t.lv1_chip(MUY).turn_to(0).do("fundamental", action=fundamental, hooper=MUY)
        t.do("counter", hooper="May Friend").do("chip", hooper=MUY, effect=effect)
    return play


def energy_drinks(count: int) -> Play:
    def play(t: SeriesTable) -> None:
        t.lv2_chip(MUY).lv2_chip(MUY)
        for _ in range(count):
            t.do("chip", hooper=MUY, effect="energy_drink")
    return play


def periods_won(last_period_score: bool) -> Play:
    def play(t: SeriesTable) -> None:
        t.score(MUY).next_period()
        if last_period_score:
            t.next_period().next_period()
        t.score(MUY)
        if last_period_score:
            t.next_period()
        else:
            t.next_period()
    return play


def rotate(shot: str, count: int, names: tuple[str, ...] = (SERGE, MUY, DIME)) -> Play:
    return scores(*((names[n % len(names)], shot) for n in range(count)))


TO_FOURTH_PERIOD: Play = lambda t: t.next_period().next_period().next_period()  # noqa: E731
ALL_SEVEN = each(scores(*((n, "2PS") for n in STARTERS)), bench_in)

# (condition, game that meets it, game that just misses it)
CASES: list[tuple[str, Play, Play]] = [
    # Game 1-2
    ("g12.01", lambda t: t.timeout(0), lambda t: t.timeout(0).timeout(0)),
    ("g12.02", whites(SERGE, MUY, DIME, WALLY, NEVER), whites(SERGE, MUY, DIME, WALLY, NEVER, REL)),
    ("g12.03", each(playbooks(1), lambda t: t.do("coach_cards", side=0, action="draw3")),
     each(playbooks(0, missed=1), lambda t: t.do("coach_cards", side=0, action="draw3"))),
    ("g12.04", each(reds(SERGE, MUY), TO_FOURTH_PERIOD, reds(DIME, WALLY)),
     each(TO_FOURTH_PERIOD, reds(SERGE, MUY, DIME))),
    ("g12.05", scores(*[(MUY, "3PS")] * 5), scores(*[(MUY, "3PS")] * 4, (MUY, "2PS"), (SERGE, "3PS"))),
    ("g12.06", lambda t: t.fouled(SERGE, "3PS", free_throws=(5, 5, 5))
     .fouled(SERGE, "3PS", free_throws=(5, 5, 5)).fouled(MUY, "2PS", made=True, free_throws=(5,)),
     lambda t: t.fouled(SERGE, "3PS", free_throws=(5, 5, 5))
     .fouled(SERGE, "3PS", free_throws=(5, 5, 100)).fouled(MUY, "2PS", made=True, free_throws=(5,))),
    ("g12.07", scores(*((n, "2PS") for n in STARTERS)),
     each(scores(*((n, "2PS") for n in STARTERS[:4])), bench_in, scores((REL, "3PS")))),
    ("g12.08", lambda t: t.fouled(SERGE, free_throws=(5, 5)).fouled(CHUS, free_throws=(5, 100)),
     lambda t: t.fouled(SERGE, free_throws=(5, 5)).fouled(CHUS, free_throws=(5, 5))),
    ("g12.09", reds(WALLY, WALLY), reds(WALLY, WALLY, WALLY)),
    ("g12.10", scores(*[(MUY, "3PS")] * 4), scores(*[(MUY, "3PS")] * 3, (SERGE, "3PS"))),
    ("g12.11", whites(MUY, MUY), whites(MUY, MUY, MUY)),
    ("g12.12", scores(*[(MUY, "2PS")] * 5), scores(*[(MUY, "2PS")] * 4, (MUY, "3PS"))),
    ("g12.13", whites(CHUS, CHUS, CHUS), whites(CHUS, CHUS)),
    ("g12.14", each(bench_in, scores((REL, "3PS"), (REL, "3PS"), (JOY, "2PS"))),
     each(bench_in, scores((REL, "3PS"), (JOY, "2PS"), (JOY, "2PS")))),
    ("g12.15", rotate("3PS", 8), rotate("3PS", 7)),
    ("g12.16", reds(*STARTERS), each(reds(*STARTERS), bench_in, reds(REL))),
    # Game 3-4
    ("g34.01", scores((MUY, "2PS")), scores((MUY, "2PS"), (CHUS, "2PS"))),
    ("g34.02", playbooks(1), playbooks(0, missed=1)),
    ("g34.03", each(bench_in, scores((REL, "2PS"))),
     each(bench_in, scores((REL, "2PS")), lambda t: t.bring_in(1, {"C": "Linda Siempre"}),
          scores(("Linda Siempre", "2PS")))),
    ("g34.04", playbooks(2), playbooks(1, missed=1)),
    ("g34.05", scores((SERGE, "2PS"), (DIME, "2PS"), (MUY, "2PS"), (MUY, "2PS"), (MUY, "2PS")),
     each(scores((SERGE, "2PS"), (DIME, "2PS"), (WALLY, "2PS")), lambda t: t.miss(WALLY))),
    ("g34.06", chip_block(True), chip_block(False)),
    ("g34.07", rotate("3PS", 17), each(rotate("3PS", 16), scores((WALLY, "2PS")))),
    ("g34.08", scores(*[(MUY, "3PS")] * 6, (MUY, "2PS")),
     scores(*[(MUY, "3PS")] * 5, (MUY, "2PS"), (MUY, "2PS"))),
    ("g34.09", scores(*[(SERGE, "3PS")] * 5), scores(*[(SERGE, "3PS")] * 4, (SERGE, "2PS"), (MUY, "3PS"))),
    ("g34.10", lambda t: t.lv1_chip(MUY), lambda t: t.lv1_chip(MUY).lv1_chip(CHUS)),
    ("g34.11", scores(*[(MUY, "3PS")] * 10), scores(*[(MUY, "3PS")] * 9, (MUY, "2PS"), (SERGE, "3PS"))),
    ("g34.12", energy_drinks(1), energy_drinks(0)),
    ("g34.13", each(ALL_SEVEN, scores((REL, "2PS"), (JOY, "2PS"))), each(ALL_SEVEN, scores((REL, "2PS")))),
    ("g34.14", scores((MUY, "2PS")), lambda t: t.timeout(0)),
    ("g34.15", scores((MUY, "3PS"), (SERGE, "3PS"), (CHUS, "3PS")), scores((MUY, "3PS"), (CHUS, "3PS"))),
    ("g34.16", reds(SERGE, SERGE, MUY, MUY, DIME, DIME, WALLY),
     reds(SERGE, SERGE, MUY, MUY, DIME, DIME, WALLY, WALLY)),
    # Game 5-6 (and 7)
    ("g56.01", energy_drinks(2), energy_drinks(1)),
    ("g56.02", playbooks(4), playbooks(3, missed=1)),
    ("g56.03", lambda t: t.fouled(SERGE, free_throws=(5, 5)).fouled(CHUS, free_throws=(5, 100)),
     lambda t: t.fouled(SERGE, free_throws=(5, 5)).fouled(CHUS, free_throws=(5, 5))),
    ("g56.04", lambda t: t.score(MUY).miss(MUY), lambda t: t.miss(MUY)),
    ("g56.05", scores((MUY, "3PS"), (CHUS, "2PS")), scores((MUY, "3PS"), (CHUS, "3PS"))),
    ("g56.06", remove_counter("pass"), remove_counter("dribble")),
    ("g56.07", each(bench_in, scores((REL, "2PS"))), each(bench_in, scores((REL, "3PS")))),
    ("g56.08", remove_counter("dribble"), remove_counter("pass")),
    ("g56.09", each(scores(*((n, "3PS") for n in STARTERS)), bench_in, scores((REL, "3PS"), (JOY, "3PS"))),
     each(scores(*((n, "3PS") for n in STARTERS)), bench_in, scores((REL, "3PS"), (JOY, "2PS")))),
    ("g56.10", reds(CHUS), reds(CHUS, WALLY)),
    ("g56.11", scores(*((n, "3PS") for n in STARTERS for _ in (1, 2))),
     scores(*((n, "3PS") for n in STARTERS[:4] for _ in (1, 2)), (NEVER, "3PS"), (NEVER, "2PS"))),
    ("g56.12", whites(MUY, MUY, CHUS, CHUS, CHUS), whites(MUY, MUY, MUY, CHUS, CHUS, CHUS)),
    ("g56.13", each(bench_in, scores((REL, "3PS"))), each(bench_in, scores((REL, "2PS")))),
    ("g56.14", rotate("2PS", 12), each(rotate("2PS", 11), rotate("3PS", 2))),
    ("g56.15", periods_won(last_period_score=False), periods_won(last_period_score=True)),
    ("g56.16", scores((MUY, "2PS"), (SERGE, "2PS"), (CHUS, "2PS")),
     scores((MUY, "2PS"), (SERGE, "3PS"), (CHUS, "2PS"))),
]
GAME_OF_LIST = {"g12": 1, "g34": 3, "g56": 5}


def test_every_condition_has_a_case() -> None:
    assert sorted(c for c, _, _ in CASES) == sorted(c.id for c in CONDITIONS)


def _played(condition: str, play: Play) -> SeriesTable:
    table = SeriesTable(game=GAME_OF_LIST[condition[:3]])
    play(table)
    return table


@pytest.mark.parametrize(("condition", "meets", "misses"), CASES, ids=[c for c, _, _ in CASES])
def test_a_game_that_meets_it(condition: str, meets: Play, misses: Play) -> None:
    table = _played(condition, meets)
    assert table.met(condition), table.progress(condition)


@pytest.mark.parametrize(("condition", "meets", "misses"), CASES, ids=[c for c, _, _ in CASES])
def test_a_game_that_just_misses_it(condition: str, meets: Play, misses: Play) -> None:
    table = _played(condition, misses)
    assert not table.met(condition), table.progress(condition)
