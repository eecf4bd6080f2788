"""Finds what a table would call "broken" on a screen: text cut off, widgets on top of each other,
touch targets smaller than a finger, things outside the window.

Used by ``companion run --screenshot`` (its JSON report) and the kiosk tests, at every screen size.
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

MIN_TOUCH = 48  # px: the smallest target a finger hits reliably
SLACK = 1.5  # px of rounding


def _visible(widget: Widget) -> bool:
    while widget is not None:
        if widget.opacity == 0 or widget.width < 1 or widget.height < 1:
            return False
        parent = widget.parent
        if parent is widget:
            break
        widget = parent
    return True


def _name(widget: Widget) -> str:
    text = getattr(widget, "text", "")
    return f"{type(widget).__name__}({text[:40]!r})" if text else type(widget).__name__


def _in_scroll(widget: Widget) -> ScrollView | None:
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            return parent
        parent = parent.parent
    return None


def _window_box(widget: Widget) -> tuple[float, float, float, float]:
    x0, y0 = widget.to_window(widget.x, widget.y)
    return x0, y0, x0 + widget.width, y0 + widget.height


def layout_problems(root: Widget) -> list[str]:
    """Every problem on the screen ``root`` shows now, in words (an empty list means none)."""
    problems: list[str] = []
    for widget in root.walk(restrict=True):
        if not _visible(widget):
            continue
        if isinstance(widget, Label) and widget.text.strip():
            widget.texture_update()
            tw, th = widget.texture_size
            if tw > widget.width + SLACK or th > widget.height + SLACK:
                problems.append(f"clipped text: {_name(widget)} needs {tw:.0f}x{th:.0f}, "
                                f"has {widget.width:.0f}x{widget.height:.0f}")
        if isinstance(widget, Button | ToggleButton | TextInput) and not widget.disabled and (
                widget.width < MIN_TOUCH - SLACK or widget.height < MIN_TOUCH - SLACK):
            problems.append(f"small touch target: {_name(widget)} is {widget.width:.0f}x{widget.height:.0f}")
        scroll = _in_scroll(widget)
        x0, y0, x1, y1 = _window_box(widget)
        if scroll is None and (x0 < -SLACK or y0 < -SLACK or x1 > Window.width + SLACK
                               or y1 > Window.height + SLACK):
            problems.append(f"outside the window: {_name(widget)} at {x0:.0f},{y0:.0f}-{x1:.0f},{y1:.0f}")
        children = [c for c in widget.children if _visible(c)]
        if isinstance(widget, ScrollView) or len(children) < 2 or type(widget) is Widget:
            continue
        boxes = [(c, _window_box(c)) for c in children]
        for i, (a, ba) in enumerate(boxes):
            for b, bb in boxes[i + 1:]:
                overlap_x = min(ba[2], bb[2]) - max(ba[0], bb[0])
                overlap_y = min(ba[3], bb[3]) - max(ba[1], bb[1])
                if overlap_x > SLACK and overlap_y > SLACK:
                    problems.append(f"overlap: {_name(a)} and {_name(b)} in {_name(widget)}")
    return problems


def describe(root: Any) -> dict[str, Any]:
    """The texts a screen shows (for tests to assert on) and its layout problems."""
    texts = [w.text for w in root.walk(restrict=True) if isinstance(w, Label) and w.text and _visible(w)]
    return {"texts": texts, "problems": layout_problems(root)}
