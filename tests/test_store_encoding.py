"""What the store writes per entry is what ``json.dumps`` and ``datetime.isoformat`` would write.

The store encodes entries with one C encoder made once, reuses a summary's JSON while it reads the
same, and works out a timestamp's text to the second once per second: each must read exactly as
the plain library call would, and a changed summary must reach the saved-games list. The game's row
is rewritten only when its summary or status changes; the list's "last played" is read from the log.
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import store as store_module
from companion.store import Store

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8) | st.integers(), children, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_an_entry_is_encoded_as_json_dumps_encodes_it(value: object) -> None:
    assert store_module._dumps(value) == json.dumps(value)


def test_the_encoder_refuses_what_json_dumps_refuses_with_its_words() -> None:
    with pytest.raises(TypeError) as ours:
        store_module._dumps({"events": [{"when": datetime(2026, 1, 1)}]})
    with pytest.raises(TypeError) as plain:
        json.dumps({"events": [{"when": datetime(2026, 1, 1)}]})
    assert str(ours.value) == str(plain.value)
    assert store_module._dumps([math.nan, math.inf, "é\n"]) == json.dumps([math.nan, math.inf, "é\n"])


def test_a_timestamp_reads_as_isoformat_to_the_millisecond(monkeypatch) -> None:
    for nanoseconds in (0, 999_999_999, 1_764_626_400_123_456_789, 1_764_626_400_999_000_000,
                        1_764_626_401_000_999_999):
        monkeypatch.setattr(store_module.time, "time_ns", lambda n=nanoseconds: n)
        expected = datetime.fromtimestamp(nanoseconds // 1000 / 1e6, UTC)
        expected = expected.replace(microsecond=(nanoseconds // 1000) % 1_000_000)
        assert store_module._now() == expected.isoformat(timespec="milliseconds")
    monkeypatch.undo()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", store_module._now())


def test_a_changed_summary_reaches_the_games_list_and_an_unchanged_one_reads_the_same(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.db")
    try:
        game_id = store.create_game("some-game", {"kind": "setup", "options": {}}, {"score": [0, 0]})
        entry = {"kind": "command", "command": {"type": "score"}, "events": []}
        store.append(game_id, 1, entry, {"score": [2, 0], "final": False}, "playing")
        assert store.game(game_id).summary == {"score": [2, 0], "final": False}
        store.append(game_id, 2, entry, {"score": [2, 0], "final": False}, "playing")
        assert store.game(game_id).summary == {"score": [2, 0], "final": False}
        store.append(game_id, 3, entry, {"score": [2, 3], "final": True}, "finished")
        record = store.game(game_id)
        assert (record.summary, record.status) == ({"score": [2, 3], "final": True}, "finished")
        other = store.create_game("some-game", {"kind": "setup", "options": {}}, {"score": [0, 0]})
        store.append(other, 1, entry, {"score": [2, 0], "final": False}, "playing")
        assert store.game(other).summary == {"score": [2, 0], "final": False}
        assert store.game(game_id).summary == {"score": [2, 3], "final": True}
    finally:
        store.close()


def _statements(store: Store) -> list[str]:
    """Every SQL statement the store's connection runs from now on (SQLite's own trace)."""
    seen: list[str] = []
    store._db.set_trace_callback(seen.append)
    return seen


def test_an_entry_that_changes_no_summary_leaves_the_games_row_alone_and_last_played_follows_the_log(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.db")
    try:
        game_id = store.create_game("some-game", {"kind": "setup", "options": {}}, {"score": [0, 0]})
        entry = {"kind": "command", "command": {"type": "pass"}, "events": []}
        seen = _statements(store)
        store.append(game_id, 1, entry, {"score": [0, 0]}, "playing")
        assert not [s for s in seen if s.startswith("UPDATE games")]
        at = store.timed_entries(game_id)[-1][1]
        assert store.game(game_id).updated_at == at == store.games()[0].updated_at
        store.append(game_id, 2, entry, {"score": [2, 0]}, "playing")
        assert [s for s in seen if s.startswith("UPDATE games")]
        assert store.game(game_id).summary == {"score": [2, 0]}
    finally:
        store.close()


def test_the_games_list_puts_the_game_with_the_newest_entry_first(tmp_path: Path, monkeypatch) -> None:
    times = iter(f"2026-12-02T00:00:0{n}.000+00:00" for n in range(10))
    monkeypatch.setattr(store_module, "_now", lambda: next(times))
    store = Store.open(tmp_path / "games.db")
    try:
        first = store.create_game("some-game", {"kind": "setup", "options": {}}, {"score": [0, 0]})
        second = store.create_game("some-game", {"kind": "setup", "options": {}}, {"score": [0, 0]})
        entry = {"kind": "command", "command": {"type": "pass"}, "events": []}
        store.append(first, 1, entry, {"score": [0, 0]}, "playing")  # the row is not written again
        assert [(r.id, r.updated_at[:19]) for r in store.games()] == [
            (first, "2026-12-02T00:00:02"), (second, "2026-12-02T00:00:01")]
    finally:
        store.close()


def test_a_row_changed_outside_append_is_written_again_by_the_next_entry(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.db")
    try:
        game_id = store.create_game("some-game", {"kind": "setup", "options": {}}, {"score": [0, 0]})
        entry = {"kind": "command", "command": {"type": "pass"}, "events": []}
        store.append(game_id, 1, entry, {"score": [1, 0]}, "playing")
        assert store.abandon_game(game_id).status == "abandoned"
        store.append(game_id, 2, entry, {"score": [1, 0]}, "playing")  # resumed and played on
        assert store.game(game_id).status == "playing"
        store.append(game_id, 3, entry, {"score": [3, 0]}, "playing")
        assert store.game(game_id).summary == {"score": [3, 0]}
    finally:
        store.close()


def test_a_failed_write_forgets_the_row_so_the_next_entry_writes_it(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.db")
    try:
        game_id = store.create_game("some-game", {"kind": "setup", "options": {}}, {"score": [0, 0]})
        entry = {"kind": "command", "command": {"type": "pass"}, "events": []}
        store.append(game_id, 1, entry, {"score": [2, 0]}, "playing")
        with pytest.raises(store_module.StoreError):
            store.append(game_id, 1, entry, {"score": [4, 0]}, "playing")  # seq taken: rolled back
        assert store.game(game_id).summary == {"score": [2, 0]}
        seen = _statements(store)
        store.append(game_id, 2, entry, {"score": [4, 0]}, "playing")
        assert [s for s in seen if s.startswith("UPDATE games")]
        assert store.game(game_id).summary == {"score": [4, 0]}
    finally:
        store.close()
