"""One line of the table socket: how a request line is read and how a reply line is written.

Shared by the server (``companion.socket_server``) and its tests; see ``docs/protocol.md``.

>>> encode({"id": 1, "ok": True})
b'{"id": 1, "ok": true}\\n'
>>> check_id(float("nan"))
Traceback (most recent call last):
...
companion.errors.CommandError: an id is a string (up to 256 characters), a whole number or null, not nan
"""

from __future__ import annotations

import json

from companion.errors import CommandError
from companion.game import JSON
from companion.session import parse_json_object

MAX_LINE = 64 * 1024  # a command is a few hundred bytes; anything this long is not ours
MAX_ID_TEXT = 256


def encode(message: JSON) -> bytes:
    """One line of strict JSON: a NaN or Infinity raises instead of becoming invalid JSON."""
    return (json.dumps(message, allow_nan=False) + "\n").encode()


def refusal(error: str, kind: str = "command", request_id: object = None) -> bytes:
    return encode({"id": request_id, "ok": False, "error_kind": kind, "error": error})


def check_id(value: object) -> object:
    """The ``id`` a reply may echo: a string, a whole number or null (never NaN, a list, a huge text)."""
    if value is None or (isinstance(value, str) and len(value) <= MAX_ID_TEXT):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63:
        return value
    shown = repr(value) if not isinstance(value, str) else f"a text of {len(value)} characters"
    raise CommandError(f"an id is a string (up to {MAX_ID_TEXT} characters), a whole number or null, "
                       f"not {shown[:60]}")


def parse_command_line(line: bytes) -> JSON:
    """A request line: JSON object with an ``op`` (or a bare command with a ``type``)."""
    value = parse_json_object(line)
    if isinstance(value.get("op"), str):
        return value
    if isinstance(value.get("type"), str) and value["type"]:
        return value
    raise CommandError("a request is a JSON object with an \"op\" (or a command with a \"type\")")
