"""What this kiosk saw of a game: the log lines and the score difference after every step.

The service pushes states, not its log, so the kiosk writes down what each new state says, once per
``seq``, in a small JSON file per game (``<user data>/kiosk-history/game-N.json``); a restarted
kiosk still has it.

>>> import tempfile, pathlib
>>> seen = GameHistory.open(7, pathlib.Path(tempfile.mkdtemp()))
>>> seen.record({"seq": 0, "view": {"message": "Lucy attacks first", "score": [0, 0]}})
True
>>> seen.record({"seq": 1, "view": {"message": "Muy Schillato scores 2", "score": [2, 0]}})
True
>>> seen.record({"seq": 1, "view": {"message": "Muy Schillato scores 2", "score": [2, 0]}})
False
>>> seen.log, seen.score_difference, seen.from_start
(['Lucy attacks first', 'Muy Schillato scores 2'], [0, 2], True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk import present

JSON = dict[str, Any]


def default_folder() -> Path:
    from platformdirs import user_data_path

    return user_data_path("courtside-companion") / "kiosk-history"


@dataclass
class GameHistory:
    """One game's log lines and score run as this kiosk saw them, kept on disk."""

    game_id: int
    folder: Path
    seq: int = -1
    first_seq: int | None = None
    log: list[str] = field(default_factory=list)
    score_difference: list[int] = field(default_factory=list)

    @classmethod
    def open(cls, game_id: int, folder: Path | None = None) -> GameHistory:
        folder = folder or default_folder()
        try:
            data = json.loads((folder / f"game-{game_id}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if not isinstance(data, dict):
            data = {}
        return cls(game_id=game_id, folder=folder, seq=int(data.get("seq", -1)),
                   first_seq=data.get("first_seq"), log=list(data.get("log", [])),
                   score_difference=list(data.get("score_difference", [])))

    @property
    def from_start(self) -> bool:
        """Whether this kiosk saw the game from its first state (so the score run is complete)."""
        return self.first_seq is not None and self.first_seq <= 1

    def record(self, snapshot: JSON) -> bool:
        """Write down a new state (False for one already seen); the file is saved at once."""
        seq = int(snapshot.get("seq") or 0)
        if seq <= self.seq:
            return False
        self.seq = seq
        if self.first_seq is None:
            self.first_seq = seq
        view = snapshot.get("view") or {}
        message = str(view.get("message") or "").strip()
        if snapshot.get("can_redo") and message:
            # The redo stack is only ever filled by an undo: this state is the table taking a step back.
            message = f"Undone, back to: {message}"
        if message and (not self.log or self.log[-1] != message):
            self.log.append(message)
        diff = present.score_difference(view.get("score"))
        if diff is not None:
            self.score_difference.append(diff)
        self._save()
        return True

    def _save(self) -> None:
        path = self.folder / f"game-{self.game_id}.json"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"seq": self.seq, "first_seq": self.first_seq, "log": self.log,
                                       "score_difference": self.score_difference}), encoding="utf-8")
            tmp.replace(path)
        except OSError:
            pass  # the history is a convenience; a full or read-only disk must not stop the kiosk
