"""The input events hardware adapters hand to the table service, and nothing else.

Adapters never touch game state: they turn edges, encoder steps and dice-tray lines into these
frozen values and pass each one to ``emit(event)``, a callback the service supplies. ``emit`` is
called from the libraries' own threads (gpiozero's edge callbacks, the tray reader thread), so the
service should only put the event on a queue.

>>> ButtonPress("UNDO", "hold", at=12.5)
ButtonPress(role='UNDO', kind='hold', at=12.5)
>>> to_json(TrayRoll(seq=7, die="d20", face=15))
{'type': 'TrayRoll', 'seq': 7, 'die': 'd20', 'face': 15, 'epoch': 0}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal

ButtonKind = Literal["press", "hold", "release"]
TrayState = Literal["connected", "reconnecting", "disconnected"]


@dataclass(frozen=True)
class ButtonPress:
    """A debounced button event for one role (``HOME``, ``UNDO``...; the encoder's push is ``ENCODER``).

    ``at`` is the time (seconds, monotonic clock) of the edge that started it. For a role with a
    hold time, ``press`` means a *tap*: it is emitted when the button is released before the hold
    time, while ``hold`` is emitted as soon as the hold time is reached (the button still down), so
    a hold never also counts as a press. Roles without a hold time emit ``press`` on the down edge.
    ``release`` is always emitted when the button comes back up.
    """

    role: str
    kind: ButtonKind
    at: float


@dataclass(frozen=True)
class ButtonTie:
    """Two different buttons pressed within the tie window (e.g. HOME and AWAY at once).

    Emitted when the second button goes down (after its ``ButtonPress`` if that role has no hold
    time); ``roles`` and ``times`` are in press order. Each press joins at most one tie.
    """

    roles: tuple[str, str]
    times: tuple[float, float]


@dataclass(frozen=True)
class EncoderTurn:
    """The rotary encoder moved ``steps`` detents: positive clockwise, negative counter-clockwise."""

    steps: int


@dataclass(frozen=True)
class TrayHello:
    """The dice tray introduced itself (sent after power-up and after every reconnect)."""

    device: str
    firmware: str


@dataclass(frozen=True)
class TrayRoll:
    """The dice tray read a die. ``face`` already belongs to ``die`` (checked by the adapter).

    Whether it is the die the game waits for is the service's business, not the adapter's. The
    tray keeps resending the roll until it is answered: whoever handles the event hands it back
    to the adapter's ``answer`` once the roll is recorded (or refused). ``epoch`` tells the
    adapter which run of the tray's counter ``seq`` belongs to (it goes up at every HELLO).
    """

    seq: int
    die: str
    face: int | str
    epoch: int = 0


@dataclass(frozen=True)
class TrayButton:
    """A button on the dice tray itself (``kind`` is press, release or hold)."""

    seq: int
    id: str
    kind: str


@dataclass(frozen=True)
class TrayRejected:
    """A tray line refused by the protocol, with a reason an operator can read.

    ``line`` holds the raw bytes (cut to the line limit) so a log shows exactly what came in.
    """

    reason: str
    line: bytes


@dataclass(frozen=True)
class TrayStatus:
    """The tray's serial link changed state; ``detail`` says why (port name, error text)."""

    state: TrayState
    detail: str


@dataclass(frozen=True)
class DisplayStatus:
    """A display went offline (``online=False``, e.g. errno 121 when unplugged) or came back."""

    name: str
    online: bool
    detail: str


InputEvent = (ButtonPress | ButtonTie | EncoderTurn | TrayHello | TrayRoll | TrayButton
              | TrayRejected | TrayStatus | DisplayStatus)

Emit = Callable[[InputEvent], None]


def to_json(event: InputEvent) -> dict[str, Any]:
    """The event as a JSON-ready dict with a ``type`` field (bytes shown as latin-1 text)."""
    fields = asdict(event)
    for key, value in fields.items():
        if isinstance(value, bytes):
            fields[key] = value.decode("latin-1")
        elif isinstance(value, tuple):
            fields[key] = list(value)
    return {"type": type(event).__name__, **fields}
