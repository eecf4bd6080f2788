"""The prompt's candidates judged by their checks (``candidates.judge``) read exactly as a full trial
of every candidate: the same refusals word for word, the same accepted choices with the same odds.

Every state of the full-game and series scripts is checked, with an undo (the earlier state again)
and a redo (that state rebuilt from the logged events) every few commands, and so are random walks
that also activate playbooks, spend chips and use the tribe power, which the scripts never do.
"""

from __future__ import annotations

import doctest
import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from render_walk import script_of

from companion.errors import CompanionError
from companion.game import Game
from companion.games.valley_hoopers import GAME, candidates, rules, views
from companion.games.valley_hoopers.demo import DEMO_SETUP
from companion.games.valley_hoopers.model import FUNDAMENTALS, POSITIONS, State

GAMES_DIR = Path(__file__).parent / "games"
# Script: the candidates left unbuilt it must reach (the series script plays no fundamental at all).
SCRIPTS = {"full_game_valley_hoopers.jsonl": 200, "series_valley_hoopers.jsonl": 0}


class Judged:
    """``views.judge`` held to a full trial of each candidate; counts what it saw."""

    def __init__(self) -> None:
        self.accepted = self.refused = self.quick = 0
        self.missing = self.skipped = self.windows = self.planned = 0
        self.rng = random.Random(15)

    def __call__(self, state: Any, command: dict[str, Any]) -> Any:
        expected = _outcome(lambda: views._odds(rules.resolve(state, command)))
        got = _outcome(lambda: views._odds(candidates.judge(state, command)))
        assert got == expected, (command, state.pending, state.turn)
        if expected[0] == "refused":
            self.refused += 1
            self.missing += "not entered yet" in expected[1]
            raise CompanionError(expected[1])
        self.accepted += 1
        judged = candidates.judge(state, command)
        self.quick += isinstance(judged, candidates.Accepted)
        return judged


def _judged_outcome(judged: Any) -> tuple[str, Any]:
    """``_outcome`` of what ``judge_cards`` gave for one candidate (a refusal is kept, not raised)."""
    if isinstance(judged, CompanionError):
        return "refused", str(judged)
    return "accepted", views._odds(judged)


def _outcome(judge: Any) -> tuple[str, Any]:
    try:
        return "accepted", judge()
    except CompanionError as error:
        return "refused", str(error)


def _check(game: Game, state: Any, judged: Judged, monkeypatch: pytest.MonkeyPatch) -> None:
    """The prompt with each candidate's ``judge`` checked against a full trial of it, a probe of each
    shortcut likewise, and the fundamentals and chips to redeem it does not build refused by the
    rules, for no missing card value."""
    with monkeypatch.context() as patched:
        patched.setattr(views, "judge", judged)
        game.prompt(state)
    table = getattr(state, "game", state)
    if not isinstance(table, State):
        return
    for command in _probes(table, judged.rng):
        # Any command, not only the ones the prompt offers now: each check is held to its refusals too.
        assert _outcome(lambda: views._odds(candidates.judge(table, command))) == \
            _outcome(lambda: views._odds(rules.resolve(table, command))), command  # noqa: B023
    if not table.final and not table.decisions and \
            table.pending.kind in ("play", "counter_window"):
        offered = views._play_candidates(table)
        built = [command for _, command in offered]
        every = [{"type": "fundamental", "action": action, "position": position}
                 for action in FUNDAMENTALS for position in POSITIONS]
        every += [{"type": "redeem", "hooper": h.name} for h in table.side(table.turn.attacker).hoopers]
        every.append({"type": "timeout"})  # left out once the turn is under way
        # A play step's cards are judged together (``judge_cards``, the checks a position's cards
        # share done once): each must read as ``judge`` of it alone, itself held to a full trial;
        # so must the cards the prompt leaves out (every fundamental once F1 and F2 are taken).
        cards = [*offered, *((str(c), c) for c in every if c not in built)]
        for (_, command), together in zip(cards, candidates.judge_cards(table, cards), strict=True):
            alone = _outcome(lambda: views._odds(judged(table, command)))  # noqa: B023 - called at once
            assert _judged_outcome(together) == alone, command
        # The prompt judges them by position (``judge_plan``): each as ``judge_cards`` gave it.
        plain = tuple(card for card in cards if card[1]["type"] in ("attack", "fundamental"))
        by_position = candidates.judge_plan(table, candidates.plan_cards(plain))
        assert [_judged_outcome(j) for j in by_position] == \
            [_judged_outcome(j) for j in candidates.judge_cards(table, list(plain))]
        judged.planned += len(plain)
        for command in every:
            if command not in built:
                words = _outcome(lambda: rules.resolve(table, command))  # noqa: B023 - called at once
                assert words[0] == "refused" and "not entered yet" not in words[1], (command, words)
                judged.skipped += 1


    if not table.final and not table.decisions and table.pending.kind == "defense_window":
        # A window's defenses are judged together too (``judge_cards``, the attack's value before the
        # defense counted once): each, and a defense by every hooper of the side, reads as ``judge``.
        answers = views._window_candidates(table, "defend", "no_defense", "defend with")
        answers += [(h.name, {"type": "defend", "hooper": h.name})
                    for h in table.side(table.pending.side).hoopers]
        for (_, command), together in zip(answers, candidates.judge_cards(table, answers), strict=True):
            alone = _outcome(lambda: views._odds(judged(table, command)))  # noqa: B023 - called at once
            assert _judged_outcome(together) == alone, command
            judged.windows += 1


def _probes(state: State, rng: random.Random) -> list[dict[str, Any]]:
    """A command of each type ``judge`` takes a shortcut for, with a random hooper or position."""
    hooper = rng.choice([h.name for side in state.sides for h in side.hoopers])
    return [*({"type": kind} for kind in ("end_turn", "no_counter", "no_rebound", "no_defense", "timeout")),
            {"type": "attack", "shot": rng.choice(("2PS", "3PS", "LUP")), "position": rng.choice(POSITIONS)},
            {"type": "fundamental", "action": rng.choice(FUNDAMENTALS), "position": rng.choice(POSITIONS)},
            *({"type": kind, "hooper": hooper} for kind in ("rebound", "defend", "counter", "redeem"))]


def _script(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return script_of(GAMES_DIR / name)


def _with_undo_and_redo(game: Game, name: str) -> Iterator[Any]:
    """Every state of a script; every fifth command is undone (its state before, the same object, as
    the timeline keeps it) and redone (the state rebuilt from the events, as redo does)."""
    options, commands = _script(name)
    state = game.setup(options)
    for number, command in enumerate(commands):
        yield state
        after, events = game.run(state, command)
        if number % 5 == 4:
            yield after
            yield state  # undo
            redone = state
            for event in events:
                redone = game.apply(redone, event)
            assert redone == after
            after = redone  # redo
        state = after
    yield state


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_judged_candidates_read_as_a_full_trial_of_each_over_a_script(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    judged = Judged()
    for state in _with_undo_and_redo(GAME, name):
        _check(GAME, state, judged, monkeypatch)
    # The scripts reach refusals, accepted candidates and the shortcut, on every kind of step.
    assert judged.refused > 1000 and judged.accepted > 1000 and judged.quick > 500
    assert judged.skipped >= SCRIPTS[name]
    assert judged.planned > 1000
    assert judged.windows > 100  # defense windows, their answers judged together


# Commands no prompt offers as a choice but that change what the candidates face: a playbook (its
# attack is rolled at once), LV.2 chips (a Buzzer Beater turn), the tribe power, a chip on a card.
def _extras(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    game = getattr(state, "game", state)
    names = [h.name for side in game.sides for h in side.hoopers]
    hooper = rng.choice(names)
    effect = rng.choice(("buzzer_beater", "fast_break", "energy_drink", "never_give_up", "coast_to_coast"))
    return [
        {"type": "playbook", "name": "Pick and roll"},
        {"type": "chip", "hooper": hooper, "effect": effect},
        {"type": "tribe_power"},
        {"type": "attack", "shot": rng.choice(("2PS", "3PS", "LUP")), "position": rng.choice(("PG", "C")),
         "chip": rng.choice(("boost", "unstoppable"))},
        {"type": "redeem", "hooper": hooper},
    ]


def _variations(state: Any, rng: random.Random) -> list[Any]:
    """The state in a turn the walks rarely reach: a Buzzer Beater turn, a playbook, an offensive
    rebounder's +15 (both paths are pure functions of the state: any state tells them apart)."""
    if getattr(state, "final", True) or state.pending.kind not in ("play", "counter_window"):
        return []
    court = [h.name for h in state.side(state.turn.attacker).on_court()]
    turn = state.turn
    return [replace(state, turn=replace(turn, buzzer_beater=True)),
            replace(state, turn=replace(turn, playbook="Pick and roll")),
            replace(state, turn=replace(turn, rebound_bonus_for=rng.choice(court) if court else None))]


def _walk(seed: int, steps: int, monkeypatch: pytest.MonkeyPatch, variant: str) -> Judged:
    rng = random.Random(seed)
    options = {**json.loads(DEMO_SETUP.read_text(encoding="utf-8")), "variant": variant}
    state, judged = GAME.setup(options), Judged()
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        _check(GAME, state, judged, monkeypatch)
        for varied in _variations(state, rng):
            _check(GAME, varied, judged, monkeypatch)
        prompt = GAME.prompt(state)
        tries: list[dict[str, Any]] = []
        if rng.random() < 0.3:
            tries += rng.sample(_extras(state, rng), 2)
        if prompt.roll is not None:
            tries.append({"type": "roll", "die": prompt.roll.die.name,
                          "face": rng.choice(prompt.roll.die.distinct_faces)})
        tries += [dict(rng.choice(prompt.choices).command)] if prompt.choices else []
        for command in tries:
            try:
                state, _ = GAME.run(state, command)
                break
            except CompanionError:
                continue
        else:
            break
    return judged


@pytest.mark.parametrize(("seed", "variant"), [(1, "classic"), (2, "fast")])
def test_judged_candidates_read_as_a_full_trial_of_each_on_a_random_walk(
        seed: int, variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    judged = _walk(seed, 150, monkeypatch, variant)
    assert judged.refused > 100 and judged.quick > 100 and judged.skipped > 100 and judged.planned > 1000


def test_the_candidates_doctests_run() -> None:
    result = doctest.testmod(candidates)
    assert result.attempted and not result.failed
