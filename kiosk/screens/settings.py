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
        tray = status.get("tray")
        device = status.get("tray_device")
        self.tray_text = ("Dice tray: " + (_describe(tray) if tray else "not connected")
                          + (f", {device.get('device')} firmware {device.get('firmware')}"
                             if isinstance(device, dict) else ""))
        displays = [f"{k.split(':', 1)[1]}: {_describe(v)}" for k, v in status.items()
                    if k.startswith("display:")]
        self.displays_text = "Displays: " + ("; ".join(displays) if displays else "no report yet")
        live = [f"{k}: {_describe(v)}" for k, v in status.items()
                if k in ("dial", "last_input", "last_button", "last_tie", "tray_rejected", "encoder")]
        self.live_text = ("\n".join(live) if live else
                          "Press a button or turn the encoder: what the table receives shows here.")
        other = [f"{k}: {_describe(v)}" for k, v in status.items()
                 if not k.startswith("display:") and k not in ("tray", "tray_device", "dial", "last_input",
                                                               "last_button", "last_tie", "tray_rejected",
                                                               "encoder")]
        inputs = ", ".join(f"{k} = {v}" for k, v in Config.items("input"))
        self.config_text = "\n".join([
            f"Table socket: {app.socket_path} ({app.link_state})",
            f"Simulation: {'yes' if app.sim else 'no'}"
            + (" (this kiosk started the service)" if app.started_service else ""),
            f"Window: {Window.size[0]}x{Window.size[1]}, fullscreen {Config.get('graphics', 'fullscreen')}, "
            f"cursor {'shown' if Config.get('graphics', 'show_cursor') == '1' else 'hidden'}",
            f"Touch input: {inputs}",
            *other,
        ])
