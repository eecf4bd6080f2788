"""The kiosk's few widget kinds: big buttons, hold-aware buttons, wrapping labels, the score chart,
the tug-of-war bar of a one-lead game.

Their looks live in ``kv/widgets.kv``; here is only behaviour that KV cannot say.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

HOLD_SECONDS = 0.6  # a "long tap" on a simulated button is a hold (the real UNDO needs one)


class BigButton(Button):
    """A button a finger hits: at least 56 dp tall, large text that wraps instead of clipping."""

    tone = StringProperty("normal")  # normal, primary, danger, quiet


class RowButton(BigButton):
    """A button inside a table row: 48 px (the finger minimum) so a line-up of seven still fits."""


class TableCell(Label):
    """One cell of a table row: as tall as the row's button (or its text, when that wraps to more
    lines), text centred vertically."""

    min_height = NumericProperty(48)  # set in dp by widgets.kv (the density is known by then)


class BigToggle(ToggleButton):
    """A toggle (variant, side, defensive flag) with the same size and looks as ``BigButton``."""


class HoldButton(BigButton):
    """A simulated hardware button: a tap is a press, a long tap (>= 0.6 s) is a hold.

    Dispatches ``on_tap(held)`` once the finger lifts.
    """

    role = StringProperty("")
    held_for = NumericProperty(0.0)
    __events__ = ("on_tap",)

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            touch.ud[f"hold-{id(self)}"] = True
        return super().on_touch_down(touch)

    def on_touch_up(self, touch: Any) -> bool:
        # Once per touch: the button grabs the touch on the way down, so the lift reaches it twice
        # (through the widget tree, then as the grabber); each would otherwise send a press.
        pressed = touch.ud.pop(f"hold-{id(self)}", None)
        handled = super().on_touch_up(touch)
        if pressed and self.collide_point(*touch.pos):
            # From the finger's own start time: inside a ScrollView the button only hears of the
            # touch once the view has decided it is not a scroll (a quarter second later).
            self.held_for = time.time() - touch.time_start
            self.dispatch("on_tap", self.held_for >= HOLD_SECONDS)
        return handled

    def on_tap(self, held: bool) -> None:
        pass


class WrapLabel(Label):
    """A label that wraps to its width and grows to its text's height (no clipped text)."""


class Heading(WrapLabel):
    """A section title."""


class ChecklistItem(ToggleButton):
    """One reminder between pairs or periods; tapping ticks it off."""

    done = BooleanProperty(False)


class ScoreChart(Widget):
    """The score difference (first side minus second) after every step of the game, as a line."""

    values = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(values=self._redraw, pos=self._redraw, size=self._redraw)

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        values = list(self.values) or [0]
        peak = max(5, max(abs(v) for v in values))
        x0, y0, width, height = self.x + 8, self.y + 8, max(1, self.width - 16), max(1, self.height - 16)
        middle = y0 + height / 2
        with self.canvas:
            Color(0.12, 0.15, 0.2, 1)
            Rectangle(pos=self.pos, size=self.size)
            Color(0.5, 0.55, 0.6, 1)
            Line(points=[x0, middle, x0 + width, middle], width=1)
            Color(1, 0.7, 0.1, 1)
            step = width / max(1, len(values) - 1)
            points: list[float] = []
            for i, value in enumerate(values):
                points += [x0 + i * step, middle + value / peak * height / 2]
            if len(points) >= 4:
                Line(points=points, width=2)


class LeadBar(Widget):
    """One signed lead as a tug-of-war: the marker moves from the middle toward the side ahead.

    ``share`` is where the marker sits: 0 at the first side's end (left), 0.5 level, 1 the second's.
    """

    share = NumericProperty(0.5)
    text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(share=self._redraw, pos=self._redraw, size=self._redraw)

    def _redraw(self, *_args: Any) -> None:
        self.canvas.before.clear()
        x0, width = self.x + dp(8), max(1.0, self.width - dp(16))
        y, height = self.y + self.height * 0.3, self.height * 0.4
        middle, marker = x0 + width / 2, x0 + width * min(1.0, max(0.0, float(self.share)))
        with self.canvas.before:
            Color(0.12, 0.15, 0.2, 1)
            Rectangle(pos=(x0, y), size=(width, height))
            Color(1, 0.7, 0.1, 1)  # the pull, from the middle to the marker
            Rectangle(pos=(min(middle, marker), y), size=(abs(marker - middle), height))
            Color(0.75, 0.78, 0.82, 1)
            Line(points=[middle, y - dp(4), middle, y + height + dp(4)], width=1)
            Color(1, 1, 1, 1)
            Rectangle(pos=(marker - dp(3), y - dp(6)), size=(dp(6), height + dp(12)))
