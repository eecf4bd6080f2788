"""An idle table sleeps: ``companion serve --sim`` with a game on and nothing happening wakes no thread.

Before, two 50 ms pollers (the tray reader and the simulated tray), the display thread and the owner
queue woke it about 43 times a second. A thread blocked in a read, a select or a queue is not
scheduled at all, however loaded the machine, so the count starts once the service has been still
for a second and allows two stray switches in three seconds: a once-a-second poller still fails.
"""

from __future__ import annotations

from benchmarks.idle import idle_wakeups


def test_an_idle_serve_sim_with_a_game_on_has_no_periodic_poller() -> None:
    rate, per_thread = idle_wakeups(seconds=3.0, settle_s=1.0)
    assert rate * 3.0 <= 2, f"{rate:.2f} wake-ups/s while idle; context switches by thread: {per_thread}"
