import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))

from service_rig import private_display  # noqa: E402 - tests/ is on the path from here on
from socket_rig import build_service  # noqa: E402

from companion.service import TableService  # noqa: E402
from companion.socket_server import TableSocketServer  # noqa: E402


@pytest.fixture()
def service(tmp_path: Path) -> Iterator[TableService]:
    """A started table service in this process, knowing the tally test game, its store in tmp_path."""
    started = build_service(tmp_path / "t.db")
    started.start()
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture()
def server(service: TableService, tmp_path: Path) -> Iterator[TableSocketServer]:
    """That service on a Unix socket of its own (closed before the service stops)."""
    listening = TableSocketServer(service, tmp_path / "run" / "table.sock")
    listening.start()
    try:
        yield listening
    finally:
        listening.close()


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """One private X server for the whole session (Kivy needs a display; the table has a real one).

    Each kiosk process opens its own window of the size it asks for and closes it when it exits,
    so tests share the server but nothing drawn on it."""
    with private_display() as name:
        yield name


@pytest.fixture
def shootout() -> Iterator[object]:
    """The test-only game, registered for this test (and for services it starts in a subprocess,
    which import it by module name with tests/ on their PYTHONPATH); unregistered afterwards, so
    other tests see only the shipped games."""
    from shootout_game import GAME

    from companion.games import EXTRA_GAMES_ENV, register, unregister

    register(GAME)
    saved = {key: os.environ.get(key) for key in (EXTRA_GAMES_ENV, "PYTHONPATH")}
    os.environ[EXTRA_GAMES_ENV] = "shootout_game"
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS.parent), str(TESTS),
                                                              saved["PYTHONPATH"]]))
    try:
        yield GAME
    finally:
        unregister(GAME)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
