"""Between pairs and periods: the rulebook's reminders as a checklist, then the period's choices."""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty

from kiosk import present
from kiosk.screens.base import KioskScreen
from kiosk.widgets import ChecklistItem


class BetweenScreen(KioskScreen):
    """Tick off each reminder (recover energy, move cubes...) and pick the period milestone."""

    prompt_text = StringProperty("")
    title = StringProperty("Between pairs")

    def show(self, app: Any) -> None:
        snapshot = app.snapshot or {}
        view = snapshot.get("view") or {}
        prompt = snapshot.get("prompt") or {}
        self.prompt_text = str(prompt.get("text") or "")
        self.title = present.turn_line(snapshot)
        reminders = [present.log_line(r) for r in view.get("reminders") or []]
        checklist = self.ids.checklist
        if [c.text for c in checklist.children[::-1]] != reminders:
            checklist.clear_widgets()
            for reminder in reminders:
                checklist.add_widget(ChecklistItem(text=reminder))
        self.fill_choices(app, self.ids.matrix, self.ids.choices, prompt, view)
