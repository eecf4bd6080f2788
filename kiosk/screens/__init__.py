"""One module per screen; importing this package registers every screen class for the kv files."""

from __future__ import annotations

from kiosk import simpanel, widgets  # noqa: F401 - registers the widget classes the kv files use
from kiosk.screens.base import KioskScreen
from kiosk.screens.between import BetweenScreen
from kiosk.screens.gameend import GameEndScreen
from kiosk.screens.history import HistoryScreen
from kiosk.screens.home import HomeScreen
from kiosk.screens.resolve import ResolveScreen
from kiosk.screens.settings import SettingsScreen
from kiosk.screens.setup import CardEditorScreen, SetupScreen
from kiosk.screens.table import TableScreen

SCREEN_CLASSES: tuple[type[KioskScreen], ...] = (
    HomeScreen, SetupScreen, CardEditorScreen, TableScreen, ResolveScreen, BetweenScreen, GameEndScreen,
    HistoryScreen, SettingsScreen)
