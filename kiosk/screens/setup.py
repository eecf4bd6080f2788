"""Setup: side names and colours, tribe, the seven hoopers and the starting five, variant, first attack;
and the hooper-card editor whose cards are remembered between games.

The screen edits a plain dict (``self.setup``) and turns it into ``new_game`` options; the service
checks every rule (seven hoopers, one per position...). Warnings here only compare what the table
chose with the cards' printed positions, so the table can fix a slip before starting.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import DictProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from kiosk import cards
from kiosk.screens.base import KioskScreen
from kiosk.widgets import BigButton, BigToggle, WrapLabel

SPOTS = ("", "PG", "SG", "SF", "PF", "C", "bench")  # what a tap on a hooper cycles through
VARIANTS = (("classic", "Classic"), ("fast", "Fast"), ("friendly", "Friendly"))


def next_spot(current: str) -> str:
    return SPOTS[(SPOTS.index(current) + 1) % len(SPOTS)] if current in SPOTS else SPOTS[1]


class SetupScreen(KioskScreen):
    """Everything before the opening tip; ``Start game`` sends ``new_game``."""

    game = StringProperty("valley-hoopers")
    variant = StringProperty("classic")
    first_attacker = NumericProperty(0)
    warnings_text = StringProperty("")

    def prepare(self, app: Any) -> None:
        """Load the rosters, the remembered cards and the last setup, then draw the sides."""
        self.rosters = {**cards.shipped_rosters(), **cards.imported_rosters()}
        self.cards = cards.load_cards()
        if not getattr(self, "setup", None):
            self.setup = cards.load_last_setup()
        self.variant = self.setup.get("variant", "classic")
        self.first_attacker = int(self.setup.get("first_attacker", 0))
        self.draw_sides()

    def show(self, app: Any) -> None:
        if not getattr(self, "setup", None):
            self.prepare(app)

    def set_variant(self, variant: str) -> None:
        self.variant = self.setup["variant"] = variant

    def set_first(self, side: int) -> None:
        self.first_attacker = self.setup["first_attacker"] = side

    def draw_sides(self) -> None:
        for index, container in enumerate((self.ids.side0, self.ids.side1)):
            container.clear_widgets()
            side = self.setup["sides"][index]
            row = BoxLayout(size_hint_y=None, height="56dp", spacing="6dp")
            name = TextInput(text=side.get("name", ""), multiline=False, font_size="22sp", size_hint_x=0.5,
                             write_tab=False, padding=("8dp", "12dp"))
            name.bind(text=lambda _w, text, s=side: self._rename(s, text))
            name.bind(focus=self._bring_up)
            row.add_widget(name)
            colour = BigButton(text="colour", size_hint_x=0.2)
            colour.background_color = _rgba(side.get("colour", cards.SIDE_COLOURS[index]))
            colour.bind(on_release=lambda b, s=side: self._next_colour(s, b))
            row.add_widget(colour)
            for key in self.rosters:
                label = key.replace("import:", "")
                toggle = BigToggle(text=label.capitalize(), group=f"tribe{index}", size_hint_x=0.3,
                                   state="down" if side.get("roster") == key else "normal",
                                   allow_no_selection=False)
                toggle.bind(on_release=lambda _b, k=key, s=side: self._pick_roster(s, k))
                row.add_widget(toggle)
            container.add_widget(row)
            grid = GridLayout(cols=2, size_hint_y=None, spacing="6dp")
            grid.bind(minimum_height=grid.setter("height"))
            roster = self.rosters.get(side.get("roster", ""), {"hoopers": []})
            for hooper in roster.get("hoopers", []):
                grid.add_widget(self._hooper_row(index, side, hooper["name"]))
            container.add_widget(grid)
            warn = WrapLabel(text="", color=(1, 0.72, 0.12, 1))
            container.add_widget(warn)
            container.warnings = warn
        self.refresh_warnings()
        self.ids.first0.text = f"{self.setup['sides'][0].get('name') or 'Side 1'}"
        self.ids.first1.text = f"{self.setup['sides'][1].get('name') or 'Side 2'}"

    def _hooper_row(self, index: int, side: dict[str, Any], name: str) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height="56dp", spacing="4dp")
        spot = side.setdefault("picked", {}).get(name, "")
        pick = BigButton(text=_spot_text(name, spot), tone="primary" if spot else "quiet", font_size="17sp")
        pick.hooper = name
        pick.bind(on_release=lambda b: self._cycle(side, name, b))
        row.add_widget(pick)
        edit = BigButton(text="card", size_hint_x=None, width="72dp", font_size="16sp")
        edit.bind(on_release=lambda _b: self.edit_card_named(name))
        row.add_widget(edit)
        return row

    def _cycle(self, side: dict[str, Any], name: str, button: BigButton) -> None:
        spot = next_spot(side["picked"].get(name, ""))
        if spot:
            side["picked"][name] = spot
        else:
            side["picked"].pop(name, None)
        button.text = _spot_text(name, spot)
        button.tone = "primary" if spot else "quiet"
        self.refresh_warnings()

    def _bring_up(self, field: Any, focused: bool) -> None:
        """Scroll the name being typed to the top: the docked on-screen keyboard covers the bottom half
        (Kivy lifts the window only for the phones' system keyboards)."""
        if not focused:
            return
        scroll = self.ids.side0.parent.parent
        content = scroll.children[0]
        spare = content.height - scroll.height
        if spare > 0:
            top_in_content = field.parent.top - content.y
            scroll.scroll_y = max(0.0, min(1.0, (top_in_content - scroll.height) / spare))

    def _rename(self, side: dict[str, Any], text: str) -> None:
        side["name"] = text
        self.ids.first0.text = self.setup["sides"][0].get("name") or "Side 1"
        self.ids.first1.text = self.setup["sides"][1].get("name") or "Side 2"

    def _next_colour(self, side: dict[str, Any], button: BigButton) -> None:
        colours = cards.SIDE_COLOURS
        current = side.get("colour", colours[0])
        side["colour"] = colours[(colours.index(current) + 1) % len(colours)] if current in colours \
            else colours[0]
        button.background_color = _rgba(side["colour"])

    def _pick_roster(self, side: dict[str, Any], key: str) -> None:
        if side.get("roster") != key:
            side["roster"] = key
            side["picked"] = {}
            self.draw_sides()

    def refresh_warnings(self) -> None:
        lines = []
        for index, container in enumerate((self.ids.side0, self.ids.side1)):
            side = self.setup["sides"][index]
            found = cards.position_warnings(side, self.rosters, self.cards)
            if hasattr(container, "warnings"):
                container.warnings.text = "; ".join(found)
            lines += found
        self.warnings_text = "; ".join(lines)

    def import_rosters(self, app: Any) -> None:
        self.rosters = {**cards.shipped_rosters(), **cards.imported_rosters()}
        imported = [k for k in self.rosters if k.startswith("import:")]
        folder = cards.config_dir() / "rosters"
        app.say(f"{len(imported)} roster file(s) found in {folder}" if imported
                else f"No roster files yet: put JSON or TOML hooper cards in {folder}")
        self.draw_sides()

    def start(self, app: Any) -> None:
        cards.save_last_setup(self.setup)
        app.forget_colours()
        app.new_game(self.game, cards.game_options(self.setup, self.rosters, self.cards))

    # -- the card editor ------------------------------------------------------------------------------

    def edit_card(self, side: int, position: int) -> None:
        roster = self.rosters.get(self.setup["sides"][side].get("roster", ""), {"hoopers": []})
        hoopers = roster.get("hoopers", [])
        if hoopers:
            self.edit_card_named(hoopers[min(position, len(hoopers) - 1)]["name"])

    def edit_card_named(self, name: str) -> None:
        editor = self.manager.get_screen("card")
        editor.open(cards.card_for(name, self.rosters, self.cards), self._skills())
        self.manager.current = "card"

    def _skills(self) -> list[str]:
        found = [h.get("skill") for r in self.rosters.values() for h in r.get("hoopers", [])]
        return [""] + sorted({s for s in found if s})

    def card_saved(self) -> None:
        self.cards = cards.load_cards()
        self.refresh_warnings()


def _spot_text(name: str, spot: str) -> str:
    return f"{name}: {spot}" if spot else f"{name}: not picked"


def _rgba(colour: str) -> tuple[float, float, float, float]:
    colour = colour.lstrip("#")
    return (int(colour[0:2], 16) / 255, int(colour[2:4], 16) / 255, int(colour[4:6], 16) / 255, 1)


class CardEditorScreen(KioskScreen):
    """One hooper card: positions, defensive flag, energy, the eight stats, stellar and skill."""

    card = DictProperty({})
    title = StringProperty("")

    def open(self, card: dict[str, Any], skills: list[str], in_game_side: int | None = None) -> None:
        """Edit ``card``; with ``in_game_side`` the card is a hooper of the game in play (from the
        Table screen) and saving also sends ``enter_card`` with what changed."""
        self.card = {**card, "stats": dict(card.get("stats") or {})}
        self.shown = {**self.card, "stats": dict(self.card["stats"])}
        self.skills = skills
        self.in_game_side = in_game_side
        self.back_to = "setup" if in_game_side is None else "table"
        self.title = f"Card: {card['name']}"
        self.draw()
        self.ids.fields.parent.scroll_y = 1  # every card opens at its top, not where the last one was

    def draw(self) -> None:
        fields = self.ids.fields
        fields.clear_widgets()
        card = self.card
        self._cycle_row(fields, "1st position", "first_position", ("",) + cards.POSITIONS)
        self._cycle_row(fields, "2nd position", "second_position", ("",) + cards.POSITIONS)
        self._stepper(fields, "Energy", lambda: card.get("energy"), lambda v: card.__setitem__("energy", v),
                      step=1, start=5, high=12)
        fields.add_widget(WrapLabel(text="Stellar card"))
        if self._fixed("stellar", card.get("stellar")):
            fields.add_widget(WrapLabel(text=f"{'yes' if card['stellar'] else 'no'} (on the card)"))
        else:
            stellar = BigToggle(text="Stellar", state="down" if card.get("stellar") else "normal")
            stellar.bind(state=lambda _b, s: card.__setitem__("stellar", s == "down"))
            fields.add_widget(stellar)
        fields.add_widget(WrapLabel(text="Defensive flag"))
        if self._fixed("defense_positions", card.get("defense_positions")):
            fields.add_widget(WrapLabel(text=" ".join(card["defense_positions"]) + " (on the card)"))
        else:
            flag_row = BoxLayout(size_hint_y=None, height="56dp", spacing="2dp")
            flag = set(card.get("defense_positions") or [])
            for position in cards.POSITIONS:
                toggle = BigToggle(text=position, state="down" if position in flag else "normal",
                                   font_size="16sp")
                toggle.bind(state=lambda _b, s, p=position: self._flag(p, s == "down"))
                flag_row.add_widget(toggle)
            fields.add_widget(flag_row)
        for stat in cards.STATS:
            self._stepper(fields, stat, lambda s=stat: card["stats"].get(s),
                          lambda v, s=stat: card["stats"].__setitem__(s, v), step=5, start=50, high=100)
        if self.in_game_side is None:
            self._cycle_row(fields, "Skill", "skill", tuple(self.skills))
        else:
            fields.add_widget(WrapLabel(text="Skill"))
            fields.add_widget(WrapLabel(text=_value_text(card.get("skill")) + " (chosen at setup)"))

    def _fixed(self, _key: str, value: Any) -> bool:
        """In a game, what the card already shows is fixed (the rules only take what is missing)."""
        return self.in_game_side is not None and value not in (None, "")

    def _flag(self, position: str, on: bool) -> None:
        current = self.card.get("defense_positions") or []
        flag = [p for p in cards.POSITIONS if p in current and p != position]
        if on:
            flag.append(position)
        self.card["defense_positions"] = [p for p in cards.POSITIONS if p in flag]

    def _cycle_row(self, fields: Any, label: str, key: str, values: tuple[str, ...]) -> None:
        fields.add_widget(WrapLabel(text=label))
        shown = self.card.get(key) or ""
        if self._fixed(key, shown):
            fields.add_widget(WrapLabel(text=f"{_value_text(shown)} (on the card)"))
            return
        button = BigButton(text=_value_text(shown), font_size="17sp")

        def cycle(_b: Any) -> None:
            current = self.card.get(key) or ""
            new = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
            self.card[key] = new or None
            button.text = _value_text(new)

        button.bind(on_release=cycle)
        fields.add_widget(button)

    def _stepper(self, fields: Any, label: str, get: Any, put: Any, step: int, start: int, high: int) -> None:
        fields.add_widget(WrapLabel(text=label))
        if self._fixed(label, get()):
            fields.add_widget(WrapLabel(text=f"{get()} (on the card)"))
            return
        row = BoxLayout(size_hint_y=None, height="56dp", spacing="4dp")
        minus = BigButton(text="-", size_hint_x=None, width="56dp")
        value = BigButton(text=_value_text(get()), tone="quiet")
        plus = BigButton(text="+", size_hint_x=None, width="56dp")

        def change(delta: int) -> None:
            current = get()
            new = start if current is None else max(0, min(high, current + delta))
            put(new)
            value.text = _value_text(new)

        def clear(_b: Any) -> None:
            put(None)
            value.text = _value_text(None)

        minus.bind(on_release=lambda _b: change(-step))
        plus.bind(on_release=lambda _b: change(step))
        value.bind(on_release=clear)
        for w in (minus, value, plus):
            row.add_widget(w)
        fields.add_widget(row)

    def save(self, app: Any) -> None:
        cards.save_card(dict(self.card))
        if self.in_game_side is not None:
            entered = self.changes()
            if entered:
                app.send({"type": "enter_card", "hooper": self.card["name"], "side": self.in_game_side,
                          **entered})
            self.manager.current = "table"
            return
        app.say(f"Saved {self.card['name']}'s card; it is used in every game from now on.")
        setup = self.manager.get_screen("setup")
        setup.card_saved()
        self.manager.current = "setup"

    def changes(self) -> dict[str, Any]:
        """What the table changed on the card, in ``enter_card``'s fields (the skill is set at setup)."""
        entered: dict[str, Any] = {}
        for key in ("first_position", "second_position", "stellar", "defense_positions", "energy"):
            if self.card.get(key) != self.shown.get(key) and self.card.get(key) is not None:
                entered[key] = self.card[key]
        stats = {k: v for k, v in self.card["stats"].items()
                 if v is not None and v != self.shown["stats"].get(k)}
        if stats:
            entered["stats"] = stats
        return entered

    def cancel(self) -> None:
        self.manager.current = self.back_to


def _value_text(value: Any) -> str:
    return "not entered" if value in (None, "") else str(value).replace("_", " ")
