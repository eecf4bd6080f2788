"""Bad input on the socket: random bytes and random JSON never crash the table or change it wrongly."""

from __future__ import annotations

import json

import tally_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CommandError
from companion.service import TableService
from companion.socket_server import parse_command_line
from companion.store import Store

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
requests = st.dictionaries(
    st.sampled_from(["op", "type", "command", "game", "options", "game_id", "id", "side", "points"]),
    json_values | st.sampled_from(["command", "state", "new_game", "resume", "games", "score", "undo",
                                   "redo", "tally"]),
    max_size=5,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=120))
def test_random_bytes_are_refused_as_commands_never_crash(line: bytes) -> None:
    try:
        request = parse_command_line(line)
    except CommandError as exc:
        assert str(exc)
    else:
        assert isinstance(request, dict)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(requests, max_size=12))
def test_random_requests_get_an_answer_and_only_valid_commands_change_the_score(tmp_path_factory,
                                                                               batch) -> None:
    service = TableService(Store.open(tmp_path_factory.mktemp("f") / "f.db"), find_game=tally_game.find)
    service.execute({"op": "new_game", "game": "tally"})
    for request in batch:
        before = json.dumps(service.snapshot())
        answer = service.execute(request)
        assert set(answer) >= {"ok"}
        if not answer["ok"]:
            assert answer["error"] and answer["error_kind"] in ("rule", "command", "store"), answer
            assert json.dumps(service.snapshot()) == before
    service.store.close()
