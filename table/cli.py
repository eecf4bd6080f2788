"""The ``companion`` command: saved games, replay, exports, the rule calculators, the table service.

Run ``companion --help`` for the list; every subcommand has ``--help`` too. Global options (``--db``)
go before or after the subcommand: ``companion --db g.db replay FILE`` = ``companion replay FILE --db g.db``.

Reads (``games``, ``show``, ``export``) open the store read-only and work while ``companion serve``
runs; writes (``replay``, ``delete``) take the store's lock and are refused while another program
(a running serve) holds it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from companion.errors import CommandError, CompanionError

TYPE_CHECKING = False  # typing itself is an import `companion --help` can do without
if TYPE_CHECKING:  # each subcommand imports what it needs: `companion --help` loads no store, no game
    from companion.store import Store


def _db_path(args: argparse.Namespace) -> Path:
    from companion.store import default_db_path

    return Path(args.db) if args.db else default_db_path()


@contextmanager
def _open_store(args: argparse.Namespace, *, writer: str | None = None) -> Iterator[Store]:
    """The store for one command: read-only, or locked for ``writer`` (closed, lock released, after)."""
    from companion.store import Store

    store = Store.open(_db_path(args), lock=writer) if writer else Store.open(_db_path(args), read_only=True)
    try:
        yield store
    finally:
        store.close()


def cmd_games(args: argparse.Namespace) -> int:
    import json

    from companion.games import all_games

    if args.known:
        for game in all_games():
            print(f"{game.name}\t{game.title}")
        return 0
    if not _db_path(args).exists():
        records = []
    else:
        with _open_store(args) as store:
            records = store.games()
    if args.json:
        print(json.dumps([r.to_json() for r in records], indent=2))
    elif not records:
        print("no saved games yet")
    for r in [] if args.json else records:
        s = r.summary
        score = s.get("lead_text") or " - ".join(
            f"{name} {pts}" for name, pts in zip(s.get("sides", []), s.get("score", []), strict=False))
        print(f"{r.id:>4}  {r.game:<16} {r.status:<9} {score}  {s.get('period', '')} {s.get('clock', '')}"
              f"  last played {r.updated_at[:16].replace('T', ' ')}")
    return 0


def _read_jsonl(path: str) -> list[tuple[int, str]]:
    """The non-blank lines of a JSON-lines file with their numbers; bad UTF-8 is named by line."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from exc
    lines = []
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CommandError(f"line {number}: not UTF-8 text (byte {exc.start + 1} is "
                               f"{raw[exc.start:exc.start + 1]!r}); nothing was replayed") from exc
        if line.strip():
            lines.append((number, line))
    return lines


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        lines = _read_jsonl(args.file)
    except CommandError as exc:
        print(exc, file=sys.stderr)
        return 2
    with _open_store(args, writer="replay") as store:
        return _replay(args, store, lines)


def _replay(args: argparse.Namespace, store: Store, lines: list[tuple[int, str]]) -> int:
    import json

    from companion.session import Session, lead_words, parse_command

    if args.resume is not None:
        session = Session.resume(store, args.resume)
    else:
        options: dict[str, object] = {}
        if lines:
            first_no, first = lines[0]
            try:
                command = parse_command(first)
            except CommandError as exc:
                print(f"line {first_no}: {exc}", file=sys.stderr)
                return 2
            if command["type"] == "setup":
                options = {k: v for k, v in command.items() if k != "type"}
                lines = lines[1:]
        try:
            session = Session.new(store, args.game, options)
        except CompanionError as exc:
            print(f"setup: {exc}", file=sys.stderr)
            return 2
    try:
        for number, line in lines:
            try:
                session.handle(parse_command(line))
            except CompanionError as exc:
                print(f"line {number}: {exc} (game {session.game_id} kept everything before this line)",
                      file=sys.stderr)
                return 2
    finally:
        session.save_snapshots()  # the last ones due, before the store closes
    snapshot = session.snapshot()
    if args.json:
        print(json.dumps({"game_id": session.game_id, **snapshot["view"],
                          "scoreboard": snapshot["scoreboard"], "prompt": snapshot["prompt"]}, indent=2))
    else:
        board = snapshot["scoreboard"]
        names = [s["name"] for s in board["sides"]]
        score = lead_words(names, board["lead"]) if board.get("lead") is not None else \
            " - ".join(f"{s['name']} {s['score']}" for s in board["sides"])
        print(f"game {session.game_id}: {score}, {board['period']} {board['clock']}")
        print(f"next: {snapshot['prompt']['text']}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    import json

    from companion.session import Session

    with _open_store(args) as store:
        snapshot = Session.resume(store, args.game_id).snapshot()
    print(json.dumps(snapshot, indent=2))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from companion.export import export_csv, export_json

    with _open_store(args) as store:
        text = export_json(store, args.game_id) if args.format == "json" else export_csv(store, args.game_id)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    with _open_store(args, writer="delete") as store:
        store.delete_game(args.game_id)
    print(f"deleted game {args.game_id}")
    return 0


def cmd_calc(args: argparse.Namespace) -> int:
    """Run one of the calculators the game declares; its name and fields follow the game's name.

    The parser is built for that one game only, from its ``calculators`` module: ``companion calc``
    loads no other game, and of this one neither its rules nor its front end (nor the store).
    """
    from companion.games import find_calculators

    game = find_calculators(args.game)
    calculators = [c for c in game.calculators if c.compute is not None]
    if not calculators:
        raise CommandError(f"{game.title} offers no calculators")
    parser = _Parser(prog=f"companion calc {game.name}")
    sub = parser.add_subparsers(dest="calc", required=True)
    for calculator in calculators:
        p = sub.add_parser(calculator.name, help=calculator.summary)
        for spec in calculator.fields:
            flag = "--" + spec.key.replace("_", "-")
            kind = int if spec.kind == "int" else str
            if spec.multiple:
                p.add_argument(flag, dest=spec.key, type=kind, action="append", help=spec.label)
            else:
                p.add_argument(flag, dest=spec.key, type=kind, default=spec.default,
                               required=spec.default is None, help=spec.label)
        p.add_argument("--json", action="store_true")
        p.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)  # accepted anywhere; unused
    chosen = parser.parse_args(args.calc_args)
    calculator = next(c for c in calculators if c.name == chosen.calc)
    result = calculator.compute({f.key: getattr(chosen, f.key, None) for f in calculator.fields})
    if chosen.json:
        import json

        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from table.serve import serve

    return serve(args)


def cmd_run(args: argparse.Namespace) -> int:
    from kiosk.launcher import main as kiosk_main

    forwarded = list(args.kiosk_args)
    if args.db:
        forwarded = ["--db", args.db, *forwarded]
    return int(kiosk_main(forwarded, program=[sys.executable, "-m", "table.cli"]))


def cmd_doctor(args: argparse.Namespace) -> int:
    from hardware.doctor import run_checks

    checks = run_checks(args.config)
    for check in checks:
        mark = "ok  " if check.ok else "FIX "
        print(f"{mark} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            print(f"      -> {check.fix}")
    return 0 if all(c.ok for c in checks) else 1


DB_HELP = "game store file (default: $COMPANION_DB or the user data folder)"


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's own formatter, told the terminal's width instead of asking ``shutil`` for it.

    ``shutil`` drags in the zlib, bz2 and lzma modules, about a tenth of ``companion --help``'s time.
    """

    def __init__(self, prog: str, **kwargs: object) -> None:
        if "width" not in kwargs:
            try:
                columns = int(os.environ.get("COLUMNS", "0")) or os.get_terminal_size(
                    sys.__stdout__.fileno()).columns
            except (AttributeError, OSError, ValueError):  # not a terminal (a pipe, a test)
                columns = 80
            kwargs["width"] = columns - 2  # what argparse does with shutil's figure
        super().__init__(prog, **kwargs)  # type: ignore[arg-type]


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` using ``_HelpFormatter`` (its subcommands' parsers too)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


def global_options() -> argparse.ArgumentParser:
    """The options every subcommand also takes after its name (SUPPRESS: absent leaves the global value)."""
    common = _Parser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)
    return common


def _games_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")
    p.add_argument("--known", action="store_true", help="list the games the companion can run")


def _replay_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="JSON-lines file ('-' for stdin); a first line of type setup sets it up")
    p.add_argument("--game", default="valley-hoopers")
    p.add_argument("--resume", type=int, metavar="GAME_ID", help="continue a saved game instead")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")


def _game_id_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("game_id", type=int)


def _export_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("game_id", type=int)
    p.add_argument("--format", choices=("json", "csv"), default="json")
    p.add_argument("-o", "--output")


def _calc_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("game")
    p.add_argument("calc_args", nargs=argparse.REMAINDER,
                   help="the calculator's name and its options (companion calc GAME --help lists them)")


def _serve_options(p: argparse.ArgumentParser) -> None:
    from table.serve_options import build_parser as serve_options

    serve_options(p)


def _doctor_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config")


# name -> (help, its options, what runs it); `run` is apart: everything after it is the kiosk's.
SUBCOMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[..., int]]] = {
    "games": ("list saved games with their status", _games_options, cmd_games),
    "replay": ("play one command per line of a JSON-lines file into a game", _replay_options, cmd_replay),
    "show": ("print a saved game's current state as JSON", _game_id_options, cmd_show),
    "export": ("export a saved game (JSON log or CSV box score)", _export_options, cmd_export),
    "delete": ("delete a saved game", _game_id_options, cmd_delete),
    "calc": ("a game's calculators (e.g. attack targets, foul-die outcomes)", _calc_options, cmd_calc),
    "serve": ("run the table service (buttons, dice tray, OLED, socket)", _serve_options, cmd_serve),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only``, the other subcommands get their name and help but no options
    (building ~40 argparse options costs more than a bare interpreter's start on a Pi)."""
    parser = _Parser(prog="companion", description=__doc__.splitlines()[0])
    parser.add_argument("--db", help=DB_HELP)
    sub = parser.add_subparsers(dest="command", required=True)
    common = [global_options()]
    for name, (summary, options, run) in SUBCOMMANDS.items():
        full = only is None or only == name
        # A subcommand that is not the one run is only a line of `companion --help`: no options.
        p = sub.add_parser(name, parents=common if full else [], help=summary, add_help=full)
        if full:
            options(p)
        p.set_defaults(func=run)

    # Everything after `run` belongs to the kiosk's own parser (kiosk.launcher), flags included.
    p = sub.add_parser("run", help="open the touchscreen kiosk (starts the service if none runs)",
                       add_help=False)
    p.set_defaults(func=cmd_run, kiosk_args=[])

    full = only is None or only == "doctor"
    p = sub.add_parser("doctor", parents=common if full else [], add_help=full,
                       help="check the real setup and say what to fix")
    if full:
        _doctor_options(p)
    p.set_defaults(func=cmd_doctor)
    return parser


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (after the global ``--db``), or None (``--help``, a typo)."""
    tokens = iter(argv)
    for token in tokens:
        if token == "--db":
            next(tokens, None)
        elif not token.startswith("-"):
            return token if token in SUBCOMMANDS or token in ("run", "doctor") else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    chosen = _chosen(argv)
    parser = build_parser(only=chosen or "")
    args, extra = parser.parse_known_args(argv)
    if args.command == "run":
        args.kiosk_args = extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.func(args))
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # an export to a folder that does not exist, a full disk
        print(f"companion: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
