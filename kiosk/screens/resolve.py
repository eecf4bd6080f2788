"""Resolving an action: the prompt, its choices as big buttons, the target breakdown with the chance
of success and expected points, the roll's outcomes, and a pad with exactly the faces of the die the
table awaits (success faces green). A prompt may also ask for sealed values (a masked pad per side)
or a race (one big button per side; the first press wins)."""

from __future__ import annotations

import time
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.protocol import RACE_GRACE_S, race_command
from kiosk import command_form, parts, present
from kiosk.banner import ActingBanner  # noqa: F401 - registers the banner for resolve.kv
from kiosk.screens.base import KioskScreen
from kiosk.widgets import BigButton, WrapLabel

JSON = dict[str, Any]
PIN_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "enter")


class ResolveScreen(KioskScreen):
    """The play screen: what to do now and, for a roll, which faces win and how likely it is."""

    prompt_text = StringProperty("")
    target_text = StringProperty("")
    chance_text = StringProperty("")
    outcomes_text = StringProperty("")
    message_text = StringProperty("")
    die_text = StringProperty("")
    words_share = NumericProperty(0.45)  # landscape: the words column's share (less beside a grid)
    pad_height = NumericProperty(0)  # portrait: the pad's share of the screen, sized for its rows

    def show(self, app: Any) -> None:
        snapshot = app.snapshot or {}
        prompt = snapshot.get("prompt") or {}
        view = snapshot.get("view") or {}
        info = app.info_for()
        self.ids.acting.show(app, snapshot)
        shown_key = (prompt.get("text"), tuple(c.get("label") for c in prompt.get("choices") or ()))
        if shown_key != getattr(self, "_shown_key", None):
            # A new prompt is read from its first word and its choices from the first (under the
            # words while a die is awaited, else beside them); the same prompt sent again (after a
            # refusal, a status push) stays where the player scrolled it.
            self._shown_key = shown_key
            self.ids.words_scroll.scroll_y = 1
            self.ids.choices_scroll.scroll_y = 1
        self.prompt_text = str(prompt.get("text") or "")
        target = prompt.get("target")
        self.target_text = present.target_breakdown(target) if target else ""
        has_chance = target or prompt.get("p_success") is not None
        self.chance_text = present.chance_line(prompt, info) if has_chance else ""
        self.outcomes_text = "\n".join(present.outcome_lines(prompt))
        missing = [m for m in prompt.get("missing_cards") or [] if isinstance(m, dict)]
        # Plays the rules can't offer for a value not on a card: say so, with a button to that card.
        lines = [str(view.get("message") or "")] + [str(m.get("text") or "") for m in missing]
        self.message_text = "\n".join(line for line in lines if line)
        faces = present.die_faces(prompt, info)
        die = present.die_entry(prompt, info)
        self.die_text = (f"Roll the {die.get('title') or die.get('name')} and tap its face "
                         "(or use the tray or the encoder)") if faces else ""
        self._place_choices(bool(faces), isinstance(prompt.get("race"), dict))
        pad = self._parts["die_pad"]
        pad.clear_widgets()
        pad.cols = 5 if len(faces) > 8 else 4 if len(faces) > 6 else 3
        rows = -(-len(faces) // pad.cols)
        self.pad_height = rows * dp(74) + dp(44)
        labels = die.get("face_labels") or {}
        for face in faces:
            label = present.face_label(face, labels)
            gives = present.face_mark_label(prompt, face)
            gives = "" if gives == label else gives  # a mark that only repeats the face says nothing
            button = BigButton(text=f"{label}\n{gives}" if gives else label, tone="normal",
                               font_size="22sp" if isinstance(face, int) and not gives else "18sp",
                               size_hint_y=1)  # the rows share the pad's fixed height
            button.face = face
            button.choice_label = label
            # The faces that succeed are green: the table sees the odds on the pad itself.
            if present.face_success(prompt, info, face):
                button.tone = "good"
            # On press, as for the choices (see KioskScreen.fill_buttons): no 0.2 s wait per roll.
            button.bind(on_press=lambda _b, f=face: app.roll(f))
            pad.add_widget(button)
        self.fill_special(app, prompt)
        self.fill_choices(app, self.ids.matrix, self.ids.choices, prompt, view)
        self.fill_forms(app, prompt, info)
        self.fill_missing(app, missing, info, view)
        # A grid of choices (action by spot, each cell with its odds) needs the width more than the words.
        self.words_share = 0.3 if self.ids.matrix.children and not faces else 0.45

    def _place_choices(self, die_awaited: bool, race: bool = False) -> None:
        """The choices go under the words while the die pad holds its place, else where the pad is;
        a race's pads under them, never scrolled."""
        if not hasattr(self, "_parts"):  # strong references: ``ids`` only holds weak ones
            names = ("choices_box", "choices_scroll", "die_caption", "die_pad", "action_side", "words",
                     "choices_home", "race_pads")
            self._parts = {name: self.ids[name].__self__ for name in names}
        part = self._parts
        box = part["choices_box"]
        home = part["words"] if die_awaited else part["choices_home"]
        if box.parent is not home:
            box.parent.remove_widget(box)
            # Under the prompt, the target and the chance; above the outcomes and the message.
            home.add_widget(box, index=2 if die_awaited else 0)
        side = part["action_side"]
        wanted = [part["die_caption"], part["die_pad"]] if die_awaited else [part["choices_scroll"]]
        wanted += [part["race_pads"]] if race else []
        if side.children[::-1] != wanted:
            side.clear_widgets()
            for widget in wanted:
                side.add_widget(widget)

    # -- commands with fields of their own -------------------------------------------------------------

    def fill_forms(self, app: Any, prompt: JSON, info: JSON) -> None:
        """A button per command the prompt allows that no choice sends (a strategy card): it opens
        the command's form. An open form whose command the prompt no longer allows closes."""
        offered = command_form.open_commands(prompt, info)
        form = getattr(self, "open_form", None)
        if form is not None and form.get_parent_window() is not None and \
                form.spec.get("type") not in {s.get("type") for s in offered}:
            form.dismiss()
        if len(offered) > command_form.FEW:
            button = BigButton(text=f"More plays ({len(offered)})...", tone="quiet")
            button.bind(on_press=lambda _b: command_form.open_chooser(app, offered, prompt, self._opened))
            self.ids.choices.add_widget(button)
            return
        for spec in offered:
            button = BigButton(text=f"{command_form.form_title(spec)}...", tone="quiet")
            button.bind(on_press=lambda _b, s=spec: self._opened(command_form.open_form(app, s, prompt)))
            self.ids.choices.add_widget(button)

    def fill_missing(self, app: Any, missing: list[JSON], info: JSON, view: JSON) -> None:
        """A button per card the prompt says lacks a value: it opens that card's editor in play."""
        for entry in missing:
            button = BigButton(text=f"Enter {entry.get('card')}'s card", tone="quiet")
            button.bind(on_press=lambda _b, e=entry: self.open_card(app, e, info, view))
            self.ids.choices.add_widget(button)

    def open_card(self, app: Any, entry: JSON, info: JSON, view: JSON) -> None:
        """The card editor on ``entry``'s member, found through the panel whose column opens cards."""
        key = (info.get("card_form") or {}).get("key", "name")
        side = entry.get("side")
        for panel in info.get("panels", []):
            if not any(c.get("opens_card") for c in panel.get("columns", [])):
                continue
            for found in parts.rows_at(view, str(panel.get("source", "")), side):
                if found["row"].get(key) == entry.get("card"):
                    app.screens.get_screen("table").edit_card(app, info, side, found["row"])
                    return
        app.say(f"No card named {entry.get('card')} in play")

    def _opened(self, form: Any) -> None:
        self.open_form = form

    # -- sealed and race inputs -----------------------------------------------------------------------

    def fill_special(self, app: Any, prompt: JSON) -> None:
        box = self.ids.special
        key = (id(app.snapshot), bool(prompt.get("sealed")), bool(prompt.get("race")))
        if getattr(self, "_special_for", None) == key:
            return
        self._special_for = key
        box.clear_widgets()
        pads = self._parts["race_pads"]
        pads.clear_widgets()
        names = present.side_names(app.snapshot)
        sealed, race = prompt.get("sealed"), prompt.get("race")
        command = str((sealed or race or {}).get("command") or (prompt.get("commands") or [""])[0])
        if isinstance(sealed, dict):
            for side in sealed.get("sides") or []:
                who = names[side] if isinstance(side, int) and 0 <= side < len(names) else f"Side {side}"
                if side in (sealed.get("entered") or []):
                    box.add_widget(WrapLabel(text=f"{who}: entered (hidden until all are in)"))
                    continue
                limits = sealed.get("max_by_side") or {}
                high = limits.get(str(side), limits.get(side))
                span = f" ({sealed.get('min', 0)} to {high})" if high is not None else ""
                what = sealed.get("field", "amount")
                box.add_widget(WrapLabel(text=f"{who}: enter your {what} secretly{span}"))
                box.add_widget(self._pin_pad(app, command, side, str(sealed.get("field", "amount"))))
        if getattr(self, "_tempo_event", None) is not None:
            self._tempo_event.cancel()
            self._tempo_event = None
        if isinstance(race, dict):
            box.add_widget(WrapLabel(text=str(race.get("label") or "Race: first to press wins")))
            if race.get("tempo_ms"):
                every = int(race["tempo_ms"]) / 1000
                beat = WrapLabel(text=f"roll together on each flash (every {every:g} s)",
                                 font_size="22sp")
                box.add_widget(beat)
                self._beat(race, beat)
            # The pads themselves sit outside the scroll view (see resolve.kv): a finger on a pad is
            # its press at once, and two fingers down together are two presses.
            state: JSON = {"presses": {}, "sent": False}
            for side in race.get("sides") or []:
                who = names[side] if isinstance(side, int) and 0 <= side < len(names) else f"Side {side}"
                button = BigButton(text=f"{who}: press!", tone="primary", font_size="24sp")
                button.bind(on_press=lambda b, s=side: self._race_press(app, command, race, state, s, b))
                pads.add_widget(button)

    def _pin_pad(self, app: Any, command: str, side: int, field: str) -> Any:
        """A masked number pad: what is typed shows as dots; ``enter`` sends it for ``side``."""
        from kivy.uix.gridlayout import GridLayout

        grid = GridLayout(cols=3, size_hint_y=None, spacing="4dp")
        grid.bind(minimum_height=grid.setter("height"))
        shown = WrapLabel(text="(nothing typed)", font_size="20sp")
        typed: list[str] = []

        def key(k: str) -> None:
            if k == "clear":
                typed.clear()
            elif k == "enter":
                if typed:
                    app.send({"type": command, "side": side, field: int("".join(typed))})
                typed.clear()
            elif len(typed) < 4:
                typed.append(k)
            shown.text = "\u25cf" * len(typed) if typed else "(nothing typed)"

        for k in PIN_KEYS:
            button = BigButton(text=k, tone="good" if k == "enter" else "quiet", font_size="20sp")
            button.bind(on_press=lambda _b, k=k: key(k))
            grid.add_widget(button)
        wrapper = BoxLayout(orientation="vertical", size_hint_y=None, spacing="4dp")
        wrapper.bind(minimum_height=wrapper.setter("height"))
        wrapper.add_widget(shown)
        wrapper.add_widget(grid)
        return wrapper

    def _race_press(self, app: Any, command: str, race: JSON, state: JSON, side: int, button: Any) -> None:
        """Date the press by its touch event (``time_start``, stamped when Kivy read the touch, not
        when this callback ran); once every side pressed, or the race window closed, send the race as
        the buttons would (``companion.controls.race_command``: order, press times, tie)."""
        presses: dict[int, float] = state["presses"]
        if side in presses or state["sent"]:
            return
        touch = getattr(button, "last_touch", None)
        presses[side] = float(getattr(touch, "time_start", 0.0) or time.time())
        button.text = f"{button.text.split(':')[0]}: pressed"

        def send(_dt: float = 0) -> None:
            if not state["sent"]:
                state["sent"] = True
                app.send(race_command(race, sorted(presses.items(), key=lambda p: p[1])))

        if len(presses) == len(race.get("sides") or []):
            send()
        elif len(presses) == 1:
            Clock.schedule_once(send, int(race.get("window_ms", 60)) / 1000 + RACE_GRACE_S)

    def _beat(self, race: JSON, label: Any) -> None:
        """A race with a tempo: the label flashes on each beat so the sides roll in step."""
        tempo = race.get("tempo_ms")
        if not tempo:
            return
        beats = {"n": 0}

        def flash(_dt: float) -> None:
            beats["n"] += 1
            label.text = f"ROLL! ({beats['n']})"
            label.color = (1, 0.85, 0.1, 1)
            Clock.schedule_once(lambda _d: setattr(label, "color", (1, 1, 1, 0.35)), min(0.25, tempo / 2000))

        self._tempo_event = Clock.schedule_interval(flash, int(tempo) / 1000)
