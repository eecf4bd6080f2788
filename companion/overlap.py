"""Run pure work on a helper thread while the calling thread waits on the disk.

A command's entry must be durable before the table sees its state, and making it durable is an
fsync: SQLite's ``COMMIT`` waits for the disk with the interpreter lock released. Rendering the new
state (the prompt with its choices and odds, the full view) needs only that immutable state, so it
can run in that wait instead of after it: ``during(blocking, work)`` hands ``work`` to a helper
thread, runs ``blocking`` on the caller's thread and returns both results once both are done.

The game state still has one owner: the owner thread is inside ``blocking`` (C code, no game code)
for as long as ``work`` runs, and reads nothing ``work`` produced until the helper says it is done,
so the two never run game code at the same time.

>>> during(lambda: "committed", lambda: 6 * 7)
('committed', 42)

The helper is one daemon thread, started on first use, asleep on its queue when idle (no timer).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

B = TypeVar("B")
W = TypeVar("W")

_jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
_start_lock = threading.Lock()
_helper: threading.Thread | None = None


class _Job:
    __slots__ = ("work", "done", "result", "error")

    def __init__(self, work: Callable[[], Any]) -> None:
        self.work = work
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None


def _serve() -> None:
    while True:
        job = _jobs.get()
        try:
            job.result = job.work()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller, who raises it
            job.error = exc
        finally:
            job.done.set()


def _ensure_helper() -> None:
    global _helper
    if _helper is not None and _helper.is_alive():
        return
    with _start_lock:
        if _helper is None or not _helper.is_alive():
            _helper = threading.Thread(target=_serve, name="companion-overlap", daemon=True)
            _helper.start()


def during(blocking: Callable[[], B], work: Callable[[], W]) -> tuple[B, W]:
    """``(blocking(), work())``, with ``work`` run on the helper thread meanwhile.

    ``work`` always finishes before this returns or raises: when ``blocking`` raises, its error is
    raised after ``work`` is done (and ``work``'s result dropped); when only ``work`` raises, its
    error is raised after ``blocking`` has finished.
    """
    _ensure_helper()
    job = _Job(work)
    _jobs.put(job)
    try:
        first = blocking()
    finally:
        job.done.wait()
    if job.error is not None:
        raise job.error
    return first, job.result
