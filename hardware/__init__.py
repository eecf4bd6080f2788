"""The table's hardware: buttons, rotary encoder, serial dice tray, OLED scoreboards, LEDs.

Adapters translate the outside world into input events (``hardware.inputs``) handed to an
``emit`` callback, and draw the ``ScoreboardView`` the table service gives them; they hold no game
rules. ``hardware.backends.build_hardware(config, sim, emit)`` builds the real set or the
simulated one (gpiozero's ``MockFactory``, luma's ``dummy``, pyserial's ``loop://`` / a pty).
Wiring and events: docs/hardware.md; tray protocol: docs/dice-tray-protocol.md.
"""
