"""The Settings screen's hardware lines, from the service's status, in words that never disagree.

The service reports some parts as they change (``tray``, ``display:NAME``, pushed by the controls)
and a summary read live (``hardware``: buttons, encoder, tray, displays). Each line below reads both,
so "Dice tray: connected" never sits above "Hardware: no report".

>>> words = hardware_words({"tray": {"state": "connected", "detail": "/dev/pts/3"}})
>>> words["tray"], words["hardware"]
('Dice tray: connected (/dev/pts/3)', 'Hardware: reported in part (Refresh status asks for the rest)')
>>> hardware_words({})["hardware"]
'Hardware: none (the service runs without hardware)'
"""

from __future__ import annotations

import json
from typing import Any

JSON = dict[str, Any]


def describe(value: Any) -> str:
    """One part's status in words: "online (dummy 128x64)", "connected (/dev/ttyACM0)"."""
    if isinstance(value, dict):
        if "online" in value:
            detail = f" ({value['detail']})" if value.get("detail") else ""
            return ("online" if value["online"] else "OFFLINE") + detail
        if "state" in value:
            return str(value["state"]) + (f" ({value['detail']})" if value.get("detail") else "")
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return json.dumps(value) if not isinstance(value, str) else value


def hardware_words(status: JSON) -> dict[str, str]:
    """``tray``, ``displays`` and ``hardware`` lines for the status the service sent."""
    hardware = status.get("hardware") if isinstance(status.get("hardware"), dict) else {}
    pushed_displays = {k.split(":", 1)[1]: v for k, v in status.items() if k.startswith("display:")}
    # The pushed tray state is the newest word on the link; the summary adds the port.
    tray = status.get("tray") or hardware.get("tray")
    reported = bool(hardware) or bool(tray) or bool(pushed_displays)
    if tray:
        tray_words = describe(tray)
        port = (hardware.get("tray") or {}).get("port") if isinstance(hardware.get("tray"), dict) else None
        if port and str(port) not in tray_words:
            tray_words += f" on {port}"
    elif hardware:
        tray_words = "none configured"
    else:
        tray_words = "none (the service runs without hardware)" if not reported else "no report yet"
    device = status.get("tray_device")
    if isinstance(device, dict):
        tray_words += f", {device.get('device')} firmware {device.get('firmware')}"
    if status.get("tray_rejected"):
        tray_words += f", {status['tray_rejected']} line(s) rejected"
    displays = {**(hardware.get("displays") or {}), **pushed_displays}
    if displays:
        displays_words = "; ".join(f"{name} {describe(v)}" for name, v in displays.items())
    else:
        displays_words = "none configured" if hardware else ("no report yet" if reported else "none")
    if hardware.get("closed"):
        hardware_line = "Hardware: closed (the table is shutting down)"
    elif hardware:
        buttons = hardware.get("buttons")
        hardware_line = (f"Hardware: {'simulated' if hardware.get('sim') else 'real'}; buttons "
                         f"{', '.join(buttons) if buttons else 'none'}; "
                         f"encoder {'yes' if hardware.get('encoder') else 'no'}")
    elif reported:
        hardware_line = "Hardware: reported in part (Refresh status asks for the rest)"
    else:
        hardware_line = "Hardware: none (the service runs without hardware)"
    return {"tray": f"Dice tray: {tray_words}", "displays": f"OLED: {displays_words}",
            "hardware": hardware_line}
