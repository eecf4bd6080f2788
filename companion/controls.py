"""Physical controls -> table commands: what a button, the encoder or the dice tray means right now.

The hardware adapters report plain input events (``hardware.inputs``, passed here as their JSON
form so this module stays free of hardware imports). The meaning depends on the prompt:

- when the game waits for a die, the encoder dials that die's faces and CONFIRM (or the encoder's
  push) enters the dialled face; a roll from the dice tray is entered directly if it is that die;
- otherwise the encoder (and NEXT / MENU) dial through the prompt's ready-made choices and CONFIRM
  sends the one shown;
- UNDO held (1 s) undoes; a short UNDO tap only says to hold it, so a brushed button never undoes;
  MENU held redoes; HOME / AWAY jump the dial to the next choice for that side.

No rule lives here: every command still goes through the game's ``decide``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.dice import DICE_BY_NAME, Die
from companion.game import JSON

Submit = Callable[[JSON], JSON]
Notify = Callable[[str], None]
# Answer a dice-tray roll (the TrayRoll event as received) once it is recorded: ``None``, or the
# word saying why it was refused. The tray resends a roll until it is answered.
AnswerTray = Callable[[JSON, str | None], None]


def die_named(name: str | None) -> Die | None:
    return None if name is None else DICE_BY_NAME.get(name)


def die_title(name: str) -> str:
    die = DICE_BY_NAME.get(name)
    return die.title if die else name


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

    def update(self, snapshot: JSON | None) -> None:
        """A new table state: keep the dial on a sensible entry for the new prompt."""
        old_prompt = (self.snapshot or {}).get("prompt")
        self.snapshot = snapshot
        new_prompt = (snapshot or {}).get("prompt")
        if old_prompt is None or new_prompt is None or _dial_key(old_prompt) != _dial_key(new_prompt):
            self.dial = self._start_position()

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
            known = die_named(die)
            faces = list(dict.fromkeys(prompt.get("faces") or (known.faces if known else ())))
            entries = [(str(face), {"type": "roll", "die": die, "face": face}) for face in faces]
        return entries + [(c["label"], c["command"]) for c in prompt.get("choices", [])]

    def _start_position(self) -> int:
        prompt = self._prompt()
        entries = self.entries()
        if prompt and prompt.get("die") and prompt.get("target") and entries:
            # Start a numeric die's dial at the target: the faces either side are the likely ones.
            target = prompt["target"]["target"]
            for i, (_, command) in enumerate(entries):
                if isinstance(command["face"], int) and command["face"] >= target:
                    return i
            return len(entries) - 1
        return 0

    def selection(self) -> str:
        entries = self.entries()
        if not entries:
            return ""
        label, command = entries[self.dial % len(entries)]
        return f"{die_title(command['die'])}: {label}" if command.get("type") == "roll" else label

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
            else:
                self.notify("hold UNDO for a second to undo")
        elif role == "MENU" and kind == "hold":
            self._send({"type": "redo"})
        elif role in ("CONFIRM", "ENCODER") and kind == "press":
            entries = self.entries()
            if not entries:
                self.notify("nothing to confirm: start or resume a game first")
                return
            self._send(entries[self.dial % len(entries)][1])
        elif role == "NEXT" and kind == "press":
            self._turn(1)
        elif role == "MENU" and kind == "press":
            self._turn(-1)
        elif role in ("HOME", "AWAY") and kind == "press":
            self._jump_to_side(0 if role == "HOME" else 1)

    def _jump_to_side(self, side: int) -> None:
        entries = self.entries()
        for offset in range(1, len(entries) + 1):
            i = (self.dial + offset) % len(entries)
            if entries[i][1].get("side") == side:
                self.dial = i
                self.status("dial", self.selection())
                return
        self.notify(f"no choice for {'HOME' if side == 0 else 'AWAY'} right now")

    def _on_ButtonTie(self, event: JSON) -> None:  # noqa: N802
        # No Valley Hoopers rule races two buttons; the tie is kept for the status page (and for the
        # games whose dice battles are decided by who presses first).
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
                        f"the game is waiting for the {die_title(waiting)}")
            self.answer_tray(event, "wrong_die")
        else:
            reply = self.submit({"type": "roll", "die": sent, "face": event["face"], "origin": origin})
            # Only now: an ok reply means the roll is in the store (the session commits first).
            if reply.get("ok"):
                self.answer_tray(event, None)
            else:
                kind = reply.get("error_kind")
                self.answer_tray(event, "refused" if kind in ("rule", "command") else "not_recorded")

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


def _dial_key(prompt: JSON) -> tuple[Any, ...]:
    return (prompt.get("die"), prompt.get("text"),
            tuple(c["label"] for c in prompt.get("choices", [])))
