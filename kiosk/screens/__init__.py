"""The kiosk's screens, one module each, built the first time they are shown.

Only the screen the kiosk opens on is built before its first frame: ``KioskScreens.get_screen``
(which setting ``current`` calls too) imports a screen's module, loads its ``kv/<module>.kv`` and
builds it on first use, and once the table's state is on the screen the app has the others built one
a frame (``build_the_rest``), so a tap later finds its screen ready as before. Building all nine
before the first frame cost a good part of the kiosk's start (issue 15).
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.uix.screenmanager import ScreenManager, ScreenManagerException

from kiosk import widgets  # noqa: F401 - registers the widget classes the kv files use

KV_DIR = Path(__file__).resolve().parents[1] / "kv"

# Screen name -> (module in kiosk.screens, whose rules are kv/<module>.kv; the screen's class).
SCREENS: dict[str, tuple[str, str]] = {
    "home": ("home", "HomeScreen"),
    "setup": ("setup", "SetupScreen"),
    "card": ("setup", "CardEditorScreen"),
    "table": ("table", "TableScreen"),
    "resolve": ("resolve", "ResolveScreen"),
    "between": ("between", "BetweenScreen"),
    "gameend": ("gameend", "GameEndScreen"),
    "history": ("history", "HistoryScreen"),
    "settings": ("settings", "SettingsScreen"),
}

# The empty screen the kiosk shows until the table's state says where to open (kiosk/app.py).
START_SCREEN = "start"

_loaded_kv: set[str] = set()


def screen_kv_files() -> set[str]:
    """The kv files that belong to a screen module (loaded with it, not at start)."""
    return {f"{module}.kv" for module, _ in SCREENS.values()}


def screen_class(name: str) -> Any:
    """The class of screen ``name``, its module imported and its rules loaded."""
    module, class_name = SCREENS[name]
    found = getattr(import_module(f"kiosk.screens.{module}"), class_name)
    if module not in _loaded_kv:
        _loaded_kv.add(module)
        Builder.load_file(str(KV_DIR / f"{module}.kv"))
    return found


class KioskScreens(ScreenManager):
    """A ScreenManager that builds each of ``SCREENS`` when it is first asked for."""

    def get_screen(self, name: str) -> Any:
        try:
            return super().get_screen(name)
        except ScreenManagerException:
            if name not in SCREENS:
                raise
        screen = screen_class(name)(name=name)
        self.add_widget(screen)
        return screen

    def has_screen(self, name: str) -> bool:
        return name in SCREENS or super().has_screen(name)

    def build_the_rest(self, *_args: Any) -> None:
        """Build the screens not built yet, one a frame (each costs a frame's worth of work or so)."""
        built = {screen.name for screen in self.screens}
        waiting = [name for name in SCREENS if name not in built]
        if waiting:
            self.get_screen(waiting[0])
            Clock.schedule_once(self.build_the_rest, 0)
