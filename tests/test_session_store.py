"""Session, event log and store: durable before shown, undo/redo as replay, refusals change nothing."""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
from pathlib import Path

import pytest
import tally_game
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CommandError, RuleError, StoreError
from companion.service import TableService
from companion.session import Session, parse_command
from companion.store import SCHEMA_VERSION, Store
from companion.timeline import Timeline


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    s = Store.open(tmp_path / "games.db")
    yield s
    s.close()


def new(store: Store) -> Session:
    return Session.new(store, tally_game.GAME, {"names": ["Lucy", "Karl"]})


def score(side: int, points: int) -> dict:
    return {"type": "score", "side": side, "points": points}


def test_accepted_command_is_in_the_store_before_anyone_sees_it(store: Store) -> None:
    service = TableService(store, find_game=tally_game.find)
    service.execute({"op": "new_game", "game": "tally"})
    seen: list[int] = []

    def subscriber(message: dict) -> None:
        # The entry that produced this state must already be durable.
        if message.get("event") == "snapshot":
            seen.append(len(store.entries(message["snapshot"]["game_id"])))

    service.subscribers.append(subscriber)
    service.execute({"op": "command", "command": score(0, 2)})
    assert seen == [2]


def test_a_state_that_cannot_be_shown_is_never_recorded(store: Store, monkeypatch) -> None:
    session = new(store)

    def broken_view(state):
        raise RuntimeError("view bug")

    monkeypatch.setattr(session, "game", dataclasses.replace(session.game, view=broken_view))
    with pytest.raises(RuntimeError):
        session.handle(score(0, 2))
    assert len(store.entries(session.game_id)) == 1 and session.seq == 0


@pytest.mark.parametrize("part", ["view", "prompt", "scoreboard"])
def test_a_state_that_cannot_be_shown_is_never_written_and_play_goes_on(
        store: Store, monkeypatch, part: str) -> None:
    """The scoreboard, the prompt and the view are rendered before the entry is written: when one
    fails, nothing is written (nor the summary), so nothing unshowable is ever in the store."""
    session = new(store)
    session.handle(score(0, 2))
    summary_before = store.game(session.game_id).summary
    good = session.game
    original = getattr(good, part)

    def broken(state):
        if state.score[1] == 3:
            raise RuntimeError(f"{part} bug")
        return original(state)

    monkeypatch.setattr(session, "game", dataclasses.replace(good, **{part: broken}))
    with pytest.raises(RuntimeError, match=f"{part} bug"):
        session.handle(score(1, 3))
    assert [e["kind"] for e in store.entries(session.game_id)] == ["setup", "command"]
    assert store.game(session.game_id).summary == summary_before == {**summary_before, "score": [2, 0]}
    assert session.seq == 1 and session.state.score == (2, 0)
    session.handle(score(1, 2))  # the next entry takes the seq the refused one would have had
    assert Session.resume(store, session.game_id, tally_game.find).state.score == (2, 2)
    assert store.game(session.game_id).summary["score"] == [2, 2]


def test_the_prompt_and_view_are_rendered_before_the_entry_is_written(store: Store, monkeypatch) -> None:
    session = new(store)
    seen: list[tuple[str, int]] = []
    good = session.game

    def watched(part):
        def render(state):
            seen.append((part, len(store.entries(session.game_id))))
            return getattr(good, part)(state)
        return render

    watching = dataclasses.replace(good, view=watched("view"), prompt=watched("prompt"))
    monkeypatch.setattr(session, "game", watching)
    session.handle(score(0, 2))
    # Only the setup is in the store while the new state is rendered: its entry is written after.
    assert seen == [("view", 1), ("prompt", 1)]


def test_refused_command_changes_nothing_and_writes_nothing(store: Store) -> None:
    session = new(store)
    session.handle(score(0, 2))
    before = (session.state, len(store.entries(session.game_id)), session.seq)
    with pytest.raises(RuleError, match="1 to 3 points, not 5"):
        session.handle(score(1, 5))
    with pytest.raises(CommandError):
        session.handle({"type": "dunk"})
    assert (session.state, len(store.entries(session.game_id)), session.seq) == before


def test_undo_and_redo_are_logged_and_resume_exactly(store: Store) -> None:
    session = new(store)
    session.handle(score(0, 2))
    session.handle(score(1, 3))
    session.handle({"type": "undo"})
    assert session.state.score == (2, 0)
    session.handle({"type": "redo"})
    session.handle({"type": "undo"})
    resumed = Session.resume(store, session.game_id, tally_game.find)
    assert resumed.state == session.state
    assert resumed.timeline.can_redo
    resumed.handle({"type": "redo"})
    assert resumed.state.score == (2, 3)


def test_undo_at_start_and_redo_with_nothing_undone_are_refused(store: Store) -> None:
    session = new(store)
    with pytest.raises(RuleError, match="nothing to undo"):
        session.handle({"type": "undo"})
    with pytest.raises(RuleError, match="nothing to redo"):
        session.handle({"type": "redo"})


def test_new_command_after_undo_clears_redo(store: Store) -> None:
    session = new(store)
    session.handle(score(0, 1))
    session.handle({"type": "undo"})
    session.handle(score(1, 1))
    assert not session.timeline.can_redo
    assert session.state.score == (0, 1)


def test_finished_game_refuses_more_play_but_allows_undo(store: Store) -> None:
    session = new(store)
    for _ in range(7):
        session.handle(score(0, 3))
    assert store.game(session.game_id).status == "finished"
    with pytest.raises(RuleError, match="game is over"):
        session.handle(score(1, 1))
    session.handle({"type": "undo"})
    assert store.game(session.game_id).status == "playing"


commands = st.one_of(
    st.builds(score, st.integers(0, 1), st.integers(0, 4)),
    st.just({"type": "undo"}),
    st.just({"type": "redo"}),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(commands, max_size=40))
def test_any_sequence_of_commands_undos_and_redos_equals_replay_of_the_log(tmp_path_factory, cmds) -> None:
    store = Store.open(tmp_path_factory.mktemp("h") / "g.db")
    session = new(store)
    applied_points = [0, 0]
    for command in cmds:
        with contextlib.suppress(RuleError, CommandError):
            session.handle(command)
    replayed = Timeline.replay(tally_game.GAME, store.entries(session.game_id))
    assert replayed.state == session.state
    # Score equals the sum of the scoring events still in effect.
    for entry in session.timeline.history():
        for event in entry["events"]:
            applied_points[event["side"]] += event["points"]
    assert list(session.state.score) == applied_points
    store.close()


def test_parse_command_names_what_is_wrong() -> None:
    with pytest.raises(CommandError, match="not valid JSON"):
        parse_command("{oops")
    with pytest.raises(CommandError, match="needs a \"type\""):
        parse_command('{"side": 1}')
    with pytest.raises(CommandError, match="not list"):
        parse_command("[1, 2]")
    with pytest.raises(CommandError, match="not UTF-8"):
        parse_command(b"\xff\xfe")


def test_store_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"shopping list: milk, eggs\n" * 100)
    with pytest.raises(StoreError, match="not a Courtside Companion game store or is damaged"):
        Store.open(path)
    assert path.read_bytes().startswith(b"shopping list")


def test_store_refuses_another_programs_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos(id)")
    with pytest.raises(StoreError, match="belongs to another program"):
        Store.open(path)


def test_store_refuses_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    Store.open(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer Courtside Companion"):
        Store.open(path)


def test_store_is_wal_with_full_sync(store: Store) -> None:
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_full_disk_refuses_the_command_and_the_shown_state_does_not_advance(store: Store) -> None:
    session = new(store)
    session.handle(score(0, 2))
    page_count = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={page_count}")  # SQLite's own "disk is full"
    state_before = session.state
    with pytest.raises(StoreError, match="full.*not recorded"):
        for n in range(400):  # score/undo pairs fill the remaining pages without ending the game
            session.handle(score(1, 1) if n % 2 == 0 else {"type": "undo"})
            state_before = session.state
    assert session.state == state_before
    resumed = Session.resume(store, session.game_id, tally_game.find)
    assert resumed.state == session.state


def test_read_only_store_refuses_the_command_with_a_clear_message(store: Store) -> None:
    session = new(store)
    store._db.execute("PRAGMA query_only=ON")
    with pytest.raises(StoreError, match="read-only.*not recorded"):
        session.handle(score(0, 2))
    assert session.state.score == (0, 0)


def test_games_list_resume_delete(store: Store) -> None:
    a, b = new(store), new(store)
    b.handle(score(1, 3))
    listed = store.games()
    assert [g.id for g in listed] == [b.game_id, a.game_id]
    assert listed[0].summary["score"] == [0, 3]
    store.delete_game(a.game_id)
    assert [g.id for g in store.games()] == [b.game_id]
    with pytest.raises(StoreError, match="no saved game"):
        store.delete_game(a.game_id)


def test_a_command_origin_is_logged_with_its_entry_and_shown_as_last_origin_after_a_resume(
        store: Store) -> None:
    session = new(store)
    snapshot = session.handle({**score(0, 2), "origin": "tray:17:d6:2"})
    assert snapshot["last_origin"] == "tray:17:d6:2"
    entry = store.entries(session.game_id)[-1]
    assert entry["origin"] == "tray:17:d6:2" and entry["command"] == score(0, 2)  # the game never sees it
    assert Session.resume(store, session.game_id, tally_game.find).snapshot()["last_origin"] == "tray:17:d6:2"
    assert session.handle(score(1, 1))["last_origin"] is None
    assert Session.resume(store, session.game_id, tally_game.find).snapshot()["last_origin"] is None


@pytest.mark.parametrize("origin", ["", "x" * 81, 17, ["tray"]])
def test_an_origin_that_is_not_a_short_text_is_refused_and_nothing_is_written(store: Store, origin) -> None:
    session = new(store)
    with pytest.raises(CommandError, match="origin must be a text of 1 to 80 characters"):
        session.handle({**score(0, 2), "origin": origin})
    assert session.seq == 0 and len(store.entries(session.game_id)) == 1
