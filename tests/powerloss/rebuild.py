"""Rebuild the files a power cut leaves behind, from a ``trace_io`` write trace.

The model is close to the one SQLite's own crash tests use (its crash VFS, ``src/test6.c``): a
write reaches the medium only when a later sync of the same file has returned; anything written
since that file's last sync may be lost, reordered or torn at 512-byte sector boundaries. A cut at
position ``k`` of the trace means the first ``k`` operations happened and the power went before
the next one.

The ways to fill in what was not synced (``Mode``):

- ``all``: every write made it (what a process crash leaves; also how the trace is checked against
  the real files at the end of a run);
- ``torn``: every unsynced write and truncate is dropped, except each file's last unsynced write,
  of which a random prefix of whole sectors survives (none, some, or all of them);
- ``subset``: each unsynced operation independently survives or not, and a surviving write may be
  torn, as when the disk reorders its queue between barriers;
- ``lying_sync`` (for showing that the checker can fail): as ``torn``, but each file's last
  sync is a lie, so what it claimed to make durable is lost too.

A torn write keeps a random number of its leading sectors; half the time the sector being written
when the power went holds garbage (neither the old nor the new bytes). Sectors are 512 bytes,
aligned in the file.

File creation, deletion and rename take effect at their place in the trace, or, with
``strict_dirs``, only once the folder itself has been fsynced (POSIX's promise; ext4 is kinder).
The ``-shm`` file is never rebuilt: after a power cut SQLite rebuilds the WAL index from the WAL.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

SECTOR = 512
ACKS = "acks"  # the workload's acknowledgement markers: one line "<game_id> <seq>" per write
RECORD = struct.Struct("<IIIIQQ")


class Kind(Enum):
    OPEN = 1
    WRITE = 2
    TRUNCATE = 3
    SYNC = 4
    UNLINK = 5
    RENAME = 6


OPEN_CREATED = 1
OPEN_TRUNCATED = 2


@dataclass(frozen=True)
class Op:
    """One traced call: ``name`` is the path relative to the traced folder ("" for the folder)."""

    kind: Kind
    name: str
    offset: int = 0
    length: int = 0
    data: bytes = b""
    name2: str = ""

    def __repr__(self) -> str:
        extra = f" {self.offset}+{self.length}" if self.kind in (Kind.WRITE, Kind.TRUNCATE) else ""
        return f"<{self.kind.name} {self.name}{extra}>"


def read_trace(trace: Path, folder: Path) -> list[Op]:
    """Parse a trace file; paths become names relative to ``folder`` (the shim's TRACE_IO_DIR)."""
    raw = trace.read_bytes()
    prefix = str(folder).rstrip("/")
    ops: list[Op] = []
    at = 0

    def relative(path: bytes) -> str:
        text = path.decode()
        return text[len(prefix):].lstrip("/") if text.startswith(prefix) else text

    while at < len(raw):
        op, path_len, path2_len, _, offset, length = RECORD.unpack_from(raw, at)
        at += RECORD.size
        path = raw[at:at + path_len]
        at += path_len
        path2 = raw[at:at + path2_len]
        at += path2_len
        kind = Kind(op)
        data = b""
        if kind is Kind.WRITE:
            data = raw[at:at + length]
            at += length
        ops.append(Op(kind, relative(path), offset, length, data, relative(path2) if path2 else ""))
    return ops


class Mode(Enum):
    ALL = "all"
    TORN = "torn"
    SUBSET = "subset"
    LYING_SYNC = "lying_sync"


def sectors(op: Op) -> list[int]:
    """End offsets (within ``op.data``) of the sector-aligned pieces a write is torn into."""
    ends = []
    position = op.offset
    end = op.offset + op.length
    while position < end:
        position = min(end, (position // SECTOR + 1) * SECTOR)
        ends.append(position - op.offset)
    return ends


def _apply(content: bytearray, op: Op, keep: int | None = None, noise: bytes = b"") -> None:
    """Apply a write (its first ``keep`` bytes, or all, then ``noise``) or a truncate to a file's bytes."""
    if op.kind is Kind.TRUNCATE:
        del content[op.length:]
        content.extend(b"\0" * (op.length - len(content)))
        return
    data = (op.data if keep is None else op.data[:keep]) + noise
    if not data:
        return
    if len(content) < op.offset:
        content.extend(b"\0" * (op.offset - len(content)))
    content[op.offset:op.offset + len(data)] = data


@dataclass
class FileState:
    """One file (an inode: it keeps its bytes when its name goes)."""

    durable: bytearray = field(default_factory=bytearray)
    pending: list[Op] = field(default_factory=list)  # writes and truncates since the last sync
    before_last_sync: bytes = b""  # what was durable before the last sync (for ``lying_sync``)
    synced_pending: list[Op] = field(default_factory=list)  # what that last sync made durable


@dataclass
class Torn:
    """How many unsynced writes the rebuilds kept whole, tore (``noise`` of them with a garbage
    sector where the tear is), or dropped."""

    whole: int = 0
    torn: int = 0
    noise: int = 0
    dropped: int = 0


class Disk:
    """What the medium holds while the trace is replayed: per file, durable bytes and unsynced writes.

    ``files`` is the folder as the program sees it; ``listed`` is the folder as of its last fsync,
    which is all a strict file system promises to keep of creations, deletions and renames.
    """

    def __init__(self) -> None:
        self.files: dict[str, FileState] = {}
        self.listed: dict[str, FileState] = {}
        self.acks: list[tuple[int, int]] = []

    def apply(self, op: Op) -> None:
        if not op.name:  # the folder itself
            if op.kind is Kind.SYNC:
                self.listed = dict(self.files)
            return
        if op.name == ACKS:
            if op.kind is Kind.WRITE:
                for line in op.data.decode().splitlines():
                    game_id, seq = line.split()
                    self.acks.append((int(game_id), int(seq)))
            return
        if op.kind is Kind.OPEN:
            if op.offset & OPEN_CREATED or op.name not in self.files:
                self.files[op.name] = FileState()
            if op.offset & OPEN_TRUNCATED:
                self.files[op.name].pending.append(Op(Kind.TRUNCATE, op.name, 0, 0))
        elif op.kind in (Kind.WRITE, Kind.TRUNCATE):
            self.files[op.name].pending.append(op)
        elif op.kind is Kind.SYNC:
            state = self.files[op.name]
            state.before_last_sync = bytes(state.durable)
            state.synced_pending = state.pending
            for pending in state.pending:
                _apply(state.durable, pending)
            state.pending = []
        elif op.kind is Kind.UNLINK:
            self.files.pop(op.name, None)
        elif op.kind is Kind.RENAME:
            self.files[op.name2] = self.files.pop(op.name)

    def image(self, mode: Mode, rng: random.Random, torn: Torn,
              strict_dirs: bool = False) -> dict[str, bytes]:
        """The bytes each file holds after the power goes now (``-shm`` left out).

        ``strict_dirs``: only the names the last folder fsync saw exist; a file deleted since then
        comes back with what it held.
        """
        image = {}
        for name, state in (self.listed if strict_dirs else self.files).items():
            if name.endswith("-shm"):
                continue
            if mode is Mode.LYING_SYNC:
                content = bytearray(state.before_last_sync)
                pending = state.synced_pending + state.pending
            else:
                content = bytearray(state.durable)
                pending = state.pending
            writes = [op for op in pending if op.kind is Kind.WRITE]
            if mode is Mode.ALL:
                for op in pending:
                    _apply(content, op)
                torn.whole += len(writes)
            elif mode is Mode.SUBSET:
                for op in pending:
                    if op.kind is Kind.TRUNCATE:
                        if rng.random() < 0.5:
                            _apply(content, op)
                        continue
                    choice = rng.randrange(3)
                    if choice == 0:
                        torn.dropped += 1
                    elif choice == 1:
                        torn.whole += 1
                        _apply(content, op)
                    else:
                        _apply(content, op, *_tear(op, rng, torn))
            else:
                torn.dropped += max(0, len(writes) - 1)
                if writes:
                    _apply(content, writes[-1], *_tear(writes[-1], rng, torn))
            image[name] = bytes(content)
        return image


def _tear(op: Op, rng: random.Random, torn: Torn) -> tuple[int, bytes]:
    """What of ``op`` reaches the medium: a random number of its leading whole sectors, and half the
    time, when the write is cut short, garbage in the sector that was being written."""
    ends = sectors(op)
    kept = rng.randint(0, len(ends))
    keep = ends[kept - 1] if kept else 0
    noise = b""
    if kept < len(ends) and rng.random() < 0.5:
        noise = rng.randbytes(ends[kept] - keep)
        torn.noise += 1
    if kept == len(ends):
        torn.whole += 1
    elif kept == 0 and not noise:
        torn.dropped += 1
    else:
        torn.torn += 1
    return keep, noise


def snapshots(ops: list[Op], cuts: Iterable[int]) -> Iterator[tuple[int, Disk]]:
    """Replay ``ops`` once, yielding the disk model at each cut (ascending; the same object each time)."""
    disk = Disk()
    done = 0
    for cut in sorted(cuts):
        while done < cut:
            disk.apply(ops[done])
            done += 1
        yield cut, disk


def write_image(image: dict[str, bytes], folder: Path) -> None:
    folder.mkdir(parents=True)
    for name, content in image.items():
        (folder / name).write_bytes(content)
