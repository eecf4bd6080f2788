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
from companion.games.valley_hoopers.model import POSITIONS, STATS, Decision, State
from companion.games.valley_hoopers.upgrade_cards import POSITION_KIT, tribe_cards

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


# --- action upgrade and position upgrade cards (upgrade_cards.py) --------------------------------------
# "Prepare two upgrade decks as follows: A first Action Upgrade Deck (Q): two [star] and six [!]"; two
# are drawn at each game's setup, one under the strength marker and one under the Series track, and
# the reward phase hands them over. Position upgrades come from each player's own kit.


def action_deck_left(held: tuple[tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...]:
    """The action upgrade cards no side holds yet (the eight printed names)."""
    taken = {name.lower() for side in held for name in side}
    return tuple(name for tribe in ("keepers", "unleashed") for name in tribe_cards(tribe)
                 if name.lower() not in taken)


def take_action_card(cards: Any, held: tuple[tuple[str, ...], tuple[str, ...]], who: str) -> str:
    """The one action upgrade card a strength or track item hands over, refused if it is not in the deck."""
    if not isinstance(cards, list) or len(cards) != 1:
        raise RuleError(f"{who} takes one action upgrade card: name it in cards")
    left = {name.lower(): name for name in action_deck_left(held)}
    name = left.get(str(cards[0]).strip().lower())
    if name is None:
        raise RuleError(f"{cards[0]!r} is not in the action upgrade deck (left: {', '.join(left.values())})")
    return name


def kit_left(held: tuple[str, ...]) -> tuple[str, ...]:
    """The positions whose upgrade the side's kit still holds ("2 PG; 2 SG; 2 SF; 2 PF; 2 C")."""
    return tuple(p for p in POSITIONS if held.count(p) < POSITION_KIT)


def take_positions(cards: Any, held: tuple[str, ...], still: int, who: str) -> tuple[str, ...]:
    """Position upgrade cards named from the kit, at most the ``still`` to hand over."""
    if not isinstance(cards, list) or not 1 <= len(cards) <= still:
        raise RuleError(f"{who} takes {still} more position upgrade card{'s' if still != 1 else ''}: "
                        "name one or more positions in cards")
    taken = list(held)
    for position in cards:
        if position not in POSITIONS:
            raise CommandError(f"cards: {position!r} is not a position ({', '.join(POSITIONS)})")
        if taken.count(position) >= POSITION_KIT:
            raise RuleError(f"{who}'s upgrade kit has no {position} position upgrade left")
        taken.append(position)
    return tuple(cards)


def check_deck(raw: Any, held: tuple[str, ...], who: str, what: str) -> list[str]:
    """The cards a side sleeves in its deck for the next game: only cards it holds (``None``: all)."""
    if raw is None:
        return list(held)
    if not isinstance(raw, list):
        raise CommandError(f"{what} lists, per side, the cards to sleeve (or null for all held)")
    spare = Counter(h.lower() for h in held)
    for name in raw:
        spare[str(name).lower()] -= 1
        if spare[str(name).lower()] < 0:
            raise RuleError(f"{who} holds no {name!r} to sleeve ({what}: {', '.join(held) or 'none held'})")
    return [str(n) for n in raw]
