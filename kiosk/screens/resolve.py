"""Resolving an action: the prompt, its choices as big buttons, the target breakdown with the chance
of success and expected points, and a pad with exactly the faces of the die the table awaits."""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty

from kiosk import present
from kiosk.screens.base import KioskScreen
from kiosk.widgets import BigButton


class ResolveScreen(KioskScreen):
    """The play screen: what to do now and, for a roll, which number wins and how likely it is."""

    prompt_text = StringProperty("")
    target_text = StringProperty("")
    chance_text = StringProperty("")
    message_text = StringProperty("")
    die_text = StringProperty("")

    def show(self, app: Any) -> None:
        snapshot = app.snapshot or {}
        prompt = snapshot.get("prompt") or {}
        view = snapshot.get("view") or {}
        self.prompt_text = str(prompt.get("text") or "")
        target = prompt.get("target")
        self.target_text = present.target_breakdown(target) if target else ""
        has_chance = target or prompt.get("p_success") is not None
        self.chance_text = present.chance_line(prompt) if has_chance else ""
        self.message_text = str(view.get("message") or "")
        faces = present.die_faces(prompt)
        die = prompt.get("die")
        self.die_text = (f"Roll the {present.DIE_TITLES.get(die, die)}: tap the face it shows "
                         "(or use the dice tray or the encoder)") if faces else ""
        pad = self.ids.die_pad
        pad.clear_widgets()
        pad.cols = 5 if len(faces) > 8 else 3
        for face in faces:
            button = BigButton(text=present.face_label(face), tone="normal",
                               font_size="22sp" if isinstance(face, int) else "18sp")
            button.face = face
            if target and isinstance(face, int):
                # The faces that succeed are green: the table sees the odds on the pad itself.
                button.tone = "good" if face <= int(target.get("target", 0)) else "normal"
            # On press, as for the choices (see KioskScreen.fill_buttons): no 0.2 s wait per roll.
            button.bind(on_press=lambda _b, f=face: app.roll(f))
            pad.add_widget(button)
        self.fill_choices(app, self.ids.matrix, self.ids.choices, prompt, view)
