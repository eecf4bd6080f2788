"""Gameplans of The Series: take a card, follow its two milestones live, count them at the end.

The rulebook prints 48 milestones in three lists of sixteen (Game 1-2, Game 3-4, Game 5-6; its
third heading reads "Game 6-7"). A gameplan card face holds one pair per list; we read the pairs
as the printed order (milestones 1-2 are card 1, 3-4 card 2, ... 15-16 card 8). Games 1 and 2 use
the first list, 3 and 4 the second, 5, 6 and 7 the third (docs/games/valley-hoopers.md).

A game is a game of The Series when its setup options carry ``series_game`` (1 to 7); only then
does the state hold a ``GameplanBook`` and are the commands accepted:

- ``{"type": "gameplan", "card": 3}``: the attacker, at the beginning of the own attacking turn,
  spends one coach action token to take gameplan card 3; one card per side and per game;
- ``{"type": "gameplan_answer", "side": 0, "condition": "g34.09", "met": true}``: the table's yes/no
  for a milestone the app can't settle from the log (see ``gameplan_conditions``).

API for The Series (the reward phase) and the front ends:

- ``milestones_met(log_or_states, side) -> int``: how many milestones of the side's gameplan are met
  (0, 1 or 2; 0 when the side took no gameplan or the game is not a game of The Series). It takes a
  ``State``, a list of states (the last counts: ``Timeline.states``), or a log: the store's entries
  (``{"kind": "setup" | "command" | "undo" | "redo", ...}``) or the replay file's lines (a
  ``{"type": "setup", ...options}`` line then commands), replayed through the rules;
- ``progress(state, side)``: the side's two milestones with ``met``, ``status`` and a progress text;
- ``evaluate(state, side, condition_id)``: any of the 48 milestones for a side, taken or not;
- ``gameplan_view(state)``: the JSON the view shows under ``gameplans``;
- ``open_questions(state)``: milestones waiting for the table's answer (one still open when the
  game ends counts as not met: a finished game takes no more commands).

>>> from companion.games.valley_hoopers.setup_options import example_options, setup
>>> state = setup({**example_options(), "series_game": 3})
>>> [c.id for c in card_conditions(3, 2)]
['g34.03', 'g34.04']
>>> state = take_gameplan(state, {"type": "gameplan", "card": 2})
>>> state.gameplans.taken, state.sides[0].coach_tokens
((2, None), 6)
>>> [m["progress"] for m in progress(state, 0)]
['0 points from the bench side against 0', '1 of 3 active playbooks']
>>> milestones_met([state], 0)
0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers.gameplan_conditions import BY_ID, CONDITIONS, LISTS, Condition, Table
from companion.games.valley_hoopers.gameplan_tally import GameplanBook
from companion.games.valley_hoopers.model import State

SERIES_GAMES = range(1, 8)
CARDS = range(1, 9)  # four double-sided cards: eight faces, one pair per list on each


def list_for_game(game: int) -> str:
    """The milestone list of a game of The Series: ``"1-2"``, ``"3-4"`` or ``"5-6"`` (games 5 to 7).

    >>> [list_for_game(g) for g in SERIES_GAMES]
    ['1-2', '1-2', '3-4', '3-4', '5-6', '5-6', '5-6']
    """
    if game not in SERIES_GAMES:
        raise CommandError(f"series_game must be 1 to 7 (the game of The Series), not {game!r}")
    return LISTS[min((game - 1) // 2, 2)][0]


def card_conditions(game: int, card: int) -> tuple[Condition, Condition]:
    """The two milestones of gameplan ``card`` (1 to 8) in ``game``: the card's pair for that list."""
    games = list_for_game(game)
    rows = [c for c in CONDITIONS if c.games == games]
    return rows[2 * card - 2], rows[2 * card - 1]


def check_series_game(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in SERIES_GAMES:
        raise CommandError(f"series_game must be 1 to 7 (the game of The Series), not {raw!r}")
    return raw


def check_card(name: str, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in CARDS:
        raise CommandError(f"{name} must be a gameplan card from 1 to 8 (its pair in this game's list), "
                           f"not {raw!r}")
    return raw


def check_condition(name: str, raw: object) -> str:
    if not isinstance(raw, str) or raw.strip().lower() not in BY_ID:
        raise CommandError(f"{name} must be a milestone id like g12.05 (g12, g34 or g56 and 01 to 16), "
                           f"not {raw!r}")
    return raw.strip().lower()


def _book(state: State, what: str) -> GameplanBook:
    if state.gameplans is None:
        raise RuleError(f"{what}: gameplans belong to The Series, and this game was not set up as a game "
                        "of the series")
    return state.gameplans


def _words(condition: Condition) -> str:
    return condition.text.rstrip(".")


def take_gameplan(state: State, event: Mapping[str, Any]) -> State:
    """The attacker spends a coach action token to take gameplan ``card``, at the start of the own turn."""
    book = _book(state, "no gameplan can be taken")
    card = event["card"]
    side = state.turn.attacker
    name = state.side(side).name
    if state.pending.kind != "play" or not state.turn.fresh:
        raise RuleError(f"{name} takes a gameplan only at the beginning of the own attacking turn, "
                        "before any card")
    mine = book.taken[side]
    if mine is not None:
        raise RuleError(f"{name} already took gameplan card {mine} this game: "
                        "only one gameplan card per game")
    theirs = book.taken[1 - side]
    if theirs == card:
        raise RuleError(f"{state.side(1 - side).name} already took gameplan card {card}: take another card")
    team = state.side(side)
    if team.coach_tokens < 1:
        locked = " (the rest are locked in playbooks: renounce one first)" if team.playbooks else ""
        raise RuleError(f"{name} has no coach action token left to take a gameplan card{locked}")
    state = state.with_side(side, replace(team, coach_tokens=team.coach_tokens - 1))
    taken = (card, book.taken[1]) if side == 0 else (book.taken[0], card)
    first, second = card_conditions(book.game, card)
    return replace(state, gameplans=replace(book, taken=taken),
                   message=f"{name} takes gameplan {card}: {_words(first)}; {_words(second)}")


def answer(state: State, event: Mapping[str, Any]) -> State:
    """The table's yes/no for a milestone the app asks about (one the log can't settle)."""
    book = _book(state, "there is no gameplan to answer for")
    side, cid = event["side"], event["condition"]
    name = state.side(side).name
    condition = BY_ID[cid]
    card = book.taken[side]
    if card is None or condition not in card_conditions(book.game, card):
        owned = "no gameplan" if card is None else f"gameplan {card}"
        raise RuleError(f"{cid} is not one of {name}'s milestones ({name} has {owned})")
    question = condition.asked(Table(state, book, side)) if condition.asked else None
    if question is None:
        raise RuleError(f"{cid} ({_words(condition)}) is read from the log: the app needs no answer")
    answers = tuple(a for a in book.answers if (a[0], a[1]) != (side, cid)) + ((side, cid, event["met"]),)
    met = "met" if event["met"] else "not met"
    return replace(state, gameplans=replace(book, answers=answers),
                   message=f"{name}: {cid} {met} (the table says)")


@dataclass(frozen=True)
class Milestone:
    """One milestone as a side stands now: ``status`` is met / missed (game over), met / not yet
    (reach), holding / broken (avoid), on track / not yet (standing), or asked."""

    condition: Condition
    met: bool
    status: str
    progress: str
    question: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.condition.id, "text": self.condition.text, "list": self.condition.games,
                "met": self.met, "status": self.status, "progress": self.progress, "question": self.question,
                "label": f"{self.status.upper()}: {self.condition.text} ({self.progress})"}


def _status(condition: Condition, met: bool, final: bool) -> str:
    if final:
        return "met" if met else "missed"
    if condition.kind == "avoid":
        return "holding" if met else "broken"
    if condition.kind == "standing":
        return "on track" if met else "not yet"
    return "met" if met else "not yet"


def evaluate(state: State, side: int, condition_id: str) -> Milestone:
    """Any milestone for ``side`` on this state (the table's answer stands in for what the app can't see)."""
    book = _book(state, "no milestone to evaluate")
    condition = BY_ID[condition_id]
    table = Table(state, book, side)
    question = condition.asked(table) if condition.asked else None
    if question is not None:
        told = book.answer(side, condition.id)
        if told is None:
            return Milestone(condition, False, "asked", "the table answers", question)
        return Milestone(condition, told, _status(condition, told, state.final), "answered by the table")
    met, text = condition.evaluate(table)
    return Milestone(condition, met, _status(condition, met, state.final), text)


def progress(state: State, side: int) -> list[dict[str, Any]]:
    """The two milestones of the side's gameplan (none before it takes one)."""
    book = state.gameplans
    if book is None or book.taken[side] is None:
        return []
    card = book.taken[side]
    return [evaluate(state, side, c.id).to_json() for c in card_conditions(book.game, card or 0)]


def open_questions(state: State) -> list[tuple[int, Milestone]]:
    """The milestones waiting for the table's answer, by side."""
    book = state.gameplans
    if book is None:
        return []
    out = []
    for side in (0, 1):
        card = book.taken[side]
        for condition in card_conditions(book.game, card) if card else ():
            milestone = evaluate(state, side, condition.id)
            if milestone.status == "asked":
                out.append((side, milestone))
    return out


def gameplan_view(state: State) -> dict[str, Any] | None:
    """What the view shows under ``gameplans`` (``None`` outside The Series)."""
    book = state.gameplans
    if book is None:
        return None
    sides = []
    for side in (0, 1):
        milestones = progress(state, side)
        sides.append({"card": book.taken[side], "milestones": milestones,
                      "met": sum(1 for m in milestones if m["met"])})
    return {"series_game": book.game, "list": f"Game {list_for_game(book.game)}", "sides": sides}


def _replay(log: Sequence[Mapping[str, Any]]) -> State:
    """The state at the end of a log: store entries (with undo/redo) or replay-file lines."""
    from companion.games.valley_hoopers.rules import apply, decide
    from companion.games.valley_hoopers.setup_options import setup

    first = log[0]
    if first.get("kind") == "setup":
        done: list[list[Mapping[str, Any]]] = []
        undone: list[list[Mapping[str, Any]]] = []
        for entry in log[1:]:
            kind = entry.get("kind")
            if kind == "command":
                done.append(list(entry["events"]))
                undone.clear()
            elif kind == "undo" and done:
                undone.append(done.pop())
            elif kind == "redo" and undone:
                done.append(undone.pop())
        state = setup(first["options"])
        for events in done:
            for event in events:
                state = apply(state, event)
        return state
    if first.get("type") != "setup":
        raise CommandError("a log starts with its setup: a store entry {'kind': 'setup'} "
                           "or a line {'type': 'setup'}")
    state = setup({k: v for k, v in first.items() if k != "type"})
    for command in log[1:]:
        for event in decide(state, command):
            state = apply(state, event)
    return state


def final_state(log_or_states: State | Iterable[Any]) -> State:
    """The state a log, a list of states or a state stands for."""
    if isinstance(log_or_states, State):
        return log_or_states
    items = list(log_or_states)
    if not items:
        raise CommandError("an empty log has no game in it")
    if isinstance(items[-1], State):
        return items[-1]
    return _replay(items)


def milestones_met(log_or_states: State | Iterable[Any], side: int) -> int:
    """How many of the side's gameplan milestones are met: 0, 1 or 2 (0 without a gameplan)."""
    state = final_state(log_or_states)
    return sum(1 for m in progress(state, side) if m["met"])
