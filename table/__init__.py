"""The wiring above every layer: builds the hardware, runs the table service, and is the CLI.

``companion/`` (the engine, the games, the store and the service) imports nothing from here, nor
from ``hardware/`` or ``kiosk/``; ``hardware/`` and ``kiosk/`` import only ``companion/``. This
package is the one place that knows all three, so the ``companion`` command lives here.
"""
