"""Ball dynamics, counters, rebounds, the Onfire track, coach actions and playbooks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from games.valley_hoopers_table import Table, options

from companion.errors import RuleError


def test_dribble_sg_then_screen_c_then_the_sg_must_attack() -> None:
    table = Table()
    table.do("fundamental", action="dribble", position="SG").do("fundamental", action="screen", position="C")
    table.roll("blank")
    with pytest.raises(RuleError, match="Muy Schillato dribbled and still has the ball"):
        table.do("attack", shot="2PS", position="PG")
    table.do("attack", shot="2PS", position="SG")


def test_pass_sf_then_pass_pf_then_anyone_but_the_pf_may_attack() -> None:
    table = Table()
    table.do("fundamental", action="pass", position="SF").do("fundamental", action="pass", position="PF")
    with pytest.raises(RuleError, match="Wally Block passed last: they can't take the shot"):
        table.do("attack", shot="2PS", position="PF")
    table.do("attack", shot="2PS", position="SF")


def test_pass_sg_then_screen_c_then_neither_the_c_nor_the_sg_may_attack() -> None:
    table = Table()
    table.do("fundamental", action="pass", position="SG").do("fundamental", action="screen", position="C")
    table.roll("blank")
    for position in ("C", "SG"):
        with pytest.raises(RuleError, match="last"):
            table.do("attack", shot="2PS", position=position)
    table.do("attack", shot="2PS", position="PG")


def test_screen_c_then_pass_pf_then_only_the_pf_may_not_attack_and_the_c_may() -> None:
    table = Table()
    table.do("fundamental", action="screen", position="C").roll("blank")
    table.do("fundamental", action="pass", position="PF")
    with pytest.raises(RuleError, match="passed last"):
        table.do("attack", shot="LUP", position="PF")
    table.do("attack", shot="LUP", position="C")


def test_the_passer_message_uses_the_hoopers_pronoun() -> None:
    table = Table(options(first_attacker=1))
    table.state = table.state.with_hooper(1, replace(table.hooper("Chus Kinder"), pronoun="his"))
    table.do("fundamental", action="pass", position="SG")
    with pytest.raises(RuleError, match="Chus Kinder passed last: he can't take the shot"):
        table.do("attack", shot="2PS", position="SG")


def test_a_third_fundamental_is_refused() -> None:
    table = Table()
    table.do("fundamental", action="dribble", position="SG").do(
        "fundamental", action="dribble", position="SG"
    )
    with pytest.raises(RuleError, match="F1 and F2 are used"):
        table.do("fundamental", action="dribble", position="SG")


def test_successful_steal_starts_the_counterers_attacking_turn_and_moves_the_turn_token() -> None:
    table = Table()
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="May Friend").roll("blank")
    table.roll(5)
    assert table.state.turn.attacker == 1 and table.state.turn_number == 2
    assert table.state.turn.began_after == "counter"


def test_steal_uses_o_against_guards_v_against_forwards_and_the_worse_against_the_sf() -> None:
    table = Table(options(first_attacker=1))
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="Muy Schillato")
    assert table.state.pending.stat == "O"
    table = Table(options(first_attacker=1))
    table.do("fundamental", action="dribble", position="PF").do("counter", hooper="Never Tired")
    assert table.state.pending.stat == "V"
    table = Table(options(first_attacker=1))
    table.state = table.state.with_hooper(
        0, replace(table.hooper("Dime N'Shons"), stats=(("O", 60), ("V", 35)))
    )
    table.do("fundamental", action="dribble", position="SF").do("counter", hooper="Dime N'Shons").roll(
        "blank"
    )
    assert table.prompt.target is not None and table.prompt.target.text == "35 (V Dime N'Shons) = 35"


def test_counter_only_by_a_hooper_whose_flag_holds_the_position() -> None:
    table = Table()
    table.do("fundamental", action="dribble", position="SG")
    with pytest.raises(
        RuleError, match="Perry Hel's defensive flag \\(PF/C\\) does not hold Muy Schillato's"
    ):
        table.do("counter", hooper="Perry Hel")


def test_joy_kill_failed_counter_gives_the_fundamental_a_minus_10() -> None:
    table = Table(
        options(
            first_attacker=1,
            lucy_lineup={
                "PG": "Serge Ceptor",
                "SG": "Joy Kill",
                "SF": "Dime N'Shons",
                "PF": "Wally Block",
                "C": "Never Tired",
            },
        )
    )
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="Joy Kill").roll("blank")
    table.roll(100)
    assert sum(t.value for t in table.state.turn.bonuses) == 5


def test_manny_gentle_counters_without_rolling_the_foul_die() -> None:
    table = Table(
        options(
            karl_lineup={
                "PG": "May Friend",
                "SG": "Chus Kinder",
                "SF": "Manny Gentle",
                "PF": "Hector Prot",
                "C": "Perry Hel",
            }
        )
    )
    table.do("fundamental", action="dribble", position="SF").do("counter", hooper="Manny Gentle")
    assert table.prompt.die == "d20x5" and table.state.pending.kind == "counter_roll"


def test_serge_ceptor_spends_no_energy_to_intercept() -> None:
    table = Table(options(first_attacker=1))
    table.do("fundamental", action="pass", position="SG").do("counter", hooper="Serge Ceptor")
    assert table.hooper("Serge Ceptor").energy == 5


def test_dime_nshons_may_counter_with_a_rebound_card_and_nobody_else() -> None:
    table = Table(options(first_attacker=1))
    table.do("fundamental", action="pass", position="SG")
    with pytest.raises(RuleError, match="only Dime N'Shons"):
        table.do("counter", hooper="Muy Schillato", card="rebound")
    table.do("counter", hooper="Dime N'Shons", card="rebound")
    assert table.state.pending.kind == "counter_check"


def test_exhausted_hooper_cant_be_assigned() -> None:
    table = Table()
    table.state = table.state.with_hooper(0, replace(table.hooper("Muy Schillato"), energy=0))
    with pytest.raises(RuleError, match="Muy Schillato has no energy left"):
        table.do("attack", shot="3PS", position="SG")


def test_onfire_lv1_may_be_redeemed_and_failing_while_going_for_lv2_drops_to_flat() -> None:
    table = Table()
    table.state = table.state.with_hooper(0, replace(table.hooper("Muy Schillato"), onfire=3))
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    assert table.hooper("Muy Schillato").onfire == 4
    table.do("end_turn")
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100).do("no_rebound")
    assert table.hooper("Muy Schillato").onfire == 2
    table.state = table.state.with_hooper(0, replace(table.hooper("Muy Schillato"), onfire=4))
    table.do("end_turn").do("redeem", hooper="Muy Schillato")
    assert table.hooper("Muy Schillato").chips_lv1 == 1 and table.hooper("Muy Schillato").onfire == 2


def test_reaching_lv2_gives_a_lv2_chip_and_the_cube_space_a_white_cube() -> None:
    table = Table()
    table.state = table.state.with_hooper(0, replace(table.hooper("Muy Schillato"), onfire=4))
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    assert table.hooper("Muy Schillato").chips_lv2 == 1 and table.hooper("Muy Schillato").onfire == 2
    table.do("end_turn")
    table.state = table.state.with_hooper(0, replace(table.hooper("Muy Schillato"), onfire=1))
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    assert table.hooper("Muy Schillato").white == 1 and table.hooper("Muy Schillato").onfire == 2


def test_hector_prot_moves_forward_on_the_onfire_track_when_his_defense_succeeds() -> None:
    table = Table()
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Hector Prot").roll("blank").roll(100)
    assert table.hooper("Hector Prot").onfire == 3


def test_offensive_rebound_draw2_gives_a_new_attacking_turn_with_f1_and_no_bonus() -> None:
    table = Table()
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("rebound", hooper="Never Tired").roll("blank").roll(5).do("rebound_reward", reward="draw2")
    assert table.state.turn.attacker == 0 and table.state.turn.fresh and table.state.turn_number == 1
    table.do("attack", shot="3PS", position="SG")
    assert table.prompt.target is not None and table.prompt.target.value == 70


def test_rebound_bonus_is_lost_if_the_next_card_is_not_the_rebounders_attack() -> None:
    table = Table()
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(100)
    table.do("rebound", hooper="Muy Schillato").roll("blank")
    table.state = replace(table.state, pending=replace(table.state.pending, stat="V"))
    table.roll(5).do("rebound_reward", reward="bonus15")
    table.do("fundamental", action="dribble", position="SG").do("no_counter").do(
        "attack", shot="3PS", position="SG"
    )
    assert table.prompt.target is not None and table.prompt.target.value == 85


def test_timeout_gives_own_hoopers_one_energy_and_the_opponent_two_energies_on_two_hoopers() -> None:
    table = Table()
    table.do("fundamental", action="dribble", position="SG").do("no_counter").do("end_turn")
    table.do("fundamental", action="dribble", position="SG").do("no_counter").do("end_turn")
    table.state = table.state.with_hooper(1, replace(table.hooper("May Friend"), energy=4))
    tokens = table.state.sides[0].coach_tokens
    table.do("timeout")
    assert table.state.sides[0].timeouts == 2 and table.state.sides[0].coach_tokens == tokens - 1
    assert table.hooper("Muy Schillato").energy == 5
    assert table.prompt.side == 1 and table.prompt.commands[0] == "timeout_energy"
    with pytest.raises(RuleError, match="two different hoopers"):
        table.do("timeout_energy", hoopers=["Chus Kinder", "Chus Kinder"])
    table.do("timeout_energy", hoopers=["Chus Kinder", "May Friend"])
    assert table.hooper("Chus Kinder").energy == 5 and table.hooper("May Friend").energy == 5
    table.do("substitute", changes={"C": "Reley Baton"})  # free inside the timeout
    assert table.state.sides[0].coach_tokens == tokens - 1
    assert table.hooper("Never Tired").court is None


def test_timeout_opponent_may_spend_a_coach_token_for_the_full_benefit() -> None:
    table = Table()
    table.do("timeout")
    tokens = table.state.sides[1].coach_tokens
    table.state = table.state.with_hooper(1, replace(table.hooper("Edd Trapp"), energy=2))
    table.do("timeout_energy", coach_token=True)
    assert table.state.sides[1].coach_tokens == tokens - 1 and table.hooper("Edd Trapp").energy == 3


def test_substitution_costs_one_coach_token_resets_onfire_and_rests_the_bench_hooper() -> None:
    table = Table()
    table.state = table.state.with_hooper(0, replace(table.hooper("Dime N'Shons"), onfire=3, energy=2))
    tokens = table.state.sides[0].coach_tokens
    table.do("substitute", changes={"SF": "Joy Kill"})
    assert table.state.sides[0].coach_tokens == tokens - 1
    dime = table.hooper("Dime N'Shons")
    assert dime.court is None and dime.onfire == 2 and dime.energy == 3
    with pytest.raises(RuleError, match="beginning of your attacking turn"):
        table.do("fundamental", action="dribble", position="SG").do(
            "substitute", changes={"SF": "Dime N'Shons"}
        )


def test_reley_baton_comes_in_from_the_bench_without_a_coach_token() -> None:
    table = Table()
    tokens = table.state.sides[0].coach_tokens
    table.do("substitute", changes={"C": "Reley Baton"})
    assert table.state.sides[0].coach_tokens == tokens


def test_out_of_position_is_minus_10_on_attack_and_minus_5_on_defense_but_not_on_o_and_v() -> None:
    table = Table()
    table.do("substitute", changes={"SG": "Never Tired", "C": "Reley Baton"})
    assert table.hooper("Never Tired").out_of_position
    table.do("attack", shot="2PS", position="SG")
    assert table.prompt.target is not None and table.prompt.target.value == 40
    table.do("no_defense").roll(100).do("no_rebound")
    table.do("attack", shot="2PS", position="PF").do("defend", hooper="Reley Baton").roll("blank")
    # Reley Baton plays C, one of her positions: no malus. Never Tired's O/V are untouched.
    assert table.prompt.target is not None and table.prompt.target.value == 50 - 20
    assert "out of position" not in table.prompt.target.text
    table.roll(100).do("no_rebound")
    table.do("end_turn").do("fundamental", action="dribble", position="PF").do(
        "counter", hooper="Never Tired"
    )
    table.roll("blank")
    assert table.prompt.target is not None and table.prompt.target.value == 55


def test_free_substitutions_between_periods_for_both_sides() -> None:
    table = Table()
    for _ in range(16):
        table.do("end_turn")
    tokens = table.state.sides[0].coach_tokens
    table.do("substitute", side=0, changes={"SF": "Joy Kill"})
    assert table.state.sides[0].coach_tokens == tokens


def test_a_failed_common_playbook_is_discarded_with_its_coach_token() -> None:
    table = Table()
    tokens = table.state.sides[0].coach_tokens
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    table.do("playbook", name="ISO", common=True)
    table.do("fundamental", action="screen", position="C", bonus=0).roll("blank")
    table.do("attack", shot="3PS", position="SG")
    assert table.prompt.target is not None and table.prompt.target.value == 85
    table.roll(100).do("no_rebound")
    assert table.state.sides[0].coach_tokens == tokens - 1 and "ISO" not in table.state.sides[0].playbooks


def test_playbook_reward_energy_recovers_f2_and_a_but_never_f1() -> None:
    table = Table()
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    table.do("playbook", name="Pick 'N' Stay", common=False)
    table.do("fundamental", action="dribble", position="SG").do("attack", shot="3PS", position="SG")
    assert table.state.score == (3, 0)  # 70 + 15 + 15 = 100: no roll
    table.do("playbook_reward", reward="energy")
    assert table.hooper("Muy Schillato").energy == 5 - 3 + 2


def test_playbook_needs_a_successful_f1() -> None:
    table = Table()
    with pytest.raises(RuleError, match="successful F1"):
        table.do("playbook", name="HOT ZONE")
    table.do("fundamental", action="dribble", position="SG").do("counter", hooper="May Friend").roll(
        "whistle"
    )
    with pytest.raises(RuleError, match="successful F1"):
        table.do("playbook", name="HOT ZONE")


def test_a_jump_ball_on_a_steal_against_an_sf_uses_the_better_of_o_and_v() -> None:
    table = Table(options(first_attacker=1))
    table.state = table.state.with_hooper(
        0, replace(table.hooper("Dime N'Shons"), stats=(("O", 60), ("V", 35)))
    )
    table.do("fundamental", action="dribble", position="SF").do("counter", hooper="Dime N'Shons").roll(
        "jumpball"
    )
    assert table.prompt.target is not None and table.prompt.target.text == "60 (O Dime N'Shons) = 60"


def test_the_play_prompt_lists_only_the_command_types_that_fit_the_moment() -> None:
    table = Table()
    assert {"timeout", "substitute", "fundamental"} <= set(table.prompt.commands)
    assert "playbook" not in table.prompt.commands and "tribe_power" not in table.prompt.commands
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    commands = table.prompt.commands
    assert "playbook" in commands and "timeout" not in commands and "substitute" not in commands
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    assert "fundamental" not in table.prompt.commands and "attack" in table.prompt.commands
