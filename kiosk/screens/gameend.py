"""Game end: the result, the game's box score whole on the screen (no scrolling, in two halves side
by side when one table is too tall, never below 14 sp), the score difference over the game when the
rows leave room, a QR code of the final score and box-score summary (on demand, or small beside the
box score where there is room), and the exports (a USB stick, CSV, JSON) in one row of buttons.
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from kiosk import end_summary, parts, present
from kiosk.end_summary import BOX_FONTS, CHART_AT_LEAST, CHART_AT_MOST, QR_AT_LEAST, ROW_LINES, pick_layout
from kiosk.screens.base import KioskScreen

GAP = 12  # dp between the two halves of a box score
SPACING = 2  # dp between cells


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
    show_qr = BooleanProperty(False)  # the "QR code" button: the box score's area shows a large QR code
    small_qr = NumericProperty(0)  # the side of the small QR code beside the chart (0: none, no room)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._rows: list[list[str]] = []
        self._widths: list[float] = []
        self._totals: set[tuple[str, ...]] = set()  # a side's total lines: drawn in bold

    def on_kv_post(self, base_widget: Any) -> None:
        # ``ids`` are weak: these two are held here, as only one of them is on the screen at a time.
        self._views = {False: self.ids.box_area.__self__, True: self.ids.qr_view.__self__}
        self.ids.body.remove_widget(self.ids.qr_view)

    def on_show_qr(self, _screen: Any, show: bool) -> None:
        """The box score's area shows the large QR code, or the box score again."""
        body = self.ids.body
        body.clear_widgets()
        body.add_widget(self._views[show])

    def on_pre_enter(self, *_args: Any) -> None:
        self.show_qr = False  # a finished game opens on its box score

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
        self._totals = {tuple(cells) for total, cells in parts.box_rows(info, view) if total}
        self._widths = [float(c.get("width", 1)) for c in (info.get("box_score") or {}).get("columns") or []]
        self.fill_box_score()

    def fill_box_score(self, *_args: Any) -> None:
        """Lay the box score out in the room its area has now (called again when that changes): the
        largest font that fits, one table or two halves side by side, then the chart and the small QR
        code in what the rows leave."""
        area = self.ids.box_area
        box = self.ids.box_score
        if area.width < dp(40) or area.height < dp(40):
            return  # not laid out yet
        box.clear_widgets()
        rows = self._rows
        chart_room = dp(CHART_AT_LEAST) + dp(28)  # the chart and its title, at their smallest
        tables: list[list[list[str]]] = []
        font, row_height, widths = float(sp(BOX_FONTS[-1])), 0.0, [0.0]
        if rows:
            split = end_summary.halves(rows[1:])
            for size in BOX_FONTS:
                font = float(sp(size))
                row_height = round(font * ROW_LINES)
                widths = self._column_widths(rows, font)
                one_width = sum(widths) + dp(SPACING) * (len(widths) - 1)
                step = row_height + dp(SPACING)
                many = pick_layout(len(rows), 1 + max(len(h) for h in split), step, area.height, one_width,
                                   area.width, dp(GAP), chart_room)
                if many is not None or size == BOX_FONTS[-1]:
                    break
            full = widths
            if many is None:
                # Nothing fits even at 14 sp (the text never gets smaller): two halves with their
                # widest cells wrapped onto more lines, where that makes them narrow enough.
                room = (area.width - dp(GAP)) / 2 - dp(SPACING) * (len(widths) - 1)
                widths = self._squeezed(rows, font, widths, room)
                many = 2 if len(rows) > 3 and sum(widths) <= room + 1 else 1
                if many == 1:  # one table, its widest cells wrapped where it is wider than the screen
                    widths = self._squeezed(rows, font, full, area.width - dp(SPACING) * (len(full) - 1))
            tables = [rows] if many == 1 else [[rows[0], *half] for half in split]
        box.height = 0
        for table_rows in tables:
            table = self._table(table_rows, font, row_height, widths,
                                (area.width - dp(GAP) * (len(tables) - 1)) / len(tables), full, self._totals)
            box.add_widget(table)
            box.height = max(box.height, table.height)
        # The chart takes what the rows leave, when that is enough to read a line; on a tall screen
        # a small QR code beside it, when there is room for one a phone still reads.
        qr_side = min(area.height - box.height - dp(8), area.width * 0.45, dp(260))
        self.small_qr = qr_side if qr_side >= dp(QR_AT_LEAST) else 0
        title = dp(48) if self.small_qr else dp(28)  # beside the QR code the chart's title takes two lines
        left = min(area.height - box.height - title, dp(CHART_AT_MOST))
        self.chart_height = left if self.show_chart and left >= dp(CHART_AT_LEAST) else 0

    def _column_widths(self, rows: list[list[str]], font: float) -> list[float]:
        """Each column as wide as its longest cell (the header and the total lines in bold), its declared
        width as a floor."""
        plain, bold = CoreLabel(font_size=font), CoreLabel(font_size=font, bold=True)
        widths = []
        for c in range(len(rows[0])):
            cells = {(row[c], tuple(row) in self._totals) for row in rows[1:]}
            widest = max([(bold if strong else plain).get_extents(cell)[0] for cell, strong in cells if cell]
                         + [bold.get_extents(rows[0][c])[0]])
            floor = 3 * font * 0.6 * (self._widths[c] if c < len(self._widths) else 1)
            widths.append(max(widest + dp(6), floor))
        return widths

    @staticmethod
    def _squeezed(rows: list[list[str]], font: float, widths: list[float], room: float) -> list[float]:
        """The column widths narrowed to ``room`` in all, the widest cells first, each column no
        narrower than its widest word (its cells then wrap onto more lines). Headers wrap first:
        a column is narrowed to its widest cell below the header (only the header row grows) before
        any column's cells wrap (every row they are in grows)."""
        plain, bold = CoreLabel(font_size=font), CoreLabel(font_size=font, bold=True)
        words, cells = [], []
        for c in range(len(rows[0])):
            found = [plain.get_extents(w)[0] for row in rows[1:] for w in row[c].split()]
            found += [bold.get_extents(w)[0] for w in rows[0][c].split()]
            words.append(max(found, default=0) + dp(6))
            # Bold: a total line's cells are drawn in bold, and bold is never narrower.
            cells.append(max([bold.get_extents(row[c])[0] for row in rows[1:] if row[c]], default=0) + dp(6))
        widths = list(widths)
        for floors in ([max(w, b) for w, b in zip(words, cells, strict=True)], words):
            while sum(widths) > room:
                c = max(range(len(widths)), key=lambda n: widths[n] - floors[n])
                slack = widths[c] - floors[c]
                if slack <= 0.5:
                    break
                widths[c] -= min(slack, sum(widths) - room)
        return widths

    @staticmethod
    def _table(rows: list[list[str]], font: float, row_height: float, widths: list[float],
               room: float, full: list[float], totals: set[tuple[str, ...]]) -> GridLayout:
        spacing = dp(SPACING)
        # Top-aligned: the shorter half starts level with the longer one.
        table = GridLayout(cols=max(1, len(rows[0])), size_hint_y=None, spacing=spacing, pos_hint={"top": 1})
        natural = sum(widths) + spacing * (len(widths) - 1)
        if natural <= room + 1:
            table.cols_minimum = dict(enumerate(widths))  # no cell cut short while there is room
        # A column narrower than its longest cell wraps it onto more lines (its row grows to fit).
        wrapped = {c for c in range(len(widths)) if widths[c] < full[c] - 0.5}
        table.height = -spacing
        for r, row in enumerate(rows):
            bold = r == 0 or tuple(row) in totals
            height = row_height
            for c in wrapped:
                if row[c]:
                    measure = CoreLabel(text=row[c], font_size=font, bold=bold, text_size=(widths[c], None))
                    measure.refresh()
                    height = max(height, measure.texture.size[1] + dp(4))
            table.height += height + spacing
            for c, cell in enumerate(row):
                label = Label(text=cell, font_size=font, bold=bold, size_hint_y=None, height=height,
                              color=(1, 0.72, 0.12, 1) if r == 0 else (0.95, 0.96, 0.98, 1),
                              halign="left", valign="middle", shorten=c not in wrapped, shorten_from="right")
                label.size_hint_x = widths[c]  # a narrow screen shares the width in these proportions
                if c in wrapped:
                    label.bind(width=lambda lbl, width: setattr(lbl, "text_size", (width, None)))
                else:
                    label.bind(size=lambda lbl, size: setattr(lbl, "text_size", size))
                table.add_widget(label)
        return table
