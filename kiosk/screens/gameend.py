"""Game end: the result, the game's box score fitted to the screen (no scrolling, even at 800x480),
a QR code of the final score and box-score summary, the score difference over the game when there
is room, and the exports (a USB stick, CSV, JSON).
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.label import Label

from kiosk import end_summary, parts, present
from kiosk.end_summary import CHAR_WIDTH, CHART_AT_LEAST, CHART_AT_MOST, MIN_FONT, READABLE_ROW, fit_rows
from kiosk.screens.base import KioskScreen


class GameEndScreen(KioskScreen):
    """Who won and why, the box score the game declares, the QR summary and the exports."""

    result_text = StringProperty("")
    chart_values = ListProperty([])
    chart_title = StringProperty("Score difference after every step")
    show_chart = BooleanProperty(True)  # a difference is one side's lead over the other: two scored sides
    chart_above = StringProperty("")  # the side the chart's line rises for (the first side)
    chart_height = NumericProperty(0)
    qr_text = StringProperty("")
    qr_texture = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._rows: list[list[str]] = []
        self._widths: list[float] = []

    def show(self, app: Any) -> None:
        snapshot = app.snapshot or {}
        view = snapshot.get("view") or {}
        result = present.result_line(snapshot) or "The game is not over yet."
        periods = present.period_scores(view)
        places = present.places_line(snapshot)
        self.result_text = "   ".join(w for w in (result, periods, places) if w)
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
            for period in view.get("partial_scores") or []:
                if len(period) == 2:
                    running += int(period[0]) - int(period[1])
                    values.append(running)
            self.chart_values = values
            self.chart_title = "Score difference at the end of each period"
        info = app.info_for()
        title = next((str(g.get("title")) for g in app.known_games if g.get("name") == snapshot.get("game")),
                     str(snapshot.get("game", "Game")))
        text = end_summary.summary_text(snapshot, info, title)
        if text != self.qr_text:
            from kiosk.qr import qr_texture

            self.qr_text = text
            self.qr_texture = qr_texture(text)
        rows = parts.box_score(info, view)
        self._rows = rows if len(rows) > 1 else []
        self._widths = [float(c.get("width", 1)) for c in (info.get("box_score") or {}).get("columns") or []]
        self.fill_box_score()

    def fill_box_score(self, *_args: Any) -> None:
        """Lay the box score out in the height its area has now (called again when that changes)."""
        area = self.ids.box_area
        table = self.ids.box_score
        table.clear_widgets()
        rows = self._rows
        table.cols = max(1, len(rows[0])) if rows else 1
        spacing = dp(2)
        room = area.height
        chart_room = CHART_AT_LEAST + dp(24)  # the chart and its title, at their smallest
        row_height, font = fit_rows(len(rows), room, spacing)
        if self.show_chart and rows and fit_rows(len(rows), room - chart_room, spacing)[0] >= READABLE_ROW:
            # The chart fits beside rows still readable: the rows give it its room.
            row_height, font = fit_rows(len(rows), room - chart_room, spacing)
        # Each column as wide as its longest cell (its declared width as a floor), so nothing is cut
        # short while there is room; a wide table takes a smaller font instead.
        chars = [max(len(row[c]) for row in rows) + 1 for c in range(len(rows[0]))] if rows else []
        weights = [max(n, 3 * (self._widths[c] if c < len(self._widths) else 1)) for c, n in enumerate(chars)]
        if weights:
            font = max(MIN_FONT, min(font, int(area.width / (sum(weights) * CHAR_WIDTH))))
        used = (row_height + spacing) * len(rows)
        # The chart takes what the rows leave, when that is enough to read a line.
        left = room - used - dp(24)
        # A tall screen gives the chart what the rows leave, up to a size that still reads as a line.
        left = min(left, CHART_AT_MOST)
        self.chart_height = left if self.show_chart and left >= CHART_AT_LEAST - 2 * spacing else 0
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                label = Label(text=cell, font_size=font, bold=r == 0, size_hint_y=None, height=row_height,
                              color=(1, 0.72, 0.12, 1) if r == 0 else (0.95, 0.96, 0.98, 1),
                              halign="left", valign="middle", shorten=True, shorten_from="right")
                label.size_hint_x = weights[c]
                label.bind(size=lambda lbl, size: setattr(lbl, "text_size", size))
                table.add_widget(label)
