"""Home: start a new game, resume an unfinished one, open a finished one; abandon or delete by touch.

Every saved game the service lists (its ``games`` request) is a row: the game's button (resume or
open), then ``Abandon #N`` (unfinished games: kept with its whole log, no longer resumed at start)
and ``Delete #N`` (the game and its log, for good). Both ask first (``kiosk.confirm``) and then send
the service's ``abandon`` / ``delete`` request; nothing is put away without the player's yes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.confirm import ConfirmView
from kiosk.screens.base import KioskScreen
from kiosk.widgets import BigButton

JSON = dict[str, Any]
UNFINISHED_SHOWN = 6
ENDED_SHOWN = 8


def _when(updated_at: str) -> str:
    """The store's UTC time as the table's local time, to the minute ("2026-11-29 15:04")."""
    try:
        moment = datetime.fromisoformat(updated_at)
    except ValueError:
        return updated_at[:16].replace("T", " ") if updated_at else "?"
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def score_words(summary: JSON) -> str:
    """A saved game's score as its list shows it: "Lucy 2 - Karl 0", or a one-lead game's "Red +7".

    >>> score_words({"sides": ["Lucy", "Karl"], "score": [2, 0]})
    'Lucy 2 - Karl 0'
    >>> score_words({"sides": ["Red", "Blue"], "score": [None, None], "lead_text": "Red +7"})
    'Red +7'
    """
    if summary.get("lead_text"):
        return str(summary["lead_text"])
    names, score = summary.get("sides", []), summary.get("score", [])
    return " - ".join(f"{n} {p}" for n, p in zip(names, score, strict=False))


class HomeScreen(KioskScreen):
    """New game (one button per known game), the unfinished games and the finished or abandoned ones."""

    resume_title = StringProperty("")
    ended_title = StringProperty("")

    def show(self, app: Any) -> None:
        self.fill_buttons(self.ids.new_games,
                          [(f"New game: {g.get('title', g.get('name'))}",
                            lambda g=g: self.choose(app, g["name"])) for g in app.known_games])
        titles = {str(g.get("name")): str(g.get("title", g.get("name"))) for g in app.known_games}
        unfinished = [g for g in app.saved_games if g.get("status") == "playing"]
        ended = [g for g in app.saved_games if g.get("status") != "playing"]
        self._fill_rows(app, self.ids.resume_list, unfinished[:UNFINISHED_SHOWN], titles)
        self._fill_rows(app, self.ids.ended_list, ended[:ENDED_SHOWN], titles)
        self.resume_title = "Unfinished games" if unfinished else "No unfinished games"
        more = len(ended) - ENDED_SHOWN
        self.ended_title = ("Finished and abandoned games" + (f" (and {more} older: `companion games`)"
                                                              if more > 0 else "")) if ended else ""

    def _fill_rows(self, app: Any, container: Any, games: list[JSON], titles: dict[str, str]) -> None:
        container.clear_widgets()
        for game in games:
            row = BoxLayout(size_hint_y=None, spacing=dp(6))
            main = BigButton(text=self.game_label(app, game, titles), tone="normal", font_size="18sp")
            main.bind(on_press=lambda _b, g=game: app.resume(int(g["id"])))
            row.add_widget(main)
            actions = [("Delete", self.ask_delete)]
            if game.get("status") == "playing":
                actions.insert(0, ("Abandon", self.ask_abandon))
            for word, ask in actions:
                button = BigButton(text=f"{word} #{game.get('id')}", tone="quiet", font_size="16sp",
                                   size_hint_x=None, width=dp(124))
                button.bind(on_press=lambda _b, g=game, a=ask: a(app, g))
                row.add_widget(button)
            row.height = main.height
            main.bind(height=lambda _b, h, r=row: setattr(r, "height", h))
            container.add_widget(row)

    @staticmethod
    def game_label(app: Any, game: JSON, titles: dict[str, str]) -> str:
        s = game.get("summary") or {}
        on_table = game.get("on_table") or (app.snapshot is not None
                                            and app.snapshot.get("game_id") == game.get("id"))
        status = game.get("status")
        verb = ("Back to" if on_table else "Resume") if status == "playing" else "Open"
        label = f"{verb} #{game.get('id')}: {score_words(s)}  {s.get('period', '')} {s.get('clock', '')}"
        label = label.rstrip()
        ended = "" if status == "playing" else f"{status} · "
        title = titles.get(str(game.get("game")), str(game.get("game", "")))
        return f"{label}\n{ended}last played {_when(game.get('updated_at', ''))} · {title}"

    # -- abandon and delete, each after a yes -------------------------------------------------------------

    def ask_abandon(self, app: Any, game: JSON) -> None:
        summary = game.get("summary") or {}
        ConfirmView.ask(
            title=f"Abandon game #{game['id']}?",
            message=(f"{score_words(summary)}, {summary.get('period', '')} {summary.get('clock', '')}. "
                     "It moves to the finished and abandoned games with its whole log, and is no "
                     "longer resumed at start. You can still open it."),
            confirm="Abandon", cancel="Keep it",
            on_yes=lambda: app.conn.request({"op": "abandon", "game_id": int(game["id"])},
                                            lambda r: self._done(app, r, f"Game #{game['id']} abandoned; "
                                                                             "its log is kept.")))

    def ask_delete(self, app: Any, game: JSON) -> None:
        summary = game.get("summary") or {}
        ConfirmView.ask(
            title=f"Delete game #{game['id']} for good?",
            message=(f"{score_words(summary)}, {summary.get('period', '')} {summary.get('clock', '')}. "
                     "The game and its whole log are removed from the table's store; this cannot be "
                     "undone." + (" Abandon keeps the log instead." if game.get("status") == "playing"
                                  else "")),
            confirm="Delete for good", cancel="Keep it",
            on_yes=lambda: app.conn.request({"op": "delete", "game_id": int(game["id"]), "confirm": True},
                                            lambda r: self._done(app, r, f"Game #{game['id']} deleted.")))

    @staticmethod
    def _done(app: Any, reply: JSON, said: str) -> None:
        if reply.get("ok"):
            app.say(said)
        else:
            app.say(str(reply.get("error", "the table refused")), error=True)
        app.refresh_games()

    def choose(self, app: Any, game: str) -> None:
        setup = app.screens.get_screen("setup")
        setup.game = game
        app.go("setup")
