"""Store figures: commits per second with synchronous=FULL, restore times, peak RSS.

    .venv/bin/python benchmarks/store.py [--commits 2000] [--dir PATH]

The restore of a full game uses the Valley Hoopers full-game script from the tests when it is
there (a real 4-period game), and always a 10,000-entry log of the small test game.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import tally_game  # noqa: E402

from companion.session import Session, parse_command  # noqa: E402
from companion.store import Store  # noqa: E402

FULL_GAME_CANDIDATES = [ROOT / "tests" / "data" / "full_game_valley_hoopers.jsonl",
                        ROOT / "tests" / "games" / "full_game_valley_hoopers.jsonl"]


def tally_command(n: int) -> dict:
    return {"type": "undo"} if n % 2 else {"type": "score", "side": n % 4 // 2, "points": 1}


def timed(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--dir", default=None, help="folder for the temporary databases (default: the repo)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir or ROOT) as tmp:
        results = measure(Path(tmp), args.commits)
    print(json.dumps(results, indent=2))
    return 0


def measure(base: Path, commits: int) -> dict[str, object]:
    results: dict[str, object] = {}

    store = Store.open(base / "commits.db")
    session = Session.new(store, tally_game.GAME, {})
    started = time.perf_counter()
    for n in range(commits):
        session.handle(tally_command(n))
    elapsed = time.perf_counter() - started
    results["commits_per_second_sync_full"] = round(commits / elapsed, 1)
    results["ms_per_commit"] = round(1000 * elapsed / commits, 3)

    while session.seq < 10_000:
        session.handle(tally_command(session.seq))
    results["restore_10000_entries_s"] = round(timed(lambda: Session.resume(store, session.game_id,
                                                                              tally_game.find)), 4)
    store.close()

    full_game = next((p for p in FULL_GAME_CANDIDATES if p.exists()), None)
    if full_game is not None:
        lines = [json.loads(line) for line in full_game.read_text().splitlines() if line.strip()]
        vh_store = Store.open(base / "vh.db")
        options = {k: v for k, v in lines[0].items() if k != "type"}
        vh = Session.new(vh_store, "valley-hoopers", options)
        for line in lines[1:]:
            vh.handle(parse_command(json.dumps(line)))
        results["valley_hoopers_full_game_entries"] = vh.seq + 1
        results["valley_hoopers_events"] = sum(len(e["events"]) for e in vh.timeline.history())
        results["restore_valley_hoopers_full_game_s"] = round(
            timed(lambda: Session.resume(vh_store, vh.game_id)), 4)
        # A Valley Hoopers log of 10,000 entries: the game, then undo/redo walks back and forth
        # over its last commands (each redo re-applies the events, as a restore must).
        walked = 0
        while vh.seq < 9_999:
            vh.handle({"type": "undo"} if (walked // 20) % 2 == 0 else {"type": "redo"})
            walked += 1
        results["restore_valley_hoopers_10000_entries_s"] = round(
            timed(lambda: Session.resume(vh_store, vh.game_id), repeat=3), 4)
        vh_store.close()
    results["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return results


if __name__ == "__main__":
    sys.exit(main())
