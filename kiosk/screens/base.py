"""What every kiosk screen has: a ``show(app)`` that copies the app's snapshot into its Properties."""

from __future__ import annotations

from typing import Any

from kivy.uix.screenmanager import Screen

from kiosk.widgets import BigButton


class KioskScreen(Screen):
    """A screen of the kiosk; the app calls ``show`` whenever the snapshot changes or it is opened."""

    def show(self, app: Any) -> None:  # noqa: B027 - most screens only bind Properties in KV
        """Copy what this screen shows from ``app.snapshot`` (and friends) into Properties and lists."""

    @staticmethod
    def fill_buttons(container: Any, entries: list[tuple[str, Any]], tone: str = "primary",
                     font_size: str = "20sp") -> list[BigButton]:
        """Replace ``container``'s children with one big button per ``(label, action)``.

        The action runs on *press*: these buttons sit in scroll views, which hand a tap to the
        button only once they know it is no scroll, and then deliver the release 0.2 s later still.
        """
        container.clear_widgets()
        buttons = []
        for label, action in entries:
            button = BigButton(text=label, tone=tone, font_size=font_size)
            button.bind(on_press=lambda _b, a=action: a())
            container.add_widget(button)
            buttons.append(button)
        return buttons
