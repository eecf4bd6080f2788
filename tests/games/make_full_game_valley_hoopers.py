"""Regenerate ``full_game_valley_hoopers.jsonl``: a complete Valley Hoopers game as commands
(four periods, tied, then one overtime).

The first line is ``{"type": "setup", ...options}`` (fourteen hoopers with every stat filled in:
TEST DATA, see valley_hoopers_table.py); each following line is one command, rolls included, as
the players would tell the companion. ``companion replay`` and the tests read it.

    .venv/bin/python tests/games/make_full_game_valley_hoopers.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.valley_hoopers_table import options, play_out  # noqa: E402

OUTPUT = Path(__file__).with_name("full_game_valley_hoopers.jsonl")
SEED = 5  # after five commands Karl may defend: the CLI tests put their bad lines there


def main() -> None:
    opts = options()
    state, commands = play_out(opts, seed=SEED)
    lines = [json.dumps({"type": "setup", **opts})] + [json.dumps(c) for c in commands]
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{OUTPUT.name}: {len(commands)} commands, final score {state.score[0]}-{state.score[1]}")


if __name__ == "__main__":
    main()
