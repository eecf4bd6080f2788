"""A number typed on a keypad over the screen, for a card's stat: tap the number, then its digits.

The value is taken as soon as no further digit could keep it within the field's range ("55" of a
stat that goes to 100 is taken on the second 5: a stat in 3 taps), else on OK. A value outside the
range is refused in the pad's own words and nothing is stored. ``clear`` empties an optional field.

    NumberPad.ask(title="2PS", low=0, high=100, optional=True, on_value=lambda value: ...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from kiosk.command_form import number_value, typed_number
from kiosk.widgets import BigButton, WrapLabel

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "OK")


def complete(text: str, high: int | None) -> bool:
    """True when no further digit keeps ``text`` within ``high`` (the pad takes the value at once).

    >>> complete("5", 100), complete("55", 100), complete("10", 100), complete("100", 100)
    (False, True, False, True)
    >>> complete("5", 9), complete("12", None), complete("123", None)
    (True, False, True)
    """
    digits = text.lstrip("-")
    if not digits:
        return False
    if high is None:
        return len(digits) >= 3
    return int(digits + "0") > abs(high)


def refusal(value: int | None, low: int | None, high: int | None) -> str:
    """What is wrong with ``value`` for a field from ``low`` to ``high`` ("" when nothing is)."""
    if value is None:
        return "type a number"
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low if low is not None else '...'}-{high if high is not None else '...'}"
        return f"{value} is not {span}"
    return ""


def after_key(typed: str, key: str, low: int | None, high: int | None,
              optional: bool) -> tuple[str, bool, int | None, str]:
    """One key on the pad: ``(typed, done, value, words)``; ``done`` with the value to store, else
    what the pad shows (the digits so far, or why a value was refused).

    >>> after_key("5", "5", 0, 100, False)[:3], after_key("1", "0", 0, 100, False)[:2]
    (('55', True, 55), ('10', False))
    >>> after_key("4", "5", 5, 40, False), after_key("3", "OK", 5, 40, False)[3]
    (('', False, None, '45 is not 5-40'), '3 is not 5-40')
    >>> after_key("", "clear", 0, 100, True)[1:3], after_key("7", "clear", 0, 100, False)
    ((True, None), ('', False, None, '_'))
    """
    if key == "clear":
        if optional:
            return "", True, None, ""
        typed = ""
    elif key != "OK":
        typed = typed_number(typed, key)
    value = number_value(typed)
    if key == "OK" or (value is not None and complete(typed, high)):
        problem = refusal(value, low, high)
        if not problem:
            return typed, True, value, ""
        return "", False, None, problem
    return typed, False, None, typed or "_"


class NumberPad(ModalView):
    """The field's name with what is typed so far, and the keys."""

    @classmethod
    def ask(cls, *, title: str, low: int | None, high: int | None, optional: bool,
            on_value: Callable[[int | None], Any]) -> NumberPad:
        pad = cls(size_hint=(None, None), width=dp(300), height=dp(4 * 62 + 70), auto_dismiss=True)
        pad.build(title, low, high, optional, on_value)
        pad.open(animation=False)
        return pad

    def build(self, title: str, low: int | None, high: int | None, optional: bool,
              on_value: Callable[[int | None], Any]) -> None:
        self.title, self.low, self.high, self.optional, self.on_value = title, low, high, optional, on_value
        self.typed = ""
        box = BoxLayout(orientation="vertical", spacing=dp(4), padding=dp(6))
        self.label = WrapLabel(text=f"{title}: _", font_size="20sp", size_hint_y=None, height=dp(48),
                               color=(1, 0.72, 0.12, 1))
        box.add_widget(self.label)
        grid = GridLayout(cols=3, spacing=dp(4))
        for key in KEYS:
            button = BigButton(text=key, tone="quiet", font_size="22sp")
            button.bind(on_press=lambda _b, k=key: self.press(k))
            grid.add_widget(button)
        box.add_widget(grid)
        self.add_widget(box)

    def press(self, key: str) -> None:
        self.typed, done, value, words = after_key(self.typed, key, self.low, self.high, self.optional)
        if done:
            self.finish(value)
            return
        self.label.text = f"{self.title}: {words}"

    def finish(self, value: int | None) -> None:
        self.dismiss(animation=False)
        self.on_value(value)
