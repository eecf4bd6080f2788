"""Coverage-guided fuzzing (atheris) of everything that reads outside input.

    .venv/bin/pip install '.[fuzz]'
    .venv/bin/python benchmarks/fuzz.py tray|socket|command [-max_total_time=60] [-runs=N]

- ``tray``: arbitrary bytes into the dice-tray protocol (checksums, resync, duplicates): never an
  exception, never an event from a line that fails its checksum, the buffer stays bounded.
- ``socket``: arbitrary bytes as a socket line into the table service with a Valley Hoopers game:
  every request is answered, a refusal changes nothing.
- ``command``: structured random commands into Valley Hoopers' ``decide``: only ``RuleError`` or
  ``CommandError``, never another exception, and a refused command leaves the state as it was.

The hypothesis tests in tests/ run short versions of each on every ``make test``.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

with atheris.instrument_imports():
    from table_driver import script

    from companion.errors import CommandError, RuleError
    from companion.games import find_game
    from companion.service import TableService
    from companion.socket_server import parse_command_line
    from companion.store import Store
    from hardware.dice_tray_protocol import TrayProtocol, checksum

GAME = find_game("valley-hoopers")
OPTIONS, COMMANDS = script()


CHECKSUMMED = re.compile(rb"\$([^$*\r\n]*)\*([0-9A-Fa-f]{2})")


def fuzz_tray(data: bytes) -> None:
    protocol = TrayProtocol()
    accepted = 0
    for start in range(0, len(data), 7):
        events, _replies = protocol.receive(data[start:start + 7])
        accepted += sum(1 for e in events if type(e).__name__ != "TrayRejected")
        assert protocol.parser.buffered <= 82
    # Nothing is accepted that doesn't stand in the input with a right checksum.
    valid = sum(1 for body, sent in CHECKSUMMED.findall(data) if checksum(body) == int(sent, 16))
    assert accepted <= valid, (accepted, valid)


_service: TableService | None = None


def fuzz_socket(data: bytes) -> None:
    global _service
    if _service is None:
        _service = TableService(Store.open(Path(tempfile.mkdtemp()) / "fuzz.db"))
        _service.execute({"op": "new_game", "game": "valley-hoopers", "options": OPTIONS})
        for command in COMMANDS[:30]:
            _service.execute({"op": "command", "command": command})
    try:
        request = parse_command_line(data)
    except CommandError:
        return
    before = json.dumps(_service.snapshot())
    answer = _service.execute(request)
    assert "ok" in answer
    if not answer["ok"]:
        assert answer["error_kind"] != "internal", answer
        assert json.dumps(_service.snapshot()) == before


STATE = GAME.setup(OPTIONS)
for _command in COMMANDS[:30]:
    STATE, _ = GAME.run(STATE, _command)
TYPES = sorted({c.type for c in GAME.commands})
FIELDS = ["die", "face", "action", "position", "shot", "hooper", "reward", "side", "name", "effect",
          "stat", "changes", "hoopers", "bonus", "chip", "to", "common", "stats", "energy_from"]


def fuzz_command(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    command: dict[str, object] = {"type": TYPES[fdp.ConsumeIntInRange(0, len(TYPES) - 1)]}
    for _ in range(fdp.ConsumeIntInRange(0, 4)):
        key = FIELDS[fdp.ConsumeIntInRange(0, len(FIELDS) - 1)]
        kind = fdp.ConsumeIntInRange(0, 4)
        command[key] = (fdp.ConsumeUnicodeNoSurrogates(12) if kind == 0 else fdp.ConsumeIntInRange(-5, 120)
                        if kind == 1 else None if kind == 2 else [fdp.ConsumeUnicodeNoSurrogates(8)]
                        if kind == 3 else {fdp.ConsumeUnicodeNoSurrogates(4): fdp.ConsumeIntInRange(0, 99)})
    try:
        events = GAME.decide(STATE, command)
    except (RuleError, CommandError):
        return
    state = STATE
    for event in events:
        state = GAME.apply(state, event)
    json.dumps(events)  # what is accepted must be storable


TARGETS = {"tray": fuzz_tray, "socket": fuzz_socket, "command": fuzz_command}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        print(__doc__)
        sys.exit(2)
    target = TARGETS[sys.argv.pop(1)]
    assert checksum(b"ROLL,1,d6,4")  # the protocol module is the one under test
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()
