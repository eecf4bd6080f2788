"""Fouls, the d8 foul die, free throws, team fouls, cubes, ejection and injury."""

from __future__ import annotations

import pytest
from games.valley_hoopers_table import Table, options

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers import GAME, foul_outcome


def _lucy_shoots(shot: str, defender: str, face: str) -> Table:
    table = Table()
    position = {"2PS": "SG", "3PS": "SG", "LUP": "SG"}[shot]
    table.do("attack", shot=shot, position=position).do("defend", hooper=defender).roll(face)
    return table


def test_foul_die_table_matches_the_summary_table() -> None:
    assert [foul_outcome("DLU", f).defense_bonus for f in ("whistle", "whistle2", "whistle3")] == [10, 5, 0]
    assert all(foul_outcome("DLU", f).foul for f in ("whistle", "whistle2", "whistle3"))
    assert [foul_outcome("D2", f).defense_bonus for f in ("whistle", "whistle2")] == [20, 15]
    assert not foul_outcome("D2", "whistle3").foul and not foul_outcome("D2", "charge").foul
    assert foul_outcome("D3", "whistle").defense_bonus == 25 and not foul_outcome("D3", "whistle2").foul
    assert foul_outcome("steal", "whistle2").foul and not foul_outcome("steal", "whistle3").foul
    assert foul_outcome("intercept", "jumpball").jump_ball
    assert foul_outcome("screen", "whistle2").ends_turn and not foul_outcome("screen", "whistle3").foul
    assert foul_outcome("rebound", "whistle").foul and not foul_outcome("rebound", "whistle2").foul
    assert foul_outcome("D3", "whistle").to_json()["free_throws_if_missed"] == 3
    assert foul_outcome("block", "jumpball").restart == "A" and foul_outcome("tribe_block", "jumpball").foul
    with pytest.raises(CommandError, match="face must be one of"):
        foul_outcome("D2", "whistle4")


def test_defended_two_pointer_with_whistle_gives_defender_plus_20() -> None:
    table = _lucy_shoots("2PS", "May Friend", "whistle")
    assert table.prompt.target is not None and table.prompt.target.defense[-1].value == 20
    assert table.hooper("May Friend").red == 1 and table.hooper("Muy Schillato").white == 1
    assert table.state.team_fouls == (0, 1)


def test_defended_two_pointer_with_whistle_2_gives_defender_plus_15() -> None:
    table = _lucy_shoots("2PS", "May Friend", "whistle2")
    assert table.prompt.target is not None and table.prompt.target.defense[-1].value == 15


def test_defended_three_pointer_with_whistle_2_is_no_foul() -> None:
    table = _lucy_shoots("3PS", "May Friend", "whistle2")
    assert table.hooper("May Friend").red == 0 and table.state.team_fouls == (0, 0)


def test_missed_three_pointer_fouled_on_whistle_gets_three_free_throws() -> None:
    table = _lucy_shoots("3PS", "May Friend", "whistle")
    assert table.prompt.target is not None and table.prompt.target.defense[-1].value == 25
    table.roll(100)
    assert table.state.pending.kind == "free_throw" and table.state.pending.free_throws == 3
    assert table.hooper("Muy Schillato").onfire == 2  # fouled: no Onfire step for the miss
    table.roll(5).roll(5).roll(100)
    assert table.state.score == (2, 0) and table.state.turn.attacker == 1


def test_made_fouled_lay_up_gets_one_free_throw_and_a_missed_one_two() -> None:
    made = _lucy_shoots("LUP", "May Friend", "whistle3")
    made.roll(5)
    assert made.state.pending.free_throws == 1 and made.state.score == (2, 0)
    missed = _lucy_shoots("LUP", "May Friend", "whistle3")
    missed.roll(100)
    assert missed.state.pending.free_throws == 2


def test_charging_foul_on_a_lay_up_gives_the_attacker_the_red_cube_and_ends_the_turn() -> None:
    table = _lucy_shoots("LUP", "May Friend", "charge")
    assert table.hooper("Muy Schillato").red == 1 and table.hooper("May Friend").white == 1
    assert table.state.team_fouls == (1, 0)
    assert table.state.turn.attacker == 1 and table.state.score == (0, 0)


def test_screen_offensive_foul_ends_the_turn_and_the_opponent_gives_the_white_cube() -> None:
    table = Table()
    table.do("fundamental", action="screen", position="PF").roll("whistle2")
    assert table.hooper("Wally Block").red == 1
    assert table.prompt.side == 1 and table.prompt.commands[0] == "white_cube"
    with pytest.raises(RuleError, match="first answer the white cube"):
        table.do("fundamental", action="dribble", position="PG")
    table.do("white_cube", hooper="Perry Hel")
    assert table.hooper("Perry Hel").white == 1 and table.state.turn.attacker == 1


def test_screen_with_whistle_3_is_clean_and_gives_its_bonus() -> None:
    table = Table()
    table.do("fundamental", action="screen", position="PF", bonus=20).roll("whistle3")
    assert [(t.label, t.value) for t in table.state.turn.bonuses] == [("screen", 20)]


def test_offensive_rebound_foul_is_only_the_whistle() -> None:
    table = Table()
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("rebound", hooper="Never Tired").roll("whistle2")
    assert table.state.pending.kind == "rebound_roll"
    table = Table()
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("rebound", hooper="Never Tired").roll("whistle")
    assert table.hooper("Never Tired").red == 1 and table.state.decisions[0].kind == "white_cube"


def test_rebound_jump_ball_uses_o_instead_of_v() -> None:
    table = Table()
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("rebound", hooper="Never Tired").roll("jumpball")
    assert table.prompt.target is not None and table.prompt.target.stat_label == "O Never Tired"


def test_intercept_jump_ball_uses_v_instead_of_o() -> None:
    table = Table()
    table.do("fundamental", action="pass", position="SG").do("counter", hooper="Edd Trapp").roll("jumpball")
    assert table.prompt.target is not None and table.prompt.target.text == "55 (V Edd Trapp) = 55"


def _lucy_fouled_on_two(table: Table, face: str = "whistle", defender: str = "May Friend") -> Table:
    """Lucy's SG shoots a 2PS, fouled; the shot and free throws miss; Karl gives the ball back."""
    table.do("attack", shot="2PS", position="SG").do("defend", hooper=defender).roll(face)
    while table.state.decisions:
        if table.state.decisions[0].kind == "injury":
            table.do("injury", effect="lucky")
        else:
            return table
    table.roll(100).roll(100).roll(100)
    return table.do("end_turn")


def test_from_the_third_team_foul_a_counter_foul_gives_two_free_throws_to_the_fundamentals_hooper() -> None:
    table = Table()
    for position, countering in (("SG", "May Friend"), ("PG", "May Friend")):
        table.do("fundamental", action="dribble", position=position).do("counter", hooper=countering)
        table.roll("whistle")
        assert table.state.pending.kind == "play"  # no free throws for the first two
        table.do("end_turn").do("end_turn")
    assert table.state.team_fouls == (0, 2)
    assert GAME.scoreboard(table.state).sides[1].bonus  # the next foul gives free throws
    assert not GAME.scoreboard(table.state).sides[0].bonus
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="Edd Trapp").roll("whistle")
    assert table.state.team_fouls == (0, 3)
    assert table.state.pending.kind == "free_throw" and table.state.pending.free_throws == 2
    assert table.state.pending.hooper == "Muy Schillato"
    table.roll(5).roll(5)
    assert table.state.score == (2, 0) and table.state.pending.kind == "play"  # the action goes on from F2
    assert table.state.turn.lost_slots == ("F1",)


def test_fourth_red_cube_ejects_and_a_benchwarmer_of_the_owners_choice_takes_the_position() -> None:
    table = Table()
    for _ in range(4):
        _lucy_fouled_on_two(table)
    assert table.hooper("May Friend").ejected and table.hooper("May Friend").court is None
    assert table.prompt.commands[0] == "replace" and table.prompt.side == 1
    table.do("replace", hooper="Manny Gentle")
    assert table.state.sides[1].at("PG").name == "Manny Gentle"
    assert table.hooper("Manny Gentle").out_of_position
    assert table.hooper("May Friend").red == 4


def test_fast_play_ejects_at_three_red_cubes_and_injures_at_two_white_cubes() -> None:
    table = Table(options(variant="fast"))
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle")
    table.roll(100).roll(100).roll(100).do("end_turn")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle")
    assert table.state.decisions[0].kind == "injury" and table.hooper("Muy Schillato").white == 0
    table.do("injury", effect="lucky").roll(100).roll(100).roll(100).do("end_turn")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle")
    assert table.hooper("May Friend").ejected and table.hooper("May Friend").red == 3


def test_third_white_cube_draws_an_injury_marker_that_applies_for_the_rest_of_the_game() -> None:
    table = Table()
    _lucy_fouled_on_two(table, "whistle2")
    _lucy_fouled_on_two(table, "whistle2")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle2")
    assert table.prompt.side == 0 and "injury marker" in table.prompt.text
    table.do("injury", effect="attack_minus_10")
    assert table.hooper("Muy Schillato").injuries == ("attack_minus_10",)
    assert table.hooper("Muy Schillato").white == 0  # the marker replaces the three cubes
    table.roll(100).roll(100).roll(100).do("end_turn")
    table.do("attack", shot="3PS", position="SG")
    target = table.prompt.target
    assert target is not None and target.value == 60
    assert "injury Muy Schillato" in target.text


def test_injury_marker_out_sends_the_hooper_to_the_bench_for_good() -> None:
    table = Table()
    _lucy_fouled_on_two(table, "whistle2")
    _lucy_fouled_on_two(table, "whistle2")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle2")
    table.do("injury", effect="out").do("replace", hooper="Joy Kill")
    assert table.hooper("Muy Schillato").injured_out
    assert table.state.sides[0].at("SG").name == "Joy Kill"
    table.roll(100).roll(100).roll(100).do("end_turn")
    with pytest.raises(RuleError, match="out of the game"):
        table.do("substitute", changes={"SG": "Muy Schillato"})


def test_a_hooper_who_cant_defend_is_refused() -> None:
    table = Table(options(first_attacker=1))
    for _ in range(3):
        table.do("attack", shot="2PS", position="SG").do("defend", hooper="Serge Ceptor").roll("whistle2")
        if table.state.decisions:
            table.do("injury", effect="cannot_defend")
        table.roll(100).roll(100).roll(100).do("end_turn")
    assert table.hooper("Chus Kinder").injuries == ("cannot_defend",)
    table.do("end_turn").do("attack", shot="2PS", position="SG")
    with pytest.raises(RuleError, match="can no longer defend"):
        table.do("defend", hooper="Chus Kinder")


def test_team_fouls_reset_when_a_period_ends() -> None:
    table = Table()
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle")
    table.roll(5).roll(5)
    assert table.state.team_fouls == (0, 1)
    while table.state.period == 1:
        table.do("end_turn")
    assert table.state.team_fouls == (0, 0)


def test_rolling_the_wrong_die_is_refused_by_name() -> None:
    table = Table()
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend")
    with pytest.raises(RuleError, match="the game is waiting for the d8 foul die, not the d20"):
        table.roll(45, die="d20x5")
    with pytest.raises(RuleError, match="the d8 foul die shows"):
        table.roll("whistle9")
    table.roll("blank")
    with pytest.raises(RuleError, match="the game is waiting for the d20, not the d8 foul die"):
        table.roll("blank", die="d8foul")


def test_screen_fouls_count_as_team_fouls_but_never_give_free_throws() -> None:
    table = Table()
    for _ in range(3):
        table.do("fundamental", action="screen", position="PF").roll("whistle").do(
            "white_cube", hooper="Perry Hel"
        )
        while table.state.decisions:
            table.do("injury", effect="lucky")
        table.do("end_turn")
    assert table.state.team_fouls == (3, 0)
    table.do("fundamental", action="screen", position="C").roll("whistle")
    assert table.state.team_fouls == (4, 0) and table.state.score == (0, 0)
    assert table.state.pending.kind == "play" and table.state.turn.attacker == 1


def test_free_throws_use_the_2ps_with_its_maluses() -> None:
    table = Table()
    table.do("substitute", changes={"SG": "Never Tired", "C": "Reley Baton"})
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle").roll(100)
    target = table.prompt.target
    assert target is not None and target.text == (
        "50 (2PS Never Tired) + 15 (free throw) - 10 (out of position Never Tired) = 55"
    )


def test_from_the_third_team_foul_an_offensive_rebound_foul_gives_the_opponent_two_free_throws() -> None:
    # The offensive rebound is a counter action; "After having collected three red cubes in this
    # space, your opponent will get two free throws even when you will commit a foul by playing a
    # counter action" (reading 2 in docs/games/valley-hoopers.md).
    table = Table()
    for fouled in ("Perry Hel", "May Friend"):
        table.do("fundamental", action="screen", position="PF").roll("whistle")
        table.do("white_cube", hooper=fouled).do("end_turn")
    assert table.state.team_fouls == (2, 0) and table.state.turn.attacker == 0
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("rebound", hooper="Never Tired").roll("whistle")
    assert table.state.team_fouls == (3, 0) and table.hooper("Never Tired").red == 1
    assert table.state.pending.kind == "free_throw" and table.state.pending.side == 1
    assert table.prompt.commands[0] == "white_cube"
    offered = {c.command["hooper"] for c in table.prompt.choices}
    assert "Chus Kinder" in offered and "Linda Siempre" not in offered  # the fouled one is on the court
    with pytest.raises(RuleError, match="on the bench"):
        table.do("white_cube", hooper="Linda Siempre")
    table.do("white_cube", hooper="Chus Kinder")
    assert table.hooper("Chus Kinder").white == 1 and table.state.pending.hooper == "Chus Kinder"
    assert table.events[-1]["text"] == "Chus Kinder gets the white cube and shoots two free throws"
    table.roll(5).roll(100)
    assert table.state.score == (0, 1)
    assert table.state.turn.attacker == 1 and table.state.pending.kind == "play"  # Karl's turn now
    assert table.state.turn_number == 6


def test_an_offensive_rebound_foul_before_the_bonus_gives_no_free_throws() -> None:
    table = Table()
    table.do("fundamental", action="screen", position="PF").roll("whistle")
    table.do("white_cube", hooper="Perry Hel").do("end_turn")
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("rebound", hooper="Never Tired").roll("whistle").do("white_cube", hooper="Chus Kinder")
    assert table.state.team_fouls == (2, 0) and table.state.score == (0, 0)
    assert table.state.turn.attacker == 1 and table.state.pending.kind == "play"
