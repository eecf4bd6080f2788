"""The last notice on the OLEDs' bottom line: a table with no kiosk still reads why a press did nothing.

The service tells every client what it refused or ignored (a roll the game was not waiting for, a
tray line with a bad checksum, UNDO pressed instead of held); the kiosk shows it in full. The OLEDs'
bottom line shows its first words instead of the dial until the table moves on: the dial turns, a
command is recorded, or ``NOTICE_SHOWN_S`` pass. Lives on the service's owner thread, as the
controls do.

>>> now = [0.0]
>>> line = NoticeLine(clock=lambda: now[0])
>>> line.post("the tray sent a d20, but the game is not waiting for a die")
>>> line.current()
'! the tray sent a d20, but the game is not waiting for a die'
>>> now[0] = NOTICE_SHOWN_S
>>> line.current()
''
"""

from __future__ import annotations

import time
from collections.abc import Callable

# Long enough to read a line after looking up from the dice, short enough not to stay stale.
NOTICE_SHOWN_S = 4.0


class NoticeLine:
    """The notice the OLEDs show, if any is still fresh."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, seconds: float = NOTICE_SHOWN_S) -> None:
        self._clock = clock
        self.seconds = seconds
        self._text = ""
        self._until = float("-inf")

    def post(self, text: str) -> None:
        # The mark tells a notice from the dial's words ("42 on d20") at a glance.
        self._text = f"! {text}" if text else ""
        self._until = self._clock() + self.seconds

    def clear(self) -> None:
        self._text = ""

    def current(self) -> str:
        """The notice while it is fresh, else ""."""
        return self._text if self._clock() < self._until else ""
