"""The Series between games: what the table prepares for the next game one tap at a time, so that the
kiosk can offer it as ready-made prompt choices (it renders choices and names no game).

"You can freely upgrade your entire tribe and your deck. You can shift any previous translucent card
earned" (``sleeve``: one held hooper upgrade card on one hooper of the next seven; a "Stat +10" card
asks for its stat next), and "the opponent will gain the favors of Susan Peg: she becomes deployable
in his/her seven-hoopers line-up" (``susan_peg``: she takes a benchwarmer's place in the seven; with
``start`` she also starts at that position and its starter goes to the bench). The plan is used by
the next ``next_game`` that does not say otherwise, then cleared.

>>> eligible_names([])
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import RuleError
from companion.games.valley_hoopers.model import STATS, Hooper
from companion.games.valley_hoopers.rosters import shipped_roster
from companion.games.valley_hoopers.series_upgrades import DECK, STAT, STELLAR, WORDS


@dataclass(frozen=True)
class Plan:
    """The next game's preparation: hooper -> card (or ``{"card", "stat"}``) per side, the
    benchwarmer Susan Peg replaces (per side, ``None``: she does not join) and the position she
    starts at (``None``: on the bench)."""

    sleeves: tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]] = ((), ())
    susan: tuple[str | None, str | None] = (None, None)
    susan_start: tuple[str | None, str | None] = (None, None)

    def side_sleeves(self, side: int) -> dict[str, Any]:
        return dict(self.sleeves[side])

    def waiting_stat(self) -> tuple[int, str] | None:
        """The side and hooper whose "Stat +10" card still needs its stat."""
        for side in (0, 1):
            for hooper, card in self.sleeves[side]:
                if isinstance(card, Mapping) and card.get("stat") is None:
                    return side, hooper
        return None


def eligible(hooper: Hooper) -> bool:
    """A hooper who may take a hooper upgrade card next game: no star upgrade, not printed stellar (a
    hooper made stellar by the "plus two energies" card was not printed so)."""
    return not hooper.upgraded and (hooper.stellar is False or hooper.milestone == WORDS[STELLAR])


def eligible_names(hoopers: list[Hooper]) -> list[str]:
    return [h.name for h in hoopers if eligible(h)]


def add_sleeve(plan: Plan, side: int, event: Mapping[str, Any], held: tuple[str, ...],
               seven: list[str]) -> Plan:
    """One held card planned on one hooper of the next seven (``stat`` completes a planned stat card)."""
    hooper = str(event["hooper"])
    if hooper.lower() not in {n.lower() for n in seven}:
        raise RuleError(f"{hooper} is not in the next game's seven")
    sleeves = plan.side_sleeves(side)
    card = event.get("card")
    stat = event.get("stat")
    if card is None:  # the stat of a planned card
        planned = sleeves.get(hooper)
        if not isinstance(planned, Mapping) or stat not in STATS:
            raise RuleError(f"name the stat the card on {hooper} raises ({', '.join(STATS)})")
        sleeves[hooper] = {"card": STAT, "stat": stat}
    else:
        if card not in DECK:
            raise RuleError(f"{card!r} is not a hooper upgrade card ({', '.join(DECK)})")
        if hooper in sleeves:
            raise RuleError(f"{hooper} already has a card planned: every hooper gains only one upgrade")
        planned = Counter(c if isinstance(c, str) else c["card"] for c in sleeves.values())
        if planned[card] >= held.count(card):
            raise RuleError(f"every {WORDS[card]} card held is planned already")
        sleeves[hooper] = {"card": STAT, "stat": stat} if card == STAT else card
    both = list(plan.sleeves)
    both[side] = tuple(sleeves.items())
    return replace(plan, sleeves=(both[0], both[1]))


def merged_sleeves(planned: Mapping[str, Any], worn: Mapping[str, Any],
                   held: tuple[str, ...]) -> dict[str, Any]:
    """The planned cards, then the cards still worn where the plan leaves room (never more than held)."""
    out = dict(planned)
    count = Counter(c if isinstance(c, str) else c["card"] for c in out.values())
    for hooper, card in worn.items():
        key = card if isinstance(card, str) else card["card"]
        if hooper not in out and count[key] < held.count(key):
            out[hooper] = card
            count[key] += 1
    return out


def susan_card(raw_side: Mapping[str, Any]) -> Any:
    """Susan Peg as the side's options name her: by name for a roster side, else her card (from the
    side's ``reserves`` if it holds one, else the shipped card: her skill only, the rest entered later)."""
    if raw_side.get("roster"):
        return "Susan Peg"
    for entry in raw_side.get("reserves") or []:
        if isinstance(entry, Mapping) and str(entry.get("name", "")).lower() == "susan peg":
            return dict(entry)
    card = shipped_roster("susan-peg").hoopers[0]
    return {"name": card.name, "pronoun": card.pronoun, "skill": card.skill}


def with_susan(raw_side: Any, instead_of: str, start: str | None = None) -> Any:
    """The side's options with Susan Peg in the seven instead of the benchwarmer ``instead_of``; with
    ``start``, in the starting five at that position (its starter goes to the bench).

    >>> susan = {"name": "Susan Peg", "first_position": "C", "second_position": "PF"}
    >>> side = {"hoopers": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"], "reserves": [susan],
    ...         "lineup": {"PG": "Ann", "SG": "Bo", "SF": "Cy", "PF": "Di", "C": "Ed"}}
    >>> new = with_susan(side, "Gus", start="C")
    >>> new["hoopers"][-1]["name"], new["lineup"]["C"], "Ed" in new["hoopers"]
    ('Susan Peg', 'Susan Peg', True)
    """
    if not isinstance(raw_side, Mapping):
        return raw_side
    if start is not None:
        lineup = raw_side.get("lineup")
        if not isinstance(lineup, Mapping) or start not in lineup:
            raise RuleError(f"Susan Peg can start at {start} only in a side whose line-up names its {start}")
        card = susan_card(raw_side)
        if isinstance(card, Mapping):  # a roster side's card is checked when the game is set up
            positions = [p for p in (card.get("first_position"), card.get("second_position")) if p]
            if start not in positions:
                shown = "/".join(positions) or "not entered: enter her card among the side's reserves"
                raise RuleError(f"Susan Peg can't start at {start}: a starter's first or second position "
                                f"must match the Position token ({shown})")
        benched = with_susan(raw_side, instead_of)
        return {**benched, "lineup": {**lineup, start: "Susan Peg"}}
    hoopers = list(raw_side.get("hoopers") or [])

    def name(entry: Any) -> str:
        return str(entry if isinstance(entry, str) else entry.get("name", "")).lower()

    if any(name(h) == "susan peg" for h in hoopers):
        return raw_side
    if instead_of.lower() in {str(n).lower() for n in (raw_side.get("lineup") or {}).values()}:
        raise RuleError(f"{instead_of} is in the starting five: Susan Peg takes a benchwarmer's place")
    if instead_of.lower() not in {name(h) for h in hoopers}:
        raise RuleError(f"{instead_of} is not in the seven")
    hoopers = [susan_card(raw_side) if name(h) == instead_of.lower() else h for h in hoopers]
    return {**raw_side, "hoopers": hoopers}
