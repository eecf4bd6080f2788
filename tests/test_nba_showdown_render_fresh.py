"""NBA Showdown renders every state as a fresh count would, and its prompt's legality checks agree
with the rules.

The view, scoreboard and prompt reuse what earlier states counted (memos by the identity of the
records a command left alone, cached odds), and the prompt asks each candidate command the rules'
own checks (``rules.allowed``) instead of resolving it. Both are checked over every state a table
meets in the full-game script, with undos, redos, a command taken again after an undo, and the log
replayed into a new timeline (a restore): each rendered snapshot must be byte for byte the render of
a copy of its state (a copy shares no record with anything seen before, so no memo can answer for it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from render_walk import fresh_render as fresh_render_of
from render_walk import walk

from companion.errors import CompanionError
from companion.frozen import replace
from companion.games import find_game
from companion.games.nba_showdown import rules
from companion.games.nba_showdown.cards import POSITIONS, STATS

SCRIPT = Path(__file__).parent / "games" / "full_game_nba_showdown.jsonl"
GAME = find_game("nba-showdown")


@pytest.fixture(scope="module")
def walked() -> list[tuple[Any, dict[str, Any]]]:
    return list(walk(GAME, SCRIPT))


def fresh_render(state: Any) -> dict[str, Any]:
    return fresh_render_of(GAME, state, lambda s: s.teams[0])


def candidates(state: Any) -> Iterator[dict[str, Any]]:
    """Every command of the kinds with checks that a prompt could offer, and many it never would."""
    for side in (0, 1):
        yield {"type": "keep", "side": side}
        yield {"type": "no_double_team", "side": side}
        for position in POSITIONS:
            for card in state.team(side).cards:
                yield {"type": "place", "side": side, "position": position, "player": card.name}
            for helper in POSITIONS:
                if helper != position and state.team(side).at(helper) is not None:
                    yield {"type": "double_team", "side": side, "helped": position, "helper": helper}
            for stat in STATS:
                yield {"type": "shoot", "side": side, "position": position, "stat": stat}
    for position in POSITIONS:
        for stat in STATS:
            yield {"type": "shoot", "position": position, "stat": stat}
    for count in range(8):
        yield {"type": "assist", "count": count}


def resolves(state: Any, command: dict[str, Any]) -> bool:
    try:
        rules.resolve(state, command)
    except CompanionError:
        return False
    return True


def test_every_snapshot_is_what_a_fresh_count_of_its_state_gives(
        walked: list[tuple[Any, dict[str, Any]]]) -> None:
    stages = set()
    count = 0
    fresh: dict[int, str] = {}  # an undo shows an earlier state again: counted afresh once
    for state, shown in walked:
        if id(state) not in fresh:
            fresh[id(state)] = json.dumps(fresh_render(state))
        assert json.dumps(shown) == fresh[id(state)], (count, state.stage)
        # A roll looks for its player's line from the end, down to the first line of another quarter.
        keys = [(line.quarter, line.side, line.player) for line in state.box]
        assert [k[0] for k in keys] == sorted(k[0] for k in keys) and len(set(keys)) == len(keys)
        stages.add(state.stage)
        count += 1
    assert count > 400
    assert stages == {"placement", "double_team", "choose", "roll", "shot_check", "assist", "over"}


def test_the_checks_the_prompt_asks_accept_exactly_what_the_rules_resolve(
        walked: list[tuple[Any, dict[str, Any]]]) -> None:
    accepted = refused = 0
    seen: set[int] = set()
    for state, _ in walked:
        if id(state) in seen:
            continue
        seen.add(id(state))
        for command in candidates(state):
            ok = resolves(state, command)
            assert rules.allowed(state, command) == ok, (state.stage, command)
            accepted += ok
            refused += not ok
    assert accepted > 500 and refused > 10_000


def test_the_placement_prompt_offers_every_placement_the_rules_accept_in_playmat_order(
        walked: list[tuple[Any, dict[str, Any]]]) -> None:
    # The prompt tries only players not in yet who can play the open position: it must offer what
    # resolving every open position with every card (and keeping the lineup) accepts, in that order.
    placements = 0
    for state, shown in walked:
        if state.stage != "placement":
            continue
        side, team = state.acting, state.team(state.acting)
        every = [{"type": "keep", "side": side}] + [
            {"type": "place", "side": side, "position": position, "player": card.name}
            for position in POSITIONS if team.at(position) is None for card in team.cards]
        assert [c["command"] for c in shown["prompt"]["choices"]] == [c for c in every if resolves(state, c)]
        placements += 1
    assert placements > 20


def test_the_shoot_check_refuses_a_roller_without_a_defender_as_the_rules_do() -> None:
    # The script never leaves a position empty once the rolls start (the matchup reads the defender):
    # make one on a copy.
    options = {k: v for k, v in json.loads(SCRIPT.read_text().splitlines()[0]).items() if k != "type"}
    state = replace(GAME.setup({**options, "quick_play": True}), stage="choose", acting=0)
    other = state.team(1)
    state = state.with_team(1, replace(other, lineup=(None, *other.lineup[1:])))
    for stat in STATS:
        shot = {"type": "shoot", "position": "PG", "stat": stat}
        assert not rules.allowed(state, shot) and not resolves(state, shot)
        shot = {"type": "shoot", "position": "SG", "stat": stat}
        assert rules.allowed(state, shot) and resolves(state, shot)


def test_the_choose_prompt_offers_every_shot_the_rules_accept_in_playmat_order(
        walked: list[tuple[Any, dict[str, Any]]]) -> None:
    # In the choose stage the prompt offers its players without asking the rules of each shot: it
    # must offer exactly the shots that resolving every position with both stats accepts.
    chooses = 0
    for state, shown in walked:
        if state.stage != "choose":
            continue
        every = [{"type": "shoot", "position": position, "stat": stat}
                 for position in POSITIONS for stat in STATS]
        assert [c["command"] for c in shown["prompt"]["choices"]] == [c for c in every if resolves(state, c)]
        chooses += 1
    assert chooses > 60


def test_a_players_panel_stepped_from_the_last_one_is_the_panel_counted_afresh() -> None:
    # The script moves a player's markers only with his line or his rolled flag: step a panel by
    # each input alone (markers on and off, a player rolled, a line, a line gone (an undo), a new
    # quarter's empty used).
    from companion.games.nba_showdown import boxscore, shipped_roster

    cards = shipped_roster("demo-comets").cards
    lineup = tuple(card.name for card in cards[:5])
    first, second = cards[0].name, cards[6].name
    line, other_line = (2, 1, 0, 1, 1, 0, 0, 0, 0), (3, 0, 0, 0, 0, 0, 0, 0, 0)
    steps = [((), (), {}), (((first, 1),), (), {}), (((first, 1), (second, -2)), (), {}),
             (((second, -2),), (first,), {}), (((second, -2),), (first,), {first: line}),
             ((), (first, second), {first: line, second: other_line}), ((), (first, second), {first: line}),
             ((), (), {first: line}), (((first, 2),), (), {})]
    for markers, used, sums in steps:
        stepped = boxscore._count_players(cards, lineup, markers, used, sums)
        boxscore._last_panel.clear()
        assert stepped == boxscore._count_players(cards, lineup, markers, used, sums), (markers, used, sums)


def test_a_sides_offers_stepped_from_its_last_ones_are_the_offers_counted_afresh() -> None:
    # The script moves a player's markers only when he rolls: step a side's offers by each input
    # alone (a player rolled, an unrolled player's markers, the other side's double-team and lineup,
    # markers off, a new quarter's empty used) and hold each to the offers counted with no last ones.
    from companion.games.nba_showdown import views

    options = {k: v for k, v in json.loads(SCRIPT.read_text().splitlines()[0]).items() if k != "type"}
    start = GAME.setup(options)
    mine, theirs = (replace(t, lineup=tuple(card.name for card in t.cards[:5])) for t in start.teams)
    start = replace(start, stage="choose", acting=0, teams=(mine, theirs))
    first, second = mine.lineup[0], mine.lineup[1]
    assert first is not None and second is not None and start.rules.hot_cold
    steps = [(mine, theirs, start.rules),
             (replace(mine, used=(first,)), theirs, start.rules),
             (replace(mine, used=(first,), markers=((first, 1),)), theirs, start.rules),
             (replace(mine, used=(first,), markers=((first, 1), (second, 2))), theirs, start.rules),
             (replace(mine, used=(first,), markers=((second, -1),)), theirs, start.rules),
             (replace(mine, used=(first,), markers=((second, -1),)),
              replace(theirs, double_team=("PG", "SG")), start.rules),
             (replace(mine, used=(first,), markers=((second, -1),)),
              replace(theirs, lineup=(*theirs.lineup[1:], theirs.lineup[0])), start.rules),
             (replace(mine, used=(first,), markers=((second, -1),)), theirs,
              replace(start.rules, hot_cold=False)),
             (replace(mine, used=(first, second), markers=((second, -1),)), theirs, start.rules),
             (replace(mine, markers=((second, -1),)), theirs, start.rules)]
    for team, other_team, rules_on in steps:
        state = replace(start, teams=(team, other_team), rules=rules_on)
        stepped = views._count_offers(state)
        last = list(views._last_offers)
        views._last_offers[:] = [None, None]
        assert stepped == views._count_offers(state), (team.used, team.markers, other_team.double_team)
        views._last_offers[:] = last


def test_a_sides_box_rows_stepped_from_the_last_ones_are_the_rows_counted_afresh() -> None:
    # The script's box score only changes a player's line or adds one last: step a side's rows by
    # other changes too (players in another order, one gone, two changed) and hold each to the rows
    # counted with no last ones.
    from companion.games.nba_showdown import boxscore

    ann, bo, cy = (2, 1, 0, 1, 1, 0, 0, 0, 0), (3, 0, 1, 1, 1, 1, 1, 0, 0), (0, 0, 2, 0, 1, 0, 0, 0, 0)
    more = (4, 1, 0, 2, 2, 0, 0, 0, 0)
    steps: list[dict[str, tuple[int, ...]]] = [
        {}, {"Ann": ann}, {"Ann": ann, "Bo": bo}, {"Ann": more, "Bo": bo}, {"Bo": bo, "Ann": more},
        {"Bo": bo, "Ann": more, "Cy": cy}, {"Bo": bo, "Cy": cy}, {"Bo": ann, "Cy": bo}, {"Bo": ann, "Cy": bo},
        {"Ann": more}, {"Ann": ann, "Bo": cy}, {}]
    for side in (0, 1):
        for sums in steps:
            stepped = boxscore._count_side_rows(side, "Comets", sums)
            last = list(boxscore._last_rows)
            boxscore._last_rows[:] = [None, None]
            assert stepped == boxscore._count_side_rows(side, "Comets", sums), (side, sums)
            boxscore._last_rows[:] = last


def test_a_box_line_shows_its_own_splits(walked: list[tuple[Any, dict[str, Any]]]) -> None:
    # A line's splits are written from the few values already written (shared with the box score
    # rows): the same words as the line's own ``Splits``.
    from companion.games.nba_showdown import boxscore

    lines = {line for state, _ in walked for line in state.box}
    assert any(line.splits.fga for line in lines) and any(line.splits.fta for line in lines)
    for line in lines:
        assert json.dumps(boxscore._box_line_json(line)) == json.dumps(
            {"side": line.side, "player": line.player, "quarter": line.quarter, "pts": line.pts,
             "ast": line.ast, "reb": line.reb, **line.splits.to_json()})


def test_a_sides_view_shows_each_field_a_command_can_move_alone() -> None:
    # In the script a strategy card moves the hand and the cards played together, and a roll the
    # markers, assists and who rolled: move each field of a side alone and hold its view to the
    # view of a copy that shares no record (no memo can answer for it).
    import pickle

    from companion.games.nba_showdown import views

    options = {k: v for k, v in json.loads(SCRIPT.read_text().splitlines()[0]).items() if k != "type"}
    team = GAME.setup(options).team(0)
    team = replace(team, lineup=tuple(card.name for card in team.cards[:5]))
    first, second = team.lineup[0], team.lineup[1]
    assert first is not None and second is not None
    changes: list[dict[str, Any]] = [
        {}, {"hand": team.hand + 1}, {"hand": team.hand + 2}, {"played": (team.deck[0][0],)},
        {"deck_left": team.deck_left + 3}, {"markers": ((first, 1),)}, {"used": (first,)}, {"assists": 4},
        {"double_team": ("PG", "SG")}, {"lineup": (second, first, *team.lineup[2:])}, {"hand": 0}]
    for change in changes:
        team = replace(team, **change)
        copy = pickle.loads(pickle.dumps(team))
        assert copy.cards is not team.cards
        assert json.dumps(views._count_side(team, [])) == json.dumps(views._count_side(copy, [])), change


def test_the_scoreboard_is_the_record_its_constructor_gives(walked: list[tuple[Any, dict[str, Any]]]) -> None:
    # The scoreboard is a copy of one board with the state's fields put in (``replace``): every
    # field the copy does not set must be the constructor's own.
    from companion.board import ScoreboardView
    from companion.games.nba_showdown import views

    for state, _ in walked:
        board = views.scoreboard(state)
        built = ScoreboardView(
            game="nba-showdown", title="NBA Showdown", sides=board.sides, period=board.period,
            clock=board.clock, possession=board.possession, target=board.target,
            target_text=board.target_text, message=board.message, final=board.final,
            period_over=board.period_over)
        assert type(board) is ScoreboardView and vars(board) == vars(built)
