"""Shooting splits in each game's box score, checked against a whole game played through the rules
(the recorded games in tests/games/): the shots are counted here again, independently, from the
events of the log (their kind, their words and the score they moved), and must agree to the number
with what the game shows; made never exceeds attempted, and the made shots add up to the points the
game gave for them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.frontend import game_info
from companion.games import find_game
from kiosk import end_summary

GAMES = Path(__file__).parent / "games"
Tally = dict[str, Counter]  # player (or side) -> fgm, fga, tpm, tpa, ftm, fta


def _played(game_name: str, file: str) -> tuple[Any, Any, list[list[dict[str, Any]]]]:
    """The game, its final state and the events of every command, played through the rules."""
    game = find_game(game_name)
    lines = [json.loads(line) for line in (GAMES / file).read_text().splitlines() if line.strip()]
    state = game.setup({k: v for k, v in lines[0].items() if k != "type"})
    played = []
    for command in lines[1:]:
        state, events = game.run(state, command)
        played.append(events)
    assert game.outcome(state) is not None, "the recorded game is played to its end"
    return game, state, played


def _shown(row: dict[str, Any], keys: tuple[str, ...] = ("fg", "3p", "ft")) -> dict[str, str]:
    return {k: row[k] for k in keys if k in row}


def _words(counts: Counter, keys: tuple[str, ...] = ("fg", "3p", "ft")) -> dict[str, str]:
    pairs = {"fg": ("fgm", "fga"), "3p": ("tpm", "tpa"), "ft": ("ftm", "fta")}
    return {k: f"{counts[pairs[k][0]]}-{counts[pairs[k][1]]}" for k in keys}


def _sane(counts: Counter) -> None:
    assert 0 <= counts["fgm"] <= counts["fga"] and 0 <= counts["tpm"] <= counts["tpa"]
    assert 0 <= counts["ftm"] <= counts["fta"]
    assert counts["tpa"] <= counts["fga"] and counts["tpm"] <= counts["fgm"], "3-pointers are field goals"


def _shot(counts: Counter, points: int, made: bool, three: bool | None = None) -> None:
    three = points == 3 if three is None else three
    counts["fga"] += 1
    counts["fgm"] += made
    counts["tpa"] += three
    counts["tpm"] += made and three


def _points(counts: Counter) -> int:
    return 2 * (counts["fgm"] - counts["tpm"]) + 3 * counts["tpm"] + counts["ftm"]


# -- Valley Hoopers --------------------------------------------------------------------------------

def _valley_hoopers_count(game: Any, lines: list[dict[str, Any]]) -> tuple[Any, Tally, Counter]:
    """Each d20 rolled for an attack (``attack_roll``) or a free throw, read from the rule state
    before it and the score it moved; Goal Tending and Tap-Out from the chip events; the two points
    of a Fast Break or a Coast to Coast chip apart (no shot is taken)."""
    state = game.setup({k: v for k, v in lines[0].items() if k != "type"})
    tally: Tally = {}
    chip_points: Counter = Counter()
    for command in lines[1:]:
        before = state
        state, events = game.run(state, command)
        pending = before.pending
        rolled = command["type"] == "roll" and not before.decisions
        for event in events:
            moved = event.get("points") or [0, 0]
            # The attacker's d20: awaited, or rolled at once (the defender lets the shot go).
            if rolled and pending.kind in ("attack_roll", "defense_window") and command["die"] == "d20x5":
                side = before.turn.attacker
                assert moved[side] in (0, pending.points)
                _shot(tally.setdefault(pending.hooper, Counter()), pending.points, moved[side] > 0)
            elif rolled and pending.kind == "free_throw":
                assert moved[pending.side] in (0, 1), "it worths just one point"
                counts = tally.setdefault(pending.hooper, Counter())
                counts["fta"] += 1
                counts["ftm"] += moved[pending.side]
            elif "(no roll needed" in str(event.get("text")):  # an attack no defense can stop
                _shot(tally.setdefault(pending.hooper, Counter()), pending.points, True)
            elif event["type"] == "chip" and event.get("effect") in ("fast_break", "coast_to_coast"):
                chip_points[event["hooper"]] += 2
            elif event["type"] == "chip" and event.get("effect") == "goal_tending":
                counts = tally[pending.hooper]  # "an own unsuccessful attack, it becomes successful"
                counts["fgm"] += 1
                counts["tpm"] += pending.points == 3
            elif event["type"] == "chip" and event.get("effect") == "tap_out":
                _side, name, points = before.last_attack  # "a successful attack by the opponent"
                tally[name]["fgm"] -= 1
                tally[name]["tpm"] -= points == 3
    return state, tally, chip_points


def test_valley_hoopers_splits_match_the_attacks_and_free_throws_of_a_whole_game() -> None:
    game = find_game("valley-hoopers")
    lines = [json.loads(line) for line in (GAMES / "full_game_valley_hoopers.jsonl").read_text().splitlines()
             if line.strip()]
    state, tally, chip_points = _valley_hoopers_count(game, lines)
    assert game.outcome(state) is not None
    rows = game.view(state)["box_score"]
    hoopers = [r for r in rows if not r.get("total")]
    assert len(hoopers) == sum(len(s.hoopers) for s in state.sides)
    assert sum(tally[h]["fga"] for h in tally) > 20 and sum(tally[h]["fta"] for h in tally) > 5
    for row in hoopers:
        counts = tally.get(row["name"], Counter())
        _sane(counts)
        assert _shown(row) == _words(counts), row["name"]
        # "A FREE THROW ... worths just one point"; 2PS and lay-up 2, 3PS 3; chips' baskets no shot.
        assert row["points"] == _points(counts) + chip_points[row["name"]], row["name"]
    for side in state.sides:
        total = next(r for r in rows if r.get("total") and r["side"] == side.name)
        counts = sum((tally.get(h.name, Counter()) for h in side.hoopers), Counter())
        assert _shown(total) == _words(counts)
        assert total["points"] == state.score[state.sides.index(side)]


# -- NBA Showdown ----------------------------------------------------------------------------------

def test_nba_showdown_splits_match_the_shot_checks_and_foul_shots_of_a_whole_game() -> None:
    game, state, played = _played("nba-showdown", "full_game_nba_showdown.jsonl")
    tally: dict[tuple[int, str], Counter] = {}
    waiting: tuple[int, str, dict[str, Any]] | None = None
    shot_points = [0, 0]  # what the shot checks' rolls moved on the score
    made_points = [0, 0]  # what the made checks are worth by their cards
    for events in played:
        for event in events:
            if event["type"] == "play_card" and event.get("shot_check") is not None:
                # "... on Mock Spark: Mock Spark makes a shot check" (or "a foul shot")
                who = event["text"].rsplit(": ", 1)[1].rsplit(" makes a ", 1)[0]
                waiting = (event["side"], who, event["shot_check"])
            elif event["type"] == "roll" and waiting is not None:
                side, who, check = waiting
                gained = event["points"][side]
                counts = tally.setdefault((side, who), Counter())
                if check.get("foul_shot"):
                    assert gained in (0, 1), "a foul shot is a shot check for 1 point"
                    counts["fta"] += 1
                    counts["ftm"] += gained == 1
                else:
                    points = check.get("points", 2)
                    assert gained in (0, points)
                    _shot(counts, points, gained > 0, three=bool(check.get("three_point")))
                    made_points[side] += points if gained else 0
                shot_points[side] += gained
                waiting = None
    assert sum(c["fga"] + c["fta"] for c in tally.values()) >= 5, "the game has shot checks and foul shots"
    rows = game.view(state)["box_score"]
    for row in rows:
        if row.get("total"):
            counts = sum((c for (side, _), c in tally.items() if side == row["side"]), Counter())
            assert made_points[row["side"]] + counts["ftm"] == shot_points[row["side"]]
        else:
            counts = tally.get((row["side"], row["player"]), Counter())
        _sane(counts)
        assert _shown(row) == _words(counts), row["player"]
    assert [r["player"] for r in rows if r.get("total")] == ["Team total", "Team total"]


# -- Hoop Godz -------------------------------------------------------------------------------------

@pytest.mark.parametrize("file", ["full_game_hoop_godz.jsonl", "pro_game_hoop_godz.jsonl"])
def test_hoop_godz_splits_match_the_shoots_and_dunks_of_a_whole_game(file: str) -> None:
    game, state, played = _played("hoop-godz", file)
    sides = [Counter(), Counter()]
    ballers: Tally = {}
    in_the_air: tuple[int, str, int] | None = None  # a SHOOT's ball, waiting for the final roll
    played_by = (0, "")
    for events in played:
        for event in events:
            if event["type"] == "card_played":
                played_by = (event["side"], event["baller"])
            elif event["type"] == "shot_taken":
                in_the_air = (*played_by, event["points"])
                for counts in (sides[played_by[0]], ballers.setdefault(played_by[1], Counter())):
                    counts["fga"] += 1
                    counts["tpa"] += event["points"] == 3
            elif event["type"] == "scored" and in_the_air is not None:
                side, baller, points = in_the_air
                assert event["side"] == side and event["points"] == points
                for counts in (sides[side], ballers[baller]):
                    counts["fgm"] += 1
                    counts["tpm"] += points == 3
                in_the_air = None
            elif event["type"] == "scored":  # "DUNK immediately scores 2 points"
                assert event["points"] == 2 and event["side"] == played_by[0]
                _shot(sides[played_by[0]], 2, True)
                _shot(ballers.setdefault(played_by[1], Counter()), 2, True)
            elif event["type"] == "battle_started" and event["kind"] == "rebound":
                in_the_air = None  # the final roll missed: both play REBOUND
    assert sum(c["fga"] for c in sides) >= 3
    rows = game.view(state)["box_score"]
    for side, player in enumerate(state.players):
        total = next(r for r in rows if r.get("total") and r["side"] == player.name)
        _sane(sides[side])
        assert _shown(total) == _words(sides[side], ("fg", "3p")) and "ft" not in total
        assert total["points"] == _points(sides[side]), "every point in Hoop Godz is a SHOOT or a DUNK"
        for row in (r for r in rows if not r.get("total") and r["side"] == player.name):
            counts = ballers.get(row["name"], Counter())
            _sane(counts)
            assert _shown(row) == _words(counts, ("fg", "3p")) and row["points"] == _points(counts)


# -- Crunch Time -----------------------------------------------------------------------------------

def test_crunch_time_splits_match_the_zones_of_every_shot_card_of_a_whole_game() -> None:
    game, state, played = _played("crunch-time", "full_game_crunch_time.jsonl")
    tally = [Counter(), Counter()]
    zones: list[dict[str, Any]] = []
    possessions = []
    for events in played:
        for event in events:
            if event["type"] == "zone_entered":
                zones.append(event)
            elif event["type"] == "possession_scored":
                counts = Counter()
                for zone in zones:
                    if zone["stand"] in ("offence", "both"):  # an offensive Player in the zone
                        _shot(counts, zone["points"], zone["stand"] == "offence")
                assert _points(counts) == event["shot_points"], "undefended zones are the Shot card's points"
                possessions.append(counts)
                tally[event["offence"]] += counts
                zones = []
    rows = game.view(state)["box_score"]
    plays = [r for r in rows if not r.get("total")]
    assert len(plays) == len(possessions) > 5
    for row, counts in zip(plays, possessions, strict=True):
        _sane(counts)
        assert _shown(row) == _words(counts, ("fg", "3p")) and "ft" not in row
    for side in (0, 1):
        total = next(r for r in rows if r.get("total") and r["offence"] == side)
        assert _shown(total) == _words(tally[side], ("fg", "3p")) and tally[side]["fga"] > 0


# -- every game ------------------------------------------------------------------------------------

def test_basketboss_has_no_shots_so_its_box_score_declares_no_splits() -> None:
    """BasketBoss is played with contracts, trophies and money: no shot is ever taken."""
    box = game_info(find_game("basketboss"))["box_score"]
    assert not {"fg", "3p", "ft"} & {c["key"] for c in box["columns"]} and "summary" not in box


@pytest.mark.parametrize(("name", "file"), [("valley-hoopers", "full_game_valley_hoopers.jsonl"),
                                            ("nba-showdown", "full_game_nba_showdown.jsonl"),
                                            ("crunch-time", "full_game_crunch_time.jsonl"),
                                            ("hoop-godz", "full_game_hoop_godz.jsonl")])
def test_the_qr_summary_adds_each_sides_splits_and_no_total_line_is_a_top_scorer(name: str,
                                                                                 file: str) -> None:
    game, state, _played_events = _played(name, file)
    info = json.loads(json.dumps(game_info(game)))
    view = json.loads(json.dumps(game.view(state)))
    board = game.scoreboard(state)
    snapshot = {"view": view, "outcome": {"winner": 0, "reason": "final"},
                "scoreboard": {"sides": [{"name": s.name, "score": s.score} for s in board.sides]}}
    text = end_summary.summary_text(snapshot, info, game.title)
    lines = end_summary.total_lines(info, view)
    assert len(lines) == 2 and all(" FG " in line for line in lines)
    assert text.endswith("\n".join(lines)) and len(text) <= end_summary.MOST_CHARACTERS
    assert not any("total" in scorer for scorer in end_summary.top_scorers(info, view))


def test_the_csv_and_json_exports_carry_every_players_splits_and_the_sides_totals(tmp_path: Path) -> None:
    import csv
    import io

    from companion.export import export_csv, export_json
    from companion.service import TableService
    from companion.store import Store

    service = TableService(Store.open(tmp_path / "t.db"))
    lines = [json.loads(line) for line in (GAMES / "full_game_nba_showdown.jsonl").read_text().splitlines()
             if line.strip()]
    options = {k: v for k, v in lines[0].items() if k != "type"}
    assert service.execute({"op": "new_game", "game": "nba-showdown", "options": options})["ok"]
    for command in lines[1:]:
        assert service.execute({"op": "command", "command": command})["ok"]
    game, state, _events = _played("nba-showdown", "full_game_nba_showdown.jsonl")
    rows = list(csv.DictReader(io.StringIO(export_csv(service.store, 1))))
    shown = game.view(state)["box_score"]
    assert [(r["player"], r["fg"], r["3p"], r["ft"]) for r in rows] == [
        (r["player"], r["fg"], r["3p"], r["ft"]) for r in shown]
    assert all(f"{r['fgm']}-{r['fga']}" == r["fg"] and f"{r['ftm']}-{r['fta']}" == r["ft"] for r in rows)
    assert [r["total"] for r in rows].count("True") == 2
    exported = json.loads(export_json(service.store, 1))["box_score"]
    assert exported == json.loads(json.dumps(shown))


def test_tap_out_and_goal_tending_turn_the_made_count_over_and_a_fast_break_is_no_shot() -> None:
    """Tap-Out: "a successful attack by the opponent ... becomes unsuccessful"; Goal Tending: "an own
    unsuccessful attack, it becomes successful"; Fast Break: "You score two points" (no shot)."""
    from games.valley_hoopers_series_table import SeriesTable

    muy, serge, chus = "Muy Schillato", "Serge Ceptor", "Chus Kinder"
    table = SeriesTable(game=3)
    table.lv2_chip(chus)  # three baskets in a row: a LV.2 chip
    table.score(muy, "3PS")
    assert table.hooper(muy).splits.to_json()["3p"] == "1-1"
    table.do("chip", hooper=chus, effect="tap_out")
    shown = table.hooper(muy).splits.to_json()
    assert (shown["fg"], shown["3p"]) == ("0-1", "0-1")
    assert table.hooper(muy).points == 0
    table.lv2_chip(serge).miss(chus).do("chip", hooper=serge, effect="fast_break")
    assert table.hooper(serge).splits.to_json()["fg"] == "3-3" and table.hooper(serge).points == 8
    wally = "Wally Block"
    table.lv2_chip(wally)
    table.turn_to(table.side_of(wally)).do("attack", shot="3PS", hooper=wally).do("no_defense").roll(100)
    assert table.state.pending.kind == "rebound_window"
    assert table.hooper(wally).splits.to_json()["3p"] == "0-1"
    table.do("chip", hooper=wally, effect="goal_tending")
    splits = table.hooper(wally).splits
    assert (splits.fgm, splits.fga, splits.tpm, splits.tpa) == (4, 4, 1, 1)
    assert table.hooper(wally).points == 2 * (splits.fgm - splits.tpm) + 3 * splits.tpm + splits.ftm == 9


def test_the_examples_in_the_splits_docstrings_hold() -> None:
    import doctest

    import companion.games.valley_hoopers.splits
    import companion.splits

    for module in (companion.splits, companion.games.valley_hoopers.splits):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
