"""The command form on screen: a full-window view over the play screen with one row per declared
field (``kiosk.command_form`` holds the words and the command it sends), a number keypad beside
the fields, and Cancel / Send. Choices are buttons; a number is a tap on its field and its digits
(a stat in at most 3 taps); an object's parts open under its heading.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import DictProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from kiosk import command_form as words
from kiosk import present
from kiosk.widgets import BigButton, BigToggle, Heading, WrapLabel

JSON = dict[str, Any]


class CommandForm(ModalView):
    """One command's form. ``values`` maps a field's dotted key to what was entered."""

    app = ObjectProperty(None)
    spec = DictProperty({})
    prompt = DictProperty({})
    error_text = StringProperty("")
    active = StringProperty("")  # the number field the keypad types into

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background_color=(0.05, 0.07, 0.09, 1),
                         **kwargs)
        self.values: JSON = {}
        self.typed: dict[str, str] = {}
        self.expanded: set[str] = set()
        self.number_buttons: dict[str, BigButton] = {}
        side = self.prompt.get("side")
        fields = {f["name"]: f for f in self.spec.get("fields") or [] if isinstance(f, dict)}
        if isinstance(side, int) and fields.get("side", {}).get("kind") == "side":
            self.values["side"] = side  # the acting side plays first; a tap picks the other
        numbers = [key for key, field, depth in words.flat_fields(self.spec)
                   if field.get("kind") in words.NUMBER_KINDS and depth == 0]
        self.active = numbers[0] if numbers else ""
        self._build()

    # -- building --------------------------------------------------------------------------------------

    def _build(self) -> None:
        root = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
        title = Heading(text=words.form_title(self.spec))
        root.add_widget(title)
        if self.spec.get("summary"):
            root.add_widget(WrapLabel(text=str(self.spec["summary"]).replace("`", ""), font_size="15sp",
                                      color=(0.75, 0.8, 0.86, 1), max_lines=3, shorten=True,
                                      shorten_from="right"))
        # What is picked so far, whatever the fields' scroll shows (a picked card may scroll away).
        self.entered_label = WrapLabel(text="", font_size="17sp", color=(1, 0.72, 0.12, 1), max_lines=2,
                                       shorten=True, shorten_from="right")
        root.add_widget(self.entered_label)
        self.error_label = WrapLabel(text="", font_size="17sp", color=(1, 0.55, 0.5, 1))
        self.bind(error_text=lambda _f, text: setattr(self.error_label, "text", text))
        root.add_widget(self.error_label)
        body = BoxLayout(spacing=dp(8))
        scroll = ScrollView(do_scroll_x=False)
        self.rows = GridLayout(cols=1, size_hint_y=None, spacing=dp(6))
        self.rows.bind(minimum_height=self.rows.setter("height"))
        scroll.add_widget(self.rows)
        body.add_widget(scroll)
        keypad = self._keypad()
        # A form without a number has no keypad: the fields take the whole width.
        if any(f.get("kind") in words.NUMBER_KINDS for _k, f, _d in words.flat_fields(self.spec)):
            body.add_widget(keypad)
        self.body = body
        self.bind(size=self._orient)
        root.add_widget(body)
        bar = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(8))
        cancel = BigButton(text="Cancel", tone="quiet")
        cancel.bind(on_press=lambda _b: self.dismiss())
        send = BigButton(text="Send", tone="good")
        send.bind(on_press=lambda _b: self.submit())
        bar.add_widget(cancel)
        bar.add_widget(send)
        root.add_widget(bar)
        self.add_widget(root)
        self._orient()
        self.fill_rows()

    def _orient(self, *_args: Any) -> None:
        """Keypad beside the fields on a wide screen, under them on a tall one."""
        wide = self.width >= dp(560) or self.width <= 100  # not laid out yet: assume the landscape kiosk
        self.body.orientation = "horizontal" if wide else "vertical"
        self.keypad.size_hint = (None, 1) if wide else (1, None)
        self.keypad.width = dp(250)
        self.keypad.height = dp(4 * 58 + 40)

    def _keypad(self) -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint=(None, 1), width=dp(250), spacing=dp(4))
        self.keypad_label = WrapLabel(text="", font_size="17sp", color=(1, 0.72, 0.12, 1))
        box.add_widget(self.keypad_label)
        grid = GridLayout(cols=3, spacing=dp(4))
        for key in words.KEYPAD:
            button = BigButton(text="+/-" if key == "-" else key, tone="quiet", font_size="22sp",
                               size_hint_y=1)
            button.keypad_key = key
            button.bind(on_press=lambda _b, k=key: self.type_key(k))
            grid.add_widget(button)
        box.add_widget(grid)
        self.keypad = box
        return box

    def _side_names(self) -> list[str]:
        return present.side_names(getattr(self.app, "snapshot", None))

    def show_entered(self) -> None:
        self.entered_label.text = words.entered_words(self.spec, self.values, self._side_names())

    def fill_rows(self) -> None:
        """(Re)draw every field's row from ``values`` (after a change that alters what is offered)."""
        self.show_entered()
        rows = self.rows
        rows.clear_widgets()
        self.number_buttons = {}
        self.toggles: dict[str, list[Any]] = {}
        view = (getattr(self.app, "snapshot", None) or {}).get("view") or {}
        names = self._side_names()
        for key, field, depth in words.flat_fields(self.spec):
            parent = key.rpartition(".")[0]
            if parent and not all(p in self.expanded for p in _ancestors(parent)):
                continue
            label = words.words(str(field["name"])) + (" *" if field.get("required") and not depth else "")
            indent = dp(24) * depth
            kind = field.get("kind")
            if field.get("parts"):
                opened = key in self.expanded
                entered = [k for k in self.values if k.startswith(key + ".")]
                head = BigButton(text=f"{label} {'(close)' if opened else '(open)'}"
                                      + (f": {len(entered)} entered" if entered else ""), tone="quiet")
                head.bind(on_press=lambda _b, k=key: self.toggle_open(k))
                rows.add_widget(_indented(head, indent))
                continue
            if kind in words.NUMBER_KINDS:
                button = BigButton(text="", tone="primary" if key == self.active else "normal")
                button.field_key = key
                self.number_buttons[key] = button
                self._number_text(key, field)
                button.bind(on_press=lambda _b, k=key: self.activate(k))
                rows.add_widget(_indented(button, indent))
                continue
            if kind == "bool":
                toggle = BigToggle(text=f"{label}: {'yes' if self.values.get(key) else 'no'}",
                                   state="down" if self.values.get(key) else "normal")
                toggle.bind(on_press=lambda t, k=key, lab=label: self.set_bool(k, t, lab))
                rows.add_widget(_indented(toggle, indent))
                continue
            offered = list(range(len(names))) if kind == "side" else words.field_options(field, view,
                                                                                          self.values)
            hint = f"{label}: {field['summary']}" if field.get("summary") and depth else label
            rows.add_widget(_indented(WrapLabel(text=hint, font_size="17sp", color=(0.85, 0.88, 0.92, 1)),
                                      indent))
            if offered:
                rows.add_widget(_indented(self._choice_buttons(key, field, offered, names), indent))
            else:
                text = TextInput(text=str(self.values.get(key) or ""), multiline=False, font_size="20sp",
                                 size_hint_y=None, height=dp(56))
                text.bind(text=lambda _t, value, k=key: self.values.__setitem__(k, value.strip()))
                rows.add_widget(_indented(text, indent))

    def _choice_buttons(self, key: str, field: JSON, offered: list[Any], names: list[str]) -> GridLayout:
        grid = GridLayout(cols=2 if len(offered) > 3 else max(1, len(offered)), size_hint_y=None,
                          spacing=dp(4))
        grid.bind(minimum_height=grid.setter("height"))
        chosen = self.values.get(key)
        self.toggles[key] = []
        for value in offered:
            picked = value in chosen if isinstance(chosen, list) else value == chosen
            text = words.shown_value(field, value, names)
            toggle = BigToggle(text=text, state="down" if picked else "normal", font_size="18sp")
            toggle.choice_value = value
            toggle.bind(on_press=lambda _t, v=value: self.pick(key, field, v))
            self.toggles[key].append(toggle)
            grid.add_widget(toggle)
        return grid

    # -- what a tap does -------------------------------------------------------------------------------

    def toggle_open(self, key: str) -> None:
        self.expanded ^= {key}
        self.fill_rows()

    def activate(self, key: str) -> None:
        self.active = key
        for other, button in self.number_buttons.items():
            button.tone = "primary" if other == key else "normal"
        self._number_text(key, None)

    def type_key(self, key: str) -> None:
        if not self.active:
            return
        text = words.typed_number(self.typed.get(self.active, ""), key)
        self.typed[self.active] = text
        value = words.number_value(text)
        if value is None:
            self.values.pop(self.active, None)
        else:
            self.values[self.active] = value
        self._number_text(self.active, None)
        self.show_entered()

    def _number_text(self, key: str, field: JSON | None) -> None:
        field = field or next((f for k, f, _d in words.flat_fields(self.spec) if k == key), {})
        button = self.number_buttons.get(key)
        span = ""
        if field.get("min") is not None and field.get("max") is not None:
            span = f" ({field['min']} to {field['max']})"
        shown = self.typed.get(key) or "-"
        label = words.words(str(field.get("name", key)))
        if button is not None:
            button.text = f"{label}: {shown}"
        if key == self.active:
            self.keypad_label.text = f"{label}{span}: {shown}"

    def set_bool(self, key: str, toggle: Any, label: str) -> None:
        on = toggle.state == "down"
        if on:
            self.values[key] = True
        else:
            self.values.pop(key, None)
        toggle.text = f"{label}: {'yes' if on else 'no'}"
        self.show_entered()

    def pick(self, key: str, field: JSON, value: Any) -> None:
        if field.get("multiple"):
            chosen = list(self.values.get(key) or [])
            chosen = [v for v in chosen if v != value] if value in chosen else chosen + [value]
            self.values[key] = chosen
        else:
            self.values[key] = None if self.values.get(key) == value else value
        chosen = self.values[key]
        self.show_entered()
        if any("{" + key + "}" in str(f.get("options") or "") for _k, f, _d in words.flat_fields(self.spec)):
            self.fill_rows()  # what other fields offer depends on this one (that side's cards)
            return
        for toggle in self.toggles.get(key, []):
            value = toggle.choice_value
            picked = value in chosen if isinstance(chosen, list) else value == chosen
            toggle.state = "down" if picked else "normal"

    def submit(self) -> None:
        missing = words.missing_fields(self.spec, self.values)
        if missing:
            self.error_text = "Pick " + " and ".join(words.words(m).lower() for m in missing) + " first"
            return
        command = words.form_command(self.spec, self.values)
        self.error_text = ""
        self.app.conn.request({"op": "command", "command": command}, self._answered)

    def _answered(self, reply: JSON) -> None:
        if reply.get("ok"):
            self.dismiss()
            self.app.say("")
            self.app._answered(reply)
            return
        self.error_text = f"Refused: {reply.get('error', 'refused')}"


def _ancestors(key: str) -> list[str]:
    steps = key.split(".")
    return [".".join(steps[:i]) for i in range(1, len(steps) + 1)]


def _indented(widget: Any, indent: float) -> Any:
    if not indent:
        return widget
    row = BoxLayout(size_hint_y=None, padding=(indent, 0, 0, 0))
    widget.bind(height=lambda w, h: setattr(row, "height", h))
    row.height = widget.height
    row.add_widget(widget)
    return row


class CommandChooser(ModalView):
    """The plays that share one "More plays" button: one button each, opening that play's form."""

    def __init__(self, app: Any, specs: list[JSON], prompt: JSON, opened: Any, **kwargs: Any) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background_color=(0.05, 0.07, 0.09, 1),
                         **kwargs)
        root = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
        root.add_widget(Heading(text="More plays"))
        scroll = ScrollView(do_scroll_x=False)
        grid = GridLayout(cols=2, size_hint_y=None, spacing=dp(6))
        grid.bind(minimum_height=grid.setter("height"))
        for spec in specs:
            button = BigButton(text=f"{words.form_title(spec)}...", tone="quiet")
            button.bind(on_press=lambda _b, s=spec: self._pick(app, s, prompt, opened))
            grid.add_widget(button)
        scroll.add_widget(grid)
        root.add_widget(scroll)
        cancel = BigButton(text="Cancel", tone="quiet")
        cancel.bind(on_press=lambda _b: self.dismiss())
        root.add_widget(cancel)
        self.add_widget(root)

    def _pick(self, app: Any, spec: JSON, prompt: JSON, opened: Any) -> None:
        self.dismiss()
        opened(words.open_form(app, spec, prompt))
