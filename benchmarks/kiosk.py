"""Kiosk figures: launch to first interactive frame, tap to new screen, and memory after a game.

    .venv/bin/python benchmarks/kiosk.py [--runs 3]

Starts its own Xvfb and a simulated ``companion serve``; every figure is measured on the real
Kivy app:

- ``launch_to_first_frame``: from before ``companion run`` is started (service already running)
  to the first frame that shows the table's state and takes taps; and the same for
  ``companion run --sim`` starting its own service (cold start of both);
- a whole Fast game played by touch through the kiosk (setup included): taps, and the time from a
  tap to the new state on the UI thread (p50/p95; it is drawn at the next frame, <= 33 ms later);
- RSS of the kiosk and of the service after that game.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this file's folder comes first on the path and its name would hide the kiosk package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from kiosk_support import PYTHON, kiosk_env, run_kiosk, start_service, stop, write_test_cards  # noqa: E402


def rss_kib(pid: int) -> dict[str, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    values = {line.split(":")[0]: int(line.split()[1]) for line in status.splitlines()
              if line.startswith(("VmRSS:", "VmHWM:"))}
    return {"rss_kib": values["VmRSS"], "peak_rss_kib": values["VmHWM"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="launches to time (the median is reported)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kiosk-bench-"))
    xvfb = subprocess.Popen(["Xvfb", ":93", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    results: dict[str, object] = {}
    try:
        env = kiosk_env(work, ":93")
        write_test_cards(env)
        socket_path = work / "run" / "table.sock"

        # Cold: companion run --sim starts its own service, then the kiosk.
        cold = []
        for run in range(args.runs):
            started = time.time()
            report = run_kiosk([PYTHON, "-m", "table.cli", "--db", str(work / f"cold{run}.db"), "run",
                                "--sim", "--socket", str(work / "run" / f"cold{run}.sock"),
                                "--screenshot", str(work / f"cold{run}.png"), "--size", "800x480"], env)
            cold.append(report["ready_wall"] - started)
        results["launch_to_first_frame_with_service_start_s"] = round(statistics.median(cold), 2)

        service = start_service(socket_path, work / "table.db", env)
        try:
            warm = []
            for run in range(args.runs):
                started = time.time()
                report = run_kiosk([PYTHON, "-m", "table.cli", "run", "--sim", "--socket",
                                    str(socket_path), "--screenshot", str(work / f"warm{run}.png"),
                                    "--size", "800x480"], env)
                warm.append(report["ready_wall"] - started)
            results["launch_to_first_frame_s"] = round(statistics.median(warm), 2)

            started = time.monotonic()
            report = run_kiosk([PYTHON, str(ROOT / "tests" / "kiosk_driver.py"), "play_game", "--socket",
                                str(socket_path), "--out", str(work / "shots"), "--size", "800x480", "--sim",
                                "--step-timeout", "30"], env, timeout=900)
            if not report["ok"]:
                raise SystemExit(report["error"])
            results["game"] = {key: report[key] for key in ("commands", "taps", "tap_to_state_p50_ms",
                                                            "tap_to_state_p95_ms", "final_score")}
            results["game"]["seconds"] = round(time.monotonic() - started, 1)  # type: ignore[index]
            results["kiosk_after_game"] = {"rss_kib": report["kiosk_rss_kib"],
                                           "peak_rss_kib": report["kiosk_peak_rss_kib"]}
            results["service_after_game"] = rss_kib(service.pid)
        finally:
            stop(service)
    finally:
        xvfb.terminate()
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
