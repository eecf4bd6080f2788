"""``companion run``: start the table service if needed (in simulation), then open the kiosk.

    companion run [--sim] [--socket PATH] [--db PATH] [--fullscreen] [--size WxH]
                  [--screenshot FILE [--screen NAME]] [--verbose]

The kiosk opens as a window the size of the table's screen (800x480 unless ``--size``), resizable,
closed by Escape or the window manager's close button; ``--fullscreen`` (the appliance's systemd
unit) fills the screen and offers no way out by touch. With ``--sim`` and no ``--socket`` (nor
``$COMPANION_SOCKET``), it starts its own ``companion serve --sim`` on a socket of this run alone, so
it never silently joins another service, and stops it on exit (on Linux the kernel stops it too
when the kiosk is killed outright); with a socket named, it joins the
service answering there (and says so) or starts one there. ``--screenshot`` renders the first
complete screen (or the screen named by ``--screen``) to a PNG and exits.

A clean start prints one line (where the window and the service are); Kivy's log and the simulated
service's output go to files in ``~/.local/state/courtside-companion/`` (``--verbose``: to the
console). With no display to draw on it says so and exits at once (code 2).

>>> parse_args(["--sim", "--size", "1024x600"]).size
(1024, 600)
"""

from __future__ import annotations

import argparse
import configparser
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kiosk import startup
from kiosk.client import Prefetch, service_answers

KIVY_CONFIG = Path(__file__).with_name("kivy_config.ini")
SIZES = ((800, 480), (1024, 600), (1280, 720))
STOP_POLL_S = 0.1  # how soon the running kiosk acts on a SIGTERM it was sent
SCREENS = ("home", "setup", "card", "table", "resolve", "between", "gameend", "history", "settings")


def default_socket_path() -> Path:
    """The socket ``companion serve`` listens on by default (one rule, in ``companion.protocol``)."""
    from companion.protocol import default_socket_path as serve_default

    return serve_default()


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT like 800x480, not {text!r}") from None
    if width < 320 or height < 240:
        raise argparse.ArgumentTypeError(f"{text} is too small for the kiosk (at least 320x240)")
    return width, height


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion run", description="Open the touchscreen kiosk.")
    parser.add_argument("--sim", action="store_true",
                        help="simulation: start the table service with simulated hardware if none runs, "
                             "and show the simulated buttons, encoder, OLED and dice tray")
    parser.add_argument("--socket", type=Path, default=None, help="the table service's Unix socket")
    parser.add_argument("--db", type=Path, default=None, help="game store for a service this starts")
    parser.add_argument("--screenshot", type=Path, default=None,
                        help="render the first complete screen to this PNG and exit")
    parser.add_argument("--size", type=_size, default=None, metavar="WxH",
                        help="window size, e.g. 800x480 (default), 1024x600 or 1280x720")
    parser.add_argument("--screen", choices=SCREENS, default=None,
                        help="with --screenshot: which screen to render (default: the one the table is on)")
    parser.add_argument("--fullscreen", action="store_true",
                        help="the appliance: fill the screen, no border, Escape and close ignored")
    parser.add_argument("--windowed", action="store_true",
                        help="a window (the default; kept for older command lines)")
    parser.add_argument("--verbose", action="store_true",
                        help="Kivy's log (and a simulated service's) on the console instead of in files")
    parser.add_argument("--service-timeout", type=float, default=20.0,
                        help="seconds to wait for a service this starts to answer")
    return parser.parse_args(list(argv))


# -- the table service ----------------------------------------------------------------------------

def companion_program() -> list[str]:
    """The ``companion`` command installed beside this Python (the kiosk never imports the table)."""
    return [str(Path(sys.executable).with_name("companion"))]


def service_command(socket_path: Path, db: Path | None, program: Sequence[str] | None = None) -> list[str]:
    """The command line of a simulated table service (``companion serve --sim``)."""
    command = list(program or companion_program())
    if db is not None:
        command += ["--db", str(db)]  # --db belongs to the companion command, before the subcommand
    return [*command, "serve", "--sim", "--socket", str(socket_path)]


def per_run_socket() -> Path:
    """A socket of this run alone, beside the default one (a private folder, removed on exit)."""
    from companion.protocol import private_dir

    base = private_dir(default_socket_path().parent)
    return Path(tempfile.mkdtemp(prefix=f"run-{os.getpid()}-", dir=base)) / "table.sock"


def _last_line(log: Path | None) -> str:
    try:
        text = log.read_text(errors="replace") if log else ""
        lines = [line for line in text.splitlines() if line.strip()]
    except OSError:
        return ""
    return lines[-1].strip() if lines else ""


def start_service(socket_path: Path, db: Path | None, timeout: float,
                  program: Sequence[str] | None = None, log: Path | None = None) -> subprocess.Popen[bytes]:
    """Start ``companion serve --sim`` and wait until it answers on the socket.

    Its output goes to ``log`` (the console when None); if it stops at start, the error says why
    with its last line.
    """
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    output = None
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        output = open(log, "wb")  # noqa: SIM115 - the child holds it; ours is closed below
    # Its own process group, so stopping it also stops anything it started, and a Ctrl-C meant for
    # the kiosk's terminal does not kill the table before the kiosk has said goodbye.
    try:
        child = subprocess.Popen(service_command(socket_path, db, program), start_new_session=True,
                                 stdout=output, stderr=subprocess.STDOUT if output else None,
                                 # Run between fork and exec: safe here, before Kivy or the
                                 # prefetch start any thread.
                                 preexec_fn=stopped_with(os.getpid()))
    finally:
        if output is not None:
            output.close()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            said = _last_line(log)
            raise RuntimeError(f"the table service stopped at start (exit code {child.returncode})"
                               + (f": {said.removeprefix('companion serve: ')}" if said else
                                  f"; run `companion serve --sim --socket {socket_path}` to see why"))
        if service_answers(socket_path, timeout=0.5):
            return child
        time.sleep(0.1)
    stop_service(child)
    raise RuntimeError(f"the table service did not answer on {socket_path} within {timeout:.0f} s")


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def stopped_with(parent: int) -> Callable[[], None] | None:
    """For a child of ``parent``: on Linux, the kernel sends it SIGTERM when ``parent`` ends, however
    it ends. A kiosk killed outright (SIGKILL, the OOM killer) never runs its own stop, and the
    simulated service it started would otherwise go on holding the socket and the store. The kernel
    watches the *thread* that starts the child: ``main`` starts it from the main thread."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def arrange() -> None:  # in the child, between fork and exec
        # The kiosk's own SIGTERM handler (it only notes a stop) is inherited until the exec: with it
        # a signal arriving now would be noted and forgotten, and the service started all the same.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            return  # not watched (a kernel without it): the kiosk's own stop still stops it
        if os.getppid() != parent:  # the parent was gone before the kernel was told to watch it
            os.kill(os.getpid(), signal.SIGTERM)

    return arrange


def stop_service(child: subprocess.Popen[bytes], timeout: float = 5.0) -> None:
    if child.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGTERM)
    try:
        child.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait(timeout)


# -- Kivy -----------------------------------------------------------------------------------------

def configure_kivy(*, sim: bool, size: tuple[int, int] | None, windowed: bool = True,
                   fullscreen: bool = False) -> None:
    """Apply ``kivy_config.ini`` (and the run's window) before Kivy creates the window.

    Must run before ``kivy.core.window`` is imported; Kivy reads the graphics section once. A
    window is the target screen's size (``size``, default 800x480), with a border, resizable;
    ``fullscreen`` (the appliance) fills the screen without a border, at whatever size it is.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # our argv is ours, not Kivy's
    os.environ.setdefault("KIVY_NO_FILELOG", "1")  # no log files on the SD card
    os.environ.setdefault("KIVY_NO_CONFIG", "1")  # no ~/.kivy/config.ini: this function is the config
    from kivy.config import Config

    shipped = configparser.ConfigParser()
    shipped.read(KIVY_CONFIG, encoding="utf-8")
    for section in shipped.sections():
        if not Config.has_section(section):
            Config.add_section(section)
        if section == "input":
            # Replace, not merge: one provider, so taps are never doubled (see kivy_config.ini).
            for option in list(Config.options("input")):
                Config.remove_option("input", option)
        for option, value in shipped.items(section):
            Config.set(section, option, value)
    if sim:
        Config.set("graphics", "show_cursor", "1")  # a desktop mouse stands in for the finger
        Config.set("kivy", "keyboard_mode", "system")  # and a desktop has a keyboard
    if fullscreen and size is None:
        # "auto": the screen's own size, whatever it is (the layout follows Window.size).
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "borderless", "1")
        Config.set("graphics", "resizable", "0")
        return
    width, height = size or SIZES[0]
    Config.set("graphics", "fullscreen", "0")
    Config.set("graphics", "borderless", "1" if fullscreen else "0")
    Config.set("graphics", "resizable", "0" if fullscreen else "1")
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "position", "custom" if fullscreen else "auto")
    Config.set("graphics", "left", "0")
    Config.set("graphics", "top", "0")


def main(argv: Sequence[str] | None = None, program: Sequence[str] | None = None) -> int:
    """Entry point of ``companion run`` (``table/cli.py`` passes the arguments after ``run``).

    ``program`` is how to start ``companion`` for a simulated service (default: the installed
    command beside this Python).
    """
    args = parse_args(sys.argv[1:] if argv is None else argv)
    problem = startup.display_problem(os.environ)
    if problem:  # before anything starts: over SSH the kiosk would otherwise run on, invisible
        print(f"companion run: {problem}", file=sys.stderr)
        return 2
    from_env = os.environ.get("COMPANION_SOCKET")
    named = args.socket or (Path(from_env) if from_env else None)
    own_socket = args.sim and named is None
    try:
        socket_path = per_run_socket() if own_socket else (named or default_socket_path())
    except (OSError, RuntimeError) as exc:
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    journal = startup.under_systemd()
    logs = None if journal or args.verbose else startup.log_dir()
    # systemd (and `timeout`, and a closing terminal) stop us with SIGTERM: leave the loop normally,
    # so the service this run started is stopped too instead of being orphaned. Listened for before
    # Kivy loads (seconds on a busy Pi): a stop asked meanwhile ends the run as soon as it can.
    # The handler only records the request: it runs between any two bytecodes, and an App.stop()
    # there (while Kivy is still reading the kv files, say) pulls the running app from under the
    # start-up, which then dies with an exception instead of exiting cleanly.
    stop_asked: list[bool] = []

    def stop(*_args: Any) -> None:
        stop_asked.append(True)

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):  # Ctrl-C too: a clean stop, no traceback
        signal.signal(sig, stop)
    child: subprocess.Popen[bytes] | None = None
    try:
        if args.sim and (own_socket or not service_answers(socket_path)):
            try:
                child = start_service(socket_path, args.db, args.service_timeout, program,
                                      log=logs / "serve-sim.log" if logs else None)
            except RuntimeError as exc:
                shared = default_socket_path()
                join = (f"; to play on that table instead: companion run --sim --socket {shared}"
                        if "another companion serve" in str(exc) and service_answers(shared) else "")
                print(f"companion run: {exc}{join}", file=sys.stderr)
                return 2
        if stop_asked:  # asked to stop while the service was starting: stop it, don't open the kiosk
            return 0
        # The service's first answers are asked for now, while Kivy loads, so the first frame shows them.
        prefetched = Prefetch(socket_path).start()
        startup.quiet_kivy(logs / "kiosk.log" if logs else None, verbose=args.verbose)
        fullscreen = args.fullscreen
        size = args.size or (None if fullscreen else SIZES[0])
        if fullscreen and size is None and not os.environ.get("WAYLAND_DISPLAY"):
            size = startup.x_screen_size(os.environ.get("DISPLAY"))  # X: the screen's size, no WM needed
        configure_kivy(sim=args.sim, size=size, fullscreen=fullscreen)
        from kivy.clock import Clock

        from kiosk.app import CourtsideApp

        def announce(app: Any) -> None:
            from kivy.core.window import Window

            if args.screenshot is None:  # a screenshot run's output is its JSON report
                display = (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                           or os.environ.get("SDL_VIDEODRIVER", "the screen"))
                print(startup.hello_line(size=tuple(Window.size), fullscreen=fullscreen, display=display,
                                         socket_path=socket_path, sim=args.sim,
                                         started_service=child is not None, logs=logs), flush=True)

        app = CourtsideApp(socket_path=socket_path, sim=args.sim, screenshot=args.screenshot,
                           screenshot_screen=args.screen, started_service=child is not None,
                           prefetched=prefetched)
        app.closable = not fullscreen
        if args.sim and child is None and args.socket is None:  # joined the $COMPANION_SOCKET table
            app.joined_notice = (f"Joined the table service already running on {socket_path}: "
                                 "this kiosk did not start it.")
        app.announce = announce
        if stop_asked:
            return 0

        def honour_stop(_dt: float) -> bool:
            # At a tick of the running loop, where stopping is safe (start-up is over); once only.
            if stop_asked:
                app.stop()
            return not stop_asked

        Clock.schedule_interval(honour_stop, STOP_POLL_S)
        app.run()
        return app.exit_code
    finally:
        if child is not None:
            stop_service(child)
        if own_socket:
            shutil.rmtree(socket_path.parent, ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
