"""Sealed input: secret values committed to the store at once, shown to nobody until revealed.

A command spec declares its secret fields (``CommandSpec.sealed``: a bid's ``amount``). The
store keeps the whole command (a power cut loses nothing), but every way out of the companion
(the ``log`` op, exports, snapshots) goes through ``mask``: until the game reveals, the secret
fields of that command and of its events read ``"sealed"``. The game reveals by putting
``"reveals": true`` on an event (the last bid's, typically); every sealed command in effect before
it is then shown. Front ends never decide this.

>>> from companion.commands import CommandSpec, Field
>>> from companion.game import Game
>>> bid = CommandSpec("bid", "a sealed bid", {"type": "bid", "side": 0, "amount": 3},
...                   (Field("side", "side"), Field("amount", "int")), sealed=("amount",))
>>> game = Game("g", "G", (), None, None, None, None, None, None, None, commands=(bid,))
>>> first = {"kind": "command", "command": {"type": "bid", "side": 0, "amount": 3},
...          "events": [{"type": "bid", "side": 0, "amount": 3}]}
>>> mask_done(game, [first])[0]["command"]
{'type': 'bid', 'side': 0, 'amount': 'sealed'}
>>> last = {"kind": "command", "command": {"type": "bid", "side": 1, "amount": 5},
...         "events": [{"type": "bid", "side": 1, "amount": 5, "reveals": True}]}
>>> [e["command"]["amount"] for e in mask_done(game, [first, last])]
[3, 5]
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from companion.game import JSON, Game

MASK = "sealed"


def _revealing(entry: JSON) -> bool:
    return any(event.get("reveals") for event in entry.get("events", ()))


def _masked(game: Game, entry: JSON) -> JSON:
    fields = game.sealed_fields(entry.get("command", {}).get("type"))
    out = copy.deepcopy(entry)
    for part in (out["command"], *out.get("events", ())):
        for name in fields:
            if name in part:
                part[name] = MASK
    return out


def is_sealed(game: Game, entry: JSON) -> bool:
    return entry.get("kind") == "command" and bool(game.sealed_fields(entry["command"].get("type")))


def revealed_ids(game: Game, done: list[JSON]) -> set[int]:
    """``id()`` of the sealed command entries in effect that a later (or the same) entry revealed."""
    revealed: set[int] = set()
    waiting: list[JSON] = []
    for entry in done:
        if is_sealed(game, entry):
            waiting.append(entry)
        if _revealing(entry):
            revealed.update(id(e) for e in waiting)
            waiting = []
    return revealed


def mask_done(game: Game, done: list[JSON]) -> list[JSON]:
    """The commands in effect, with the unrevealed sealed ones masked."""
    shown = revealed_ids(game, done)
    return [_masked(game, e) if is_sealed(game, e) and id(e) not in shown else e for e in done]


def mask_log(game: Game, entries: Iterable[JSON], done: list[JSON]) -> list[Any]:
    """A raw store log (undo and redo included) masked the same way: ``done`` is what is in effect
    after replaying ``entries`` (the same entry objects); an undone sealed command stays masked."""
    shown = revealed_ids(game, done)
    return [_masked(game, e) if is_sealed(game, e) and id(e) not in shown else e for e in entries]
