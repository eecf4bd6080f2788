"""Game end: the result (and the places of a ranking), the game's box score, the score difference over
the game, exports."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from kiosk import parts, present
from kiosk.screens.base import KioskScreen


class GameEndScreen(KioskScreen):
    """Who won and why, the box score the game declares, and the run of the game as a chart."""

    result_text = StringProperty("")
    score_text = StringProperty("")
    chart_values = ListProperty([])
    chart_title = StringProperty("Score difference after every step")
    show_chart = BooleanProperty(True)  # a difference is one side's lead over the other: two scored sides
    chart_above = StringProperty("")  # the side the chart's line rises for (the first side)

    def show(self, app: Any) -> None:
        snapshot = app.snapshot or {}
        view = snapshot.get("view") or {}
        self.result_text = present.result_line(snapshot) or "The game is not over yet."
        partial = view.get("partial_scores") or []
        periods = present.period_scores(view)
        places = present.places_line(snapshot)
        self.score_text = present.score_line(snapshot) + (f"    {periods}" if periods else "") + (
            f"\n{places}" if places else "")
        board_sides = (snapshot.get("scoreboard") or {}).get("sides") or []
        # A difference is one side's lead over the other: two scored sides, or one signed lead.
        lead_game = (snapshot.get("scoreboard") or {}).get("lead") is not None
        self.show_chart = len(board_sides) == 2 and (lead_game or all(s.get("score") is not None
                                                                       for s in board_sides))
        app.request_log()
        self.chart_above = present.side_names(snapshot)[0]
        if len(app.score_series) > 1:
            self.chart_values = list(app.score_series)
            self.chart_title = "Score difference after every step"
        else:
            # Until the service's log has arrived: the periods' scores from the snapshot.
            running, values = 0, [0]
            for period in partial:
                if len(period) == 2:
                    running += int(period[0]) - int(period[1])
                    values.append(running)
            self.chart_values = values
            self.chart_title = "Score difference at the end of each period"
        box = self.ids.box_score
        box.clear_widgets()
        info = app.info_for()
        rows = parts.box_score(info, view)
        widths = [float(c.get("width", 1)) for c in (info.get("box_score") or {}).get("columns") or []]
        body = rows[1:]
        halves = [body]
        if len(body) > 8 and app.window_width >= 700:  # dp: the screen is wide enough for two
            halves = list(_halves(body))
        for half in halves if body else []:
            box.add_widget(self._table([rows[0], *half], widths, len(halves)))

    @staticmethod
    def _table(rows: list[list[str]], widths: list[float], halves: int) -> GridLayout:
        from kiosk.screens.table import widest_word

        table = GridLayout(cols=max(1, len(rows[0])), size_hint_y=None, spacing=dp(2))
        table.bind(minimum_height=table.setter("height"))
        size = "15sp" if halves == 1 else "14sp"
        # Each column at least as wide as its widest word (the header in bold): no "Ene...".
        table.cols_minimum = {c: max(widest_word([rows[0][c]], size, True),
                                     widest_word([row[c] for row in rows[1:]], size, False))
                              for c in range(len(rows[0]))}
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                label = Label(text=cell, font_size=size, bold=r == 0,
                              size_hint_y=None, height=dp(24), shorten=True, shorten_from="right",
                              color=(1, 0.72, 0.12, 1) if r == 0 else (0.95, 0.96, 0.98, 1),
                              halign="left", valign="middle")
                label.size_hint_x = widths[c] if c < len(widths) else 1
                label.bind(size=lambda lbl, size: setattr(lbl, "text_size", size))
                table.add_widget(label)
        return table


def _halves(rows: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    """Two halves of the box score, cut where the first column changes (one side each) when that is
    near the middle, else in the middle."""
    middle = len(rows) // 2
    cuts = [i for i in range(1, len(rows)) if rows[i][:1] != rows[i - 1][:1]]
    cut = min(cuts, key=lambda i: abs(i - middle)) if cuts else middle
    cut = cut if abs(cut - middle) <= 2 else middle
    return rows[:cut], rows[cut:]
