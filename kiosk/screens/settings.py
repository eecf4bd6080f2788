"""Settings and hardware status: dice tray, OLED, live button/encoder test, the configuration in use."""

from __future__ import annotations

import json
from typing import Any

from kivy.config import Config
from kivy.core.window import Window
from kivy.properties import StringProperty

from kiosk.screens.base import KioskScreen


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        if "online" in value:
            detail = f" ({value['detail']})" if value.get("detail") else ""
            return ("online" if value["online"] else "OFFLINE") + detail
        if "state" in value:
            return str(value["state"]) + (f" ({value['detail']})" if value.get("detail") else "")
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return json.dumps(value) if not isinstance(value, str) else value


class SettingsScreen(KioskScreen):
    """What the table's hardware is doing now, as the service reports it (updated live)."""

    tray_text = StringProperty("")
    displays_text = StringProperty("")
    live_text = StringProperty("")
    config_text = StringProperty("")

    def show(self, app: Any) -> None:
        status = dict(app.status)
        hardware = status.get("hardware") if isinstance(status.get("hardware"), dict) else {}
        tray = status.get("tray") or hardware.get("tray")
        device = status.get("tray_device")
        tray_words = _describe(tray) if tray else "not connected"
        if isinstance(tray, dict) and tray.get("port"):
            tray_words += f" on {tray['port']}"
        if isinstance(device, dict):
            tray_words += f", {device.get('device')} firmware {device.get('firmware')}"
        if status.get("tray_rejected"):
            tray_words += f", {status['tray_rejected']} line(s) rejected"
        self.tray_text = f"Dice tray: {tray_words}"
        displays = {k.split(":", 1)[1]: v for k, v in status.items() if k.startswith("display:")}
        displays.update(hardware.get("displays") or {})
        self.displays_text = "OLED: " + ("; ".join(f"{name} {_describe(v)}" for name, v in displays.items())
                                         if displays else "no report yet")
        live = []
        if status.get("dial"):
            live.append(f"Dial shows: {status['dial']}")
        if status.get("last_tie"):
            live.append(f"Two buttons at once: {_describe(status['last_tie'])}")
        self.live_text = "\n".join(live) if live else (
            "Turn the encoder or press NEXT / MENU: the dial shows here. CONFIRM sends what it shows; "
            "UNDO must be held.")
        buttons = hardware.get("buttons")
        inputs = ", ".join(f"{k} = {v}" for k, v in Config.items("input"))
        lines = [
            f"Table socket: {app.socket_path} ({app.link_state})",
            f"Simulation: {'yes' if app.sim else 'no'}"
            + (" (this kiosk started the service)" if app.started_service else ""),
            f"Hardware: {'simulated' if hardware.get('sim') else 'real'}; buttons "
            f"{', '.join(buttons) if buttons else 'none'}; "
            f"encoder {'yes' if hardware.get('encoder') else 'no'}"
            if hardware else "Hardware: no report (the service runs without hardware)",
            f"Window: {Window.size[0]}x{Window.size[1]}, fullscreen {Config.get('graphics', 'fullscreen')}, "
            f"cursor {'shown' if Config.get('graphics', 'show_cursor') == '1' else 'hidden'}",
            f"Touch input: {inputs}",
        ]
        if status.get("recovery"):
            lines.append(f"Store recovery: {status['recovery']}")
        self.config_text = "\n".join(lines)
