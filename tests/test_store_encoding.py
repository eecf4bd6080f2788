"""What the store writes per entry is what ``json.dumps`` and ``datetime.isoformat`` would write.

The store encodes entries with one C encoder made once, reuses a summary's JSON while it reads the
same, and works out a timestamp's text to the second once per second: each must read exactly as
the plain library call would, and a changed summary must reach the saved-games list.
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
