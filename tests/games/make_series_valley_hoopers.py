"""Regenerate ``series_valley_hoopers.jsonl``: a whole Valley Hoopers series (The Series, best of
seven) as commands, from the series setup to the last game's final roll.

The first line is ``{"type": "setup", "variant": "series", ...}``; every following line is one
command as the table would send it: the games' own commands (random legal choices and die faces,
short turns: ``brisk_command``), and between games only what the prompt offers as buttons: the reward
checklist ticked item by item, a ready-made ``next_game`` (with a new seven where a hooper was
ejected in the game before), Susan Peg into the seven of the side facing elimination and then into
its starting five. TEST DATA cards: tests/games/valley_hoopers_series.py.
``companion replay`` and tests/test_valley_hoopers_series.py read it; the kiosk test
(tests/test_valley_hoopers_series_kiosk.py) plays it with the between-game commands as taps.

    .venv/bin/python tests/games/make_series_valley_hoopers.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.valley_hoopers_series import play_series, series_options  # noqa: E402

OUTPUT = Path(__file__).with_name("series_valley_hoopers.jsonl")
SEED = 3  # five games (4-1), ejections after games 2 and 4, injured hoopers carried over


# Susan Peg's card as the table entered it among each side's reserves (TEST DATA: her positions and
# stats are not printed in the rulebook), so that she can start when she joins the side facing
# elimination.
SUSAN_PEG = {"name": "Susan Peg", "first_position": "C", "second_position": "PF", "stellar": False,
             "energy": 5, "defense_positions": ["PF", "C"], "skill": "rebound_layup",
             "stats": {"2PS": 45, "3PS": 30, "LUP": 55, "D2": 25, "D3": 15, "DLU": 25, "O": 40, "V": 60}}


def main() -> None:
    opts = series_options(condition="after_pass")
    for side in opts["sides"]:
        side["reserves"].append(dict(SUSAN_PEG))
    state, commands = play_series(opts, seed=SEED, brisk=True)
    lines = [json.dumps({"type": "setup", **opts})] + [json.dumps(c) for c in commands]
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    games = ", ".join(f"{r.score[0]}-{r.score[1]}" for r in state.results)
    print(f"{OUTPUT.name}: {len(commands)} commands, games {games}, series {state.wins[0]}-{state.wins[1]}")


if __name__ == "__main__":
    main()
