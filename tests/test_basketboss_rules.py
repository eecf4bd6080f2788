"""BasketBoss, checked against the rulebook (../shared/rulebooks/basketboss.txt) to the number."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from companion.errors import CommandError, CompanionError, RuleError
from companion.games.basketboss import GAME
from companion.games.basketboss.model import POSITIONS, Card, State, starter
from companion.games.basketboss.rules import decide, run, setup
from companion.games.basketboss.team import age, strength
from companion.games.basketboss.views import victory_points
from companion.session import Session
from companion.store import Store


def play(state: State, *commands: dict) -> State:
    for command in commands:
        state = run(state, command)
    return state


def four_managers_in_season_two() -> State:
    """Blue (Referee, 1), Yellow (3), Purple (4), Green (5) at the strength phase of season 2."""
    state = setup({"names": ["Blue", "Yellow", "Purple", "Green"], "tallest": 0})
    state = replace(state, season=2, phase="strength")
    for side, advisor in enumerate((1, 3, 4, 5)):
        state = state.with_manager(side, advisor=advisor, money=10)
    return state


def test_setup_gives_strength_ten_and_eleven_dollars_the_referee_holder_keeps_nine() -> None:
    state = setup({"names": ["Blue", "Yellow", "Purple"], "tallest": 1})
    assert [strength(m) for m in state.managers] == [10, 10, 10]
    assert [m.money for m in state.managers] == [11, 9, 11]
    assert state.manager(1).advisor == state.referee


def test_a_sixth_manager_is_refused() -> None:
    with pytest.raises(CommandError, match="for 2 to 5 managers, not 6"):
        setup({"names": list("ABCDEF")})


def test_the_ties_example() -> None:
    state = four_managers_in_season_two()
    for side, change in enumerate((4, 4, 2, 2)):  # Blue 14, Yellow 14, Purple 12, Green 12
        state = play(state, {"type": "adjust", "side": side, "strength": change})
    state = play(state, {"type": "award"})
    # Blue holds the Referee and wins its tie outright: Blue 1st, Yellow 2nd, nobody bids.
    assert state.ranking == (0, 1) and state.phase == "ties"
    assert state.sealed is not None and state.sealed.bidders == (2, 3)
    state = play(state, {"type": "sealed_bid", "side": 2, "amount": 5})
    assert GAME.view(state)["sealed"] == {"kind": "tie", "bidders": [2, 3], "entered": [2]}
    assert "5" not in json.dumps(GAME.scoreboard(state).to_json()["message"])
    state = play(state, {"type": "sealed_bid", "side": 3, "amount": 3})
    assert state.ranking == (0, 1, 2, 3)
    money = [m.money for m in state.managers]
    assert money[2] == 10 - 5 and money[0] == 10 + 3  # Purple pays $3 to Blue (Referee), $2 to the supply
    assert money[3] == 10  # Green pays nothing
    assert [m.trophies for m in state.managers] == [(10,), (7,), (4,), (2,)]


def test_equal_tie_bids_go_to_the_lower_advisor_number() -> None:
    state = four_managers_in_season_two()
    state = play(
        state,
        {"type": "adjust", "side": 0, "strength": 5},
        {"type": "award"},
        {"type": "sealed_bid", "side": 1, "amount": 2},
        {"type": "sealed_bid", "side": 2, "amount": 2},
        {"type": "sealed_bid", "side": 3, "amount": 2},
    )
    assert state.ranking[:2] == (0, 1)  # Yellow's advisor 3 beats Purple's 4 and Green's 5
    # Three were tied: the remaining two repeat the process.
    assert state.phase == "ties" and state.sealed is not None and state.sealed.bidders == (2, 3)


def test_in_the_first_season_the_manager_clockwise_closest_to_the_referee_wins_equal_bids() -> None:
    state = setup({"names": ["Blue", "Yellow", "Purple", "Green"], "tallest": 2})
    state = play(
        state, {"type": "market_done"}, {"type": "adjust", "side": 2, "strength": 3}, {"type": "award"}
    )
    state = play(state, *({"type": "sealed_bid", "side": s, "amount": 1} for s in (0, 1, 3)))
    assert state.ranking[:2] == (2, 3)  # Green sits next to Purple (the Referee) clockwise


def test_trophies_by_strength_and_hiring_from_the_lowest_strength() -> None:
    state = four_managers_in_season_two()
    for side, change in enumerate((1, 4, 3, 2)):
        state = play(state, {"type": "adjust", "side": side, "strength": change})
    state = play(state, {"type": "award"})
    assert [m.trophies for m in state.managers] == [(2,), (10,), (7,), (4,)]
    assert state.phase == "hire" and state.hire_order == (0, 3, 2, 1)
    assert all(m.advisor is None for m in state.managers)  # "Return all advisors to the center"
    with pytest.raises(RuleError, match="Blue hires next"):
        decide(state, {"type": "hire", "side": 1, "advisor": 1})
    state = play(state, {"type": "hire", "side": 0, "advisor": 1})
    with pytest.raises(RuleError, match="Referee is taken by Blue"):
        decide(state, {"type": "hire", "side": 3, "advisor": 1})


def test_the_aging_example_and_a_retiring_card() -> None:
    # A team like the rulebook's example: total strength 18 before aging, 19 after.
    cards = (
        Card("Ace", "PG", 1, (4, 5)),
        Card("Dart", "SG", 0, (3, 4)),
        Card("Grit", "SF", 1, (3, 3)),
        Card("Old", "PF", 0, (2,)),
        starter("C"),
    )
    board = replace(setup({"names": ["Blue", "Yellow"]}).manager(0), slots=cards)
    assert strength(board) == 4 + 3 + 3 + 2 + 1 + 5 == 18
    older, retired = age(board)
    assert retired == ["Old"] and older.slots[3] == starter("PF")
    assert strength(older) == 5 + 4 + 3 + 1 + 1 + 5 == 19


def test_the_final_score_example() -> None:
    state = setup({"names": ["Blue", "Yellow"]})
    cards = (
        Card("A", "PG", 0, (5,)),
        Card("B", "SG", 0, (4,)),
        Card("C", "SF", 0, (4,)),
        Card("D", "PF", 0, (2,)),
        Card("E", "C", 0, (1,)),
    )
    state = state.with_manager(0, slots=cards, trophies=(10, 10, 7, 2), ribbons=2, money=27)
    assert victory_points(state, 0) == {"strength": 21, "trophies": 31, "money": 5, "total": 57}


def test_a_bid_after_passing_is_refused_and_all_passing_sends_the_card_away() -> None:
    state = setup({"names": ["Blue", "Yellow", "Purple"], "tallest": 0})
    state = play(
        state,
        {"type": "reveal", "card": "Demo Ace"},
        {"type": "reveal", "card": "Demo Moss"},
        {"type": "market_done"},
    )
    assert state.auction is not None and state.auction.turn == 0  # the Referee holder begins
    state = play(state, {"type": "bid", "side": 0, "amount": 2}, {"type": "pass", "side": 1})
    with pytest.raises(RuleError, match="after passing, a manager may not reenter"):
        decide(state, {"type": "bid", "side": 1, "amount": 3})
    with pytest.raises(RuleError, match="more than the money held"):
        decide(state, {"type": "bid", "side": 2, "amount": 12})
    state = play(state, {"type": "pass", "side": 2})
    assert state.phase == "place" and state.manager(0).money == 9 - 2
    state = play(state, {"type": "place", "side": 0, "slot": 1})
    assert state.manager(0).slots[0].name == "Demo Ace"
    state = play(state, *({"type": "pass", "side": s} for s in (0, 1, 2)))
    assert state.phase == "strength" and "Demo Moss" not in [c.name for m in state.managers for c in m.slots]


def test_an_injury_takes_sealed_bids_from_all_but_the_physical_therapist() -> None:
    state = four_managers_in_season_two()
    state = replace(state, phase="market").with_manager(3, advisor=2)  # Green hired the Physical Therapist
    state = play(state, {"type": "reveal", "injury": True}, {"type": "market_done"})
    assert state.sealed is not None and state.sealed.bidders == (0, 1, 2)
    with pytest.raises(RuleError, match="holds the Physical Therapist and does not bid"):
        decide(state, {"type": "sealed_bid", "side": 3, "amount": 1})
    state = state.with_manager(0, slots=(Card("Star", "PG", 1, (4, 4)),) + state.manager(0).slots[1:])
    state = play(
        state,
        {"type": "sealed_bid", "side": 0, "amount": 0},
        {"type": "sealed_bid", "side": 1, "amount": 2},
        {"type": "sealed_bid", "side": 2, "amount": 1},
    )
    assert [m.money for m in state.managers] == [10, 8, 9, 10]  # every bid to the supply
    assert state.manager(0).injured == (0,)  # Blue bid least: its strongest player is injured
    assert strength(state.manager(0)) == 4 + 4  # no strength, no position from the injured player


def test_a_first_season_injury_is_redrawn() -> None:
    with pytest.raises(RuleError, match="draw a replacement and shuffle the injury back"):
        decide(setup({}), {"type": "reveal", "injury": True})


def test_season_six_has_no_hiring_or_income_then_ages_and_scores() -> None:
    state = replace(setup({"names": ["Blue", "Yellow"]}), season=6, phase="strength")
    state = state.with_manager(0, slots=(Card("Vet", "PG", 3, (2, 5)),) + state.manager(0).slots[1:])
    state = play(state, {"type": "award"})
    assert state.final and state.manager(0).money == 9  # no income in the last season
    assert state.manager(0).slots[0].stars == 5  # aged a final time
    out = GAME.outcome(state)
    assert out is not None and out.winner == 0


def test_two_three_and_five_managers_play_through_the_store(tmp_path: Path) -> None:
    for names in (["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D", "E"]):
        store = Store.open(tmp_path / f"bb{len(names)}.db")
        session = Session.new(store, GAME, {"names": names})
        state = session.state
        steps = 0
        while GAME.outcome(state) is None:
            prompt = GAME.prompt(state)
            if prompt.sealed is not None:  # each manager in turn takes the screen and bids
                side = next(s for s in prompt.sealed.sides if s not in prompt.sealed.entered)
                command = {"type": "sealed_bid", "side": side, "amount": steps % 3}
            else:
                moving = ("market_done", "award")
                preferred = [c.command for c in prompt.choices if c.command["type"] in moving]
                command = preferred[0] if preferred else prompt.choices[steps % len(prompt.choices)].command
            session.handle(command)
            state = session.state
            steps += 1
        assert state.season == 6 and len(GAME.outcome(state).places[0]) >= 1
        resumed = Session.resume(store, session.game_id, lambda _name: GAME)
        assert resumed.snapshot()["view"] == session.snapshot()["view"]


def test_a_refused_command_changes_nothing() -> None:
    state = four_managers_in_season_two()
    before = repr(state)
    for command in (
        {"type": "bid", "side": 0, "amount": 3},
        {"type": "hire", "side": 9, "advisor": 1},
        {"type": "sealed_bid", "side": 0, "amount": -1},
        {"type": "place", "side": 0, "slot": 6},
    ):
        with pytest.raises(CompanionError):
            decide(state, command)
    assert repr(state) == before
    assert POSITIONS == ("PG", "SG", "SF", "PF", "C")
