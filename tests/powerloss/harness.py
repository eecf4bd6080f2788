"""Record a traced game, cut the power at chosen points of the trace, and check every rebuilt store.

Shared by tests/test_power_loss_trace.py (a short run) and benchmarks/power_loss.py (the long one).

A rebuilt store passes when it opens with the real ``Store``, ``PRAGMA integrity_check`` says
``ok``, and for every game it holds at least every entry acknowledged before the cut, each equal to
the entry finally written (so nothing half-written passes for an acknowledged entry).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import StoreError
from companion.store import Store
from powerloss.rebuild import ACKS, Disk, Kind, Mode, Op, Torn, read_trace, snapshots, write_image

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FULL_GAME = ROOT / "tests" / "games" / "full_game_valley_hoopers.jsonl"
DB = "game.db"


def build_shim(into: Path) -> Path:
    """Compile trace_io.c into ``into`` (kept while the source is unchanged)."""
    source = HERE / "trace_io.c"
    shim = into / "trace_io.so"
    if shim.exists() and shim.stat().st_mtime >= source.stat().st_mtime:
        return shim
    into.mkdir(parents=True, exist_ok=True)
    building = into / f"trace_io.{os.getpid()}.so"
    subprocess.run([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-O2", "-Wall", "-o", str(building),
                    str(source), "-ldl", "-lpthread"], check=True)
    building.replace(shim)  # atomic: a parallel run never loads a half-written library
    return shim


@dataclass
class Recording:
    """A traced run: its operations and the log each game finally holds."""

    ops: list[Op]
    final_logs: dict[int, list[dict]]


def record(shim: Path, work: Path, games: int = 1, restart_every: int = 0, wal_autocheckpoint: int = 1000,
           synchronous: str = "FULL", script: Path = FULL_GAME) -> Recording:
    """Play ``games`` full games in a subprocess under the shim; return the trace and the final logs."""
    folder = (work / "live").resolve()
    folder.mkdir(parents=True)
    trace = work / "trace.bin"
    env = dict(os.environ, TRACE_IO_DIR=str(folder), TRACE_IO_FILE=str(trace), LD_PRELOAD=str(shim),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, str(HERE / "workload.py"), str(folder), str(script),
                    "--games", str(games), "--restart-every", str(restart_every),
                    "--wal-autocheckpoint", str(wal_autocheckpoint), "--synchronous", synchronous],
                   env=env, check=True)
    ops = read_trace(trace, folder)
    _check_trace_is_complete(ops, folder)
    store = Store.open(folder / DB, create=False)
    try:
        final_logs = {record.id: store.entries(record.id) for record in store.games()}
    finally:
        store.close()
    return Recording(ops, final_logs)


def _check_trace_is_complete(ops: list[Op], folder: Path) -> None:
    """Every write applied must give back the real files: the shim missed nothing that matters."""
    *_, (_, disk) = snapshots(ops, [len(ops)])
    image = disk.image(Mode.ALL, random.Random(0), Torn())
    real = {path.name: path.read_bytes() for path in folder.iterdir()
            if path.name != ACKS and not path.name.endswith("-shm")}
    if image != real:
        raise AssertionError(f"the trace does not rebuild the real files: {sorted(image)} vs {sorted(real)}, "
                             f"sizes {[len(v) for v in image.values()]} vs {[len(v) for v in real.values()]}")


@dataclass(frozen=True)
class Cut:
    """Where the power goes (after the first ``position`` operations) and what the disk then holds."""

    position: int
    mode: Mode
    strict_dirs: bool = False

    def __str__(self) -> str:
        return f"cut {self.position} ({self.mode.value}{', strict folder' if self.strict_dirs else ''})"


def choose_cuts(ops: Sequence[Op], count: int, rng: random.Random,
                modes: Sequence[Mode] = (Mode.TORN, Mode.SUBSET)) -> list[Cut]:
    """``count`` cut points: half anywhere in the trace, half right around the rare, risky moments.

    Each gets a random mode, and one in two keeps only the folder entries the last folder fsync saw.

    A game is mostly WAL appends; checkpoints (writes to the database file), WAL headers (a restarted
    WAL), truncations and deletions are a few dozen operations out of thousands, so uniform cuts
    alone would seldom land in them.
    """
    risky = sorted({position for i, op in enumerate(ops) if op.name != ACKS and (
        op.name == DB or op.kind in (Kind.TRUNCATE, Kind.UNLINK, Kind.OPEN)
        or (op.kind is Kind.WRITE and op.offset == 0)) for position in (i, i + 1)})
    cuts = []
    for n in range(count):
        position = rng.choice(risky) if n % 2 and risky else rng.randint(0, len(ops))
        cuts.append(Cut(position, rng.choice(list(modes)), rng.random() < 0.5))
    return cuts


@dataclass
class CutResult:
    cut: Cut
    acknowledged: int  # entries acknowledged before the cut, all games
    opened: bool = False  # the real Store opened it and read every game's log
    integrity: str = ""
    lost: int = 0  # acknowledged entries missing from the rebuilt store
    in_checkpoint: bool = False  # the database file had unsynced writes when the power went
    problems: list[str] = field(default_factory=list)


@dataclass
class Summary:
    cuts: int = 0
    torn: Torn = field(default_factory=Torn)
    in_checkpoint: int = 0
    opened: int = 0
    integrity_ok: int = 0
    acknowledged: int = 0  # summed over the cuts
    lost: int = 0
    problems: list[str] = field(default_factory=list)
    results: list[CutResult] = field(default_factory=list)

    def line(self) -> str:
        return (f"cuts: {self.cuts} ({self.in_checkpoint} inside a checkpoint)  "
                f"torn writes: {self.torn.torn} ({self.torn.noise} with a garbage "
                f"sector; whole {self.torn.whole}, dropped {self.torn.dropped})  opened ok: {self.opened}  "
                f"integrity ok: {self.integrity_ok}  "
                f"acknowledged (summed over cuts): {self.acknowledged}  acknowledged lost: {self.lost}")


def check_image(folder: Path, acks: list[tuple[int, int]], final_logs: dict[int, list[dict]],
                result: CutResult) -> None:
    """Open the rebuilt store like the service would after the power came back, and check it."""
    acked: dict[int, int] = {}
    for game_id, seq in acks:
        acked[game_id] = max(acked.get(game_id, -1), seq)
    try:
        store = Store.open(folder / DB)
    except StoreError as exc:
        result.problems.append(f"{result.cut}: does not open: {exc}")
    else:
        try:
            for game_id, seq in acked.items():
                entries = store.entries(game_id)
                if len(entries) <= seq:
                    result.lost += seq + 1 - len(entries)
                    result.problems.append(f"{result.cut}: game {game_id} holds "
                                           f"{len(entries)} entries, {seq + 1} were acknowledged")
                if entries != final_logs[game_id][:len(entries)]:
                    result.problems.append(f"{result.cut}: game {game_id}'s "
                                           "log is not a prefix of the log that was written")
            result.opened = True
        except (StoreError, ValueError) as exc:  # ValueError: an entry that is not JSON any more
            result.problems.append(f"{result.cut}: cannot read: {exc!r}")
        finally:
            store.close()
    try:
        with sqlite3.connect(f"file:{folder / DB}?mode=ro", uri=True) as raw:
            result.integrity = str(raw.execute("PRAGMA integrity_check").fetchone()[0])
        raw.close()
    except sqlite3.Error as exc:
        result.integrity = f"error: {exc}"
    if result.integrity != "ok":
        result.problems.append(f"{result.cut}: integrity_check says "
                               f"{result.integrity}")


def run_cuts(recording: Recording, cuts: Sequence[Cut], work: Path, rng: random.Random,
             damage: bool = False) -> Summary:
    """Rebuild the store at each cut, check it, and add up what was found.

    ``damage`` overwrites one durable page of the database file with noise before checking:
    used only to show that the checker notices a broken store.
    """
    summary = Summary()
    by_position: dict[int, list[Cut]] = {}
    for cut in cuts:
        by_position.setdefault(cut.position, []).append(cut)
    n = 0
    for position, disk in snapshots(recording.ops, by_position):
        for cut in by_position[position]:
            image = disk.image(cut.mode, rng, summary.torn, cut.strict_dirs)
            if damage:
                image = _damaged(image, rng)
            folder = work / f"cut{n}"
            n += 1
            write_image(image, folder)
            result = CutResult(cut, sum(seq + 1 for seq in _last_seqs(disk).values()),
                               in_checkpoint=DB in disk.files and bool(disk.files[DB].pending))
            check_image(folder, disk.acks, recording.final_logs, result)
            shutil.rmtree(folder)
            summary.cuts += 1
            summary.in_checkpoint += result.in_checkpoint
            summary.opened += result.opened
            summary.integrity_ok += result.integrity == "ok"
            summary.acknowledged += result.acknowledged
            summary.lost += result.lost
            summary.problems += result.problems
            summary.results.append(result)
    return summary


def _last_seqs(disk: Disk) -> dict[int, int]:
    last: dict[int, int] = {}
    for game_id, seq in disk.acks:
        last[game_id] = max(last.get(game_id, -1), seq)
    return last


def _damaged(image: dict[str, bytes], rng: random.Random) -> dict[str, bytes]:
    content = bytearray(image.get(DB, b""))
    pages = len(content) // 4096
    if pages >= 2:
        page = rng.randrange(1, pages)  # never page 1: a bad header is refused before any check runs
        content[page * 4096:(page + 1) * 4096] = rng.randbytes(4096)
    return {**image, DB: bytes(content)}


def describe(recording: Recording) -> str:
    counts: dict[str, int] = {}
    for op in recording.ops:
        key = f"{op.kind.name.lower()} {op.name or '(folder)'}"
        counts[key] = counts.get(key, 0) + 1
    return json.dumps(counts, indent=1)
