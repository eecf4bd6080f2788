"""Every snapshot of every recorded game, pinned: the table sees exactly what it saw before.

The other tests check chosen figures (a target, a score, a box line) and hold renders to fresh
renders of the same code; neither notices a value moved to a wrong field that no test names (a
choice's chance shown as its expected points). This plays each script in ``tests/games`` through
``Session`` and compares a hash of each snapshot's JSON with the one recorded in
``tests/games/golden/``: a speed-up must change none of them. A deliberate change of what a game
shows regenerates them: ``REGENERATE_REFERENCE=1 pytest tests/test_golden_snapshots.py``, then read
the diff of the game's own tests and docs, which say why.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from companion.session import Session, parse_command
from companion.store import Store

GAMES = Path(__file__).parent / "games"
GOLDEN = GAMES / "golden"
REGENERATE = os.environ.get("REGENERATE_REFERENCE") == "1"
SCRIPTS = {
    "full_game_valley_hoopers.jsonl": "valley-hoopers",
    "series_valley_hoopers.jsonl": "valley-hoopers",
    "full_game_nba_showdown.jsonl": "nba-showdown",
    "full_game_crunch_time.jsonl": "crunch-time",
    "solo_game_crunch_time.jsonl": "crunch-time",
    "full_game_hoop_godz.jsonl": "hoop-godz",
    "pro_game_hoop_godz.jsonl": "hoop-godz",
    "basketboss_2_managers.jsonl": "basketboss",
    "basketboss_3_managers.jsonl": "basketboss",
    "basketboss_5_managers.jsonl": "basketboss",
}


def snapshot_hash(snapshot: dict) -> str:
    shown = {k: v for k, v in snapshot.items() if k != "game_id"}  # the store's numbering, not the game's
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:16]


def play(script: str, tmp_path: Path) -> list[tuple[str, str]]:
    """(the line played, the hash of the snapshot after it) for the setup and every command."""
    lines = [line for line in (GAMES / script).read_text().splitlines() if line.strip()]
    setup = {k: v for k, v in json.loads(lines[0]).items() if k != "type"}
    store = Store.open(tmp_path / "golden.db")
    try:
        session = Session.new(store, SCRIPTS[script], setup)
        played = [(lines[0], snapshot_hash(session.snapshot()))]
        for line in lines[1:]:
            played.append((line, snapshot_hash(session.handle(parse_command(line)))))
    finally:
        store.close()
    return played


def test_every_recorded_script_is_pinned() -> None:
    assert sorted(SCRIPTS) == sorted(p.name for p in GAMES.glob("*.jsonl"))


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_snapshot_of_a_recorded_game_is_the_one_recorded(script: str, tmp_path: Path) -> None:
    played = play(script, tmp_path)
    golden = GOLDEN / (script.removesuffix(".jsonl") + ".sha256")
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text("".join(f"{digest}\n" for _, digest in played))
    assert golden.exists(), f"{golden} is missing: run with REGENERATE_REFERENCE=1"
    recorded = golden.read_text().split()
    assert len(recorded) == len(played), f"{script}: {len(played)} snapshots, {len(recorded)} recorded"
    for n, ((line, digest), expected) in enumerate(zip(played, recorded, strict=True)):
        assert digest == expected, f"{script}: the snapshot after line {n + 1} changed: {line[:120]}"
