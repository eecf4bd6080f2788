"""History: the game log in plain words, with undo and redo."""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty

from kiosk.screens.base import KioskScreen
from kiosk.widgets import WrapLabel


class HistoryScreen(KioskScreen):
    """Newest first: what happened, as the service worded it."""

    count_text = StringProperty("")

    def show(self, app: Any) -> None:
        app.request_log()
        lines = list(app.history)
        self.count_text = f"{len(lines)} entries" if lines else "Nothing has happened yet."
        log = self.ids.log
        log.clear_widgets()
        for line in reversed(lines[-60:]):
            log.add_widget(WrapLabel(text=line, font_size="17sp"))
