"""The kiosk application: one connection to the table, one snapshot, screens that show it.

``CourtsideApp`` finds its ``kv/courtside.kv`` by name (Kivy's rule: class name minus "App"); each
screen has its own ``kv/<screen>.kv``. KV calls the app's methods (``app.send``, ``app.undo``...);
the app copies each snapshot the service pushes into Kivy Properties and asks every screen to show
it. Nothing here decides a rule: taps become protocol requests, answers become text.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.image import Image as CoreImage
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from kiosk import parts, present
from kiosk.client import Prefetch, TableConnection
from kiosk.screens import START_SCREEN, screen_kv_files
from kiosk.screens.base import KioskScreen

JSON = dict[str, Any]
KV_DIR = Path(__file__).with_name("kv")
PLAY_SCREENS = ("resolve", "between", "gameend")
STARTED_AT = time.monotonic()


def _deliver(call: Any) -> None:
    """Run ``call`` on Kivy's main thread (the socket thread must not touch widgets): at once if the
    main thread is waiting for its next frame (the ``free_only`` clock of ``kivy_config.ini``: a
    reply is handled when it arrives, not up to a frame later; drawing stays at 30 frames a second),
    else at the next frame."""
    schedule = getattr(Clock, "schedule_once_free", Clock.schedule_once)
    schedule(lambda _dt: call(), 0)


class CourtsideApp(App):
    """Courtside Companion's touchscreen: what the table sees and taps."""

    title = "Courtside Companion"
    kv_directory = str(KV_DIR)

    snapshot = ObjectProperty(None, allownone=True)
    link_state = StringProperty("connecting")
    sim = BooleanProperty(False)
    sim_open = BooleanProperty(False)
    score_text = StringProperty("Courtside Companion")
    score_markup = StringProperty("Courtside Companion")  # the same, side names in the sides' colours
    turn_text = StringProperty("")
    banner_text = StringProperty("")
    notice_text = StringProperty("")
    notice_is_error = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    undo_armed = BooleanProperty(False)  # the top bar's UNDO / REDO (see kiosk/undo_bar.py)
    redo_armed = BooleanProperty(False)
    status = DictProperty({})
    saved_games = ListProperty([])
    known_games = ListProperty([])
    infos = DictProperty({})  # game name -> its game_info (forms, panels, dice...)
    history = ListProperty([])
    history_marks = ListProperty([])  # each log line's period and score after it ("Q2 12-9")
    score_series = ListProperty([])
    oled_texture = ObjectProperty(None, allownone=True)
    oled_online = BooleanProperty(True)
    window_width = NumericProperty(800)

    def __init__(self, socket_path: Path, sim: bool = False, screenshot: Path | None = None,
                 screenshot_screen: str | None = None, started_service: bool = False,
                 prefetched: Prefetch | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.prefetched = prefetched  # the service's first answers, asked while Kivy loaded
        self.socket_path = Path(socket_path)
        self.sim = sim
        self.screenshot_path = screenshot
        self.screenshot_screen = screenshot_screen
        self.started_service = started_service
        # A window closes on Escape and the window manager's close; the appliance (fullscreen) offers
        # no way out to a desktop by touch or key (systemd stops it).
        self.closable = True
        self.announce: Any = None  # called once the window is up (the launcher prints where things are)
        self.joined_notice = ""  # said once connected: this run joined a service it did not start
        self.exit_code = 0
        self.ready_seconds: float | None = None
        self.ready_wall: float | None = None
        self.screens_at_first_frame: list[str] = []  # the screens built before it (tests, benchmarks)
        self.screen_at_first_frame = ""  # and the one it showed
        self.snapshot_at = 0.0
        self.sent_at = 0.0
        self._colours: dict[str, str] | None = None
        self.ready_callbacks: list[Any] = []
        self._have_state = False
        self._have_games = False
        self._have_known = False
        self._ready_fired = False
        self._redrawn = False
        self._last_look: dict[str, Any] | None = None
        self._settle_looks = 0
        self._draw_waiting = False  # a snapshot arrived before the known games' parts (see _draw_now)
        self._switch_to: str | None = None
        self._draw_snapshot = Clock.create_trigger(self._draw_now, 0)
        self._last_game_id: int | None = None
        self._log_for: tuple[Any, Any] | None = None  # (game_id, seq) of the log last asked for
        self.conn = TableConnection(self.socket_path, on_message=self.on_table_message, deliver=_deliver,
                                    on_state=self.link_changed)

    # -- life cycle -----------------------------------------------------------------------------------

    def load_kv(self, filename: str | None = None) -> bool:
        # Millimetres first: the density of this screen, before any widget is sized (kiosk/density.py).
        from kiosk import density

        density.apply(*Window.size)
        # The widgets' rules before courtside.kv uses them; a screen's own rules are loaded when the
        # screen is first shown (kiosk/screens/__init__.py), so a start builds only the first screen.
        lazy = screen_kv_files() | {"simpanel.kv"}  # the simulated hardware's rules: only in simulation
        for kv in sorted(KV_DIR.glob("*.kv")):
            if kv.name != "courtside.kv" and kv.name not in lazy:
                Builder.load_file(str(kv))
        return super().load_kv(filename)

    def build(self) -> Any:
        Window.bind(on_request_close=self._refuse_close, on_keyboard=self._on_keyboard)
        Window.clearcolor = (0.05, 0.07, 0.09, 1)
        # Until the table's state says which screen to open on, an empty one: the frames drawn while
        # the kiosk waits for the service cost next to nothing, and no screen is built (and drawn)
        # that the table's state would replace at once (the others are built on first visit).
        self.screens.add_widget(KioskScreen(name=START_SCREEN))
        self.screens.current = START_SCREEN
        self.window_width = Window.width / dp(1)  # in dp: what fits depends on millimetres, not pixels
        Window.bind(width=lambda _w, width: setattr(self, "window_width", width / dp(1)))
        self.sim_open = self.sim and Window.width >= dp(1000)
        if self.sim:  # the appliance builds none of it
            from kiosk.simpanel import SimPanel

            Builder.load_file(str(KV_DIR / "simpanel.kv"))
            panel = SimPanel()
            self.root.ids.sim_slot.add_widget(panel)
            self.root.ids["sim_panel"] = panel
        self.screens.bind(current=self.arm_undo)
        answers = self.prefetched.result() if self.prefetched is not None else None
        if answers is not None:
            self._take_prefetched(answers)
            return self.root
        # Until the service answers (at boot the kiosk may be up first), say so instead of an empty home.
        self.banner_text = "CONNECTING..."
        self.say(f"Waiting for the table service on {self.socket_path}...")
        return self.root

    def _take_prefetched(self, answers: JSON) -> None:
        """Show what the service answered while Kivy loaded: the first frame is the table's screen
        (drawn at the first tick of the loop), not an empty one waiting for a round trip per question."""
        self.banner_text = "SIMULATION" if self.sim else ""
        self.say(self.joined_notice)
        known = answers["known_games"].get("known_games") if answers["known_games"].get("ok") else None
        self.known_games = known if isinstance(known, list) else []
        self.infos = {name: reply["info"] for name, reply in answers["game_info"].items()
                      if reply.get("ok") and isinstance(reply.get("info"), dict)}
        self._have_known = True
        if answers["games"].get("ok"):
            self.saved_games = answers["games"].get("games", [])
        self._have_games = True
        if answers["status"].get("ok"):
            self.status = dict(answers["status"].get("status", {}))
        state = answers["state"]
        if state.get("ok"):
            self.set_snapshot(state.get("snapshot"), follow=True)
            self._have_state = True
            # At the loop's first tick, with the screen drawn (the trigger above): the frame after it
            # is the first that shows the table.
            Clock.schedule_once(lambda _dt: self._check_ready(), 0)

    def on_start(self) -> None:
        self.conn.start()
        if self.announce is not None:
            self.announce(self)
        if self.screenshot_path is not None:
            # How long a screenshot waits for the service (a test that starts it later, on a loaded
            # machine, asks for longer).
            wait = float(os.environ.get("COURTSIDE_SCREENSHOT_WAIT_S", "30"))
            Clock.schedule_once(self._screenshot_timeout, wait)

    def on_stop(self) -> None:
        self.conn.stop()

    def _refuse_close(self, *_args: Any) -> bool:
        # Fullscreen, no way out to a desktop: the window manager's close is refused (systemd stops us).
        return not self.closable

    def _on_keyboard(self, _window: Any, key: int, *_args: Any) -> bool:
        if key != 27:  # Escape (and Android back)
            return False
        if self.closable:
            self.stop()
        return True

    @property
    def screens(self) -> Any:
        return self.root.ids.screens

    def go(self, name: str) -> None:
        """Show a screen by name (the nav bar and the flow call this)."""
        if name == "setup":
            self.screens.get_screen("setup").prepare(self)
        if name == "home":
            self.refresh_games()
        self._switch_to = None  # the table's choice wins over a follow still waiting for its frame
        self.screens.current = name
        self.screens.current_screen.show(self)

    def arm_undo(self, *_args: Any) -> None:
        from kiosk.undo_bar import redo_armed, undo_armed

        screen = self._switch_to or (self.screens.current if self.root is not None else "home")
        self.undo_armed = undo_armed(self.snapshot, screen)
        self.redo_armed = redo_armed(self.snapshot, screen)

    @staticmethod
    def offers_redo(notice: str, can_redo: bool) -> bool:
        from kiosk.undo_bar import offers_redo

        return offers_redo(notice, can_redo)

    def toggle_sim(self) -> None:
        self.sim_open = not self.sim_open

    # -- the link -------------------------------------------------------------------------------------

    def link_changed(self, state: str) -> None:
        self.link_state = state
        if state == "connected":
            self.banner_text = "SIMULATION" if self.sim else ""
            if self.notice_text.startswith("Waiting for the table service"):
                self.say(self.joined_notice)
            self.request_state()
            self.refresh_games()
            self.refresh_status()
            self._load_known_games()
        else:
            self.banner_text = "RECONNECTING..."
            self.say("The table service is not answering: reconnecting. Nothing is lost.", error=True)

    def request_state(self) -> None:
        self.conn.request({"op": "state"}, self._on_state_reply)

    def _on_state_reply(self, reply: JSON) -> None:
        if not reply.get("ok"):
            return
        snapshot = reply.get("snapshot")
        if snapshot is None and self._last_game_id is not None:
            # A restarted service without the game loaded: pick it up where the table was.
            self.conn.request({"op": "resume", "game_id": self._last_game_id}, self._on_game_reply)
            return
        self.set_snapshot(snapshot, follow=True)
        if self.link_state == "connected" and self.notice_text.startswith("The table service"):
            self.say("Reconnected: the game is where it was." if snapshot else "")
        self._have_state = True
        self._check_ready()

    def refresh_games(self) -> None:
        def got(reply: JSON) -> None:
            if reply.get("ok"):
                self.saved_games = reply.get("games", [])
            self._have_games = True
            self._check_ready()
            if self.screens.current == "home":
                self.screens.current_screen.show(self)

        self.conn.request({"op": "games"}, got)

    def _load_known_games(self) -> None:
        """The games the companion can run, as the service lists them (only games that exist), and
        each one's front-end parts (``game_info``): the screens are drawn from those."""

        def got(reply: JSON) -> None:
            # Only what the service can run is offered; an offline service offers nothing yet (the
            # list is asked again on reconnection).
            known = reply.get("known_games") if reply.get("ok") else None
            known = known if isinstance(known, list) else []
            if known == self.known_games and self._have_known and \
                    {str(g.get("name")) for g in known} <= set(self.infos):
                return  # as shown already (the answers asked for while Kivy loaded)
            self.known_games = known
            waiting = {str(g.get("name")) for g in self.known_games} - set(self.infos)
            if not waiting:
                known_ready()
            for name in sorted(waiting):
                self.conn.request({"op": "game_info", "game": name},
                                  lambda r, n=name: got_info(n, r, waiting))

        def got_info(name: str, reply: JSON, waiting: set[str]) -> None:
            if reply.get("ok") and isinstance(reply.get("info"), dict):
                self.infos = {**self.infos, name: reply["info"]}
            waiting.discard(name)
            if not waiting:
                known_ready()

        def known_ready() -> None:
            self._have_known = True
            self.show_sim_dice()
            drawn = self._draw_waiting
            if drawn:  # the state that came first, drawn once now that the game's parts are here
                self._draw_waiting = False
                self._draw_now()
            self._check_ready()
            if not drawn and self.screens.current in ("home", "table", "resolve", "gameend"):
                self.screens.current_screen.show(self)

        self.conn.request({"op": "known_games"}, got)

    def show_sim_dice(self) -> None:
        """The simulated tray offers the dice of the game on the table (or of the first known game)."""
        panel = self.root.ids.get("sim_panel") if self.root is not None else None
        if self.sim and panel is not None:
            panel.show_dice(self.info_for())

    def info_for(self, game: str | None = None) -> JSON:
        """The ``game_info`` of ``game`` (default: the game on the table, else the first known)."""
        name = game or (self.snapshot or {}).get("game")
        if name in self.infos:
            return self.infos[name]
        if name is None and self.known_games:
            return self.infos.get(str(self.known_games[0].get("name")), {})
        return {}

    def refresh_status(self) -> None:
        self.conn.request({"op": "status"}, lambda r: r.get("ok") and self._set_status(r.get("status", {})))
        if self.sim:
            self.refresh_oled()

    def _set_status(self, status: JSON) -> None:
        self.status = dict(status)
        current = self.screens.current_screen
        if current.name == "settings":
            current.show(self)

    def on_table_message(self, message: JSON) -> None:
        kind = message.get("event")
        if kind == "snapshot":
            self.set_snapshot(message.get("snapshot"), follow=True)
        elif kind == "notice":
            self.say(str(message.get("text", "")), error=message.get("level") == "error")
        elif kind == "status":
            self._set_status(message.get("status", {}))
            if self.sim:
                self.refresh_oled()

    # -- the snapshot ---------------------------------------------------------------------------------

    def set_snapshot(self, snapshot: JSON | None, follow: bool = False) -> None:
        """Copy a snapshot into the Properties and show it; ``follow`` moves along the game's flow."""
        old = self.snapshot
        if snapshot is not None and old is not None and snapshot.get("game_id") == old.get("game_id") \
                and snapshot.get("seq", 0) < old.get("seq", 0):
            return  # an older copy arriving late (a reply overtaken by a push); never step back
        if snapshot is not None and snapshot == old:
            return  # the reply repeating the push just shown: rebuilding the screen would only cost time
        self.snapshot = snapshot
        self.snapshot_at = time.monotonic()  # when the UI thread had it (benchmarks: tap -> screen)
        self.score_text = present.score_line(snapshot) if snapshot else "Courtside Companion"
        self.score_markup = self._coloured_score(snapshot)
        self.turn_text = present.turn_line(snapshot)
        self.can_undo = bool(snapshot and snapshot.get("can_undo"))
        self.can_redo = bool(snapshot and snapshot.get("can_redo"))
        self.arm_undo()
        # None: the table put its game away (abandoned, deleted): a reconnection must not bring it back.
        self._last_game_id = snapshot.get("game_id") if snapshot is not None else None
        if self.sim:
            if self.conn.connected:  # else it is asked for when the link is up (link_changed)
                self.refresh_oled()
            self.show_sim_dice()
        current = self._switch_to or self.screens.current
        if follow:
            wanted = self.play_screen(snapshot)
            if snapshot is None and current in PLAY_SCREENS + ("table",):
                wanted = "home"
            if wanted and (current in PLAY_SCREENS or current == "setup" and snapshot is not None
                           or current == "home" and snapshot is not None and not self._have_state):
                self._switch_to = wanted
            if current == START_SCREEN:
                self._switch_to = wanted or "home"
        # Drawn at the next frame, once: snapshots that arrive together (a game played fast through
        # the socket, a reply behind its push) cost one rebuild of the screen, not one each.
        self._draw_snapshot()

    def _draw_now(self, *_args: Any) -> None:
        if not self._have_known and self.link_state == "connected":
            # At start the game's parts (game_info) are still on their way: a screen drawn without
            # them would be drawn again when they come. Drawn once, then (known_ready); the screen it
            # goes to is built meanwhile, while the kiosk would only wait for the answers.
            self._draw_waiting = True
            if self._switch_to:
                self.screens.get_screen(self._switch_to)
            return
        if self._switch_to and self._switch_to != self.screens.current:
            self.screens.current = self._switch_to
        self._switch_to = None
        if self.screens.current != START_SCREEN and self.screens.has_screen(START_SCREEN):
            self.screens.remove_widget(self.screens.get_screen(START_SCREEN))  # never shown again
        self.screens.current_screen.show(self)

    def side_colour(self, name: str) -> str | None:
        """The colour the Setup screen gave the side called ``name`` (kiosk-only; the service has none)."""
        if self._colours is None:
            from kiosk.cards import side_colours

            self._colours = side_colours()
        return self._colours.get(name)

    def forget_colours(self) -> None:
        """The setup changed: read the sides' colours again."""
        self._colours = None

    def _coloured_score(self, snapshot: JSON | None) -> str:
        from kivy.utils import escape_markup

        sides = ((snapshot or {}).get("scoreboard") or {}).get("sides", [])
        if len(sides) < 2 or any(side.get("score") is None for side in sides):
            return escape_markup(self.score_text)  # one lead for the table, or no game
        shown = []
        for side in sides:
            name = escape_markup(str(side.get("name", "")))
            colour = self.side_colour(str(side.get("name", "")))
            # A dark side colour would vanish on the dark bar: those names stay white.
            if colour and sum(int(colour[i:i + 2], 16) for i in (0, 2, 4)) > 200:
                name = f"[color={colour}]{name}[/color]"
            shown.append((name, side.get("score")))
        if len(shown) > 2:
            return " - ".join(f"{name} {score}" for name, score in shown)
        return f"{shown[0][0]} {shown[0][1]} - {shown[1][1]} {shown[1][0]}"

    def play_screen(self, snapshot: JSON | None) -> str | None:
        if snapshot is None:
            return None
        if snapshot.get("outcome"):
            return "gameend"
        if (snapshot.get("view") or {}).get("reminders"):
            return "between"
        return "resolve"

    def request_log(self) -> None:
        """Ask the service for the game's log (History and Game end call this when they show).

        The log is the service's: only commands in effect, each with the score after it, so a kiosk
        that joins late or restarts shows the whole game. It is asked for only while one of those
        screens is up, and once per state.
        """
        snapshot = self.snapshot or {}
        key = (snapshot.get("game_id"), snapshot.get("seq"))
        if snapshot and key != self._log_for:
            self._log_for = key
            self.conn.request({"op": "log"}, self._on_log)

    def _on_log(self, reply: JSON) -> None:
        if not reply.get("ok") or reply.get("game_id") != (self.snapshot or {}).get("game_id"):
            return
        lines = reply.get("log") or []
        self.history = [str(line.get("text", "")) for line in lines[1:]]
        self.history_marks = [present.log_mark(line, present.side_names(self.snapshot)) for line in lines[1:]]
        self.score_series = [d for d in (present.score_difference(line.get("score"), line.get("lead"))
                                                     for line in lines)
                             if d is not None]
        if self.screens.current in ("history", "gameend"):
            self.screens.current_screen.show(self)

    # -- commands -------------------------------------------------------------------------------------

    def say(self, text: str, error: bool = False) -> None:
        self.notice_text = text
        self.notice_is_error = error

    def _answered(self, reply: JSON) -> None:
        if reply.get("ok"):
            if reply.get("snapshot") is not None:
                self.set_snapshot(reply["snapshot"], follow=True)
        else:
            self.say(str(reply.get("error", "refused")), error=True)

    def send(self, command: JSON) -> None:
        """Send one game command (a choice button, a die face, undo...)."""
        self.say("")
        self.sent_at = time.monotonic()
        self.conn.request({"op": "command", "command": dict(command)}, self._answered)

    def roll(self, face: int | str) -> None:
        prompt = (self.snapshot or {}).get("prompt") or {}
        if prompt.get("die"):
            self.send({"type": "roll", "die": prompt["die"], "face": face})

    def undo(self) -> None:
        self.send({"type": "undo"})

    def redo(self) -> None:
        self.send({"type": "redo"})

    def _on_game_reply(self, reply: JSON) -> None:
        self._answered(reply)
        if reply.get("ok"):
            self._have_state = True
            self.screens.current = self.play_screen(reply.get("snapshot")) or "home"
            self.screens.current_screen.show(self)
            self._check_ready()

    def new_game(self, game: str, options: JSON) -> None:
        self.conn.request({"op": "new_game", "game": game, "options": options}, self._on_game_reply)

    def resume(self, game_id: int) -> None:
        self.conn.request({"op": "resume", "game_id": game_id}, self._on_game_reply)

    def export(self, fmt: str) -> None:
        """Write the game's box score (CSV) or its final snapshot (JSON) to the exports folder."""
        from kiosk.cards import exports_dir

        snapshot = self.snapshot
        if not snapshot:
            return
        folder = exports_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"game-{snapshot.get('game_id')}.{fmt}"
        if fmt == "json":
            path.write_text(json.dumps({**snapshot, "score_difference": list(self.score_series)}, indent=2),
                            encoding="utf-8")
        else:
            import csv  # only for an export: the kiosk's start does without it

            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows(parts.box_score(self.info_for(),
                                                                             snapshot.get("view") or {}))
            path.write_text(out.getvalue(), encoding="utf-8")
        self.say(f"Saved {path}")

    def export_to_usb(self) -> None:
        """Ask the table to write the game's CSV and JSON onto the USB stick plugged in; say where,
        or what was wrong (no stick, read-only, full) in the table's words."""
        from kiosk.end_summary import usb_words

        self.say("Saving to the USB stick...")
        self.conn.request({"op": "usb_export"}, lambda reply: self.say(*usb_words(reply)))

    # -- simulated hardware (in the service; driven through the socket) ------------------------------

    def sim_press(self, role: str, hold: bool = False) -> None:
        self.conn.request({"op": "sim_press", "role": role, "hold": hold}, self._sim_answered)

    def sim_turn(self, steps: int) -> None:
        self.conn.request({"op": "sim_turn", "steps": steps}, self._sim_answered)

    def sim_tray(self, die: str, face: int | str) -> None:
        self.conn.request({"op": "sim_tray", "die": die, "face": face}, self._sim_answered)

    def sim_roll_for_me(self) -> None:
        self.conn.request({"op": "sim_roll_for_me"}, self._sim_answered)

    def _sim_answered(self, reply: JSON) -> None:
        if not reply.get("ok"):
            self.say(str(reply.get("error", "the simulated hardware refused")), error=True)
        self.refresh_oled()

    def refresh_oled(self) -> None:
        self.conn.request({"op": "oled", "index": 0}, self._on_oled)

    def _on_oled(self, reply: JSON) -> None:
        if not reply.get("ok") or not reply.get("png"):
            self.oled_online = False
            return
        self.oled_online = bool(reply.get("online", True))
        image = CoreImage(io.BytesIO(base64.b64decode(reply["png"])), ext="png")
        texture = image.texture
        texture.mag_filter = "nearest"  # the OLED's pixels stay square when scaled up
        self.oled_texture = texture

    # -- readiness and screenshots --------------------------------------------------------------------

    def _check_ready(self) -> None:
        if self._ready_fired or not (self._have_state and self._have_games and self._have_known):
            return
        self._ready_fired = True
        if self.screenshot_screen:
            self.prepare_screen(self.screenshot_screen)
        # The first frame that shows the table's state is the next one the window flips to the screen.
        Window.bind(on_flip=self._first_frame)
        # The screenshot waits for the scroll views to settle their layout (a few frames), counted from
        # now: drawing a big screen (Setup) can take a good part of that.
        Clock.schedule_once(self._ready, 0.6)

    def prepare_screen(self, name: str) -> None:
        if name == "card":
            setup = self.screens.get_screen("setup")
            setup.prepare(self)
            setup.edit_card(0, 0)
            return
        self.go(name)

    def _first_frame(self, *_args: Any) -> None:
        Window.unbind(on_flip=self._first_frame)
        self.ready_seconds = time.monotonic() - STARTED_AT
        self.ready_wall = time.time()  # for a launcher measuring from before the process started
        self.screens_at_first_frame = [screen.name for screen in self.screens.screens]
        self.screen_at_first_frame = self.screens.current
        Clock.schedule_once(self.screens.build_the_rest, 0)  # the first frame is out: now the others

    def _ready(self, _dt: float) -> None:
        if self.screens.transition.is_active or not self._redrawn:
            # A screen that took long to draw may still be switching in, and a window that drew
            # nothing new since can hold an older frame: ask for a fresh frame and look again then.
            self._redrawn = not self.screens.transition.is_active
            Window.canvas.ask_update()
            Clock.schedule_once(self._ready, 0.2)
            return
        if self.screenshot_path is not None and self._settle_looks < 20:
            from kiosk.layout_check import describe

            # An answer arriving late rebuilds a screen's widgets before its layout runs: the screen
            # is settled (and shot) when two looks a frame apart agree.
            look = describe(self.root)
            if look != self._last_look:
                self._last_look, self._settle_looks = look, self._settle_looks + 1
                Window.canvas.ask_update()
                Clock.schedule_once(self._ready, 0.1)
                return
        for callback in list(self.ready_callbacks):
            callback(self)
        if self.screenshot_path is not None:
            from kiosk.layout_check import describe

            self.save_screenshot(self.screenshot_path)
            print(json.dumps({"screenshot": str(self.screenshot_path), "screen": self.screens.current,
                              "size": list(Window.size), "ready_seconds": round(self.ready_seconds or 0, 3),
                              "ready_wall": self.ready_wall,
                              "screens_drawn": [w.name for w in self.screens.children],
                              "screens_at_first_frame": self.screens_at_first_frame,
                              "screen_at_first_frame": self.screen_at_first_frame,
                              **(lambda found: {"layout_problems": found["problems"],
                                                "texts": found["texts"]})(describe(self.root))}),
                  flush=True)
            self.stop()

    def save_screenshot(self, path: Path) -> Path:
        """Save exactly what the window shows to ``path`` (Kivy numbers its files; we rename)."""
        path = Path(path).resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        stem = path.with_name(f".shot-{path.stem}.png")
        written = Window.screenshot(name=str(stem))
        Path(written).replace(path)
        return path

    def _screenshot_timeout(self, _dt: float) -> None:
        if not self._ready_fired:
            print(f"companion run: no answer from the table service on {self.socket_path}", file=sys.stderr)
            self.exit_code = 3
            self.stop()
