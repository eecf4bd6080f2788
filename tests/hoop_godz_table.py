"""What a Hoop Godz table can enter at a prompt: the offered choices, every count of BALL icons of an
awaited final roll, and races (clean and tied) as the controls send them. Tests and the replay-file
writer pick from these."""

from __future__ import annotations

from typing import Any

from companion.controls import race_command
from companion.game import Prompt


def table_inputs(prompt: Prompt) -> list[dict[str, Any]]:
    found = [dict(c.command) for c in prompt.choices]
    if prompt.roll is not None:
        die = prompt.roll.die
        found += [{"type": "roll", "die": die.name, "face": f} for f in die.distinct_faces]
    if prompt.race is not None:
        race = prompt.race.to_json()
        for first, gap_s in ((0, 0.3), (1, 0.12), (0, 0.01), (1, 0.0)):
            found.append(race_command(race, [(first, 100.0), (1 - first, 100.0 + gap_s)]))
    return found
