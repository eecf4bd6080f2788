"""The Valley Hoopers demo script: Lucy against Karl (the rulebook's example tables, every card
entered), then 60 commands chosen from the game's own prompts (``companion.demo.autoplay``)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.demo import autoplay
from companion.game import JSON

DEMO_SETUP = Path(__file__).with_name("demo_setup.json")


def demo_script() -> tuple[JSON, list[JSON]]:
    from companion.games.valley_hoopers import GAME

    return autoplay(GAME, json.loads(DEMO_SETUP.read_text(encoding="utf-8")), steps=60)
