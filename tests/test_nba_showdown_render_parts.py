"""NBA Showdown's renders that step from the last one hold to a fresh count in any order of states.

The view and the scoreboard's sides take the parts of the last state rendered whose fields are the
same objects (``views._last_view``, ``views._last_board``), and the box score's rows and the players'
panel step for the one player a box-score step changed (``boxscore.sums_parent``). Each of these
keeps a single last value: a state rendered after one of another branch (an undo, a restore, the
other timeline of a test) must not take a part of it that its own fields would not give. Here the
states of the full-game walk are rendered in a shuffled order, after a state of the same lineage
and after one of another, and each render is held to the render of a copy that shares no record.

Snapshots pickle cards and box lines as their fields in order (``Card.__reduce__``,
``BoxLine.__reduce__``): a state loaded back is equal and renders the same.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from render_walk import fresh_render as fresh_render_of
from render_walk import render, walk

from companion.frozen import replace
from companion.games import find_game
from companion.games.nba_showdown import boxscore, views
from companion.games.nba_showdown.model import BoxLine
from companion.games.nba_showdown.rosters import shipped_roster

SCRIPT = Path(__file__).parent / "games" / "full_game_nba_showdown.jsonl"
GAME = find_game("nba-showdown")


@pytest.fixture(scope="module")
def states() -> list[Any]:
    found: list[Any] = []
    seen: set[int] = set()
    for state, _ in walk(GAME, SCRIPT):
        if id(state) not in seen:
            seen.add(id(state))
            found.append(state)
    return found


def forget_last_renders() -> None:
    """Empty the one-slot memos that step from the last render, so the next render counts afresh
    (a copy shares no record, but a slot's part taken by a wrong check would be taken for it too)."""
    views._last_view[0] = (views._NoState, {}, None)
    views._last_board[0] = (views._NoState, None, ())  # type: ignore[assignment]
    boxscore._latest = ((), ({}, {}))
    boxscore._last_rows[:] = [None, None]
    boxscore._last_panel.clear()
    boxscore._SUMS_PARENTS.clear()


def fresh(state: Any) -> str:
    forget_last_renders()
    shown = fresh_render_of(GAME, state, lambda s: s.teams[0])
    # Held to what the state says, not only to another render: the box score as its lines count it.
    sums = boxscore.count_sides(state.box)
    assert len(shown["view"]["box"]) == len(state.box)
    assert [(row["player"], row["pts"]) for row in shown["view"]["box_totals"]] == [
        (player, numbers[0]) for side in sums for player, numbers in side.items()]
    assert [side["score"] for side in shown["scoreboard"]["sides"]] == list(state.score)
    return json.dumps(shown)


def test_states_rendered_in_a_shuffled_order_render_as_a_fresh_count(states: list[Any]) -> None:
    # Any two states in a row: the last view's parts, sides and stepped rows are of another state.
    order = list(states)
    random.Random(15).shuffle(order)
    expected = {id(state): fresh(state) for state in states}
    for state in order:
        assert json.dumps(render(GAME, state)) == expected[id(state)], (state.stage, state.quarter)


def test_a_state_rendered_after_its_next_one_and_again_renders_as_a_fresh_count(states: list[Any]) -> None:
    # Backwards (an undo walk), then each state right after its successor and again after itself.
    expected = {id(state): fresh(state) for state in states}
    for state in reversed(states):
        assert json.dumps(render(GAME, state)) == expected[id(state)]
    for before, after in zip(states, states[1:], strict=False):
        assert json.dumps(render(GAME, after)) == expected[id(after)]
        assert json.dumps(render(GAME, before)) == expected[id(before)]
        assert json.dumps(render(GAME, before)) == expected[id(before)]


def test_a_state_with_one_field_changed_is_not_shown_the_last_ones_part(states: list[Any]) -> None:
    # Each field the view or the scoreboard takes from the last state rendered, changed alone on a
    # copy rendered right after the state itself: the changed part must be counted, not taken.
    state = next(s for s in states if s.stage == "choose" and s.quarter > 1 and s.box and s.rebound)
    first, second = state.teams
    changes = [
        {"score": (state.score[0] + 3, state.score[1])},
        {"quarter_points": (state.quarter_points[0], state.quarter_points[1] + 2)},
        {"quarter_scores": state.quarter_scores[:-1]},
        {"rebound_awards": ((9, 9), *state.rebound_awards)},
        {"rebound": -state.rebound},
        {"rebound_points": (*state.rebound_points[:-1], 7)},
        {"flow": state.flow[:-1]},
        {"box": state.box[:-1]},
        {"quarter": state.quarter + 1},
        {"rules": replace(state.rules, hot_cold=not state.rules.hot_cold)},
        {"teams": (replace(first, name="Renamed"), second)},
        {"teams": (first, replace(second, assists=second.assists + 1))},
        {"teams": (replace(first, markers=()), second)},
        {"teams": (replace(first, used=first.used[:-1]), second)},
        {"teams": (replace(first, hand=first.hand + 1), second)},
        {"teams": (replace(first, deck_left=first.deck_left + 1), second)},
        {"teams": (first, replace(second, played=(*second.played, "Extra")))},
        {"teams": (first, replace(second, double_team=("PG", "SG")))},
        {"teams": (first, replace(second, lineup=(None, *second.lineup[1:])))},
        {"teams": (replace(first, deck=()), second)},
        {"acting": 1 - state.acting},
    ]
    for change in changes:
        changed = replace(state, **change)
        render(GAME, state)
        assert json.dumps(render(GAME, changed)) == fresh(changed), sorted(change)


def test_the_box_score_steps_for_the_one_player_a_line_changed_and_holds_to_a_fresh_count() -> None:
    ann, bo = BoxLine(0, "Ann", 1, pts=2), BoxLine(1, "Bo", 1, pts=3)
    box = (ann, bo)
    stepped = (replace(ann, pts=5), bo)
    first = boxscore._sides(box)
    second = boxscore._sides(stepped)
    assert boxscore.sums_parent(second[0]) == (first[0], "Ann")  # what the rows and panel step from
    assert second[1] is first[1]  # the other side's sums are kept
    added = (*stepped, BoxLine(0, "Cy", 2, ast=1))
    third = boxscore._sides(added)
    assert boxscore.sums_parent(third[0]) == (second[0], "Cy")
    for each in (box, stepped, added, box, added, stepped):
        shown = boxscore.box_views(each, "Home", "Away")
        copy = pickle.loads(pickle.dumps(each))  # new records: no memo answers for them
        assert shown == boxscore.box_views(copy, "Home", "Away")
        sides = boxscore.count_sides(each)
        totals = [row for row in shown[1] if row["side"] == 0]
        assert [(row["player"], row["pts"], row["ast"]) for row in totals] == [
            (player, numbers[0], numbers[1]) for player, numbers in sides[0].items()]
        assert shown[2][len(sides[0])]["pts"] == sum(numbers[0] for numbers in sides[0].values())


def test_cards_and_box_lines_pickle_as_their_fields_and_load_equal() -> None:
    card = shipped_roster("demo-comets").cards[0]
    loaded = pickle.loads(pickle.dumps(card, protocol=pickle.HIGHEST_PROTOCOL))
    assert loaded == card and loaded is not card and loaded.chart == card.chart
    line = replace(BoxLine(1, "Bo", 3, pts=4, ast=1, reb=2), splits=BoxLine(0, "x", 1).splits.shot(3, True))
    assert pickle.loads(pickle.dumps(line, protocol=pickle.HIGHEST_PROTOCOL)) == line


def test_a_state_loaded_from_its_pickle_is_equal_and_renders_the_same(states: list[Any]) -> None:
    for state in states[::9]:
        loaded = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        assert loaded == state and loaded.teams[0].cards[0] is not state.teams[0].cards[0]
        assert json.dumps(render(GAME, loaded)) == json.dumps(render(GAME, state))


def test_a_lookup_made_from_the_d20s_chances_gives_the_engines_outcomes() -> None:
    # ``odds.lookup_from`` keeps the chances it was made from, and its outcomes on the d20 are read
    # from them: they must be what the engine's ``Lookup`` counts from the rows alone.
    from companion.dice import D20
    from companion.games.nba_showdown import odds
    from companion.success import Lookup

    checked = 0
    for name in ("demo-comets", "demo-lanterns"):
        for card in shipped_roster(name).cards:
            for modifier in range(-8, 18):
                made = odds.chart_lookup(card, modifier)
                assert made.__dict__.get("_chances") is not None  # the fast way is the one checked
                assert made.outcomes(D20) == Lookup(made.rows).outcomes(D20)
                stat = odds.stat_odds(card, "speed", max(0, modifier), min(0, modifier))
                assert stat.lookup.outcomes(D20) == Lookup(stat.lookup.rows).outcomes(D20)
                checked += 1
    assert checked > 300


def test_chances_counted_on_another_die_never_answer_for_the_d20() -> None:
    # ``lookup_from``'s ``die`` defaults to the d20 (``StatOdds.lookup`` passes none): chances counted
    # on another die's faces must not be read as the d20's, and a whole number's odds still print.
    from companion.dice import D6, D20
    from companion.games.nba_showdown import odds
    from companion.success import Lookup

    card = shipped_roster("demo-comets").cards[0]
    on_d6 = odds.lookup_from(odds.row_chances(card, 3, D6))
    assert on_d6.__dict__.get("_chances") is None
    assert on_d6.outcomes(D20) == Lookup(on_d6.rows).outcomes(D20)
    assert odds.stat_odds(card, "speed", 3, 0, die=D6).lookup.__dict__.get("_chances") is None
    assert odds._float(1) == 1.0 and odds._float(odds.Fraction(1, 4)) == 0.25
