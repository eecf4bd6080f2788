"""A yes/no question over the screen, asked before anything is put away (abandon, delete).

Its looks are in ``kv/confirm.kv``. Nothing happens until a button is tapped: a tap outside the
question does not dismiss it, so a stray touch on a crowded table never confirms nor cancels; a
desktop's Escape key is "cancel".

    ConfirmView.ask(title="Delete game #3 for good?", message="...", confirm="Delete for good",
                    cancel="Keep it", on_yes=lambda: ...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView


class ConfirmView(ModalView):
    """The question, the danger (confirm) button and the way back (cancel)."""

    title = StringProperty("")
    message = StringProperty("")
    confirm_text = StringProperty("Yes")
    cancel_text = StringProperty("Cancel")
    when_yes = ObjectProperty(None, allownone=True)  # not "on_yes": Kivy binds on_* arguments as events

    @classmethod
    def ask(cls, *, title: str, message: str, confirm: str, cancel: str,
            on_yes: Callable[[], Any]) -> ConfirmView:
        view = cls(title=title, message=message, confirm_text=confirm, cancel_text=cancel, when_yes=on_yes)
        view.open(animation=False)
        return view

    def on_open(self) -> None:
        from kivy.core.window import Window

        Window.bind(on_keyboard=self._escape)

    def on_dismiss(self) -> None:
        from kivy.core.window import Window

        Window.unbind(on_keyboard=self._escape)

    def _escape(self, _window: Any, key: int, *_args: Any) -> bool:
        # Escape answers the question with its safe side, and goes no further (it would close the window).
        if key != 27:
            return False
        self.answer(False)
        return True

    def answer(self, yes: bool) -> None:
        self.dismiss(animation=False)
        if yes and self.when_yes is not None:
            self.when_yes()
