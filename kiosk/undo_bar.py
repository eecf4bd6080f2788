"""When the top bar's UNDO and REDO are armed, and the Redo offered with an undo's notice.

UNDO acts on the game the service has loaded, whatever screen shows: so it is disarmed where that
game is not what the table looks at (Home, Setup, the card editor) and once the game is over (the
Log screen keeps Undo for a deliberate correction of a final play).

>>> undo_armed({"can_undo": True, "outcome": None}, "resolve"), undo_armed({"can_undo": True}, "setup")
(True, False)
>>> undo_armed({"can_undo": True, "outcome": {"winner": 0}}, "gameend")
False
>>> offers_redo("Undid: Demo Dasher rolls 14", True), offers_redo("Saved", True)
(True, False)
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]
AWAY_FROM_THE_GAME = ("home", "setup", "card")
UNDID = "Undid: "


def undo_armed(snapshot: JSON | None, screen: str) -> bool:
    return bool(snapshot and snapshot.get("can_undo") and not snapshot.get("outcome")
                and screen not in AWAY_FROM_THE_GAME)


def redo_armed(snapshot: JSON | None, screen: str) -> bool:
    return bool(snapshot and snapshot.get("can_redo") and screen not in AWAY_FROM_THE_GAME)


def offers_redo(notice: str, can_redo: bool) -> bool:
    """The notice after an undo carries its Redo while there is something to redo."""
    return notice.startswith(UNDID) and can_redo
