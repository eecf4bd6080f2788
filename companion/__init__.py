"""Courtside Companion: the table's bookkeeper for physical basketball board games.

Pure Python: rules engines (``companion.games``), the event log and undo (``timeline``), the game
store (``store``), sessions (``session``) and the ``companion`` CLI. It imports no Kivy, gpiozero
or luma; those live in ``hardware/`` and ``kiosk/``.
"""

__version__ = "0.1.0"
