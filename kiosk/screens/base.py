"""What every kiosk screen has: a ``show(app)`` that copies the app's snapshot into its Properties."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.screenmanager import Screen

from kiosk import parts, present
from kiosk.widgets import BigButton, RowButton, TableCell

JSON = dict[str, Any]


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
        """The prompt's choices: a grid (the game's ``choice_grid``: e.g. action x spot) when there are
        many, so the common play needs no scrolling; every other choice as a big button below it."""
        info = app.info_for()
        grids = [g for g in [info.get("choice_grid"), *(info.get("more_grids") or [])] if isinstance(g, dict)]
        grid, rows, rest = parts.first_grid(prompt, grids)
        columns = list((grid or {}).get("columns", []))
        sides = present.side_names(app.snapshot)
        matrix.clear_widgets()
        matrix.cols = 1 + len(columns)
        if rows:
            # The cells name who stands at each spot of the side making those choices (a choice may
            # belong to another side than the prompt's: an attacker's next card in a counter window).
            owner = next((c["side"] for _r, cells in rows for c in cells if c and "side" in c),
                         prompt.get("side"))
            names = parts.grid_names(grid, view, owner)
            words = list((grid or {}).get("column_labels") or [])
            words = parts.grid_words(words, columns, sides) if len(words) == len(columns) \
                else [str(c) for c in columns]
            cell_words = list((grid or {}).get("cell_labels") or [])
            cell_words = parts.grid_words(cell_words, columns, sides) if len(cell_words) == len(columns) \
                else [""] * len(columns)
            row_words = (grid or {}).get("row_labels") or {}
            # Many short rows may share a line (two markers side by side), so none needs scrolling.
            per_line = max(1, int((grid or {}).get("per_line") or 1))
            label_share = float((grid or {}).get("label_share") or 0.7)  # a cell's share is 1
            matrix.cols = per_line * (1 + len(columns))
            for _copy in range(per_line):
                header = [TableCell(text=str((grid or {}).get("corner") or ""), size_hint_x=label_share,
                                    color=(1, 0.72, 0.12, 1))] + [
                    TableCell(text=word, halign="center", color=(1, 0.72, 0.12, 1)) for word in words]
                for cell in header:
                    cell.min_height = dp(28)  # a header line, not a row to tap: keep the grid on one screen
                    matrix.add_widget(cell)
            for row_label, cells in rows:
                matrix.add_widget(TableCell(text=str(row_words.get(row_label, row_label)),
                                            size_hint_x=label_share, bold=True))
                for column, cell_word, choice in zip(columns, cell_words, cells, strict=True):
                    if choice is None:
                        matrix.add_widget(TableCell(text=""))
                        continue
                    odds = present.choice_odds(choice)  # the cell's own target and chance
                    name = names.get(str(column), cell_word or str(choice.get("label")))
                    # A cell that only names who won (its row names the rest) reads from further away.
                    short = bool(cell_word) and not odds and str(column) not in names
                    button = RowButton(text=f"{name}\n{odds}" if odds else name, tone="primary",
                                       font_size="18sp" if short else "14sp", halign="center", bold=short,
                                       padding=(dp(2), 0))
                    button.choice_label = str(choice.get("label"))
                    button.bind(on_press=lambda _b, c=choice: app.send(c["command"]))
                    matrix.add_widget(button)
            for _gap in range(-len(rows) % per_line * (1 + len(columns))):
                matrix.add_widget(TableCell(text=""))  # the last line's empty places
        buttons = self.fill_buttons(listed, [(present.choice_label(c, prompt.get("side"), sides),
                                              lambda c=c: app.send(c["command"])) for c in rest])
        for button, choice in zip(buttons, rest, strict=True):
            button.choice_label = str(choice.get("label"))  # the label alone, without its odds
