"""The turn track, periods, overtime, milestones and the variants; setup and its refusals."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from games.valley_hoopers_table import Table, options

from companion.errors import CommandError, RuleError
from companion.games import find_game
from companion.games.valley_hoopers import GAME, load_roster, shipped_roster
from companion.games.valley_hoopers.setup_options import example_options


def _end_turns(table: Table, count: int) -> Table:
    for _ in range(count):
        table.do("end_turn")
    return table


def test_the_game_is_found_by_name_and_alias() -> None:
    assert find_game("vh") is GAME and find_game("valley-hoopers") is GAME


def test_a_period_is_eight_pairs_of_attacking_turns_and_the_clock_shows_the_pair() -> None:
    table = Table()
    assert GAME.scoreboard(table.state).clock == "1/8" and GAME.scoreboard(table.state).period == "P1"
    _end_turns(table, 3)
    assert GAME.scoreboard(table.state).clock == "2/8" and table.state.turn.attacker == 1
    _end_turns(table, 13)
    assert table.state.period == 2 and GAME.scoreboard(table.state).period == "P2"
    assert table.state.turn.attacker == 1  # the other side starts periods 2 and 3


def test_reminders_after_each_pair_and_bench_energy_after_pairs_2_4_and_6() -> None:
    table = Table()
    table.state = table.state.with_hooper(
        0, table.hooper("Reley Baton").__class__(**{**table.hooper("Reley Baton").__dict__, "energy": 1})
    )
    _end_turns(table, 2)
    assert table.state.reminders == ("each player draws 1 card",)
    assert table.hooper("Reley Baton").energy == 1
    _end_turns(table, 2)
    assert table.state.reminders == ("each player draws 3 cards", "bench hoopers recover 1 energy")
    assert table.hooper("Reley Baton").energy == 2
    _end_turns(table, 4)
    assert table.state.reminders[0] == "each player refills the hand to 7 cards"
    assert table.hooper("Reley Baton").energy == 3


def test_who_starts_each_period_first_attacker_starts_1_and_4_the_other_2_and_3() -> None:
    table = Table(options(first_attacker=1))
    starters = []
    for _ in range(4):
        starters.append(table.state.turn.attacker)
        while table.state.period == len(starters) and not table.state.final:
            table.do("end_turn")
            while table.state.decisions:
                table.do("upgrade", hooper=None)
    assert starters == [1, 0, 0, 1]


def _play_period_with_score(table: Table, lucy_scores: bool) -> None:
    period = table.state.period
    if lucy_scores and table.state.turn.attacker == 1:
        table.do("end_turn")
    if lucy_scores:
        table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    while table.state.period == period and not table.state.final and not table.state.decisions:
        table.do("end_turn")


def test_period_end_records_partial_scores_and_the_winner_picks_the_stellar_upgrade() -> None:
    table = Table()
    _play_period_with_score(table, lucy_scores=True)
    assert table.state.partial_scores == ((3, 0),)
    assert table.prompt.side == 0 and table.prompt.commands[0] == "upgrade"
    with pytest.raises(RuleError, match="former stellar"):
        table.do("upgrade", hooper="Muy Schillato")
    before = table.hooper("Joy Kill")
    table.do("upgrade", hooper="Joy Kill")
    after = table.hooper("Joy Kill")
    assert after.stellar and after.max_energy == before.max_energy + 2
    assert after.energy == min(before.energy + 1, before.max_energy) + 2  # +1 period recovery, +2 upgrade
    _play_period_with_score(table, lucy_scores=True)
    with pytest.raises(RuleError, match="only one upgrade"):
        table.do("upgrade", hooper="Joy Kill", stat="3PS")
    table.do("upgrade", hooper="Dime N'Shons", stat="D2")
    assert table.hooper("Dime N'Shons").stat("D2") == 40


def test_a_tied_period_gives_no_milestone() -> None:
    table = Table()
    _play_period_with_score(table, lucy_scores=False)
    assert table.state.partial_scores == ((0, 0),) and table.state.decisions == ()


def test_period_end_energy_is_plus_1_then_full_minus_1_and_never_tired_recovers_one_extra() -> None:
    table = Table()
    for _ in range(3):
        table.do("fundamental", action="dribble", position="C").do("end_turn").do("end_turn")
    assert table.hooper("Never Tired").energy == 1
    _end_turns(table, 10)
    assert table.state.period == 2
    assert table.hooper("Never Tired").energy == 3  # +1 and his extra one
    _end_turns(table, 16)
    assert table.hooper("Never Tired").energy == 4  # "full" for him after period 2
    assert table.hooper("Muy Schillato").energy == 5


def test_onfire_tokens_go_back_to_flat_after_the_second_period_only() -> None:
    table = Table()
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    _end_turns(table, 15)
    assert table.state.period == 2 and table.hooper("Muy Schillato").onfire == 3
    while table.state.decisions:
        table.do("upgrade", hooper=None)
    _end_turns(table, 16)
    assert table.state.period == 3 and table.hooper("Muy Schillato").onfire == 2


def test_a_tie_after_four_periods_goes_to_overtimes_of_four_pairs_until_someone_wins() -> None:
    table = Table()
    _end_turns(table, 16 * 4)
    assert not table.state.final and table.state.period == 5
    assert GAME.scoreboard(table.state).period == "OT1" and table.state.pairs_in_period == 4
    assert table.state.turn.attacker == 1  # overtimes alternate: P4 was Lucy's
    _end_turns(table, 8)
    assert table.state.period == 6 and table.state.turn.attacker == 0
    table.do("attack", shot="3PS", position="SG").do("no_defense").roll(5)
    _end_turns(table, 7)
    assert table.state.final and GAME.outcome(table.state) is not None
    assert GAME.outcome(table.state).winner == 0
    assert GAME.scoreboard(table.state).final
    with pytest.raises(RuleError, match="the game is over"):
        table.do("end_turn")


def test_overtime_recovers_no_energy() -> None:
    table = Table()
    _end_turns(table, 16 * 4)
    energy = table.hooper("Chus Kinder").energy
    table.do("fundamental", action="dribble", position="SG").do("end_turn")  # Karl starts OT1
    _end_turns(table, 7)
    assert table.state.period == 6 and table.hooper("Chus Kinder").energy == energy - 1


def test_overtime_bench_hoopers_recover_no_energy_after_pair_2() -> None:
    # "If an overtime will be played the hoopers don't recover any energy" (Game Structure).
    table = Table()
    _end_turns(table, 16 * 4)
    assert table.state.period == 5
    tired = replace(table.hooper("Reley Baton"), energy=1)
    table.state = table.state.with_hooper(0, tired)
    _end_turns(table, 4)
    assert table.state.pair == 3 and table.state.reminders == ("each player draws 3 cards",)
    assert table.hooper("Reley Baton").energy == 1


def test_fast_play_is_two_periods_with_four_coach_tokens_one_timeout_and_the_first_milestone_only() -> None:
    table = Table(options(variant="fast"))
    assert table.state.sides[0].coach_tokens == 3 and table.state.sides[0].playbooks
    assert table.state.sides[0].timeouts == 1
    _play_period_with_score(table, lucy_scores=True)
    table.do("upgrade", hooper="Joy Kill")
    _play_period_with_score(table, lucy_scores=True)
    assert table.state.final and table.state.decisions == ()
    assert GAME.outcome(table.state).winner == 0


def test_friendly_play_lets_the_table_choose_who_gets_each_milestone_even_on_a_tie() -> None:
    table = Table(options(variant="friendly"))
    _play_period_with_score(table, lucy_scores=False)
    assert table.prompt.side is None
    table.do("upgrade", side=1, hooper="Linda Siempre")
    assert table.hooper("Linda Siempre").milestone == "stellar + 2 energy"


def test_setup_needs_seven_hoopers_and_a_lineup_on_first_or_second_position() -> None:
    opts = options()
    opts["sides"][0]["hoopers"] = opts["sides"][0]["hoopers"][:6]
    with pytest.raises(RuleError, match="seven hoopers"):
        GAME.setup(opts)
    opts = options(
        lucy_lineup={
            "PG": "Muy Schillato",
            "SG": "Serge Ceptor",
            "SF": "Dime N'Shons",
            "PF": "Wally Block",
            "C": "Never Tired",
        }
    )
    with pytest.raises(RuleError, match="Muy Schillato can't start at PG"):
        GAME.setup(opts)
    ok = GAME.setup(
        options(
            lucy_lineup={
                "PG": "Serge Ceptor",
                "SG": "Joy Kill",
                "SF": "Dime N'Shons",
                "PF": "Reley Baton",
                "C": "Never Tired",
            }
        )
    )
    assert not ok.sides[0].hooper("Joy Kill").out_of_position  # SG is her second position
    opts = options()
    opts["sides"][0]["hoopers"][1]["name"] = "Serge Ceptor"
    with pytest.raises(RuleError, match="twice"):
        GAME.setup(opts)
    with pytest.raises(CommandError, match="variant"):
        GAME.setup(options(variant="blitz"))
    with pytest.raises(CommandError, match="first_attacker"):
        GAME.setup(options(first_attacker=2))


def test_shipped_rosters_hold_only_the_stats_the_rulebook_reveals() -> None:
    keepers, unleashed = shipped_roster("keepers"), shipped_roster("unleashed")
    assert len(keepers.hoopers) == 10 and len(unleashed.hoopers) == 10
    revealed = {
        (h.name, s): v for r in (keepers, unleashed) for h in r.hoopers for s, v in h.stats if v is not None
    }
    assert revealed == {
        ("Muy Schillato", "3PS"): 70,
        ("Never Tired", "V"): 55,
        ("Edd Trapp", "D3"): 30,
        ("Edd Trapp", "V"): 55,
        ("Edd Trapp", "LUP"): 65,
        ("Chus Kinder", "2PS"): 55,
        ("Dime N'Shons", "D2"): 30,
        ("Serge Ceptor", "3PS"): 60,
        ("Hector Prot", "LUP"): 70,
        ("May Friend", "D3"): 15,
    }
    assert all(
        h.base_energy is None and h.defense_positions is None for r in (keepers, unleashed) for h in r.hoopers
    )
    assert shipped_roster("susan-peg").hooper("Susan Peg").skill == "rebound_layup"


def test_a_missing_stat_is_refused_with_a_message_to_enter_it_from_the_card() -> None:
    table = Table(example_options())
    with pytest.raises(RuleError, match="Muy Schillato's energy is not entered yet: enter it from his card"):
        table.do("attack", shot="2PS", position="SG")
    table.do("enter_card", hooper="Muy Schillato", energy=5)
    with pytest.raises(RuleError, match="Muy Schillato's 2PS is not entered yet: enter it from his card"):
        table.do("attack", shot="2PS", position="SG")
    table.do("enter_card", hooper="Muy Schillato", stats={"2PS": 50})
    table.do("attack", shot="2PS", position="SG")
    with pytest.raises(RuleError, match="already entered"):
        table.do("enter_card", hooper="Muy Schillato", stats={"3PS": 75})


def test_load_roster_reads_toml_and_json_and_refuses_bad_cards(tmp_path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(
        json.dumps(
            {
                "tribe": "custom",
                "hoopers": [{"name": "Ann", "first_position": "PG", "stats": {"2PS": 50, "3PS": None}}],
            }
        )
    )
    roster = load_roster(path)
    assert roster.hooper("Ann").stat("2PS") == 50 and roster.hooper("Ann").stat("3PS") is None
    path.write_text(json.dumps({"hoopers": [{"name": "Ann", "first_position": "XX"}]}))
    with pytest.raises(CommandError, match="first_position"):
        load_roster(path)
    toml = tmp_path / "mine.toml"
    toml.write_text('tribe = "custom"\n[[hoopers]]\nname = "Bo"\nstats = { 4PS = 3 }\n')
    with pytest.raises(CommandError, match="unknown stat '4PS'"):
        load_roster(toml)


def test_malformed_commands_name_the_field() -> None:
    table = Table()
    with pytest.raises(CommandError, match="unknown command type 'dunk'"):
        table.do("dunk")
    with pytest.raises(CommandError, match="'shot'"):
        table.do("attack", position="SG")
    with pytest.raises(CommandError, match="shot must be one of"):
        table.do("attack", shot="4PS", position="SG")
    with pytest.raises(CommandError, match="face"):
        table.do("roll")


def test_fast_play_overtimes_alternate_from_the_second_period() -> None:
    from companion.games.valley_hoopers.turn_track import period_starter

    assert [period_starter(0, p, regulation=2) for p in (1, 2, 3, 4)] == [0, 1, 0, 1]
    assert [period_starter(1, p, regulation=4) for p in (1, 2, 3, 4, 5, 6)] == [1, 0, 0, 1, 0, 1]


def test_a_hooper_whose_stellar_mark_is_not_entered_cant_take_a_milestone() -> None:
    opts = options()
    opts["sides"][0]["hoopers"][6]["stellar"] = None
    table = Table(opts)
    _play_period_with_score(table, lucy_scores=True)
    with pytest.raises(RuleError, match="Joy Kill's stellar mark is not entered yet"):
        table.do("upgrade", hooper="Joy Kill")


def _exhaust(table: Table) -> None:
    for side in (0, 1):
        for hooper in table.state.side(side).hoopers:
            table.state = table.state.with_hooper(side, replace(hooper, energy=0))


def test_an_exhausted_overtime_offers_the_free_swaps_that_give_energy_back() -> None:
    # Overtimes recover no energy, but "The hooper that now has become a benchwarmer immediately
    # recovers one energy" and substitutions are free "when a period ends, before starting the new one".
    table = _end_turns(Table(), 16 * 4)
    assert table.state.period == 5
    _exhaust(table)
    attacker = table.state.turn.attacker
    prompt = table.prompt
    assert "recovers one energy" in prompt.text and "substitute" in prompt.text
    swaps = [c for c in prompt.choices if c.command["type"] == "substitute"]
    assert swaps and not any(c.command["type"] in ("attack", "fundamental") for c in prompt.choices)
    leaving = table.state.side(attacker).at("SG")
    swap = next(c for c in swaps if "SG" in c.command["changes"])
    table.do("substitute", side=attacker, changes=swap.command["changes"])
    assert table.hooper(leaving.name).energy == 1 and table.hooper(leaving.name).court is None
    # The next overtime's free swap brings the rested hooper back: a card can be played again.
    _end_turns(table, 8)
    assert table.state.period == 6
    table.do("substitute", side=attacker, changes={"SG": leaving.name})
    if table.state.turn.attacker != attacker:
        table.do("end_turn")
    assert table.state.turn.attacker == attacker and table.hooper(leaving.name).energy == 1
    assert any(c.command["type"] == "attack" and c.command["position"] == "SG" for c in table.prompt.choices)


def test_with_nothing_left_to_give_energy_the_prompt_says_the_tie_cant_be_broken() -> None:
    table = _end_turns(Table(), 16 * 4)
    _exhaust(table)
    for side in (0, 1):
        team = table.state.side(side)
        table.state = table.state.with_side(side, replace(team, coach_tokens=0, playbooks=()))
        for hooper in team.bench():
            table.state = table.state.with_hooper(side, replace(hooper, ejected=True))
    prompt = table.prompt
    assert "this tie can't be broken" in prompt.text and "overtimes until a winner" in prompt.text
    assert [c.command["type"] for c in prompt.choices] == ["end_turn"]
