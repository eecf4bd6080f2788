"""A target number with every term named: stat + bonuses - defense = target.

Part of ``companion.game`` (which re-exports both), kept apart so that a calculator
(``companion calc vh attack``) can build one without importing the engine.

>>> Target("2PS", 60, (Term("screen", 25),)).text
'60 (2PS) + 25 (screen) = 85'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property

TYPE_CHECKING = False  # typing is an import `companion calc` can do without
if TYPE_CHECKING:
    from typing import Any

    JSON = dict[str, Any]


class counted_once(cached_property):  # noqa: N801 - a decorator, named like the one it refines
    """``functools.cached_property`` without its lock (Python 3.12 dropped it too): the value is a pure
    function of a frozen record, so two threads counting it at once get equal values. A prompt builds
    a few dozen targets per command and reads each one's value once; the lock was most of that read.
    Still a ``cached_property``, so ``companion.frozen.replace`` never copies a counted value along."""

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.attrname] = self.func(instance)
        return value


@dataclass(frozen=True)
class Term:
    """One named number in a target: ``Term("dribble", 15)``."""

    label: str
    value: int

    def __repr__(self) -> str:
        return f"{self.label} {self.value:+d}"


@dataclass(frozen=True)
class Target:
    """A target number with its breakdown: stat + bonuses - defense = target.

    >>> t = Target("3PS Muy Schillato", 70, (Term("dribble", 15),), (Term("D3 Edd Trapp", 30),))
    >>> t.value, t.text
    (55, '70 (3PS Muy Schillato) + 15 (dribble) - 30 (D3 Edd Trapp) = 55')
    """

    stat_label: str
    stat: int
    bonuses: tuple[Term, ...] = ()
    defense: tuple[Term, ...] = ()

    @counted_once
    def value(self) -> int:
        # Counted once per target: the odds, the hint, the scoreboard and the JSON all read it.
        return Target.total(self.stat, self.bonuses, self.defense)

    @staticmethod
    def total(stat: int, bonuses: tuple[Term, ...] = (), defense: tuple[Term, ...] = ()) -> int:
        """stat + bonuses - defense: the ``value`` of such a target, for a caller that needs only the
        number (a prompt judging a few dozen cards builds no target for each).

        >>> Target.total(70, (Term("dribble", 15),), (Term("D3", 30),))
        55
        """
        for term in bonuses:  # loops, not sum() over generators: these tuples hold a few terms
            stat += term.value
        for term in defense:
            stat -= term.value
        return stat

    @property
    def text(self) -> str:
        parts = [f"{self.stat} ({self.stat_label})"]
        parts += [f"{'+' if t.value >= 0 else '-'} {abs(t.value)} ({t.label})" for t in self.bonuses]
        parts += [f"{'-' if t.value >= 0 else '+'} {abs(t.value)} ({t.label})" for t in self.defense]
        return " ".join(parts) + f" = {self.value}"

    def to_json(self) -> JSON:
        return {"stat_label": self.stat_label, "stat": self.stat,
                "bonuses": [_term_json(t) for t in self.bonuses],
                "defense": [_term_json(t) for t in self.defense],
                "target": self.value, "text": self.text}


def _term_json(term: Term) -> JSON:
    # What ``asdict`` gives for a plain Term, without its recursive copy (a prompt, the scoreboard
    # and the view each write a target after every command).
    return {"label": term.label, "value": term.value} if type(term) is Term else asdict(term)
