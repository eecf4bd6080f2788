"""A prompt's candidate commands judged by the checks their resolve starts with, resolved only when
those checks can't tell.

The prompt offers only what the rules accept, so it used to resolve every candidate (about forty in
a play step, two thirds of them refused); a player picks one. Each command's resolver now begins with
a ``check_*`` function holding every refusal it can give before it changes the table, and ``judge``
runs that function alone:

- it refuses: the candidate is refused with the resolver's own words (they are the same function),
  so the prompt's list of plays missing a card value reads exactly as before;
- it passes, and for a plain candidate (the fields the prompt gives, no chip, no upgrade, no other
  payer) nothing later in the resolve can refuse: the candidate is ``Accepted`` with the d20 roll it
  leads to, without building the state after it. That holds for fundamentals, attacks (outside a
  playbook, whose attack is rolled at once), defenses (the attack's target less the defender's
  terms, as ``shots.attack_target_now`` counts it once the defense stands; not against a lay-up or
  once a foul bonus, a helper, a chip or an upgrade is on the attack), counters (the counterer's
  stat: the energy a counter spends changes no stat), "no defense" (the attack's target as it
  stands, unless it scores without a roll), offensive rebounds, timeouts, substitutions in the
  play step (the swaps an exhausted court is offered), an ended turn, "no counter" and "no
  rebound";
- otherwise (a redeemed chip; an attack that scores without a roll; any other command; a state
  waiting for a decision) it is resolved (``rules.trial``, which keeps the result for when the
  player picks it).

``tests/test_valley_hoopers_candidates.py`` holds ``judge`` to a full trial of every candidate, on
every state of the full-game and series scripts and on random walks.

>>> import json
>>> from companion.games.valley_hoopers.demo import DEMO_SETUP
>>> from companion.games.valley_hoopers.setup_options import example_options, setup
>>> state = setup(json.loads(DEMO_SETUP.read_text()))
>>> judge(state, {"type": "fundamental", "action": "dribble", "position": "PG"})
Accepted(target=None, points=0)
>>> judge(state, {"type": "attack", "shot": "3PS", "position": "SG"})
Accepted(target=70, points=3)
>>> judge(setup(example_options()), {"type": "attack", "shot": "3PS", "position": "PG"})
Traceback (most recent call last):
...
companion.errors.RuleError: Serge Ceptor's energy is not entered yet: enter it from his card
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.errors import CompanionError
from companion.frozen import by_identity
from companion.game import Target, Term
from companion.games.valley_hoopers.after_the_shot import check_no_rebound, check_rebound
from companion.games.valley_hoopers.ball import card_refusal, takes_any
from companion.games.valley_hoopers.coach import check_redeem, check_substitute, check_timeout
from companion.games.valley_hoopers.counters import check_counter, counter_target_of
from companion.games.valley_hoopers.fundamentals import (
    acting_hooper,
    check_end_turn,
    check_fundamental,
    check_fundamental_card,
    check_fundamental_step,
    check_no_counter,
    close_counter_window,
)
from companion.games.valley_hoopers.hooper_ops import can_act_refusal
from companion.games.valley_hoopers.model import Hooper, Pending, State, Turn
from companion.games.valley_hoopers.rules import trial
from companion.games.valley_hoopers.shots import (
    SHOT_POINTS,
    attack_bonuses,
    attack_target_now,
    check_attack,
    check_attack_card,
    check_attack_step,
    check_defense,
    check_no_defense,
    defended_attacker,
    judge_defender,
    target_if_defended,
    undefended_value,
)
from companion.games.valley_hoopers.target_numbers import automatic
from companion.games.valley_hoopers.targets import attack_stat_terms, attack_values, defense_value


@dataclass(frozen=True)
class Accepted:
    """A candidate the rules accept, judged without resolving it: the value of the target of the d20
    roll it leads to (``None``: no roll is awaited after it) and the points that roll is for (the
    choice's odds come from these two alone)."""

    target: int | None = None
    points: int = 0


NO_ROLL = Accepted()
_UNCHECKED = object()


def judge(state: State, event: dict[str, Any]) -> State | Accepted:
    """``Accepted``, or the state after ``event`` when the checks can't tell; ``RuleError`` (the
    resolver's words) when the rules refuse it."""
    judged = _JUDGES.get(event.get("type"))  # type: ignore[arg-type]
    if judged is None or state.final or state.decisions or not judged[0].issuperset(event):
        return trial(state, event)
    return judged[1](state, event)


def judge_cards(state: State, candidates: list[tuple[str, dict[str, Any]]],
                judge_one: Callable[[State, dict[str, Any]], State | Accepted] = judge,
                ) -> list[State | Accepted | CompanionError]:
    """What ``judge_one`` (``judge``) gives for each candidate, or the refusal it raises.

    A play step offers six cards per court position (three shots, three fundamentals), and
    ``judge`` runs the same checks for all of them: here the checks that read only the step
    (``check_attack_step``, ``check_fundamental_step``) run once per step, and who plays at a
    position (``acting_hooper``) and what the turn adds to his or her attack (``attack_bonuses``
    without the card's maluses) once per position; each card's own checks (``check_attack_card``,
    ``check_fundamental_card``) run per card. They are the functions ``check_attack`` and
    ``check_fundamental`` are made of, in their order, so a card reads exactly as ``judge`` says
    (``tests/test_valley_hoopers_candidates.py`` holds every prompt's cards to it). A defense
    window's plain defenses are judged together likewise (``_Defended``, held to ``judge`` the same
    way). Any other candidate goes to ``judge_one``.
    """
    judged: list[State | Accepted | CompanionError] = []
    add = judged.append
    steps: dict[str, object] = {}
    # Position: its hooper and the turn's bonuses on his or her attack (``None`` in a playbook's
    # turn, whose attack is resolved), or the refusal of whoever plays there.
    acting: dict[str, tuple[Hooper, int | None] | CompanionError] = {}
    plain = not state.final and not state.decisions
    turn: Turn | None = None
    defended: _Defended | None = None
    for _, event in candidates:
        kind = event.get("type")
        if kind == "defend" and plain and _DEFEND_FIELDS.issuperset(event):
            if defended is None:
                defended = _Defended(state)
            add(defended.judged(event))
            continue
        fields = _CARD_FIELDS.get(kind)  # type: ignore[arg-type]
        position = event.get("position")
        if not plain or fields is None or not fields.issuperset(event) or not isinstance(position, str) \
                or not position:
            add(_outcome(judge_one, state, event))
            continue
        step = steps.get(kind, _UNCHECKED)  # type: ignore[arg-type]
        if step is _UNCHECKED:
            step = steps[kind] = _outcome(_STEP_CHECKS[kind], state)  # type: ignore[index]
        if isinstance(step, CompanionError):
            add(step)
            continue
        at = acting.get(position)
        if at is None:
            hooper = _outcome(acting_hooper, state, event)
            if isinstance(hooper, CompanionError):
                at = acting[position] = hooper
            else:
                if turn is None:
                    turn = _attack_turn(state)
                # The attack's target (``_attack_judged``) is its stat plus these, plus its maluses.
                at = acting[position] = (hooper, None if turn.playbook is not None else
                                         Target.total(0, attack_bonuses(turn, hooper, ())))
        if isinstance(at, CompanionError):
            add(at)
            continue
        try:
            if kind == "attack":
                stat, maluses = check_attack_card(state, at[0], event["shot"])
                if at[1] is None:
                    add(_outcome(trial, state, event))  # a playbook's attack: rolled at once
                else:
                    add(_accepted(Target.total(stat.value + at[1], maluses), SHOT_POINTS[event["shot"]]))
            else:
                check_fundamental_card(state, at[0], event["action"])
                add(NO_ROLL)
        except CompanionError as refused:
            add(refused)
    return judged


# A card of a plan (``CardPlan``): its index among the cards, the shot or action, the points it scores.
_Planned = tuple[int, str, int]


@dataclass(frozen=True)
class CardPlan:
    """A play step's plain cards (``(label, command)``, as ``views._cards`` builds them once per
    line-up) grouped by court position, for ``judge_plan``: each position's attacks and fundamentals
    (``_Planned``) with one of its cards (it names the position for ``acting_hooper``)."""

    cards: tuple[tuple[str, dict[str, Any]], ...]
    positions: tuple[tuple[dict[str, Any], tuple[_Planned, ...], tuple[_Planned, ...]], ...]
    fundamentals: bool


def plan_cards(cards: tuple[tuple[str, dict[str, Any]], ...]) -> CardPlan:
    """The plan of plain attacks and fundamentals (``ValueError`` for any other candidate)."""
    groups: dict[str, tuple[dict[str, Any], list[_Planned], list[_Planned]]] = {}
    for index, (_, command) in enumerate(cards):
        kind, position = command.get("type"), command.get("position")
        if kind not in _CARD_FIELDS or _CARD_FIELDS[kind] != command.keys() or not isinstance(position, str) \
                or not position:
            raise ValueError(f"not a plain card: {command}")
        group = groups.setdefault(position, (command, [], []))
        if kind == "attack":
            group[1].append((index, command["shot"], SHOT_POINTS[command["shot"]]))
        else:
            group[2].append((index, command["action"], 0))
    return CardPlan(cards, tuple((event, tuple(attacks), tuple(plays))
                                 for event, attacks, plays in groups.values()),
                    any(plays for _, _, plays in groups.values()))


def judge_plan(state: State, plan: CardPlan) -> list[State | Accepted | CompanionError]:
    """``judge_cards(state, plan.cards)``, by position: the step's checks once, who plays at a
    position once, and a card's own checks only when the ball or an injury may refuse it (``takes_any``:
    otherwise an attack's checks come down to its stat, a fundamental's to none).
    ``tests/test_valley_hoopers_candidates.py`` holds it to ``judge`` card by card."""
    if state.final or state.decisions:
        return judge_cards(state, list(plan.cards))
    judged: list[State | Accepted | CompanionError] = [NO_ROLL] * len(plan.cards)
    attack_step = _outcome(check_attack_step, state)
    fundamental_step = _outcome(check_fundamental_step, state) if plan.fundamentals else None
    ball = state.turn.ball
    turn: Turn | None = None
    placed = dict(state.side(state.turn.attacker).placed())
    for event, attacks, plays in plan.positions:
        # ``acting_hooper``: the hooper at the position (``court_hooper``), who must be able to act.
        hooper = placed.get(event["position"])
        if hooper is None:
            hooper = _outcome(acting_hooper, state, event)  # nobody there: its words
        else:
            try:
                refused = can_act_refusal(hooper)
            except CompanionError as unknown:  # an energy not entered yet
                refused = unknown
            if refused is not None:
                hooper = refused
        if isinstance(hooper, CompanionError):
            for planned, step in ((attacks, attack_step), (plays, fundamental_step)):
                refused = step if isinstance(step, CompanionError) else hooper
                for index, _, _ in planned:
                    judged[index] = refused
            continue
        free = takes_any(ball, hooper.name)
        if isinstance(attack_step, CompanionError):
            for index, _, _ in attacks:
                judged[index] = attack_step
        elif attacks:
            if turn is None:
                turn = _attack_turn(state)
            # The attack's target (``_attack_judged``) is its stat plus these, plus its maluses.
            bonus = None if turn.playbook is not None else Target.total(0, attack_bonuses(turn, hooper, ()))
            plain = free and "cannot_attack" not in hooper.injuries
            if plain and bonus is not None and (values := attack_values(hooper)) is not None:
                # Each shot's checks come down to its stat, entered.
                for index, shot, points in attacks:
                    judged[index] = _accepted(values[shot] + bonus, points)
            else:
                injured = "cannot_attack" in hooper.injuries
                for index, shot, points in attacks:
                    # ``check_attack_card``; the ball's refusal kept rather than raised.
                    if not plain and not injured and \
                            (refused := card_refusal(ball, shot, hooper.name, hooper.subject)) is not None:
                        judged[index] = refused
                        continue
                    try:
                        stat, maluses = check_attack_card(state, hooper, shot) if injured else \
                            attack_stat_terms(hooper, shot)
                    except CompanionError as refused:
                        judged[index] = refused
                        continue
                    judged[index] = _outcome(trial, state, plan.cards[index][1]) if bonus is None else \
                        _accepted(Target.total(stat.value + bonus, maluses), points)
        if isinstance(fundamental_step, CompanionError):
            for index, _, _ in plays:
                judged[index] = fundamental_step
        elif not free:  # otherwise every fundamental is accepted (``NO_ROLL``, already in place)
            for index, action, _ in plays:  # ``check_fundamental_card``, its refusal kept
                refused = card_refusal(ball, action, hooper.name, hooper.subject)
                if refused is not None:
                    judged[index] = refused
    return judged


class _Defended:
    """A defense window's plain defenses (``_defend``), judged together: the window's attacker once
    (``shots.defended_attacker``), each defender's checks (``check_defender``) per candidate, the
    attack's value before the defense's terms (``shots.undefended_value``) once, when a defense first
    passes them; a defender's terms by what they read (``targets.defense_value``)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.resolved = _defense_resolved(state.pending)
        self.before: int | None = None
        self.attacker: Hooper | CompanionError | None = None

    def judged(self, event: dict[str, Any]) -> State | Accepted | CompanionError:
        state = self.state
        pending = state.pending
        if pending.kind != "defense_window":
            return _outcome(check_defense, state, event)  # its refusal
        try:
            # ``check_defense``, the attacker looked up once.
            defender = state.side(pending.side).hooper(event["hooper"])
            if self.attacker is None:
                self.attacker = _outcome(defended_attacker, state)
            if isinstance(self.attacker, CompanionError):
                return self.attacker
            defense_stat = judge_defender(state, defender, self.attacker, event.get("defense"))
            if isinstance(defense_stat, CompanionError):
                return defense_stat
            if self.resolved:
                return trial(state, event)
            if self.before is None:
                self.before = undefended_value(state)
            return _accepted(self.before - defense_value(defender, defense_stat), pending.points)
        except CompanionError as refused:
            return refused


# (target, points) -> the same ``Accepted``: a prompt's cards share a few values.
_accepted = lru_cache(maxsize=1024)(Accepted)


def _outcome(check: Callable[..., Any], *args: Any) -> Any:
    """What ``check(*args)`` gives, or the refusal it raises (kept, not raised)."""
    try:
        return check(*args)
    except CompanionError as refused:
        return refused


def _fundamental(state: State, event: dict[str, Any]) -> State | Accepted:
    check_fundamental(state, event)
    return NO_ROLL  # a counter window, a screen's foul die or the next card: no d20 yet


def _attack(state: State, event: dict[str, Any]) -> State | Accepted:
    hooper, stat, maluses = check_attack(state, event)
    return _attack_judged(state, event, hooper, stat, maluses)


def _attack_judged(state: State, event: dict[str, Any], hooper: Hooper, stat: Term,
                   maluses: tuple[Term, ...]) -> State | Accepted:
    """An attack past its checks: the d20 it leads to, or resolved in a playbook."""
    turn = _attack_turn(state)
    if turn.playbook is not None:
        return trial(state, event)  # a playbook's attack is rolled at once, or scores without a roll
    # The defense window's target (``shots.attack_target_now``, nobody defends yet): its value.
    bonuses = attack_bonuses(turn, hooper, maluses)
    return Accepted(Target.total(stat.value, bonuses), SHOT_POINTS[event["shot"]])


def _defend(state: State, event: dict[str, Any]) -> State | Accepted:
    defender, defense_stat = check_defense(state, event)
    if _defense_resolved(state.pending):
        return trial(state, event)
    return Accepted(target_if_defended(state, defender, defense_stat).value, state.pending.points)


def _defense_resolved(pending: Pending) -> bool:
    """A defense that must be resolved to know its roll: against a lay-up off a rebound, or once a
    foul bonus, a helper, a chip or an upgrade is on the attack."""
    return pending.action == "rebound_layup" or bool(pending.foul_bonus or pending.helper or pending.chip
                                                     or pending.upgrade is not None)


def _attack_turn(state: State) -> Turn:
    """The turn an attack is played in: a counter window still open closes first (its bonus counts)."""
    return _closed_turn(state) if state.pending.kind == "counter_window" else state.turn


def _let_through(state: State, event: dict[str, Any]) -> State | Accepted:
    check_no_defense(state)
    # The attack's target as it stands (nobody defends: ``shots.no_defense`` only moves the roll to
    # the attacker); a sure score is resolved at once, so that state is built.
    target = attack_target_now(state)
    if automatic(target):
        return trial(state, event)
    return Accepted(target.value, state.pending.points)


def _counter(state: State, event: dict[str, Any]) -> State | Accepted:
    # A plain counter only spends the counterer's energy (no stat reads it) and awaits its foul die
    # or its d20: the d20's target is the counterer's stat.
    counterer, _, stat, _ = check_counter(state, event)
    return Accepted(counter_target_of(counterer, stat).value, 0)


def _rebound(state: State, event: dict[str, Any]) -> State | Accepted:
    check_rebound(state, event)
    return NO_ROLL  # the rebounder's foul die comes first


def _substitution(state: State, event: dict[str, Any]) -> State | Accepted:
    if state.pending.kind != "play":
        return trial(state, event)  # a swap can move the target of a roll awaited (out of position)
    check_substitute(state, event)
    return NO_ROLL  # the swaps and the energy the bench gives back: the play step goes on


def _timeout(state: State, event: dict[str, Any]) -> State | Accepted:
    check_timeout(state)
    return NO_ROLL  # the opponent's share of the timeout is a decision, no roll


def _turn_over(check: Callable[[State], None]) -> Callable[[State, dict[str, Any]], State | Accepted]:
    """"end turn", "no counter", "no rebound": past their check the turn goes on with the next card
    or passes to the opponent (``turn_track.end_attacking_turn``), or the game ends: no roll."""

    def judged(state: State, event: dict[str, Any]) -> State | Accepted:
        check(state)
        return NO_ROLL

    return judged


def _refusals_first(check: Callable[[State, dict[str, Any]], object]) -> Callable[..., State | Accepted]:
    """A candidate whose accepted state the prompt needs (its odds): checked, then resolved."""

    def judged(state: State, event: dict[str, Any]) -> State | Accepted:
        check(state, event)
        return trial(state, event)

    return judged


# The turn once a counter window closes (its fundamental's bonus counts): shared by a prompt's attacks.
_closed_turn: Callable[[State], Turn] = by_identity(lambda state: close_counter_window(state).turn, size=8)

# A play step's cards: the fields of a plain one, the checks of the step (``judge_cards``).
_CARD_FIELDS = {"attack": frozenset({"type", "shot", "position"}),
                "fundamental": frozenset({"type", "action", "position"})}
_STEP_CHECKS: dict[str, Callable[[State], object]] = {"attack": check_attack_step,
                                                      "fundamental": check_fundamental_step}

_DEFEND_FIELDS = frozenset({"type", "hooper"})

# Command type: (the fields of a plain candidate, its judge).
_JUDGES: dict[str, tuple[frozenset[str], Callable[[State, dict[str, Any]], State | Accepted]]] = {
    "fundamental": (_CARD_FIELDS["fundamental"], _fundamental),
    "attack": (_CARD_FIELDS["attack"], _attack),
    "rebound": (frozenset({"type", "hooper"}), _rebound),
    "timeout": (frozenset({"type"}), _timeout),
    "substitute": (frozenset({"type", "side", "changes"}), _substitution),
    "end_turn": (frozenset({"type"}), _turn_over(check_end_turn)),
    "no_counter": (frozenset({"type"}), _turn_over(check_no_counter)),
    "no_rebound": (frozenset({"type"}), _turn_over(check_no_rebound)),
    "no_defense": (frozenset({"type"}), _let_through),
    "defend": (_DEFEND_FIELDS, _defend),
    "counter": (frozenset({"type", "hooper"}), _counter),
    "redeem": (frozenset({"type", "hooper"}), _refusals_first(check_redeem)),
}
