"""The Series' hooper upgrade cards: the milestone upgrades a side earns in reward phases and sleeves on
its hoopers before each game.

"A second Hooper Upgrade Deck composed by all the ten milestone upgrade cards (R)": "R) 10 Milestone
upgrade cards: c) 1 "plus two energies", d) 8 "Stat +10 plus one energy", e) 1 "three energies"" (the
first also gives "the stellar improvement on the first position"). "Winner game marker: the winner of
the game can choose one hooper upgrade from the deck under the marker"; both gameplan milestones give
"one hooper upgrade card". The deck is shared: a card taken is gone for both sides.

Before a game "You can freely upgrade your entire tribe ... shift any previous translucent card
earned", within "When Upgrading...": "Every hooper can gain only one upgrade. A former stellar hooper
cannot be upgraded." ``next_game``'s ``upgrades`` names the hooper each held card goes on; without it
the cards stay on the hoopers they were on, when those play.

>>> deck_left(((STELLAR,), (STAT, STAT)))[STELLAR], deck_left(((STELLAR,), (STAT, STAT)))[STAT]
(0, 6)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers.coach import MILESTONES, milestone_upgrade
from companion.games.valley_hoopers.model import STATS, Decision, State

STELLAR = "stellar_energy"
STAT = "stat_energy"
ENERGY = "energy"
# The deck: how many of each card, the words, and the period milestone whose card it is (same effect).
DECK = {STELLAR: 1, STAT: 8, ENERGY: 1}
PERIOD_OF = {STELLAR: 1, STAT: 2, ENERGY: 3}
WORDS = {card: MILESTONES[period] for card, period in PERIOD_OF.items()}


def deck_left(held: tuple[tuple[str, ...], tuple[str, ...]]) -> dict[str, int]:
    """The cards still in the hooper upgrade deck when the sides hold ``held``."""
    taken = Counter(card for side in held for card in side)
    return {card: count - taken[card] for card, count in DECK.items()}


def check_cards(cards: Any, count: int, held: tuple[tuple[str, ...], tuple[str, ...]],
                who: str) -> tuple[str, ...]:
    """The ``count`` cards a side takes from the deck, refused if the deck has no more of one."""
    if not isinstance(cards, list) or len(cards) != count:
        raise RuleError(f"{who} takes {count} hooper upgrade card{'s' if count > 1 else ''}: name "
                        f"{'them' if count > 1 else 'it'} in cards ({', '.join(DECK)})")
    left = deck_left(held)
    for card in cards:
        if card not in DECK:
            raise CommandError(f"cards: {card!r} is not a hooper upgrade card ({', '.join(DECK)})")
        left[card] -= 1
        if left[card] < 0:
            raise RuleError(f"the hooper upgrade deck has no {WORDS[card]} card left")
    return tuple(cards)


def _one(raw: Any, name: str) -> tuple[str, str | None]:
    if isinstance(raw, str):
        return raw, None
    if isinstance(raw, Mapping) and isinstance(raw.get("card"), str):
        stat = raw.get("stat")
        if stat is not None and stat not in STATS:
            raise CommandError(f"upgrades.{name}.stat must be one of {', '.join(STATS)}")
        return str(raw["card"]), stat
    raise CommandError(f"upgrades.{name} is a card ({', '.join(DECK)}) "
                       f'or {{"card": "{STAT}", "stat": "3PS"}}')


def sleeve(state: State, side: int, assignment: Mapping[str, Any], held: tuple[str, ...]) -> State:
    """The side's held cards sleeved on the hoopers ``assignment`` names (hooper name -> card)."""
    if not isinstance(assignment, Mapping):
        raise CommandError("upgrades maps hooper names to hooper upgrade cards, one side each (or null)")
    wanted: Counter[str] = Counter()
    for name, raw in assignment.items():
        card, stat = _one(raw, str(name))
        if card not in DECK:
            raise CommandError(f"upgrades.{name}: {card!r} is not a hooper upgrade card ({', '.join(DECK)})")
        wanted[card] += 1
        if wanted[card] > held.count(card):
            raise RuleError(f"{state.side(side).name} holds {held.count(card)} {WORDS[card]} card"
                            f"{'s' if held.count(card) != 1 else ''}, not {wanted[card]}")
        if card == STAT and stat is None:
            raise RuleError(f"the {WORDS[card]} card on {name} needs the stat it raises")
        hooper = state.side(side).hooper(str(name))
        decision = Decision(kind="upgrade", side=side, period=PERIOD_OF[card])
        state = milestone_upgrade(state, {"hooper": hooper.name, "stat": stat}, decision)
    return state


def worn(state: State, side: int) -> dict[str, Any]:
    """What the side's hoopers wear now, as ``upgrades`` would name it (for the next game's default)."""
    by_milestone = {words: card for card, words in WORDS.items()}
    out: dict[str, Any] = {}
    for hooper in state.side(side).hoopers:
        card = by_milestone.get(hooper.milestone or "")
        if card == STAT:
            out[hooper.name] = {"card": card, "stat": hooper.stat_bonus[-1][0]}
        elif card is not None:
            out[hooper.name] = card
    return out
