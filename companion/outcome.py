"""How a game ended: a ranking of the sides, co-winners allowed, and the reason in plain words.

>>> Outcome.ranked([[2], [0, 1]], "Cyd has the most money").to_json()
{'winner': 2, 'places': [[2], [0, 1]], 'reason': 'Cyd has the most money'}
>>> Outcome(None, "tied 80-80", places=((0, 1),)).winner is None
True
>>> Outcome(1, "91-88").places
((1,), (0,))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """``places[0]`` holds the side(s) in first place; ``winner`` is that side when it is alone.

    Built from a winner alone (two-side games), ``places`` is the winner then the other side. A
    game with more sides, co-winners or a draw says the whole ranking with ``Outcome.ranked``.
    """

    winner: int | None
    reason: str
    places: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if not self.places and self.winner is not None:
            object.__setattr__(self, "places", ((self.winner,), (1 - self.winner,)) if self.winner in (0, 1)
                               else ((self.winner,),))

    @classmethod
    def ranked(cls, places: Iterable[Iterable[int]], reason: str) -> Outcome:
        ranked = tuple(tuple(p) for p in places)
        first = ranked[0] if ranked else ()
        return cls(first[0] if len(first) == 1 else None, reason, ranked)

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "places": [list(p) for p in self.places], "reason": self.reason}
