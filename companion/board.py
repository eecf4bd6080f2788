"""The scoreboard view: what an OLED, the LEDs and the buzzer show, the same shape for every game.

It describes *what* a game shows (2 to 5 sides, a score per side or one signed lead, optional
fouls and bonus, a few short counters, whether a period just ended), never how: the layouts in
``hardware/`` draw any such view.

>>> v = ScoreboardView("g", (SideView("A", 3, counters=(Counter("TO", 2),)), SideView("B", 1)), "P1", "")
>>> v.to_json()["sides"][0]["counters"], v.to_json()["sides"][1]["fouls"]
([{'label': 'TO', 'value': 2}], None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Counter:
    """One short declared number of a side: ``Counter("TO", 2)`` reads "TO 2"."""

    label: str
    value: int | str

    def to_json(self) -> JSON:
        return {"label": self.label, "value": self.value}


@dataclass(frozen=True)
class SideView:
    """One side: ``score`` is ``None`` for a game that keeps one signed lead; ``team_fouls`` and
    ``bonus`` are ``None`` for games without fouls."""

    name: str
    score: int | None = None
    team_fouls: int | None = None
    bonus: bool | None = None
    counters: tuple[Counter, ...] = ()
    active: bool = False

    @property
    def fouls(self) -> int | None:
        return self.team_fouls

    def to_json(self) -> JSON:
        return {"name": self.name, "score": self.score, "fouls": self.team_fouls,
                "team_fouls": self.team_fouls,  # alias kept for readers of the older shape
                "bonus": self.bonus, "counters": [c.to_json() for c in self.counters],
                "active": self.active}


@dataclass(frozen=True)
class Lead:
    """One signed score (Crunch Time): ``side`` leads by ``value``; ``side=None`` when tied."""

    side: int | None
    value: int

    def to_json(self) -> JSON:
        return {"side": self.side, "value": self.value}


@dataclass(frozen=True)
class ScoreboardView:
    """The few fields a 128x64 OLED shows.

    ``target`` is the awaited roll's number and ``target_text`` the success rule's short words
    (``<=55``, ``>=12``, ``chart``); ``period_over`` is true in the state right after a period
    ends (the buzzer sounds on it); ``lead`` replaces per-side scores in one-lead games.
    ``saving`` marks a result shown while its entry is still being written (the table's OLEDs mark it
    if the write is slow); it is never in the JSON: every snapshot a client reads is of a recorded state.
    """

    game: str
    sides: tuple[SideView, ...]
    period: str
    clock: str
    possession: int | None = None
    target: int | None = None
    message: str = ""
    lead: Lead | None = None
    final: bool = False
    title: str = ""
    target_text: str = ""
    period_over: bool = False
    saving: bool = False

    def to_json(self) -> JSON:
        return {"game": self.game, "title": self.title or self.game,
                "sides": [s.to_json() for s in self.sides], "period": self.period, "clock": self.clock,
                "possession": self.possession, "target": self.target, "target_text": self.target_text,
                "message": self.message, "lead": None if self.lead is None else self.lead.to_json(),
                "period_over": self.period_over, "final": self.final}

    @classmethod
    def from_json(cls, data: JSON) -> ScoreboardView:
        """The view back from its JSON (the OLED of a remote table, tests)."""
        lead = data.get("lead")
        return cls(
            game=data["game"], title=data.get("title", ""),
            sides=tuple(SideView(s["name"], s.get("score"), s.get("fouls", s.get("team_fouls")),
                                 s.get("bonus"),
                                 tuple(Counter(c["label"], c["value"]) for c in s.get("counters", ())),
                                 bool(s.get("active"))) for s in data["sides"]),
            period=data["period"], clock=data["clock"], possession=data.get("possession"),
            target=data.get("target"), target_text=data.get("target_text", ""),
            message=data.get("message", ""),
            lead=None if lead is None else Lead(lead["side"], lead["value"]),
            period_over=bool(data.get("period_over")), final=bool(data.get("final")))
