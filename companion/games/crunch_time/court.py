"""An optional court file: the zones, their points, the movement lines and the start zones.

The rulebook describes the board but does not print it, so the app never invents the official
court. A table that enters its court once (a TOML file, format below) gets movement checked and
the solo AI's moves computed; without one, zones are entered per possession. The shipped
``courts/demo.toml`` is an invented court, labelled as such, for the tests and the demo game.

Format::

    name = "Our court"
    [[zones]]
    id = "V1"          # a short label, as the table reads it
    points = 3         # 2 (yellow) or 3 (violet)
    start = true       # one of the 5 start zones (both coaches start there)
    [[lines]]
    between = ["V1", "V2"]   # a movement line joins two zones

>>> court = shipped_court("demo")
>>> court.demo, court.points("V1"), court.distance("V1", "Y2")
(True, 3, 2)
"""

from __future__ import annotations

import functools
import tomllib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CommandError

COURT_DIR = Path(__file__).with_name("courts")
PLAYERS = 5


@dataclass(frozen=True)
class Court:
    name: str
    zones: tuple[tuple[str, int], ...]  # (id, points)
    lines: tuple[tuple[str, str], ...]
    starts: tuple[str, ...]
    demo: bool = False

    def points(self, zone: str) -> int:
        for zone_id, points in self.zones:
            if zone_id == zone:
                return points
        raise CommandError(f"the court has no zone {zone!r}; its zones are {', '.join(self.ids)}")

    # Counted once per court (a court prompt names every zone in each of its hundred candidates).
    @functools.cached_property
    def ids(self) -> tuple[str, ...]:
        return tuple(zone_id for zone_id, _ in self.zones)

    @functools.cached_property
    def _ids_by_upper(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for zone_id in self.ids:
            found.setdefault(zone_id.upper(), zone_id)  # the first, as a scan in order finds it
        return found

    def zone(self, raw: object) -> str:
        """A zone id as the table typed it, checked against the court."""
        if not isinstance(raw, str):
            raise CommandError(f"a zone is named by its id on the court ({', '.join(self.ids)}), not {raw!r}")
        zone_id = self._ids_by_upper.get(raw.strip().upper())
        if zone_id is None:
            raise CommandError(f"the court has no zone {raw!r}; its zones are {', '.join(self.ids)}")
        return zone_id

    def neighbours(self, zone: str) -> set[str]:
        return {b if a == zone else a for a, b in self.lines if zone in (a, b)}

    def distance(self, start: str, end: str) -> int:
        """Spaces along the movement lines (breadth-first, once per court and start zone: a court
        prompt asks it of every move it could offer)."""
        spaces = _spaces_from(self, start).get(end)
        if spaces is None:
            raise CommandError(f"no movement line leads from {start} to {end}")
        return spaces

    def spaces_from(self, start: str) -> dict[str, int]:
        """Every zone the movement lines reach from ``start``, with its distance (``start`` 0)."""
        seen = {start: 0}
        todo = deque([start])
        while todo:
            here = todo.popleft()
            for step in self.neighbours(here):
                if step not in seen:
                    seen[step] = seen[here] + 1
                    todo.append(step)
        return seen

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "demo": self.demo,
                "zones": [{"id": z, "points": p, "start": z in self.starts} for z, p in self.zones],
                "lines": [list(line) for line in self.lines]}


@functools.lru_cache(maxsize=256)
def _spaces_from(court: Court, start: str) -> dict[str, int]:
    return court.spaces_from(start)  # read only: shared by every call with this court and start


def parse_court(data: Mapping[str, Any], where: str = "the court") -> Court:
    """Check a court's data and say exactly what is wrong with it."""
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CommandError(f"{where}: name must be the court's name")
    raw_zones = data.get("zones")
    if not isinstance(raw_zones, list) or not raw_zones:
        raise CommandError(f"{where}: zones must be a list of [[zones]] with id and points")
    zones: list[tuple[str, int]] = []
    starts: list[str] = []
    for n, zone in enumerate(raw_zones, 1):
        if not isinstance(zone, Mapping):
            raise CommandError(f"{where}: zone {n} must be a table with id and points")
        zone_id, points = zone.get("id"), zone.get("points")
        if not isinstance(zone_id, str) or not zone_id.strip() or len(zone_id) > 8:
            raise CommandError(f"{where}: zone {n} needs an id of 1 to 8 characters, not {zone_id!r}")
        if any(zone_id.upper() == z.upper() for z, _ in zones):
            raise CommandError(f"{where}: two zones are called {zone_id!r}")
        if points not in (2, 3) or isinstance(points, bool):
            raise CommandError(f"{where}: zone {zone_id} is worth 2 (yellow) or 3 (violet) points, "
                               f"not {points!r}")
        zones.append((zone_id, int(points)))
        if zone.get("start", False) is True:
            starts.append(zone_id)
    if len(starts) != PLAYERS:
        raise CommandError(f"{where}: mark exactly {PLAYERS} start zones (start = true), not {len(starts)}")
    ids = {z for z, _ in zones}
    lines: list[tuple[str, str]] = []
    for n, line in enumerate(data.get("lines") or [], 1):
        between = line.get("between") if isinstance(line, Mapping) else None
        if not (isinstance(between, list) and len(between) == 2 and all(b in ids for b in between)
                and between[0] != between[1]):
            raise CommandError(f"{where}: line {n} must join two different zones of the court, "
                               f"not {between!r}")
        lines.append((between[0], between[1]))
    court = Court(name.strip(), tuple(zones), tuple(lines), tuple(starts), bool(data.get("demo", False)))
    for zone_id in ids:
        court.distance(starts[0], zone_id)  # every zone must be reachable from the start
    return court


def load_court(path: str | Path) -> Court:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CommandError(f"can't read the court file {path}: {exc.strerror}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CommandError(f"the court file {path} is not valid TOML: {exc}") from exc
    return parse_court(data, str(path))


def shipped_court(name: str) -> Court:
    path = COURT_DIR / f"{name}.toml"
    if not path.exists():
        raise CommandError(f"no shipped court called {name!r}; there is: demo")
    return load_court(path)


def court_option(raw: object) -> Court | None:
    """The ``court`` setup option: a shipped court's name, a file path, or the court's data inline."""
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        return parse_court(raw, "the court option")
    if isinstance(raw, str) and raw.strip():
        text = raw.strip()
        return shipped_court(text) if (COURT_DIR / f"{text}.toml").exists() else load_court(text)
    raise CommandError(f"court is a shipped court's name (demo), a court file's path or the court itself, "
                       f"not {raw!r}")
