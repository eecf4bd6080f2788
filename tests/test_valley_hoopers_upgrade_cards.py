"""Action upgrade and position upgrade cards: which cards a side sleeves, and their labelled terms.

The rulebook names the eight action upgrade cards and their condition icons but prints only one
former action ("'From the Elbow' upgrades just a Two Point Shot action") and no improvement: the
shipped contents are DEMO data, labelled "demo card" in every term, until the table enters its own.
"""

from __future__ import annotations

import pytest
from games.valley_hoopers_table import Table, options

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers.upgrade_cards import demo_cards, tribe_cards


def test_the_eight_printed_cards_with_their_condition_icons() -> None:
    cards = demo_cards()
    assert tribe_cards("keepers") == ("No-Look", "From the Corner", "Hook Shot", "Backdoor Cut")
    assert tribe_cards("unleashed") == ("Wall of Death", "Rainbow Shot", "From the Elbow", "Curl")
    # "Q) 8 Action upgrade cards: a) 2 [one-star] Actions, b) 6 [exclamation mark] Actions"
    assert sorted(c.condition for c in cards.values()).count("star") == 2 and len(cards) == 8
    assert cards["from the elbow"].action == "2PS" and all(c.demo for c in cards.values())


def test_a_classic_side_sleeves_its_tribes_four_cards_and_the_improvement_is_a_labelled_term() -> None:
    table = Table()
    assert [c.name for c in table.state.sides[0].action_upgrades] == list(tribe_cards("unleashed"))
    table.do("attack", shot="2PS", position="SG", upgrade="From the Elbow").do("no_defense")
    assert table.prompt.target is not None
    assert "+ 10 (From the Elbow, demo card)" in table.prompt.target.text


def test_an_upgrade_goes_only_on_its_former_action_and_only_if_sleeved() -> None:
    table = Table()
    with pytest.raises(RuleError, match="upgrades a 2PS action, not a 3PS"):
        table.do("attack", shot="3PS", position="SG", upgrade="From the Elbow")
    with pytest.raises(RuleError, match="no 'Hook Shot' action upgrade sleeved"):
        table.do("attack", shot="2PS", position="SG", upgrade="Hook Shot")


def test_a_star_card_improves_only_a_hooper_on_a_stellar_position() -> None:
    # Wall of Death is a [star] card (printed); its screen and +10 are demo contents.
    table = Table()
    table.do("fundamental", action="screen", position="PF", upgrade="Wall of Death").roll("blank")
    assert [t.label for t in table.state.turn.bonuses] == ["screen"]


def test_the_tables_entered_cards_replace_the_demo_contents() -> None:
    entered = [{"name": "From the Elbow", "condition": "exclamation", "action": "2PS", "bonus": 15},
               {"name": "Hook Shot", "condition": "exclamation", "action": "D2", "bonus": 5}]
    table = Table(options(action_upgrade_cards=entered))
    table.do("attack", shot="2PS", position="SG", upgrade="From the Elbow")
    table.do("defend", hooper="Chus Kinder", upgrade="Hook Shot").roll("blank")
    text = table.prompt.target.text
    assert "+ 15 (From the Elbow)" in text and "- 5 (Hook Shot)" in text and "demo" not in text


def test_an_entered_card_needs_its_action_and_improvement() -> None:
    with pytest.raises(CommandError, match="bonus"):
        Table(options(action_upgrade_cards=[{"name": "Curl", "action": "dribble"}]))


def test_position_upgrades_come_from_a_kit_of_two_per_position() -> None:
    opts = options()
    opts["sides"][0]["position_upgrades"] = ["PG", "PG", "PG"]
    with pytest.raises(RuleError, match="2 PG position upgrades"):
        Table(opts)
