"""BasketBoss's sealed bids leak nowhere before the reveal: the same round played with different
secret amounts shows the same snapshot, log, export and OLED frame until the last bid is in."""

from __future__ import annotations

import json
from pathlib import Path

from companion.board import ScoreboardView
from companion.export import export_json
from companion.games.basketboss import GAME
from companion.service import TableService
from companion.store import Store
from hardware.oled_layout import render

# Three managers at strength 10: Blue (the Referee) wins its tie, Yellow and Purple bid.
TO_THE_TIE = [{"type": "market_done"}, {"type": "award"}]


def everything_shown(service: TableService, store: Store) -> list[str]:
    """Every way out of the table: the snapshot, the log op, the export and the OLED frames."""
    snapshot = service.execute({"op": "state"})["snapshot"]
    log = service.execute({"op": "log"})["log"]
    exported = export_json(store, snapshot["game_id"])
    board = ScoreboardView.from_json(snapshot["scoreboard"])
    frames = [render(board, size).tobytes().hex() for size in ((128, 64), (256, 64))]
    # The seq and the store's timestamps differ between runs; everything a person reads must not.
    snapshot = {k: v for k, v in snapshot.items() if k not in ("game_id",)}
    return [json.dumps(snapshot, sort_keys=True), json.dumps(log, sort_keys=True),
            json.dumps([e | {"at": None} for e in json.loads(exported)["log"]], sort_keys=True), *frames]


def play_round(tmp_path: Path, name: str, amounts: tuple[int, int]) -> tuple[list[list[str]], dict]:
    store = Store.open(tmp_path / f"{name}.db")
    service = TableService(store, find_game=lambda _name: GAME)
    assert service.execute({"op": "new_game", "game": "basketboss",
                            "options": {"names": ["Blue", "Yellow", "Purple"], "tallest": 0}})["ok"]
    for command in TO_THE_TIE:
        assert service.execute({"op": "command", "command": command})["ok"]
    shown = [everything_shown(service, store)]
    bid = {"type": "sealed_bid", "side": 1, "amount": amounts[0]}
    first = service.execute({"op": "command", "command": bid})
    assert first["ok"], first
    shown.append(everything_shown(service, store))
    bid = {"type": "sealed_bid", "side": 2, "amount": amounts[1]}
    last = service.execute({"op": "command", "command": bid})
    assert last["ok"], last
    revealed = service.execute({"op": "log"})["log"]
    store.close()
    return shown, {"log": revealed, "snapshot": last["snapshot"]}


def test_no_bid_shows_anywhere_before_every_bid_is_in(tmp_path: Path) -> None:
    low, _ = play_round(tmp_path, "low", (1, 0))
    high, _ = play_round(tmp_path, "high", (7, 0))
    for before_low, before_high in zip(low, high, strict=True):
        for seen_low, seen_high in zip(before_low, before_high, strict=True):
            assert seen_low == seen_high  # nothing a person sees depends on the secret amount
    assert "1 of 2 bids in" in low[1][0]


def test_the_last_bid_reveals_them_all_at_once(tmp_path: Path) -> None:
    _, after = play_round(tmp_path, "reveal", (7, 3))
    bids = [line["command"]["amount"] for line in after["log"] if line["command"] and
            line["command"]["type"] == "sealed_bid"]
    assert bids == [7, 3]
    view = after["snapshot"]["view"]
    assert view["ranking"][:2] == [0, 1] and view["sides"][1]["money"] == 11 - 7
