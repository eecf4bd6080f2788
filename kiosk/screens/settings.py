"""Settings and hardware status: dice tray, OLED, live button/encoder test, the configuration in use."""

from __future__ import annotations

from typing import Any

from kivy.config import Config
from kivy.core.window import Window
from kivy.properties import StringProperty

from kiosk.screens.base import KioskScreen
from kiosk.status_words import describe, hardware_words


class SettingsScreen(KioskScreen):
    """What the table's hardware is doing now, as the service reports it (updated live)."""

    tray_text = StringProperty("")
    displays_text = StringProperty("")
    hardware_text = StringProperty("")
    live_text = StringProperty("")
    config_text = StringProperty("")

    def show(self, app: Any) -> None:
        status = dict(app.status)
        words = hardware_words(status)
        self.tray_text = words["tray"]
        self.displays_text = words["displays"]
        self.hardware_text = words["hardware"]
        live = []
        if status.get("dial"):
            live.append(f"Dial shows: {status['dial']}")
        if status.get("last_tie"):
            live.append(f"Two buttons at once: {describe(status['last_tie'])}")
        self.live_text = "\n".join(live) if live else (
            "Turn the encoder or press NEXT / MENU: the dial shows here. CONFIRM sends what it shows; "
            "UNDO must be held.")
        inputs = ", ".join(f"{k} = {v}" for k, v in Config.items("input"))
        lines = [
            f"Table socket: {app.socket_path} ({app.link_state})",
            f"Simulation: {'yes' if app.sim else 'no'}"
            + (" (this kiosk started the service)" if app.started_service
               else " (joined a service this kiosk did not start)" if app.sim else ""),
            f"Window: {Window.size[0]}x{Window.size[1]}, "
            f"{'a window (Escape or its close button quits)' if app.closable else 'fullscreen'}, "
            f"cursor {'shown' if Config.get('graphics', 'show_cursor') == '1' else 'hidden'}",
            f"Touch input: {inputs}",
        ]
        if status.get("recovery"):
            lines.append(f"Store recovery: {status['recovery']}")
        self.config_text = "\n".join(lines)
