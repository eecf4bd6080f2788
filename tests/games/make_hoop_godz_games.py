"""Write the Hoop Godz replay files: a standard game and a PRO game.

    python tests/games/make_hoop_godz_games.py

Each file is one command per line after a setup line (docs/commands.md), playable with
``companion replay``. The games are made by a seeded choice among what the table could enter at each
prompt (``tests/hoop_godz_table.py``: the choices, the BALL count of a final roll, races as the
race buttons send them), so every line is one the table could have entered.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hoop_godz_table import table_inputs  # noqa: E402

from companion.games.hoop_godz import GAME  # noqa: E402

HERE = Path(__file__).resolve().parent


def seeded_game(options: dict, seed: int, limit: int = 2000) -> list[dict]:
    """Commands chosen at random among the prompt's choices until the game ends."""
    rng = random.Random(seed)
    state = GAME.setup(options)
    commands: list[dict] = []
    while GAME.outcome(state) is None and len(commands) < limit:
        prompt = GAME.prompt(state)
        inputs = table_inputs(prompt)
        # A table with race buttons: battles are races (the explicit battle command is for tables
        # without); it shoots and dunks often, rests now and then: games end by points or the clock.
        races = [c for c in inputs if c["type"] == "race"]
        shots = [c for c in inputs if c.get("card") in ("SHOOT", "DUNK")]
        if races and rng.random() < 0.8:
            pick = rng.choice(races)
        elif shots and rng.random() < 0.3:
            pick = rng.choice(shots)
        else:
            pick = rng.choice(inputs)
        commands.append(dict(pick))
        state, _ = GAME.run(state, pick)
    if GAME.outcome(state) is None:
        raise RuntimeError(f"seed {seed} did not finish in {limit} commands")
    return commands


def write(path: Path, options: dict, commands: list[dict]) -> None:
    lines = [json.dumps({"type": "setup", **options})] + [json.dumps(c) for c in commands]
    path.write_text("\n".join(lines) + "\n")


def main() -> None:
    for seed in range(4, 40):
        standard = seeded_game({"ball_faces": 2}, seed=seed)
        if _ends(standard, {"ball_faces": 2}, on_points=True):
            break
    write(HERE / "full_game_hoop_godz.jsonl", {"ball_faces": 2}, standard)
    for seed in range(5, 40):
        pro = seeded_game({"mode": "pro"}, seed=seed)
        if _ends(pro, {"mode": "pro"}, on_points=False):
            break
    write(HERE / "pro_game_hoop_godz.jsonl", {"mode": "pro"}, pro)


def _ends(commands: list[dict], options: dict, on_points: bool) -> bool:
    """The standard game should end on points, the PRO game on the clock: both endings get played."""
    state = GAME.setup(options)
    for command in commands:
        state, _ = GAME.run(state, command)
    return ("reaches" in state.reason) == on_points


if __name__ == "__main__":
    main()
