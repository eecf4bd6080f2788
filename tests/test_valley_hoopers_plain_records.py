"""The records Valley Hoopers builds without their ``__init__`` (``plain_records``) are the ones
``__init__`` builds, and the state's records (``OwnDict``) are the values they always were, however
they are made (``__init__``, ``companion.frozen.replace``, a pickle).

Each check runs over every state of the recorded games, so a field left out of (or misspelt in) a
builder's dict, or a record that lost its fast ``replace``, fails here.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest
from render_walk import render, script_of

from companion import frozen
from companion.frozen import OwnDict
from companion.game import Choice, Prompt
from companion.games import find_game
from companion.games.valley_hoopers import ball, fouls, model, views
from companion.games.valley_hoopers.plain_records import MISSING, plain_record, plain_template
from companion.games.valley_hoopers.series_state import SeriesState
from companion.session import Session
from companion.store import Store

GAMES_DIR = Path(__file__).parent / "games"
SCRIPTS = ("full_game_valley_hoopers.jsonl", "series_valley_hoopers.jsonl")
OWN_DICT_CLASSES = (model.Hooper, model.Side, model.Slot, model.Turn, model.Pending, model.Decision,
                    model.SeriesGame, model.State, ball.BallState, fouls.FoulOutcome)


def _script(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return script_of(GAMES_DIR / name)


def _game_states(name: str) -> Iterator[model.State]:
    """Every game state of a recorded script (in The Series, the game on the table while one is played)."""
    game = find_game("valley-hoopers")
    options, commands = _script(name)
    state = game.setup(options)
    for command in [*commands, None]:
        if isinstance(state, model.State):
            yield state
        elif isinstance(state, SeriesState) and state.phase == "game":
            yield state.game
        if command is not None:
            state, _ = game.run(state, command)


def _cached_names(cls: type) -> set[str]:
    return {name for k in cls.__mro__ for name, v in vars(k).items() if isinstance(v, cached_property)}


def _as_init_builds(record: Any) -> None:
    """``record`` holds every field of its class, in ``__init__``'s order, and nothing else but values
    counted on it since; it equals the record ``__init__`` builds from those fields."""
    cls = type(record)
    names = [f.name for f in dataclasses.fields(cls)]
    held = list(vars(record))
    assert held[:len(names)] == names, cls.__name__
    assert set(held[len(names):]) <= _cached_names(cls), cls.__name__
    assert all(getattr(record, name) is not MISSING for name in names), cls.__name__
    assert cls(**{name: getattr(record, name) for name in names}) == record


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_views_records_are_the_ones_init_builds(script: str) -> None:
    checked = 0
    for state in _game_states(script):
        shown = views.prompt(state)
        _as_init_builds(shown)
        for choice in shown.choices:
            _as_init_builds(choice)
        board = views.scoreboard(state)
        _as_init_builds(board)
        for side in board.sides:
            _as_init_builds(side)
            for counter in side.counters:
                _as_init_builds(counter)
        checked += 1
    assert checked > 300


def test_a_choice_on_the_other_side_is_replace_without_its_counted_json() -> None:
    choice = views._new_choice("2PS PG Serge", {"type": "attack", "shot": "2PS", "position": "PG"},
                               (None, None, "55: 55%"))
    assert choice.to_json()["hint"] == "55: 55%"  # counted, now in the record's __dict__
    moved = views._count_on_side(choice, 1)
    assert moved == dataclasses.replace(choice, side=1)
    assert moved.to_json() == {**choice.to_json(), "side": 1}


def test_a_builder_falls_back_to_init_when_init_does_more() -> None:
    @dataclasses.dataclass(frozen=True)
    class Counted:
        a: int
        b: int = 0

        def __post_init__(self) -> None:
            object.__setattr__(self, "b", self.a * 2)

    @dataclasses.dataclass(frozen=True)
    class Fresh:
        items: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class Plain:
        a: int
        b: int = 3

    assert plain_template(Counted) is None and plain_record(Counted)({"a": 2}) == Counted(2)
    assert plain_record(Counted)({"a": 2}).b == 4
    assert plain_template(Fresh) is None and plain_record(Fresh)({}) == Fresh()
    assert plain_template(Plain) == {"a": MISSING, "b": 3}
    assert plain_record(Plain)({"a": 1}) == Plain(1)
    assert plain_template(Prompt) is not None and plain_template(Choice) is not None


@pytest.mark.parametrize("cls", OWN_DICT_CLASSES, ids=lambda c: c.__name__)
def test_own_dict_records_keep_replace_fast(cls: type) -> None:
    assert issubclass(cls, OwnDict)
    # ``frozen.replace`` fills a copy's __dict__ only for a class whose __init__ only stores fields.
    assert frozen._plain_fields(cls) is not None


def _records(state: model.State) -> Iterator[Any]:
    yield state
    yield state.turn
    yield state.turn.ball
    yield from state.turn.slots
    yield state.pending
    yield from state.decisions
    for side in state.sides:
        yield side
        yield from side.hoopers
    if state.series is not None:
        yield state.series


@pytest.mark.parametrize("script", SCRIPTS)
def test_own_dict_records_are_the_values_init_replace_and_pickle_make(script: str) -> None:
    for n, state in enumerate(_game_states(script)):
        if n % 5:
            continue
        for record in _records(state):
            assert isinstance(record, OwnDict), type(record).__name__
            _as_init_builds(record)
            assert frozen.replace(record) == record == dataclasses.replace(record)
        again = pickle.loads(pickle.dumps(state))
        assert again == state
        assert list(vars(again)) == list(vars(state))


@pytest.mark.parametrize("script", SCRIPTS)
def test_snapshots_after_undo_redo_and_restore_are_fresh_renders(tmp_path: Path, script: str) -> None:
    """What a session shows after undo, redo and a restore is what rendering that state anew shows
    (a record made another way, or a memo that outlived its state, would show otherwise)."""
    options, commands = _script(script)
    store = Store.open(tmp_path / "g.db")
    try:
        session = Session.new(store, "valley-hoopers", options)
        for i, command in enumerate(commands):
            shown = session.handle(command)
            if i % 7 == 3:
                undone = session.handle({"type": "undo"})
                assert _fresh(session) == _shown_part(undone)
                redone = session.handle({"type": "redo"})
                assert _fresh(session) == _shown_part(redone) == _shown_part(shown)
            if i % 60 == 30:
                session.save_snapshots()
                restored = Session.resume(store, session.game_id)
                assert restored.snapshot() == session.snapshot()
                session = restored
    finally:
        store.close()


def _shown_part(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: snapshot[k] for k in ("view", "scoreboard", "prompt", "outcome")}


def _fresh(session: Session) -> dict[str, Any]:
    """The session's state rendered by the game's functions, as ``Session`` renders it."""
    return render(session.game, session.state)
