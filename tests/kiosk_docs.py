"""Regenerates the kiosk screenshots in ``docs/img/`` with ``companion run --screenshot``.

    .venv/bin/python tests/kiosk_docs.py        # needs Xvfb; about half a minute
    .venv/bin/python tests/kiosk_docs.py table,history   # only these pictures

Each screen is brought about the way the table would (commands through the socket of a simulated
service), then rendered at the 7" screen's 800x480 (the simulation panel in a 1280x800 desktop
window, Home with both its lists at 1280x720, the Table also upright at 720x1280; the question
Delete asks through tests/kiosk_home_driver.py). PNGs are reduced to 64 colours so the repository stays small.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk_support import (  # noqa: E402
    PYTHON,
    ROOT,
    kiosk_env,
    play_until,
    request,
    run_kiosk,
    start_service,
    stop,
    table_test_options,
    write_test_cards,
)
from service_rig import private_display  # noqa: E402

OUT = ROOT / "docs" / "img"
ONLY: set[str] = set()  # names given on the command line: only those pictures are made again


def shrink(png: Path) -> None:
    from PIL import Image

    with Image.open(png) as image:
        image.convert("RGB").quantize(colors=64).save(png, optimize=True)


def shoot(table: dict, screen: str, name: str, size: str = "800x480") -> dict:
    png = OUT / f"kiosk-{name}.png"
    if ONLY and name not in ONLY:
        return {}
    report = run_kiosk([PYTHON, "-m", "table.cli", "run", "--sim", "--socket", str(table["socket"]),
                        "--screenshot", str(png), "--size", size, "--screen", screen], table["env"])
    if report["layout_problems"]:
        raise SystemExit(f"{name}: {report['layout_problems']}")
    shrink(png)
    return report


def fresh_table(home: Path, display: str) -> dict:
    env = kiosk_env(home, display)
    write_test_cards(env)
    socket_path = home / "run" / "table.sock"
    return {"env": env, "socket": socket_path, "service": start_service(socket_path, home / "t.db", env)}


def command_form_shot(table: dict, shots: Path) -> None:
    info = request(table["socket"], {"op": "game_info", "game": "nba-showdown"})["info"]
    request(table["socket"], {"op": "new_game", "game": "nba-showdown",
                              "options": info["setup_form"]["presets"][0]["options"]})
    play_until(table["socket"], lambda s: "play_card" in s["prompt"]["commands"])
    report = run_kiosk([PYTHON, str(ROOT / "tests" / "kiosk_play_driver.py"), "strategy_card", "--socket",
                        str(table["socket"]), "--out", str(shots)], table["env"], timeout=300)
    if not report["ok"] or report["shots"]["03-form-filled"]["problems"]:
        raise SystemExit(f"command form: {report.get('error') or report['shots']['03-form-filled']}")
    png = OUT / "kiosk-command-form.png"
    shutil.copy(shots / "03-form-filled.png", png)
    shrink(png)


def main() -> int:
    ONLY.update(name for name in (sys.argv[1].split(",") if len(sys.argv) > 1 else []) if name)
    with private_display() as display:
        return shoot_all(display)


def shoot_all(display: str) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp())
    tables: list[dict] = []
    try:
        # A game in its first attack: home (with the game to resume), setup, card editor, table.
        table = fresh_table(work / "a", display)
        tables.append(table)
        shoot(table, "home", "home-empty")
        request(table["socket"], {"op": "new_game", "game": "valley-hoopers",
                                  "options": table_test_options()})
        for command in ({"type": "attack", "shot": "2PS", "position": "SG"},
                        {"type": "defend", "hooper": "Chus Kinder"},
                        {"type": "roll", "die": "d8foul", "face": "whistle"}):
            assert request(table["socket"], {"op": "command", "command": command})["ok"]
        shoot(table, "resolve", "resolve-fouled-shot")
        shoot(table, "setup", "setup")
        shoot(table, "card", "card-editor")
        for face in (50, 20, 20):
            roll = {"type": "roll", "die": "d20x5", "face": face}
            request(table["socket"], {"op": "command", "command": roll})
        shoot(table, "table", "table")
        # Touch Display 2 upright: the sides stacked, both sides' starters first.
        shoot(table, "table", "table-upright", size="720x1280")
        shoot(table, "settings", "settings")
        # A desktop window wider than the kiosk's screen (1000 dp or more) opens the simulated hardware.
        shoot(table, "resolve", "sim-panel", size="1280x800")

        # Between periods, then the end of a fast game.
        table = fresh_table(work / "b", display)
        tables.append(table)
        request(table["socket"], {"op": "new_game", "game": "valley-hoopers",
                                  "options": table_test_options() | {"variant": "fast"}})
        play_until(table["socket"], lambda s: "replenish the four common playbooks on the scoreboard"
                   in s["view"]["reminders"])
        shoot(table, "between", "between")
        play_until(table["socket"], lambda s: s["outcome"] is not None)
        shoot(table, "gameend", "game-end")
        shoot(table, "history", "history")

        # Home with a finished game and an unfinished one, and Delete asked first.
        if not ONLY or "home" in ONLY:
            request(table["socket"], {"op": "new_game", "game": "valley-hoopers",
                                      "options": table_test_options()})
            for command in ({"type": "attack", "shot": "2PS", "position": "SG"},
                            {"type": "roll", "die": "d20x5", "face": 30}):
                assert request(table["socket"], {"op": "command", "command": command})["ok"]
            shoot(table, "home", "home", size="1280x720")  # tall enough for both lists
            shots = work / "home-shots"
            report = run_kiosk([PYTHON, str(ROOT / "tests" / "kiosk_home_driver.py"), "delete_question",
                                "--socket", str(table["socket"]), "--out", str(shots)], table["env"])
            if not report["ok"]:
                raise SystemExit(report["error"])
            shutil.copyfile(report["shots"]["delete-question"]["path"], OUT / "kiosk-home-delete.png")
            shrink(OUT / "kiosk-home-delete.png")

        # NBA Showdown's scoring roll: a strategy card entered in the command form.
        if not ONLY or "command-form" in ONLY:
            table = fresh_table(work / "c", display)
            tables.append(table)
            command_form_shot(table, work / "c" / "shots")
    finally:
        for table in tables:
            stop(table["service"])
        shutil.rmtree(work, ignore_errors=True)
    sizes = {p.name: p.stat().st_size for p in sorted(OUT.glob("kiosk-*.png"))}
    print(json.dumps(sizes, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
