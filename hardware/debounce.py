"""Pure button logic: debounce, press/hold/release and ties, from ``(edge_time, pressed)`` pairs.

gpiozero's ``bounce_time`` means different things on different pin backends (a kernel debounce on
lgpio, a software lockout on RPi.GPIO, nothing on the mock), so the companion leaves it unset and
decides here, identically everywhere, with plain functions over immutable states that tests call
without any pin.

A change is reported on its *first edge*, at once: a press costs no waiting. For ``debounce_s``
after a reported change the contact is taken to be bouncing and its edges change nothing; if it
sits at the other level when that time is up (a tap shorter than the bounce time), that level is
reported then, dated by the edge that brought it there. A tie is judged on the first edges, when
the players actually pressed.

>>> debounce([(0.000, True), (0.002, False), (0.003, True), (0.200, False)], 0.020, until=0.3)
[Transition(at=0.0, pressed=True), Transition(at=0.2, pressed=False)]
>>> debounce([(0.0, True)], 0.020, until=0.0)  # reported on the edge itself
[Transition(at=0.0, pressed=True)]
>>> debounce([(0.0, True), (0.005, False), (0.010, True), (0.015, False)], 0.020, until=1.0)
[Transition(at=0.0, pressed=True), Transition(at=0.015, pressed=False)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

Kind = Literal["press", "hold", "release"]

# Float sums of edge times drift by ~1e-16; a nanosecond of slack keeps "exactly the debounce
# time later" on the accepting side everywhere.
_SLACK = 1e-9


@dataclass(frozen=True)
class Transition:
    """A debounced change of a button: ``pressed`` is the new level, ``at`` the edge that began it."""

    at: float
    pressed: bool


@dataclass(frozen=True)
class Contact:
    """What the debouncer knows about one contact.

    ``stable`` is the level last reported, ``raw`` the pin's level now and ``raw_at`` the edge that
    set it; until ``locked_until`` edges are bounce of the last reported change.
    """

    stable: bool = False
    raw: bool = False
    raw_at: float = float("-inf")
    locked_until: float = float("-inf")

    def pending(self) -> bool:
        """The pin sits at a level not reported yet (it changed during a lockout)."""
        return self.raw != self.stable


def record_edge(contact: Contact, at: float, pressed: bool,
                debounce_s: float) -> tuple[Contact, Transition | None]:
    """A raw edge (call ``settle`` at ``at`` first): a new level outside a lockout is reported now."""
    if pressed != contact.stable and at >= contact.locked_until - _SLACK:
        change = Transition(at, pressed)
        return Contact(stable=pressed, raw=pressed, raw_at=at, locked_until=at + debounce_s), change
    return replace(contact, raw=pressed, raw_at=at), None


def settle(contact: Contact, now: float, debounce_s: float) -> tuple[Contact, Transition | None]:
    """Once a lockout is over, report a level the contact came to rest at during it."""
    if not contact.pending() or now < contact.locked_until - _SLACK:
        return contact, None
    # Locked again from the edge that set this level: it may still be bouncing after it.
    settled = Contact(stable=contact.raw, raw=contact.raw, raw_at=contact.raw_at,
                      locked_until=contact.raw_at + debounce_s)
    return settled, Transition(contact.raw_at, contact.raw)


def settle_deadline(contact: Contact) -> float | None:
    """When ``settle`` could next report a change (``None`` if nothing is pending)."""
    return contact.locked_until if contact.pending() else None


def debounce(edges: Iterable[tuple[float, bool]], debounce_s: float, until: float,
             start: Contact | None = None) -> list[Transition]:
    """The debounced transitions of a whole edge sequence (times ascending), settled up to ``until``."""
    contact = start or Contact()
    out: list[Transition] = []
    for at, pressed in edges:
        contact, settled = settle(contact, at, debounce_s)
        contact, reported = record_edge(contact, at, pressed, debounce_s)
        out.extend(change for change in (settled, reported) if change is not None)
    contact, settled = settle(contact, until, debounce_s)
    if settled:
        out.append(settled)
    return out


@dataclass(frozen=True)
class Holdable:
    """Press/hold/release state of one role. ``hold_s=None``: the role has no hold."""

    hold_s: float | None = None
    down_at: float | None = None
    held: bool = False


def on_transition(button: Holdable, change: Transition) -> tuple[Holdable, list[tuple[Kind, float]]]:
    """The events one debounced transition gives: ``(kind, at)`` pairs, ``at`` the press edge time.

    Without a hold time: press on the way down. With one: nothing on the way down (``hold_due``
    fires the hold), and on the way up a ``press`` (a tap) only if the hold never fired.
    """
    if change.pressed:
        if button.down_at is not None:
            return button, []
        events: list[tuple[Kind, float]] = [] if button.hold_s is not None else [("press", change.at)]
        return replace(button, down_at=change.at, held=False), events
    if button.down_at is None:
        return button, []
    events = []
    if button.hold_s is not None and not button.held:
        events.append(("press", button.down_at))
    events.append(("release", change.at))
    return replace(button, down_at=None, held=False), events


def hold_due(button: Holdable, now: float) -> tuple[Holdable, list[tuple[Kind, float]]]:
    """A ``hold`` once the button has been down for its hold time (the button may stay down)."""
    if button.hold_s is None or button.down_at is None or button.held:
        return button, []
    if now - button.down_at < button.hold_s - _SLACK:
        return button, []
    return replace(button, held=True), [("hold", button.down_at)]


def hold_deadline(button: Holdable) -> float | None:
    """When ``hold_due`` will fire (``None`` when no hold is pending)."""
    if button.hold_s is None or button.down_at is None or button.held:
        return None
    return button.down_at + button.hold_s


@dataclass(frozen=True)
class TieWatch:
    """Recent press edges not yet part of a tie: ``(role, at)``, oldest first."""

    recent: tuple[tuple[str, float], ...] = ()


def on_press_edge(watch: TieWatch, role: str, at: float, window_s: float
                  ) -> tuple[TieWatch, tuple[tuple[str, str], tuple[float, float]] | None]:
    """Record a press edge; a tie if another role went down within ``window_s`` before it.

    The earliest unmatched partner wins, and both presses leave the watch, so three buttons at
    once give one tie, not three.
    """
    # abs(): a press reported when a lockout ends is dated by its edge, maybe before one already recorded.
    live = tuple((r, t) for r, t in watch.recent if abs(at - t) <= window_s and r != role)
    if live:
        partner, t0 = live[0]
        rest = tuple(item for item in live if item != (partner, t0))
        if t0 <= at:
            return TieWatch(rest), ((partner, role), (t0, at))
        return TieWatch(rest), ((role, partner), (at, t0))
    return TieWatch(live + ((role, at),)), None
