"""Write the Crunch Time replay files: a two-coach game to overtime, and a solo game.

    python tests/games/make_crunch_time_games.py

Each file is one command per line after a setup line (docs/commands.md), playable with
``companion replay``. The games are made by a seeded choice among the commands the prompt offers,
so every line is one the table could have entered.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.games.crunch_time import GAME  # noqa: E402

HERE = Path(__file__).resolve().parent


def seeded_game(options: dict, seed: int, limit: int = 2000) -> list[dict]:
    """Commands chosen at random among the prompt's choices until the game ends."""
    rng = random.Random(seed)
    state = GAME.setup(options)
    commands: list[dict] = []
    while GAME.outcome(state) is None and len(commands) < limit:
        choices = GAME.prompt(state).choices
        scoring = [c for c in choices if c.command["type"] == "score"]
        zones_entered = sum(len(c.zones) for c in (state.current.shots if state.current else ()))
        # Enter a few zones and Stars, then score: a possession of a table, not an endless one.
        pick = scoring[0] if scoring and zones_entered >= 3 and rng.random() < 0.6 else rng.choice(choices)
        commands.append(dict(pick.command))
        state, _ = GAME.run(state, pick.command)
    if GAME.outcome(state) is None:
        raise RuntimeError(f"seed {seed} did not finish in {limit} commands")
    return commands


def write(path: Path, options: dict, commands: list[dict]) -> None:
    lines = [json.dumps({"type": "setup", **options})] + [json.dumps(c) for c in commands]
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    # Seeds picked so the two files between them reach overtime and the mercy rule.
    write(HERE / "full_game_crunch_time.jsonl", {"names": ["Red", "Blue"]}, seeded_game({}, seed=20))
    solo = {"mode": "solo", "difficulty": "rookie"}
    write(HERE / "solo_game_crunch_time.jsonl", solo, seeded_game(solo, seed=6))


if __name__ == "__main__":
    main()
