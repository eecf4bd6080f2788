"""Who acts now, unmistakably: a banner in the acting side's colour over the play screen's words.

The acting side is the prompt's ``side`` (else the one side the scoreboard marks ``active``); its
colour is the one Setup gave it, else the Setup's default for its place. The top bar's turn line
reads the same side (``present.turn_line``), so the two never disagree.

>>> snapshot = {"prompt": {"side": 1}, "scoreboard": {"sides": [{"name": "Lucy"}, {"name": "Karl"}]}}
>>> acting_side(snapshot), banner_words(snapshot)
(1, 'Karl to act')
>>> ink_for("f2f2f2"), ink_for("2f7de1")
((0.05, 0.05, 0.05, 1), (1, 1, 1, 1))
"""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty
from kivy.uix.label import Label
from kivy.utils import get_color_from_hex

from kiosk import present

JSON = dict[str, Any]


def acting_side(snapshot: JSON | None) -> int | None:
    """The side the prompt waits for (``None``: the whole table, or the game is over)."""
    snapshot = snapshot or {}
    if snapshot.get("outcome"):
        return None
    side = (snapshot.get("prompt") or {}).get("side")
    if isinstance(side, int) and not isinstance(side, bool):
        return side
    sides = (snapshot.get("scoreboard") or {}).get("sides") or []
    active = [i for i, s in enumerate(sides) if s.get("active")]
    return active[0] if len(active) == 1 else None


def banner_words(snapshot: JSON | None) -> str:
    side = acting_side(snapshot)
    names = present.side_names(snapshot)
    return f"{names[side]} to act" if side is not None and 0 <= side < len(names) else ""


def side_colour(app: Any, snapshot: JSON | None, side: int) -> str:
    """The acting side's colour as hex: Setup's choice by the side's full or short name, else its
    place's default."""
    from kiosk.cards import SIDE_COLOURS

    view_sides = ((snapshot or {}).get("view") or {}).get("sides") or []
    names = [s.get("name") for s in view_sides[side:side + 1] if isinstance(s, dict)]
    names += present.side_names(snapshot)[side:side + 1]
    for name in names:
        colour = app.side_colour(str(name)) if name else None
        if colour:
            return colour.lstrip("#")
    return SIDE_COLOURS[side % len(SIDE_COLOURS)].lstrip("#")


def ink_for(colour: str) -> tuple[float, float, float, float]:
    """Dark words on a light colour, white on a dark one (perceived brightness)."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (0, 2, 4))
    return (0.05, 0.05, 0.05, 1) if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else (1, 1, 1, 1)


class ActingBanner(Label):
    """The banner: the acting side's name on its colour (hidden when the whole table acts)."""

    fill = ListProperty([0, 0, 0, 0])

    def show(self, app: Any, snapshot: JSON | None) -> None:
        side = acting_side(snapshot)
        self.text = banner_words(snapshot)
        if side is None or not self.text:
            self.fill = [0, 0, 0, 0]
            return
        colour = side_colour(app, snapshot, side)
        self.fill = list(get_color_from_hex(colour))
        self.color = ink_for(colour)
