"""Table: the whole table at a glance: score, period, then the game's own panels (``game_info``):
lines for the whole table, and per side its fouls and counters, lines and tables (a line-up...)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget
from kivy.utils import get_color_from_hex

from kiosk import cards, parts, present
from kiosk.screens.base import KioskScreen
from kiosk.widgets import Heading, LeadBar, RowButton, TableCell, WrapLabel

SIDE_WIDTH = 340  # dp: a side's panels need about this much; narrower windows stack the sides
TONES = {"alert": (1, 0.5, 0.45, 1), "muted": (0.7, 0.74, 0.8, 1), "": (0.96, 0.97, 0.98, 1)}


class TableScreen(KioskScreen):
    """Everything on the table, per side, as the game's panels describe it."""

    prompt_text = StringProperty("")
    period_text = StringProperty("")
    side_columns = NumericProperty(2)

    def show(self, app: Any) -> None:
        snapshot = app.snapshot or {}
        view = snapshot.get("view") or {}
        info = app.info_for()
        panels = info.get("panels") or []
        self.prompt_text = ((snapshot.get("prompt") or {}).get("text") or "")
        # The turn line is on the top bar; here only what it does not say: the scores by period.
        self.period_text = present.period_scores(view)
        general = self.ids.general
        general.clear_widgets()
        for panel in panels:
            if panel.get("per_side"):
                continue
            if panel.get("kind") == "lead":
                self._lead_bar(general, snapshot)
            elif panel.get("kind") == "line":
                text = parts.panel_line(panel, view)
                if text:
                    title = panel.get("title")
                    general.add_widget(WrapLabel(text=f"{title}: {text}" if title else text, font_size="17sp",
                                                 color=(1, 0.72, 0.12, 1)))
            else:
                general.add_widget(self._table(app, info, panel, view, None))
        board_sides = (snapshot.get("scoreboard") or {}).get("sides") or []
        count = max(len(board_sides), len(view.get("sides") or []))
        self._side_count = count
        self._fit_columns()
        self._app = app
        self._stacked = self.side_columns == 1 and count > 1
        grid = self.ids.sides
        grid.clear_widgets()
        later: list[BoxLayout] = []
        for index in range(count):
            board = board_sides[index] if index < len(board_sides) else {}
            viewed = (view.get("sides") or [])[index] if index < len(view.get("sides") or []) else {}
            name = str(board.get("name") or viewed.get("name") or f"Side {index + 1}")
            score = board.get("score")
            column = self._column(f"side{index}")
            column.add_widget(self._heading(app, name, f"{name}  {score}" if score is not None else name))
            # Stacked (upright), a side's muted rows (its bench) and then its lines wait until every
            # side's on-court rows are shown, so both sides' starters fit without scrolling. A table
            # with nothing to split (all rows muted, or none) stays whole, and its side's lines with it.
            rest = column
            for panel in panels:
                if not (panel.get("per_side") and panel.get("kind", "table") == "table"):
                    continue
                shown = self._table(app, info, panel, view, index, only="shown") if self._stacked else None
                bench = self._table(app, info, panel, view, index, only="muted") if self._stacked else None
                if shown is not None and bench is not None and shown.rows_shown and bench.rows_shown:
                    if rest is column:
                        rest = self._column(f"side{index}_rest")
                        rest.add_widget(self._heading(app, name, f"{name}, continued"))
                        later.append(rest)
                    column.add_widget(shown)
                    rest.add_widget(bench)
                else:
                    column.add_widget(self._table(app, info, panel, view, index))
            for line in (present.fouls_line(snapshot, index), present.counters_line(snapshot, index)):
                if line:
                    rest.add_widget(WrapLabel(text=line, font_size="16sp"))
            for panel in panels:
                if panel.get("per_side") and panel.get("kind") == "line":
                    text = parts.panel_line(panel, view, index)
                    if text:
                        title = panel.get("title")
                        rest.add_widget(WrapLabel(text=f"{title}: {text}" if title else text,
                                                  font_size="16sp"))
            # Takes a shorter column's spare height at its bottom, so its heading stays at the top.
            column.add_widget(Widget(size_hint_y=1))
            grid.add_widget(column)
        for rest in later:
            grid.add_widget(rest)
        self._even_columns()

    def _column(self, name: str) -> BoxLayout:
        column = BoxLayout(orientation="vertical", size_hint_y=None, spacing="2dp")
        column.bind(minimum_height=lambda *_a: self._even_columns())
        self.ids[name] = column
        return column

    @staticmethod
    def _heading(app: Any, name: str, text: str) -> Heading:
        heading = Heading(text=text, font_size="19sp")
        colour = app.side_colour(name)
        if colour and sum(int(colour[i:i + 2], 16) for i in (0, 2, 4)) > 200:  # readable on the dark
            heading.color = get_color_from_hex(colour)
        return heading

    def _even_columns(self) -> None:
        """Every side's column as tall as the tallest: a grid row puts a shorter one at its bottom,
        and the sides' headings must line up at the top. Stacked, each is as tall as it needs."""
        columns = list(self.ids.sides.children)
        tallest = max((c.minimum_height for c in columns), default=0)
        for column in columns:
            column.height = column.minimum_height if self.side_columns == 1 else tallest

    @staticmethod
    def _lead_bar(container: Any, snapshot: dict[str, Any]) -> None:
        """A one-lead game's lead as a tug-of-war bar, the two names at its ends."""
        found = present.lead_share(snapshot)
        if found is None:
            return
        share, left, right = found
        row = BoxLayout(size_hint_y=None, height=dp(44), spacing="6dp")
        row.add_widget(WrapLabel(text=left, font_size="17sp", size_hint_x=0.22, halign="right"))
        row.add_widget(LeadBar(share=share, text=present.score_line(snapshot)))
        row.add_widget(WrapLabel(text=right, font_size="17sp", size_hint_x=0.22))
        container.add_widget(row)
        container.add_widget(WrapLabel(text=present.score_line(snapshot), font_size="17sp", halign="center",
                                       color=(1, 0.72, 0.12, 1)))

    def _fit_columns(self) -> None:
        """Sides side by side when each gets SIDE_WIDTH, else one under the other (portrait)."""
        # The manager's width: a screen just switched in has not been laid out yet.
        width = self.manager.width if self.manager is not None else self.width
        count = getattr(self, "_side_count", 2)
        self.side_columns = max(1, min(count, int((width - dp(16)) / dp(SIDE_WIDTH))))

    def on_size(self, *_args: Any) -> None:
        self._fit_columns()
        app = getattr(self, "_app", None)
        stacked = self.side_columns == 1 and getattr(self, "_side_count", 2) > 1
        if app is not None and stacked != getattr(self, "_stacked", False):
            self.show(app)  # turned: the sides are laid out again, stacked or side by side

    def _table(self, app: Any, info: dict[str, Any], panel: dict[str, Any], view: Any,
               side: int | None, only: str = "") -> GridLayout:
        """A table panel; ``only`` ``shown`` or ``muted`` keeps those rows (the columns as wide as
        for all rows, so the two halves line up)."""
        columns = panel.get("columns") or []
        grid = GridLayout(cols=max(1, len(columns)), size_hint_y=None, spacing=("4dp", "2dp"))
        grid.bind(minimum_height=grid.setter("height"))
        for column in columns:
            # Every column has a header: the declared label, else its key in words ("position").
            grid.add_widget(WrapLabel(text=_header(column), font_size="14sp", bold=False,
                                      color=(1, 0.72, 0.12, 1), size_hint_x=float(column.get("width", 1))))
        can_edit = bool(info.get("card_form")) and side is not None
        rows = parts.panel_rows(panel, view, side)
        # No word broken between letters: every column at least as wide as its widest word.
        headers = [_header(c) for c in columns]
        grid.cols_minimum = {i: max(widest_word([headers[i]], "14sp", False),
                                    widest_word([cells[i] for _r, cells, _t in rows], "16sp",
                                                 bool(column.get("opens_card") and can_edit)) + dp(12))
                             for i, column in enumerate(columns)}
        muted_key, muted_values = panel.get("muted"), panel.get("muted_values", [])
        if only:
            rows = [r for r in rows if (only == "muted") == (
                bool(muted_key) and parts.lookup(r[0], str(muted_key)) in muted_values)]
        grid.rows_shown = len(rows)
        for row, cells, tone in rows:
            for column, text in zip(columns, cells, strict=True):
                width = float(column.get("width", 1))
                if column.get("opens_card") and can_edit:
                    # The name opens the card: enter a stat the rules asked for mid-game.
                    button = RowButton(text=text, tone="quiet", size_hint_x=width)
                    button.bind(on_press=lambda _b, r=row, s=side: self.edit_card(app, info, s, r))
                    grid.add_widget(button)
                else:
                    grid.add_widget(TableCell(text=text, color=TONES.get(tone, TONES[""]), size_hint_x=width))
        return grid

    def edit_card(self, app: Any, info: dict[str, Any], side: int | None, member: dict[str, Any]) -> None:
        """Open the card editor on a member of the game in play, filled in from the service's view."""
        form = info.get("card_form") or {}
        key = form.get("key", "name")
        renamed = form.get("from_view") or {}
        card: dict[str, Any] = {key: member.get(key)}
        for field in form.get("fields", []):
            name = str(field["key"])
            head = name.split(".")[0]
            source = renamed.get(head, head)
            value = cards.get_field({**member, head: member.get(source)}, name)
            cards.set_field(card, name, dict(value) if isinstance(value, dict) else value)
        editor = app.screens.get_screen("card")
        editor.open(str(info.get("name", "")), form, card, in_game_side=side)
        app.screens.current = "card"


def widest_word(texts: list[str], font_size: str, bold: bool) -> float:
    """The width in pixels of the widest single word of ``texts`` at this font."""
    from kivy.core.text import Label as CoreLabel
    from kivy.metrics import sp

    measure = CoreLabel(font_size=sp(float(font_size.removesuffix("sp"))), bold=bold)
    words = {word for text in texts for word in str(text).split()}
    return max((measure.get_extents(word)[0] for word in words), default=0) + dp(2)


def _header(column: dict[str, Any]) -> str:
    """A column's header: its declared label, else its key in words ("position" -> "Position")."""
    return str(column.get("label") or str(column.get("key", "")).replace("_", " ").capitalize())
