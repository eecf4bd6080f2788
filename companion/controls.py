"""Physical controls -> table commands: what a button, the encoder or the dice tray means right now.

The hardware adapters report plain input events (``hardware.inputs``, passed here as their JSON
form so this module stays free of hardware imports). The meaning depends on the prompt:

- when the game waits for a die, the encoder dials that die's faces and CONFIRM (or the encoder's
  push) enters the dialled face; a roll from the dice tray is entered directly if it is that die;
- otherwise the encoder (and NEXT / MENU) dial through the prompt's ready-made choices and CONFIRM
  sends the one shown;
- UNDO held (1 s) undoes; a short UNDO tap only says to hold it, so a brushed button never undoes;
  MENU held redoes; the side buttons (HOME, AWAY, SIDE3..SIDE5) jump the dial to the next choice
  for that side;
- when the prompt's roll is a pool (``pool: {"die", "count"}``), each face dialled and confirmed
  (or read by the tray) is kept until ``count`` faces are in, then one roll carries them all
  (``"faces": [...]``); a tap on UNDO takes back the last kept face;
- when the prompt declares a race, the side buttons race instead: the first press opens the race's
  own window, presses dated (first edge) within it tie and the tie-breaker holder wins; when the
  window closes the race command goes out with the order and the press times. Everything is judged
  on the edge times (``at``), never on when a press reaches the controls (late on a loaded
  machine): the window closes ``window_ms`` + ``RACE_GRACE_S`` after the first press's *edge*; a
  press dated before the race's prompt was shown is not in it (after a tied tip-off, the roll again
  is raced by fresh presses only); a press of a race already sent whose time would have changed
  the result is told to the table (hold UNDO and race again), one that lost anyway changes nothing.

Which die is awaited, its faces and its success rule come from the prompt's ``die_info``; no game
is named here.

No rule lives here: every command still goes through the game's ``decide``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from companion.game import JSON
from companion.games import known_dice
from companion.protocol import RACE_GRACE_S, race_command

__all__ = ["RACE_GRACE_S", "SentRace", "TableControls", "die_title", "race_command"]

Submit = Callable[[JSON], JSON]
Notify = Callable[[str], None]
Later = Callable[[float, Callable[[], None]], None]
SIDE_ROLES = ("HOME", "AWAY", "SIDE3", "SIDE4", "SIDE5")
# Answer a dice-tray roll (the TrayRoll event as received) once it is recorded: ``None``, or the
# word saying why it was refused. The tray resends a roll until it is answered.
AnswerTray = Callable[[JSON, str | None], None]


def die_title(name: str, prompt: JSON | None = None) -> str:
    """What the table calls a die: the awaited die's title in the prompt, else the declared one's.

    >>> die_title("d6", {"die_info": {"name": "d6", "title": "the red die"}}), die_title("d20")
    ('the red die', 'd20')
    """
    info = (prompt or {}).get("die_info") or {}
    if info.get("name") == name:
        return str(info.get("title") or name)
    die = known_dice().get(name)
    return die.title if die else name


def _faces(prompt: JSON) -> list[Any]:
    info = prompt.get("die_info") or {}
    if info.get("faces"):
        return list(info["faces"])
    faces = prompt.get("faces")
    if not faces:
        die = known_dice().get(prompt.get("die") or "")
        faces = die.faces if die else ()
    return list(dict.fromkeys(faces))


def _timer(delay: float, call: Callable[[], None]) -> None:
    timer = threading.Timer(delay, call)
    timer.daemon = True
    timer.start()


@dataclass(frozen=True)
class SentRace:
    """A race the controls sent, kept to judge a press of it that reaches them only afterwards.

    ``shown_at`` is when its prompt was shown and ``sent_at`` when it went out (the buttons' clock):
    a press dated between the two was made during that race, whenever it arrives.
    """

    race: JSON
    presses: tuple[tuple[int, float], ...]
    command: JSON
    shown_at: float
    sent_at: float


def _race_result(race: JSON, command: JSON) -> str:
    """A race command's result in the table's words.

    >>> held = {"tie_breaker": 1}
    >>> _race_result(held, {"order": [1, 0], "tie": True})
    'a tie to AWAY'
    >>> _race_result(held, {"order": [0, 1], "tie": False})
    'won by HOME'
    """
    first = SIDE_ROLES[command["order"][0]]
    if command["tie"]:
        return "a tie" if race.get("tie_breaker") is None else f"a tie to {first}"
    return f"won by {first}"


@dataclass
class TableControls:
    """Dial position and the meaning of each control; lives on the table's owner thread."""

    submit: Submit
    notify: Notify
    status: Callable[[str, Any], None] = lambda key, value: None
    answer_tray: AnswerTray = lambda roll, refused: None
    snapshot: JSON | None = None
    dial: int = 0
    rejected_tray_lines: int = 0
    later: Later = _timer  # runs a call after a delay; the service passes one that runs on its thread
    clock: Callable[[], float] = time.monotonic  # the clock the buttons date their edges by (``at``)
    race_presses: list[tuple[int, float]] = field(default_factory=list)
    sent_race: SentRace | None = None  # the last race sent, to judge its presses that come in late
    pool_faces: list[Any] = field(default_factory=list)
    pool_trays: list[JSON | None] = field(default_factory=list)  # the tray roll behind each kept face
    _race_round: int = 0
    _shown_at: float = float("-inf")  # when the prompt was shown (clock): a race counts later presses

    def update(self, snapshot: JSON | None) -> None:
        """A new table state: keep the dial on a sensible entry for the new prompt."""
        old_prompt = (self.snapshot or {}).get("prompt")
        self.snapshot = snapshot
        new_prompt = (snapshot or {}).get("prompt")
        if old_prompt is None or new_prompt is None or _dial_key(old_prompt) != _dial_key(new_prompt):
            self.dial = self._start_position()
            self.race_presses = []
            self.pool_faces = []
            self._drop_pool_trays(self.pool_trays)
            self.pool_trays = []
            self._race_round += 1
            self._shown_at = self.clock()

    # -- what the dial shows --------------------------------------------------------------------

    def _prompt(self) -> JSON | None:
        return None if self.snapshot is None else self.snapshot.get("prompt")

    def entries(self) -> list[tuple[str, JSON]]:
        """What the dial steps through: the awaited die's faces, then the prompt's choices.

        A prompt may await a die and offer choices at once (a defender may contest the shot, or
        the attacker just rolls): both are on the dial, faces first.
        """
        prompt = self._prompt()
        if prompt is None:
            return []
        entries: list[tuple[str, JSON]] = []
        die = prompt.get("die")
        if die is not None:
            entries = [(str(face), {"type": "roll", "die": die, "face": face}) for face in _faces(prompt)]
        elif prompt.get("sealed"):
            entries = _sealed_entries(prompt["sealed"])
        return entries + [(c["label"], c["command"]) for c in prompt.get("choices", [])]

    def _start_position(self) -> int:
        prompt = self._prompt()
        entries = self.entries()
        if not (prompt and prompt.get("die") and prompt.get("target") and entries):
            return 0
        # Start a numeric die's dial at the target, on the succeeding side of it: the faces
        # either side are the likely ones.
        target = prompt["target"]["target"]
        success = (prompt.get("die_info") or {}).get("success")
        numbered = [(i, c["face"]) for i, (_, c) in enumerate(entries)
                    if c.get("type") == "roll" and isinstance(c["face"], int)]
        if not numbered:
            return 0
        if success == "at_most":
            at_or_under = [i for i, face in numbered if face <= target]
            return at_or_under[-1] if at_or_under else numbered[0][0]
        at_or_over = [i for i, face in numbered if face >= target]
        return at_or_over[0] if at_or_over else numbered[-1][0]

    def selection(self) -> str:
        entries = self.entries()
        if not entries:
            return ""
        label, command = entries[self.dial % len(entries)]
        sealed = (self._prompt() or {}).get("sealed")
        if sealed and command.get("type") == sealed.get("command"):
            # The dial goes to the OLED and every client: never the secret value. The dial starts
            # at the lowest value for each side and each click adds one, so the bidder counts clicks.
            return f"secret {sealed.get('field', 'value')}: dial, then CONFIRM"
        if command.get("type") == "roll":
            pool = (self._prompt() or {}).get("pool")
            kept = f" {len(self.pool_faces) + 1}/{pool['count']}" if pool else ""
            return f"{die_title(command['die'], self._prompt())}{kept}: {label}"
        return label

    # -- inputs ---------------------------------------------------------------------------------

    def on_input(self, event: JSON) -> None:
        kind = event.get("type")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(event)

    def _on_EncoderTurn(self, event: JSON) -> None:  # noqa: N802 - named after the event type
        self._turn(int(event["steps"]))

    def _turn(self, steps: int) -> None:
        entries = self.entries()
        if entries:
            self.dial = (self.dial + steps) % len(entries)
            self.status("dial", self.selection())

    def _on_ButtonPress(self, event: JSON) -> None:  # noqa: N802
        role, kind = event["role"], event["kind"]
        if kind == "release":
            return
        if role == "UNDO":
            if kind == "hold":
                self._send({"type": "undo"})
            elif self.pool_faces:
                self.pool_faces.pop()
                self._drop_pool_trays([self.pool_trays.pop()] if self.pool_trays else [])
                self.status("dial", self.selection())
            else:
                self.notify("hold UNDO for a second to undo")
        elif role == "MENU" and kind == "hold":
            self._send({"type": "redo"})
        elif role in ("CONFIRM", "ENCODER") and kind == "press":
            entries = self.entries()
            if not entries:
                self.notify("nothing to confirm: start or resume a game first")
                return
            self._enter(entries[self.dial % len(entries)][1])
        elif role == "NEXT" and kind == "press":
            self._turn(1)
        elif role == "MENU" and kind == "press":
            self._turn(-1)
        elif role in SIDE_ROLES and kind == "press":
            self._side_press(SIDE_ROLES.index(role), float(event["at"]))

    def _side_press(self, side: int, at: float) -> None:
        if self._late_for_sent_race(side, at):
            return
        race = (self._prompt() or {}).get("race")
        if not (race and side in race["sides"]):
            self._jump_to_side(side)
        elif at >= self._shown_at:
            self._race_press(race, side, at)
        # else pressed before this race's prompt was shown: a press of an older prompt, not of this race

    def _jump_to_side(self, side: int) -> None:
        entries = self.entries()
        for offset in range(1, len(entries) + 1):
            i = (self.dial + offset) % len(entries)
            if entries[i][1].get("side") == side:
                self.dial = i
                self.status("dial", self.selection())
                return
        self.notify(f"no choice for {SIDE_ROLES[side]} right now")

    # -- races --------------------------------------------------------------------------------

    def _race_press(self, race: JSON, side: int, at: float) -> None:
        if any(s == side for s, _ in self.race_presses):
            return  # a second press of the same side changes nothing
        self.race_presses.append((side, at))
        if len(self.race_presses) == 1:
            round_now = self._race_round
            # From the press's edge, not from now: it may reach us late (a busy owner thread), and so
            # may the others of its window; they are queued before this timer's call unless handed on
            # more than the grace late, and then ``_late_for_sent_race`` tells the table.
            closes_at = at + race["window_ms"] / 1000 + RACE_GRACE_S
            self.later(max(0.0, closes_at - self.clock()), lambda: self._close_race(round_now))

    def _close_race(self, round_then: int) -> None:
        race = (self._prompt() or {}).get("race")
        if round_then != self._race_round or not race or not self.race_presses:
            return  # the prompt moved on (an undo, a touch on the kiosk): this race is void
        presses, self.race_presses = self.race_presses, []
        command = race_command(race, presses)
        now = self.clock()
        self.sent_race = SentRace(race, tuple(presses), command, self._shown_at, now)
        self._shown_at = now  # the same prompt raced again (a refused race) counts only newer presses
        self._send(command)

    def _late_for_sent_race(self, side: int, at: float) -> bool:
        """A press dated while the last race was open that reaches us only after it was sent.

        Nothing is sent for it: the race is recorded and maybe shown. If its time changes the
        winner or the tie, the table is told how, to undo and race again; the status keeps the last
        one (``race_late``).
        """
        sent = self.sent_race
        if sent is None or side not in sent.race["sides"] or not sent.shown_at <= at <= sent.sent_at:
            return False
        if any(s == side for s, _ in sent.presses):
            return True  # a second press of a side already in that race changes nothing
        self.sent_race = replace(sent, presses=(*sent.presses, (side, at)))
        with_it = race_command(sent.race, list(self.sent_race.presses))
        changes = (with_it["order"][0], with_it["tie"]) != (sent.command["order"][0], sent.command["tie"])
        first_side, first_at = min(sent.presses, key=lambda press: press[1])
        ms, late_ms = round((at - first_at) * 1000), round((self.clock() - at) * 1000)
        self.status("race_late", {"role": SIDE_ROLES[side], "side": side, "ms": ms, "late_ms": late_ms,
                                  "changes_result": changes,
                                  "sent": {"order": sent.command["order"], "tie": sent.command["tie"]},
                                  "with_it": {"order": with_it["order"], "tie": with_it["tie"]}})
        if changes:
            window_ms = sent.race["window_ms"]
            inside = f", inside the {window_ms} ms window" if abs(ms) <= window_ms else ""
            when = f"{abs(ms)} ms {'after' if ms >= 0 else 'before'} {SIDE_ROLES[first_side]}'s{inside}"
            self.notify(f"{SIDE_ROLES[side]}'s race press reached the table {late_ms} ms late, after the "
                        f"race was sent: it was {when}, so the race was {_race_result(sent.race, with_it)}, "
                        f"not {_race_result(sent.race, sent.command)}; hold UNDO and race again")
        return True

    def _on_ButtonTie(self, event: JSON) -> None:  # noqa: N802
        # Races judge ties themselves (their own window); the tie is kept for the status page.
        self.status("last_tie", event)

    def _on_TrayRoll(self, event: JSON) -> None:  # noqa: N802
        prompt = self._prompt()
        waiting = None if prompt is None else prompt.get("die")
        sent = str(event["die"])
        origin = f"tray:{event['seq']}:{sent}:{event['face']}"
        # epoch 0: the tray has not restarted since the service did, so this may be a resend of a
        # roll recorded just before a crash whose ACK never left: answer it, don't apply it again.
        if event.get("epoch", 0) == 0 and (self.snapshot or {}).get("last_origin") == origin:
            self.answer_tray(event, None)
        elif waiting is None:
            self.notify(f"the tray sent a {die_title(sent)}, but the game is not waiting for a die")
            self.answer_tray(event, "not_waiting")
        elif waiting != sent:
            self.notify(f"the tray sent a {die_title(sent)}, "
                        f"the game is waiting for the {die_title(waiting, prompt)}")
            self.answer_tray(event, "wrong_die")
        else:
            self._enter({"type": "roll", "die": sent, "face": event["face"]}, tray=event, origin=origin)

    def _enter(self, command: JSON, tray: JSON | None = None, origin: str | None = None) -> None:
        """Send a command, or keep a face of a pool until the pool is complete.

        A tray roll is answered only once it is recorded: a face kept for a pool waits (the tray
        resends it meanwhile, and the protocol reports a resend once) until the pool is sent.
        """
        pool = (self._prompt() or {}).get("pool")
        if command.get("type") != "roll" or not pool or pool.get("die") != command.get("die"):
            self._record(command, [tray] if tray else [], origin)
            return
        self.pool_faces.append(command["face"])
        self.pool_trays.append(tray)
        if len(self.pool_faces) < int(pool["count"]):
            self.status("dial", self.selection())
            return
        faces, self.pool_faces = self.pool_faces, []
        trays, self.pool_trays = [t for t in self.pool_trays if t], []
        # No origin: one roll's origin can't vouch for the whole pool after a restart.
        self._record({"type": "roll", "die": command["die"], "faces": faces}, trays, None)

    def _record(self, command: JSON, trays: list[JSON], origin: str | None) -> None:
        """Submit, then answer the tray rolls it carries: an ok reply means it is in the store."""
        reply = self.submit({**command, "origin": origin} if origin else command)
        kind = reply.get("error_kind")
        for event in trays:
            self.answer_tray(event, None if reply.get("ok") else
                             "refused" if kind in ("rule", "command") else "not_recorded")

    def _drop_pool_trays(self, trays: list[JSON | None]) -> None:
        for event in trays:
            if event is not None:
                self.answer_tray(event, "refused")  # the pool it was kept for is gone: stop resending

    def _on_TrayRejected(self, event: JSON) -> None:  # noqa: N802
        self.rejected_tray_lines += 1
        self.status("tray_rejected", self.rejected_tray_lines)
        self.notify(f"dice tray line ignored: {event['reason']}")

    def _on_TrayHello(self, event: JSON) -> None:  # noqa: N802
        self.status("tray_device", {"device": event["device"], "firmware": event["firmware"]})

    def _on_TrayStatus(self, event: JSON) -> None:  # noqa: N802
        self.status("tray", {"state": event["state"], "detail": event["detail"]})

    def _on_DisplayStatus(self, event: JSON) -> None:  # noqa: N802
        self.status(f"display:{event['name']}", {"online": event["online"], "detail": event["detail"]})
        if not event["online"]:
            self.notify(f"display {event['name']} is offline ({event['detail']}); the game goes on")

    def _send(self, command: JSON) -> None:
        self.submit(command)  # a refusal has already been told to every client by the service


SEALED_DIAL_MAX = 200  # the dial's top when a side's bound is larger (or not given)


def _sealed_entries(sealed: JSON) -> list[tuple[str, JSON]]:
    """The values the next side still to enter may dial, lowest first."""
    waiting = [side for side in sealed.get("sides", []) if side not in sealed.get("entered", [])]
    if not waiting:
        return []
    side = waiting[0]
    low = int(sealed.get("min", 0))
    high = min(int((sealed.get("max_by_side") or {}).get(str(side), SEALED_DIAL_MAX)), low + SEALED_DIAL_MAX)
    command, field_name = sealed.get("command"), sealed.get("field", "amount")
    return [(str(value), {"type": command, "side": side, field_name: value})
            for value in range(low, high + 1)]


def _dial_key(prompt: JSON) -> tuple[Any, ...]:
    return (prompt.get("die"), prompt.get("text"),
            tuple(c["label"] for c in prompt.get("choices", [])))
