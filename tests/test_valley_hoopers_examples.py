"""The rulebook's worked examples, played command by command through decide/apply."""

from __future__ import annotations

from fractions import Fraction

from games.valley_hoopers_table import Table, options

from companion.games.valley_hoopers import GAME


def test_muy_schillato_dribble_and_three_against_edd_trapp_is_70_plus_15_minus_30_and_45_scores_3() -> None:
    table = Table()
    table.do("fundamental", action="dribble", position="SG")
    assert table.prompt.side == 1 and "counter" in table.prompt.commands
    table.do("no_counter").do("attack", shot="3PS", position="SG")
    table.do("defend", hooper="Edd Trapp")
    assert table.prompt.die == "d8foul"
    table.roll("blank")
    prompt = table.prompt
    assert prompt.die == "d20x5"
    assert prompt.target is not None
    assert prompt.target.text == "70 (3PS Muy Schillato) + 15 (dribble) - 30 (D3 Edd Trapp) = 55"
    assert prompt.p_success == Fraction(11, 20)
    assert prompt.expected_points == Fraction(33, 20)
    assert prompt.text == "Lucy: roll the d20 for Muy Schillato's 3-point shot"
    table.roll(45)
    assert table.state.score == (3, 0)
    muy = table.hooper("Muy Schillato")
    assert muy.onfire == 3 and muy.points == 3
    assert muy.energy == 5 - 2  # one energy per card: the dribble and the shot
    assert table.hooper("Edd Trapp").energy == 4
    assert table.state.turn.attacker == 1


def _karl_attacks() -> Table:
    return Table(options(first_attacker=1))


def test_never_tired_steal_with_v_55_fails_on_80_and_karl_keeps_the_dribble_bonus() -> None:
    table = _karl_attacks()
    table.do("fundamental", action="dribble", position="PF")
    assert table.hooper("Hector Prot").energy == 4
    table.do("counter", hooper="Never Tired")
    assert table.hooper("Never Tired").energy == 3
    table.roll("blank")
    assert table.prompt.target is not None and table.prompt.target.text == "55 (V Never Tired) = 55"
    table.roll(80)
    assert table.state.turn.attacker == 1
    assert [(t.label, t.value) for t in table.state.turn.bonuses] == [("dribble", 15)]


def test_hector_prot_lay_up_misses_on_95_steps_back_then_edd_trapp_rebounds_on_05_and_scores_on_80() -> None:
    table = _karl_attacks()
    table.do("fundamental", action="dribble", position="PF").do("counter", hooper="Never Tired")
    table.roll("blank").roll(80)
    table.do("attack", shot="LUP", position="PF")
    assert table.prompt.target is not None and table.prompt.target.value == 85
    table.roll(95)  # no defense card: the d20 straight away, no d8
    assert table.state.score == (0, 0)
    assert table.hooper("Hector Prot").onfire == 1  # one step back towards the cube
    assert table.hooper("Hector Prot").energy == 3
    assert table.prompt.side == 1 and "rebound" in table.prompt.commands
    table.do("rebound", hooper="Edd Trapp").roll("blank")
    assert table.prompt.target is not None and table.prompt.target.text == "55 (V Edd Trapp) = 55"
    table.roll(5)
    table.do("rebound_reward", reward="bonus15")
    assert table.state.turn.attacker == 1 and table.state.turn_number == 1  # the turn token did not move
    table.do("attack", shot="LUP", position="SF")
    assert table.prompt.target is not None
    assert table.prompt.target.text == "65 (LUP Edd Trapp) + 15 (offensive rebound) = 80"
    table.do("no_defense").roll(80)
    assert table.state.score == (0, 2)
    assert table.hooper("Edd Trapp").onfire == 3 and table.hooper("Edd Trapp").energy == 3
    assert table.state.turn.attacker == 0


def test_muy_schillato_against_may_friend_d3_15_is_70_plus_15_minus_15_equals_70() -> None:
    table = Table()
    table.do("fundamental", action="dribble", position="SG").do("attack", shot="3PS", position="SG")
    table.do("defend", hooper="May Friend").roll("blank")
    assert table.prompt.target is not None
    assert table.prompt.target.text == "70 (3PS Muy Schillato) + 15 (dribble) - 15 (D3 May Friend) = 70"
    table.roll(70)
    assert table.state.score == (3, 0)


def test_steal_foul_on_hector_prot_then_chus_kinder_scores_through_the_foul_and_the_free_throw() -> None:
    table = _karl_attacks()
    table.do("fundamental", action="dribble", position="PF").do("counter", hooper="Never Tired")
    table.roll("whistle")
    assert table.hooper("Never Tired").red == 1
    assert table.hooper("Hector Prot").white == 1
    assert table.state.team_fouls == (1, 0)
    assert table.state.turn.lost_slots == ("F1",) and table.state.turn.bonuses == ()
    table.do("fundamental", action="pass", position="PG")  # F2, F1 is no more available
    assert table.state.turn.slots[-1].slot == "F2"
    assert table.hooper("May Friend").energy == 4
    table.do("no_counter")
    table.do("attack", shot="2PS", position="SG")
    table.do("defend", hooper="Dime N'Shons").roll("whistle")
    assert table.hooper("Chus Kinder").white == 1 and table.hooper("Dime N'Shons").red == 1
    assert table.state.team_fouls == (2, 0)
    target = table.prompt.target
    assert target is not None
    assert target.text == (
        "55 (2PS Chus Kinder) + 25 (pass) - 30 (D2 Dime N'Shons) - 20 (foul bonus whistle)" " = 30"
    )
    table.roll(10)
    assert table.state.score == (0, 2)
    assert (
        table.prompt.target is not None
        and table.prompt.target.text == "55 (2PS Chus Kinder) + 15 (free throw) = 70"
    )
    table.roll(50)
    assert table.state.score == (0, 3)
    assert table.hooper("Chus Kinder").points == 3
    assert table.state.turn.attacker == 0


def test_chus_kinder_spends_no_energy_to_attack_after_a_teammates_pass() -> None:
    # The rulebook's example says Chus Kinder "spends one energy"; his printed skill says he does not
    # after a teammate's pass. The skill wins (docs/games/valley-hoopers.md).
    table = _karl_attacks()
    table.do("fundamental", action="pass", position="PG").do("attack", shot="2PS", position="SG")
    assert table.hooper("Chus Kinder").energy == 5


def test_hot_zone_playbook_60_plus_25_plus_15_is_100_and_scores_3_without_a_roll():
    table = Table(
        options(
            lucy_lineup={
                "PG": "Serge Ceptor",
                "SG": "Muy Schillato",
                "SF": "Dime N'Shons",
                "PF": "Wally Block",
                "C": "Reley Baton",
            }
        )
    )
    tokens = table.state.sides[0].coach_tokens
    table.do("fundamental", action="screen", position="C")
    assert table.prompt.die == "d8foul"
    table.roll("blank")
    table.do("playbook", name="HOT ZONE", common=True)
    assert table.state.sides[0].coach_tokens == tokens - 1
    table.do("fundamental", action="dribble", position="PG")
    assert table.prompt.side == 0  # Karl can't interfere: no counter window
    table.do("attack", shot="3PS", position="PG")
    assert table.state.score == (3, 0)  # 100: scored without rolling the d20
    assert "no roll needed" in table.events[-1]["text"]
    assert table.events[-1]["points"] == [3, 0]
    assert table.hooper("Serge Ceptor").energy == 3 and table.hooper("Reley Baton").energy == 4
    assert table.hooper("Serge Ceptor").onfire == 3
    table.do("playbook_reward", reward="draw2")
    assert "HOT ZONE" in table.state.sides[0].playbooks
    assert table.state.turn.attacker == 1


def test_attack_with_target_100_is_automatic_in_the_prompt() -> None:
    table = Table(
        options(
            lucy_lineup={
                "PG": "Serge Ceptor",
                "SG": "Muy Schillato",
                "SF": "Dime N'Shons",
                "PF": "Wally Block",
                "C": "Reley Baton",
            }
        )
    )
    table.do("fundamental", action="screen", position="C").roll("blank")
    table.do("fundamental", action="dribble", position="PG").do("no_counter")
    table.do("attack", shot="3PS", position="PG")
    prompt = table.prompt
    assert prompt.automatic and prompt.p_success == 1 and prompt.target is not None
    assert prompt.target.value == 100
    assert GAME.scoreboard(table.state).target == 100
