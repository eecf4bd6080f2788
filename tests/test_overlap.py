"""companion.overlap: the work really runs while the caller blocks, and errors come out in order."""

from __future__ import annotations

import threading

import pytest

from companion.overlap import during


def test_the_work_runs_while_the_caller_is_blocked() -> None:
    # The blocking side can only finish once the work has run: sequential calls would time out.
    worked = threading.Event()

    def blocking() -> bool:
        return worked.wait(timeout=60)

    def work() -> str:
        worked.set()
        return threading.current_thread().name

    assert during(blocking, work) == (True, "companion-overlap")


def test_a_failing_blocking_call_is_raised_after_the_work_has_finished() -> None:
    finished = threading.Event()

    def blocking() -> None:
        raise OSError("disk gone")

    def work() -> None:
        finished.wait(timeout=0.05)  # still running when blocking has already failed
        finished.set()

    with pytest.raises(OSError, match="disk gone"):
        during(blocking, work)
    assert finished.is_set()


def test_the_works_error_is_raised_once_the_blocking_call_is_done() -> None:
    done: list[str] = []

    def work() -> None:
        raise ValueError("render bug")

    with pytest.raises(ValueError, match="render bug"):
        during(lambda: done.append("committed"), work)
    assert done == ["committed"]
    assert during(lambda: 1, lambda: 2) == (1, 2)  # the helper survives a failed job
