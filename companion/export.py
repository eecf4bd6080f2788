"""Saved games out of the store: the JSON log (replayable) and a CSV box score per player card."""

from __future__ import annotations

import csv
import io
import json

from companion.game import JSON
from companion.games import find_game
from companion.store import Store
from companion.timeline import Timeline


def export_json(store: Store, game_id: int) -> str:
    record = store.game(game_id)
    log = [{"seq": seq, "at": at, **entry} for seq, at, entry in store.timed_entries(game_id)]
    return json.dumps({"game": record.game, "id": game_id, "status": record.status,
                       "created_at": record.created_at, "summary": record.summary, "log": log}, indent=2)


def box_score_rows(view: JSON) -> list[JSON]:
    """One row per player card: side, then every plain number or text the game's view holds for it."""
    rows: list[JSON] = []
    for side in view.get("sides", []):
        for player in side.get("hoopers", side.get("players", [])):
            row: JSON = {"side": side.get("name", "")}
            row.update({k: v for k, v in player.items()
                        if isinstance(v, str | int | float | bool) or v is None})
            rows.append(row)
    return rows


def export_csv(store: Store, game_id: int) -> str:
    record = store.game(game_id)
    game = find_game(record.game)
    view = game.view(Timeline.replay(game, store.entries(game_id)).state)
    rows = box_score_rows(view)
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns or ["side"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
