"""What every kiosk screen has: a ``show(app)`` that copies the app's snapshot into its Properties."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.screenmanager import Screen

from kiosk import present
from kiosk.widgets import BigButton, RowButton, TableCell

JSON = dict[str, Any]
MATRIX_AT_LEAST = 6  # fewer positional choices read better as a plain list of buttons


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

    def fill_choices(self, app: Any, matrix: Any, listed: Any, prompt: JSON, view: JSON) -> None:
        """The prompt's choices: a grid of action x position when there are many (no scrolling for
        the common play), every other choice as a big button below it."""
        rows, rest = present.choice_matrix(prompt, view)
        if sum(1 for _row, cells in rows for cell in cells if cell) < MATRIX_AT_LEAST:
            rows, rest = [], [c for c in prompt.get("choices", []) if isinstance(c, dict) and "command" in c]
        matrix.clear_widgets()
        matrix.cols = 1 + len(present.POSITIONS)
        if rows:
            names = present.on_court(view, prompt.get("side"))
            header = [TableCell(text="", size_hint_x=0.7)] + [
                TableCell(text=position, halign="center", color=(1, 0.72, 0.12, 1))
                for position in present.POSITIONS]
            for cell in header:
                cell.height = dp(28)  # a header line, not a row to tap: keep the grid on one screen
                matrix.add_widget(cell)
            for row_label, cells in rows:
                matrix.add_widget(TableCell(text=row_label, size_hint_x=0.7, bold=True))
                for position, choice in zip(present.POSITIONS, cells, strict=True):
                    if choice is None:
                        matrix.add_widget(TableCell(text=""))
                        continue
                    button = RowButton(text=names.get(position, str(choice.get("label"))), tone="primary",
                                       font_size="14sp", halign="center")
                    button.choice_label = str(choice.get("label"))
                    button.bind(on_press=lambda _b, c=choice: app.send(c["command"]))
                    matrix.add_widget(button)
        self.fill_buttons(listed, [(str(c.get("label")), lambda c=c: app.send(c["command"])) for c in rest])
