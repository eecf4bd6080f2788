"""The Series on the kiosk: between two games the reward checklist and the next game are the prompt's
buttons, tapped like any other (the kiosk holds no rule and names no game)."""

from __future__ import annotations

import test_kiosk
from games.valley_hoopers_series import series_options
from kiosk_support import ARTIFACTS, PYTHON, ROOT, play_until, request, run_kiosk

# The kiosk tests' simulated table service per test (on conftest's private Xvfb).
table = test_kiosk.table


def test_the_reward_checklist_and_the_next_game_by_touch(table: dict) -> None:
    request(table["socket"], {"op": "new_game", "game": "valley-hoopers", "options": series_options()})
    play_until(table["socket"], lambda snap: snap["view"]["series"]["phase"] == "reward")
    argv = [PYTHON, str(ROOT / "tests" / "series_kiosk_driver.py"), "series_rewards", "--socket",
            str(table["socket"]), "--out", str(ARTIFACTS / "series_rewards"), "--size", "800x480", "--sim"]
    report = run_kiosk(argv, table["env"], timeout=120)
    assert report["ok"], report.get("error")
    # The gameplan milestones are counted from the log (gameplans.py): the checklist comes at once.
    assert "how many of its two milestones" not in report["reward_prompt"]
    assert all(label.startswith("done: ") for label in report["tapped"])
    # The game's winner names the hooper upgrade card taken from the deck: one button per card.
    assert any(" takes stellar + 2 energy" in label for label in report["reward_choices"])
    assert any("+3 energy" in label for label in report["reward_choices"])
    # The action upgrade cards under the strength marker and the Series track are named too.
    assert any("(under the Series track)" in label for label in report["reward_choices"])
    assert any(text.startswith("Reward phase: ") for text in report["reward_texts"])
    assert report["next_game_prompt"].startswith("Game 2: Lucy at Home")
    assert report["game_2_score"] == "Lucy 0 - 0 Karl"
    # The card just taken is sleeved by a button before game 2 (no next_game typed by hand).
    assert report["sleeve_choices"] and "; planned: " in report["planned_prompt"]
    snapshot = request(table["socket"], {"op": "state"})["snapshot"]
    assert snapshot["view"]["series"]["game"] == 2 and snapshot["view"]["series"]["wins"] in ([1, 0], [0, 1])
    assert any(h["milestone_upgrade"] for side in snapshot["view"]["sides"] for h in side["hoopers"])
    test_kiosk.assert_laid_out(report)
