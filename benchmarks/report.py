"""The benchmark figures as a terminal table and as docs/performance.md."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.measures import Figure

# Before this work: what issue 15 measured, and this harness run on the integration branch it
# started from (commit 43c028b, 2026-12-01, same machine, load average about 5), by measure prefix.
BEFORE = {
    "restore a 10,000": "issue: 0.49 s, 19x; 43c028b: 968 ms, 9.3x",
    "the same by full replay": "43c028b: 1,334 ms, 10.6x",
    # 50d455b: the command row before one resolve per command (per-round interleaving, load 1), and
    # the CPU time of handle with synchronous=OFF (thread time, load 8), to compare with the notes.
    "one accepted command: valley-hoopers": "issue: 0.76 ms, 5-6.5x; 43c028b: 7.15 ms, 5.1x; "
                                            "50d455b: 1.05 ms, 4.41x, CPU 0.89 ms",
    "one accepted command: nba-showdown": "50d455b: 1.69 ms, 14.76x, CPU 1.89 ms",
    "one accepted command: crunch-time": "50d455b: 0.64 ms, 5.19x, CPU 0.38 ms",
    "one accepted command: hoop-godz": "50d455b: 0.79 ms, 6.28x, CPU 0.50 ms",
    "one accepted command: basketboss": "50d455b: 0.85 ms, 5.01x, CPU 0.48 ms",
    # fb2da9c: before the 5x7 font and the page-aligned bands (each text line straddled two pages).
    "OLED bytes per score change (": "43c028b: 320 B, 0.31x; 50d455b: 320 B, 0.31x; fb2da9c: 242 B, 0.23x",
    "OLED bytes per score change as": "issue: 454 B, 0.44x; 50d455b: 454 B, 0.44x; fb2da9c: 359 B, 0.35x",
    "OLED CPU": "issue: 0.93 ms, 2.2x; 43c028b: 1.19 ms, 0.88x",
    "companion --help": "issue: 3.2x; 43c028b: 7.7x; 50d455b: 2.45x (3.36x compiling every run)",
    "companion calc": "issue: 3.9x; 43c028b: 11.6x; 50d455b: 6.8x (12.8x compiling every run); "
                      "472e93c: 4.19x",
    "button press -> OLED frame": "issue: p50 24 ms, p99 28-33 ms; 50d455b: p50 24.6 ms, p99 41.7 ms",
    "the same without Session.handle": "50d455b: p50 21.7 ms, p99 32.1 ms (the debounce waited 20 ms)",
    "idle serve --sim": "issue: 43/s; 50d455b: 43.4/s",
    # 49454db: this harness on the kiosk before lazy screens (every screen built before the first frame),
    # alone and then launched alternately with the lazy build in one run (that run gave the build 1.21x).
    # fb2da9c: lazy screens, but the kiosk asked the service only once its window was up.
    "kiosk first frame": "issue: 1.9x; 49454db: 1.71x alone (load 3.9), 1.67x alternating with the lazy "
                         "build (1,406 vs 1,022 ms, one-Label 844 ms, load 4); fb2da9c: 1.37x (load 2.4), "
                         "1.05x-1.52x in runs minutes apart",
}

# The rows each measure writes, by prefix: ``--only`` keeps the other rows of the previous run.
GROUPS = {
    "restore": ("restore a", "the same by full replay"),
    "command": ("one accepted command",),
    "oled": ("OLED",),
    "startup": ("companion ",),
    "latency": ("button press", "the same without Session.handle"),
    "idle": ("idle serve",),
    "kiosk": ("kiosk first frame",),
}

# Where the hand-written part of docs/performance.md starts (how each row's work is done, what a Pi
# changes): a run rewrites the measured part above it and keeps this part as the doc has it.
PROSE_HEADING = "## How a command works now"


def kept_prose(previous: str) -> str:
    r"""The doc's hand-written part, from ``PROSE_HEADING`` to its end (kept by every run).

    >>> kept_prose("# Performance\n| a |\n## How a command works now\nby hand\n")
    '## How a command works now\nby hand\n'
    """
    start = previous.find("\n" + PROSE_HEADING)
    if start < 0:
        return f"{PROSE_HEADING}\n\n(Not written yet: this part of the doc is written by hand.)\n"
    return previous[start + 1:]


def _ratio(figure: Figure) -> str:
    # A goal in the figure's own unit (p99 <= 5 ms) makes the ratio to a near-zero baseline meaningless.
    if figure.limit is not None or not figure.show_ratio or figure.ratio == float("inf"):
        return "-"
    return f"{figure.ratio:.2f}x"


def _goal(figure: Figure) -> str:
    if figure.limit is not None:
        return f"<= {figure.limit:g} {figure.unit}"
    return "-" if figure.goal is None else f"<= {figure.goal:g}x"


def _holds(figure: Figure) -> str:
    return {None: "-", True: "yes", False: "no"}[figure.holds]


def _before(figure: Figure) -> str:
    return next((v for k, v in BEFORE.items() if figure.measure.startswith(k)), "-")


def render_text(figures: list[Figure]) -> str:
    lines = [f"{'measure':62} {'value':>10} {'baseline':>10} {'ratio':>7} {'goal':>7} holds"]
    for f in figures:
        lines.append(f"{f.measure[:62]:62} {f.value:8.2f}{f.unit:>2} {f.baseline:8.2f}{f.unit:>2} "
                     f"{_ratio(f):>7} {_goal(f):>7} {_holds(f)}")
    return "\n".join(lines)


def carried_rows(previous: str, measured: list[str]) -> list[str]:
    """The table rows of a previous docs/performance.md that belong to none of the ``measured`` groups."""
    prefixes = tuple(prefix for group in measured for prefix in GROUPS[group])
    rows = [line for line in previous.splitlines() if line.startswith("| ") and line.count(" | ") >= 6]
    return [row for row in rows[1:] if not row[2:].startswith(prefixes)]  # [1:]: the header


def _group_index(row: str) -> int:
    """Rows in the order of ``GROUPS`` (the order ``python -m benchmarks`` measures them in)."""
    groups = enumerate(GROUPS.values())
    return next((n for n, prefixes in groups if row[2:].startswith(prefixes)), len(GROUPS))


def _notes_of(previous: str, rows: list[str]) -> list[str]:
    names = [row[2:].split(" | ")[0] for row in rows]
    return [line for line in previous.splitlines() if line.startswith("- ")
            and any(line[2:].startswith(f"{name}:") for name in names)]


def render_markdown(figures: list[Figure], machine: str, stamp: str, rounds: int, load: str,
                    carried: Sequence[str] = (), previous: str = "", measured: Sequence[str] = ()) -> str:
    rows = "\n".join(sorted(
        [f"| {f.measure} | {f.value:.2f} {f.unit} | {f.baseline_name}: {f.baseline:.2f} {f.unit} | "
         f"{_ratio(f)} | {_before(f)} | {_goal(f)} | {_holds(f)} |" for f in figures] + list(carried),
        key=_group_index))
    notes = "\n".join([f"- {f.measure}: {f.note}." for f in figures if f.note] + _notes_of(previous, carried))
    cells = [(f.measure, _holds(f)) for f in figures] + [
        (row[2:].split(" | ")[0], row.rstrip(" |").rsplit("| ", 1)[-1].strip()) for row in carried]
    cells.sort(key=lambda cell: _group_index(f"| {cell[0]}"))
    held = [name for name, holds in cells if holds == "yes"]
    missed = [name for name, holds in cells if holds == "no"]
    which = ""
    if carried:
        old_stamp = previous.split(" on ", 1)[1].split(", on ", 1)[0] if " on " in previous else "?"
        which = (f"; only the rows of `--only {','.join(measured)}` were measured then, the others come "
                 f"from earlier runs, the last written {old_stamp}")
    return f"""# Performance

Written by `python -m benchmarks` (or `make bench`) on {stamp}, on {machine}, load average {load}
when it started{which} (absolute times move with the load and the disk, the interleaved ratios
less so; start-up ratios are the most sensitive to load). Every figure is the median of {rounds}
rounds in which it and its bare-library baseline were timed alternately, in the same run; the ratio
is what the goals of issue 15 are about. These are measurements, not tests: nothing fails when a
goal is missed (the tests guard only the asymptotic claims, with wide margins:
`tests/test_snapshots.py`).

| measure | now | bare baseline | ratio | before | goal | holds |
|---|---|---|---|---|---|---|
{rows}

Goals that hold: {", ".join(held) or "none"}.
Goals missed: {", ".join(missed) or "none"}.

Notes:
{notes}

Every row of issue 15's table is measured here (the kiosk's first frame under its own Xvfb).

{kept_prose(previous)}"""
