"""Write BasketBoss replay files for 2, 3 and 5 managers: whole games, six seasons each.

    python tests/games/make_basketboss_games.py

Each command is one the table could enter now: a choice the prompt offers, or a sealed bid
within the bidder's money, picked by a seeded generator.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.games.basketboss import GAME  # noqa: E402

HERE = Path(__file__).resolve().parent
NAMES = ["Blue", "Yellow", "Purple", "Green", "Red"]


def seeded_game(options: dict, seed: int) -> list[dict]:
    rng = random.Random(seed)
    state = GAME.setup(options)
    commands: list[dict] = []
    while GAME.outcome(state) is None:
        prompt = GAME.prompt(state)
        if prompt.sealed is not None:
            side = next(s for s in prompt.sealed.sides if s not in prompt.sealed.entered)
            command = {"type": "sealed_bid", "side": side,
                       "amount": rng.randint(0, min(3, prompt.sealed.max_by_side[side]))}
        else:
            moving = [c.command for c in prompt.choices if c.command["type"] in ("market_done", "award")]
            command = moving[0] if moving and rng.random() < 0.3 else rng.choice(prompt.choices).command
        commands.append(command)
        state, _ = GAME.run(state, command)
    return commands


def main() -> None:
    for count, seed in ((2, 1), (3, 2), (5, 3)):
        options = {"names": NAMES[:count], "tallest": count - 1}
        commands = seeded_game(options, seed)
        lines = [json.dumps({"type": "setup", **options})] + [json.dumps(c) for c in commands]
        (HERE / f"basketboss_{count}_managers.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
