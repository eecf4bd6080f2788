"""NBA Showdown cards and teams: every card is checked when entered, the team-building rules are
checked at setup, and the shipped rosters are DEMO teams of invented cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from games.nba_showdown_table import card, custom_options, deck, five

from companion.errors import CommandError, RuleError
from companion.games.nba_showdown import GAME, check_team, load_roster, parse_card, parse_roster
from companion.games.nba_showdown.rosters import ROSTER_DIR, SHIPPED, Roster, shipped_roster
from companion.session import Session
from companion.store import Store


def _chart(*rows: str) -> tuple:
    return tuple((r, 1, 0, 0) for r in rows)


@pytest.mark.parametrize(("rows", "error"), [
    (_chart("1-5", "4-9", "10+"), "chart rows 1-5 and 4-9 overlap \\(4 is on both\\)"),
    (_chart("1-5", "7-9", "10+"), "chart rows 1-5 and 7-9 leave a gap \\(6 is on no row\\)"),
    (_chart("1-5", "9-12", "13+"), "leave a gap \\(6-8 is on no row\\)"),
    (_chart("2-5", "6-9", "10+"), "the chart must start at 1"),
    (_chart("1-5", "6+", "10-12"), "only the top row can run on"),
    (_chart("1-5", "9-6", "10+"), "runs backwards"),
    (_chart("1-5", "six", "10+"), "a chart row's range is written like"),
])
def test_a_card_with_bad_chart_rows_is_refused_with_a_clear_error(rows: tuple, error: str) -> None:
    with pytest.raises(CommandError, match=error):
        parse_card(card("Bad Chart", ["PG"], chart=rows, shot_line=6))


@pytest.mark.parametrize(("field", "value", "error"), [
    ("speed", 0, "speed must be a whole number from 1 to 40"),
    ("power", "12", "power must be a whole number"),
    ("point_value", -5, "point_value must be a whole number from 0"),
    ("positions", ["PG", "G"], "positions are PG, SG, SF, PF, C"),
    ("positions", ["PG", "PG"], "position PG is listed twice"),
    ("shot_line", 12, "the Shot Line sits between two chart rows.*\\(10, 16, 21\\), not 12"),
    ("three_point_bonus", True, "three_point_bonus must be a whole number"),
])
def test_a_card_with_bad_numbers_is_refused_naming_the_field(field: str, value: object, error: str) -> None:
    with pytest.raises(CommandError, match=error):
        parse_card({**card("Bad Numbers", ["PG"]), field: value})


def test_a_card_missing_a_number_asks_for_it() -> None:
    raw = card("Half Entered", ["PG"])
    del raw["power"]
    with pytest.raises(CommandError, match="Half Entered: power is missing: enter it from the card"):
        parse_card(raw)


def test_chart_ranges_may_run_past_20() -> None:
    chart = (("1-11", 0, 0, 1), ("12-17", 2, 0, 2), ("18-23", 3, 1, 3), ("24-27", 5, 1, 4))
    parsed = parse_card(card("Long Chart", ["C"], chart=chart, shot_line=18))
    assert parsed.row_for(26).label == "24-27" and parsed.row_for(31).label == "24-27"


def test_a_bad_card_at_setup_creates_no_game(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "t.db")
    home = five("Home")
    home[0] = card("Home PG", ["PG"], chart=_chart("1-5", "4-9", "10+"), shot_line=10)
    with pytest.raises(CommandError, match="Home PG: chart rows 1-5 and 4-9 overlap"):
        Session.new(store, GAME, custom_options(home, five("Away")))
    assert store.games() == []


def _team(values: list[int], positions: list[list[str]] | None = None) -> Roster:
    positions = positions or [["PG"], ["SG"], ["SF"], ["PF"], ["C"]] + [["PG"]] * (len(values) - 5)
    players = [card(f"P{i}", positions[i], point_value=v) for i, v in enumerate(values)]
    return parse_roster({"team": "Test", "players": players, "deck": deck("T")})


def test_eight_players_totalling_4900_with_a_top_five_of_4100_are_refused_naming_the_4000_rule() -> None:
    roster = _team([900, 850, 800, 800, 750, 300, 250, 250])
    assert sum(c.point_value for c in roster.cards) == 4900
    rule = "the 5 most expensive players .* cost 4,100 .*no more than 4,000 points"
    with pytest.raises(RuleError, match=rule):
        check_team(roster)


def test_the_five_most_expensive_need_not_be_the_starters() -> None:
    values = [100, 100, 100, 100, 100, 900, 900, 900, 900, 450]  # bench players are the expensive ones
    roster = _team(values)
    with pytest.raises(RuleError, match="cost 4,050"):
        check_team(roster)
    check_team(_team([100, 100, 100, 100, 100, 800, 800, 800, 800, 500]))


@pytest.mark.parametrize(("roster", "error"), [
    (_team([300] * 13), "13 players .*at most 12 players total"),
    (_team([800, 800, 800, 800, 800, 700, 400]), "total 5,100 points .*5,000 or less"),
    (_team([300] * 5, [["PG"], ["SG"], ["SF"], ["PF"], ["PF"]]), "nobody can play C .*at each position"),
])
def test_the_team_building_rules_each_name_the_rule(roster: Roster, error: str) -> None:
    with pytest.raises(RuleError, match=error):
        check_team(roster)


def test_no_more_than_1_copy_of_any_player() -> None:
    players = [card(f"P{i}", [p]) for i, p in enumerate(["PG", "SG", "SF", "PF", "C"])] + [card("P0", ["PG"])]
    with pytest.raises(RuleError, match="P0 is on the team twice .*no more than 1 copy"):
        check_team(parse_roster({"team": "Test", "players": players, "deck": deck("T")}))


def test_a_40_card_strategy_deck_with_no_more_than_4_copies() -> None:
    players = [card(f"P{i}", [p]) for i, p in enumerate(["PG", "SG", "SF", "PF", "C"])]
    short = parse_roster({"team": "Test", "players": players, "deck": {"A": 4, "B": 4}})
    with pytest.raises(RuleError, match="deck has 8 cards .*a deck of 40"):
        check_team(short)
    five_copies = parse_roster({"team": "Test", "players": players, "deck": {**deck("T"), "T card 0": 5,
                                                                              "T card 9": 3}})
    with pytest.raises(RuleError, match="5 copies of T card 0 .*no more than 4 copies"):
        check_team(five_copies)
    check_team(short, deck_needed=False)  # without strategy cards the deck is not part of the game


def test_setup_refuses_a_team_that_breaks_a_building_rule_unless_the_check_is_off() -> None:
    options = custom_options(five("Home", PG={"point_value": 4000}), five("Away"))
    with pytest.raises(RuleError, match="Building Your Own Team"):
        GAME.setup(options)
    assert GAME.setup({**options, "team_check": False}).teams[0].cards[0].point_value == 4000


def test_the_shipped_rosters_are_labelled_demo_and_pass_the_team_check() -> None:
    for path in sorted(ROSTER_DIR.glob("*.toml")):
        text = path.read_text()
        assert text.startswith("# DEMO ROSTER: INVENTED CARDS, NOT OFFICIAL NBA SHOWDOWN CARDS.")
        roster = load_roster(path)
        assert roster.demo and roster.team.startswith("DEMO ")
        check_team(roster)
    assert {shipped_roster("demo-comets").team, shipped_roster("demo-lanterns").team} == {
        "DEMO Comets", "DEMO Lanterns"}


def test_a_roster_file_reads_back_the_cards_entered(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('team = "Mine"\n[deck]\n"Card" = 4\n[[players]]\nname = "Someone"\npositions = ["SF"]\n'
                    'speed = 14\npower = 12\npoint_value = 610\nthree_point_bonus = 1\nshot_line = 16\n'
                    'chart = [{range = "1-9", pts = 0}, {range = "10-15", pts = 2, ast = 1},'
                    ' {range = "16+", pts = 4, reb = 2}]\n')
    roster = load_roster(path)
    someone = roster.card("Someone")
    assert (someone.speed, someone.power, someone.point_value, someone.three_point_bonus) == (14, 12, 610, 1)
    assert [r.label for r in someone.chart] == ["1-9", "10-15", "16+"] and not roster.demo


def test_a_lineup_must_put_each_player_where_his_card_says_he_can_play() -> None:
    options = custom_options(five("Home"), five("Away"))
    options["teams"][0]["lineup"] = {"PG": "Home SG", "SG": "Home PG", "SF": "Home SF", "PF": "Home PF",
                                     "C": "Home C"}
    with pytest.raises(RuleError, match="Home SG can't play PG"):
        GAME.setup(options)


def test_a_totals_row_index_is_where_its_row_stands_in_the_chart() -> None:
    for name in SHIPPED:
        for player in shipped_roster(name).cards:
            for total in range(-5, 45):
                assert player.row_index(total) == player.chart.index(player.row_for(total)), total
