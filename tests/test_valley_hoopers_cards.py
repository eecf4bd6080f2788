"""One check of a card's printed values for every door: roster files, setup, enter_card and calc."""

from __future__ import annotations

import doctest
import re

import pytest
from games.valley_hoopers_table import Table

from companion.errors import CommandError
from companion.games.valley_hoopers import parse_roster, rosters
from companion.games.valley_hoopers.setup_options import example_options, setup
from table.cli import main

BAD_STATS = [10**100, -10**100, -9, -1, 201, 10**5000]
BAD_ENERGY = [-5, 0, 21, 10**100]


def _id(value: int) -> str:
    return str(value) if abs(value) < 10**6 else f"{'-' if value < 0 else ''}huge"


def _refusal(call) -> str:
    with pytest.raises(CommandError) as caught:
        call()
    return str(caught.value)


def _without_name(message: str) -> str:
    return message.split(": ", 1)[1]  # "Muy Schillato: stat 2PS must..." -> "stat 2PS must..."


def _setup_with(card_fields: dict) -> None:
    options = example_options()
    options["sides"][0]["hoopers"][1] = {"name": "Muy Schillato", **card_fields}
    setup(options)


def _roster_with(card_fields: dict) -> None:
    parse_roster({"tribe": "custom", "hoopers": [{"name": "Muy Schillato", **card_fields}]})


def _enter_card(**fields) -> None:
    Table(example_options()).do("enter_card", hooper="Muy Schillato", **fields)


@pytest.mark.parametrize("value", BAD_STATS, ids=_id)
def test_a_stat_no_card_can_print_is_refused_alike_by_setup_enter_card_and_the_roster(value) -> None:
    by_setup = _refusal(lambda: _setup_with({"stats": {"2PS": value}}))
    by_roster = _refusal(lambda: _roster_with({"stats": {"2PS": value}}))
    by_enter_card = _refusal(lambda: _enter_card(stats={"2PS": value}))
    assert _without_name(by_setup) == _without_name(by_roster) == _without_name(by_enter_card)
    assert re.search(r"stat 2PS must be a whole number from 0 to 200 or null, not ", by_enter_card)
    assert len(by_enter_card) < 120  # a huge number is described, not printed (or crashing int-to-str)


@pytest.mark.parametrize("value", BAD_ENERGY, ids=_id)
def test_an_energy_no_card_can_print_is_refused_alike_by_setup_enter_card_and_the_roster(value) -> None:
    by_setup = _refusal(lambda: _setup_with({"energy": value}))
    by_roster = _refusal(lambda: _roster_with({"energy": value}))
    by_enter_card = _refusal(lambda: _enter_card(energy=value))
    assert _without_name(by_setup) == _without_name(by_roster) == _without_name(by_enter_card)
    assert "energy must be a whole number from 1 to 20" in by_enter_card


def test_enter_card_still_takes_the_values_a_card_can_print() -> None:
    table = Table(example_options())
    table.do("enter_card", hooper="Muy Schillato", stats={"2PS": 0, "LUP": 200}, energy=20)
    hooper = table.state.side(0).hooper("Muy Schillato")
    assert (dict(hooper.stats)["2PS"], dict(hooper.stats)["LUP"], hooper.base_energy) == (0, 200, 20)


@pytest.mark.parametrize(("option", "value"), [("--stat", "-50"), ("--defense", "-9"), ("--stat", "201"),
                                               ("--defense", "1" + "0" * 100)])
def test_calc_refuses_a_stat_or_defense_no_card_can_print(capsys, option, value) -> None:
    given = {"--stat": "50", "--defense": "9", option: value}
    code = main(["calc", "valley-hoopers", "attack", *(part for pair in given.items() for part in pair)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert f"calc: stat {option} must be a whole number from 0 to 200, not " in err


def test_calc_never_prints_a_negative_defense_as_a_plus(capsys) -> None:
    main(["calc", "valley-hoopers", "attack", "--stat", "50", "--defense", "-9"])
    assert "+ 9 (defense)" not in capsys.readouterr().out


def test_the_card_check_examples_run() -> None:
    result = doctest.testmod(rosters, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
