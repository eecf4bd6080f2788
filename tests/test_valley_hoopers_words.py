"""What players read: refusals, prompts and the log say it in words, never with internal names."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from games.valley_hoopers_table import Table

from companion.errors import RuleError
from companion.games.valley_hoopers.model import Pending
from companion.games.valley_hoopers.waiting import describe_wait

FULL_GAME = Path(__file__).parent / "games" / "full_game_valley_hoopers.jsonl"
INTERNAL_NAME = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # defense_window, attack_roll, no_counter...
PENDING_KINDS = (
    "play",
    "counter_window",
    "defense_window",
    "rebound_window",
    "rebound_reward",
    "playbook_reward",
    "screen_check",
    "counter_check",
    "counter_roll",
    "defense_check",
    "attack_roll",
    "free_throw",
    "rebound_check",
    "rebound_roll",
    "game_over",
)


def _automatic_three(table: Table) -> Table:
    """Pass (+25) and dribble (+15) before Muy Schillato's 3PS 70: a target of 110, no roll needed."""
    table.do("fundamental", action="pass", position="PG").do("no_counter")
    table.do("fundamental", action="dribble", position="SG").do("no_counter")
    return table.do("attack", shot="3PS", position="SG")


def test_a_refused_roll_on_an_automatic_attack_says_what_the_table_waits_for() -> None:
    table = _automatic_three(Table())
    assert table.state.pending.kind == "defense_window"
    with pytest.raises(RuleError) as refused:
        table.roll(50)
    message = str(refused.value)
    assert "defense_window" not in message and not INTERNAL_NAME.search(message)
    assert "Karl may defend Muy Schillato's 3-point shot" in message
    assert "scores without a roll (target 110)" in message


def test_an_automatic_attacks_prompt_does_not_offer_the_roll_it_would_refuse() -> None:
    table = _automatic_three(Table())
    prompt = table.prompt
    assert prompt.automatic and prompt.die is None
    assert "roll" not in prompt.commands
    assert {"defend", "no_defense"} <= set(prompt.commands)
    # An attack that needs the d20 still takes the roll as "no defense".
    table = Table().do("attack", shot="3PS", position="SG")
    assert "roll" in table.prompt.commands and table.prompt.die == "d20x5"


def test_after_a_block_restarting_from_a_the_prompt_asks_for_the_attack_only() -> None:
    table = Table()
    edd = table.hooper("Edd Trapp")
    table.state = table.state.with_hooper(1, replace(edd, chips_lv1=1))
    table.do("attack", shot="3PS", position="SG").do("defend", hooper="Edd Trapp", block="chip")
    table.roll("jumpball")
    assert table.state.turn.lost_slots == ("F1", "F2")
    prompt = table.prompt
    assert prompt.text == "Lucy: play the attack in A, or end the turn"
    assert "fundamental" not in prompt.text and "fundamental" not in prompt.commands
    assert {c.command["type"] for c in prompt.choices} <= {"attack", "end_turn", "redeem"}
    # With F1 still open the prompt offers both.
    assert Table().prompt.text == "Lucy: play F1 (a fundamental or the attack)"


def test_no_counter_says_the_fundamental_goes_through_instead_of_repeating_it() -> None:
    table = Table().do("fundamental", action="dribble", position="SG").do("no_counter")
    played, let_go = table.events
    assert played["text"] == "Muy Schillato plays a dribble in F1"
    assert let_go["text"] == "Karl lets Muy Schillato's dribble go: +15"


def test_no_defense_says_so_in_the_log() -> None:
    table = Table().do("attack", shot="3PS", position="SG").do("no_defense")
    assert table.events[-1]["text"] == "Karl does not defend Muy Schillato's 3-point shot"


@pytest.mark.parametrize("kind", PENDING_KINDS)
def test_every_wait_is_described_in_words(kind: str) -> None:
    state = Table().state
    state = replace(
        state, pending=Pending(kind=kind, side=1, action="2PS", hooper="Muy Schillato", other="Chus Kinder")
    )
    words = describe_wait(state)
    assert not INTERNAL_NAME.search(words), words


def test_no_event_of_the_reference_game_repeats_the_previous_events_text() -> None:
    lines = [json.loads(line) for line in FULL_GAME.read_text(encoding="utf-8").splitlines()]
    setup = {k: v for k, v in lines[0].items() if k != "type"}
    table = Table(setup)
    for command in lines[1:]:
        table.do(command.pop("type"), **command)
    assert table.state.final
    repeats = [
        (before["type"], after["type"], after["text"])
        for before, after in zip(table.events, table.events[1:], strict=False)
        if before["text"] == after["text"]
    ]
    assert repeats == []
    leaks = [event["text"] for event in table.events if INTERNAL_NAME.search(event["text"])]
    assert leaks == []


def test_every_prompt_text_of_the_reference_game_is_in_words() -> None:
    lines = [json.loads(line) for line in FULL_GAME.read_text(encoding="utf-8").splitlines()]
    table = Table({k: v for k, v in lines[0].items() if k != "type"})
    for command in lines[1:]:
        assert not INTERNAL_NAME.search(table.prompt.text), table.prompt.text
        table.do(command.pop("type"), **command)
