"""Gameplans of The Series: taking a card (cost and timing), the table's answers, live progress and the
``milestones_met`` count The Series reads, from states, the store's log and a replay file."""

from __future__ import annotations

import doctest
import importlib
import json
from pathlib import Path

import pytest
from games.valley_hoopers_series_table import SeriesTable, series_options
from games.valley_hoopers_table import Table, options

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers import GAME
from companion.games.valley_hoopers.gameplan_conditions import CONDITIONS
from companion.games.valley_hoopers.gameplans import (
    card_conditions,
    evaluate,
    final_state,
    milestones_met,
    progress,
)
from companion.session import Session
from companion.store import Store
from kiosk.parts import panel_line

MUY, SERGE, CHUS = "Muy Schillato", "Serge Ceptor", "Chus Kinder"


def test_taking_a_gameplan_costs_one_coach_token_at_the_start_of_the_own_attacking_turn() -> None:
    table = SeriesTable(game=3)
    tokens = table.state.sides[0].coach_tokens
    table.do("gameplan", card=4)
    assert table.state.gameplans.taken == (4, None)
    assert table.state.sides[0].coach_tokens == tokens - 1
    assert "Lucy takes gameplan 4: Score at least 51 points as a team" in table.state.message
    assert [c.id for c in card_conditions(3, 4)] == ["g34.07", "g34.08"]


def test_a_gameplan_is_refused_once_a_card_is_played() -> None:
    table = SeriesTable()
    table.do("fundamental", action="dribble", hooper=MUY).do("no_counter")
    with pytest.raises(RuleError, match="Lucy takes a gameplan only at the beginning of the own attacking"):
        table.do("gameplan", card=1)


def test_only_one_gameplan_card_per_side_and_game_and_not_the_opponents_card() -> None:
    table = SeriesTable().take(0, 2)
    with pytest.raises(RuleError, match="Lucy already took gameplan card 2 this game: only one gameplan"):
        table.take(0, 3)
    with pytest.raises(RuleError, match="Lucy already took gameplan card 2: take another card"):
        table.take(1, 2)
    table.take(1, 5)
    assert table.state.gameplans.taken == (2, 5)


def test_no_coach_token_left_no_gameplan() -> None:
    table = SeriesTable()
    for _ in range(table.state.sides[0].coach_tokens):
        table.do("coach_cards", side=0, action="draw3")
    with pytest.raises(RuleError, match="Lucy has no coach action token left to take a gameplan card "
                                        r"\(the rest are locked in playbooks"):
        table.do("gameplan", card=1)


def test_the_card_is_one_of_eight() -> None:
    with pytest.raises(CommandError, match="card must be a gameplan card from 1 to 8"):
        SeriesTable().do("gameplan", card=9)
    with pytest.raises(CommandError, match="series_game must be 1 to 7"):
        GAME.setup(series_options(game=8))


def test_classic_play_has_no_gameplans_and_shows_nothing_new() -> None:
    table = Table(options())
    with pytest.raises(RuleError, match="gameplans belong to The Series"):
        table.do("gameplan", card=1)
    assert table.state.gameplans is None and "gameplans" not in GAME.view(table.state)
    assert [c.label for c in GAME.scoreboard(table.state).sides[0].counters] == ["TO", "CT"]
    assert "gameplan" not in table.prompt.commands
    assert not [c for c in table.prompt.choices if c.command["type"] == "gameplan"]


def test_the_prompt_offers_the_eight_cards_until_one_is_taken() -> None:
    table = SeriesTable(game=5)
    offered = [c for c in table.prompt.choices if c.command["type"] == "gameplan"]
    assert "gameplan" in table.prompt.commands and len(offered) == 8
    assert offered[0].label.startswith("gameplan 1: Spend at least 2 Onfire Lv.2 chips.")
    table.do("gameplan", card=1)
    table.turn_to(0)
    assert "gameplan" not in table.prompt.commands
    assert not [c for c in table.prompt.choices if c.command["type"] == "gameplan"]


def test_progress_is_live_in_the_view_the_scoreboard_and_the_panel() -> None:
    table = SeriesTable(game=1).take(0, 3)  # g12.05 one hooper 15 points, g12.06 seven free throws
    table.score(MUY, "3PS", times=2)
    shown = GAME.view(table.state)["gameplans"]
    assert shown["list"] == "Game 1-2"
    assert shown["sides"][0]["card"] == 3 and shown["sides"][1]["card"] is None
    first, second = shown["sides"][0]["milestones"]
    assert (first["id"], first["status"]) == ("g12.05", "not yet")
    assert first["progress"] == "best Muy Schillato: 6 of 15 points"
    assert second["progress"] == "0 of 7 free throws"
    table.score(MUY, "3PS", times=3)
    assert GAME.view(table.state)["gameplans"]["sides"][0]["milestones"][0]["status"] == "met"
    counters = {c.label: c.value for c in GAME.scoreboard(table.state).sides[0].counters}
    assert counters["GP"] == 1
    panel = next(p.to_json() for p in GAME.frontend.panels if p.title == "Gameplan")
    line = panel_line(panel, GAME.view(table.state), side=0)
    assert "MET: One single hooper of yours scores at least 15 points." in line and "NOT YET" in line
    assert panel_line(panel, GAME.view(Table().state), side=0) == ""


def test_avoid_milestones_hold_until_broken_and_every_milestone_settles_when_the_game_ends() -> None:
    table = SeriesTable(game=5).take(0, 8)  # g56.15 two period markers, g56.16 more 2PS/LUP
    table.timeout(0)
    assert evaluate(table.state, 0, "g12.01").status == "holding"
    table.timeout(0)
    assert evaluate(table.state, 0, "g12.01").status == "broken"
    table.score(MUY).next_period().score(MUY).next_period().next_period().next_period()
    assert table.state.final
    assert [m["status"] for m in progress(table.state, 0)] == ["met", "met"]
    assert evaluate(table.state, 0, "g12.01").status == "missed"


def test_the_token_of_the_gameplan_counts_among_the_coach_tokens_spent() -> None:
    table = SeriesTable(game=1).take(0, 2)  # g12.03: do not spend two or more coach action tokens
    assert evaluate(table.state, 0, "g12.03").met
    table.do("coach_cards", side=0, action="draw3")
    assert not evaluate(table.state, 0, "g12.03").met
    assert evaluate(table.state, 0, "g12.03").progress == "2 coach action tokens spent (fails at 2)"


def test_a_tap_out_takes_the_three_back_and_a_fast_break_is_no_shot() -> None:
    table = SeriesTable(game=3)
    table.lv2_chip(CHUS)  # three baskets: a LV.2 chip
    table.score(MUY, "3PS")
    table.do("chip", hooper=CHUS, effect="tap_out")
    assert table.state.gameplans.shots_of(MUY).threes == 0 and table.hooper(MUY).points == 0
    table.lv2_chip(SERGE).miss(CHUS).do("chip", hooper=SERGE, effect="fast_break")
    assert table.hooper(SERGE).points == 8 and table.state.gameplans.shots_of(SERGE).twos == 3


def _stellar_unknown() -> SeriesTable:
    opts = series_options(game=3)
    opts["sides"][0]["hoopers"][0]["stellar"] = None  # Serge Ceptor's stellar mark is not entered
    return SeriesTable(opts=opts)


def test_a_milestone_the_log_cant_settle_is_asked_and_the_answer_is_used() -> None:
    table = _stellar_unknown().take(0, 5)  # g34.09 un-stellar points, g34.10 more chips
    assert evaluate(table.state, 0, "g34.09").status != "asked"  # nobody unknown has scored yet
    table.score(SERGE, "3PS")
    asked = evaluate(table.state, 0, "g34.09")
    assert asked.status == "asked" and "stellar mark not entered for Serge Ceptor" in (asked.question or "")
    answers = [c.command for c in table.prompt.choices if c.command["type"] == "gameplan_answer"]
    assert {"type": "gameplan_answer", "side": 0, "condition": "g34.09", "met": True} in answers
    assert "gameplan_answer" in table.prompt.commands
    table.do("gameplan_answer", side=0, condition="g34.09", met=True)
    assert evaluate(table.state, 0, "g34.09").met and milestones_met([table.state], 0) == 1
    table.do("enter_card", hooper=SERGE, stellar=False)  # once entered, the log decides again
    assert evaluate(table.state, 0, "g34.09").progress == "3 of 15 points from un-stellar hoopers"


def test_answers_are_refused_for_milestones_read_from_the_log_or_not_on_the_card() -> None:
    table = _stellar_unknown().take(0, 5).score(SERGE, "3PS")
    with pytest.raises(RuleError, match="g34.10 .* is read from the log: the app needs no answer"):
        table.do("gameplan_answer", side=0, condition="g34.10", met=True)
    with pytest.raises(RuleError, match="g34.11 is not one of Lucy's milestones \\(Lucy has gameplan 5\\)"):
        table.do("gameplan_answer", side=0, condition="g34.11", met=True)
    with pytest.raises(RuleError, match="Karl has no gameplan"):
        table.do("gameplan_answer", side=1, condition="g34.09", met=True)
    with pytest.raises(CommandError, match="condition must be a milestone id like g12.05"):
        table.do("gameplan_answer", side=0, condition="g99.01", met=True)


def test_milestones_met_reads_the_store_log_with_its_undo(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "series.db")
    try:
        session = Session.new(store, GAME, series_options(game=1))
        session.handle({"type": "gameplan", "card": 5})  # g12.09 no 3 fouls on a hooper, g12.10 four threes
        for _ in range(4):
            while session.state.turn.attacker != 0:
                session.handle({"type": "end_turn"})
            session.handle({"type": "attack", "shot": "3PS", "hooper": MUY})
            session.handle({"type": "no_defense"})
            session.handle({"type": "roll", "face": 5})
        assert milestones_met(session.timeline.states, 0) == 2
        log = store.entries(session.game_id)
        assert milestones_met(log, 0) == 2 and milestones_met(log, 1) == 0
        session.handle({"type": "undo"})
        assert milestones_met(store.entries(session.game_id), 0) == 1 == milestones_met(session.state, 0)
    finally:
        store.close()


def test_milestones_met_replays_a_replay_file_and_is_zero_outside_the_series() -> None:
    lines = [{"type": "setup", **series_options(game=6)}, {"type": "gameplan", "card": 2},
             {"type": "end_turn"}, {"type": "end_turn"}, {"type": "attack", "shot": "2PS", "hooper": MUY},
             {"type": "no_defense"}, {"type": "roll", "face": 100}, {"type": "no_rebound"}]
    # g56.03 more free throws (0 against 0), g56.04 no hooper in the cold zone (Muy missed: light blue)
    assert milestones_met(json.loads(json.dumps(lines)), 0) == 0
    lines[6]["face"] = 5
    del lines[7]
    assert milestones_met(lines, 0) == 1
    assert milestones_met(Table().state, 0) == 0 and milestones_met(Table().state, 1) == 0


FULL_GAME = Path(__file__).parent / "games" / "full_game_valley_hoopers.jsonl"


def test_a_whole_game_settles_all_48_milestones_for_both_sides() -> None:
    lines = [json.loads(line) for line in FULL_GAME.read_text().splitlines()]
    lines[0]["series_game"] = 5
    lines.insert(1, {"type": "gameplan", "card": 7})
    state = final_state(lines)
    assert state.final and state.gameplans.taken == (7, None)
    for side in (0, 1):
        statuses = {evaluate(state, side, c.id).status for c in CONDITIONS}
        assert statuses <= {"met", "missed"}, statuses
    assert milestones_met(lines, 0) == sum(evaluate(state, 0, c).met for c in ("g56.13", "g56.14"))
    assert milestones_met(state, 1) == 0


@pytest.mark.parametrize("name", ["gameplans", "gameplan_tally", "gameplan_conditions"])
def test_gameplan_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"companion.games.valley_hoopers.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
