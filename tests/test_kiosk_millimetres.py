"""Sizes in millimetres on every supported screen: the real kiosk under Xvfb at each screen's size
and density (``kiosk.density``), every screen of a game in play measured widget by widget: no touch
target under 9 mm, no text under 2.5 mm, nothing clipped, overlapping or outside; the Table shows
every starter of both sides without scrolling (side by side, or stacked on the upright screen).
Writes the figures to ``tests/artifacts/kiosk/mm``."""

from __future__ import annotations

import json

import pytest
from kiosk_support import ARTIFACTS, PYTHON, ROOT, run_kiosk
from test_kiosk_play import _to_the_scoring_roll, table  # noqa: F401 - the fixture

from kiosk.density import MIN_TEXT_MM, MIN_TOUCH_MM, SCREENS


@pytest.mark.parametrize("size", [f"{w}x{h}" for w, h in SCREENS])
def test_every_screen_in_millimetres_at_each_supported_size(table: dict, size: str) -> None:  # noqa: F811
    _to_the_scoring_roll(table["socket"])
    out = ARTIFACTS / "mm" / size
    argv = [PYTHON, str(ROOT / "tests" / "kiosk_play_driver.py"), "measure", "--socket", str(table["socket"]),
            "--out", str(out), "--size", size]
    report = run_kiosk(argv, table["env"], timeout=300)
    assert report["ok"], report.get("error")
    width, height = (int(v) for v in size.split("x"))
    figures = {name: shot["mm"] for name, shot in report["shots"].items()}
    (out / "mm.json").write_text(json.dumps(figures, indent=2))
    for name, shot in report["shots"].items():
        mm = shot["mm"]
        assert mm["px_per_mm"] == round(SCREENS[(width, height)][1], 2), name
        assert shot["problems"] == [], f"{size} {name}: {shot['problems']}"
        assert min(mm["touch_mm"][:2]) >= MIN_TOUCH_MM - 0.3, f"{size} {name}: {mm['touch_mm']}"
        assert mm["text_mm"][0] >= MIN_TEXT_MM, f"{size} {name}: {mm['text_mm']}"
    starters = report["starters"]
    assert len(starters["wanted"]) == 10
    # Side by side, or stacked upright: every starter of both sides without scrolling.
    assert starters["in_view"] == starters["wanted"], (size, starters)
