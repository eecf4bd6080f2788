"""Personal skills, blocks, Onfire chips and tribe powers: every one that changes a number."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from games.valley_hoopers_table import Table, card, options

from companion.errors import RuleError


def _swap(opts: dict[str, Any], side: int, out: str, new: dict[str, Any]) -> dict[str, Any]:
    """Options with one card of a side's seven replaced (and in the lineup if the old one was)."""
    team = opts["sides"][side]
    team["hoopers"] = [new if h["name"] == out else h for h in team["hoopers"]]
    team["lineup"] = {p: (new["name"] if n == out else n) for p, n in team["lineup"].items()}
    return opts


def _chips(table: Table, name: str, lv1: int = 0, lv2: int = 0) -> None:
    side = table.state.owner(name)
    table.state = table.state.with_hooper(side, replace(table.hooper(name), chips_lv1=lv1, chips_lv2=lv2))


def test_vernon_dely_spends_no_energy_to_pass() -> None:
    vernon = card("Vernon Dely", "PG", "free_pass", 5, ["PG", "SG"])
    table = Table(_swap(options(first_attacker=1), 1, "May Friend", vernon))
    table.do("fundamental", action="pass", position="PG")
    assert table.hooper("Vernon Dely").energy == 5


def test_henry_closure_spends_no_energy_to_defend_a_three_but_does_for_a_two() -> None:
    henry = card("Henry Closure", "SG", "free_d3", 5, ["PG", "SG"])
    table = Table(_swap(options(), 1, "Chus Kinder", henry))
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Henry Closure")
    assert table.hooper("Henry Closure").energy == 5
    table = Table(_swap(options(), 1, "Chus Kinder", henry))
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="Henry Closure")
    assert table.hooper("Henry Closure").energy == 4


def test_wally_block_spends_no_energy_to_screen() -> None:
    table = Table()
    table.do("fundamental", action="screen", position="PF")
    assert table.hooper("Wally Block").energy == 5


def test_faust_exit_spends_no_energy_to_attack_after_a_teammates_screen() -> None:
    faust = card("Faust Exit", "PG", "free_attack_after_screen", 5, ["PG"])
    table = Table(_swap(options(), 0, "Serge Ceptor", faust))
    table.do("fundamental", action="screen", position="PF").roll("blank")
    table.do("attack", shot="2PS", position="PG")
    assert table.hooper("Faust Exit").energy == 5


def test_lance_endure_spends_a_teammates_energy_and_nobody_else_may() -> None:
    lance = card("Lance Endure", "PF", "spends_teammates_energy", 5, ["PF"])
    table = Table(_swap(options(), 0, "Wally Block", lance))
    with pytest.raises(RuleError, match="only Lance Endure"):
        table.do("attack", shot="2PS", position="SG", energy_from="Joy Kill")
    table.do("attack", shot="2PS", position="PF", energy_from="Joy Kill")
    assert table.hooper("Lance Endure").energy == 5 and table.hooper("Joy Kill").energy == 4


def test_may_friend_donates_one_energy_to_a_teammate_who_is_not_exhausted() -> None:
    table = Table()
    table.state = table.state.with_hooper(1, replace(table.hooper("Edd Trapp"), energy=2))
    table.do("donate", hooper="May Friend", to="Edd Trapp")
    assert table.hooper("May Friend").energy == 4 and table.hooper("Edd Trapp").energy == 3
    table.state = table.state.with_hooper(1, replace(table.hooper("Edd Trapp"), energy=0))
    with pytest.raises(RuleError, match="exhausted"):
        table.do("donate", hooper="May Friend", to="Edd Trapp")


def test_perry_hel_adds_his_defense_stat_or_half_of_it_off_his_flag() -> None:
    table = Table()
    table.do("attack", shot="2PS", position="PF").do("defend", hooper="Hector Prot", helper="Perry Hel")
    table.roll("blank")
    assert (
        table.prompt.target is not None and table.prompt.target.value == 50 - 20 - 25
    )  # PF is in his flag: all 25
    assert table.hooper("Perry Hel").energy == 4
    table = Table()
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend", helper="Perry Hel")
    table.roll("blank")
    assert table.prompt.target is not None and "12 (D2 Perry Hel (help))" in table.prompt.target.text


def test_maddy_cure_scoring_gives_a_teammate_one_energy() -> None:
    maddy = card("Maddy Cure", "PF", "cures_on_score", 5, ["PF"])
    table = Table(_swap(options(first_attacker=1), 1, "Hector Prot", maddy))
    table.state = table.state.with_hooper(1, replace(table.hooper("Edd Trapp"), energy=2))
    table.do("attack", shot="LUP", position="PF").do("no_defense").roll(5)
    assert table.prompt.side == 1 and table.prompt.commands[0] == "cure"
    table.do("cure", hooper="Edd Trapp")
    assert table.hooper("Edd Trapp").energy == 3


def test_sin_miedo_fouled_gives_the_defender_no_foul_bonus() -> None:
    sin = card("Sin Miedo", "SG", "no_foul_bonus_against", 5, ["SG"])
    table = Table(_swap(options(), 0, "Muy Schillato", sin))
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend").roll("whistle")
    assert table.prompt.target is not None and table.prompt.target.value == 50 - 20
    assert table.hooper("May Friend").red == 1 and table.state.pending.fouled


def test_linda_siempre_whistle_is_no_foul_but_she_keeps_the_bonus_and_the_attacker_gets_the_white_cube() -> (
    None
):
    table = Table(
        options(
            karl_lineup={
                "PG": "May Friend",
                "SG": "Chus Kinder",
                "SF": "Edd Trapp",
                "PF": "Hector Prot",
                "C": "Linda Siempre",
            }
        )
    )
    table.do("attack", shot="2PS", position="PF").do("defend", hooper="Linda Siempre").roll("whistle")
    assert table.hooper("Linda Siempre").red == 0 and table.state.team_fouls == (0, 0)
    assert table.hooper("Wally Block").white == 1
    assert table.prompt.target is not None and table.prompt.target.value == 50 - 25 - 20
    table.roll(100)
    assert table.state.pending.kind == "rebound_window"  # no free throws


def test_never_tired_recovers_one_extra_energy_never_above_his_maximum() -> None:
    table = Table()
    table.state = table.state.with_hooper(0, replace(table.hooper("Never Tired"), energy=1))
    table.do("timeout").do("timeout_energy", hoopers=["Edd Trapp", "May Friend"])
    assert table.hooper("Never Tired").energy == 3
    table.do("end_turn").do("end_turn").do("timeout").do(
        "timeout_energy", hoopers=["Edd Trapp", "May Friend"]
    )
    assert table.hooper("Never Tired").energy == 4


def test_edd_trapp_defends_a_three_with_his_defense_lay_up() -> None:
    table = Table()
    with pytest.raises(RuleError, match="defended with a D3"):
        table.do("attack", shot="3PS", position="SG").do("defend", hooper="May Friend", defense="DLU")
    table = Table()
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Edd Trapp", defense="DLU")
    table.roll("whistle")
    assert table.prompt.target is not None and table.prompt.target.text == (
        "70 (3PS Muy Schillato) - 25 (DLU Edd Trapp) - 10 (foul bonus whistle) = 35"
    )
    table.roll(100)
    assert table.state.pending.free_throws == 3


def test_susan_peg_clean_rebound_is_a_lay_up_with_her_v_that_cant_be_defended() -> None:
    susan = card("Susan Peg", "C", "rebound_layup", 5, ["C"], V=60)
    table = Table(_swap(options(), 0, "Never Tired", susan))
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("rebound", hooper="Susan Peg").roll("blank")
    assert table.prompt.target is not None and table.prompt.target.value == 60
    table.roll(60)
    assert table.state.score == (2, 0) and table.hooper("Susan Peg").points == 2


def test_lv1_boost_chip_adds_10_and_a_stellar_hooper_cant_be_countered() -> None:
    table = Table()
    _chips(table, "Muy Schillato", lv1=1)
    table.do("fundamental", action="dribble", position="SG", chip="boost")
    assert table.prompt.side == 0  # stellar Muy Schillato: no counter window
    table.do("attack", shot="3PS", position="SG")
    assert table.prompt.target is not None and table.prompt.target.value == 95


def test_lv1_boost_chip_on_a_defense_adds_10_to_the_defense() -> None:
    table = Table()
    _chips(table, "Edd Trapp", lv1=1)
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Edd Trapp", chip="boost").roll("blank")
    assert table.prompt.target is not None and table.prompt.target.value == 70 - 30 - 10
    assert table.hooper("Edd Trapp").chips_lv1 == 0


def test_muy_schillato_gets_his_lv1_chip_back_once_without_the_stellar_extra() -> None:
    table = Table()
    _chips(table, "Muy Schillato", lv1=1)
    table.do("fundamental", action="dribble", position="SG", chip="boost")
    assert table.hooper("Muy Schillato").reused_chips == ("boost",)
    table.do("attack", shot="3PS", position="SG", chip="boost")
    assert table.prompt.side == 1 and "defend" in table.prompt.commands  # the reused chip: can be defended
    assert table.prompt.target is not None and table.prompt.target.value == 70 + 15 + 10 + 10
    assert table.hooper("Muy Schillato").reused_chips == ()
    with pytest.raises(RuleError, match="no Onfire LV.1 chip"):
        Table().do("attack", shot="3PS", position="SG", chip="boost")


def test_lv1_chip_removes_an_opponents_steal_before_it_is_resolved() -> None:
    table = Table()
    _chips(table, "Muy Schillato", lv1=1)
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="May Friend")
    with pytest.raises(RuleError, match="not a intercept"):
        table.do("chip", hooper="Muy Schillato", effect="remove_intercept")
    table.do("chip", hooper="Muy Schillato", effect="remove_steal")
    assert table.state.pending.kind == "play" and sum(t.value for t in table.state.turn.bonuses) == 25


@pytest.mark.parametrize(
    ("face", "expected"),
    [
        ("whistle", "free_throw"),
        ("whistle2", "F2"),
        ("whistle3", "F2"),
        ("jumpball", "A"),
        ("charge", "A"),
        ("blank", "ball"),
    ],
)
def test_block_outcomes_follow_the_foul_die(face: str, expected: str) -> None:
    table = Table()
    _chips(table, "Edd Trapp", lv1=1)
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Edd Trapp", block="chip").roll(face)
    state = table.state
    if expected == "free_throw":
        assert state.pending.kind == "free_throw" and state.pending.free_throws == 3
        assert table.hooper("Edd Trapp").red == 1
    elif expected == "ball":
        assert state.turn.attacker == 1 and table.hooper("Muy Schillato").onfire == 1
    else:
        lost = ("F1",) if expected == "F2" else ("F1", "F2")
        assert state.turn.attacker == 0 and state.turn.lost_slots == lost and state.turn.bonuses == ()
        assert state.turn_number == 1


def test_keepers_tribe_block_makes_the_jump_ball_a_foul_too_and_lindas_whistle_a_jump_ball() -> None:
    table = Table()
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="May Friend", block="tribe").roll(
        "jumpball"
    )
    assert table.state.pending.kind == "free_throw" and table.state.pending.free_throws == 2
    table = Table(
        options(
            karl_lineup={
                "PG": "May Friend",
                "SG": "Chus Kinder",
                "SF": "Edd Trapp",
                "PF": "Hector Prot",
                "C": "Linda Siempre",
            }
        )
    )
    table.do("attack", shot="2PS", position="PF").do("defend", hooper="Linda Siempre", block="tribe")
    table.roll("whistle")
    assert table.state.turn.lost_slots == ("F1", "F2") and table.hooper("Linda Siempre").red == 0
    with pytest.raises(RuleError, match="only the Keepers"):
        Table(options(first_attacker=1)).do("attack", shot="2PS", position="SG").do(
            "defend", hooper="Muy Schillato", block="tribe"
        )


def test_lv2_fast_break_after_a_successful_counter_scores_two_and_ends_the_turn() -> None:
    table = Table()
    _chips(table, "May Friend", lv2=1)
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="May Friend").roll(
        "blank"
    ).roll(5)
    table.do("chip", hooper="May Friend", effect="fast_break")
    assert table.state.score == (0, 2) and table.state.turn.attacker == 0


def test_lv2_tap_out_cancels_the_opponents_basket() -> None:
    table = Table()
    _chips(table, "May Friend", lv2=1)
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    table.do("chip", hooper="May Friend", effect="tap_out")
    assert table.state.score == (0, 0) and table.hooper("Muy Schillato").points == 0


def test_lv2_goal_tending_makes_an_own_miss_successful() -> None:
    table = Table()
    _chips(table, "Muy Schillato", lv2=1)
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("chip", hooper="Muy Schillato", effect="goal_tending")
    assert table.state.score == (3, 0) and table.state.turn.attacker == 1


def test_lv2_never_give_up_energy_drink_and_no_way_block() -> None:
    table = Table()
    _chips(table, "Muy Schillato", lv2=2)
    tokens = table.state.sides[0].coach_tokens
    table.state = table.state.with_hooper(0, replace(table.hooper("Muy Schillato"), energy=1))
    table.do("chip", hooper="Muy Schillato", effect="never_give_up")
    table.do("chip", hooper="Muy Schillato", effect="energy_drink")
    assert table.state.sides[0].coach_tokens == tokens + 1 and table.hooper("Muy Schillato").energy == 5
    table = Table()
    _chips(table, "Edd Trapp", lv2=1)
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Edd Trapp", block="no_way").roll(
        "blank"
    )
    assert table.hooper("Edd Trapp").energy == 5 and table.state.turn.attacker == 1


def test_lv2_buzzer_beater_is_an_extra_turn_in_slot_a_with_no_bonus_and_the_token_does_not_move() -> None:
    table = Table()
    _chips(table, "Muy Schillato", lv2=1)
    table.do("chip", hooper="Muy Schillato", effect="buzzer_beater")
    with pytest.raises(RuleError, match="slot A only"):
        table.do("fundamental", action="dribble", position="SG")
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    assert table.state.score == (3, 0) and table.hooper("Muy Schillato").energy == 5
    assert table.state.turn.attacker == 0 and table.state.turn_number == 1


def test_unleashed_tribe_power_second_use_fouled_on_a_whistle_is_a_flagrant_foul() -> None:
    table = Table(options(first_attacker=1))
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="Muy Schillato")
    table.roll("blank").roll(5)
    assert table.state.turn.attacker == 0 and table.state.turn_number == 2
    table.do("tribe_power").do("attack", shot="3PS", position="SG")
    assert table.hooper("Muy Schillato").energy == 4  # same hooper on both halves: one energy
    table.do("defend", hooper="May Friend").roll("whistle")
    assert table.state.pending.kind == "free_throw" and table.state.pending.free_throws == 2
    assert table.hooper("May Friend").red == 1
    table.roll(5).roll(5)
    assert table.state.score == (2, 0)
    assert table.state.turn.attacker == 0 and table.state.turn.lost_slots == ("F1",)
    table.do("end_turn")
    assert table.state.turn_number == 2  # the tribe-power turn did not move the turn token
    with pytest.raises(RuleError, match="Karl is not the Unleashed"):
        table.do("tribe_power")
    table.do("end_turn")
    with pytest.raises(RuleError, match="follows a successful counter"):
        table.do("tribe_power")


def test_lv2_coast_to_coast_after_the_opponents_basket_scores_two() -> None:
    table = Table()
    _chips(table, "May Friend", lv2=1)
    with pytest.raises(RuleError, match="beginning of your attacking turn"):
        table.do("chip", hooper="May Friend", effect="coast_to_coast")
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    table.do("chip", hooper="May Friend", effect="coast_to_coast")
    assert table.state.score == (3, 2) and table.state.turn.attacker == 0


def test_unleashed_tribe_power_after_a_defended_miss_comes_before_the_opponents_rebound() -> None:
    table = Table(options(first_attacker=1))
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="Muy Schillato").roll("blank").roll(100)
    assert table.state.pending.kind == "rebound_window" and table.prompt.side == 1
    table.do("tribe_power")
    assert table.state.turn.attacker == 0 and table.state.turn.tribe_power
    assert table.state.turn.retriever == "Muy Schillato"
    table.do("fundamental", action="dribble", position="SG")
    assert table.hooper("Muy Schillato").energy == 4  # the defense card's energy only: one for both halves


@pytest.mark.parametrize(
    ("face", "expected"), [("whistle", "foul"), ("whistle3", "F2"), ("charge", "A"), ("blank", "ball")]
)
def test_a_chip_block_on_a_counter_follows_the_block_faces(face: str, expected: str) -> None:
    table = Table()
    _chips(table, "May Friend", lv1=1)
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="May Friend", block="chip")
    assert table.prompt.die == "d8foul"
    table.roll(face)
    state = table.state
    if expected == "foul":
        assert table.hooper("May Friend").red == 1 and state.turn.lost_slots == ("F1",)
    elif expected == "ball":
        assert state.turn.attacker == 1 and table.hooper("Muy Schillato").onfire == 1
    else:
        lost = ("F1",) if expected == "F2" else ("F1", "F2")
        assert state.turn.attacker == 0 and state.turn.lost_slots == lost and state.turn.bonuses == ()


def _injure(table: Table, name: str, effect: str) -> None:
    side = table.state.owner(name)
    table.state = table.state.with_hooper(side, replace(table.hooper(name), injuries=(effect,)))


def test_an_injury_that_takes_the_skill_makes_wally_block_pay_for_his_screen() -> None:
    table = Table()
    _injure(table, "Wally Block", "loses_skill")
    table.do("fundamental", action="screen", position="PF")
    assert table.hooper("Wally Block").energy == 4


def test_injury_markers_cannot_attack_and_defense_minus_10() -> None:
    table = Table()
    _injure(table, "Muy Schillato", "cannot_attack")
    with pytest.raises(RuleError, match="can no longer attack"):
        table.do("attack", shot="3PS", position="SG")
    _injure(table, "May Friend", "defense_minus_10")
    table.do("fundamental", action="dribble", position="PG").do("no_counter")
    table.do("attack", shot="3PS", position="PG").do("defend", hooper="May Friend").roll("blank")
    assert table.prompt.target is not None and table.prompt.target.text == (
        "60 (3PS Serge Ceptor) + 15 (dribble) - 15 (D3 May Friend) + 10 (injury May Friend) = 70"
    )


def test_a_chip_boost_on_a_fouled_fundamental_is_lost_with_its_slot() -> None:
    table = Table()
    _chips(table, "Dime N'Shons", lv1=1)
    table.do("fundamental", action="dribble", position="SF", chip="boost")
    assert table.prompt.side == 1  # Dime N'Shons is not stellar: his boosted dribble can be countered
    table.do("counter", hooper="Edd Trapp").roll("whistle")
    assert table.state.turn.bonuses == () and table.hooper("Dime N'Shons").chips_lv1 == 0


@pytest.mark.parametrize("face", ["whistle2", "whistle3", "jumpball", "charge", "blank"])
def test_a_stellar_chip_block_without_a_foul_recovers_the_ball(face: str) -> None:
    # LV.1 chip: "If your hooper is stellar and does not commit any foul, then he/she recovers the ball."
    table = Table()
    _chips(table, "Muy Schillato", lv1=1)
    table.do("end_turn")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="Muy Schillato", block="chip")
    table.roll(face)
    assert table.state.turn.attacker == 0 and table.state.pending.kind == "play"
    assert table.state.score == (0, 0) and table.hooper("Chus Kinder").onfire == 1


def test_a_stellar_chip_block_that_fouls_still_gives_free_throws() -> None:
    table = Table()
    _chips(table, "Muy Schillato", lv1=1)
    table.do("end_turn")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="Muy Schillato", block="chip")
    table.roll("whistle")
    assert table.state.pending.kind == "free_throw" and table.state.pending.free_throws == 2
    assert table.hooper("Muy Schillato").red == 1


def test_a_stellar_chip_block_on_a_counter_recovers_the_ball_on_every_face_but_a_foul() -> None:
    table = Table()
    _chips(table, "Muy Schillato", lv1=1)
    table.do("end_turn")
    table.do("fundamental", action="dribble", position="SG")
    table.do("counter", hooper="Muy Schillato", block="chip").roll("whistle3")
    assert table.state.turn.attacker == 0 and table.state.turn.retriever == "Muy Schillato"


def test_muy_schillatos_chip_used_again_blocks_without_the_stellar_recovery() -> None:
    # His skill gives the chip back "without applying the stellar extra bonus".
    table = Table()
    _chips(table, "Muy Schillato", lv1=1)
    table.do("end_turn")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="Muy Schillato", block="chip")
    table.roll("whistle2")
    assert table.state.turn.attacker == 0
    assert table.hooper("Muy Schillato").reused_chips == ("block",)
    table.do("end_turn")
    table.do("attack", shot="2PS", position="SG").do("defend", hooper="Muy Schillato", block="chip")
    table.roll("whistle2")
    assert table.state.turn.attacker == 1 and table.state.turn.lost_slots == ("F1",)


def test_a_chip_block_needs_the_blockers_stellar_mark_entered() -> None:
    table = Table()
    edd = replace(table.hooper("Edd Trapp"), chips_lv1=1, stellar=None)
    table.state = table.state.with_hooper(1, edd)
    table.do("attack", shot="3PS", position="SG")
    with pytest.raises(RuleError, match="stellar mark is not entered yet"):
        table.do("defend", hooper="Edd Trapp", block="chip")
    assert table.hooper("Edd Trapp").chips_lv1 == 1  # refused, nothing spent


@pytest.mark.parametrize("face", ["whistle2", "whistle3", "jumpball", "charge", "blank"])
def test_a_no_way_block_without_a_foul_recovers_the_ball(face: str) -> None:
    # LV.2 "No Way Block!: You gain a block ..., if you do not commit foul, then you recover the ball."
    # Edd Trapp is not stellar: the recovery does not depend on it (unlike the LV.1 block chip).
    table = Table()
    _chips(table, "Edd Trapp", lv2=1)
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Edd Trapp", block="no_way")
    table.roll(face)
    assert table.state.turn.attacker == 1 and table.state.pending.kind == "play"
    assert table.state.score == (0, 0) and table.hooper("Edd Trapp").chips_lv2 == 0


def test_a_no_way_block_that_fouls_gives_the_free_throws() -> None:
    table = Table()
    _chips(table, "Edd Trapp", lv2=1)
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Edd Trapp", block="no_way")
    table.roll("whistle")
    assert table.state.pending.kind == "free_throw" and table.state.pending.free_throws == 3
    assert table.hooper("Edd Trapp").red == 1


def test_a_no_way_block_substitutes_a_counter_and_spends_no_energy() -> None:
    table = Table()
    _chips(table, "Edd Trapp", lv2=1)
    energy = table.hooper("Edd Trapp").energy
    table.do("fundamental", action="dribble", position="SG")
    table.do("counter", hooper="Edd Trapp", block="no_way").roll("jumpball")
    assert table.state.turn.attacker == 1 and table.state.turn.retriever == "Edd Trapp"
    assert table.hooper("Edd Trapp").energy == energy and table.hooper("Edd Trapp").chips_lv2 == 0
