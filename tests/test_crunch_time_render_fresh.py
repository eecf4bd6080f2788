"""Crunch Time renders every state as a fresh count would, and its prompt's checks agree with ``decide``.

The prompt judges each candidate command by the rules' checks (``rules.allowed``) instead of
deciding it (which, for a score, folds the whole possession into a new state) and builds no
candidate the rules refuse outright; the candidates, the scoreboard and the view's records are
remembered from earlier states, and a court's distances per court. All are checked over every state a
table meets in the full-game and solo scripts (with undos, redos, a command taken again after an
undo, and the log replayed into a new timeline), and over seeded random games with and without the
demo court: each rendered snapshot must be byte for byte the render of a copy of its state (a copy
shares no record with anything seen before, so no memo can answer for it) counted without the
views' caches (``FRESH``), whose prompt decides every candidate, as the prompt did before ``allowed``.
"""

from __future__ import annotations

import contextlib
import json
import pickle
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from companion.errors import CommandError, CompanionError
from companion.games import find_game
from companion.games.crunch_time import rules, views
from companion.games.crunch_time.commands import check
from companion.games.crunch_time.court import Court, shipped_court
from companion.games.crunch_time.model import STANDS, State
from companion.session import parse_command
from companion.timeline import Timeline

SCRIPTS = Path(__file__).parent / "games"
GAME = find_game("crunch-time")


def render(state: State) -> dict[str, Any]:
    """What ``Session`` shows for ``state``, in the order it counts it (memos and all)."""
    outcome = GAME.outcome(state)
    return {"view": GAME.view(state), "scoreboard": GAME.scoreboard(state).to_json(),
            "prompt": GAME.prompt(state).to_json(), "outcome": None if outcome is None else outcome.to_json()}


def resolves(state: State, command: Mapping[str, Any]) -> bool:
    try:
        rules.decide(state, command)
    except CompanionError:
        return False
    return True


# The views' memos, each replaced by the function it remembers, and the prompt's Star gate opened.
FRESH = {"_records_json": views._count_records, "_possession_row": views._count_row,
         "_court_json": Court.to_json, "_shot_card": views._shot_card.__wrapped__,
         "_card_choices": views._card_choices.__wrapped__,
         "court_candidates": views.court_candidates.__wrapped__, "_board": views._board.__wrapped__,
         "stars_open": lambda possession, fewest: True}  # every Star candidate, as before the gate


def fresh_render(state: State) -> dict[str, Any]:
    """What a front end is shown for ``state``, counted on a copy that shares none of its records,
    without the view's memos (``FRESH``) and with a prompt that decides every candidate (as it did
    before ``rules.allowed``)."""
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy is not state and copy.coaches[0] is not state.coaches[0]
    assert not state.records or copy.records[0] is not state.records[0]
    with contextlib.ExitStack() as unmemoised:
        unmemoised.enter_context(mock.patch.object(views, "allowed", resolves))
        for name, function in FRESH.items():
            unmemoised.enter_context(mock.patch.object(views, name, function))
        return render(copy)


class Walk:
    """A timeline and every (state, what was shown) it went through."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.timeline = Timeline(GAME)
        self.entries: list[dict[str, Any]] = []
        self.seen: list[tuple[State, dict[str, Any]]] = []
        self.fresh: dict[int, dict[str, Any]] = {}  # by state identity: an undo shows a state again
        self.step(self.timeline.plan_setup(options))

    def step(self, plan: tuple[dict[str, Any], Any]) -> None:
        entry, state = plan
        self.timeline.commit(entry, state)
        self.entries.append(entry)
        self.show(state)

    def show(self, state: State) -> None:
        self.seen.append((state, render(state)))  # before the fresh count, as Session renders it
        if id(state) not in self.fresh:
            self.fresh[id(state)] = fresh_render(state)

    def undo(self) -> None:
        self.step(self.timeline.plan_undo())

    def redo(self) -> None:
        self.step(self.timeline.plan_redo())

    def restore(self) -> None:
        """The log replayed into a new timeline, then walked back and forth."""
        self.timeline = Timeline.replay(GAME, self.entries)
        self.show(self.timeline.state)
        for _ in range(12):
            if self.timeline.can_undo:
                self.undo()
        while self.timeline.can_redo:
            self.redo()


def script_walk(name: str) -> Walk:
    lines = [json.loads(line) for line in (SCRIPTS / name).read_text().splitlines() if line.strip()]
    walk = Walk({k: v for k, v in lines[0].items() if k != "type"})
    for number, line in enumerate(lines[1:]):
        command = parse_command(json.dumps(line))
        walk.step(walk.timeline.plan_command(command))
        if number % 7 == 3:
            for kind in ("undo", "undo", "redo", "undo", "redo", "redo"):
                walk.undo() if kind == "undo" else walk.redo()
        if number % 11 == 5:  # back one, then the same command again: a new branch of new records
            walk.undo()
            walk.step(walk.timeline.plan_command(command))
    walk.restore()
    return walk


def random_walk(options: Mapping[str, Any], seed: int, steps: int = 260) -> Walk:
    """A game played by picking among the (freshly counted) prompt's choices at random, with undos
    and redos."""
    chance = random.Random(seed)
    walk = Walk(options)
    for _ in range(steps):
        state = walk.seen[-1][0]
        choices = walk.fresh[id(state)]["prompt"]["choices"]
        if state.final:
            break
        assert choices, f"seed {seed}: a state before the end offers nothing but undo"
        roll = chance.random()
        if roll < 0.06 and walk.timeline.can_undo:
            walk.undo()
        elif roll < 0.08 and walk.timeline.can_redo:
            walk.redo()
        else:
            command = chance.choice(choices)["command"]
            walk.step(walk.timeline.plan_command(parse_command(json.dumps(command))))
    walk.restore()
    return walk


@pytest.fixture(scope="module")
def walks() -> list[Walk]:
    found = [script_walk("full_game_crunch_time.jsonl"), script_walk("solo_game_crunch_time.jsonl")]
    for seed, options in enumerate([{}, {"mode": "solo", "difficulty": "goat"}, {"court": "demo"},
                                    {"mode": "solo", "difficulty": "all-star", "court": "demo"}] * 2):
        found.append(random_walk(options, seed))
    return found


def states(walks: list[Walk]) -> Iterator[State]:
    """Each state met once."""
    seen: set[int] = set()
    for walk in walks:
        for state, _ in walk.seen:
            if id(state) not in seen:
                seen.add(id(state))
                yield state


def test_every_snapshot_is_what_a_fresh_count_of_its_state_gives(walks: list[Walk]) -> None:
    count = 0
    phases: set[tuple[str, bool, bool, bool]] = set()
    for walk in walks:
        for state, shown in walk.seen:
            assert json.dumps(shown) == json.dumps(walk.fresh[id(state)]), (count, state.phase, state.current)
            phases.add((state.phase, state.solo, state.court is not None, bool(state.records)))
            count += 1
    assert count > 1000
    # Both modes, with and without a court, played to the end with scored possessions.
    assert {(p, solo, court) for p, solo, court, records in phases if records} >= {
        ("play", solo, court) for solo in (False, True) for court in (False, True)}
    assert sum(1 for p, *_ in phases if p == "final") >= 2


def test_the_prompt_builds_its_candidates_in_their_checked_form(walks: list[Walk]) -> None:
    # ``allowed`` skips the field check: every candidate the prompt judges must be what it gives.
    judged = []

    def judge(state: State, command: Mapping[str, Any]) -> bool:
        assert check(command) == command, command
        judged.append(command["type"])
        return rules.allowed(state, command)

    with mock.patch.object(views, "allowed", judge):
        for state in states(walks):
            views.prompt(state)
    assert set(judged) == {"shot_card", "zone", "star", "ai_star", "ai_reach", "score", "move", "ai_place",
                           "ai_move"}


def candidates(state: State) -> Iterator[dict[str, Any]]:
    """Commands of every kind, the ones a prompt offers and many it never would."""
    for winner in (0, 1):
        yield {"type": "tip_off", "winner": winner}
    yield {"type": "tip_off", "cards": [40, 12]}
    yield {"type": "tip_off", "cards": [7, 7]}
    yield {"type": "shot_card"}
    yield {"type": "score"}
    yield {"type": "ai_move"}
    for points in (2, 3):
        for stand in STANDS:
            yield {"type": "zone", "points": points, "stand": stand}
    yield {"type": "ai_star", "shot": None, "zone": None}
    for shot in (1, 2, 3):
        for zone in range(1, 7):
            for role in ("offence", "defence"):
                yield {"type": "star", "role": role, "shot": shot, "zone": zone}
            yield {"type": "ai_star", "shot": shot, "zone": zone}
            for answer in ("free", "no"):
                yield {"type": "ai_reach", "shot": shot, "zone": zone, "answer": answer}
            yield {"type": "ai_reach", "shot": shot, "zone": zone, "answer": "uncovers",
                   "from_shot": 1, "from_zone": zone % 3 + 1}
    if state.court is not None:
        yield {"type": "shot_card", "zones": ["V1", "Y2"]}
        for zone in state.court.ids:
            yield {"type": "zone", "zone": zone}
            yield {"type": "ai_star", "zone": zone}
            yield {"type": "ai_place", "zone": zone}
            for role in ("offence", "defence"):
                yield {"type": "star", "role": role, "zone": zone}
                yield {"type": "star", "role": role, "zone": zone, "shot": 2}
                for player in (1, 3, 5):
                    yield {"type": "move", "role": role, "player": player, "to": zone}


def test_allowed_accepts_exactly_what_decide_accepts(walks: list[Walk]) -> None:
    accepted = refused = 0
    kinds: set[str] = set()
    for state in states(walks):
        for command in candidates(state):
            try:
                checked = check(command)
            except CommandError:
                continue
            ok = resolves(state, command)
            assert rules.allowed(state, checked) == ok, (state.phase, state.current, command)
            accepted += ok
            refused += not ok
            if ok:
                kinds.add(command["type"])
    assert accepted > 2000 and refused > 50_000
    assert kinds >= {"tip_off", "shot_card", "zone", "star", "ai_star", "ai_reach", "score", "move",
                     "ai_place", "ai_move"}


def test_a_two_coach_game_refuses_every_ai_star_so_its_prompt_offers_none(walks: list[Walk]) -> None:
    # The prompt builds AI Star candidates in the solo game only: the rules refuse them elsewhere.
    two_coach = [state for state in states(walks) if not state.solo]
    assert len(two_coach) > 300
    for state in two_coach:
        for command in candidates(state):
            if command["type"] == "ai_star":
                assert not resolves(state, command), (state.phase, command)


def test_before_the_shot_cards_and_their_zones_every_star_is_refused_so_the_prompt_offers_none(
        walks: list[Walk]) -> None:
    # The prompt builds Star candidates in a two-coach game only once ``views.stars_open``.
    closed = 0
    for state in states(walks):
        fewest = rules.shot_limits(state)[0]
        if state.current is None or state.solo or views.stars_open(state.current, fewest):
            continue
        closed += 1
        for command in candidates(state):
            if command["type"] == "star":
                assert not resolves(state, command), (state.phase, state.current, command)
    assert closed > 150


def breadth_first(court: Court, start: str, end: str) -> int | None:
    """Spaces from ``start`` to ``end`` along the court's lines, searched afresh (None: no way)."""
    seen, todo = {start: 0}, [start]
    while todo:
        here = todo.pop(0)
        if here == end:
            return seen[here]
        for a, b in court.lines:
            step = b if a == here else a if b == here else None
            if step is not None and step not in seen:
                seen[step] = seen[here] + 1
                todo.append(step)
    return None


@pytest.mark.parametrize("court", [
    shipped_court("demo"),
    # Not a court a file could give (two zones no line reaches): distance must still refuse them.
    Court("islands", (("A", 2), ("B", 3), ("C", 2), ("D", 3)), (("A", "B"), ("B", "C")), ("A",)),
])
def test_a_courts_remembered_distances_are_a_fresh_search(court: Court) -> None:
    zones = [*court.ids, "nowhere"]
    for _ in range(2):  # the second time from the remembered table
        for start in zones:
            for end in zones:
                spaces = breadth_first(court, start, end)
                if spaces is None:
                    with pytest.raises(CommandError, match=f"no movement line leads from {start} to {end}"):
                        court.distance(start, end)
                else:
                    assert court.distance(start, end) == spaces, (start, end)


def test_a_zone_typed_at_the_table_is_found_as_a_scan_of_the_court_finds_it() -> None:
    court = shipped_court("demo")
    for raw in [*court.ids, *(z.lower() for z in court.ids), *(f" {z} " for z in court.ids), "V9", "", " "]:
        wanted = raw.strip().upper()
        scanned = next((zone for zone, _ in court.zones if zone.upper() == wanted), None)
        if scanned is None:
            with pytest.raises(CommandError, match="the court has no zone"):
                court.zone(raw)
        else:
            assert court.zone(raw) == scanned
