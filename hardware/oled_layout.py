"""What the OLEDs show: a ``ScoreboardView`` drawn onto a 1-bit PIL image, pure and deterministic.

Scores use thick block digits drawn from rectangles (like a real scoreboard) rather than a TrueType
font: they read from 1.5 m on a 0.96" panel, and they are the same pixels on every FreeType
version, so golden images stay exact. Small text is a 5x7 bitmap font (``oled_text``) for the same
reason, and so that a line of it fits in one controller page. Two sizes: 128x64
(SSD1306/SH1106/SSD1309) and 256x64 (SSD1322); each has a layout for two sides facing each other,
one for 3 to 5 sides in columns, and one for a single signed lead. On 128 px the two-side bands
each keep to their own 8-row controller pages (top bar, digits, fouls, names, message), so a
change rewrites as few bytes as it can; a table's notice (marked ``! ``) too long for the message
line takes the names' row as well. Nothing here knows a game: fouls, bonus and counters are
drawn when the view has them, and the target (right of the message on 128 px) shows the success
rule's words (``ROLL<=55``, ``ROLL>=12``, ``ROLL chart``). Team fouls are a row of dots under the
score (one per foul, as a real scoreboard's foul lights; past nine, a dot and the number) on
128 px, the words ``FOULS 3`` on 256 px. Nothing is drawn within ``MARGIN`` pixels of the edges
(the top and bottom rows kept clear), so the burn-in pixel shift never pushes anything onto the
border.

>>> from companion.game import ScoreboardView, SideView
>>> view = ScoreboardView("demo", (SideView("Hoop", 42), SideView("Dunk", 38)), "Q2", "7:45")
>>> render(view).size, render(view, (256, 64)).size
((128, 64), (256, 64))
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.game import ScoreboardView, SideView
from hardware.oled_text import draw_line, fit_line, line_width

Size = tuple[int, int]

# How the table marks a notice on the bottom line (``table.notice_line``): on 128 px a long one
# takes the names' row too.
NOTICE_MARK = "! "
MARGIN = 2  # pixels kept clear on every side (one is taken by the burn-in shift right and down)

# Which of the seven segments each character lights: a top, b top-right, c bottom-right,
# d bottom, e bottom-left, f top-left, g middle.
SEGMENTS = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg", "6": "acdefg",
    "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", " ": "",
}


def block_text_width(text: str, w: int, t: int, gap: int) -> int:
    """Width in pixels of ``text`` drawn by ``draw_block_text``."""
    widths = [t if ch in ":.1" else w for ch in text]
    return sum(widths) + gap * max(0, len(text) - 1)


def draw_block_text(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, w: int, h: int, t: int,
                    gap: int, fill: int = 255) -> int:
    """Draw digits, ``-`` and ``:`` as block segments ``w`` x ``h`` with strokes ``t``; returns the end x."""
    mid = y + (h - t) // 2
    for ch in text:
        if ch == ":":
            draw.rectangle((x, y + h // 4, x + t - 1, y + h // 4 + t - 1), fill=fill)
            draw.rectangle((x, y + 3 * h // 4 - t + 1, x + t - 1, y + 3 * h // 4), fill=fill)
            x += t + gap
            continue
        if ch == "1":  # a lone bar, not a right-aligned segment pair: "108" must not read "1 08"
            draw.rectangle((x, y, x + t - 1, y + h - 1), fill=fill)
            x += t + gap
            continue
        if ch == ".":
            draw.rectangle((x, y + h - t, x + t - 1, y + h - 1), fill=fill)
            x += t + gap
            continue
        lit = SEGMENTS.get(ch, "")
        boxes = {
            "a": (x, y, x + w - 1, y + t - 1),
            "b": (x + w - t, y, x + w - 1, mid + t - 1),
            "c": (x + w - t, mid, x + w - 1, y + h - 1),
            "d": (x, y + h - t, x + w - 1, y + h - 1),
            "e": (x, mid, x + t - 1, y + h - 1),
            "f": (x, y, x + t - 1, mid + t - 1),
            "g": (x, mid, x + w - 1, mid + t - 1),
        }
        for segment in lit:
            draw.rectangle(boxes[segment], fill=fill)
        x += w + gap
    return x - gap


def _text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int = 255) -> None:
    """Small text placed as Pillow's font was: the capitals on rows ``y + 2 .. y + 8``."""
    draw_line(draw, (xy[0], xy[1] + 2), text, fill)


def _text_width(text: str) -> int:
    return line_width(text)


def _fit(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` pixels of the small font, cut at a word and marked with two dots."""
    return fit_line(text, width)


def _wrap(text: str, width: int) -> tuple[str, str]:
    """The words of ``text`` that fit ``width`` pixels, and the rest (a word too long is cut)."""
    words = text.split(" ")
    first = words[0]
    for n, word in enumerate(words[1:], start=1):
        if _text_width(f"{first} {word}") > width:
            return first, " ".join(words[n:])
        first = f"{first} {word}"
    return _fit(first, width), ""


def _score_text(score: int | None) -> str:
    if score is None:
        return ""
    return str(score) if -99 <= score <= 999 else ("999" if score > 0 else "-99")


def _arrow(draw: ImageDraw.ImageDraw, cx: int, cy: int, pointing_left: bool, size: int) -> None:
    """A filled triangle pointing at the side with the ball."""
    if pointing_left:
        draw.polygon([(cx - size, cy), (cx + size - 1, cy - size), (cx + size - 1, cy + size)], fill=255)
    else:
        draw.polygon([(cx + size, cy), (cx - size + 1, cy - size), (cx - size + 1, cy + size)], fill=255)


def _badge(draw: ImageDraw.ImageDraw, x: int, y: int, text: str) -> int:
    """White-on-black box around ``text`` (the bonus mark, the target); returns its right edge."""
    width = _text_width(text)
    draw.rectangle((x, y, x + width + 3, y + 10), fill=255)
    _text(draw, (x + 2, y), text, fill=0)
    return x + width + 3


def top_badge(draw: ImageDraw.ImageDraw, x: int, text: str) -> int:
    """A badge in the top bar, boxed tight (rows 1..9) so it clears the edge and the digits below."""
    width = _text_width(text)
    draw.rectangle((x, 1, x + width + 3, 9), fill=255)
    _text(draw, (x + 2, 0), text, fill=0)
    return x + width + 3


def ordered_sides(view: ScoreboardView, side: int | None) -> tuple[list[SideView], int | None]:
    """The sides left to right for a display facing ``side`` and where the ball is, in that order.

    A display facing the away side (``side=1``) puts the away team on the left, so each side reads
    its own score first.
    """
    sides = list(view.sides[:2]) + [SideView("")] * (2 - len(view.sides[:2]))
    possession = view.possession
    if side == 1:
        sides.reverse()
        possession = None if possession is None else 1 - possession
    return sides, possession


def _bottom_line(view: ScoreboardView) -> str:
    if view.final:
        return view.message or "FINAL"
    return view.message


def target_label(view: ScoreboardView) -> str:
    """The target badge: ``ROLL`` and the success rule's words (``<=55``), or the bare number."""
    words = view.target_text or str(view.target)
    return f"ROLL{words}" if words[0] in "<>=" else f"ROLL {words}"


FOUL_DOT, FOUL_GAP, FOUL_DOTS = 3, 2, 9  # a 3x3 dot per team foul, up to nine dots


def foul_dots_width(fouls: int, most: int = FOUL_DOTS) -> int:
    """Width of ``draw_foul_dots``: a dot per foul up to ``most``, else one dot and the number."""
    if fouls <= 0:
        return 0
    if fouls <= most:
        return fouls * (FOUL_DOT + FOUL_GAP) - FOUL_GAP
    return FOUL_DOT + FOUL_GAP + _text_width(str(fouls))


def draw_foul_dots(draw: ImageDraw.ImageDraw, x: int, y: int, fouls: int, most: int = FOUL_DOTS) -> None:
    """Team fouls as dots from ``x``, the dots' top at ``y`` (past five the number's capitals are on
    rows ``y-2..y+4``)."""
    dots = fouls if fouls <= most else 1
    for n in range(max(0, dots)):
        left = x + n * (FOUL_DOT + FOUL_GAP)
        draw.rectangle((left, y, left + FOUL_DOT - 1, y + FOUL_DOT - 1), fill=255)
    if fouls > most:
        _text(draw, (x + FOUL_DOT + FOUL_GAP, y - 4), str(fouls))  # capitals from y - 2


def _counters(team: SideView, count: int = 2) -> str:
    return " ".join(f"{c.label}{c.value}" for c in team.counters[:count])


def render(view: ScoreboardView, size: Size = (128, 64), *, side: int | None = None,
           shift: tuple[int, int] = (0, 0)) -> Image.Image:
    """The whole screen for ``view``: a 1-bit image of ``size`` (128x64 or 256x64).

    ``shift`` moves everything by a pixel (burn-in care); the layout keeps a 1-pixel margin for it.
    """
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    from hardware.oled_columns import render_columns, render_lead  # they draw with this module's parts

    if view.lead is not None:
        render_lead(draw, view, size, _bottom_line(view))
    elif len(view.sides) > 2:
        render_columns(draw, view, size, _bottom_line(view))
    elif size == (256, 64):
        _render_wide(draw, view, side)
    else:
        _render_128(draw, view, side, size)
    if view.saving:
        draw_saving_mark(draw, size)
    if shift != (0, 0):
        image = Image.frombytes("1", size, image.tobytes())  # copy, then paste shifted on black
        shifted = Image.new("1", size, 0)
        shifted.paste(image, shift)
        image = shifted
    return image


def draw_saving_mark(draw: ImageDraw.ImageDraw, size: Size) -> None:
    """A bar along the bottom edge: the result above is not recorded yet.

    The OLEDs draw a press's result before its entry is written, without this; they add it only when
    the write has taken a quarter of a second and no newer view came (``hardware.oled``'s
    ``SAVING_MARK_AFTER_S``): a card that slow, or a write that failed (an error notice follows), or
    a service that stopped mid-write. Two rows below every layout's lowest text and inside the
    margin, so it covers nothing the view says, at any pixel shift.
    """
    left, right, bottom = MARGIN, size[0] - 1 - MARGIN, size[1] - 1 - MARGIN
    draw.rectangle((left, bottom - 1, right, bottom), fill=255)


def _pointer(draw: ImageDraw.ImageDraw, cx: int, top: int, pointing_left: bool) -> None:
    """The possession arrow, 8x8 from row ``top``: one controller page, so a flip rewrites 8 bytes."""
    tip, base = (cx - 4, cx + 3) if pointing_left else (cx + 3, cx - 4)
    draw.polygon([(tip, top + 3), (tip, top + 4), (base, top + 7), (base, top)], fill=255)


def _render_128(draw: ImageDraw.ImageDraw, view: ScoreboardView, side: int | None, size: Size) -> None:
    # Each band keeps to its own controller pages (8 rows each) so a change rewrites as few as it can:
    # page 0 the top bar, pages 1-3 the digits and the arrow, 4 the fouls, 5 the names, 6 the message.
    left, right = MARGIN, size[0] - 1 - MARGIN  # the drawable columns, both inclusive
    sides, possession = ordered_sides(view, side)
    half = size[0] // 2 - 1
    # Top bar (capitals on rows 1..7): period left, the clock centred, FINAL in its place at the end
    # (unboxed: a box would reach into the digits' pages; centred, it clears the digits).
    _text(draw, (left, -1), view.period)
    clock = "FINAL" if view.final else view.clock
    _text(draw, ((size[0] - _text_width(clock)) // 2, -1), clock)
    # Big scores, block digits 24 px tall (rows 8..31), each centred in its half, the team fouls
    # as dots under them (rows 34..36), like a real scoreboard's foul lights.
    h, t, gap = 24, 4, 3
    for index, team in enumerate(sides):
        text = _score_text(team.score)
        # Narrower digits when three wide ones would run into the possession arrow.
        w = 15 if block_text_width(text, 15, t, gap) <= 44 else 12
        text_w = block_text_width(text, w, t, gap)
        x0 = index * (half + 1) + (half - text_w) // 2 + (1 if index == 0 else 0)
        draw_block_text(draw, x0, 8, text, w, h, t, gap)
        if team.team_fouls:
            dots_w = foul_dots_width(team.team_fouls)
            draw_foul_dots(draw, index * (half + 1) + (half - dots_w) // 2 + 1, 34, team.team_fouls)
    if possession is not None:
        _pointer(draw, half, 16, pointing_left=possession == 0)
    message = _bottom_line(view)
    label = target_label(view) if view.target is not None else ""
    # The bottom line's room, as drawn below: up to the target badge's rule when there is a badge.
    room = (right - _text_width(label) - 3 if label else right) - left + 2
    if message.startswith(NOTICE_MARK) and _text_width(message) > room:
        # A notice (why a press did nothing) too long for the bottom line takes the target badge's
        # place for the few seconds it shows, and the names' row too when it needs two lines: 40
        # characters, not 10.
        first, rest = _wrap(message, right - left + 2)
        if rest:
            _text(draw, (left, 38), _fit(first, right - left + 2))
            _text(draw, (left, 47), _fit(rest, right - left + 2))
            return
        label = ""
    # Names (capitals on rows 40..46), then the first counter of a game without fouls and the bonus
    # boxed (rows 39..47); a short rule between the halves.
    draw.line((half, 40, half, 46), fill=255)
    for index, team in enumerate(sides):
        x0 = left if index == 0 else half + 3
        x = (half - 2 if index == 0 else right + 1)  # one past the half's last column
        if team.bonus:
            x -= _text_width("B") + 4
            draw.rectangle((x, 39, x + _text_width("B") + 3, 47), fill=255)
            _text(draw, (x + 2, 38), "B", fill=0)
            x -= 2
        if team.team_fouls is None:
            note = _counters(team, 1)
            x -= _text_width(note)
            _text(draw, (x, 38), note)
            x -= 3
        _text(draw, (x0, 38), _fit(team.name, max(0, x - x0)))
    # Bottom line (capitals on rows 49..55, page 6 alone): the message, the target right of a rule.
    end = right
    if label:
        end = right + 1 - _text_width(label) + 1
        _text(draw, (end, 47), label)
        draw.line((end - 3, 48, end - 3, 55), fill=255)
        end -= 5
    # The last character's space may fall past ``end``: 20 characters and the cut mark fit the line.
    _text(draw, (left, 47), _fit(message, end - left + 2))


def _render_wide(draw: ImageDraw.ImageDraw, view: ScoreboardView, side: int | None) -> None:
    left, width = MARGIN, 256 - MARGIN  # width: one past the last drawable column
    sides, possession = ordered_sides(view, side)
    # Top bar: period left, clock in block digits centred, target or FINAL right.
    _text(draw, (left, -1), view.period)
    clock = "".join(ch for ch in view.clock if ch in "0123456789:.- ")
    if clock:
        cw = block_text_width(clock, 7, 2, 2)
        draw_block_text(draw, (256 - cw) // 2, 1, clock, 7, 12, 2, 2)
    if view.final:
        top_badge(draw, width - _text_width("FINAL") - 4, "FINAL")
    elif view.target is not None:
        top_badge(draw, width - _text_width(target_label(view)) - 4, target_label(view))
    # Scores 36 px tall either side of the centre; names and fouls on the outer edges.
    w, h, t, gap = 20, 36, 5, 4
    for index, team in enumerate(sides):
        text = _score_text(team.score)
        text_w = block_text_width(text, w, t, gap)
        x0 = 117 - text_w if index == 0 else 139
        draw_block_text(draw, x0, 15, text, w, h, t, gap)
        fouls = f"FOULS {team.team_fouls}" if team.team_fouls is not None else _counters(team)
        if index == 0:
            _text(draw, (left, 16), _fit(team.name, 52))
            _text(draw, (left, 28), fouls)
            if team.bonus:
                _badge(draw, left, 40, "BONUS")
        else:
            name = _fit(team.name, 52)
            _text(draw, (width - _text_width(name), 16), name)
            _text(draw, (width - _text_width(fouls), 28), fouls)
            if team.bonus:
                _badge(draw, width - _text_width("BONUS") - 4, 40, "BONUS")
    if possession is not None:
        _arrow(draw, 128, 33, pointing_left=possession == 0, size=5)
    message = _bottom_line(view)
    message = _fit(message, width - left)
    _text(draw, ((256 - _text_width(message)) // 2, 51), message)
