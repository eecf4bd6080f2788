"""Kiosk conformance: every game the table service lists renders every screen of the kiosk at every
size the table may have (7" landscape, 1024x600, 1280x720 and a portrait 720x1280) with no layout
problem reported by ``kiosk/layout_check.py``.

Nothing here names a screen's content: the game comes from ``known_games``, its parts from
``game_info``, and it is played by random legal inputs (a choice the prompt offers, or a face of the
awaited die) through the socket until the kiosk has something to show on each screen; one kiosk
window follows a walk from its start through the between screen to the game end.

``make test`` walks every game at one size, the sizes taken in turn so each is walked by some game;
``python -m benchmarks.long_runs`` walks every game at every size (``tests/long_runs.py``).
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kiosk_support import ARTIFACTS, PYTHON, ROOT, kiosk_env, request, run_kiosk, start_service, stop
from long_runs import long_runs
from service_rig import stop_group

from kiosk import present

SIZES = ("800x480", "1024x600", "1280x720", "720x1280")
# Test data for games whose presets leave cards to be typed in (the test table's full cards).
FULL_OPTIONS: dict[str, Callable[[], dict[str, Any]]] = {}


def _full_options() -> dict[str, Callable[[], dict[str, Any]]]:
    if not FULL_OPTIONS:
        from kiosk_support import table_test_options

        FULL_OPTIONS["valley-hoopers"] = table_test_options
    return FULL_OPTIONS


def _known_games() -> list[str]:
    """The games the service lists, asked of the service itself (so a new game joins the suite)."""
    import tempfile

    from companion.service import TableService
    from companion.store import Store

    with tempfile.TemporaryDirectory() as folder:
        service = TableService(Store.open(Path(folder) / "list.db"))
        return [g["name"] for g in service.execute({"op": "known_games"})["known_games"]]


def _options(info: dict[str, Any]) -> dict[str, Any]:
    if info["name"] in _full_options():
        return _full_options()[info["name"]]()
    presets = (info.get("setup_form") or {}).get("presets") or []
    return dict(presets[0]["options"]) if presets else {}


def _play_until(socket: Path, info: dict[str, Any], done: Callable[[dict[str, Any]], bool],
                seed: int, limit: int = 5000) -> dict[str, Any]:
    """Random legal inputs until ``done(snapshot)``: a choice offered, or a face of the awaited die."""
    rng = random.Random(seed)
    snapshot = request(socket, {"op": "state"})["snapshot"]
    for _ in range(limit):
        if done(snapshot):
            return snapshot
        prompt = snapshot["prompt"] or {}
        faces = present.die_faces(prompt, info)
        choices = [c["command"] for c in prompt.get("choices") or []]
        sealed, race = prompt.get("sealed"), prompt.get("race")
        if sealed:  # the next side not yet in enters a secret value within its bounds
            side = next(s for s in sealed["sides"] if s not in sealed["entered"])
            top = sealed["max_by_side"].get(str(side), sealed["min"])
            amount = rng.randint(sealed["min"], top)
            command = {"type": sealed["command"], "side": side, sealed["field"]: amount}
        elif race and (not choices or rng.random() < 0.6):
            order = rng.sample(race["sides"], len(race["sides"]))
            command = {"type": race["command"], "order": order, "tie": False,
                       "presses": [{"side": s, "ms": 100 * i} for i, s in enumerate(order)]}
        elif faces and (not choices or rng.random() < 0.6):
            command = {"type": "roll", "die": prompt["die"], "face": rng.choice(faces)}
        elif choices:
            command = rng.choice(choices)
        else:
            raise AssertionError(f"nothing to play at {prompt.get('text')!r}")
        reply = request(socket, {"op": "command", "command": command})
        if reply["ok"]:
            snapshot = reply["snapshot"]
    raise AssertionError("the game never got there")


def _awaits_input(snapshot: dict[str, Any], info: dict[str, Any]) -> bool:
    """The play screen has its special input to show: a die to roll, sealed values or a race."""
    prompt = snapshot["prompt"] or {}
    return bool(present.die_faces(prompt, info) or prompt.get("sealed") or prompt.get("race"))


def _between_or_over(snapshot: dict[str, Any]) -> bool:
    return bool((snapshot["view"] or {}).get("reminders")) or snapshot["outcome"] is not None


def _walks() -> list[tuple[str, str]]:
    """Every game at every size in the long run; in ``make test``, every game at one size and every
    size with some game (the sizes taken in turn)."""
    games = _known_games()
    if long_runs():
        return [(game, size) for game in games for size in SIZES]
    return [(game, SIZES[i % len(SIZES)]) for i, game in enumerate(games)]


class _Window:
    """One kiosk window for a whole walk (``every_screen`` with phases): it shoots the first phase's
    screens at once and each later one after the test has played the game on through the socket, so
    a walk costs one start of the kiosk, not one per phase."""

    def __init__(self, table: dict[str, Any], game: str, size: str, screens: list[str]) -> None:
        self.table, self.game, self.size = table, game, size
        home = Path(table["env"]["XDG_RUNTIME_DIR"])
        self.marker, self.number, self.expected = home / "walk.marker", 0, {name: name for name in screens}
        self.out, self.err = home / "kiosk.out", home / "kiosk.err"
        argv = [PYTHON, str(ROOT / "tests" / "kiosk_driver.py"), "every_screen", "--socket",
                str(table["socket"]), "--out", str(ARTIFACTS / "conformance" / game / size / "start"),
                "--size", size, "--sim", "--screens", ",".join(screens), "--marker", str(self.marker),
                "--step-timeout", "90"]  # a phase waits while the test plays the game on
        with open(self.out, "w") as out, open(self.err, "w") as err:
            self.kiosk = subprocess.Popen(argv, env=table["env"], stdout=out, stderr=err, cwd=ROOT,
                                          start_new_session=True)

    def _output(self) -> str:
        out, err = self.out.read_text()[-3000:], self.err.read_text()[-5000:]
        return f"kiosk exited {self.kiosk.poll()}\n{out}\n{err}"

    def wait(self) -> None:
        """Until the kiosk has shot the phase it was given (the game must stay put meanwhile)."""
        self.number += 1
        deadline = time.monotonic() + 180
        while not (self.marker.exists() and self.marker.read_text() == str(self.number)):
            assert self.kiosk.poll() is None, self._output()
            assert time.monotonic() < deadline, f"the kiosk never finished phase {self.number - 1}"
            time.sleep(0.05)

    def shoot(self, label: str, screens: list[str], last: bool = False) -> None:
        """The next phase: ``screens`` of the game as the table has it now, into the folder ``label``."""
        seq = request(self.table["socket"], {"op": "state"})["snapshot"]["seq"]
        words = [str(self.number), str(seq), label, ",".join(screens), *(["last"] if last else [])]
        go = self.marker.with_suffix(".go")
        go.with_suffix(".tmp").write_text(" ".join(words))
        go.with_suffix(".tmp").replace(go)  # whole, never half written
        self.expected.update({f"{label}:{name}": name for name in screens})

    def check(self) -> None:
        """The kiosk's report once it has exited: every screen shot, with no layout problem."""
        try:
            self.kiosk.wait(180)
        finally:
            stop_group(self.kiosk, 5)
        reports = [line for line in self.out.read_text().splitlines() if line.startswith("{")]
        assert self.kiosk.returncode == 0 and reports, self._output()
        report = json.loads(reports[-1])
        assert report["ok"], report.get("error")
        assert sorted(report["shots"]) == sorted(self.expected)
        for key, shot in report["shots"].items():
            assert shot["screen"] == self.expected[key]
            assert shot["problems"] == [], f"{self.game}, {key} at {self.size}: {shot['problems']}"
            assert Path(shot["path"]).stat().st_size > 1000


@pytest.mark.parametrize(("game", "size"), _walks())
def test_every_screen_of_every_game_lays_out_at_every_size(game: str, size: str, display: str,
                                                           tmp_path: Path) -> None:
    env = kiosk_env(tmp_path, display)
    socket = tmp_path / "run" / "table.sock"
    service = start_service(socket, tmp_path / "table.db", env)
    window = None
    try:
        table = {"env": env, "socket": socket}
        info = request(socket, {"op": "game_info", "game": game})["info"]
        assert json.loads(json.dumps(info)) == info
        if info["name"] in _full_options():
            # The test table's cards, remembered as the kiosk's own (so Setup and the card editor show them).
            from kiosk_support import write_test_cards

            write_test_cards(env)
        started = request(socket, {"op": "new_game", "game": game, "options": _options(info)})
        assert started["ok"], started
        # Until the play screen has its special input to show; a game without any, a few entries in.
        _play_until(socket, info, lambda s: _awaits_input(s, info)
                    or not info.get("dice") and s.get("seq", 0) >= 3, seed=5)
        first = ["home", "setup", "table", "resolve", "history", "settings"]
        if info.get("card_form"):
            first.insert(2, "card")
        window = _Window(table, game, size, first)
        window.wait()
        _play_until(socket, info, _between_or_over, seed=5)
        if request(socket, {"op": "state"})["snapshot"]["outcome"] is None:
            window.shoot("between", ["between"])
            window.wait()
        _play_until(socket, info, lambda s: s["outcome"] is not None, seed=5)
        window.shoot("end", ["gameend", "table", "history"], last=True)
        window.check()
    finally:
        if window is not None:
            stop_group(window.kiosk, 5)
        stop(service)


def test_sealed_bids_use_a_masked_pad_and_a_race_sends_every_press_time(display: str,
                                                                       tmp_path: Path) -> None:
    """Drawn from the prompt's ``sealed`` and ``race`` alone (a made-up game of three sides)."""
    env = kiosk_env(tmp_path, display)
    socket = tmp_path / "run" / "table.sock"
    service = start_service(socket, tmp_path / "table.db", env)
    try:
        argv = [PYTHON, str(ROOT / "tests" / "kiosk_driver.py"), "sealed_and_race", "--socket", str(socket),
                "--out", str(ARTIFACTS / "conformance" / "inputs"), "--size", "800x480"]
        report = run_kiosk(argv, env)
    finally:
        stop(service)
    assert report["ok"], report.get("error")
    texts = report["sealed_texts"]
    assert "Bo: entered (hidden until all are in)" in texts
    assert "Ann: enter your amount secretly (0 to 30)" in texts and "\u25cf\u25cf" in texts
    assert not any("12" in t and "to 12" not in t for t in texts), "what was typed never shows"
    assert report["sealed_sent"] == [{"type": "bid", "side": 0, "amount": 12}]
    race = report["race_sent"]
    assert (race["type"], race["order"], race["tie"]) == ("battle", [0, 2], True), "Ann holds the breaker"
    assert [p["side"] for p in race["presses"]] == [2, 0] and race["presses"][0]["ms"] == 0
    assert race["presses"][1]["ms"] > 0, "Cy pressed first, then Ann"
    together = report["race_together_sent"]  # two fingers down at once: neither is lost
    assert sorted(p["side"] for p in together["presses"]) == [0, 2], together
    assert (together["order"], together["tie"]) == ([0, 2], True)
    for shot in report["shots"].values():
        assert shot["problems"] == [], shot["problems"]


# make test: the smallest landscape and the portrait window; every size is the long run.
@pytest.mark.parametrize("size", SIZES if long_runs() else ("800x480", "720x1280"))
def test_a_game_of_five_sides_known_only_by_its_json_lays_out_at_every_size(size: str, display: str,
                                                                            tmp_path: Path) -> None:
    """Setup grown to five sides, Table with a column per side, a lookup roll with its outcomes and
    success faces, and a ranking with a shared first place: drawn from game_info and snapshot JSON."""
    env = kiosk_env(tmp_path, display)
    socket = tmp_path / "run" / "table.sock"
    service = start_service(socket, tmp_path / "table.db", env)
    try:
        argv = [PYTHON, str(ROOT / "tests" / "kiosk_driver.py"), "made_up_game", "--socket", str(socket),
            "--out", str(ARTIFACTS / "conformance" / "made-up" / size), "--size", size, "--sim"]
        report = run_kiosk(argv, env)
    finally:
        stop(service)
    assert report["ok"], report.get("error")
    assert report["setup_sides"] == ["Ann", "Bo", "Cy", "Di", "Ed"]
    assert report["setup_options"] == {"rounds": 4, "quick": False, "league": "a", "first": 0,
                                       "sides": [{"name": n, "bank": 10} for n in ("Ann", "Bo", "Cy", "Di",
                                                                                    "Ed")]}
    shown = {"Round: 2 of 4", "cash 14", "purse 14", "Ed Two", "Team fouls 0"} & set(report["table_texts"])
    assert shown == {"Round: 2 of 4", "cash 14", "purse 14", "Ed Two"}, "no fouls for a game keeping none"
    assert "miss: 0 points (50%)" in "\n".join(report["resolve_texts"])
    # The result leads the end screen's first line (the places follow it on the same line).
    assert any(t.startswith("Ed and Di share first place: most points after 4 rounds")
               for t in report["gameend_texts"])
    assert any("1st Ed and Di · 3rd Cy · 4th Bo · 5th Ann" in t for t in report["gameend_texts"])
    assert not any(t.startswith("Score difference") for t in report["gameend_texts"]), "no two-side chart"
    for name, shot in report["shots"].items():
        assert shot["problems"] == [], f"{name} at {size}: {shot['problems']}"
