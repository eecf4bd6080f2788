"""Draft (setup option ``"variant": "draft"``): the sides draft their seven hoopers, three hooper upgrades
and eight deck upgrades each, set their line-ups, then play a Classic game without milestones.

"Choose randomly a first player who will start the draft by selecting one hooper, then the opponent
will select two hoopers, then the first player takes two hoopers, and so on until the first player
has completed a team of seven hoopers, then the second player has his last choice." "The player who
ended the hoopers draft now begins by selecting just one upgrade, then the opponent chooses two
upgrades, then the first player select two upgrades and, to conclude, the opponent chooses his last
card." Deck upgrades: "Shuffle the 18 deck upgrades translucent cards and divide them in two decks of
9. Place the first 9 cards on the table and proceed as before by changing the starting player, the
last card remaining will be discarded. Repeat the process with the second deck." "You will not use
the milestones during the game. NOTE: If you have an unequal number of stellar hooper, then the
second player starts the hooper's draft by discarding one hooper."

>>> [len(ORDER[stage]) for stage in ("hoopers", "upgrades", "deck_1", "deck_2")]
[14, 6, 8, 8]
>>> "".join("FS"[s] for s in ORDER["hoopers"])
'FSSFFSSFFSSFFS'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import CommandError, RuleError
from companion.game import Choice, Outcome, Prompt, ScoreboardView, SideView
from companion.games.valley_hoopers import setup_options
from companion.games.valley_hoopers.draft_upgrades import (
    DECK_UPGRADES,
    HOOPER_UPGRADES,
    check_sleeves,
    deck_options,
    suggested_sleeves,
    with_milestone_upgrades,
    with_star_upgrades,
)
from companion.games.valley_hoopers.model import POSITIONS, State
from companion.games.valley_hoopers.rosters import parse_hooper, shipped_roster

FIRST, SECOND = 0, 1
# Whose pick it is, pick by pick, from the first player's (F = 0) and the second's (S = 1) view.
ORDER = {
    "hoopers": (0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1),
    "upgrades": (1, 0, 0, 1, 1, 0),
    "deck_1": (0, 1, 1, 0, 0, 1, 1, 0),
    "deck_2": (1, 0, 0, 1, 1, 0, 0, 1),
}
STAGES = ("discard", "hoopers", "upgrades", "deck_1", "deck_2", "lineup")
STAGE_WORDS = {"discard": "discards a hooper (unequal stellar hoopers)", "hoopers": "drafts a hooper",
               "upgrades": "drafts a hooper upgrade", "deck_1": "drafts a deck upgrade (first pile)",
               "deck_2": "drafts a deck upgrade (second pile)"}


def _card(entry: Any) -> dict[str, Any]:
    """A pool entry as a card object: a card as given, or a shipped hooper by name."""
    if isinstance(entry, Mapping):
        parse_hooper(entry)
        return dict(entry)
    if not isinstance(entry, str):
        raise CommandError(f"pool: each hooper is a card object or a shipped hooper's name, not {entry!r}")
    for roster in ("keepers", "unleashed", "susan-peg"):
        found = [h for h in shipped_roster(roster).hoopers if h.name.lower() == entry.strip().lower()]
        if found:
            return setup_options._merge(found[0], {})  # noqa: SLF001 - the setup's own card-to-options
    raise CommandError(f"pool: no shipped hooper called {entry!r}")


def default_pool() -> list[str]:
    """"A deck composed by 21 hooper cards": both shipped tribes and Susan Peg."""
    return [h.name for r in ("keepers", "unleashed", "susan-peg") for h in shipped_roster(r).hoopers]


@dataclass(frozen=True)
class DraftState:
    """The draft table: what is left to pick, what each side has, whose pick it is."""

    names: tuple[str, str]
    tribes: tuple[str, str]
    first_picker: int
    first_attacker: int
    foul_die_blanks: int
    pool: tuple[Any, ...]
    upgrade_pool: tuple[str, ...]
    piles: tuple[tuple[str, ...], tuple[str, ...]]
    stage: str
    pick: int = 0
    hoopers: tuple[tuple[Any, ...], tuple[Any, ...]] = ((), ())
    upgrades: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    deck: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    discarded: tuple[str, ...] = ()
    lineups: tuple[Any, Any] = (None, None)
    sleeves: tuple[Any, Any] = ({}, {})  # hooper -> drafted hooper upgrade card, per side
    message: str = ""

    def picker(self) -> int | None:
        """The side whose pick it is (``None`` while the line-ups are set)."""
        if self.stage == "discard":
            return 1 - self.first_picker
        if self.stage == "lineup":
            return None
        own = ORDER[self.stage][self.pick]
        return self.first_picker if own == FIRST else 1 - self.first_picker

    def offered(self) -> tuple[str, ...]:
        """The names on the table now (repeats once each, in order)."""
        if self.stage in ("discard", "hoopers"):
            names = [str(_card(e)["name"]) for e in self.pool]
        elif self.stage == "upgrades":
            names = list(self.upgrade_pool)
        elif self.stage in ("deck_1", "deck_2"):
            names = list(self.piles[0 if self.stage == "deck_1" else 1])
        else:
            names = []
        return tuple(dict.fromkeys(names))


def setup_draft(options: Mapping[str, Any]) -> DraftState:
    """The draft from setup options (docs/commands.md, Draft)."""
    sides = options.get("sides")
    if not isinstance(sides, list | tuple) or len(sides) != 2 or not all(isinstance(s, Mapping) for s in sides):  # noqa: E501
        raise CommandError("sides must list two sides, each with a name (and optionally a tribe)")
    names = tuple(str(s.get("name", "")).strip() for s in sides)
    if not all(names) or names[0].lower() == names[1].lower():
        raise CommandError("the two sides need names, and different ones")
    first = options.get("first_picker", 0)
    if first not in (0, 1) or isinstance(first, bool):
        raise CommandError(f"first_picker must be 0 or 1 (drawn at random), not {first!r}")
    pool = tuple(options.get("pool") or default_pool())
    cards = [_card(e) for e in pool]
    if len({c["name"].lower() for c in cards}) != len(cards) or len(cards) < 14:
        raise CommandError("pool must hold at least 14 different hoopers")
    deck = list(options.get("deck_upgrades") or DECK_UPGRADES)
    if len(deck) != 18 or not all(isinstance(d, str) for d in deck):
        raise CommandError("deck_upgrades lists the 18 deck upgrade cards (names), shuffled")
    upgrade_pool = tuple(options.get("hooper_upgrades") or HOOPER_UPGRADES)
    if len(upgrade_pool) < 6:
        raise CommandError("hooper_upgrades lists at least six hooper upgrade cards")
    stellar = sum(1 for c in cards if c.get("stellar") is True)
    state = DraftState(
        names=(names[0], names[1]),
        tribes=(str(sides[0].get("tribe", "custom")), str(sides[1].get("tribe", "custom"))),
        first_picker=first, first_attacker=int(options.get("first_attacker", first)),
        foul_die_blanks=int(options.get("foul_die_blanks", 3)), pool=pool, upgrade_pool=upgrade_pool,
        piles=(tuple(deck[:9]), tuple(deck[9:])),
        stage="discard" if stellar % 2 else "hoopers")
    return replace(state, message=f"{names[state.picker() or 0]} {STAGE_WORDS[state.stage]}")


def _advance(state: DraftState) -> DraftState:
    if state.stage == "discard":
        return replace(state, stage="hoopers", pick=0)
    if state.pick + 1 < len(ORDER[state.stage]):
        return replace(state, pick=state.pick + 1)
    stage = STAGES[STAGES.index(state.stage) + 1]
    if stage == "deck_2":  # the first pile's last card is discarded
        state = replace(state, discarded=(*state.discarded, *state.piles[0]), piles=((), state.piles[1]))
    if stage == "lineup":
        state = replace(state, discarded=(*state.discarded, *state.piles[1]), piles=((), ()))
    return replace(state, stage=stage, pick=0)


def _take(items: tuple[Any, ...], name: str, key: Any = None) -> tuple[Any, tuple[Any, ...]]:
    key = key or (lambda e: e)
    for index, item in enumerate(items):
        if str(key(item)).lower() == name.strip().lower():
            return item, items[:index] + items[index + 1:]
    raise RuleError(f"{name!r} is not on the draft table")


def _with(pair: tuple[tuple[Any, ...], tuple[Any, ...]], side: int, item: Any) -> tuple[Any, Any]:
    return ((*pair[0], item), pair[1]) if side == 0 else (pair[0], (*pair[1], item))


def pick(state: DraftState, event: Mapping[str, Any]) -> DraftState | State:
    """One pick (or the discard) by the side whose turn it is; the last line-up starts the game."""
    if event["type"] == "draft_lineup":
        return _lineup(state, event)
    side = state.picker()
    if side is None:
        raise RuleError("the draft is over: each side sets its line-up (draft_lineup)")
    name = str(event["card"])
    who = state.names[side]
    if state.stage in ("discard", "hoopers"):
        card, rest = _take(state.pool, name, key=lambda e: _card(e)["name"])
        if state.stage == "discard":
            state = replace(state, pool=rest, discarded=(*state.discarded, _card(card)["name"]))
        else:
            state = replace(state, pool=rest, hoopers=_with(state.hoopers, side, card))
    elif state.stage == "upgrades":
        card, rest = _take(state.upgrade_pool, name)
        state = replace(state, upgrade_pool=rest, upgrades=_with(state.upgrades, side, card))
    else:
        pile = 0 if state.stage == "deck_1" else 1
        card, rest = _take(state.piles[pile], name)
        piles = (rest, state.piles[1]) if pile == 0 else (state.piles[0], rest)
        state = replace(state, piles=piles, deck=_with(state.deck, side, card))
    done = f"{who} {'discards' if state.stage == 'discard' else 'takes'} {name}"
    state = _advance(state)
    nxt = state.picker()
    after = "; set the line-ups" if nxt is None else f"; {state.names[nxt]} {STAGE_WORDS[state.stage]}"
    return replace(state, message=done + after)


def _lineup(state: DraftState, event: Mapping[str, Any]) -> DraftState | State:
    if state.stage != "lineup":
        raise RuleError(f"the line-ups come after the draft: {state.message}")
    side = int(event["side"])
    lineups = list(state.lineups)
    lineups[side] = dict(event["lineup"])
    sleeves = list(state.sleeves)
    sleeves[side] = check_sleeves(event.get("upgrades"), state.upgrades[side],
                                  [_card(e) for e in state.hoopers[side]], state.names[side])
    state = replace(state, lineups=(lineups[0], lineups[1]), sleeves=(sleeves[0], sleeves[1]))
    setup_options._side(_side_options(state, side), side, "draft")  # noqa: SLF001 - the setup's own check
    if None in state.lineups:
        return replace(state, message=f"{state.names[side]}'s line-up is set")
    game = setup_options.setup({"variant": "draft", "foul_die_blanks": state.foul_die_blanks,
                                "first_attacker": state.first_attacker,
                                "sides": [_side_options(state, s) for s in (0, 1)]})
    for s in (0, 1):
        game = with_milestone_upgrades(game, s, state.sleeves[s])
    return replace(game, message=f"{game.message}; upgrades sleeved" if any(state.sleeves) else game.message)


def _seven(state: DraftState, side: int) -> list[dict[str, Any]]:
    """The side's seven cards, star hooper upgrades sleeved."""
    return with_star_upgrades([_card(e) for e in state.hoopers[side]], state.sleeves[side])


def _side_options(state: DraftState, side: int) -> dict[str, Any]:
    return {"name": state.names[side], "tribe": state.tribes[side], "hoopers": _seven(state, side),
            "lineup": state.lineups[side], **deck_options(state.deck[side])}


def suggested_lineup(state: DraftState, side: int, sleeves: Mapping[str, Any] | None = None
                     ) -> dict[str, str] | None:
    """Five of the side's seven on positions their cards allow (first position first), if any fits."""
    cards = with_star_upgrades([_card(e) for e in state.hoopers[side]], sleeves or {})
    placed: dict[str, str] = {}

    def fill(index: int) -> bool:
        if index == len(POSITIONS):
            return True
        position = POSITIONS[index]
        for card in cards:
            if card["name"] in placed.values():
                continue
            if position in (card.get("first_position"), card.get("second_position")):
                placed[position] = card["name"]
                if fill(index + 1):
                    return True
                del placed[position]
        return False

    return dict(placed) if fill(0) else None


def prompt(state: DraftState) -> Prompt:
    side = state.picker()
    if side is not None:
        verb = STAGE_WORDS[state.stage]
        return Prompt(side=side, text=f"{state.names[side]} {verb}", commands=("draft_pick",),
                      choices=tuple(Choice(n, {"type": "draft_pick", "card": n}) for n in state.offered()))
    choices = []
    for s in (0, 1):
        if state.lineups[s] is not None:
            continue
        # The ready-made line-up, with the drafted hooper upgrades sleeved (one per un-stellar
        # hooper) when the companion can, and without them.
        sleeves = suggested_sleeves(state.upgrades[s], [_card(e) for e in state.hoopers[s]])
        for upgrades in ([sleeves] if sleeves else []) + [{}]:
            lineup = suggested_lineup(state, s, upgrades)
            if lineup is None:
                continue
            words = ", ".join(f"{p} {n}" for p, n in lineup.items())
            command: dict[str, Any] = {"type": "draft_lineup", "side": s, "lineup": lineup}
            if upgrades:
                command["upgrades"] = upgrades
                words += "; upgrades: " + ", ".join(
                    f"{n} {u if isinstance(u, str) else u['card'] + ' (' + u['stat'] + ')'}"
                    for n, u in upgrades.items())
            else:
                words += "; no hooper upgrade sleeved" if state.upgrades[s] else ""
            choices.append(Choice(f"{state.names[s]}: {words}", command))
    stuck = [state.names[s] for s in (0, 1)
             if state.lineups[s] is None and suggested_lineup(state, s) is None]
    text = "Each side sets its line-up from its seven (draft_lineup)"
    if stuck:  # the setup rule still holds: a drafted seven may leave a position nobody can start at
        text += f"; no starting five of {' and '.join(stuck)} fits the cards' first and second positions"
    return Prompt(side=None, text=text, commands=("draft_lineup",), choices=tuple(choices))


def scoreboard(state: DraftState) -> ScoreboardView:
    sides = tuple(SideView(name=state.names[s], score=len(state.hoopers[s]), active=state.picker() == s)
                  for s in (0, 1))
    return ScoreboardView(game="valley-hoopers", sides=sides, period="Draft", clock=state.stage,
                          message=state.message[:40], title="Valley Hoopers draft")


def view(state: DraftState) -> dict[str, Any]:
    return {
        "game": "valley-hoopers", "variant": "draft", "message": state.message, "final": False,
        "draft": {"stage": state.stage, "picker": state.picker(), "offered": list(state.offered()),
                  "discarded": list(state.discarded), "lineups": list(state.lineups)},
        "sides": [{"name": state.names[s], "tribe": state.tribes[s],
                   "hoopers": [{"name": _card(e)["name"], "position": "drafted"} for e in state.hoopers[s]],
                   "hooper_upgrades": list(state.upgrades[s]), "deck_upgrades": list(state.deck[s])}
                  for s in (0, 1)],
    }


def outcome(state: DraftState) -> Outcome | None:
    return None
