"""What the front ends show: the prompt (who acts, which die, target and chance), the scoreboard,
the outcome and the full JSON view.

Choices are found by trying candidate commands on the state, so the kiosk never offers a command
the rules would refuse.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

from companion.dice import Die
from companion.errors import CompanionError
from companion.frozen import by_identities, by_identity, replace
from companion.game import (
    AtMost,
    Choice,
    Counter,
    MissingCard,
    Outcome,
    Prompt,
    RollInfo,
    ScoreboardView,
    SideView,
    Target,
)
from companion.games.valley_hoopers import after_the_shot, counters, shots, splits
from companion.games.valley_hoopers.candidates import (
    Accepted,
    CardPlan,
    judge,
    judge_cards,
    judge_plan,
    plan_cards,
)
from companion.games.valley_hoopers.chips import on_lv1
from companion.games.valley_hoopers.coach import upgrade_eligible
from companion.games.valley_hoopers.exhaustion import exhausted, stuck_text, substitution_candidates
from companion.games.valley_hoopers.gameplans import CARDS, card_conditions, gameplan_view, open_questions
from companion.games.valley_hoopers.model import (
    INJURY_EFFECTS,
    STATS,
    Hooper,
    Side,
    State,
    Turn,
    other,
)
from companion.games.valley_hoopers.plain_records import plain_record
from companion.games.valley_hoopers.record_parents import energy_parent, stepped_by_side
from companion.games.valley_hoopers.rules import expected_die
from companion.games.valley_hoopers.targets import automatic as is_automatic
from companion.games.valley_hoopers.targets import chance, free_throw_target
from companion.games.valley_hoopers.waiting import DECISION_COMMANDS, SHOT_WORDS, describe_wait

# A command changes a hooper or two: the others keep their objects, and their JSON (id of the hooper
# -> the hooper, its JSON; the entry holds the hooper, so the id is never reused while remembered).
_HOOPER_JSON: dict[int, tuple[Hooper, dict[str, Any]]] = {}


def _hoopers_json(hoopers: tuple[Hooper, ...]) -> list[dict[str, Any]]:
    """``[h.to_json() for h in hoopers]``, each remembered by the record (a plain dict, not a memo
    call per hooper: a changed side's seven are looked up after nearly every command)."""
    return [_one_hooper_json(h) for h in hoopers]


def _one_hooper_json(h: Hooper) -> dict[str, Any]:
    hit = _HOOPER_JSON.get(id(h))
    if hit is None or hit[0] is not h:
        if len(_HOOPER_JSON) >= 512:
            _HOOPER_JSON.clear()
        hit = _HOOPER_JSON[id(h)] = (h, _hooper_json(h))
    return hit[1]


def _hooper_json(h: Hooper) -> dict[str, Any]:
    """``h.to_json()``; for a record that only changed its energy (``energy_parent``) the JSON of the
    one it was made from with the energy changed, when that is remembered."""
    parent = energy_parent(h)
    if parent is not None:
        hit = _HOOPER_JSON.get(id(parent))
        if hit is not None and hit[0] is parent:
            shown = hit[1].copy()  # its cells (stats, chips, lists) are shared, read only
            shown["energy"] = h.energy
            return shown
    return h.to_json()


# A side's action upgrade cards are one tuple for the whole game (the state's records share it): its
# JSON is written once, not each time one of the side's hoopers changes.
_upgrades_json = by_identity(lambda cards: [c.to_json() for c in cards], size=16)


def _count_side_json(s: Side) -> dict[str, Any]:
    return {
        "name": s.name,
        "tribe": s.tribe,
        "coach_tokens": s.coach_tokens,
        "timeouts": s.timeouts,
        "playbooks": list(s.playbooks),
        "action_upgrades": _upgrades_json(s.action_upgrades),
        "position_upgrades": list(s.position_upgrades),
        "hoopers": _hoopers_json(s.hoopers),
    }


def _step_side_json(s: Side, parent: Side, before: dict[str, Any], at: int) -> dict[str, Any]:
    """The JSON of ``parent`` (``before``) with the record at ``at`` changed: all ``s`` changed."""
    shown = before.copy()
    hoopers = shown["hoopers"] = shown["hoopers"].copy()
    hoopers[at] = _one_hooper_json(s.hoopers[at])
    return shown


# Most commands change one side at most: the other keeps its object, and its JSON; a side that changed
# one record (nearly every command) is the JSON of the side it came from with that record's changed.
_side_json = stepped_by_side(_count_side_json, _step_side_json, size=64)


def outcome(state: State) -> Outcome | None:
    if not state.final:
        return None
    return Outcome(
        winner=state.winner, reason=f"{state.score[0]}-{state.score[1]} after " f"{period_label(state)}"
    )


def period_label(state: State) -> str:
    if state.period <= state.regulation_periods:
        return f"P{state.period}"
    return f"OT{state.period - state.regulation_periods}"


def _pending_target(state: State) -> Target | None:
    """The target of the d20 roll the table is about to make (or would make, in a defense window)."""
    if state.decisions or state.final:
        return None
    kind = state.pending.kind
    try:
        if kind in ("attack_roll", "defense_window", "defense_check"):
            return shots.attack_target_now(state)
        if kind in ("counter_roll", "counter_check"):
            return counters.counter_target(state)
        if kind == "free_throw":
            shooter = state.side(state.pending.side).hooper(state.pending.hooper or "")
            return free_throw_target(shooter, basic=state.away(state.pending.side))
        if kind == "rebound_roll":
            return after_the_shot.rebound_target(state)
    except CompanionError:
        return None
    return None


# The prompt, the scoreboard and the view all show it, and a choice's odds come from it on the state
# the choice leads to (the next state when that choice is picked): counted once per state.
pending_target = by_identity(_pending_target, size=64)


def _legal(state: State, candidates: list[tuple[str, dict[str, Any]]],
           refused: list[tuple[dict[str, Any], str]] | None = None) -> tuple[Choice, ...]:
    """The candidates the rules accept now, each with the odds of the d20 roll it leads to; the
    refused ones with the rules' words go to ``refused`` when given."""
    chosen = []
    for (label, command), after in zip(candidates, judge_cards(state, candidates, judge), strict=True):
        if isinstance(after, CompanionError):
            if refused is not None:
                refused.append((command, str(after)))
            continue
        shared = isinstance(after, Accepted) and command["type"] in _SHARED_COMMANDS
        chosen.append(_choice(label, command, after) if shared else _new_choice(label, command, _odds(after)))
    return tuple(chosen)


def _card_choices(state: State, planned: _Planned, refused: list[tuple[dict[str, Any], str]] | None = None,
                  ) -> list[Choice]:
    """``_legal`` of a play step's cards (``_card_plan``), judged by position (``judge_plan``); a card's
    choice is the same object at the same odds, as ``_choice`` keeps it."""
    plan, shown = planned
    chosen = []
    for (label, command), after, seen in zip(plan.cards, judge_plan(state, plan), shown, strict=True):
        if isinstance(after, Accepted):
            hit = seen.get(after.target)
            if hit is None or hit[0] != after.points:
                if len(seen) >= 64:
                    seen.clear()
                hit = seen[after.target] = (after.points, _new_choice(label, command, _odds(after)))
            chosen.append(hit[1])
        elif isinstance(after, CompanionError):
            if refused is not None:
                refused.append((command, str(after)))
        else:
            chosen.append(_new_choice(label, command, _odds(after)))
    return chosen


# The commands ``_cards`` and ``_window_cards`` build once per line-up, and a play step's end turn and
# timeout (a choice of any other command is made anew: its command is too).
_SHARED_COMMANDS = frozenset({"attack", "fundamental", "defend", "no_defense", "counter", "no_counter",
                              "rebound", "no_rebound", "end_turn", "timeout"})

# (id of the command, target, points) -> (the command, its choice): the command is held, so its id
# stays its own while the entry lives.
_CHOICES: dict[tuple[int, int | None, int], tuple[dict[str, Any], Choice]] = {}


def _choice(label: str, command: dict[str, Any], after: Accepted) -> Choice:
    """``Choice(label, command, *_odds(after))``, the same object for the same command (a play step's
    cards and a window's answers: ``_cards`` and ``_window_cards`` build their commands once per
    line-up) at the same odds: its JSON is written
    once (``Choice.to_json``)."""
    key = (id(command), after.target, after.points)
    hit = _CHOICES.get(key)
    if hit is not None and hit[1].label == label:
        return hit[1]
    choice = _new_choice(label, command, _odds(after))
    if len(_CHOICES) >= 4096:
        _CHOICES.clear()
    _CHOICES[key] = (command, choice)
    return choice


# The records every command builds, without their ``__init__`` (``plain_records``).
_build_choice = plain_record(Choice)
_build_prompt = plain_record(Prompt)
_build_scoreboard = plain_record(ScoreboardView)
_build_side_view = plain_record(SideView)
_build_counter = plain_record(Counter)


def _new_choice(label: str, command: dict[str, Any],
                odds: tuple[Fraction | None, Fraction | None, str]) -> Choice:
    """``Choice(label, command, *odds)``."""
    return _build_choice({"label": label, "command": command, "p_success": odds[0],
                          "expected_points": odds[1], "hint": odds[2]})


def _count_on_side(choice: Choice, side: int) -> Choice:
    # ``replace(choice, side=side)``; the JSON counted on ``choice`` is not copied along.
    return _build_choice({"label": choice.label, "command": choice.command, "p_success": choice.p_success,
                          "expected_points": choice.expected_points, "hint": choice.hint, "side": side})


# ``replace(choice, side=side)``, the same object for the same choice (``_choice`` shares a card's
# choice from prompt to prompt): an attacker's card offered in a counter window writes its JSON once.
_on_side = by_identities(_count_on_side, size=4096)


def _odds(after: State | Accepted) -> tuple[Fraction | None, Fraction | None, str]:
    """Chance, expected points and a hint ("55 or less: 55%") of the roll awaited after a choice."""
    if isinstance(after, Accepted):
        return (None, None, "") if after.target is None else _odds_at(after.target, after.points)
    target = None if after.decisions or after.final else pending_target(after)
    if target is None:
        return None, None, ""
    shot = after.pending.kind in ("attack_roll", "defense_window", "defense_check")
    return _odds_at(target.value, after.pending.points if shot else 0)


@lru_cache(maxsize=1024)
def _odds_at(value: int, points: int) -> tuple[Fraction | None, Fraction | None, str]:
    """``_odds`` of a target of ``value``: the exact fractions are worked out once per value, not
    once per candidate (they are immutable, so the prompts share them)."""
    target = Target("target", value)
    p_success = chance(target)
    expected = p_success * points if points else None
    if is_automatic(target):
        return p_success, expected, f"{target.value}: scores without a roll"
    return p_success, expected, f"{AtMost(target.value).hint()}: {round(p_success * 100)}%"


def _decision_prompt(state: State) -> Prompt:
    decision = state.decisions[0]
    side = decision.side
    name = state.side(side).name if side is not None else "The table"
    command = DECISION_COMMANDS[decision.kind]
    candidates: list[tuple[str, dict[str, Any]]] = []
    if decision.kind == "white_cube":
        text = f"{name}: choose who gets the white cube"
        if state.pending.kind == "free_throw" and state.pending.hooper is None:
            text += " (a hooper on the court: he/she shoots the two free throws)"
        candidates = [
            (h.name, {"type": "white_cube", "hooper": h.name})
            for h in state.side(side or 0).hoopers
            if not h.out
        ]
    elif decision.kind == "injury":
        text = f"{name}: draw an injury marker for {decision.hooper} and enter it"
        candidates = [(e.replace("_", " "), {"type": "injury", "effect": e}) for e in INJURY_EFFECTS]
    elif decision.kind == "replace":
        text = f"{name}: choose a benchwarmer for {decision.position}"
        candidates = [(h.name, {"type": "replace", "hooper": h.name}) for h in state.side(side or 0).bench()]
    elif decision.kind == "cure":
        text = f"{name}: {decision.hooper} scored, choose a teammate who recovers one energy"
        candidates = [
            (h.name, {"type": "cure", "hooper": h.name})
            for h in state.side(side or 0).hoopers
            if h.name != decision.hooper and not h.out
        ] + [("nobody", {"type": "cure", "hooper": None})]
    elif decision.kind == "timeout_answer":
        text = f"{name}: two energies to two hoopers, or a coach token for the full timeout"
        team = [h.name for h in state.side(side or 0).hoopers if not h.out]
        candidates = [
            (f"{a} + {b}", {"type": "timeout_energy", "hoopers": [a, b]}) for a, b in combinations(team, 2)
        ]
        candidates.append(("coach token: full timeout", {"type": "timeout_energy", "coach_token": True}))
    else:
        text = f"{name}: choose the period {decision.period} milestone upgrade"
        sides = [side] if side is not None else [0, 1]
        for index in sides:
            for hooper in state.side(index).hoopers:
                if not upgrade_eligible(hooper):
                    continue
                base = {"type": "upgrade", "hooper": hooper.name}
                if side is None:
                    base["side"] = index
                if decision.period == 2:
                    candidates += [
                        (f"{hooper.name} {s} +10", {**base, "stat": s})
                        for s in STATS
                        if hooper.stat(s) is not None
                    ]
                else:
                    candidates.append((hooper.name, base))
        candidates.append(("no upgrade", {"type": "upgrade", "hooper": None}))
    return _build_prompt({
        "side": side,
        "text": text,
        "commands": (command, "enter_card", "coach_cards"),
        "choices": _legal(state, candidates),
    })


def _open_slot(turn: Turn) -> str:
    """The slot the attacker's next card goes in: "A" once F1 and F2 are used or lost, and all along a
    Buzzer Beater turn (the slots ``fundamentals.play_fundamental`` refuses)."""
    if turn.buzzer_beater:
        return "A"
    # ``turn.played`` and the lost slots, read in one pass (a prompt asks twice per play step).
    taken = {s.slot for s in turn.slots}
    for slot in ("F1", "F2"):
        if slot not in taken and slot not in turn.lost_slots:
            return slot
    return "A"


def _play_candidates(state: State) -> list[tuple[str, dict[str, Any]]]:
    return [*_card_plan(*_court_cards(state))[0].cards, *_other_candidates(state)]


# Offered in every play step: one command each, so their choices are shared too (``_choice``); read
# only, as ``_cards``.
_END_TURN: tuple[str, dict[str, Any]] = ("end turn", {"type": "end_turn"})
_TIMEOUT: tuple[str, dict[str, Any]] = ("timeout", {"type": "timeout"})


def _court_cards(state: State) -> tuple[tuple[tuple[str, str], ...], bool]:
    """The arguments of ``_cards`` (and ``_card_plan``) in a play step: the attacker's court, and
    whether fundamentals are offered."""
    # With no fundamental slot open every fundamental is refused for that alone, never for a card value
    # missing (``_missing_cards``): none is tried.
    return _court(state.side(state.turn.attacker).placed()), _open_slot(state.turn) != "A"


# The names at the positions of a court (``Side.placed``, the same object while the hoopers are).
_court = by_identity(lambda placed: tuple((position, hooper.name) for position, hooper in placed), size=64)


def _other_candidates(state: State) -> list[tuple[str, dict[str, Any]]]:
    """A play step's candidates after its cards."""
    team = state.side(state.turn.attacker)
    candidates = [_END_TURN]
    # Once a card is played a timeout is refused for that alone (no card value missing): not tried.
    if state.pending.kind != "play" or state.turn.fresh:
        candidates.append(_TIMEOUT)
    # A hooper off the LV.I space is refused a chip for that alone (no card value missing): not tried.
    candidates += [(f"redeem LV.1 chip {hooper.name}", {"type": "redeem", "hooper": hooper.name})
                   for hooper in team.hoopers if on_lv1(hooper)]
    book = state.gameplans
    if book is not None and book.taken[state.turn.attacker] is None:
        for card in CARDS:
            first, second = card_conditions(book.game, card)
            label = f"gameplan {card}: {first.text} / {second.text}"
            candidates.append((label, {"type": "gameplan", "card": card}))
    return candidates


@lru_cache(maxsize=64)
def _cards(court: tuple[tuple[str, str], ...], fundamentals: bool) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The attacks (and the fundamentals) of a court, built once per line-up: the same labels and
    commands from prompt to prompt, so the same card at the same odds is the same ``Choice``
    (``_choice``). Shared, so read only, as every snapshot is."""
    cards = [(f"{shot} {position} {name}", {"type": "attack", "shot": shot, "position": position})
             for shot in ("2PS", "3PS", "LUP") for position, name in court]
    if fundamentals:
        cards += [(f"{action} {position} {name}",
                   {"type": "fundamental", "action": action, "position": position})
                  for action in ("dribble", "pass", "screen") for position, name in court]
    return tuple(cards)


# A play step's cards grouped by position, and each card's choices by the target of the roll it leads
# to: (points, the choice).
_Planned = tuple[CardPlan, tuple[dict[int | None, tuple[int, Choice]], ...]]


@lru_cache(maxsize=64)
def _card_plan(court: tuple[tuple[str, str], ...], fundamentals: bool) -> _Planned:
    """``_cards`` grouped by position for ``judge_plan``, once per line-up, with a card's choices at the
    odds met so far (``_card_choices``)."""
    plan = plan_cards(_cards(court, fundamentals))
    return plan, tuple({} for _ in plan.cards)


def _missing_cards(state: State, refused: list[tuple[dict[str, Any], str]]) -> tuple[MissingCard, ...]:
    """The attacker's hoopers whose plays were refused only because a value is not entered yet (one
    entry per hooper, the first value named)."""
    team = state.side(state.turn.attacker)
    missing: dict[str, MissingCard] = {}
    for command, words in refused:
        if "not entered yet" not in words or "position" not in command:
            continue
        hooper = team.at(command["position"])
        if hooper is not None and hooper.name not in missing:
            missing[hooper.name] = MissingCard(state.turn.attacker, hooper.name,
                                               f"plays missing: {words.split(':')[0]}")
    return tuple(missing.values())


def _window_candidates(state: State, command: str, none: str, label: str) -> list[tuple[str, dict[str, Any]]]:
    # ``on_court``'s names, from the court as a play step reads it (``Side.placed``, kept per hoopers).
    court = tuple(hooper.name for _, hooper in state.side(state.pending.side).placed())
    return list(_window_cards(court, command, none, label))


@lru_cache(maxsize=64)
def _window_cards(court: tuple[str, ...], command: str, none: str,
                  label: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A window's answers by the hoopers on the court, and letting it go: built once per line-up, as
    ``_cards`` builds a play step's, so the same answer at the same odds is the same ``Choice``."""
    return (*((f"{label} {name}", {"type": command, "hooper": name}) for name in court),
            (none.replace("_", " "), {"type": none}))


def _play_commands(state: State, slot: str) -> tuple[str, ...]:
    """The command types that can be legal now in the attacker's play step."""
    turn = state.turn
    team = state.side(turn.attacker)
    commands = ["fundamental"] if slot != "A" else []
    commands += ["attack", "end_turn"]
    if turn.fresh:
        if team.coach_tokens and team.timeouts:
            commands.append("timeout")
        commands.append("substitute")
        if (
            team.tribe == "unleashed"
            and turn.began_after in ("counter", "defended_miss")
            and not turn.tribe_power
        ):
            commands.append("tribe_power")
    if turn.played("F1") is not None and turn.played("F2") is None and turn.playbook is None:
        commands.append("playbook")
    book = state.gameplans
    if turn.fresh and book is not None and book.taken[turn.attacker] is None and team.coach_tokens:
        commands.append("gameplan")
    return tuple(commands)


def _count_roll(die: Die, value: int | None) -> RollInfo:
    return RollInfo(die, AtMost(value, gives="success", misses="miss") if value is not None else None)


# (id of the die, the target's value) -> (the die, its roll): the same roll object for the same die
# and value (a table awaits the same few), read only as every prompt is. The entry holds the die, so
# its id is never reused while remembered.
_ROLLS: dict[tuple[int, int | None], tuple[Die, RollInfo]] = {}


def _roll(die: Die | None, target: Target | None) -> RollInfo | None:
    """The awaited die with its rule: a d20 roll at or under the target succeeds."""
    if die is None:
        return None
    key = (id(die), None if target is None else target.value)
    hit = _ROLLS.get(key)
    if hit is not None:
        return hit[1]
    roll = _count_roll(die, key[1])
    if len(_ROLLS) >= 256:
        _ROLLS.clear()
    _ROLLS[key] = (die, roll)
    return roll


def prompt(state: State) -> Prompt:
    """What the table must do next, with the target and the exact chance for a pending d20 roll.

    In The Series, a gameplan milestone the app can't settle from the log adds the table's yes/no.
    """
    shown = _prompt(state)
    asked = [] if state.final else open_questions(state)
    if not asked:
        return shown
    choices = tuple(
        Choice(f"{state.side(side).name}: {m.condition.text} {word}",
               {"type": "gameplan_answer", "side": side, "condition": m.condition.id, "met": met})
        for side, m in asked for word, met in (("yes", True), ("no", False))
    )
    return replace(shown, commands=(*shown.commands, "gameplan_answer"), choices=(*shown.choices, *choices))


def _prompt(state: State) -> Prompt:
    if state.final:
        return Prompt(side=None, text=state.message or "game over", commands=())
    if state.decisions:
        return _decision_prompt(state)
    pending = state.pending
    name = state.side(pending.side).name
    die = expected_die(state)
    target = pending_target(state)
    p_success = chance(target) if target is not None else None
    expected: Fraction | None = None
    automatic = target is not None and is_automatic(target)
    kind = pending.kind
    what = SHOT_WORDS.get(pending.action or "", pending.action or "")
    anytime = ("enter_card", "coach_cards", "donate", "chip", "redeem")
    if kind == "play":
        slot = _open_slot(state.turn)
        commands = _play_commands(state, slot) + anytime
        # With F1 and F2 used or lost (or a Buzzer Beater turn) only an attack is left.
        text = (
            f"{name}: play the attack in A, or end the turn"
            if slot == "A"
            else f"{name}: play {slot} (a fundamental or the attack)"
        )
        refused: list[tuple[dict[str, Any], str]] = []
        choices = (*_card_choices(state, _card_plan(*_court_cards(state)), refused),
                   *_legal(state, _other_candidates(state), refused))
        # A card offered: somebody can play one (the court is read only when none is).
        if not any(c.command["type"] in ("attack", "fundamental") for c in choices) and \
                (court := state.side(pending.side).on_court()) and all(exhausted(h) for h in court):
            # Nobody can play a card: offer the swaps that give energy back, and say why.
            swaps = _legal(state, substitution_candidates(state, pending.side))
            choices = (*swaps, *choices)
            text = stuck_text(state, pending.side, bool(swaps))
        return _build_prompt({
            "side": pending.side,
            "text": text,
            "commands": commands,
            "choices": choices,
            "missing_cards": _missing_cards(state, refused),
        })
    if kind == "counter_window":
        # Rule 26: the attacker's next card answers "no counter", so it is offered here too and the
        # defender taps only to counter.
        attacker = state.turn.attacker
        next_cards = [_on_side(c, attacker) for c in _card_choices(state, _card_plan(*_court_cards(state)))]
        return _build_prompt({
            "side": pending.side,
            "text": f"{name}: counter {pending.hooper}'s {pending.action}, or let it go "
            f"({state.side(attacker).name}'s next card lets it go)",
            "commands": ("counter", "no_counter", "fundamental", "attack", *anytime),
            "choices": (*_legal(state, _window_candidates(state, "counter", "no_counter", "counter with")),
                     *next_cards),
        })
    if kind == "defense_window":
        expected = p_success * pending.points if p_success is not None else None
        return _build_prompt({
            "side": pending.side,
            "text": f"{name}: defend {pending.hooper}'s {what}, or let it go",
            # A roll answers "no defense" only when the attack needs one (under 100).
            "commands": ("defend", "no_defense", *(("roll",) if die is not None else ()), *anytime),
            "roll": _roll(die, target),
            "target": target,
            "p_success": p_success,
            "expected_points": expected,
            "automatic": automatic and die is None,
            "choices": _legal(state, _window_candidates(state, "defend", "no_defense", "defend with")),
        })
    if kind == "rebound_window":
        # The Unleashed may use their tribe power before the opponent's rebound attempt.
        unleashed_power = (
            ("tribe_power",)
            if pending.defended and state.side(other(pending.side)).tribe == ("unleashed")
            else ()
        )
        return _build_prompt({
            "side": pending.side,
            "text": f"{name}: offensive rebound in F3, or let the defense rebound",
            "commands": ("rebound", "no_rebound", *unleashed_power, *anytime),
            "choices": _legal(state, _window_candidates(state, "rebound", "no_rebound", "rebound with")),
        })
    if kind == "rebound_reward":
        return _build_prompt({
            "side": pending.side,
            "text": f"{name}: rebound won, draw 2 cards or +15 for {pending.other}",
            "commands": ("rebound_reward",),
            "choices": (
                Choice("draw 2 cards", {"type": "rebound_reward", "reward": "draw2"}),
                Choice(
                    f"+15 if {pending.other} attacks next", {"type": "rebound_reward", "reward": "bonus15"}
                ),
            ),
        })
    if kind == "playbook_reward":
        return _build_prompt({
            "side": pending.side,
            "text": f"{name}: playbook scored, choose the reward",
            "commands": ("playbook_reward",),
            "choices": (
                Choice("recover F2 and A energy", {"type": "playbook_reward", "reward": "energy"}),
                Choice("draw 2 cards", {"type": "playbook_reward", "reward": "draw2"}),
                Choice("F2 energy + 1 card", {"type": "playbook_reward", "reward": "mixed", "slot": "F2"}),
                Choice("A energy + 1 card", {"type": "playbook_reward", "reward": "mixed", "slot": "A"}),
            ),
        })
    texts = {
        "screen_check": f"{name}: roll the d8 foul die for {pending.hooper}'s screen",
        "counter_check": f"{name}: roll the d8 foul die for {pending.other}'s counter",
        "counter_roll": f"{name}: roll the d20 for {pending.other}'s counter",
        "defense_check": f"{name}: roll the d8 foul die for {pending.other}'s defense",
        "attack_roll": f"{name}: roll the d20 for {pending.hooper}'s {what}",
        "free_throw": f"{name}: roll the d20 for {pending.hooper}'s free throw ({pending.free_throws} left)",
        "rebound_check": f"{name}: roll the d8 foul die for {pending.other}'s rebound",
        "rebound_roll": f"{name}: roll the d20 for {pending.other}'s rebound",
    }
    if kind in ("attack_roll", "defense_check") and p_success is not None:
        expected = p_success * pending.points
    elif kind == "free_throw" and p_success is not None:
        expected = p_success * pending.free_throws
    commands = ("roll", "chip") if kind in ("counter_check", "counter_roll") else ("roll",)
    return _build_prompt({
        "side": pending.side,
        "text": texts.get(kind, describe_wait(state)),
        "commands": (*commands, "enter_card"),
        "roll": _roll(die, target),
        "target": target,
        "p_success": p_success,
        "expected_points": expected,
        "automatic": automatic and die is None,  # while a die is awaited the table still rolls it
    })


def _gameplan_counter(state: State, side: int) -> tuple[Counter, ...]:
    """GP: the milestones of the side's gameplan met so far (The Series, once a card is taken)."""
    shown = gameplan_view(state)
    if shown is None or shown["sides"][side]["card"] is None:
        return ()
    return (Counter("GP", shown["sides"][side]["met"]),)


def _count_side_view(state: State, i: int) -> SideView:
    s = state.sides[i]
    return _build_side_view({
        "name": s.name,
        "score": state.score[i],
        "team_fouls": state.team_fouls[i],
        "bonus": state.team_fouls[i] + 1 >= counters.BONUS_FROM_TEAM_FOUL,  # the next foul gives free throws
        "counters": (_build_counter({"label": "TO", "value": s.timeouts}),
                     _build_counter({"label": "CT", "value": s.coach_tokens}), *_gameplan_counter(state, i)),
        "active": not state.final and i == state.turn.attacker,
    })


# (name, timeouts, coach tokens, score, team fouls, active) -> the side's view, outside The Series
# (whose GP counter reads the gameplans): everything ``_count_side_view`` reads, so a side whose
# hoopers changed (nearly every command changes one) keeps its view.
_SIDE_VIEWS: dict[tuple[str, int, int, int, int, bool], SideView] = {}


def _side_view(state: State, i: int) -> SideView:
    if state.gameplans is not None:
        return _count_side_view(state, i)
    s = state.sides[i]
    key = (s.name, s.timeouts, s.coach_tokens, state.score[i], state.team_fouls[i],
           not state.final and i == state.turn.attacker)
    hit = _SIDE_VIEWS.get(key)
    if hit is not None:
        return hit
    if len(_SIDE_VIEWS) >= 256:
        _SIDE_VIEWS.clear()
    shown = _SIDE_VIEWS[key] = _count_side_view(state, i)
    return shown


# ``AtMost(value).words`` ("<=55") by the value: the scoreboard shows one after nearly every command.
_at_most_words = lru_cache(maxsize=256)(lambda value: AtMost(value).words)


def scoreboard(state: State) -> ScoreboardView:
    target = pending_target(state)
    sides = (_side_view(state, 0), _side_view(state, 1))
    pairs = state.pairs_in_period
    return _build_scoreboard({
        "game": "valley-hoopers",
        "sides": sides,
        "period": period_label(state),
        "clock": f"{min(state.pair, pairs)}/{pairs}",
        "possession": None if state.final else state.turn.attacker,
        "target": target.value if target is not None else None,
        "target_text": _at_most_words(target.value) if target is not None else "",
        "message": state.message[:40],
        "final": state.final,
        "title": "Valley Hoopers",
        # The first moment of a new period (turn 1, nothing played yet): the buzzer reads it.
        "period_over": state.period > 1 and state.turn_number == 1 and state.turn.fresh and not state.final,
    })


# The periods' scores change once a period: the tuple is shared by the states in between (``replace``
# copies the reference), and so is its JSON, read only as every snapshot is.
_partial_scores_json = by_identity(lambda scores: [list(p) for p in scores], size=8)


def view(state: State) -> dict[str, Any]:
    """The whole state as JSON (kiosk, replay, exports); ``gameplans`` only in a game of The Series."""
    pending = state.pending
    target = pending_target(state)
    turn = state.turn
    # Both sides, and the turn's lists only when they hold something: a list built by a comprehension
    # is a call of its own, and the view is written after every command.
    side0, side1 = state.sides
    slots, bonuses, decisions = turn.slots, turn.bonuses, state.decisions
    return {
        "game": "valley-hoopers",
        "variant": state.variant,
        "foul_die_blanks": state.foul_die_blanks,
        "score": list(state.score),
        "period": state.period,
        "period_label": period_label(state),
        "turn": {
            "pair": state.pair,
            "pairs_in_period": state.pairs_in_period,
            "attacker": turn.attacker,
            "defender": other(turn.attacker),
            "turn_number": state.turn_number,
            "slots": [s.to_json() for s in slots] if slots else [],
            "lost_slots": list(turn.lost_slots),
            "bonuses": [{"label": t.label, "value": t.value} for t in bonuses] if bonuses else [],
            "ball_holder": turn.ball.holder,
            "barred": list(turn.ball.barred),
            "playbook": turn.playbook,
            "rebound_bonus_for": turn.rebound_bonus_for,
            "began_after": turn.began_after,
        },
        "team_fouls": list(state.team_fouls),
        "sides": [_side_json(side0), _side_json(side1)],
        "box_score": splits.box_score(state),
        "coach_tokens": [side0.coach_tokens, side1.coach_tokens],
        "timeouts": [side0.timeouts, side1.timeouts],
        "partial_scores": _partial_scores_json(state.partial_scores),
        "pending": {
            "kind": pending.kind,
            "side": pending.side,
            "action": pending.action,
            "hooper": pending.hooper,
            "opponent_hooper": pending.other,
            "fouled": pending.fouled,
            "free_throws": pending.free_throws,
            "target": target.to_json() if target else None,
        },
        "decisions": [
            {"kind": d.kind, "side": d.side, "hooper": d.hooper, "position": d.position, "period": d.period}
            for d in decisions
        ] if decisions else [],
        "free_substitutions": list(state.free_substitutions),
        "reminders": list(state.reminders),
        "message": state.message,
        "winner": state.winner,
        "final": state.final,
        **({} if state.gameplans is None else {"gameplans": gameplan_view(state)}),
    }
