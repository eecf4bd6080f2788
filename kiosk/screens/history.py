"""History: the game log in plain words, with undo and redo."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

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
        marks = list(app.history_marks)
        marks = marks if len(marks) == len(lines) else [""] * len(lines)
        for line, mark in reversed(list(zip(lines, marks, strict=True))[-60:]):
            # Each line with its period and the score after it, so the log reads as a game sheet.
            row = BoxLayout(size_hint_y=None, spacing=dp(8))
            when = WrapLabel(text=mark, font_size="16sp", size_hint_x=None, width=dp(120),
                             color=(1, 0.72, 0.12, 1), valign="top")
            words = WrapLabel(text=line, font_size="17sp", valign="top")
            row.add_widget(when)
            row.add_widget(words)

            def fit(*_args: Any, r: Any = row, a: Any = when, b: Any = words) -> None:
                r.height = max(a.height, b.height)

            when.bind(height=fit)
            words.bind(height=fit)
            log.add_widget(row)
