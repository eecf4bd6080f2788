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

PI_NOTES = """\
## On a Raspberry Pi 4

A Pi 4's Cortex-A72 at 1.5-1.8 GHz runs pure Python about 3-4x slower than this machine's cores, and its
SD card or USB disk syncs far slower than a server disk. What that does to each row:

- **Restore** and **full replay** are Python work (unpickling the head snapshot, recording at most 64
  entries and applying at most 15 more to rebuild the state under an undo; decoding rows for the
  baseline): both sides scale with the CPU, so the ratio holds, and the absolute restore stays flat as
  the log grows because only the tail since the last snapshot is replayed.
- **One command** is Python (the rules, the snapshot JSON) plus one fsync. On a Pi the fsync of an SD card
  (several ms) dominates both the command and the bare INSERT+COMMIT, so the ratio there is *lower* than
  here; the absolute time per command is higher.
- **OLED bytes** do not depend on the CPU. **OLED CPU** is PIL and bytes work in C for the partial driver
  and luma's own per-frame Python for `display()`: both scale with the CPU alike, so the ratio carries
  over; the I2C bus time (about 25 ms for a full frame at 400 kHz) is what the byte count saves.
- **Button press -> OLED frame** is Python on three threads (the pin callback, the owner, the displays)
  plus the commit's fsync; the debounce adds nothing (a press is reported on its first edge). On a Pi
  the rules and the drawing run 3-4x slower and an SD card's fsync takes several ms, so the absolute
  p99 there is higher than here; the part without `Session.handle` scales with the CPU alone.
- **Idle wake-ups** do not depend on the CPU: a blocked thread sleeps the same on a Pi. Under systemd
  the watchdog beat adds one wake-up every `WatchdogSec / 2`.
- **Kiosk first frame**: both the kiosk and the one-Label app are mostly Kivy's start and Python work,
  which scale with the CPU alike; the Pi's GPU draws with its own driver where this machine draws with
  Mesa's software GL under Xvfb, so the drawing part differs. Expect a similar ratio and 3-4x the
  absolute times; the service's first answers, asked for while Kivy loads, are in all the sooner
  against a Kivy start that takes seconds there.
- **Start-up** ratios compare imports against a bare interpreter: both scale with the CPU and the disk,
  and reading bytecode from an SD card weighs on the companion more (more files), so expect the ratio to
  be somewhat higher on a Pi.
"""


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

## How a command works now

`session.handle` decides, renders the new state (prompt, view, scoreboard) and only then appends the
entry. One resolve per command: a game whose `decide` must resolve the command to say what happened
(Valley Hoopers, NBA Showdown) declares `play`, which hands the engine that state instead of
re-applying the events; and a choice the prompt already tried (`companion.trials`) is not resolved
again. States are copied with `companion.frozen.replace` (no `__init__` per copy); the JSON of
records successive states share (hoopers, cards, odds) is built once (`companion.frozen.by_identity`);
command checks and chart odds are built once.

What one state's render reads more than once is counted once per state, by the state's identity
(`by_identity`, `by_identities` for a value that reads two records): Valley Hoopers' pending target
(the prompt, the scoreboard and the view each showed it, and each choice's odds come from it on the
state the choice leads to, which becomes the next state when that choice is picked); NBA Showdown's
prompt (its scoreboard read the shot check's rule from a second one), the modifiers of the roll under
way (read four times), the players' panel and the box totals (rebuilt only when a team or the box
score changes), the lists of cards, box lines, strategy cards and the score flow (built once per
tuple) and a team's cards by name (a scan with `lower()` on every lookup). The prompt's `die_info`,
`face_marks` and outcomes, and a roll's chance, are counted once per die and success rule
(`RollInfo.json_parts`, `RollInfo.chance`): a game awaits the same few rolls again and again. A
`Target` counts its value once; its JSON writes a plain `Term` without `asdict`; a hooper's stats JSON
is one pass over its pairs. The trials key each candidate with a `frozenset` of its fields (a sorted
tuple of typed fields before) and check a hit with the exact key, so `true` and `1` still stay apart.
None of this changes a byte of any snapshot: every snapshot of the five full-game scripts, the series,
the pro and solo games, with 30 undos and 30 redos after each and a resume, was compared with the build
before it (`tests/test_render_memos.py` checks each memo against counting afresh).

The prompt still tries each candidate command on the state, so that no choice is ever offered that
the rules would refuse: that is most of what is left (in a Valley Hoopers play step about 40 trials, 15
of them accepted, about 60 µs each here). Counted without the clock (this machine's load made timings
of a few per cent meaningless): Python bytecodes executed per `session.handle` (`sys.settrace`,
synchronous=OFF, a full game) went from 17,200 to 13,000 at the median for Valley Hoopers (mean
30,600 to 27,400: its play steps) and from 26,700 to 17,300 for NBA Showdown (mean 31,800 to 23,300);
the other three games are unchanged. Instructions per command under callgrind (the mean, C included):
NBA Showdown 3.88 to 3.10 million, Valley Hoopers 3.96 to 3.74 million.

The command row alternates each command with a bare commit into a fresh WAL database, so a disk that
syncs slower for a while slows both; the CPU time in the notes is what the companion itself costs,
whatever the disk did. The ratio swings with the disk's sync time more than with anything the
companion does: with the bare commit at 2-4.5 ms (other work syncing the same disk) both this build and
the one before the per-state memos measured 1.6-2.3x for Valley Hoopers and NBA Showdown; with it at
0.4-0.7 ms (load 2.5-3, three runs each, alternating) this build measured 2.0-3.3x (median 3.2x) for
Valley Hoopers and 3.4-4.6x (3.7x) for NBA Showdown, the build before 2.8-4.2x (3.7x) and 3.1-4.3x
(4.0x). A "yes" in the table above says what the disk was doing as much as what the companion costs.
On a fast disk the goal is still missed: the store's own commit is 1.3x the bare one (a second row,
the game's summary, in the same transaction), which leaves about one bare commit (0.45 ms) for the
rules and the render, and a median command still takes 0.8-1.2 ms of Python here. Meeting it needs
the prompt's choices without a trial resolve of each candidate (a legality check the rules would
have to declare next to each command), or the render run while the commit's fsync waits (which
would write an entry before knowing it can be shown).

## How restore works now

The store keeps a head snapshot per game (every 64 entries: the state, the commands in effect and the
undone ones, by log position) and a checkpoint state every 16 commands in effect, both written in the
entry's own transaction (`companion/snapshots.py`). `Session.resume` unpickles the head and records only
the entries after it; an undo below the states it knows rebuilds from the nearest checkpoint; redo
applies the stored events (the rules are not run again). A snapshot from another build (the tag carries
the Python and companion versions and a hash of the game's and the engine's source) or one that fails to
load is ignored with a warning, and the whole log is replayed.

## The table's hardware path

- **A press reaches the table on its first edge.** The debounce no longer waits for the contact to
  settle (that was 20 of the 24 ms); it reports the edge at once and treats the edges of the next
  `debounce_ms` as bounce (`hardware/debounce.py`). What is left of a press is the rules and the
  commit (`Session.handle`) and two thread hand-overs; the row without `Session.handle` shows the
  hardware's own share.
- **A hand-over waits at most 1 ms for the GIL, and the start-up is out of the collector's sight.**
  `companion serve` sets the switch interval to 1 ms (CPython's 5 ms let the display thread wait that
  long behind an owner still publishing the snapshot) and calls `gc.freeze()` once everything is
  built, so a full collection during a press scans what the game made since, not the whole program
  (`table/press_tuning.py`; the latency benchmark runs with them). On this machine neither shows in
  the p99 (at a load of 6-8, three runs each way: 28-52 ms without, 23-35 ms with; at a load of 2.5-3,
  the benchmark's rows alternating with the build before: 18.9 and 21.4 ms against 17.3 and 19.9 ms,
  7.1-7.4 ms against 7.3-7.7 ms without `Session.handle`): what fills the tail here is the commit's
  fsync (`Session.handle`'s p50 3-5 ms, p99 14-40 ms while other work syncs the same disk) and the
  scheduler, which lets a woken thread wait for one of the two cores. A GIL wait shows only when two
  threads run Python at once, and a full collection only every so often in a long game; both
  settings bound those cases.
- **Idle means asleep.** The tray reader blocks in its read (pyserial's `cancel_read` wakes it when
  there is something to write), the simulated tray waits in `select` on its pty and a self-pipe, the
  display thread sleeps until a view arrives or a panel has something due (dimming, the pixel shift,
  a retry), and the owner queue waits without a timeout unless systemd's watchdog wants a beat.
  `tests/test_idle.py` fails if a once-a-second poller comes back.
- **The OLED gets only what changed**: the column runs of each page that differ, windows chosen by
  their cost on the bus (`hardware/oled_partial.py`); a run within one page goes out in page
  addressing (three command bytes, not six), a change down several pages as one window. On the
  128x64 panels every band keeps to its own 8-row pages (`hardware/oled_layout.py`): the top bar
  page 0, the 24-pixel digits pages 1-3 (they straddled four), an 8x8 possession arrow inside page 2,
  the fouls page 4, the names page 5 and the bottom line page 6 alone. Small text is a fixed 5x7 font
  (`hardware/oled_text.py`, luma's `LCD_FONT`) instead of Pillow's 11-row one, so a line of it fits
  one page: a new message rewrites one page instead of two, and, every character 6 columns wide,
  only from the first character that differs (the actor's name usually stays). A long message is cut
  at a word ("Wally Block scores 2..") rather than inside one ("Wally Block scores ."). The bottom
  line is still about half of a score change's bytes: it says what happened (or, on the table, what
  CONFIRM enters), and that is new after every command; the digits and the arrow are the rest.
- **Start-up** imports what the subcommand needs: `companion --help` builds the list of subcommands
  without their options and loads no store and no game; `find_game` imports the one game folder it
  needs. `companion calc` loads none of the game's rules: a game package builds `GAME` only when
  asked (`declaration.py`), and the CLI reads the package's `NAME` and its `calculators.py` (the
  fields, with `companion.forms`; each answer imports only the arithmetic it needs, for Valley
  Hoopers `target_numbers` and `card_values`). What it pays now is `argparse`, `dataclasses` (with
  `inspect`) and `fractions`; `tests/test_startup.py` names what it must not import.

## The kiosk's first frame

`companion run` asks the table service its first questions (the state, the saved games, the status,
the known games and each one's parts) on a thread of its own before it imports Kivy
(`kiosk.client.Prefetch`): Kivy's start takes long enough (about a second here, more on a Pi) that the
answers are in when the app builds its root, and the app takes them there, so the very first frame it
draws is the table's screen. Only that screen is built before it: `KioskScreens`
(`kiosk/screens/__init__.py`) imports a screen's module and loads its `.kv` the first time the screen
is asked for, and once the first frame is out the others are built one a frame; the simulated
hardware's panel is built only in simulation (the appliance parsed and built it, hidden). Without a
service (yet) the kiosk shows an empty screen under "CONNECTING..." (not the home screen the state
might replace at once) and asks through its own connection; the service's answers are handled
the moment they arrive (Kivy's `free_only` clock, `kivy_config.ini`), not at the next of 30 frames a
second. What is left above the one-Label app is the kiosk's own imports and `.kv` rules, building and
filling the table's screen (a grid of choice buttons: Kivy builds each from its rules), and drawing it
(many labels, each a texture). The row measures a kiosk joining a service that already
runs, as the appliance does (`companion run --sim` starting its own service adds the service's start:
`benchmarks/kiosk.py`).

{PI_NOTES}"""
