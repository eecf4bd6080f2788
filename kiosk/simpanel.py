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
from kiosk.widgets import BigButton

TRAY_DICE = ("d20x5", "d8foul", "d20", "d6")


class SimPanel(BoxLayout):
    """Simulated buttons (tap = press, long tap = hold), encoder, OLED image and dice tray."""

    tray_die = StringProperty("d20x5")

    def on_kv_post(self, _base: Any) -> None:
        self.show_faces()

    def pick_die(self, die: str) -> None:
        self.tray_die = die
        self.show_faces()

    def show_faces(self) -> None:
        """The faces of the die picked in the tray: tap one to roll it into the simulated tray."""
        grid = self.ids.tray_faces
        grid.clear_widgets()
        for face in present.DIE_FACES.get(self.tray_die, []):
            button = BigButton(text=present.face_label(face), font_size="16sp", tone="quiet")
            button.bind(on_release=lambda _b, f=face: App.get_running_app().sim_tray(self.tray_die, f))
            grid.add_widget(button)
