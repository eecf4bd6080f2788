"""The dice tray's line protocol, pure: bytes in, input events and replies out (no I/O here).

Lines are NMEA 0183 style ASCII, ``$TYPE,field,...*HH`` then CRLF, at most 82 bytes with the CRLF;
``HH`` is the XOR of every byte between ``$`` and ``*`` as two upper-case hex digits (lower case is
accepted). docs/dice-tray-protocol.md is the firmware author's version of this module.

>>> frame("ROLL,17,d20,15")
b'$ROLL,17,d20,15*55\\r\\n'
>>> protocol = TrayProtocol()
>>> protocol.receive(b"$ROLL,17,d20,15*55\\r\\n$ROLL,17,d20,15*55\\r\\n")
([TrayRoll(seq=17, die='d20', face=15, epoch=0)], [])

A roll is not answered on arrival: the table answers it once the roll is recorded (or refused),
and only then does the tray stop resending it. The second copy above (a resend while the roll is
still on its way) is reported once and not answered; once answered, every later copy gets the
same answer again:

>>> protocol.answer(17, 0, None)
b'$ACK,17*63\\r\\n'
>>> protocol.receive(b"$ROLL,17,d20,15*55\\r\\n")
([], [b'$ACK,17*63\\r\\n'])

Die names and faces come from the games' declarations (``companion.games.known_dice``: every die
a registered game declares), so a new game's dice need no edit here.
"""

from __future__ import annotations

import re
from collections import Counter, OrderedDict
from dataclasses import dataclass, replace

from companion.dice import Die
from companion.games import known_dice
from hardware.inputs import TrayButton, TrayHello, TrayRejected, TrayRoll

MAX_LINE = 82  # bytes, including the CRLF, as in NMEA 0183
SEQ_MODULO = 65536
BUTTON_KINDS = ("press", "release", "hold")
FIELDS = {"HELLO": ("device", "firmware"), "ROLL": ("seq", "die", "face"), "BTN": ("seq", "id", "kind")}
# Our own outgoing types: a tray (or a loop:// port) that echoes them back is not an error.
OWN_TYPES = ("ACK", "REJ", "EXPECT")
_WORD = re.compile(r"[A-Za-z0-9_.\-]{1,24}")

TrayMessage = TrayHello | TrayRoll | TrayButton


def checksum(body: str | bytes) -> int:
    """The NMEA checksum of the text between ``$`` and ``*``: every byte XORed together."""
    data = body.encode("ascii") if isinstance(body, str) else body
    value = 0
    for byte in data:
        value ^= byte
    return value


def frame(body: str) -> bytes:
    """A complete line for ``body`` (the text between ``$`` and ``*``), checksum and CRLF added."""
    line = f"${body}*{checksum(body):02X}\r\n".encode("ascii")
    if len(line) > MAX_LINE:
        raise ValueError(f"line longer than {MAX_LINE} bytes: {line!r}")
    return line


def ack(seq: int) -> bytes:
    """The companion's acknowledgement of line ``seq`` (sent for duplicates too)."""
    return frame(f"ACK,{seq}")


def refusal(seq: int, reason: str) -> bytes:
    """``$REJ,<seq>,<reason>``: roll ``seq`` was read but the table refused it; stop resending it.

    ``reason`` is one word (see docs/dice-tray-protocol.md); anything else is sent as ``refused``.

    >>> refusal(18, "wrong_die")
    b'$REJ,18,wrong_die*00\\r\\n'
    """
    return frame(f"REJ,{seq},{reason if _WORD.fullmatch(reason) else 'refused'}")


def expect_line(die: str | None) -> bytes:
    """``$EXPECT,<die>`` tells the tray which die the game waits for (``none`` for no die)."""
    dice = known_dice()
    if die is not None and die not in dice:
        raise ValueError(f"unknown die {die!r} (known: {', '.join(dice)})")
    return frame(f"EXPECT,{die or 'none'}")


@dataclass(frozen=True)
class Accepted:
    """A well-formed message, the sequence number to acknowledge (``None`` for HELLO), the raw line."""

    message: TrayMessage
    seq: int | None
    line: bytes = b""


class LineParser:
    """Splits an arbitrary byte stream into lines and checks each; never raises on any input.

    The buffer holds at most ``MAX_LINE`` bytes: a longer line is reported once and skipped up to
    its end or the next ``$``. A ``$`` always starts a new line (resync), so one lost CR/LF costs
    one line, not two. ``drops`` counts refusals by reason kind (``checksum``, ``too_long``...).
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False
        self.drops: Counter[str] = Counter()

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def feed(self, chunk: bytes) -> list[Accepted | TrayRejected]:
        """Everything the chunk completes, in order; partial lines wait for the next chunk."""
        out: list[Accepted | TrayRejected] = []
        for byte in chunk:
            if byte == 0x24:  # "$": a new line begins whatever came before
                if self._buffer.strip() and not self._overflow:
                    out.append(self._reject("incomplete", "line cut short by a new $ before its CRLF",
                                            bytes(self._buffer)))
                self._buffer = bytearray(b"$")
                self._overflow = False
            elif byte == 0x0A:  # LF ends a line (CRLF expected; a bare LF is tolerated)
                if not self._overflow:
                    line = bytes(self._buffer).rstrip(b"\r")
                    if line.strip():
                        out.append(self._check(line))
                self._buffer = bytearray()
                self._overflow = False
            elif self._overflow:
                continue
            else:
                self._buffer.append(byte)
                if len(self._buffer) > MAX_LINE - 1:  # room for the line and its CR, not its LF
                    out.append(self._reject("too_long", f"line longer than {MAX_LINE} bytes",
                                            bytes(self._buffer)))
                    self._buffer = bytearray()
                    self._overflow = True
        return out

    def _reject(self, kind: str, reason: str, line: bytes) -> TrayRejected:
        self.drops[kind] += 1
        return TrayRejected(reason, line[:MAX_LINE])

    def _check(self, line: bytes) -> Accepted | TrayRejected:
        if len(line) > MAX_LINE - 2:
            return self._reject("too_long", f"line longer than {MAX_LINE} bytes", line)
        if not line.startswith(b"$"):
            return self._reject("noise", "line does not start with $", line)
        for position, byte in enumerate(line):
            if not 0x20 <= byte <= 0x7E:
                return self._reject("binary", f"byte 0x{byte:02X} at position {position} is not printable "
                                    "ASCII", line)
        text = line.decode("ascii")
        if len(text) < 4 or text[-3] != "*":
            return self._reject("no_checksum", "no checksum: a line ends with *HH", line)
        body, given = text[1:-3], text[-2:]
        if not all(c in "0123456789abcdefABCDEF" for c in given):
            return self._reject("checksum", f"checksum {given!r} is not two hex digits", line)
        computed = checksum(body)
        if int(given, 16) != computed:
            return self._reject("checksum", f"bad checksum: got {given.upper()}, computed {computed:02X}",
                                line)
        fields = body.split(",")
        kind, values = fields[0], fields[1:]
        if kind in OWN_TYPES:
            self.drops["echo"] += 1
            return TrayRejected(f"echo of our own ${kind} line", line)
        if kind not in FIELDS:
            return self._reject("type", f"unknown type ${kind}", line)
        names = FIELDS[kind]
        if len(values) != len(names):
            return self._reject("fields", f"${kind} takes {len(names)} fields ({','.join(names)}), "
                                f"got {len(values)}", line)
        try:
            message, seq = _message(kind, values)
        except ValueError as exc:
            return self._reject("field", str(exc), line)
        return Accepted(message, seq, line)


def _seq(raw: str) -> int:
    if not raw.isdigit() or int(raw) >= SEQ_MODULO:
        raise ValueError(f"seq {raw!r} is not a number 0..{SEQ_MODULO - 1}")
    return int(raw)


def _word(raw: str, what: str) -> str:
    if not _WORD.fullmatch(raw):
        raise ValueError(f"{what} {raw!r} must be 1 to 24 letters, digits, '.', '_' or '-'")
    return raw


def _message(kind: str, values: list[str]) -> tuple[TrayMessage, int | None]:
    if kind == "HELLO":
        return TrayHello(_word(values[0], "device"), _word(values[1], "firmware")), None
    seq = _seq(values[0])
    if kind == "ROLL":
        die_name, raw_face = values[1], values[2]
        dice = known_dice()
        die: Die | None = dice.get(die_name)
        if die is None:
            raise ValueError(f"unknown die {die_name!r} (known: {', '.join(dice)})")
        try:
            face = die.parse_face(raw_face)
        except ValueError:
            shown = repr(raw_face) if not raw_face.strip().isdigit() else raw_face.strip()
            raise ValueError(f"the {die_name} die has no face {shown}") from None
        return TrayRoll(seq, die_name, face), seq
    if values[2] not in BUTTON_KINDS:
        raise ValueError(f"button kind {values[2]!r} is not one of {', '.join(BUTTON_KINDS)}")
    return TrayButton(seq, _word(values[1], "button id"), values[2]), seq


class SeqWindow:
    """The last ``size`` sequence numbers accepted and their answers, to apply a resent line once.

    A number maps to ``None`` while its line is on its way to being recorded, then to the line
    that answered it (``$ACK`` or ``$REJ``), which every later copy gets again. Only recent
    numbers are remembered, so after the 16-bit counter wraps (65535 -> 0) an old number is new
    again; ``reset()`` forgets everything (a HELLO: the tray restarted its counter).
    """

    def __init__(self, size: int = 128):
        self._answers: OrderedDict[int, bytes | None] = OrderedDict()
        self._size = size

    def seen(self, seq: int) -> bool:
        """True if ``seq`` is a duplicate; otherwise remember it (unanswered) and return False."""
        if seq in self._answers:
            return True
        self._answers[seq] = None
        if len(self._answers) > self._size:
            self._answers.popitem(last=False)
        return False

    def answer_of(self, seq: int) -> bytes | None:
        """The line that answered ``seq`` (``None``: not answered yet, or not remembered)."""
        return self._answers.get(seq)

    def answered(self, seq: int, line: bytes) -> None:
        if seq in self._answers:  # a number that already fell out of the window stays forgotten
            self._answers[seq] = line

    def reset(self) -> None:
        self._answers.clear()


class TrayProtocol:
    """Parser plus duplicate suppression: ``receive(chunk) -> (events, replies to write)``.

    BTN lines are acknowledged as they arrive (nothing is recorded for them). ROLL lines are
    answered by ``answer()`` once the table has recorded or refused the roll: an ``$ACK`` tells
    the firmware it may forget the roll, so it must never come before the roll is durable.
    ``epoch`` counts HELLOs: an answer for a roll read before the tray restarted its counter
    is dropped rather than sent to the new counter's line of the same number.
    """

    def __init__(self, window: int = 128):
        self.parser = LineParser()
        self.window = SeqWindow(window)
        self.duplicates = 0
        self.epoch = 0

    def receive(self, chunk: bytes) -> tuple[list[TrayMessage | TrayRejected], list[bytes]]:
        events: list[TrayMessage | TrayRejected] = []
        replies: list[bytes] = []
        for item in self.parser.feed(chunk):
            if isinstance(item, TrayRejected):
                if not item.reason.startswith("echo of our own"):
                    events.append(item)
                continue
            if item.seq is None:  # HELLO: the tray (re)started, its counter starts afresh
                self.window.reset()
                self.epoch += 1
                events.append(item.message)
                continue
            is_roll = isinstance(item.message, TrayRoll)
            if not is_roll:
                replies.append(ack(item.seq))
            if self.window.seen(item.seq):
                self.duplicates += 1
                earlier = self.window.answer_of(item.seq)
                if is_roll and earlier is not None:
                    replies.append(earlier)
            elif is_roll:
                events.append(replace(item.message, epoch=self.epoch))  # type: ignore[type-var]
            else:
                events.append(item.message)
        return events, replies

    def answer(self, seq: int, epoch: int, refused: str | None) -> bytes | None:
        """The line answering roll ``seq`` of ``epoch`` (``refused``: the reason word), or ``None``
        if the tray has restarted its counter since (the answer would name another roll)."""
        if epoch != self.epoch:
            return None
        line = ack(seq) if refused is None else refusal(seq, refused)
        self.window.answered(seq, line)
        return line

    def counters(self) -> dict[str, int]:
        """Drops by reason plus duplicates, for ``status()`` and ``companion doctor``."""
        return {**dict(self.parser.drops), "duplicate": self.duplicates}
