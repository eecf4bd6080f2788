"""What a Hoop Godz prompt offers, and which of it the rules allow now.

An offer is every candidate command of a phase, in the order the prompt lists them, grouped by the
command whose check decides the whole group: a SHOOT's twelve difficulties and points share the
verdict of their card and baller (the rules only check that difficulty and points are in range,
which every one offered is). A turn's offer depends only on the cards, the active player's squad
and name and the BALL faces, a response's on the cards, the responder's squad and both names: each
is built once per those records (by identity, ``companion.frozen.by_identities``) and shared by the
states that hold them, choices and odds included. A state's choices are the groups whose command
``rules.allowed`` accepts: each command's check, not a resolve.

>>> from companion.games.hoop_godz.rules import setup
>>> state = setup({"squads": [["Demo Zip", "Demo Swing", "Demo Tower"],
...                           ["Demo Flash", "Demo Arc", "Demo Wall"]]})
>>> [c.label for c in allowed_choices(state, tip_off_offer(state))][:2]
['tip-off: Demo Zip and Demo Flash', 'tip-off: Demo Zip and Demo Arc']
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from companion.frozen import by_identities
from companion.game import JSON, Choice
from companion.games.hoop_godz.cards import ActionCard
from companion.games.hoop_godz.dice import shot_chance
from companion.games.hoop_godz.model import MAX_DICE, Baller, State
from companion.games.hoop_godz.rules import allowed, responder

# The command judged, then the choices its verdict lets through.
Group = tuple[JSON, tuple[Choice, ...]]


def allowed_choices(state: State, offer: tuple[Group, ...]) -> tuple[Choice, ...]:
    """The choices of ``offer`` whose group's command the rules accept in ``state``, in order."""
    chosen: list[Choice] = []
    for command, choices in offer:
        if allowed(state, command):
            chosen += choices
    return tuple(chosen)


def _one_each(candidates: list[tuple[str, JSON]],
              odds: dict[str, tuple[Fraction, Fraction]] | None = None) -> tuple[Group, ...]:
    """Each candidate judged on its own, with its odds when ``odds`` has its label."""
    return tuple((command, (Choice(label, command, *(odds or {}).get(label, (None, None))),))
                 for label, command in candidates)


@lru_cache(maxsize=256)  # the same three ballers' SHOOTs are offered turn after turn
def _shot_odds(baller: str, dice: int, ball_faces: int) -> dict[str, tuple[Fraction, Fraction]]:
    """Each SHOOT choice's chance and expected points by its label, for a final roll of ``dice``."""
    odds = {}
    for points in (2, 3):
        for difficulty in range(1, MAX_DICE + 1):
            chance = shot_chance(dice, difficulty, ball_faces)
            odds[f"SHOOT by {baller}: {points} pts, difficulty {difficulty}"] = (chance, chance * points)
    return odds


def turn_offer(state: State) -> tuple[Group, ...]:
    """The active player's turn: MOVE, PASS, each ACTIVE card by each baller, GOAT, REST, end turn."""
    active = state.player(state.active)
    return _turn_offer(state.cards, active.squad, active.name, state.ball_faces)


def _count_turn_offer(cards: tuple[ActionCard, ...], squad: tuple[Baller, ...], name: str,
                      ball_faces: int | None) -> tuple[Group, ...]:
    groups: list[tuple[str, JSON] | list[tuple[str, JSON]]] = [
        (f"{name}: MOVE", {"type": "move"}), (f"{name}: PASS", {"type": "pass"})]
    odds: dict[str, tuple[Fraction, Fraction]] = {}
    for card in cards:
        if not card.active:
            continue
        for b in squad:
            if card.effect == "shoot":
                groups.append([
                    (f"SHOOT by {b.name}: {points} pts, difficulty {d}",
                     {"type": "play", "card": card.name, "baller": b.name, "difficulty": d, "points": points})
                    for points in (2, 3)
                    for d in range(1, MAX_DICE + 1)
                ])
                if ball_faces is not None:
                    # The chance if nobody responds: the final roll is then the card's own dice.
                    odds.update(_shot_odds(b.name, card.dice(b.size), ball_faces))
            else:
                groups.append((f"{card.name} by {b.name}",
                               {"type": "play", "card": card.name, "baller": b.name}))
    # Offered when the player holds one: the check refuses it otherwise.
    groups += [("GOAT card", {"type": "goat", "juice": 0}), ("REST", {"type": "rest"}),
               ("end turn", {"type": "end_turn"})]
    offer: list[Group] = []
    for group in groups:
        # A SHOOT's variants: the first one's verdict is the group's.
        members = group if isinstance(group, list) else [group]
        offer.append((members[0][1], tuple(
            Choice(label, command, *odds.get(label, (None, None))) for label, command in members)))
    return tuple(offer)


_turn_offer = by_identities(_count_turn_offer, size=64)


def respond_offer(state: State) -> tuple[Group, ...]:
    """The responder's answers: "no response" first, MOVE, each RESPONSE card by each baller, and
    the active player's BOOST."""
    side = responder(state)
    return _respond_offer(state.cards, state.player(side).squad, state.player(side).name,
                          state.player(state.active).name, state.active)


def _count_respond_offer(cards: tuple[ActionCard, ...], squad: tuple[Baller, ...], name: str,
                         active_name: str, active: int) -> tuple[Group, ...]:
    # "no response" first: it is the usual answer, and at the end of a list of every response
    # card by every baller it sat below the fold at 800x480.
    candidates: list[tuple[str, JSON]] = [("no response", {"type": "no_response"}),
                                          (f"{name}: MOVE", {"type": "move"})]
    candidates += [
        (f"{name}: {card.name} by {b.name}", {"type": "respond", "card": card.name, "baller": b.name})
        for card in cards
        if not card.active
        for b in squad
    ]
    candidates.append((f"{active_name}: BOOST", {"type": "boost", "side": active}))
    return _one_each(candidates)


_respond_offer = by_identities(_count_respond_offer, size=64)


def tip_off_offer(state: State) -> tuple[Group, ...]:
    """Each player's baller next to the ball, every pair."""
    return _tip_off_offer(state.player(0).squad, state.player(1).squad)


def _count_tip_off_offer(home: tuple[Baller, ...], away: tuple[Baller, ...]) -> tuple[Group, ...]:
    return _one_each([(f"tip-off: {a.name} and {b.name}", {"type": "tip_off", "nearest": [a.name, b.name]})
                      for a in home for b in away])


_tip_off_offer = by_identities(_count_tip_off_offer, size=16)


def battle_offer(state: State) -> tuple[Group, ...]:
    """Who matched first, a tie, and each side's BOOST."""
    names = state.names
    found: list[tuple[str, JSON]] = [
        (f"{names[side]} matched first", {"type": "battle", "winner": side}) for side in (0, 1)
    ]
    holder = "nobody holds the TIE BREAKER: roll again" if state.tie_breaker is None else \
        f"{names[state.tie_breaker]} holds the TIE BREAKER"
    found.append((f"tie: {holder}", {"type": "battle", "tie": True}))
    for side in (0, 1):
        found.append((f"{names[side]}: BOOST", {"type": "boost", "side": side}))
    return _one_each(found)
