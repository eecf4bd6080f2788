"""What the OLEDs show: a ``ScoreboardView`` drawn onto a 1-bit PIL image, pure and deterministic.

Scores use thick block digits drawn from rectangles (like a real scoreboard) rather than a TrueType
font: they read from 1.5 m on a 0.96" panel, and they are the same pixels on every FreeType
version, so golden images stay exact. Small text uses Pillow's built-in bitmap font for the same
reason. Two sizes: 128x64 (SSD1306/SH1106/SSD1309) and 256x64 (SSD1322); each has a layout for two
sides facing each other, one for 3 to 5 sides in columns, and one for a single signed lead.
Nothing here knows a game: fouls, bonus and counters are drawn when the view has them, and the
target badge shows the success rule's words (``ROLL<=55``, ``ROLL>=12``, ``ROLL chart``).

>>> from companion.game import ScoreboardView, SideView
>>> view = ScoreboardView("demo", (SideView("Hoop", 42), SideView("Dunk", 38)), "Q2", "7:45")
>>> render(view).size, render(view, (256, 64)).size
((128, 64), (256, 64))
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw, ImageFont

from companion.game import ScoreboardView, SideView

Size = tuple[int, int]

# Which of the seven segments each character lights: a top, b top-right, c bottom-right,
# d bottom, e bottom-left, f top-left, g middle.
SEGMENTS = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg", "6": "acdefg",
    "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", " ": "",
}


@cache
def small_font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font (about 6x11): crisp on a 1-bit panel, no file needed."""
    return ImageFont.load_default_imagefont()


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
    draw.text(xy, text, font=small_font(), fill=fill)


def _text_width(text: str) -> int:
    return int(small_font().getlength(text))


def _fit(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` pixels of the small font, marking the cut with a dot."""
    if _text_width(text) <= width:
        return text
    while text and _text_width(text + ".") > width:
        text = text[:-1]
    return text + "."


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


def _side_note(team: SideView) -> str:
    """The short note under a side's name: its fouls (``F3``), else its first counter."""
    if team.team_fouls is not None:
        return f"F{team.team_fouls}"
    return _counters(team, 1)


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
    if shift != (0, 0):
        image = Image.frombytes("1", size, image.tobytes())  # copy, then paste shifted on black
        shifted = Image.new("1", size, 0)
        shifted.paste(image, shift)
        image = shifted
    return image


def _render_128(draw: ImageDraw.ImageDraw, view: ScoreboardView, side: int | None, size: Size) -> None:
    width = size[0] - 1  # the last column and row are the pixel-shift margin
    sides, possession = ordered_sides(view, side)
    half = width // 2
    # Top bar: period left, clock centred, FINAL right.
    _text(draw, (0, -1), view.period)
    clock = view.clock
    _text(draw, ((width - _text_width(clock)) // 2, -1), clock)
    if view.final:
        _badge(draw, width - _text_width("FINAL") - 4, 0, "FINAL")
    # Big scores, block digits 28 px tall, each centred in its half.
    h, t, gap = 28, 4, 3
    for index, team in enumerate(sides):
        text = _score_text(team.score)
        # Narrower digits when three wide ones would run into the possession arrow.
        w = 15 if block_text_width(text, 15, t, gap) <= 46 else 12
        text_w = block_text_width(text, w, t, gap)
        x0 = index * (half + 1) + (half - text_w) // 2
        draw_block_text(draw, x0, 12, text, w, h, t, gap)
    if possession is not None:
        _arrow(draw, half, 25, pointing_left=possession == 0, size=5)
    # Names, team fouls, bonus; a short rule between the halves keeps the two teams apart.
    draw.line((half, 42, half, 50), fill=255)
    for index, team in enumerate(sides):
        x0 = index * (half + 2) + 1
        fouls = _side_note(team)
        badge_w = _text_width("B") + 4 if team.bonus else 0
        name_room = half - 4 - _text_width(fouls) - 3 - (badge_w + 2 if team.bonus else 0)
        _text(draw, (x0, 41), _fit(team.name, name_room))
        x = x0 + half - 4 - _text_width(fouls) - (badge_w + 2 if team.bonus else 0)
        _text(draw, (x, 41), fouls)
        if team.bonus:
            _badge(draw, x + _text_width(fouls) + 2, 42, "B")
    # Bottom line: the message, and the roll's target boxed on the right.
    message = _bottom_line(view)
    right = width
    if view.target is not None:
        label = target_label(view)
        right = width - _text_width(label) - 4
        _badge(draw, right, 52, label)  # rows 52..62: row 63 is the pixel-shift margin
        right -= 2
    _text(draw, (0, 52), _fit(message, right))


def _render_wide(draw: ImageDraw.ImageDraw, view: ScoreboardView, side: int | None) -> None:
    width = 254  # the last column is the pixel-shift margin
    sides, possession = ordered_sides(view, side)
    # Top bar: period left, clock in block digits centred, target or FINAL right.
    _text(draw, (0, -1), view.period)
    clock = "".join(ch for ch in view.clock if ch in "0123456789:.- ")
    if clock:
        cw = block_text_width(clock, 7, 2, 2)
        draw_block_text(draw, (width - cw) // 2, 0, clock, 7, 12, 2, 2)
    if view.final:
        _badge(draw, width - _text_width("FINAL") - 4, 0, "FINAL")
    elif view.target is not None:
        _badge(draw, width - _text_width(target_label(view)) - 4, 0, target_label(view))
    # Scores 36 px tall either side of the centre; names and fouls on the outer edges.
    w, h, t, gap = 20, 36, 5, 4
    for index, team in enumerate(sides):
        text = _score_text(team.score)
        text_w = block_text_width(text, w, t, gap)
        x0 = 117 - text_w if index == 0 else 139
        draw_block_text(draw, x0, 15, text, w, h, t, gap)
        fouls = f"FOULS {team.team_fouls}" if team.team_fouls is not None else _counters(team)
        if index == 0:
            _text(draw, (0, 16), _fit(team.name, 52))
            _text(draw, (0, 28), fouls)
            if team.bonus:
                _badge(draw, 0, 40, "BONUS")
        else:
            name = _fit(team.name, 52)
            _text(draw, (width - _text_width(name), 16), name)
            _text(draw, (width - _text_width(fouls), 28), fouls)
            if team.bonus:
                _badge(draw, width - _text_width("BONUS") - 3, 40, "BONUS")
    if possession is not None:
        _arrow(draw, 128, 33, pointing_left=possession == 0, size=5)
    message = _bottom_line(view)
    _text(draw, ((width - _text_width(_fit(message, width))) // 2, 52), _fit(message, width))
