"""Table: the whole table at a glance: score, period, turn track, fouls, coach, slots, both line-ups."""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.utils import get_color_from_hex

from kiosk import present
from kiosk.screens.base import KioskScreen
from kiosk.widgets import Heading, RowButton, TableCell, WrapLabel

# The line-up table's columns and their share of the width.
COLUMNS = (("", 0.6), ("Hooper", 1.7), ("Energy", 0.8), ("Cubes", 0.8), ("", 1.6))


class TableScreen(KioskScreen):
    """Everything on the table, per side; every hooper with energy, cubes, Onfire, chips, injuries."""

    slots_text = StringProperty("")
    prompt_text = StringProperty("")
    period_text = StringProperty("")

    def show(self, app: Any) -> None:
        snapshot = app.snapshot or {}
        view = snapshot.get("view") or {}
        self.slots_text = "This attack: " + present.slots_line(view)
        self.prompt_text = ((snapshot.get("prompt") or {}).get("text") or "")
        partial = view.get("partial_scores") or []
        periods = "   ".join(f"P{i + 1} {p[0]}-{p[1]}" for i, p in enumerate(partial) if len(p) == 2)
        self.period_text = present.turn_line(snapshot) + (f"   ({periods})" if periods else "")
        sides = view.get("sides") or []
        for index, column in enumerate((self.ids.side0, self.ids.side1)):
            column.clear_widgets()
            if index >= len(sides):
                continue
            side = sides[index]
            score = (view.get("score") or [None, None])[index] if len(view.get("score") or []) > index else ""
            heading = Heading(text=f"{side.get('name', '')}  {score}")
            colour = app.side_colour(str(side.get("name", "")))
            if colour and sum(int(colour[i:i + 2], 16) for i in (0, 2, 4)) > 200:  # readable on the dark
                heading.color = get_color_from_hex(colour)
            column.add_widget(heading)
            column.add_widget(WrapLabel(text=present.fouls_line(snapshot, index), font_size="17sp"))
            column.add_widget(WrapLabel(text=present.coach_line(side), font_size="17sp"))
            hoopers = side.get("hoopers", side.get("players", []))
            on_court = [h for h in hoopers if h.get("position") not in (None, "bench")]
            bench = [h for h in hoopers if h.get("position") in (None, "bench")]
            grid = GridLayout(cols=len(COLUMNS), size_hint_y=None, spacing=("4dp", "2dp"))
            grid.bind(minimum_height=grid.setter("height"))
            for title, width in COLUMNS:
                grid.add_widget(WrapLabel(text=title, font_size="16sp", color=(1, 0.72, 0.12, 1),
                                          size_hint_x=width))
            for hooper in on_court + bench:
                colour = ((1, 0.5, 0.45, 1) if hooper.get("ejected") or hooper.get("injured_out")
                          else (0.7, 0.74, 0.8, 1) if hooper.get("position") in (None, "bench")
                          else (0.96, 0.97, 0.98, 1))
                for column_index, (text, (_title, width)) in enumerate(
                        zip(present.hooper_cells(hooper), COLUMNS, strict=True)):
                    if column_index == 1:
                        # The name opens the hooper's card: enter a stat the rules asked for mid-game.
                        button = RowButton(text=text, tone="quiet", size_hint_x=width)
                        button.bind(on_press=lambda _b, h=hooper, i=index: self.edit_card(app, i, h))
                        grid.add_widget(button)
                    else:
                        grid.add_widget(self._cell(text, width, colour))
            column.add_widget(grid)

    def edit_card(self, app: Any, side: int, hooper: dict[str, Any]) -> None:
        """Open the card editor on a hooper of the game in play, filled in from the service's view."""
        card = {"name": hooper.get("name"), "first_position": hooper.get("first_position"),
                "second_position": hooper.get("second_position"), "stellar": hooper.get("stellar"),
                "defense_positions": hooper.get("defense_positions"), "skill": hooper.get("skill"),
                "energy": hooper.get("max_energy"), "stats": dict(hooper.get("stats") or {})}
        editor = app.screens.get_screen("card")
        editor.open(card, [""] + ([card["skill"]] if card["skill"] else []), in_game_side=side)
        app.screens.current = "card"

    @staticmethod
    def _cell(text: str, width: float, colour: tuple[float, ...]) -> TableCell:
        return TableCell(text=text, color=colour, size_hint_x=width)
