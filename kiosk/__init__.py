"""The touchscreen kiosk: a Kivy client of the table service that shows the table and sends commands.

It holds no rules: every number it shows (targets, chances, scores) comes from the service's
snapshot, and every tap becomes a protocol request (``docs/protocol.md``). ``kiosk.launcher.main``
is what ``companion run`` calls.
"""
