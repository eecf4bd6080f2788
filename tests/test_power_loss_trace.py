"""Power loss the way SQLite tests it: record every write and sync, then cut the power anywhere.

A full Valley Hoopers game runs through the real ``Session`` and ``Store`` in a subprocess under an
LD_PRELOAD shim (tests/powerloss/trace_io.c) that records each write, truncate, sync, create and
delete of the files in its folder, and the moment each command was acknowledged. At random points of
that trace the files are rebuilt as a disk holds them after a power cut: what a sync made durable
stays; of the rest, either everything is dropped but a torn sector-prefix of each file's last write,
or a random subset survives, some of it torn (half the tears with a garbage sector); half the cuts
also forget folder changes the folder's fsync had not yet seen. Each rebuilt store must open, pass
``PRAGMA integrity_check`` and hold every acknowledged command. The checker is also shown failing
where loss is real (``synchronous=NORMAL``, a lying fsync, a damaged page). The long run is
benchmarks/power_loss.py; docs/reliability.md has its figures.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from powerloss.harness import DB, Cut, Recording, build_shim, choose_cuts, record, run_cuts
from powerloss.rebuild import OPEN_CREATED, Disk, Kind, Mode, Op, Torn, sectors

SEED = 2026
CUTS = 80


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory.mktemp("trace_io_build"))


@pytest.fixture(scope="module")
def recording(shim: Path, tmp_path_factory: pytest.TempPathFactory) -> Recording:
    # A restart every 100 commands checkpoints the WAL and deletes it; a checkpoint every 100 pages
    # restarts the WAL in place in between: the trace holds every kind of write the store makes.
    return record(shim, tmp_path_factory.mktemp("trace"), games=1, restart_every=100, wal_autocheckpoint=100)


def test_the_trace_holds_commits_checkpoints_and_acknowledgements(recording: Recording) -> None:
    ops = recording.ops
    acks = [i for i, op in enumerate(ops) if op.name == "acks" and op.kind is Kind.WRITE]
    assert len(acks) == len(recording.final_logs[1])  # the setup and every command
    first_ack = acks[0]
    wal_syncs = [i for i, op in enumerate(ops) if op.kind is Kind.SYNC and op.name == f"{DB}-wal"]
    assert len(wal_syncs) >= len(acks)
    # Every acknowledgement after the first follows a sync of the WAL since the previous one.
    for before, ack in zip(acks, acks[1:], strict=False):
        assert any(before < sync < ack for sync in wal_syncs), f"ack at {ack} without a sync before it"
    # SQLite fsyncs the folder after creating a WAL, before anything is acknowledged into it.
    for created in (i for i, op in enumerate(ops) if op.kind is Kind.OPEN and op.name == f"{DB}-wal"
                    and op.offset & OPEN_CREATED):
        folder_sync = next(i for i, op in enumerate(ops[created:], created) if op.kind is Kind.SYNC
                           and op.name == "")
        assert not any(created < ack < folder_sync for ack in acks)
    checkpoint_writes = [op for op in ops[first_ack:] if op.kind is Kind.WRITE and op.name == DB]
    assert len(checkpoint_writes) >= 50
    assert sum(op.kind is Kind.UNLINK and op.name == f"{DB}-wal" for op in ops) >= 3
    wal_headers = [op for op in ops[first_ack:]
                   if op.kind is Kind.WRITE and op.name == f"{DB}-wal" and op.offset == 0]
    assert len(wal_headers) >= 8


def test_power_cut_at_80_random_points_loses_no_acknowledged_command(
        recording: Recording, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    cuts = choose_cuts(recording.ops, CUTS, rng)
    summary = run_cuts(recording, cuts, tmp_path, rng)
    assert summary.problems == []
    assert summary.cuts == CUTS
    assert summary.opened == CUTS and summary.integrity_ok == CUTS
    assert summary.lost == 0
    assert summary.torn.torn >= 10  # sectors really were torn, not only whole writes dropped
    assert summary.torn.noise >= 5
    assert summary.in_checkpoint >= 5  # the power also went while pages were copied into the database
    assert {cut.mode for cut in cuts} == {Mode.TORN, Mode.SUBSET}
    assert {cut.strict_dirs for cut in cuts} == {True, False}
    assert sum(result.acknowledged > 1 for result in summary.results) >= CUTS // 2


def test_the_checker_notices_a_sync_that_lied(recording: Recording, tmp_path: Path) -> None:
    """If fsync returned before the data was on the disk, acknowledged commands go: the checker says so."""
    rng = random.Random(SEED)
    ops = recording.ops
    first_ack = next(i for i, op in enumerate(ops) if op.name == "acks")
    cuts = [Cut(rng.randint(first_ack + 1, len(ops)), Mode.LYING_SYNC) for _ in range(20)]
    summary = run_cuts(recording, cuts, tmp_path, rng)
    assert summary.lost > 0
    assert any("were acknowledged" in problem for problem in summary.problems)


def test_the_checker_notices_a_store_that_acknowledges_before_syncing(shim: Path, tmp_path: Path) -> None:
    """The same game with ``synchronous=NORMAL`` (the WAL is synced only at checkpoints): the real
    SQLite, cut at the same kind of points, loses acknowledged commands, and the checker says so."""
    careless = record(shim, tmp_path / "normal", games=1, restart_every=100, wal_autocheckpoint=100,
                      synchronous="NORMAL")
    rng = random.Random(SEED)
    summary = run_cuts(careless, choose_cuts(careless.ops, 30, rng), tmp_path / "cuts", rng)
    assert summary.lost > 0
    assert summary.integrity_ok == summary.cuts  # SQLite stays consistent; it is durability that goes


def test_the_checker_notices_a_damaged_page(recording: Recording, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    summary = run_cuts(recording, [Cut(len(recording.ops), Mode.ALL)] * 5, tmp_path, rng, damage=True)
    assert summary.integrity_ok < 5
    assert any("integrity_check says" in problem for problem in summary.problems)


def test_a_write_is_torn_at_sector_boundaries_of_the_file() -> None:
    # A WAL frame (24-byte header, 4,096-byte page) starts off the sector grid.
    frame = Op(Kind.WRITE, "x", offset=4152, length=4096, data=bytes(4096))
    ends = sectors(frame)
    assert ends[0] == 4608 - 4152 and ends[-1] == 4096 and len(ends) == 9
    assert all(b - a == 512 for a, b in zip(ends[:-1], ends[1:-1], strict=False))


def test_only_synced_writes_survive_and_only_the_last_unsynced_one_in_part() -> None:
    disk = Disk()
    disk.apply(Op(Kind.OPEN, "f", offset=1))
    disk.apply(Op(Kind.WRITE, "f", 0, 4, b"sync"))
    disk.apply(Op(Kind.SYNC, "f"))
    disk.apply(Op(Kind.WRITE, "f", 4, 1024, b"a" * 1024))
    disk.apply(Op(Kind.WRITE, "f", 2048, 1024, b"b" * 1024))
    seen = set()
    for seed in range(40):
        torn = Torn()
        content = disk.image(Mode.TORN, random.Random(seed), torn)["f"]
        assert content.startswith(b"sync") and not content[4:2048].strip(b"\0")  # "a" dropped
        assert torn.dropped >= 1
        seen.add(content.count(b"b"))
        assert len(content) in (4, 2048, 2560, 3072)  # the old end, or a sector boundary of the write
    assert {0, 512, 1024} <= seen  # nothing, the first sector, or the whole of the last write
    lied = disk.image(Mode.LYING_SYNC, random.Random(0), Torn())["f"]
    assert not lied.startswith(b"sync")


def test_with_a_strict_folder_only_what_the_folder_fsync_saw_exists() -> None:
    disk = Disk()
    disk.apply(Op(Kind.OPEN, "old", offset=1))
    disk.apply(Op(Kind.WRITE, "old", 0, 3, b"old"))
    disk.apply(Op(Kind.SYNC, "old"))
    disk.apply(Op(Kind.SYNC, ""))  # the folder
    disk.apply(Op(Kind.UNLINK, "old"))
    disk.apply(Op(Kind.OPEN, "new", offset=1))
    disk.apply(Op(Kind.WRITE, "new", 0, 3, b"new"))
    disk.apply(Op(Kind.SYNC, "new"))
    assert disk.image(Mode.TORN, random.Random(0), Torn()) == {"new": b"new"}
    assert disk.image(Mode.TORN, random.Random(0), Torn(), strict_dirs=True) == {"old": b"old"}
    disk.apply(Op(Kind.SYNC, ""))
    assert disk.image(Mode.TORN, random.Random(0), Torn(), strict_dirs=True) == {"new": b"new"}
