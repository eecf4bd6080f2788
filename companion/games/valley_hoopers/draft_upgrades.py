"""Draft: the drafted upgrade cards applied to the game that follows.

"Create 1 hooper upgrade deck by merging all the milestone upgrades with the hooper upgrades from the
player pack. Create one deck upgrades deck by merging all the 8 action upgrades with the position
upgrade from the player pack." Hooper upgrades are sleeved on the drafted hoopers with
``draft_lineup``'s ``upgrades`` ("Now the players can prepare their team"), within "When Upgrading...":
"Every hooper can gain only one upgrade. A former stellar hooper cannot be upgraded." A star hooper
upgrade ("[star] plus one energy plus second position (PG; SG; SF; PF; C)") makes the hooper stellar
on his first position, adds one energy and gives its position as his second (so it counts for the
line-up); the milestone upgrades work as in The Series (series_upgrades.py). Deck upgrades: the drafted
action upgrade cards are sleeved in the side's deck, the position upgrades counted ("Now upgrade your
deck").

>>> star_position("star hooper upgrade SF"), star_position("+3 energy")
('SF', None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers.model import POSITIONS, State
from companion.games.valley_hoopers.series_upgrades import WORDS, sleeve
from companion.games.valley_hoopers.upgrade_cards import demo_cards

STAR = "star hooper upgrade"
MILESTONE_CARDS = {words: card for card, words in WORDS.items()}  # "+3 energy" -> "energy"
HOOPER_UPGRADES = (WORDS["stellar_energy"], *([WORDS["stat_energy"]] * 8), WORDS["energy"],
                   *(f"{STAR} {p}" for p in POSITIONS))
DECK_UPGRADES = (*(c.name for c in demo_cards().values()),
                 *(f"{p} position upgrade" for p in POSITIONS for _ in range(2)))


def star_position(card: str) -> str | None:
    """The position a star hooper upgrade gives as second position (``None``: not a star upgrade)."""
    words = card.strip()
    if not words.lower().startswith(STAR):
        return None
    position = words[len(STAR):].strip().upper()
    return position if position in POSITIONS else None


def _card_and_stat(raw: Any, name: str) -> tuple[str, str | None]:
    if isinstance(raw, str):
        return raw, None
    if isinstance(raw, Mapping) and isinstance(raw.get("card"), str):
        return raw["card"], raw.get("stat")
    raise CommandError(f"upgrades.{name} is a drafted hooper upgrade card, "
                       'or {"card": ..., "stat": "3PS"}')


def check_sleeves(raw: Any, drafted: tuple[str, ...], cards: list[dict[str, Any]],
                  who: str) -> dict[str, Any]:
    """``upgrades`` (hooper -> drafted card) checked against the side's drafted cards and seven."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise CommandError("upgrades maps hooper names to the drafted hooper upgrade cards sleeved on them")
    names = {c["name"].lower(): c for c in cards}
    spare = Counter(d.lower() for d in drafted)
    for hooper, entry in raw.items():
        card, _ = _card_and_stat(entry, str(hooper))
        if str(hooper).lower() not in names:
            raise RuleError(f"{hooper!r} is not in {who}'s seven")
        spare[card.lower()] -= 1
        if spare[card.lower()] < 0:
            raise RuleError(f"{who} did not draft {card!r} (drafted: {', '.join(drafted) or 'none'})")
        if star_position(card) is None and card not in MILESTONE_CARDS:
            raise RuleError(f"the companion does not know what {card!r} does: sleeve it on the table")
        if star_position(card) is not None and names[str(hooper).lower()].get("stellar") is not False:
            raise RuleError(f"{hooper} can't take a star hooper upgrade: it goes on an un-stellar hooper "
                            "(his stellar mark must be entered)")
    return dict(raw)


def with_star_upgrades(cards: list[dict[str, Any]], sleeves: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The cards with their star hooper upgrades sleeved: stellar first position, +1 energy, a second
    position."""
    out = []
    for card in cards:
        entry = next((v for k, v in sleeves.items() if k.lower() == card["name"].lower()), None)
        position = star_position(_card_and_stat(entry, card["name"])[0]) if entry is not None else None
        if position is not None:
            energy = card.get("energy")
            card = {**card, "upgraded": True, "second_position": position,
                    "energy": energy + 1 if isinstance(energy, int) else energy}
        out.append(card)
    return out


def with_milestone_upgrades(state: State, side: int, sleeves: Mapping[str, Any]) -> State:
    """The game's side with its milestone-type hooper upgrades sleeved (same effects as The Series)."""
    mapping: dict[str, Any] = {}
    for hooper, entry in sleeves.items():
        card, stat = _card_and_stat(entry, str(hooper))
        if card in MILESTONE_CARDS:
            key = MILESTONE_CARDS[card]
            mapping[str(hooper)] = {"card": key, "stat": stat} if key == "stat_energy" else key
    held = tuple(m if isinstance(m, str) else m["card"] for m in mapping.values())
    return sleeve(state, side, mapping, held) if mapping else state


def deck_options(deck: tuple[str, ...]) -> dict[str, list[str]]:
    """The drafted deck upgrades as a side's setup options: action cards sleeved, positions counted."""
    known = demo_cards()
    positions = [d.split()[0].upper() for d in deck
                 if d.lower().endswith("position upgrade") and d.split()[0].upper() in POSITIONS]
    return {"action_upgrades": [known[d.lower()].name for d in deck if d.lower() in known],
            "position_upgrades": positions}


def suggested_sleeves(drafted: tuple[str, ...], cards: list[dict[str, Any]]) -> dict[str, Any]:
    """A ready-made sleeving: each drafted hooper upgrade on its own un-stellar hooper (a stat card on
    the hooper's best entered attack stat); cards the companion does not know stay off."""
    free = [c for c in cards if c.get("stellar") is False and not c.get("upgraded")]
    out: dict[str, Any] = {}
    for card in drafted:
        if star_position(card) is None and card not in MILESTONE_CARDS:
            continue
        hooper = next((c for c in free if c["name"] not in out), None)
        if hooper is None:
            break
        if MILESTONE_CARDS.get(card) == "stat_energy":
            stats = {k: v for k, v in (hooper.get("stats") or {}).items()
                     if k in ("2PS", "3PS", "LUP") and isinstance(v, int)}
            if not stats:
                continue
            out[hooper["name"]] = {"card": card, "stat": max(stats, key=lambda k: stats[k])}
        else:
            out[hooper["name"]] = card
    return out

