"""What a Hoop Godz prompt offers, and which of it the rules allow now.

An offer is every candidate command of a phase, in the order the prompt lists them, grouped by the
command whose check decides the whole group: a SHOOT's twelve difficulties and points share the
verdict of their card and baller (the rules only check that difficulty and points are in range,
which every one offered is). A turn's offer depends only on the cards, the names and sizes of the
active player's ballers, the player's name and the BALL faces, a response's on the cards, the
responder's ballers and both names: each is built once per those values and shared by the states
that hold them, choices and odds included (found by the records' identity first,
``companion.frozen.by_identities``, then by the values, since a shot changes the shooter's squad
record but no name or size). A state's choices are the groups whose command
``rules.allowed`` accepts: each command's check, not a resolve; the cards played by ballers share
the verdict of the first with the same kind and cost (all the check reads of them).

>>> from companion.games.hoop_godz.rules import setup
>>> state = setup({"squads": [["Demo Zip", "Demo Swing", "Demo Tower"],
...                           ["Demo Flash", "Demo Arc", "Demo Wall"]]})
>>> [c.label for c in allowed_choices(state, tip_off_offer(state))][:2]
['tip-off: Demo Zip and Demo Flash', 'tip-off: Demo Zip and Demo Arc']
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import lru_cache

from companion.frozen import by_identities
from companion.game import JSON, Choice
from companion.games.hoop_godz.cards import ActionCard
from companion.games.hoop_godz.dice import shot_chance
from companion.games.hoop_godz.model import MAX_DICE, Baller, State
from companion.games.hoop_godz.rules import allowed, responder

# What the group's verdict is shared with (None: nobody), the command judged, then the choices its
# verdict lets through.
Group = tuple[Hashable, JSON, tuple[Choice, ...]]


def allowed_choices(state: State, offer: tuple[Group, ...]) -> tuple[Choice, ...]:
    """The choices of ``offer`` whose group's command the rules accept in ``state``, in order; groups
    with the same key share the first one's verdict."""
    chosen: list[Choice] = []
    verdicts: dict[Hashable, bool] = {}
    for key, command, choices in offer:
        verdict = verdicts.get(key) if key is not None else None
        if verdict is None:
            verdict = verdicts[key] = allowed(state, command)
        if verdict:
            chosen += choices
    return tuple(chosen)


def _one_each(candidates: list[tuple[str, JSON]]) -> tuple[Group, ...]:
    """Each candidate judged on its own."""
    return tuple((None, command, (Choice(label, command),)) for label, command in candidates)


def _card_key(card: ActionCard, size: str) -> tuple[str, bool, int]:
    """What the check of a card of the table played by a baller of the squad reads of them: the card's
    kind and what it costs (``rules.check_play`` and ``check_respond``: whether it is the phase's kind,
    then whether the side pays the cost whole). Plays with the same key share one verdict."""
    return "card", card.active, card.cost(size)


@lru_cache(maxsize=256)  # the same three ballers' SHOOTs are offered turn after turn
def _shot_odds(baller: str, dice: int, ball_faces: int) -> dict[str, tuple[Fraction, Fraction]]:
    """Each SHOOT choice's chance and expected points by its label, for a final roll of ``dice``."""
    odds = {}
    for points in (2, 3):
        for difficulty in range(1, MAX_DICE + 1):
            chance = shot_chance(dice, difficulty, ball_faces)
            odds[f"SHOOT by {baller}: {points} pts, difficulty {difficulty}"] = (chance, chance * points)
    return odds


def _roster(squad: tuple[Baller, ...]) -> tuple[tuple[str, str], ...]:
    """What an offer reads of a squad: each baller's name and size (not the field goals, which change
    the squad's record after every shot)."""
    return tuple((b.name, b.size) for b in squad)


def turn_offer(state: State) -> tuple[Group, ...]:
    """The active player's turn: MOVE, PASS, each ACTIVE card by each baller, GOAT, REST, end turn."""
    active = state.player(state.active)
    return _turn_offer(state.cards, active.squad, active.name, state.ball_faces)


@lru_cache(maxsize=64)
def _count_turn_offer(cards: tuple[ActionCard, ...], roster: tuple[tuple[str, str], ...], name: str,
                      ball_faces: int | None) -> tuple[Group, ...]:
    groups: list[tuple[Hashable, list[tuple[str, JSON]]]] = [
        (None, [(f"{name}: MOVE", {"type": "move"})]), (None, [(f"{name}: PASS", {"type": "pass"})])]
    odds: dict[str, tuple[Fraction, Fraction]] = {}
    for card in cards:
        if not card.active:
            continue
        for baller, size in roster:
            if card.effect == "shoot":
                # A SHOOT's variants: the first one's verdict is the group's.
                groups.append((_card_key(card, size), [
                    (f"SHOOT by {baller}: {points} pts, difficulty {d}",
                     {"type": "play", "card": card.name, "baller": baller, "difficulty": d, "points": points})
                    for points in (2, 3)
                    for d in range(1, MAX_DICE + 1)
                ]))
                if ball_faces is not None:
                    # The chance if nobody responds: the final roll is then the card's own dice.
                    odds.update(_shot_odds(baller, card.dice(size), ball_faces))
            else:
                play = {"type": "play", "card": card.name, "baller": baller}
                groups.append((_card_key(card, size), [(f"{card.name} by {baller}", play)]))
    # Offered when the player holds one: the check refuses it otherwise.
    groups += [(None, [("GOAT card", {"type": "goat", "juice": 0})]), (None, [("REST", {"type": "rest"})]),
               (None, [("end turn", {"type": "end_turn"})])]
    return tuple(
        (key, members[0][1], tuple(Choice(label, command, *odds.get(label, (None, None)))
                                   for label, command in members))
        for key, members in groups)


def _turn_offer_of(cards: tuple[ActionCard, ...], squad: tuple[Baller, ...], name: str,
                   ball_faces: int | None) -> tuple[Group, ...]:
    return _count_turn_offer(cards, _roster(squad), name, ball_faces)


# By the records' identity first (no hashing of the cards), then by the values read.
_turn_offer = by_identities(_turn_offer_of, size=64)


def respond_offer(state: State) -> tuple[Group, ...]:
    """The responder's answers: "no response" first, MOVE, each RESPONSE card by each baller, and
    the active player's BOOST."""
    side = responder(state)
    return _respond_offer(state.cards, state.player(side).squad, state.player(side).name,
                          state.player(state.active).name, state.active)


@lru_cache(maxsize=64)
def _count_respond_offer(cards: tuple[ActionCard, ...], roster: tuple[tuple[str, str], ...], name: str,
                         active_name: str, active: int) -> tuple[Group, ...]:
    # "no response" first: it is the usual answer, and at the end of a list of every response
    # card by every baller it sat below the fold at 800x480.
    responses = tuple(
        (_card_key(card, size), {"type": "respond", "card": card.name, "baller": baller},
         f"{name}: {card.name} by {baller}")
        for card in cards
        if not card.active
        for baller, size in roster
    )
    return (*_one_each([("no response", {"type": "no_response"}), (f"{name}: MOVE", {"type": "move"})]),
            *((key, command, (Choice(label, command),)) for key, command, label in responses),
            *_one_each([(f"{active_name}: BOOST", {"type": "boost", "side": active})]))


def _respond_offer_of(cards: tuple[ActionCard, ...], squad: tuple[Baller, ...], name: str,
                      active_name: str, active: int) -> tuple[Group, ...]:
    return _count_respond_offer(cards, _roster(squad), name, active_name, active)


_respond_offer = by_identities(_respond_offer_of, size=64)


def tip_off_offer(state: State) -> tuple[Group, ...]:
    """Each player's baller next to the ball, every pair (built afresh: once a game, and each command
    holds a list a caller might change)."""
    return _one_each([(f"tip-off: {a.name} and {b.name}", {"type": "tip_off", "nearest": [a.name, b.name]})
                      for a in state.player(0).squad for b in state.player(1).squad])


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
