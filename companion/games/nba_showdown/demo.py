"""The NBA Showdown demo script: the two DEMO rosters (invented cards) with every rule on, then
commands chosen from the game's own prompts (``companion.demo.autoplay``): substitutions,
double-teams, scoring rolls and assists through the first quarter and into the second."""

from __future__ import annotations

from companion.demo import autoplay
from companion.game import JSON
from companion.games.nba_showdown.setup_options import example_options


def demo_script() -> tuple[JSON, list[JSON]]:
    from companion.games.nba_showdown import GAME

    return autoplay(GAME, example_options(), steps=60)
