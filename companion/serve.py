"""``companion serve``: start the table service with its store, socket, controls and hardware.

Start-up order matters for "pulling the plug loses nothing": check the database (move a damaged
one aside and restore the last good backup), resume the unfinished game exactly, open the socket,
then tell systemd we are ready. The hardware (``hardware/``, imported only here and only when the
service starts) is chosen by configuration: real devices, or the libraries' own mocks with ``--sim``.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import signal
import threading
from pathlib import Path
from typing import Any

from companion import notify
from companion.backup import backup_database, check_database, restore_latest
from companion.controls import TableControls
from companion.game import JSON
from companion.service import TableService
from companion.socket_server import TableSocketServer
from companion.store import Store, default_db_path

log = logging.getLogger("companion.serve")


def default_socket_path() -> Path:
    if env := os.environ.get("COMPANION_SOCKET"):
        return Path(env)
    runtime = os.environ.get("RUNTIME_DIRECTORY") or os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime.split(":")[0]) / ("table.sock" if "RUNTIME_DIRECTORY" in os.environ
                                             else "companion/table.sock")
    return Path(f"/tmp/companion-{os.getuid()}/table.sock")


def backup_dir_for(db_path: Path) -> Path:
    return db_path.parent / "backups"


def open_store_recovering(db_path: Path) -> tuple[Store, str | None]:
    """Open the store; a damaged one is moved aside (never deleted) and the last good backup restored."""
    if db_path.exists():
        ok, detail = check_database(db_path)
        if not ok:
            restored = restore_latest(db_path, backup_dir_for(db_path))
            message = (f"the game store was damaged ({detail}); it was moved aside and "
                       + (f"the backup {restored.name} restored" if restored else "no backup was found"))
            log.error(message)
            return Store.open(db_path), message
    return Store.open(db_path), None


class PeriodBackups:
    """Back up the store after every period and at game end (watches the published scoreboard)."""

    def __init__(self, db_path: Path, keep: int = 10) -> None:
        self.db_path = db_path
        self.keep = keep
        self._last: tuple[Any, Any, Any] | None = None
        self.made: list[Path] = []

    def __call__(self, message: JSON) -> None:
        if message.get("event") != "snapshot" or not message.get("snapshot"):
            return
        snap = message["snapshot"]
        key = (snap["game_id"], snap["scoreboard"]["period"], snap["scoreboard"]["final"])
        if self._last is not None and self._last[0] == key[0] and key != self._last:
            try:
                self.made.append(backup_database(self.db_path, backup_dir_for(self.db_path), self.keep))
            except Exception as exc:  # a failed backup must never stop the game
                log.warning("backup failed: %s", exc)
        self._last = key


def attach_hardware(service: TableService, config_path: str | None, sim: bool) -> Any:
    """Build buttons, encoder, tray and displays and wire them to the service through the controls."""
    from hardware.backends import build_hardware
    from hardware.config import load_config
    from hardware.inputs import to_json

    config = load_config(config_path)

    controls = TableControls(
        submit=lambda command: service.execute({"op": "command", "command": command}),
        notify=service.notice,
        status=service.set_status,
    )

    def emit(event: Any) -> None:  # called on the libraries' threads: only queue
        as_json = to_json(event)
        service.call_soon(lambda _svc: controls.on_input(as_json))

    hardware = build_hardware(config, sim=sim, emit=emit)
    expected: list[str | None] = [None]
    dial: list[Any] = [None]

    def on_message(message: JSON) -> None:
        if message.get("event") == "snapshot":
            controls.update(message["snapshot"])
            _show(service, hardware, controls)
            die = ((message["snapshot"] or {}).get("prompt") or {}).get("die")
            if die != expected[0]:  # $EXPECT only when it changes: it is a serial write
                expected[0] = die
                hardware.expect(die)
        elif message.get("event") == "status" and message["status"].get("dial") != dial[0]:
            dial[0] = message["status"].get("dial")
            _show(service, hardware, controls)

    service.subscribers.append(on_message)
    service.status_sources["hardware"] = hardware.status
    if sim:
        from companion.sim_ops import SimulatedTable

        SimulatedTable(hardware, config).register(service)
    return hardware, controls


def _show(service: TableService, hardware: Any, controls: TableControls) -> None:
    session = service.session
    if session is None:
        return
    view = session.game.scoreboard(session.state)
    message = service.banner or controls.selection()
    if message:
        view = dataclasses.replace(view, message=message)
    hardware.show(view)


def build_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--sim", action="store_true", help="simulated hardware (the libraries' mocks)")
    parser.add_argument("--config", help="hardware config TOML (default: ~/.config or /etc/companion)")
    parser.add_argument("--socket", help="Unix socket path (default: $COMPANION_SOCKET or the runtime dir)")
    parser.add_argument("--no-hardware", action="store_true",
                        help="socket and store only: no buttons, tray or displays at all")
    return parser


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    db_path = Path(args.db) if args.db else default_db_path()
    store, recovery_message = open_store_recovering(db_path)
    service = TableService(store)
    interval = notify.watchdog_interval()
    if interval:
        service.heartbeat = notify.watchdog
        service.heartbeat_every = interval / 2
    service.subscribers.append(PeriodBackups(db_path))
    hardware = None
    if not args.no_hardware:
        from hardware.backends import HardwareUnavailable
        from hardware.config import ConfigError

        try:
            hardware, _controls = attach_hardware(service, args.config, args.sim)
        except ConfigError as exc:
            print(f"companion serve: bad configuration: {exc}", flush=True)
            store.close()
            return 2
        except HardwareUnavailable as exc:
            print(f"companion serve: {exc}", flush=True)
            store.close()
            return 3
    if recovery_message:
        service.status["recovery"] = recovery_message
        service.banner = "store repaired from backup" if "restored" in recovery_message else "store damaged"
    resumed = service.resume_latest()
    socket_path = Path(args.socket) if args.socket else default_socket_path()
    server = TableSocketServer(service, socket_path)
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
    server.close()
    service.stop()
    if hardware is not None:
        hardware.close()
    store.close()
    return 0
