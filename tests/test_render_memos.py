"""What a render counts once per state (by the state's identity) is what counting it again gives.

Each memo below is checked on every state of a full game, in the order a table meets them (the
prompt, then the scoreboard and the view, then the next command), against the function it wraps.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.dice import Die
from companion.errors import RuleError
from companion.game import Choice, Game
from companion.games import find_game
from companion.games.nba_showdown import boxscore as nba_box
from companion.games.nba_showdown import views as nba_views
from companion.games.valley_hoopers import rules as vh_rules
from companion.games.valley_hoopers import shots as vh_shots
from companion.games.valley_hoopers import splits as vh_splits
from companion.games.valley_hoopers import targets as vh_targets
from companion.games.valley_hoopers import views as vh_views
from companion.games.valley_hoopers.model import STATS, Hooper
from companion.games.valley_hoopers.targets import chance
from companion.session import parse_command
from companion.splits import total
from companion.success import AtMost, RollInfo

GAMES_DIR = Path(__file__).parent / "games"


def states(game: Game, script: str) -> Iterator[Any]:
    lines = [json.loads(line) for line in (GAMES_DIR / script).read_text().splitlines() if line.strip()]
    state = game.setup({k: v for k, v in lines[0].items() if k != "type"})
    for line in lines[1:]:
        game.prompt(state)
        yield state
        state, _ = game.run(state, parse_command(json.dumps(line)))
    yield state


def test_valley_hoopers_pending_target_is_the_one_counted_afresh() -> None:
    game = find_game("valley-hoopers")
    seen = attacks = 0
    for state in states(game, "full_game_valley_hoopers.jsonl"):
        board = game.scoreboard(state)
        assert vh_views.pending_target(state) == vh_views._pending_target(state)
        try:  # the attack's target is remembered by the state too
            assert vh_shots.attack_target_now(state) == vh_shots.attack_target_now.__wrapped__(state)
            attacks += 1
        except RuleError:
            pass  # no attack being resolved in this state
        # Each side's view is remembered by the side record, the score, the fouls and the possession.
        assert board.sides == tuple(vh_views._count_side_view(state, i) for i in (0, 1))
        # The script changes a score only with the side's record (a hooper's points): a score moved on
        # the same records must still show.
        moved = dataclasses.replace(state, score=(state.score[0] + 1, state.score[1]))
        assert game.scoreboard(moved).sides == tuple(vh_views._count_side_view(moved, i) for i in (0, 1))
        seen += vh_views.pending_target(state) is not None
    assert seen > 100  # the script awaits many d20 rolls
    assert attacks > 100


def test_valley_hoopers_sides_box_score_and_odds_are_the_ones_counted_afresh() -> None:
    game = find_game("valley-hoopers")
    odds = 0
    for state in states(game, "full_game_valley_hoopers.jsonl"):
        view = game.view(state)
        assert view["sides"] == [vh_views._count_side_json(s) for s in state.sides]
        for shown, side in zip(view["sides"], state.sides, strict=True):
            # A hooper's JSON is remembered by the record, its stats and splits cells by the tuples and
            # record they read.
            assert shown["hoopers"] == [Hooper.to_json(h) for h in side.hoopers]
            # The action upgrade cards' JSON is remembered by the side's tuple of cards.
            assert shown["action_upgrades"] == [c.to_json() for c in side.action_upgrades]
            for hooper in side.hoopers:
                assert hooper.to_json()["stats"] == {s: hooper.stat(s) for s in STATS}
                assert vh_splits.splits_json(hooper.splits) == hooper.splits.to_json()
        fresh_rows = []
        for side in state.sides:
            team = total(h.splits for h in side.hoopers)
            fresh_rows += [vh_splits._hooper_row(side.name, h) for h in side.hoopers]
            fresh_rows.append({"side": side.name, "name": "Team total", "total": True,
                               "points": sum(h.points for h in side.hoopers),
                               "red": sum(h.red for h in side.hoopers), **team.to_json()})
        assert view["box_score"] == fresh_rows
        for choice in game.prompt(state).choices:
            if choice.p_success is None:
                continue
            # The odds as the state after the choice gives them, counted from its target afresh.
            after = vh_rules.resolve(state, choice.command)
            target = vh_views._pending_target(after)
            assert target is not None
            p_success = chance(target)
            points = after.pending.points
            hint = (f"{target.value}: scores without a roll" if target.value >= 100
                    else f"{AtMost(target.value).hint()}: {round(p_success * 100)}%")
            assert (choice.p_success, choice.expected_points, choice.hint) == (
                p_success, p_success * points if points else None, hint)
            odds += 1
    assert odds > 500  # attacks, defenses and counters carry odds


def test_valley_hoopers_attack_stats_and_hooper_lookups_are_the_ones_counted_afresh() -> None:
    # Both the prompt's judged cards and the full resolve read the memo, so the judge's own guard
    # (test_valley_hoopers_candidates) could not see a stale entry: each is held to counting afresh.
    game = find_game("valley-hoopers")
    checked = 0
    for state in states(game, "full_game_valley_hoopers.jsonl"):
        for side in state.sides:
            for hooper in side.hoopers:
                assert side.hooper(hooper.name.upper()) is next(
                    h for h in side.hoopers if h.name.lower() == hooper.name.lower())
                for shot in ("2PS", "3PS", "LUP"):
                    try:
                        fresh = vh_targets._attack_stat_terms(hooper, shot)
                    except RuleError:
                        continue
                    assert vh_targets.attack_stat_terms(hooper, shot) == fresh
                    values = vh_targets.attack_values(hooper)
                    assert values is not None and values[shot] == fresh[0].value + sum(
                        t.value for t in fresh[1])
                    checked += 1
    assert checked > 10_000


def test_valley_hoopers_attack_stats_follow_what_they_read_when_the_card_stays() -> None:
    # The memo is keyed by the name, the shot, out of position and the identity of the stats, stat
    # bonuses and injuries: a new record keeps those tuples (``replace``), and the script never
    # moves a hooper out of position or injures one with the same stats tuple, so each is varied here
    # on the records the script meets, with the other tuples the same objects.
    game = find_game("valley-hoopers")
    seen: set[int] = set()
    checked = 0
    for state in states(game, "full_game_valley_hoopers.jsonl"):
        for hooper in (h for side in state.sides for h in side.hoopers):
            if id(hooper) in seen:
                continue
            seen.add(id(hooper))
            for shot in ("2PS", "3PS", "LUP"):
                if hooper.stat(shot) is None:
                    continue
                varied_records = (
                    hooper, dataclasses.replace(hooper, out_of_position=not hooper.out_of_position),
                    dataclasses.replace(hooper, injuries=(*hooper.injuries, "attack_minus_10")),
                    dataclasses.replace(hooper, stat_bonus=((shot, 10),)),
                    dataclasses.replace(hooper, name=hooper.name + " Jr"))
                for varied in varied_records:
                    assert vh_targets.attack_stat_terms(varied, shot) == vh_targets._attack_stat_terms(
                        varied, shot), (varied, shot)
                    # A play step's prompt reads the three shots at once, remembered the same way.
                    assert vh_targets.attack_values(varied) == vh_targets.count_attack_values(varied), varied
                    checked += 1
            for stat in ("D2", "D3", "DLU"):
                if hooper.stat(stat) is None:
                    continue
                # A defender's terms in a defense window's prompt, remembered the same way.
                for varied in (hooper,
                               dataclasses.replace(hooper, out_of_position=not hooper.out_of_position),
                               dataclasses.replace(hooper, injuries=(*hooper.injuries, "defense_minus_10")),
                               dataclasses.replace(hooper, stat_bonus=((stat, 10),)),
                               dataclasses.replace(hooper, name=hooper.name + " Jr")):
                    assert vh_targets.defense_value(varied, stat) == sum(
                        t.value for t in vh_targets.defense_terms(varied, stat)), (varied, stat)
                    checked += 1
    assert checked > 1000


def test_valley_hoopers_prompt_with_its_shared_cards_and_choices_is_the_one_built_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A play step's cards and a window's answers (labels and commands) are built once per line-up and
    # a card's Choice (and its JSON) kept per command and odds: each prompt, shown as play shows it,
    # is held to the same prompt built without either (every card and choice made anew).
    game = find_game("valley-hoopers")
    shared = 0
    for state in states(game, "full_game_valley_hoopers.jsonl"):
        shown = game.prompt(state).to_json()
        shared += sum(c["command"]["type"] in ("attack", "fundamental") for c in shown["choices"])
        with monkeypatch.context() as fresh:
            fresh.setattr(vh_views, "_cards", vh_views._cards.__wrapped__)
            fresh.setattr(vh_views, "_card_plan", vh_views._card_plan.__wrapped__)
            fresh.setattr(vh_views, "_window_cards", vh_views._window_cards.__wrapped__)
            fresh.setattr(vh_views, "_choice",
                          lambda label, command, after: Choice(label, command, *vh_views._odds(after)))
            assert shown == game.prompt(state).to_json()
    assert shared > 1000


def test_nba_showdown_prompt_players_box_and_modifiers_are_the_ones_counted_afresh() -> None:
    game = find_game("nba-showdown")
    rolls = 0
    for state in states(game, "full_game_nba_showdown.jsonl"):
        view = game.view(state)
        assert nba_views.prompt(state) == nba_views._prompt(state)
        for side in (0, 1):
            assert view["sides"][side]["players"] == nba_box._count_team_players(
                state.team(side), state.box, side)
        # The totals and the game-end box score from the box's sums counted afresh (no stepped sums,
        # no remembered side rows).
        fresh = [nba_box._count_side_rows(side, team.name, sums)
                 for side, (team, sums) in enumerate(zip(state.teams, nba_box.count_sides(state.box),
                                                         strict=True))]
        assert view["box_totals"] == [row for totals, _ in fresh for row in totals]
        assert view["box_score"] == [row for _, rows in fresh for row in rows]
        assert view["box"] == [nba_box._box_line_json(b) for b in state.box]
        assert view["flow"] == [list(f) for f in state.flow]
        for side, team in enumerate(state.teams):
            assert view["sides"][side]["cards"] == [c.to_json() for c in team.cards]
            assert view["sides"][side]["strategy_cards"] == [
                name for name, copies in team.deck if team.played.count(name) < copies]
        if state.roll is not None:
            rolls += 1
            assert nba_views._terms(state, state.roll) == nba_views.rolls.roll_terms(state, state.roll)
    assert rolls > 50


def test_roll_json_is_counted_once_per_die_and_rule_and_each_die_keeps_its_labels() -> None:
    plain = Die("d4", "d4", (1, 2, 3, "blank"))
    worded = Die("d4", "d4", (1, 2, 3, "blank"), labels={"blank": "Nothing"})
    assert plain == worded  # labels are left out of a die's equality: the memo must not mix them up
    rule = AtMost(2)
    first = RollInfo(plain, rule).json_parts()
    assert RollInfo(plain, AtMost(2)).json_parts() is first
    assert first == (RollInfo(plain, rule).die_info(), RollInfo(plain, rule).face_marks(),
                     [o.to_json() for o in RollInfo(plain, rule).outcomes()])
    assert RollInfo(worded, rule).json_parts()[0]["labels"] == ["1", "2", "3", "Nothing"]
    assert first[0]["labels"] == ["1", "2", "3", "blank"]
