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


def _items(data: object, steps: list[str], side: JSON | None) -> list[tuple[JSON | None, JSON]]:
    """The objects at a ``/sides/*/players`` path, each with the item ``*`` walked through (its side)."""
    if not steps:
        items = data if isinstance(data, list) else [data]
        return [(side, item) for item in items if isinstance(item, dict)]
    head, rest = steps[0], steps[1:]
    if head == "*":
        return [found for item in (data if isinstance(data, list) else [])
                for found in _items(item, rest, item if isinstance(item, dict) else side)]
    return _items(data.get(head), rest, side) if isinstance(data, dict) else []


def box_score_rows(view: JSON, source: str = "/sides/*/players") -> list[JSON]:
    """One row per item at the game's box-score ``source`` (its front end declares it): the side's
    name, then every plain number or text the view holds for it."""
    rows: list[JSON] = []
    for side, item in _items(view, [s for s in source.split("/") if s], None):
        row: JSON = {"side": (side or {}).get("name", "")}
        row.update({k: v for k, v in item.items() if isinstance(v, str | int | float | bool) or v is None})
        rows.append(row)
    return rows


def export_csv(store: Store, game_id: int) -> str:
    record = store.game(game_id)
    game = find_game(record.game)
    view = game.view(Timeline.replay(game, store.entries(game_id)).state)
    box_score = getattr(game.frontend, "box_score", None)
    rows = box_score_rows(view, box_score.source) if box_score is not None else box_score_rows(view)
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns or ["side"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
