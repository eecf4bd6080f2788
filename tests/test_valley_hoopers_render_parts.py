"""Valley Hoopers' records built without their ``__init__`` and its render parts kept by what they read
are the ones built and counted afresh.

``tests/test_render_memos.py`` holds the whole view, scoreboard and prompt to counting afresh; these
hold each part to its plain counterpart on values the full-game script never meets (a missed free
throw in a team's line, every target a scoreboard can show).
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.games import find_game
from companion.games.valley_hoopers import splits as vh_splits
from companion.games.valley_hoopers import views as vh_views
from companion.games.valley_hoopers.model import Pending, new_pending
from companion.session import parse_command
from companion.splits import Splits, total
from companion.success import AtMost

GAMES_DIR = Path(__file__).parent / "games"


def states(script: str) -> Iterator[Any]:
    game = find_game("valley-hoopers")
    lines = [json.loads(line) for line in (GAMES_DIR / script).read_text().splitlines() if line.strip()]
    state = game.setup({k: v for k, v in lines[0].items() if k != "type"})
    yield state
    for line in lines[1:]:
        state, _ = game.run(state, parse_command(json.dumps(line)))
        yield state


def test_a_team_line_is_the_total_of_its_hoopers_lines() -> None:
    rng = random.Random(15)
    for _ in range(300):
        lines = [Splits(*(rng.randrange(0, 9) for _ in range(6))) for _ in range(rng.randrange(0, 9))]
        added = Splits()
        for line in lines:
            added = added + line  # the records' own sum
        assert total(lines) == vh_splits._team_splits(*lines) == added
    # The remembered line is the one counted for these very records.
    lines = [Splits(1, 2, 0, 1, 3, 4), Splits(0, 1, 0, 0, 1, 2)]
    assert vh_splits._team_splits(*lines) == Splits(1, 3, 0, 1, 4, 6)


def test_the_scoreboard_target_words_are_the_rule_s_words() -> None:
    for value in range(-40, 200):
        assert vh_views._at_most_words(value) == AtMost(value).words
    game = find_game("valley-hoopers")
    shown = 0
    for state in states("full_game_valley_hoopers.jsonl"):
        target = vh_views._pending_target(state)
        board = game.scoreboard(state)
        assert board.target_text == ("" if target is None else AtMost(target.value).words)
        shown += target is not None
    assert shown > 100


def test_a_pending_record_built_from_the_defaults_is_the_one_its_class_builds() -> None:
    assert new_pending("play", 1) == Pending(kind="play", side=1)
    fields = {"action": "2PS", "hooper": "Muy Schillato", "other": "Chus Kinder", "points": 2,
              "upgrade": ("x", 5), "after_score": True, "free_throws": 2}
    built, plain = new_pending("attack_roll", 0, **fields), Pending(kind="attack_roll", side=0, **fields)
    assert built == plain and vars(built) == vars(plain) and type(built) is Pending
    # The defaults it is filled from are never changed by it.
    assert new_pending("play", 0) == Pending(kind="play", side=0)
    for state in states("full_game_valley_hoopers.jsonl"):
        pending = state.pending
        assert pending == Pending(**{f.name: getattr(pending, f.name) for f in dataclasses.fields(Pending)})


def test_a_side_s_index_made_from_the_tuple_it_came_from_is_the_one_counted_afresh() -> None:
    from companion.frozen import by_lower_name
    from companion.games.valley_hoopers.setup_options import example_options, setup

    side = setup(example_options()).side(0)
    first, second = side.hoopers[0], side.hoopers[1]
    # Two records of one name told apart only by case: the index holds the first of them.
    twins = dataclasses.replace(side, hoopers=(first, dataclasses.replace(second, name=first.name.upper()),
                                               *side.hoopers[2:]))
    assert twins.hooper(first.name) is first
    for changed in (dataclasses.replace(twins.hoopers[1], energy=1), dataclasses.replace(first, energy=1),
                    dataclasses.replace(side.hoopers[3], energy=1),
                    dataclasses.replace(first, name="Nobody Here")):
        after = twins.with_hooper(changed)
        assert after.hoopers == tuple(changed if h.name == changed.name else h for h in twins.hoopers)
        fresh = by_lower_name(after.hoopers)
        for h in after.hoopers:
            assert after.hooper(h.name) is fresh[h.name.lower()]
        # And again from that tuple (its index was made from the one before).
        again = after.with_hooper(dataclasses.replace(changed, red=1))
        fresh = by_lower_name(again.hoopers)
        for h in again.hoopers:
            assert again.hooper(h.name.lower()) is fresh[h.name.lower()]


def test_the_foul_die_is_one_die_per_count_of_blanks_with_the_faces_and_labels_of_a_new_one() -> None:
    from companion.dice import Die
    from companion.games.valley_hoopers.dice import FOUL_FACE_LABELS, foul_die

    for blanks in range(4):
        fresh = Die("d8foul", "d8 foul die", ("whistle", "whistle2", "whistle3", "charge", "jumpball")
                    + ("blank",) * blanks, FOUL_FACE_LABELS)
        kept = foul_die(blanks)
        assert kept is foul_die(blanks)
        assert (kept.name, kept.title, kept.faces, dict(kept.labels)) == (
            fresh.name, fresh.title, fresh.faces, dict(fresh.labels))
        assert len(kept.faces) == 5 + blanks


def test_the_prompt_s_roll_is_the_one_built_afresh_for_its_die_and_target() -> None:
    from companion.games.valley_hoopers.rules import expected_die
    from companion.success import RollInfo

    game = find_game("valley-hoopers")
    dice = set()
    for state in states("full_game_valley_hoopers.jsonl"):
        prompt = game.prompt(state)
        die = None if state.final or state.decisions else expected_die(state)
        target = vh_views._pending_target(state) if die is not None else None
        fresh = None if die is None else RollInfo(
            die, None if target is None else AtMost(target.value, gives="success", misses="miss"))
        assert prompt.roll == fresh
        if fresh is not None:
            assert prompt.roll is not None and prompt.roll.die is die
            assert prompt.to_json()["face_marks"] == fresh.face_marks()
            dice.add((die.name, target is None))
    # The d20 against a target, the foul die with and without one (a defense's foul check shows the
    # attack's target, a screen's none).
    assert {("d20x5", False), ("d8foul", False), ("d8foul", True)} <= dice


def test_a_scoreboard_side_kept_by_what_it_reads_is_the_one_counted_afresh() -> None:
    game = find_game("valley-hoopers")
    seen = 0
    for n, state in enumerate(states("full_game_valley_hoopers.jsonl")):
        assert game.scoreboard(state).sides == tuple(vh_views._count_side_view(state, i) for i in (0, 1))
        if n % 7:
            continue
        # What the view reads, each varied on the records the script meets (the script changes a
        # side's timeouts and coach tokens together, its name never).
        side = state.sides[0]
        for varied in (dataclasses.replace(side, timeouts=side.timeouts + 1),
                       dataclasses.replace(side, coach_tokens=side.coach_tokens + 1),
                       dataclasses.replace(side, name=side.name + " B")):
            moved = dataclasses.replace(state, sides=(varied, state.sides[1]))
            assert game.scoreboard(moved).sides == tuple(vh_views._count_side_view(moved, i) for i in (0, 1))
            seen += 1
        for moved in (dataclasses.replace(state, team_fouls=(state.team_fouls[0] + 1, state.team_fouls[1])),
                      dataclasses.replace(state, score=(state.score[0], state.score[1] + 2)),
                      dataclasses.replace(state, final=not state.final)):
            assert game.scoreboard(moved).sides == tuple(vh_views._count_side_view(moved, i) for i in (0, 1))
    assert seen > 100


def test_box_score_rows_and_hooper_json_follow_the_side_s_name_and_records() -> None:
    from companion.games.valley_hoopers.model import Hooper

    game = find_game("valley-hoopers")
    checked = 0
    for n, state in enumerate(states("full_game_valley_hoopers.jsonl")):
        if n % 11:
            continue
        # The same hooper records under a renamed side: its rows carry the new name.
        renamed = dataclasses.replace(state.sides[1], name=state.sides[1].name + " II")
        for shown in (state, dataclasses.replace(state, sides=(state.sides[0], renamed))):
            view = game.view(shown)
            rows = [vh_splits._hooper_row(side.name, h) for side in shown.sides for h in side.hoopers]
            assert [r for r in view["box_score"] if not r.get("total")] == rows
            assert [r["points"] for r in view["box_score"] if r.get("total")] == [
                sum(h.points for h in side.hoopers) for side in shown.sides]
            assert [s["hoopers"] for s in view["sides"]] == [
                [Hooper.to_json(h) for h in side.hoopers] for side in shown.sides]
            checked += 1
    assert checked > 50


def test_with_hooper_replaces_every_record_of_the_name_and_only_those() -> None:
    from companion.games.valley_hoopers.setup_options import example_options, setup

    side = setup(example_options()).side(0)
    first, second = side.hoopers[0], side.hoopers[1]
    same_name = dataclasses.replace(side, hoopers=(first, dataclasses.replace(second, name=first.name),
                                                   *side.hoopers[2:]))
    for base in (side, same_name):
        for changed in (dataclasses.replace(first, energy=1), dataclasses.replace(side.hoopers[-1], red=2),
                        dataclasses.replace(first, name="Nobody Here")):
            after = base.with_hooper(changed)
            assert after.hoopers == tuple(changed if h.name == changed.name else h for h in base.hoopers)
            kept = zip(after.hoopers, base.hoopers, strict=True)
            assert all(a is b for a, b in kept if b.name != changed.name)
    assert same_name.with_hooper(dataclasses.replace(first, energy=1)).hoopers[1].energy == 1


def test_a_hooper_s_stat_is_the_one_counted_from_its_pairs() -> None:
    from companion.games.valley_hoopers.model import STATS

    seen: set[int] = set()
    checked = 0
    for state in states("full_game_valley_hoopers.jsonl"):
        for hooper in (h for side in state.sides for h in side.hoopers):
            if id(hooper) in seen:
                continue
            seen.add(id(hooper))
            bonuses = (("D2", 10), ("3PS", 5), ("D2", 15))
            for varied in (hooper, dataclasses.replace(hooper, stat_bonus=bonuses),
                           dataclasses.replace(hooper, stats=(*hooper.stats, ("LUP", None))),
                           dataclasses.replace(hooper, stats=(("2PS", 40),))):
                for name in (*STATS, "X9"):
                    assert varied.stat(name) == varied._count_stat(name), (varied, name)
                    checked += 1
                assert varied.to_json()["stats"] == {s: varied._count_stat(s) for s in STATS}
    assert checked > 1000


def test_a_recovery_that_changes_no_energy_keeps_the_state_and_one_that_does_recovers() -> None:
    # A full hooper's record stays the same object (so its JSON, its row and its side's JSON are not
    # written again); a tired one recovers as the rules say.
    from companion.games.valley_hoopers.demo import DEMO_SETUP
    from companion.games.valley_hoopers.hooper_ops import recover, recover_to
    from companion.games.valley_hoopers.setup_options import setup

    state = setup(json.loads(DEMO_SETUP.read_text()))
    hooper = state.side(0).hoopers[0]
    assert hooper.energy is not None and hooper.energy == hooper.max_energy
    assert recover(state, 0, hooper.name) is state
    assert recover_to(state, 0, hooper.name, 1) is state
    tired = state.with_hooper(0, dataclasses.replace(hooper, energy=hooper.energy - 2))
    assert recover(tired, 0, hooper.name).side(0).hooper(hooper.name).energy == hooper.energy - 1
    assert recover(tired, 0, hooper.name, 5).side(0).hooper(hooper.name).energy == hooper.energy
    assert recover_to(tired, 0, hooper.name, 1).side(0).hooper(hooper.name).energy == hooper.energy - 1
    assert recover_to(tired, 0, hooper.name, 3).side(0).hooper(hooper.name) is \
        tired.side(0).hooper(hooper.name)


def test_a_record_s_parent_is_the_one_it_was_made_from_by_that_one_change_only() -> None:
    # The view and the box score copy a parent's JSON and change one part: a record made any other way
    # must name no parent.
    import doctest

    from companion.games.valley_hoopers import record_parents
    from companion.games.valley_hoopers.demo import DEMO_SETUP
    from companion.games.valley_hoopers.record_parents import energy_parent, side_parent, with_energy
    from companion.games.valley_hoopers.setup_options import setup

    assert doctest.testmod(record_parents).failed == 0
    side = setup(json.loads(DEMO_SETUP.read_text())).side(0)
    hooper = side.hoopers[2]
    assert hooper.energy is not None
    tired = with_energy(hooper, hooper.energy - 1)
    assert tired == dataclasses.replace(hooper, energy=hooper.energy - 1)
    assert energy_parent(tired) is hooper
    assert energy_parent(dataclasses.replace(tired, red=1)) is None
    assert energy_parent(hooper) is None
    changed = side.with_hooper(tired)
    assert side_parent(changed) == (side, 2)
    assert changed == dataclasses.replace(side, hoopers=(*side.hoopers[:2], tired, *side.hoopers[3:]))
    assert side_parent(dataclasses.replace(changed, timeouts=0)) is None
    # Two records of the name: both are replaced, so the side names no parent.
    twins = dataclasses.replace(side, hoopers=(*side.hoopers, dataclasses.replace(hooper, court=None)))
    assert side_parent(twins.with_hooper(tired)) is None


def _fresh_box_score(state: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for side in state.sides:
        rows += [vh_splits._hooper_row(side.name, h) for h in side.hoopers]
        rows.append({"side": side.name, "name": "Team total", "total": True,
                     "points": sum(h.points for h in side.hoopers), "red": sum(h.red for h in side.hoopers),
                     **total(h.splits for h in side.hoopers).to_json()})
    return rows


def test_a_side_whose_only_change_is_one_hooper_s_points_gets_a_new_team_line() -> None:
    # No rule scores without another change to the record today (a shot moves the splits, a chip is
    # spent first); a side copied from its parent must still count the team line again if one does.
    game = find_game("valley-hoopers")
    checked = 0
    for n, state in enumerate(states("full_game_valley_hoopers.jsonl")):
        if n % 25:
            continue
        game.view(state)  # the parent's rows and JSON are remembered
        hooper = state.sides[0].hoopers[n % len(state.sides[0].hoopers)]
        scored = state.with_hooper(0, dataclasses.replace(hooper, points=hooper.points + 2))
        view = game.view(scored)
        assert view["box_score"] == _fresh_box_score(scored)
        assert view["sides"] == [vh_views._count_side_json(s) for s in scored.sides]
        checked += 1
    assert checked > 10


def test_views_after_undo_redo_and_a_restore_are_the_ones_a_new_copy_gives() -> None:
    # What is copied from a parent record or side (record_parents) reaches undone, redone (rebuilt from
    # the events) and unpickled states too: each view equals the one of a copy sharing no record.
    game = find_game("valley-hoopers")
    lines = [json.loads(line) for line in (GAMES_DIR / "full_game_valley_hoopers.jsonl").read_text()
             .splitlines() if line.strip()]
    state = game.setup({k: v for k, v in lines[0].items() if k != "type"})
    walk = [state]
    for number, line in enumerate(lines[1:]):
        after, events = game.run(state, parse_command(json.dumps(line)))
        walk.append(after)
        if number % 5 == 4:
            walk.append(state)  # undo: the state before, the same object
            for event in events:  # redo: rebuilt from the events
                state = game.apply(state, event)
            walk.append(state)
            after = state
        if number % 40 == 20:  # a restore: the state unpickled, then played on from there
            after = pickle.loads(pickle.dumps(after))
            walk.append(after)
        state = after
    for shown in walk:
        copy = pickle.loads(pickle.dumps(shown))
        assert game.view(shown) == game.view(copy)
    assert len(walk) > 450
