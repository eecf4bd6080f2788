"""Write the Hoop Godz replay files: a standard game and a PRO game.

    python tests/games/make_hoop_godz_games.py

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

from companion.games.hoop_godz import GAME  # noqa: E402

HERE = Path(__file__).resolve().parent


def seeded_game(options: dict, seed: int, limit: int = 2000) -> list[dict]:
    """Commands chosen at random among the prompt's choices until the game ends."""
    rng = random.Random(seed)
    state = GAME.setup(options)
    commands: list[dict] = []
    while GAME.outcome(state) is None and len(commands) < limit:
        choices = GAME.prompt(state).choices
        # A table that shoots and dunks often, rests now and then: games end by points or the clock.
        shots = [c for c in choices if c.command.get("card") in ("SHOOT", "DUNK")]
        pick = rng.choice(shots) if shots and rng.random() < 0.3 else rng.choice(choices)
        commands.append(dict(pick.command))
        state, _ = GAME.run(state, pick.command)
    if GAME.outcome(state) is None:
        raise RuntimeError(f"seed {seed} did not finish in {limit} commands")
    return commands


def write(path: Path, options: dict, commands: list[dict]) -> None:
    lines = [json.dumps({"type": "setup", **options})] + [json.dumps(c) for c in commands]
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    write(HERE / "full_game_hoop_godz.jsonl", {"ball_faces": 2}, seeded_game({"ball_faces": 2}, seed=4))
    write(HERE / "pro_game_hoop_godz.jsonl", {"mode": "pro"}, seeded_game({"mode": "pro"}, seed=5))


if __name__ == "__main__":
    main()
