"""The OLED layouts for games that are not two sides face to face: 3 to 5 sides, or one signed lead.

Columns: one per side, the score in block digits, the name under it, then fouls or the first
counter; the side to act has its name boxed (white on black). Lead: the leading side's name on
the left, the lead in big digits on the right (Crunch Time keeps one signed score). Both keep the
top bar (period, clock, FINAL or the target badge) and the bottom message line of the two-side
layouts.

>>> from companion.game import Lead, ScoreboardView, SideView
>>> from hardware.oled_layout import render
>>> sides = tuple(SideView(n, s) for n, s in (("Ann", 3), ("Bo", 12), ("Cy", 7)))
>>> three = ScoreboardView("demo", sides, "R1", "")
>>> render(three).getbbox() is not None, render(three, (256, 64)).size
(True, (256, 64))
>>> render(ScoreboardView("demo", (SideView("A"), SideView("B")), "Q1", "", lead=Lead(1, 4))).size
(128, 64)
"""

from __future__ import annotations

from PIL import ImageDraw

from companion.game import ScoreboardView
from hardware.oled_layout import (
    FOUL_DOT,
    FOUL_GAP,
    MARGIN,
    Size,
    _fit,
    _score_text,
    _text,
    _text_width,
    block_text_width,
    draw_block_text,
    draw_foul_dots,
    foul_dots_width,
    target_label,
    top_badge,
)


def _top_bar(draw: ImageDraw.ImageDraw, view: ScoreboardView, width: int) -> None:
    """Period, clock and the FINAL or target badge; ``width`` is one past the last drawable column."""
    _text(draw, (MARGIN, -1), view.period)
    if view.clock:
        _text(draw, ((width + MARGIN - _text_width(view.clock)) // 2, -1), view.clock)
    if view.final:
        top_badge(draw, width - 1 - _text_width("FINAL") - 3, "FINAL")
    elif view.target is not None:
        label = target_label(view)
        top_badge(draw, width - 1 - _text_width(label) - 3, label)


def _bottom(draw: ImageDraw.ImageDraw, message: str, width: int, y: int = 51) -> None:
    _text(draw, (MARGIN, y), _fit(message, width - MARGIN))


def render_columns(draw: ImageDraw.ImageDraw, view: ScoreboardView, size: Size, message: str) -> None:
    """3 to 5 sides side by side (a sixth and later side would not fit and are left out)."""
    width = size[0] - MARGIN
    sides = view.sides[:5]
    column = (width - MARGIN) // len(sides)
    _top_bar(draw, view, width)
    # Digits as big as the column allows for three characters.
    for w, t, gap in ((12, 3, 2), (9, 3, 2), (7, 2, 1), (5, 2, 1)):
        if block_text_width("888", w, t, gap) <= column - 6:  # a margin from the column rules
            break
    for index, team in enumerate(sides):
        x0 = MARGIN + index * column
        text = _score_text(team.score)
        text_w = block_text_width(text, w, t, gap)
        draw_block_text(draw, x0 + (column - text_w) // 2, 12, text, w, 20, t, gap)
        name = _fit(team.name, column - 4)
        active = team.active or view.possession == index
        if active:
            draw.rectangle((x0 + 1, 33, x0 + column - 2, 43), fill=255)
        _text(draw, (x0 + (column - _text_width(name)) // 2, 32), name, fill=0 if active else 255)
        if team.team_fouls is not None:  # dots, as on the two-side board, then the bonus mark
            mark_w = _text_width("B") + 2 if team.bonus else 0
            most = (column - 2 - mark_w + FOUL_GAP) // (FOUL_DOT + FOUL_GAP)  # dots the column holds
            dots_w = foul_dots_width(team.team_fouls, most)
            x = x0 + (column - dots_w - mark_w) // 2
            draw_foul_dots(draw, x, 46, team.team_fouls, most)
            if team.bonus:
                _text(draw, (x + dots_w + 2, 42), "B")
        else:
            note = f"{team.counters[0].label}{team.counters[0].value}" if team.counters else ""
            note = _fit(note, column - 2)
            _text(draw, (x0 + (column - _text_width(note)) // 2, 42), note)
        if index:
            draw.line((x0, 14, x0, 30), fill=255)
    _bottom(draw, message, width)


def render_lead(draw: ImageDraw.ImageDraw, view: ScoreboardView, size: Size, message: str) -> None:
    """One signed score: who leads and by how much, big in the middle."""
    assert view.lead is not None
    width = size[0] - MARGIN
    _top_bar(draw, view, width)
    lead = view.lead
    leader = (view.sides[lead.side].name if lead.side is not None and lead.side < len(view.sides)
              else "TIED")
    text = _score_text(abs(lead.value)) if lead.side is not None else "0"
    w, t, gap = (15, 4, 3) if size[0] < 256 else (20, 5, 4)
    text_w = block_text_width(text, w, t, gap)
    half = width // 2
    label = _fit(leader, half - 4)
    _text(draw, ((half - _text_width(label)) // 2, 15 if lead.side is not None else 21), label)
    if lead.side is not None:
        _text(draw, ((half - _text_width("LEADS BY")) // 2, 27), "LEADS BY")
    draw_block_text(draw, half + (half - text_w) // 2, 12, text, w, 28, t, gap)
    _bottom(draw, message, width, 47)  # capitals on rows 49..55: one controller page
