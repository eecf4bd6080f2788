"""Saved games out of the store: the JSON log (replayable, with the box score) and a CSV box score:
one row per item of the game's declared box score when its source is a plain list of the view
(``/box_score``), else one row per player card. The rows carry every plain value of an item, so a
game's shooting splits come out both as words ("fg": "5-9") and as counts ("fgm", "fga")."""

from __future__ import annotations

import csv
import io
import json

from companion.game import JSON
from companion.games import find_game
from companion.sealed import mask_log
from companion.store import Store
from companion.timeline import Timeline


def export_json(store: Store, game_id: int) -> str:
    """The whole log, replayable, with sealed values the game has not revealed masked, and the box
    score as it stands (the CSV's rows: shooting splits included where the game declares them)."""
    record = store.game(game_id)
    timed = store.timed_entries(game_id)
    game = find_game(record.game)
    entries = [entry for _, _, entry in timed]
    timeline = Timeline.replay(game, entries)
    masked = mask_log(game, entries, timeline.done)
    log = [{"seq": seq, "at": at, **entry} for (seq, at, _), entry in zip(timed, masked, strict=True)]
    return json.dumps({"game": record.game, "id": game_id, "status": record.status,
                       "created_at": record.created_at, "summary": record.summary,
                       "box_score": box_score(game, game.view(timeline.state)), "log": log}, indent=2)


def box_score(game: object, view: JSON) -> list[JSON]:
    """The rows of the game's box score: its declared plain list, else one row per player card."""
    rows = declared_rows(game, view)
    return rows if rows is not None else box_score_rows(view, side_list_key(game))


def _players(side: JSON, key: str | None = None) -> list[JSON]:
    """A side's player cards: the list the game's box score names (``/sides/*/players``), else its
    first list of objects (whatever the game calls it)."""
    if key is not None and isinstance(side.get(key), list):
        return [item for item in side[key] if isinstance(item, dict)]
    for value in side.values():
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            return value
    return []


def box_score_rows(view: JSON, key: str | None = None) -> list[JSON]:
    """One row per player card: side, then every plain number or text the game's view holds for it."""
    rows: list[JSON] = []
    for side in view.get("sides", []):
        for player in _players(side, key):
            row: JSON = {"side": side.get("name", "")}
            row.update({k: v for k, v in player.items()
                        if isinstance(v, str | int | float | bool) or v is None})
            rows.append(row)
    return rows


def declared_rows(game: object, view: JSON) -> list[JSON] | None:
    """The rows of the game's declared box score when its source is one plain list of the view
    (``/possessions``); ``None`` when it walks the sides (those read as player cards).

    >>> from companion.frontend import BoxScore, Frontend
    >>> class G: frontend = Frontend(box_score=BoxScore("/possessions", ()))
    >>> declared_rows(G(), {"possessions": [{"net": 3, "shots": [1]}]})
    [{'net': 3}]
    """
    box = getattr(getattr(game, "frontend", None), "box_score", None)
    if box is None or "*" in box.source or "{" in box.source:
        return None
    items: object = view
    for step in (s for s in box.source.split("/") if s):
        items = items.get(step) if isinstance(items, dict) else None
    if not isinstance(items, list):
        return None
    return [{k: v for k, v in item.items() if isinstance(v, str | int | float | bool) or v is None}
            for item in items if isinstance(item, dict)]


def side_list_key(game: object) -> str | None:
    """The key of each side's player list when the declared box score walks the sides
    (``/sides/*/players`` -> ``players``).

    >>> from companion.frontend import BoxScore, Frontend
    >>> class G: frontend = Frontend(box_score=BoxScore("/sides/*/players", ()))
    >>> side_list_key(G())
    'players'
    """
    box = getattr(getattr(game, "frontend", None), "box_score", None)
    parts = [p for p in (box.source.split("/") if box is not None else []) if p]
    return parts[2] if len(parts) == 3 and parts[:2] == ["sides", "*"] else None


def export_csv(store: Store, game_id: int) -> str:
    record = store.game(game_id)
    game = find_game(record.game)
    rows = box_score(game, game.view(Timeline.replay(game, store.entries(game_id)).state))
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns or ["side"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
