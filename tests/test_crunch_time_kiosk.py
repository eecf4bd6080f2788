"""Crunch Time on the real kiosk by touch, against a real ``companion serve --sim``: from the setup
form to a scored possession, the zones tapped on the compact grid (3/2 points x open, defended,
defender only, empty), then the lead on the Table screen as a tug-of-war bar. Screenshots land in
``tests/artifacts/kiosk/crunch_time/`` for a person to look at."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from kiosk_support import ARTIFACTS, PYTHON, ROOT, kiosk_env, run_kiosk, start_service, stop
from long_runs import long_runs

from companion.games.crunch_time.model import DIFFICULTY, DIFFICULTY_TITLES

GAMES = Path(__file__).parent / "games"
sys.path.insert(0, str(GAMES))

from make_crunch_time_games import seeded_game  # noqa: E402

# make test's solo game: seed 578 is the shortest of seeds 0-1499 whose game at the last difficulty has
# every kind of command a solo game sends (shot card, zone, Star, score, the AI's Star and reach): 24
# taps to the mercy rule, where the long run's seed 7 takes 48 of the same kinds to the same end.
SHORT_SOLO_SEED = 578
SOLO_KINDS = {"shot_card", "zone", "star", "score", "ai_star", "ai_reach"}


def _seed(difficulty: str) -> int:
    if long_runs() or difficulty != list(DIFFICULTY)[-1]:
        return len(difficulty) + 3
    return SHORT_SOLO_SEED


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_setup_to_a_scored_possession_by_touch(display: str, tmp_path: Path, size: str) -> None:
    env = kiosk_env(tmp_path, display)
    socket_path = tmp_path / "run" / "table.sock"
    service = start_service(socket_path, tmp_path / "table.db", env)
    try:
        argv = [PYTHON, str(ROOT / "tests" / "crunch_time_kiosk.py"), "--socket", str(socket_path),
                "--out", str(ARTIFACTS / "crunch_time" / size), "--size", size, "--sim"]
        report = run_kiosk(argv, env, timeout=120)
    finally:
        stop(service)
    assert report["ok"], report.get("error")
    assert report["first_prompt"].startswith("tip-off")
    # Every zone entry is one tap on the grid: 2 rows x 4 columns.
    assert sorted(report["grid_cells"]) == sorted(f"{p}-pt zone: {w}" for p in (3, 2)
                                                  for w in ("open", "defended", "defender only", "empty"))
    # 3 open + Red's Star on the 3-point zone; both zones hold a Red player: one Star draw.
    assert report["lead_after"] == {"side": 0, "value": 6}
    assert report["score_after"] == "Red leads by 6"
    assert report["prompt_after"].startswith("Blue has the ball")
    assert report["lead_bars"] == [0.3]  # the marker pulled 6 of 15 toward Red's end
    texts = report["table_texts"]
    assert "Red leads by 6" in texts and "Red +6" in texts and "R1" in texts
    for name, shot in report["shots"].items():
        assert shot["problems"] == [], f"{name}: {shot['problems']}"
        assert Path(shot["path"]).stat().st_size > 1000


def test_a_two_coach_game_and_a_solo_game_at_every_difficulty_by_touch(display: str, tmp_path: Path) -> None:
    """Each game set up on the form and played to its end by tapping the offered choices.

    ``make test`` plays the solo game at the last difficulty (the form's difficulty button tapped
    through the others to reach it); the long run (``python -m benchmarks.long_runs``) plays the
    two-coach game and a solo game at every difficulty."""
    rows = [json.loads(line) for line in (GAMES / "full_game_crunch_time.jsonl").read_text().splitlines()]
    two_coaches = 1 if long_runs() else 0
    difficulties = list(DIFFICULTY) if long_runs() else list(DIFFICULTY)[-1:]
    games = [{"mode": "two", "commands": rows[1:]}] if two_coaches else []
    for difficulty in difficulties:
        options = {"mode": "solo", "difficulty": difficulty}
        games.append({**options, "commands": seeded_game(options, seed=_seed(difficulty))})
    if not long_runs():  # the short game still taps every kind of command
        assert {c["type"] for c in games[-1]["commands"]} == SOLO_KINDS, games[-1]["commands"]
    script = tmp_path / "games.json"
    script.write_text(json.dumps(games))
    env = kiosk_env(tmp_path, display)
    socket_path = tmp_path / "run" / "table.sock"
    service = start_service(socket_path, tmp_path / "table.db", env)
    try:
        argv = [PYTHON, str(ROOT / "tests" / "crunch_time_kiosk.py"), "--socket", str(socket_path),
                "--out", str(ARTIFACTS / "crunch_time" / "games"), "--sim", "--games", str(script),
                "--step-timeout", "30"]
        report = run_kiosk(argv, env, timeout=900)
    finally:
        stop(service)
    assert report["ok"], report.get("error")
    played = report["games"]
    assert [g["mode"] for g in played] == ["two"] * two_coaches + ["solo"] * len(difficulties)
    if two_coaches:
        assert played[0]["outcome"]["reason"] == "by 4 after overtime 1"
        assert played[0]["score_text"] == "Red leads by 4"
    for game, difficulty in zip(played[two_coaches:], difficulties, strict=True):
        view = game["view"]
        assert view["difficulty"] == DIFFICULTY_TITLES[difficulty] and view["phase"] == "final"
        first = view["possessions"][0]
        assert first["lead"] - first["net"] == DIFFICULTY[difficulty]  # set up by touch at this level
        assert game["outcome"]["winner"] in (0, 1)
