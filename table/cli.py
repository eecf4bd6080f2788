"""The ``companion`` command: saved games, replay, exports, the rule calculators, the table service.

Run ``companion --help`` for the list; every subcommand has ``--help`` too.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.errors import CommandError, CompanionError
from companion.store import Store, default_db_path


def _open_store(args: argparse.Namespace) -> Store:
    return Store.open(Path(args.db) if args.db else default_db_path())


def cmd_games(args: argparse.Namespace) -> int:
    from companion.games import all_games

    if args.known:
        for game in all_games():
            print(f"{game.name}\t{game.title}")
        return 0
    store = _open_store(args)
    records = store.games()
    if args.json:
        print(json.dumps([r.to_json() for r in records], indent=2))
    elif not records:
        print("no saved games yet")
    for r in [] if args.json else records:
        s = r.summary
        score = " - ".join(f"{name} {pts}" for name, pts in zip(s.get("sides", []), s.get("score", []),
                                                                strict=False))
        print(f"{r.id:>4}  {r.game:<16} {r.status:<9} {score}  {s.get('period', '')} {s.get('clock', '')}"
              f"  last played {r.updated_at[:16].replace('T', ' ')}")
    return 0


def _read_jsonl(path: str) -> list[tuple[int, str]]:
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


def cmd_replay(args: argparse.Namespace) -> int:
    from companion.session import Session, parse_command

    lines = _read_jsonl(args.file)
    store = _open_store(args)
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
    for number, line in lines:
        try:
            session.handle(parse_command(line))
        except CompanionError as exc:
            print(f"line {number}: {exc} (game {session.game_id} kept everything before this line)",
                  file=sys.stderr)
            return 2
    snapshot = session.snapshot()
    if args.json:
        print(json.dumps({"game_id": session.game_id, **snapshot["view"],
                          "scoreboard": snapshot["scoreboard"], "prompt": snapshot["prompt"]}, indent=2))
    else:
        board = snapshot["scoreboard"]
        score = " - ".join(f"{s['name']} {s['score']}" for s in board["sides"])
        print(f"game {session.game_id}: {score}, {board['period']} {board['clock']}")
        print(f"next: {snapshot['prompt']['text']}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from companion.session import Session

    session = Session.resume(_open_store(args), args.game_id)
    print(json.dumps(session.snapshot(), indent=2))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from companion.export import export_csv, export_json

    store = _open_store(args)
    text = export_json(store, args.game_id) if args.format == "json" else export_csv(store, args.game_id)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    _open_store(args).delete_game(args.game_id)
    print(f"deleted game {args.game_id}")
    return 0


def cmd_calc(args: argparse.Namespace) -> int:
    from companion.games import find_game
    from companion.games.valley_hoopers import attack_target, foul_outcome
    from companion.games.valley_hoopers.targets import automatic, chance

    if find_game(args.game).name != "valley-hoopers":
        raise CommandError(f"calc knows Valley Hoopers only, not {args.game}")
    if args.calc == "attack":
        target = attack_target(args.stat, args.bonus or [], [args.defense] if args.defense else [],
                               args.foul_bonus)
        result = {"target": target.value, "automatic": automatic(target), "p_success": float(chance(target)),
                  "text": target.text}
    else:
        result = foul_outcome(args.action, args.face).to_json()
    if args.json:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="game store file (default: $COMPANION_DB or the user data folder)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("games", help="list saved games with their status")
    p.add_argument("--json", action="store_true")
    p.add_argument("--known", action="store_true", help="list the games the companion can run")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("replay", help="play one command per line of a JSON-lines file into a game")
    p.add_argument("file", help="JSON-lines file ('-' for stdin); a first line of type setup sets it up")
    p.add_argument("--game", default="valley-hoopers")
    p.add_argument("--resume", type=int, metavar="GAME_ID", help="continue a saved game instead")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("show", help="print a saved game's current state as JSON")
    p.add_argument("game_id", type=int)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("export", help="export a saved game (JSON log or CSV box score)")
    p.add_argument("game_id", type=int)
    p.add_argument("--format", choices=("json", "csv"), default="json")
    p.add_argument("-o", "--output")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("delete", help="delete a saved game")
    p.add_argument("game_id", type=int)
    p.set_defaults(func=cmd_delete)

    p = sub.add_parser("calc", help="target numbers and foul-die outcomes without a game")
    p.add_argument("game")
    calc = p.add_subparsers(dest="calc", required=True)
    a = calc.add_parser("attack", help="target number and chance for an attack")
    a.add_argument("--stat", type=int, required=True)
    a.add_argument("--bonus", type=int, action="append", help="a bonus (repeat for several)")
    a.add_argument("--defense", type=int, default=0)
    a.add_argument("--foul-bonus", type=int, default=0)
    a.add_argument("--json", action="store_true")
    f = calc.add_parser("foul", help="what a foul-die face means for an action")
    f.add_argument("--action", required=True, help="D2, D3, DLU, steal, intercept, screen, rebound, "
                   "block or tribe_block")
    f.add_argument("--face", required=True)
    f.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_calc)

    from table.serve import build_parser as serve_options

    p = sub.add_parser("serve", help="run the table service (buttons, dice tray, OLED, socket)")
    p.add_argument("--db", default=argparse.SUPPRESS, help="game store file (same as companion --db)")
    serve_options(p).set_defaults(func=cmd_serve)

    # Everything after `run` belongs to the kiosk's own parser (kiosk.launcher), flags included.
    p = sub.add_parser("run", help="open the touchscreen kiosk (starts the service if none runs)",
                       add_help=False)
    p.set_defaults(func=cmd_run, kiosk_args=[])

    p = sub.add_parser("doctor", help="check the real setup and say what to fix")
    p.add_argument("--config")
    p.set_defaults(func=cmd_doctor)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
