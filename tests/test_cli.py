"""The companion CLI: calculators, a full game through replay, saved games, exports, clear refusals."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from table.cli import main

FULL_GAME = Path(__file__).parent / "games" / "full_game_valley_hoopers.jsonl"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_calc_attack_gives_target_chance_and_breakdown(capsys) -> None:
    code, out, _ = run(capsys, "calc", "valley-hoopers", "attack", "--stat", "70", "--bonus", "15",
                       "--defense", "30", "--json")
    assert code == 0
    result = json.loads(out)
    assert (result["target"], result["automatic"], result["p_success"]) == (55, False, 0.55)
    assert result["text"] == "70 (stat) + 15 (bonus) - 30 (defense) = 55"


def test_calc_attack_of_100_or_more_scores_without_a_roll(capsys) -> None:
    _, out, _ = run(capsys, "calc", "vh", "attack", "--stat", "60", "--bonus", "25", "--bonus", "15",
                    "--json")
    assert json.loads(out) == {"target": 100, "automatic": True, "p_success": 1.0,
                               "text": "60 (stat) + 25 (bonus) + 15 (bonus) = 100"}


@pytest.mark.parametrize(("action", "face", "foul", "bonus", "made", "missed", "ends"), [
    ("D2", "whistle", True, 20, 1, 2, False),
    ("D2", "whistle2", True, 15, 1, 2, False),
    ("D3", "whistle", True, 25, 1, 3, False),
    ("D3", "whistle2", False, 0, 0, 0, False),
    ("DLU", "whistle3", True, 0, 1, 2, False),
    ("DLU", "charge", True, 0, 0, 0, True),
    ("screen", "whistle2", True, 0, 0, 0, True),
    ("rebound", "whistle2", False, 0, 0, 0, False),
])
def test_calc_foul_reads_the_foul_table(capsys, action, face, foul, bonus, made, missed, ends) -> None:
    _, out, _ = run(capsys, "calc", "valley-hoopers", "foul", "--action", action, "--face", face, "--json")
    result = json.loads(out)
    assert (result["foul"], result["defense_bonus"], result["free_throws_if_made"],
            result["free_throws_if_missed"], result["ends_turn"]) == (foul, bonus, made, missed, ends)


def test_calc_foul_refuses_a_face_the_die_does_not_have(capsys) -> None:
    code, _, err = run(capsys, "calc", "valley-hoopers", "foul", "--action", "D2", "--face", "seven")
    assert code == 2 and "seven" in err and "whistle" in err


def test_full_four_period_game_replays_saves_resumes_and_exports(capsys, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    code, out, err = run(capsys, "--db", db, "replay", "--game", "valley-hoopers", str(FULL_GAME), "--json")
    assert code == 0, err
    final = json.loads(out)
    assert final["winner"] in (0, 1) and final["period"] >= 4
    assert set(final) >= {"score", "period", "turn", "team_fouls", "sides", "winner"}
    assert {"energy", "red", "white"} <= set(final["sides"][0]["hoopers"][0])
    game_id = final["game_id"]

    code, out, _ = run(capsys, "--db", db, "games", "--json")
    listed = json.loads(out)
    assert listed[0]["id"] == game_id and listed[0]["status"] == "finished"
    assert listed[0]["summary"]["score"] == final["score"]

    code, out, _ = run(capsys, "--db", db, "show", str(game_id))
    assert json.loads(out)["view"]["score"] == final["score"]

    code, out, _ = run(capsys, "--db", db, "export", str(game_id), "--format", "json")
    exported = json.loads(out)
    assert exported["log"][0]["kind"] == "setup" and len(exported["log"]) == sum(
        1 for line in FULL_GAME.read_text().splitlines() if line.strip())

    code, out, _ = run(capsys, "--db", db, "export", str(game_id), "--format", "csv")
    everything = list(csv.DictReader(io.StringIO(out)))
    rows = [r for r in everything if r["total"] != "True"]  # each side's total line comes after its hoopers
    assert len(rows) == 14 and {"side", "name", "energy", "red", "white", "fg", "ft"} <= set(rows[0])
    assert [int(r["points"]) for r in everything if r["total"] == "True"] == final["score"]
    points = {side: 0 for side in ("Lucy", "Karl")}
    for row in rows:
        points[row["side"]] = points.get(row["side"], 0) + int(row["points"])
    assert list(points.values()) == final["score"]


def test_replay_can_be_resumed_across_files(capsys, tmp_path: Path) -> None:
    lines = FULL_GAME.read_text().splitlines()
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(lines[:150]) + "\n")
    second.write_text("\n".join(lines[150:]) + "\n")
    db = str(tmp_path / "g.db")
    code, out, _ = run(capsys, "--db", db, "replay", str(first), "--json")
    game_id = json.loads(out)["game_id"]
    code, out, err = run(capsys, "--db", db, "replay", "--resume", str(game_id), str(second), "--json")
    assert code == 0, err
    _, whole, _ = run(capsys, "--db", str(tmp_path / "whole.db"), "replay", str(FULL_GAME), "--json")
    assert json.loads(out)["score"] == json.loads(whole)["score"]


@pytest.mark.parametrize(("bad_line", "reason"), [
    ('{"type": "roll", "die": "d20x5", "face": ', "not valid JSON"),
    ('{"type": "slam_dunk"}', "slam_dunk"),
    ('{"type": "roll", "die": "d20x5", "face": 42}', "not 42"),
    ('{"type": "defend", "hooper": "Serge Ceptor"}', "Serge Ceptor"),
])
def test_replay_stops_at_the_first_refused_line_with_its_number(capsys, tmp_path: Path, bad_line,
                                                               reason) -> None:
    lines = FULL_GAME.read_text().splitlines()[:6]
    script = tmp_path / "bad.jsonl"
    script.write_text("\n".join([*lines, bad_line, lines[1]]) + "\n")
    db = str(tmp_path / "g.db")
    code, _, err = run(capsys, "--db", db, "replay", str(script))
    assert code == 2
    assert err.startswith("line 7: ") and reason in err
    # Everything before the bad line was kept, nothing after it was applied.
    _, out, _ = run(capsys, "--db", db, "games", "--json")
    game_id = json.loads(out)[0]["id"]
    _, out, _ = run(capsys, "--db", db, "export", str(game_id), "--format", "json")
    assert len(json.loads(out)["log"]) == 6


def test_run_forwards_its_flags_to_the_kiosk(monkeypatch, capsys) -> None:
    import kiosk.launcher

    seen: list[list[str]] = []
    monkeypatch.setattr(kiosk.launcher, "main", lambda argv, program=None: seen.append(list(argv)) or 0)
    assert main(["--db", "x.db", "run", "--sim", "--screenshot", "s.png"]) == 0
    assert seen == [["--db", "x.db", "--sim", "--screenshot", "s.png"]]


def test_doctor_lists_each_check_and_what_to_fix(capsys, tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[tray]\nport = "/dev/does-not-exist"\n')
    code, out, _ = run(capsys, "doctor", "--config", str(config))
    assert code == 1  # this machine is no Pi: something to fix
    assert f"ok   config: {config}" in out
    assert "FIX  dice tray: /dev/does-not-exist not found" in out and "-> " in out
