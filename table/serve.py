"""``companion serve``: start the table service with its store, socket, controls and hardware.

Start-up order matters for "pulling the plug loses nothing": take the store's lock (one writer per
database), check the database (move a damaged one aside and restore the last good backup; restore
a missing one from the backups), resume the unfinished game exactly, open the socket, then tell
systemd we are ready. The hardware (``hardware/``, imported only here and only when the
service starts) is chosen by configuration: real devices, or the libraries' own mocks with ``--sim``.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import queue
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import notify
from companion.backup import backup_database, check_database, list_backups, move_store_aside, restore_latest
from companion.controls import TableControls, die_title
from companion.errors import StoreError
from companion.game import JSON, ScoreboardView
from companion.protocol import SocketDirError, default_socket_path
from companion.service import TableService
from companion.socket_server import SocketInUse, TableSocketServer
from companion.store import Store, default_db_path
from companion.store_files import StoreLock, StoreReadOnlyError, check_writable
from table.notice_line import NoticeLine
from table.press_tuning import tune_for_presses
from table.serve_options import build_parser  # noqa: F401 - kept importable from here

log = logging.getLogger("companion.serve")

EXIT_STORE = 2  # the store is refused: another program's file, in use by another serve, unreadable
EXIT_READ_ONLY = 4  # the store cannot be written (read-only card, permissions): restarting won't help


def backup_dir_for(db_path: Path) -> Path:
    return db_path.parent / "backups"


def open_store_recovering(db_path: Path) -> tuple[Store, str | None]:
    """Lock and open the store; a damaged one is moved aside (never deleted) and the last good backup
    restored; a missing one is restored from the newest intact backup, if there is one.

    With no intact backup the damaged file is still moved aside and the table starts on an empty
    store: a table that works, with the old file kept for rescue, beats a service that restarts
    forever on the same damaged file. Raises ``StoreBusyError`` when another program holds the lock
    and ``StoreReadOnlyError`` when the store can't be written; a healthy store is then left as it is.
    """
    lock = StoreLock.acquire(db_path, "serve")
    try:
        check_writable(db_path)
        message = _recover(db_path)
        if message:
            log.error(message)
        return Store.open(db_path, lock=lock), message
    except BaseException:
        lock.release()
        raise


def _recover(db_path: Path) -> str | None:
    """Repair the store in place (under the lock); what was done, for the log and the kiosk, or None."""
    backups = backup_dir_for(db_path)
    if not db_path.exists():
        if not list_backups(db_path, backups):
            return None  # a new table
        restored = restore_latest(db_path, backups)
        if restored is not None:
            return (f"the game store {db_path.name} was missing; the newest intact backup "
                    f"{restored.name} was restored")
        return ("the game store was missing and no backup passes integrity_check; a new, empty store "
                "started (the backups were left as they are)")
    ok, detail = check_database(db_path)
    if ok:
        return None
    restored = restore_latest(db_path, backups)
    if restored is not None:
        return (f"the game store was damaged ({detail}); it was moved aside and the backup "
                f"{restored.name} restored")
    moved = move_store_aside(db_path)
    return (f"the game store was damaged ({detail}) and no intact backup was found; it "
            f"was kept as {moved[0].name if moved else 'is'} and a new, empty store started")


class PeriodBackups:
    """Back up the store after every period and at game end (watches the published scoreboard).

    The backup (copy, check, fsync) runs on a thread of its own: on an SD card it takes long
    enough that the owner thread must not wait for it.
    """

    def __init__(self, db_path: Path, keep: int = 10) -> None:
        self.db_path = db_path
        self.keep = keep
        self._last: tuple[Any, Any, Any] | None = None
        self.made: list[Path] = []
        self._requests: queue.Queue[None] = queue.Queue()
        threading.Thread(target=self._run, name="period-backups", daemon=True).start()

    def __call__(self, message: JSON) -> None:
        if message.get("event") != "snapshot" or not message.get("snapshot"):
            return
        snap = message["snapshot"]
        key = (snap["game_id"], snap["scoreboard"]["period"], snap["scoreboard"]["final"])
        if self._last is not None and self._last[0] == key[0] and key != self._last:
            self._requests.put(None)
        self._last = key

    def wait(self, timeout: float = 10.0) -> bool:
        """Until every requested backup is made (tests)."""
        deadline = time.monotonic() + timeout
        while self._requests.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._requests.unfinished_tasks

    def _run(self) -> None:
        while True:
            self._requests.get()
            try:
                self.made.append(backup_database(self.db_path, backup_dir_for(self.db_path), self.keep))
            except Exception as exc:  # a failed backup must never stop the game
                log.warning("backup failed: %s", exc)
            finally:
                self._requests.task_done()


EARLY_FRAME_WAIT_S = 0.005  # the owner waits at most this long for a press's first frame


def attach_hardware(service: TableService, config_path: str | None, sim: bool,
                    build: Callable[..., Any] | None = None) -> Any:
    """Build buttons, encoder, tray and displays and wire them to the service through the controls.

    Call it after the game is resumed: a dice-tray roll that arrives before the first snapshot
    would otherwise be refused as "not waiting for a die" (after a restart the tray resends at
    once the roll it has no answer for). ``build`` replaces ``build_hardware`` (the crash tests
    put the tray on a pseudo-terminal they hold themselves).
    """
    from hardware.backends import build_hardware
    from hardware.config import load_config
    from hardware.inputs import to_json

    config = load_config(config_path)

    def later(delay: float, call: Any) -> None:  # a race window closing: run on the owner thread
        timer = threading.Timer(delay, lambda: service.call_soon(lambda _svc: call()))
        timer.daemon = True
        timer.start()

    controls = TableControls(
        submit=lambda command: service.execute({"op": "command", "command": command}),
        notify=service.notice,
        status=service.set_status,
        later=later,
    )
    controls.update(service.snapshot())

    def emit(event: Any) -> None:  # called on the libraries' threads: only queue
        as_json = to_json(event)
        service.call_soon(lambda _svc: controls.on_input(as_json))

    hardware = (build or build_hardware)(config, sim=sim, emit=emit)
    # Rolls are answered ($ACK/$REJ) by the controls once the service has recorded or refused them.
    controls.answer_tray = hardware.answer_tray
    expected: list[str | None] = [None]
    beat: list[int | None] = [None]
    dial: list[Any] = [None]

    notice = NoticeLine()

    def show() -> None:
        _show(service, hardware, controls, notice.current())

    def on_message(message: JSON) -> None:
        if message.get("event") == "snapshot":
            notice.clear()  # a new state: the table has moved on from what the notice was about
            controls.update(message["snapshot"])
            show()
            prompt = (message["snapshot"] or {}).get("prompt") or {}
            die = prompt.get("die")
            if die != expected[0]:  # $EXPECT only when it changes: it is a serial write
                expected[0] = die
                hardware.expect(die)
            tempo = (prompt.get("race") or {}).get("tempo_ms")
            if tempo != beat[0] and hasattr(hardware, "beat"):  # a race asking players to roll in step
                beat[0] = tempo
                hardware.beat(tempo)
        elif message.get("event") == "notice":
            # Why a press did nothing, where a table with no kiosk looks; taken down when it goes stale
            # (one timer per notice: nothing wakes an idle table).
            notice.post(str(message.get("text") or ""))
            show()
            later(notice.seconds, show)
        elif message.get("event") == "status" and message["status"].get("dial") != dial[0]:
            dial[0] = message["status"].get("dial")
            notice.clear()  # the player is dialling: the line shows the dial again
            show()

    def on_decided(board: ScoreboardView, snapshot: JSON) -> None:
        # A press's result and the next choice as soon as the rules and the renders have them, while
        # the entry is written: the frame the snapshot would bring, a few ms before it (which then
        # changes nothing on the glass). The displays mark it only if it is still not recorded a
        # quarter of a second later (hardware.oled); an entry that cannot be written brings the
        # current state back, with the error (TableService.command publishes it again).
        notice.clear()
        controls.update(snapshot)
        hardware.show(table_view(board, None, controls, saving=True))
        # Drawn before the owner writes the entry: the frame never waits for the disk; capped, so a
        # slow or failing display never holds the table back longer.
        hardware.worker.flush(timeout=EARLY_FRAME_WAIT_S)

    service.subscribers.append(on_message)
    service.early_hooks.append(on_decided)
    service.status_sources["hardware"] = hardware.status
    if sim:
        from table.sim_ops import SimulatedTable

        SimulatedTable(hardware, config).register(service)
    return hardware, controls


def _show(service: TableService, hardware: Any, controls: TableControls, notice: str = "") -> None:
    session = service.session
    if session is None:
        return
    hardware.show(table_view(session.game.scoreboard(session.state), service.banner, controls, notice))


def table_view(view: ScoreboardView, banner: str | None, controls: TableControls,
               notice: str = "", saving: bool = False) -> ScoreboardView:
    """The scoreboard as the table's OLEDs show it: the bottom line says what CONFIRM would enter.

    A fresh notice (``table.notice_line``: why the last press did nothing) comes first, then a
    recovery banner. While the game waits for a die, the line leads with the face
    the dial is on, the one CONFIRM enters ("42 on d20"): a dial step then changes only those
    digits on the glass, and however the line is cut the face stays. ``saving``: a press's result
    shown before its entry is written (``TableService.early_hooks``): the OLEDs mark it if the write
    is slow, and the lights wait for the recorded view.
    """
    message = notice or banner or dial_text(controls)
    if saving:
        return dataclasses.replace(view, message=message or view.message, saving=True)
    return dataclasses.replace(view, message=message) if message else view


def dial_text(controls: TableControls) -> str:
    """What the dial is on, face first for a die (``42 on d20``, ``3 on d6 2/3`` in a pool).

    The die's title is cut before " of " ("d20 of Valley Hoopers" is "d20"): the OLED's line is
    21 characters, fewer beside the target badge.
    """
    entries = controls.entries()
    if not entries:
        return ""
    label, command = entries[controls.dial % len(entries)]
    prompt = (controls.snapshot or {}).get("prompt") or {}
    if command.get("type") != "roll" or prompt.get("sealed"):
        return controls.selection()  # a sealed value's dial never shows the value
    pool = prompt.get("pool")
    kept = f" {len(controls.pool_faces) + 1}/{pool['count']}" if pool else ""
    return f"{label} on {die_title(command['die'], prompt).split(' of ')[0]}{kept}"


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    db_path = Path(args.db) if args.db else default_db_path()
    try:
        store, recovery_message = open_store_recovering(db_path)
    except StoreError as exc:
        print(f"companion serve: {exc}", flush=True)
        return EXIT_READ_ONLY if isinstance(exc, StoreReadOnlyError) else EXIT_STORE
    except OSError as exc:  # a rename or copy of the recovery failed (card full, gone read-only meanwhile)
        print(f"companion serve: could not repair the game store {db_path}: {exc}; nothing was deleted",
              flush=True)
        return EXIT_STORE
    service = TableService(store)
    interval = notify.watchdog_interval()
    if interval:
        service.heartbeat = notify.watchdog
        service.heartbeat_every = interval / 2
    service.subscribers.append(PeriodBackups(db_path))
    from table.usb_export import UsbExports, roots_from

    roots, chosen = roots_from(getattr(args, "media_root", None))
    UsbExports(roots, explicit=chosen).register(service)
    try:  # before the hardware: a second serve must not touch the pins or the tray of the first
        socket_path = Path(args.socket) if args.socket else default_socket_path()
        server = TableSocketServer(service, socket_path)
        server.listen()
    except (SocketDirError, SocketInUse, OSError) as exc:
        reason = exc if not isinstance(exc, OSError) else f"cannot listen on the socket: {exc}"
        print(f"companion serve: {reason}", flush=True)
        store.close()
        return 2
    resumed = service.resume_latest()  # before the hardware: the controls start from its prompt
    hardware = None
    if not args.no_hardware:
        from hardware.backends import HardwareUnavailable
        from hardware.config import ConfigError

        try:
            hardware, _controls = attach_hardware(service, args.config, args.sim)
        except ConfigError as exc:
            print(f"companion serve: bad configuration: {exc}", flush=True)
            server.close()
            store.close()
            return 2
        except HardwareUnavailable as exc:
            print(f"companion serve: {exc}", flush=True)
            server.close()
            store.close()
            return 3
    if recovery_message:
        service.status["recovery"] = recovery_message
        service.banner = "store repaired from backup" if "restored" in recovery_message else "store damaged"
    tune_for_presses()  # after the start-up's objects are built: they are frozen out of the collector
    server.start()
    service.start()
    service.call_soon(lambda svc: svc.publish())  # first frame on the OLED, first snapshot to clients
    if recovery_message:
        service.call_soon(lambda svc: svc.notice(recovery_message, level="error"))
    where = f"game {resumed.game_id} resumed" if resumed else "no unfinished game"
    print(f"companion serve: listening on {socket_path} ({where}; "
          f"{'simulated' if args.sim else 'real'} hardware)", flush=True)
    notify.ready()
    notify.status(f"table ready on {socket_path}; {where}")

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    notify.stopping()
    # Each stage's time in the log: systemd kills a stop slower than the unit's TimeoutStopSec, and
    # the stages' joins could add up to about that if threads hung; this says which one did.
    stages = [("socket", server.close), ("owner", service.stop), ("store", store.close)]
    if hardware is not None:
        stages.insert(2, ("hardware", hardware.close))
    took = []
    for name, close in stages:
        started = time.monotonic()
        close()
        took.append(f"{name} {time.monotonic() - started:.2f} s")
    log.info("stopped: %s", ", ".join(took))
    return 0
