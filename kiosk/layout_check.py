"""Finds what a table would call "broken" on a screen: text cut off, widgets on top of each other,
touch targets smaller than a finger, text too small to read, things outside the window.

Sizes are judged in millimetres on the screen (``kiosk.density``: the pixels per millimetre the
kiosk draws with): a touch target at least 9 mm both ways, text at least 2.5 mm (its font's em).
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

SLACK = 1.5  # px of rounding


def _px_per_mm() -> float:
    from kiosk.density import current_px_per_mm

    return current_px_per_mm()


def _touch_target(widget: Widget) -> bool:
    return isinstance(widget, Button | ToggleButton | TextInput) and not widget.disabled


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


def _broken_word(label: Label) -> str | None:
    """A word wider than the label's wrapping width (Kivy then breaks it between letters)."""
    width = label.text_size[0] if label.text_size and label.text_size[0] else None
    if not width or getattr(label, "markup", False) or getattr(label, "shorten", False):
        return None
    for word in set(label.text.split()):
        if "/" in word:
            continue  # a path has no word breaks to keep: it wraps where it must
        if len(word) > 1 and label._label.get_extents(word)[0] > width + SLACK:
            return word
    return None


def layout_problems(root: Widget) -> list[str]:
    """Every problem on the screen ``root`` shows now, in words (an empty list means none)."""
    from kiosk.density import MIN_TEXT_MM, MIN_TOUCH_MM

    problems: list[str] = []
    per_mm = _px_per_mm()
    min_touch = MIN_TOUCH_MM * per_mm
    for widget in root.walk(restrict=True):
        if not _visible(widget):
            continue
        if isinstance(widget, Label) and widget.text.strip():
            widget.texture_update()
            tw, th = widget.texture_size
            if tw > widget.width + SLACK or th > widget.height + SLACK:
                problems.append(f"clipped text: {_name(widget)} needs {tw:.0f}x{th:.0f}, "
                                f"has {widget.width:.0f}x{widget.height:.0f}")
            broken = _broken_word(widget)
            if broken:
                problems.append(f"word broken mid-word: {broken!r} in {_name(widget)}")
            if widget.font_size < MIN_TEXT_MM * per_mm - 0.5:
                problems.append(f"small text: {_name(widget)} is {widget.font_size / per_mm:.1f} mm")
        if _touch_target(widget) and (widget.width < min_touch - SLACK or widget.height < min_touch - SLACK):
            problems.append(f"small touch target: {_name(widget)} is {widget.width / per_mm:.1f}x"
                            f"{widget.height / per_mm:.1f} mm")
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


def sizes_mm(root: Widget) -> dict[str, Any]:
    """The smallest touch target and the smallest text the screen shows, in millimetres.

    ``{"px_per_mm", "touch_mm": [w, h, what], "text_mm": [size, what], "targets", "texts"}``.
    """
    per_mm = _px_per_mm()
    touch: list[Any] = []
    text: list[Any] = []
    targets = texts = 0
    for widget in root.walk(restrict=True):
        if not _visible(widget):
            continue
        if _touch_target(widget):
            targets += 1
            size = [round(widget.width / per_mm, 1), round(widget.height / per_mm, 1), _name(widget)]
            if not touch or min(size[:2]) < min(touch[:2]):
                touch = size
        if isinstance(widget, Label) and widget.text.strip():
            texts += 1
            size = [round(widget.font_size / per_mm, 2), _name(widget)]
            if not text or size[0] < text[0]:
                text = size
    return {"px_per_mm": round(per_mm, 2), "touch_mm": touch, "text_mm": text, "targets": targets,
            "texts": texts}


def describe(root: Any) -> dict[str, Any]:
    """The texts a screen shows (for tests to assert on), its layout problems and its sizes in mm."""
    texts = [w.text for w in root.walk(restrict=True) if isinstance(w, Label) and w.text and _visible(w)]
    return {"texts": texts, "problems": layout_problems(root), "mm": sizes_mm(root)}
