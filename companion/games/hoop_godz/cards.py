"""Action cards and ballers: the table's own values, with clearly labelled demo sets.

The rulebook names the cards' parts (juice, a size surcharge, three dice icons, a size die, the
end-turn icon) and four cards (REBOUND, CROSSOVER, DUNK, SHOOT), but prints no card's numbers and
no baller. So both are setup options; the shipped sets are DEMO values, invented so a new table
can play at once, never passed off as the printed cards.

>>> card = DEMO_CARDS["SHOOT"]
>>> card.cost("big"), card.dice("big"), card.active
(3, 3, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import CommandError
from companion.games.hoop_godz.model import BATTLE_DICE, SIZES, Baller

EFFECTS = ("dunk", "shoot", "rebound", "crossover", "none")


@dataclass(frozen=True)
class ActionCard:
    name: str
    juice: int
    surcharge: tuple[str, ...] = ()  # baller sizes that pay one more juice
    size_die: tuple[str, ...] = ()  # baller sizes that add one die to the battle
    active: bool = True  # a WHISTLE card (the active player's); False: a RESPONSE
    ends_turn: bool = False
    effect: str = "none"

    def cost(self, size: str) -> int:
        return self.juice + (1 if size in self.surcharge else 0)

    def dice(self, size: str) -> int:
        return BATTLE_DICE + (1 if size in self.size_die else 0)


# DEMO values (invented; enter your own printed cards with the setup option "cards").
DEMO_CARDS = {
    card.name: card
    for card in (
        ActionCard("SHOOT", 2, surcharge=("big",), size_die=("small",), effect="shoot"),
        ActionCard("DUNK", 2, surcharge=("small",), size_die=("big",), ends_turn=True, effect="dunk"),
        ActionCard("DRIVE", 1, size_die=("medium",)),
        ActionCard("POST UP", 1, surcharge=("small",), size_die=("big",)),
        ActionCard("REBOUND", 1, size_die=("big",), active=False, effect="rebound"),
        ActionCard("CROSSOVER", 1, size_die=("small",), active=False, effect="crossover"),
        ActionCard("BLOCK", 1, surcharge=("small",), size_die=("big",), active=False),
        ActionCard("STEAL", 1, size_die=("small", "medium"), active=False, ends_turn=True),
    )
}
DEMO_BALLERS = tuple(
    Baller(name, size)
    for name, size in (
        ("Demo Zip", "small"),
        ("Demo Flash", "small"),
        ("Demo Dash", "small"),
        ("Demo Swing", "medium"),
        ("Demo Arc", "medium"),
        ("Demo Glide", "medium"),
        ("Demo Tower", "big"),
        ("Demo Wall", "big"),
        ("Demo Slab", "big"),
    )
)

# The demo's squads, as if drafted (the Quick start preset): one baller of each size a player.
DEMO_SQUADS = [["Demo Zip", "Demo Swing", "Demo Tower"], ["Demo Flash", "Demo Arc", "Demo Wall"]]


def _sizes(raw: object, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(s, str) and s in SIZES for s in raw):
        raise CommandError(f"{where} is a list of baller sizes ({', '.join(SIZES)}), not {raw!r}")
    return tuple(raw)


def parse_cards(raw: object) -> dict[str, ActionCard]:
    """The ``cards`` setup option: a list of the table's action cards."""
    if raw is None:
        return dict(DEMO_CARDS)
    if not isinstance(raw, list) or not raw:
        raise CommandError("cards is a list of action cards, each with name, juice and type")
    cards: dict[str, ActionCard] = {}
    for n, item in enumerate(raw, 1):
        if not isinstance(item, Mapping):
            raise CommandError(f"card {n} must be an object with name, juice and type")
        name, juice, kind = item.get("name"), item.get("juice"), item.get("type", "active")
        if not isinstance(name, str) or not name.strip():
            raise CommandError(f"card {n} needs a name")
        label = name.strip().upper()
        if label in cards:
            raise CommandError(f"two cards are called {label}")
        if isinstance(juice, bool) or not isinstance(juice, int) or not 0 <= juice <= 10:
            raise CommandError(f"card {label}: juice is 0 to 10, not {juice!r}")
        if kind not in ("active", "response"):
            raise CommandError(f"card {label}: type is active (whistle) or response, not {kind!r}")
        effect = item.get("effect", "none")
        if effect not in EFFECTS:
            raise CommandError(f"card {label}: effect is one of {', '.join(EFFECTS)}, not {effect!r}")
        cards[label] = ActionCard(
            label,
            juice,
            _sizes(item.get("surcharge"), f"card {label}: surcharge"),
            _sizes(item.get("size_die"), f"card {label}: size_die"),
            kind == "active",
            bool(item.get("ends_turn", False)),
            effect,
        )
    if "REBOUND" not in cards:
        raise CommandError("the cards must include REBOUND: the tip-off and missed shots are REBOUND battles")
    return cards


def parse_ballers(raw: object) -> tuple[Baller, ...]:
    """The ``ballers`` setup option: the nine ballers dealt face up for the draft."""
    if raw is None:
        return DEMO_BALLERS
    if not isinstance(raw, list) or len(raw) != 9:
        raise CommandError(
            "ballers is the list of the nine ballers dealt for the draft, each with name and size"
        )
    ballers: list[Baller] = []
    for n, item in enumerate(raw, 1):
        name = item.get("name") if isinstance(item, Mapping) else None
        size = item.get("size") if isinstance(item, Mapping) else None
        if not isinstance(name, str) or not name.strip():
            raise CommandError(f"baller {n} needs a name")
        if size not in SIZES:
            raise CommandError(f"baller {name}: size is {', '.join(SIZES)}, not {size!r}")
        if any(b.name.lower() == name.strip().lower() for b in ballers):
            raise CommandError(f"two ballers are called {name.strip()}")
        ballers.append(Baller(name.strip(), size))
    return tuple(ballers)


def card_json(card: ActionCard) -> dict[str, Any]:
    return {
        "name": card.name,
        "juice": card.juice,
        "surcharge": list(card.surcharge),
        "size_die": list(card.size_die),
        "type": "active" if card.active else "response",
        "ends_turn": card.ends_turn,
        "effect": card.effect,
    }
