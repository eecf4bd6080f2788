"""The simulated hardware beside the game: OLED, buttons, encoder and dice tray (simulation only).

The hardware itself is simulated inside the table service; this panel only draws it and turns taps
into the service's ``sim_*`` requests, so what happens is exactly what real hardware would cause.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk import present
from kiosk.widgets import BigButton, BigToggle


class SimPanel(BoxLayout):
    """Simulated buttons (tap = press, long tap = hold), encoder, OLED image and dice tray (the dice
    of the game on the table, as its ``game_info`` names them)."""

    tray_die = StringProperty("")
    dice_for = StringProperty("")  # the game whose dice are shown

    def show_dice(self, info: dict[str, Any]) -> None:
        """One toggle per die of the game; the first is picked unless one of them already is."""
        dice = [d for d in info.get("dice") or [] if d.get("name")]
        if str(info.get("name", "")) == self.dice_for and dice:
            return
        self.dice_for = str(info.get("name", ""))
        self._dice = {str(d["name"]): d for d in dice}
        row = self.ids.tray_dice
        row.clear_widgets()
        if self.tray_die not in self._dice:
            self.tray_die = next(iter(self._dice), "")
        for name, die in self._dice.items():
            toggle = BigToggle(text=str(die.get("title") or name), font_size="15sp", group="tray_die",
                               state="down" if name == self.tray_die else "normal", allow_no_selection=False)
            toggle.bind(on_release=lambda _b, n=name: self.pick_die(n))
            row.add_widget(toggle)
        self.show_faces()

    def pick_die(self, die: str) -> None:
        self.tray_die = die
        self.show_faces()

    def show_faces(self) -> None:
        """The faces of the die picked in the tray: tap one to roll it into the simulated tray."""
        grid = self.ids.tray_faces
        grid.clear_widgets()
        die = getattr(self, "_dice", {}).get(self.tray_die) or {}
        for face in dict.fromkeys(die.get("faces") or []):
            button = BigButton(text=present.face_label(face, die.get("face_labels")), font_size="16sp",
                               tone="quiet")
            button.bind(on_release=lambda _b, f=face: App.get_running_app().sim_tray(self.tray_die, f))
            grid.add_widget(button)
