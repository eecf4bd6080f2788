"""Issue 16's tap counts at every supported size (the sweep tests/test_kiosk_taps.py keeps short):

    .venv/bin/python benchmarks/taps.py [--sizes 800x480,1024x600,1280x720,720x1280]

Starts its own Xvfb and a simulated ``companion serve``; for every size, every shipped game from
Home: New game, Quick start, then the plays a player going for points taps (tests/kiosk_touch_game.py:
a success face, the game's plan, the best expected points, the first real choice) until the score
changes (at most 30 taps), and Valley Hoopers' three paths (tests/test_kiosk_taps.py's ``VH_PATHS``).
The counts include Quick start's 2 taps. Prints one line per game and
size; nothing passes or fails here (the test holds the targets).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this file's folder comes first on the path and its name would hide the kiosk package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from kiosk_support import kiosk_env, request, start_service, stop  # noqa: E402
from test_kiosk_taps import LIMIT, PLANS, VH_PATHS, quick_many  # noqa: E402

SIZES = "800x480,1024x600,1280x720,720x1280"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=SIZES)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="taps-bench-"))
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1280x24", "-nolisten",
                             "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        display = numbers.readline().strip()
    env = kiosk_env(work, f":{display}")
    socket_path = work / "run" / "table.sock"
    service = start_service(socket_path, work / "table.db", env)
    table = {"env": env, "socket": socket_path}
    try:
        titles = [g["title"] for g in request(socket_path, {"op": "known_games"})["known_games"]]
        print("size       game                                  to prompt  to score  paths")
        for size in args.sizes.split(","):
            paths = {t: [p for p, _most in VH_PATHS.values()] for t in titles
                     if t.startswith("Valley Hoopers")}
            counted = quick_many(table, titles, size, paths, LIMIT, PLANS)
            for title, taps in counted.items():
                total = taps["to_first_prompt"] + taps["to_first_score"]
                score = str(total) if taps["scored"] else f"none in {total}"
                counted = ", ".join(f"{name} {p['taps']}{'' if p['scored'] else ' (no score)'}"
                                    for name, p in zip(VH_PATHS, taps["paths"], strict=False))
                print(f"{size:10} {title[:36]:37} {taps['to_first_prompt']:>9}  {score:>8}  {counted}",
                      flush=True)
    finally:
        stop(service)
        xvfb.terminate()
        xvfb.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
