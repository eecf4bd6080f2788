"""Setup: the game's setup form (game-wide fields, then each side: name, colour, the form's side
fields, a roster and who is picked on which spot); and the card editor whose cards are remembered
between games. Both are drawn from the game's ``game_info`` (its forms and rosters), never by name.

The screen edits a plain dict (``self.setup``) and turns it into ``new_game`` options; the service
checks every rule. Warnings here only compare what the table chose with the cards' printed spots,
so the table can fix a slip before starting.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import DictProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from kiosk import cards
from kiosk.screens.base import KioskScreen
from kiosk.widgets import BigButton, BigToggle, Heading, WrapLabel

JSON = dict[str, Any]
TOGGLES_AT_MOST = 4  # a choice with more values is one button that cycles through them


def next_spot(current: str, spots: list[str]) -> str:
    """What a tap on a member cycles through: not picked, each spot, the reserve."""
    cycle = ["", *spots]
    return cycle[(cycle.index(current) + 1) % len(cycle)] if current in cycle else cycle[1]


class SetupScreen(KioskScreen):
    """Everything before the game starts; ``Start game`` sends ``new_game``."""

    game = StringProperty("")
    warnings_text = StringProperty("")
    has_rosters = StringProperty("")
    quick_text = StringProperty("Quick start")

    def prepare(self, app: Any) -> None:
        """Load the game's form, its rosters, the remembered cards and the last setup; draw them."""
        self.info = app.info_for(self.game or None)
        self.game = str(self.info.get("name", ""))
        self.rosters = {**cards.shipped_rosters(self.info), **cards.imported_rosters(self.info)}
        self.cards = cards.load_cards(self.game)
        if not getattr(self, "setup", None) or self.setup.get("game") != self.game:
            self.setup = cards.load_last_setup(self.info)
        self.has_rosters = "yes" if cards.roster_field(self.info) else ""
        self.quick_text = "Quick start (demo)" if cards.quick_preset(self.info).get("demo") else "Quick start"
        self.draw()

    def show(self, app: Any) -> None:
        if not getattr(self, "setup", None):
            self.prepare(app)

    # -- drawing ----------------------------------------------------------------------------------------

    def draw(self) -> None:
        form = self.ids.form
        form.clear_widgets()
        self._side_toggles: list[BigToggle] = []
        setup_form = self.info.get("setup_form") or {}
        for field in setup_form.get("fields", []):
            self._game_field(form, field)
        sides = self.info.get("sides") or {}
        low, high = int(sides.get("min", 2)), int(sides.get("max", 2))
        if low < high:
            form.add_widget(Heading(text=f"Sides ({low} to {high})"))
            row = BoxLayout(size_hint_y=None, height="56dp", spacing="6dp")
            fewer = BigButton(text="- side", disabled=len(self.setup["sides"]) <= low)
            fewer.bind(on_release=lambda _b: self._resize(-1))
            more = BigButton(text="+ side", disabled=len(self.setup["sides"]) >= high)
            more.bind(on_release=lambda _b: self._resize(1))
            row.add_widget(fewer)
            row.add_widget(more)
            form.add_widget(row)
        picker = cards.roster_field(self.info)
        side_fields = setup_form.get("side_fields", [])
        for index, side in enumerate(self.setup["sides"]):
            what = ["name", "colour"] + [str(f.get("label", "")).lower() for f in side_fields
                                         if f.get("kind") not in ("roster", "text")]
            if picker:
                what.append("roster")
            tail = f"; {picker['help']}" if picker and picker.get("help") and index == 0 else ""
            form.add_widget(Heading(text=f"Side {index + 1}: {', '.join(what)}{tail}"))
            box = BoxLayout(orientation="vertical", size_hint_y=None, spacing="6dp")
            box.bind(minimum_height=box.setter("height"))
            self.ids[f"side{index}"] = box
            self._draw_side(box, index, side)
            form.add_widget(box)
        self.refresh_warnings()

    def _game_field(self, form: Any, field: JSON) -> None:
        key = str(field["key"])
        values = self.setup.setdefault("fields", {})
        form.add_widget(Heading(text=str(field.get("label", key))))
        if field.get("of_sides"):
            chosen = values.get(key, field.get("default"))
            row = BoxLayout(size_hint_y=None, height="56dp", spacing="6dp")
            for index, side in enumerate(self.setup["sides"]):
                toggle = BigToggle(text=side.get("name") or f"Side {index + 1}", group=f"field-{key}",
                                   allow_no_selection=False,
                                   state="down" if chosen == index else "normal")
                toggle.bind(on_release=lambda _b, i=index: values.__setitem__(key, i))
                self._side_toggles.append(toggle)
                row.add_widget(toggle)
            form.add_widget(row)
            return
        form.add_widget(field_editor(field, lambda: values.get(key, field.get("default")),
                                     lambda v: values.__setitem__(key, v), group=f"field-{key}"))

    def _draw_side(self, box: Any, index: int, side: JSON) -> None:
        row = BoxLayout(size_hint_y=None, height="56dp", spacing="6dp")
        name = TextInput(text=side.get("name", ""), multiline=False, font_size="22sp", size_hint_x=0.5,
                         write_tab=False, padding=("8dp", "12dp"))
        name.bind(text=lambda _w, text, s=side: self._rename(s, text))
        name.bind(focus=self._bring_up)
        row.add_widget(name)
        colour = BigButton(text="colour", size_hint_x=0.2, font_size="17sp")  # whole upright too
        palette = cards.SIDE_COLOURS
        colour.background_color = _rgba(side.get("colour") or palette[index % len(palette)])
        colour.bind(on_release=lambda b, s=side: self._next_colour(s, b))
        row.add_widget(colour)
        picker = cards.roster_field(self.info)
        if picker and len(self.rosters) <= TOGGLES_AT_MOST - 1:
            for key, roster in self.rosters.items():
                toggle = BigToggle(text=_roster_label(roster), group=f"roster{index}", size_hint_x=0.3,
                                   state="down" if side.get("roster") == key else "normal",
                                   allow_no_selection=False)
                toggle.bind(on_release=lambda _b, k=key, s=side: self._pick_roster(s, k))
                row.add_widget(toggle)
        box.add_widget(row)
        if picker and len(self.rosters) > TOGGLES_AT_MOST - 1:
            names = list(self.rosters)
            current = side.get("roster") if side.get("roster") in names else ""
            label = _roster_label(self.rosters[current]) if current else "pick a roster"
            cycle = BigButton(text=f"Roster: {label}", tone="quiet")
            cycle.bind(on_release=lambda _b, s=side: self._pick_roster(s, _next(names, s.get("roster"))))
            box.add_widget(cycle)
        side_values = side.setdefault("fields", {})
        for field in (self.info.get("setup_form") or {}).get("side_fields", []):
            if field.get("kind") == "roster" or field.get("key") == "name":
                continue
            box.add_widget(WrapLabel(text=str(field.get("label", field["key"])), font_size="16sp"))
            key = str(field["key"])
            box.add_widget(field_editor(field, lambda k=key, f=field: side_values.get(k, f.get("default")),
                                        lambda v, k=key: side_values.__setitem__(k, v),
                                        group=f"side{index}-{key}"))
        if picker:
            grid = GridLayout(cols=2, size_hint_y=None, spacing="6dp")
            grid.bind(minimum_height=grid.setter("height"))
            roster = self.rosters.get(side.get("roster", ""), {"cards": []})
            for card in roster.get("cards", []):
                grid.add_widget(self._member_row(side, str(card["name"])))
            box.add_widget(grid)
        warn = WrapLabel(text="", color=(1, 0.72, 0.12, 1))
        box.add_widget(warn)
        box.warnings = warn

    def _spots(self) -> list[str]:
        pick = (cards.roster_field(self.info) or {}).get("pick") or {}
        return [*pick.get("spots", []), pick.get("reserve") or "picked"]

    def _member_row(self, side: JSON, name: str) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height="56dp", spacing="4dp")
        spot = side.setdefault("picked", {}).get(name, "")
        pick = BigButton(text=_spot_text(name, spot), tone="primary" if spot else "quiet", font_size="17sp")
        pick.member = name
        pick.bind(on_release=lambda b: self._cycle(side, name, b))
        row.add_widget(pick)
        if self.info.get("card_form"):
            edit = BigButton(text="card", size_hint_x=None, width="72dp", font_size="16sp")
            edit.bind(on_release=lambda _b: self.edit_card_named(name))
            row.add_widget(edit)
        return row

    # -- taps -------------------------------------------------------------------------------------------

    def _cycle(self, side: JSON, name: str, button: BigButton) -> None:
        spot = next_spot(side["picked"].get(name, ""), self._spots())
        if spot:
            side["picked"][name] = spot
        else:
            side["picked"].pop(name, None)
        button.text = _spot_text(name, spot)
        button.tone = "primary" if spot else "quiet"
        self.refresh_warnings()

    def _resize(self, by: int) -> None:
        sides = self.setup["sides"]
        if by < 0:
            sides.pop()
        else:
            index = len(sides)
            names = (self.info.get("sides") or {}).get("names") or []
            sides.append(cards.new_side(self.info, index, names[index] if index < len(names) else
                                        f"Side {index + 1}"))
        self.draw()

    def _bring_up(self, field: Any, focused: bool) -> None:
        """Scroll the name being typed to the top: the docked on-screen keyboard covers the bottom half
        (Kivy lifts the window only for the phones' system keyboards)."""
        if not focused:
            return
        scroll = self.ids.form.parent
        content = self.ids.form
        spare = content.height - scroll.height
        if spare > 0:
            top_in_content = field.parent.top - content.y
            scroll.scroll_y = max(0.0, min(1.0, (top_in_content - scroll.height) / spare))

    def _rename(self, side: JSON, text: str) -> None:
        side["name"] = text
        for index, toggle in enumerate(getattr(self, "_side_toggles", [])):
            sides = self.setup["sides"]
            position = index % max(1, len(sides))
            toggle.text = sides[position].get("name") or f"Side {position + 1}"

    def _next_colour(self, side: JSON, button: BigButton) -> None:
        colours = cards.SIDE_COLOURS
        current = side.get("colour", colours[0])
        side["colour"] = colours[(colours.index(current) + 1) % len(colours)] if current in colours \
            else colours[0]
        button.background_color = _rgba(side["colour"])

    def _pick_roster(self, side: JSON, key: str) -> None:
        if side.get("roster") != key:
            side["roster"] = key
            side["picked"] = {}
            self.draw()

    def refresh_warnings(self) -> None:
        lines = []
        for index, side in enumerate(self.setup["sides"]):
            found = cards.pick_warnings(self.info, side, self.rosters, self.cards)
            box = self.ids.get(f"side{index}")
            if box is not None and hasattr(box, "warnings"):
                box.warnings.text = "; ".join(found)
            lines += found
        self.warnings_text = "; ".join(lines)

    def import_rosters(self, app: Any) -> None:
        self.rosters = {**cards.shipped_rosters(self.info), **cards.imported_rosters(self.info)}
        imported = [k for k in self.rosters if k.startswith("import:")]
        folder = cards.config_dir() / "rosters"
        app.say(f"{len(imported)} roster file(s) found in {folder}" if imported
                else f"No roster files yet: put JSON or TOML cards in {folder}")
        self.draw()

    def quick_start(self, app: Any) -> None:
        """The game's demo preset as it is (no remembered cards, no edits): playable in one tap; a game
        without presets starts the setup as drawn."""
        preset = cards.quick_preset(self.info)
        if not preset:
            self.start(app)
            return
        app.forget_colours()
        app.new_game(self.game, dict(preset.get("options") or {}))

    def start(self, app: Any) -> None:
        cards.save_last_setup(self.setup)
        app.forget_colours()
        app.new_game(self.game, cards.game_options(self.info, self.setup, self.rosters, self.cards))

    # -- the card editor ----------------------------------------------------------------------------

    def edit_card(self, side: int, position: int) -> None:
        roster = self.rosters.get(self.setup["sides"][side].get("roster", ""), {"cards": []})
        members = roster.get("cards", [])
        if members:
            self.edit_card_named(str(members[min(position, len(members) - 1)]["name"]))

    def edit_card_named(self, name: str) -> None:
        editor = self.manager.get_screen("card")
        form = self.info.get("card_form") or {}
        editor.open(self.game, form, cards.card_for(name, self.rosters, self.cards, form.get("key", "name")))
        self.manager.current = "card"

    def card_saved(self) -> None:
        self.cards = cards.load_cards(self.game)
        self.refresh_warnings()


def _next(values: list[str], current: Any) -> str:
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


def _roster_label(roster: JSON) -> str:
    label = str(roster.get("label") or roster.get("name", "")).replace("import:", "")
    return f"{label} (demo)" if roster.get("demo") else label


def _spot_text(name: str, spot: str) -> str:
    return f"{name}: {spot}" if spot else f"{name}: not picked"


def _rgba(colour: str) -> tuple[float, float, float, float]:
    colour = colour.lstrip("#")
    return (int(colour[0:2], 16) / 255, int(colour[2:4], 16) / 255, int(colour[4:6], 16) / 255, 1)


def _value_text(value: Any, field: JSON | None = None) -> str:
    if value in (None, ""):
        return "not entered"
    for choice in (field or {}).get("choices", []):
        if choice.get("value") == value:
            return str(choice.get("label", value))
    return str(value).replace("_", " ")


def field_editor(field: JSON, get: Any, put: Any, group: str = "", optional: bool = False) -> Any:
    """A widget that edits one form field: toggles or a cycling button for a choice, a stepper for
    an int (``-`` / ``+``; tap the number to type it on a keypad, ``clear`` there empties it when
    ``optional``), a toggle for a bool, a text box for text. ``get`` reads the value, ``put`` stores it."""
    kind = field.get("kind")
    choices = list(field.get("choices", []))
    if kind == "choice" and field.get("multiple"):
        # Toggles of at least a finger's width that wrap to a second line on a narrow screen.
        from kivy.uix.stacklayout import StackLayout

        row = StackLayout(size_hint_y=None, spacing="2dp")
        row.bind(minimum_height=row.setter("height"))
        values = [c.get("value") for c in choices]

        def flip(value: Any, on: bool) -> None:
            current = [v for v in (get() or []) if v != value] + ([value] if on else [])
            put([v for v in values if v in current])

        for choice in choices:
            toggle = BigToggle(text=str(choice.get("label")), font_size="16sp", size_hint_x=None,
                               width=max(dp(56), dp(16) + dp(10) * len(str(choice.get("label")))),
                               state="down" if choice.get("value") in (get() or []) else "normal")
            value = choice.get("value")
            toggle.bind(state=lambda _b, s, v=value: flip(v, s == "down"))
            row.add_widget(toggle)
        return row
    if kind == "choice" and not optional and len(choices) <= TOGGLES_AT_MOST:
        row = BoxLayout(size_hint_y=None, height="56dp", spacing="6dp")
        for choice in choices:
            toggle = BigToggle(text=str(choice.get("label")), group=group or None, allow_no_selection=False,
                               state="down" if get() == choice.get("value") else "normal")
            value = choice.get("value")
            toggle.bind(on_release=lambda _b, v=value: put(v))
            row.add_widget(toggle)
        return row
    if kind == "choice":
        values = ([None] if optional else []) + [c.get("value") for c in choices]
        button = BigButton(text=_value_text(get(), field), font_size="17sp")

        def cycle(_b: Any) -> None:
            current = get()
            new = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
            put(new)
            button.text = _value_text(new, field)

        button.bind(on_release=cycle)
        return button
    if kind == "int":
        row = BoxLayout(size_hint_y=None, height="56dp", spacing="4dp")
        minus = BigButton(text="-", size_hint_x=None, width="56dp")
        value = BigButton(text=_value_text(get()), tone="quiet")
        plus = BigButton(text="+", size_hint_x=None, width="56dp")
        step = int(field.get("step") or 1)
        low, high = field.get("min"), field.get("max")

        def change(delta: int) -> None:
            current = get()
            start = field.get("start", field.get("default", low if low is not None else 0))
            new = int(start) if current is None else current + delta
            new = max(low, new) if low is not None else new
            new = min(high, new) if high is not None else new
            put(new)
            value.text = _value_text(new)

        def typed(new: int | None) -> None:
            put(new)
            value.text = _value_text(new)

        def keypad(_b: Any) -> None:
            # Typing a printed stat is 3 taps where -/+ in steps of 5 is up to 20.
            from kiosk.number_pad import NumberPad

            NumberPad.ask(title=str(field.get("label") or field.get("name", "")), low=low, high=high,
                          optional=optional, on_value=typed)

        minus.bind(on_release=lambda _b: change(-step))
        plus.bind(on_release=lambda _b: change(step))
        value.bind(on_release=keypad)
        for w in (minus, value, plus):
            row.add_widget(w)
        return row
    if kind == "bool":
        toggle = BigToggle(text=str(field.get("label", "")), state="down" if get() else "normal")
        toggle.bind(state=lambda _b, s: put(s == "down"))
        return toggle
    text = TextInput(text=str(get() or ""), multiline=False, font_size="20sp", size_hint_y=None,
                     height="56dp", write_tab=False, padding=("8dp", "12dp"))
    text.bind(text=lambda _w, t: put(t))
    return text


class CardEditorScreen(KioskScreen):
    """One card of the game's card form; remembered for later games, or entered into the game in play."""

    card = DictProperty({})
    title = StringProperty("")

    def open(self, game: str, form: JSON, card: JSON, in_game_side: int | None = None) -> None:
        """Edit ``card``; with ``in_game_side`` the card is a member of the game in play (from the
        Table screen) and saving also sends the form's ``enter_command`` with what changed."""
        self.game, self.form = game, form
        key = form.get("key", "name")
        self.card = {k: dict(v) if isinstance(v, dict) else v for k, v in card.items()}
        self.shown = {k: dict(v) if isinstance(v, dict) else v for k, v in card.items()}
        self.in_game_side = in_game_side
        self.back_to = "setup" if in_game_side is None else "table"
        self.title = f"{form.get('title', 'Card')}: {card.get(key)}"
        self.draw()
        self.ids.fields.parent.scroll_y = 1  # every card opens at its top, not where the last one was

    def draw(self) -> None:
        fields = self.ids.fields
        fields.clear_widgets()
        for field in self.form.get("fields", []):
            key = str(field["key"])
            value = cards.get_field(self.card, key)
            fields.add_widget(WrapLabel(text=str(field.get("label", key))))
            if self.in_game_side is not None and not field.get("in_game", True):
                fields.add_widget(WrapLabel(text=_value_text(value, field) + " (chosen at setup)"))
            elif self._fixed(value):
                shown = " ".join(str(v) for v in value) if isinstance(value, list) else (
                    ("yes" if value else "no") if isinstance(value, bool) else _value_text(value, field))
                fields.add_widget(WrapLabel(text=f"{shown} (on the card)"))
            else:
                fields.add_widget(field_editor(field, lambda k=key: cards.get_field(self.card, k),
                                               lambda v, k=key: cards.set_field(self.card, k, v),
                                               group=f"card-{key}", optional=True))

    def _fixed(self, value: Any) -> bool:
        """In a game, what the card already shows is fixed (the rules only take what is missing)."""
        return self.in_game_side is not None and value not in (None, "", [])

    def save(self, app: Any) -> None:
        key = self.form.get("key", "name")
        cards.save_card(self.game, dict(self.card), self.form)
        if self.in_game_side is not None:
            entered = self.changes()
            command = self.form.get("enter_command") or {}
            if entered and command.get("type"):
                app.send({"type": command["type"], command.get("name_key", key): self.card[key],
                          command.get("side_key", "side"): self.in_game_side, **entered})
            self.manager.current = "table"
            return
        app.say(f"Saved {self.card[key]}'s card; it is used in every game from now on.")
        setup = self.manager.get_screen("setup")
        setup.card_saved()
        self.manager.current = "setup"

    def changes(self) -> JSON:
        """What the table changed on the card, nested as the form's keys say (fields not enterable in
        a game are left out)."""
        entered: JSON = {}
        for field in self.form.get("fields", []):
            key = str(field["key"])
            value = cards.get_field(self.card, key)
            if field.get("in_game", True) and value is not None and value != cards.get_field(self.shown, key):
                cards.set_field(entered, key, value)
        return entered

    def cancel(self) -> None:
        self.manager.current = self.back_to
