"""Action upgrade cards and position upgrade cards: the translucent cards sleeved on action cards.

"Parts of the Action upgrade card: Condition (star); Former action needed; Improvement." The rulebook
names the eight cards (four per tribe, "for the classic play"), their condition icons ("2 [one-star]
Actions, 6 [exclamation mark] Actions") and one former action ("'From the Elbow' upgrades just a Two
Point Shot action"), but prints neither the other former actions nor any improvement. Those come from
the table: the setup option ``action_upgrade_cards`` (card objects, or the path of a TOML file shaped
like ``rosters/action-upgrades.demo.toml``). Until then the shipped DEMO contents are used and every
term they make says "demo card".

An improvement is read as a bonus on the upgraded action's own target (an attack or a fundamental adds
it, a defense takes it off the attack), shown as its own term; a [star] card improves the action only
when the hooper plays on a stellar position (the star is the rulebook's stellar mark), a [!] card
always. Position upgrades ("enable a second hooper to perform the related actions by adding another
position to the former actions") change no target: the companion does not check a card's printed
position, so they are only counted (a side's kit holds "2 PG; 2 SG; 2 SF; 2 PF; 2 C").

>>> card = demo_cards()["from the elbow"]
>>> card.action, card.condition, improvement(card, "2PS", stellar=False)
('2PS', 'exclamation', From the Elbow, demo card +10)
>>> improvement(demo_cards()["no-look"], "pass", stellar=False) is None
True
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from companion.errors import CommandError, RuleError
from companion.game import Term

ACTIONS = ("2PS", "3PS", "LUP", "dribble", "pass", "screen", "D2", "D3", "DLU")
CONDITIONS = ("star", "exclamation")
DEMO_FILE = Path(__file__).parent / "rosters" / "action-upgrades.demo.toml"
POSITION_KIT = 2  # "10 Position upgrades (2 PG; 2 SG; 2 SF; 2 PF; 2 C)", one kit per player


@dataclass(frozen=True)
class ActionUpgrade:
    """One action upgrade card: its condition, the former action it needs, its improvement."""

    name: str
    tribe: str
    condition: str
    action: str
    bonus: int
    demo: bool = False

    @property
    def label(self) -> str:
        return f"{self.name}, demo card" if self.demo else self.name

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "tribe": self.tribe, "condition": self.condition, "action": self.action,
                "bonus": self.bonus, "demo": self.demo}


def parse_card(raw: Any, where: str) -> ActionUpgrade:
    """A card object: ``{"name", "condition" (star/exclamation), "action", "bonus", "tribe"}``."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str) or not raw["name"].strip():
        raise CommandError(f"{where}: an action upgrade card needs a name")
    condition = raw.get("condition", "exclamation")
    if condition not in CONDITIONS:
        raise CommandError(f"{where}: condition is star or exclamation, not {condition!r}")
    action = raw.get("action")
    if action not in ACTIONS:
        raise CommandError(f"{where}: action (the former action needed) is one of {', '.join(ACTIONS)}")
    bonus = raw.get("bonus")
    if isinstance(bonus, bool) or not isinstance(bonus, int):
        raise CommandError(f"{where}: bonus (the improvement) is a whole number, like 10")
    return ActionUpgrade(name=raw["name"].strip(), tribe=str(raw.get("tribe", "custom")), condition=condition,
                         action=str(action), bonus=bonus, demo=bool(raw.get("demo", False)))


def _from_toml(path: Path) -> list[Any]:
    try:
        return list(tomllib.loads(path.read_text(encoding="utf-8")).get("card", []))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CommandError(f"action_upgrade_cards: cannot read {path}: {exc}") from exc


@cache
def _demo() -> tuple[ActionUpgrade, ...]:
    return tuple(parse_card(raw, DEMO_FILE.name) for raw in _from_toml(DEMO_FILE))


def demo_cards() -> dict[str, ActionUpgrade]:
    """The shipped DEMO contents of the eight printed cards, by lower-case name."""
    return {c.name.lower(): c for c in _demo()}


def catalogue(entered: Any = None) -> dict[str, ActionUpgrade]:
    """The cards the table uses: the demo contents, replaced by the cards the table entered."""
    cards = demo_cards()
    if entered is None:
        return cards
    raws = _from_toml(Path(entered)) if isinstance(entered, str) else entered
    if not isinstance(raws, list):
        raise CommandError("action_upgrade_cards lists card objects, or names a TOML file of [[card]]")
    for index, raw in enumerate(raws):
        card = parse_card({**raw, "demo": False} if isinstance(raw, Mapping) else raw,
                          f"action_upgrade_cards[{index}]")
        cards[card.name.lower()] = card
    return cards


def tribe_cards(tribe: str) -> tuple[str, ...]:
    """The four cards "for the classic play" of a shipped tribe (none for another tribe)."""
    return tuple(c.name for c in _demo() if c.tribe == tribe)


def pick_cards(names: Any, cards: Mapping[str, ActionUpgrade], where: str) -> tuple[ActionUpgrade, ...]:
    """The named cards (names or card objects) from the catalogue."""
    if not isinstance(names, list | tuple):
        raise CommandError(f"{where} lists action upgrade card names")
    out = []
    for entry in names:
        if isinstance(entry, Mapping):
            out.append(parse_card(entry, where))
            continue
        card = cards.get(str(entry).strip().lower())
        if card is None:
            raise CommandError(f"{where}: {entry!r} is not an action upgrade card "
                               f"({', '.join(c.name for c in cards.values())})")
        out.append(card)
    return tuple(out)


def sleeved(cards: tuple[ActionUpgrade, ...], name: str, who: str) -> ActionUpgrade:
    """The card ``name`` in a side's deck this game, refused when it is not sleeved there."""
    for card in cards:
        if card.name.lower() == str(name).strip().lower():
            return card
    held = ", ".join(c.name for c in cards) or "none"
    raise RuleError(f"{who}'s deck has no {name!r} action upgrade sleeved (sleeved: {held})")


def improvement(card: ActionUpgrade, action: str, stellar: bool) -> Term | None:
    """The card's improvement as a labelled term for ``action``, ``None`` when its [star] condition is
    not met; refused on another action ("you must sleeve it onto a card that performs the same action")."""
    if card.action != action:
        raise RuleError(f"{card.name} upgrades a {card.action} action, not a {action}")
    if card.condition == "star" and not stellar:
        return None
    return Term(card.label, card.bonus)
