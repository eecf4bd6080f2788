"""Home: start a new game of a game the companion knows, or resume an unfinished one."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kivy.properties import StringProperty

from kiosk.screens.base import KioskScreen


def _when(updated_at: str) -> str:
    """The store's UTC time as the table's local time, to the minute ("2026-11-29 15:04")."""
    try:
        moment = datetime.fromisoformat(updated_at)
    except ValueError:
        return updated_at[:16].replace("T", " ") if updated_at else "?"
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


class HomeScreen(KioskScreen):
    """New game (one button per known game) and the unfinished games with score, period, last played."""

    resume_title = StringProperty("")

    def show(self, app: Any) -> None:
        self.fill_buttons(self.ids.new_games,
                          [(f"New game: {g.get('title', g.get('name'))}",
                            lambda g=g: self.choose(app, g["name"])) for g in app.known_games])
        unfinished = [g for g in app.saved_games if g.get("status") == "playing"]
        entries = []
        for g in unfinished[:6]:
            s = g.get("summary") or {}
            names, score = s.get("sides", []), s.get("score", [])
            line = " - ".join(f"{n} {p}" for n, p in zip(names, score, strict=False))
            on_table = app.snapshot is not None and app.snapshot.get("game_id") == g.get("id")
            verb = "Back to" if on_table else "Resume"
            entries.append((f"{verb} #{g.get('id')}: {line}  {s.get('period', '')} {s.get('clock', '')}"
                            f"\nlast played {_when(g.get('updated_at', ''))}",
                            lambda g=g: app.resume(int(g["id"]))))
        self.fill_buttons(self.ids.resume_list, entries, tone="normal", font_size="18sp")
        self.resume_title = "Unfinished games" if unfinished else "No unfinished games"

    def choose(self, app: Any, game: str) -> None:
        setup = app.screens.get_screen("setup")
        setup.game = game
        app.go("setup")
