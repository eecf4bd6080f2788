"""State snapshots in the store, so a restore replays only the tail of the log.

Two kinds are written, each of the state after a log entry already committed: once the table is idle
after it (``Session.save_snapshots``), or beside the next entry. A pulled plug before that loses only
the snapshot (the restore starts from the one before):

- the *head* (one row per game, replaced every ``SNAPSHOT_EVERY`` entries): the state after that
  entry and the log positions (seqs) of the commands in effect and of the undone ones. A restore
  starts from it and records only the entries after it;
- *checkpoints*: the state after a command that takes the game to a depth (commands in effect)
  divisible by ``CHECKPOINT_EVERY``. That state never changes (undo pops it, redo pushes it back at
  the same depth), so an undo after a restore rebuilds the state below it from the nearest
  checkpoint, never from the setup.

States are frozen dataclasses of each game's own types, so they are pickled. A pickle is only ever
read back by the same build that wrote it: every blob carries a tag (format, Python version,
companion version, a hash of the game's source and of ``companion/``'s), and on any mismatch, or
any error while loading, the snapshot is ignored, a warning is logged and the log is replayed in
full. The store is the table's own 0600 file: unpickling it trusts it exactly as much as the
Python code next to it.

>>> from companion.games import all_games
>>> game = all_games()[0]
>>> tag = snapshot_tag(game)
>>> load_state(tag, tag, dump_state(game.setup({}))) == game.setup({})  # doctest: +SKIP
True
"""

from __future__ import annotations

import functools
import logging
import pickle
import sys
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import companion
from companion.game import Game

logger = logging.getLogger(__name__)

SNAPSHOT_FORMAT = 1
SNAPSHOT_EVERY = 64  # log entries between head snapshots: a restore records at most this many
# (twice as many when the plug was pulled after one came due, before it was written)
CHECKPOINT_EVERY = 16  # depths between checkpoints: an undo after a restore applies at most 15 entries
# (31 when the plug was pulled before one was written; from the setup below the first)


class SnapshotUnusable(Exception):
    """A snapshot that cannot be trusted (other build, damaged, inconsistent): replay instead."""


@dataclass(frozen=True)
class Head:
    """The timeline after log entry ``seq``: its state and which commands are in effect / undone."""

    seq: int
    state: Any
    done_seqs: list[int]
    undone_seqs: list[int]


@functools.cache
def _source_hash(folder: str) -> str:
    import hashlib  # only once a snapshot is written or read: `companion --help` never needs it

    digest = hashlib.sha256()
    for path in sorted(Path(folder).glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def snapshot_tag(game: Game) -> str:
    """What a blob must carry to be loaded by this build for ``game``."""
    return f"v{SNAPSHOT_FORMAT}/" + _tag(game.name, getattr(game.apply, "__module__", ""))


@functools.cache
def _tag(name: str, module_name: str) -> str:
    module = sys.modules.get(module_name, None)
    game_folder = str(Path(module.__file__).parent) if module and getattr(module, "__file__", None) else ""
    game_hash = _source_hash(game_folder) if game_folder else "unknown"
    engine_hash = _source_hash(str(Path(companion.__file__).parent))
    return (f"py{sys.version_info[0]}.{sys.version_info[1]}/companion-"
            f"{companion.__version__}/{name}/{game_hash}/{engine_hash}")


def dump_state(state: Any) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def load_state(expected_tag: str, tag: str, blob: bytes) -> Any:
    if tag != expected_tag:
        raise SnapshotUnusable(f"written by another build ({tag}, this one is {expected_tag})")
    try:
        return pickle.loads(blob)
    except Exception as exc:  # noqa: BLE001 - any failure means "replay instead"
        raise SnapshotUnusable(f"cannot be loaded ({type(exc).__name__}: {exc})") from exc


def dump_head(state: Any, done_seqs: list[int], undone_seqs: list[int]) -> bytes:
    # Seqs as machine integers: 10,000 of them load in microseconds.
    return pickle.dumps((state, array("q", done_seqs).tobytes(), array("q", undone_seqs).tobytes()),
                        protocol=pickle.HIGHEST_PROTOCOL)


def load_head(expected_tag: str, seq: int, tag: str, blob: bytes) -> Head:
    loaded = load_state(expected_tag, tag, blob)
    try:
        state, done_raw, undone_raw = loaded
        done_seqs, undone_seqs = array("q"), array("q")
        done_seqs.frombytes(done_raw)
        undone_seqs.frombytes(undone_raw)
    except (TypeError, ValueError) as exc:
        raise SnapshotUnusable(f"is not a head snapshot ({exc})") from exc
    done, undone = done_seqs.tolist(), undone_seqs.tolist()
    named = done + undone
    if named and not 0 < min(named) <= max(named) <= seq:
        raise SnapshotUnusable("names log entries it cannot have seen")
    return Head(seq, state, done, undone)
