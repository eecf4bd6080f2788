"""BasketBoss's rules: setup, ``decide`` and ``apply`` for six seasons of five phases.

>>> s = setup({"names": ["Blue", "Yellow"], "tallest": 0})
>>> [m.money for m in s.managers], s.manager(0).advisor
([9, 11], 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.commands import checked_once, spec_for
from companion.errors import CommandError, CompanionError, RuleError
from companion.frozen import by_identity, by_lower_name, replace
from companion.game import JSON
from companion.games.basketboss import team
from companion.games.basketboss.cards import card_json, parse_advisors, parse_card, parse_deck
from companion.games.basketboss.commands import COMMANDS
from companion.games.basketboss.model import (
    MAX_MANAGERS,
    MIN_MANAGERS,
    POSITIONS,
    REFEREE_FEE,
    SEASONS,
    START_MONEY,
    Advisor,
    Auction,
    Card,
    Manager,
    SealedRound,
    State,
    starter,
)

# Printed on the scoreboard, not in the rulebook: documented defaults, setup options to change.
DEFAULT_TROPHIES = {2: (10, 7), 3: (10, 7, 4), 4: (10, 7, 4, 2), 5: (10, 7, 4, 2)}
DEFAULT_MARKET = {2: 4, 3: 5, 4: 6, 5: 7}


def _int_list(raw: object, name: str) -> tuple[int, ...]:
    if not (
        isinstance(raw, list)
        and raw
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw)
    ):
        raise CommandError(f"{name} is a list of whole numbers, not {raw!r}")
    return tuple(raw)


def setup(options: Mapping[str, Any]) -> State:
    """Managers in seating order (clockwise), the tallest takes the Referee; the table's own data."""
    known = {"names", "sides", "tallest", "deck", "advisors", "trophies", "market_size"}
    unknown = set(options) - known
    if unknown:
        raise CommandError(
            f"BasketBoss has no setup option {sorted(unknown)[0]!r}; it knows " f"{', '.join(sorted(known))}"
        )
    names = options.get("names", ["Blue", "Yellow", "Purple"])
    if isinstance(options.get("sides"), list):  # the kiosk's form: one object per manager
        names = [s.get("name") if isinstance(s, Mapping) else s for s in options["sides"]]
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise CommandError('names are the managers in seating order (clockwise), e.g. ["Blue", "Yellow"]')
    if not MIN_MANAGERS <= len(names) <= MAX_MANAGERS:
        raise CommandError(f"BasketBoss is for {MIN_MANAGERS} to {MAX_MANAGERS} managers, not {len(names)}")
    if len({n.strip().lower() for n in names}) != len(names):
        raise CommandError("each manager needs a different name")
    tallest = options.get("tallest", 0)
    if isinstance(tallest, bool) or not isinstance(tallest, int) or not 0 <= tallest < len(names):
        raise CommandError(
            f"tallest is the seat (0 to {len(names) - 1}) of the tallest manager, not {tallest!r}"
        )
    advisors = parse_advisors(options.get("advisors"))
    referee = advisors[0].number  # the lowest number: the Referee starts the first season
    therapist = next((a.number for a in advisors if "therap" in a.name.lower()), None)
    count = len(names)
    trophies = (
        _int_list(options["trophies"], "trophies") if "trophies" in options else DEFAULT_TROPHIES[count]
    )
    market = options.get("market_size", DEFAULT_MARKET[count])
    if isinstance(market, bool) or not isinstance(market, int) or not 1 <= market <= 12:
        raise CommandError(f"market_size is 1 to 12 cards, not {market!r}")
    board = tuple(starter(p) for p in POSITIONS)
    managers = tuple(Manager(n.strip()[:16], START_MONEY, board) for n in names)
    # "Give the Referee Advisor card to the tallest Manager. They return $2m to the supply."
    managers = tuple(
        replace(m, advisor=referee, money=m.money - REFEREE_FEE) if i == tallest else m
        for i, m in enumerate(managers)
    )
    return State(managers, advisors, trophies, market, parse_deck(options.get("deck")), referee, therapist)


# -- decide ----------------------------------------------------------------------------------------


def decide(state: State, command: Mapping[str, Any]) -> list[JSON]:
    if not isinstance(command, Mapping):
        raise CommandError("a command is a JSON object with a type")
    checked = spec_for(COMMANDS, command.get("type"), "BasketBoss").from_json(command)
    _check_any(state, checked)
    return _HANDLERS[checked["type"]](state, checked)


def _check_any(state: State, checked: JSON) -> None:
    """What ``decide`` refuses whatever the kind: a finished game, a seat nobody sits in."""
    if state.final:
        raise RuleError("the game is over: undo to change the result, or start a new game")
    side = checked.get("side")
    if side is not None and side >= state.count:
        raise CommandError(f"side must be 0 to {state.count - 1} (the managers' seats), not {side}")


def allowed(state: State, command: Mapping[str, Any]) -> bool:
    """Whether ``decide`` accepts ``command`` now: its kind's checks alone (``CHECKS``: every refusal
    of its handler, which calls the same function first), without building its events and folding
    them; a kind without checks is decided. The prompt asks this of each candidate it offers."""
    try:
        checked = _parsed(command)
        _check_any(state, checked)
        check = CHECKS.get(checked["type"])
        if check is None:
            _HANDLERS[checked["type"]](state, checked)
        else:
            check(state, checked)
    except CompanionError:
        return False
    return True


def _phase(state: State, *allowed: str) -> None:
    if state.phase not in allowed:
        raise RuleError(WAITING[state.phase](state))


WAITING = {
    "market": lambda s: f"season {s.season} starts by filling the market "
                        f"({len(s.market)} of {s.market_size})",
    "contracts": lambda s: "a contract auction is on: bid or pass in turn",
    "place": lambda s: f"{s.names[s.placing[0]] if s.placing else ''} places the signed player on the team",
    "injury": lambda s: "the injured manager chooses which of their strongest players is injured",
    "strength": lambda s: "team strengths are set: enter season card changes, then award the trophies",
    "ties": lambda s: "tied teams bid sealed for the trophy order",
    "injury_bids": lambda s: "everyone bids sealed for the medical bills of the injury",
    "hire": lambda s: f"hire advisors in reverse strength order: {s.names[s.hire_order[0]]} next",
    "final": lambda s: "the game is over",
}


def _lowest_advisor(state: State) -> int:
    held = [(m.advisor, side) for side, m in enumerate(state.managers) if m.advisor is not None]
    return min(held)[1] if held else 0


def _revealed_card(state: State, command: JSON) -> Card | None:
    """The card ``reveal`` puts in the market (None: an injury card), or the error: every check of it."""
    _phase(state, "market")
    if len(state.market) >= state.market_size:
        raise RuleError(f"the market is full: {state.market_size} cards is the limit for {state.count} "
                        "managers; start the contracts")
    if command.get("injury"):
        if state.season == 1:
            raise RuleError(
                "in the first season an injury card is not put in the market: draw a "
                "replacement and shuffle the injury back into the deck"
            )
        return None
    raw = command.get("card")
    if isinstance(raw, str):
        card = _deck_by_name(state.deck).get(raw.strip().lower())
        if card is None:
            raise CommandError(
                f"no player card called {raw!r} in the deck; enter it as an object "
                "(name, position, income, rows) or check the name"
            )
    else:
        card = parse_card(raw)
    if card.name in state.revealed:
        raise RuleError(f"{card.name} has already come up in this game")
    return card


# The deck is set at setup and shared by every state: the market prompt looks up each of its cards.
_deck_by_name = by_identity(by_lower_name, size=8)


def _reveal(state: State, command: JSON) -> list[JSON]:
    card = _revealed_card(state, command)
    if card is None:
        return [{"type": "revealed", "card": None, "text": "an injury card comes up: medical bills for all"}]
    return [
        {
            "type": "revealed",
            "card": card_json(card) | {"rows": list(card.rows)},
            "text": f"market: {card.name} ({card.position}, {card.stars} stars, ${card.income} income)",
        }
    ]


def _check_market_done(state: State, command: JSON) -> None:
    _phase(state, "market")


def _market_done(state: State, command: JSON) -> list[JSON]:
    _check_market_done(state, command)
    closed: JSON = {"type": "market_closed", "text": f"the market holds {len(state.market)} cards: contracts"}
    return [closed] + _next_auction(_fold(state, [closed]))


def _next_auction(after: State) -> list[JSON]:
    """The next market card goes up (or, with none left, the strengths are set)."""
    if after.auctioned >= len(after.market):
        return [{"type": "contracts_over", "text": "every contract is settled: team strengths"}]
    card = after.market[after.auctioned]
    if card is None:
        therapist = after.holder(after.therapist)
        bidders = [s for s in range(after.count) if s != therapist]
        note = (
            f" ({after.names[therapist]} holds the Physical Therapist and does not bid)"
            if therapist is not None
            else ""
        )
        return [
            {
                "type": "injury_auction",
                "bidders": bidders,
                "text": f"injury: everyone bids sealed for the medical bills{note}",
            }
        ]
    first = _lowest_advisor(after)
    return [
        {
            "type": "auction_opened",
            "turn": first,
            "text": f"{card.name} is up: {after.names[first]} bids first",
        }
    ]


def _check_bid(state: State, command: JSON) -> None:
    _phase(state, "contracts")
    auction = state.auction
    assert auction is not None
    side, amount = command["side"], command["amount"]
    if side in auction.passed:
        raise RuleError(
            f"{state.names[side]} has passed on {auction.card.name}: after passing, a manager may "
            "not reenter"
        )
    if side != auction.turn:
        raise RuleError(f"it is {state.names[auction.turn]}'s turn to bid or pass")
    if amount <= auction.high:
        raise RuleError(
            f"a bid must beat ${auction.high}"
            if auction.leader is not None
            else "an opening bid is at least $1"
        )
    money = state.manager(side).money
    if amount > money:
        raise RuleError(f"{state.names[side]} has ${money}: a bid of ${amount} is more than the money held")


def _bid(state: State, command: JSON) -> list[JSON]:
    _check_bid(state, command)
    auction = state.auction
    assert auction is not None
    side, amount = command["side"], command["amount"]
    events: list[JSON] = [
        {
            "type": "bid",
            "side": side,
            "amount": amount,
            "text": f"{state.names[side]} offers ${amount} for {auction.card.name}",
        }
    ]
    return events + _after_turn(state, events)


def _check_pass(state: State, command: JSON) -> None:
    _phase(state, "contracts")
    auction = state.auction
    assert auction is not None
    if command["side"] != auction.turn:
        raise RuleError(f"it is {state.names[auction.turn]}'s turn to bid or pass")


def _pass(state: State, command: JSON) -> list[JSON]:
    _check_pass(state, command)
    auction = state.auction
    assert auction is not None
    side = command["side"]
    events: list[JSON] = [
        {"type": "passed", "side": side, "text": f"{state.names[side]} passes on " f"{auction.card.name}"}
    ]
    return events + _after_turn(state, events)


def _after_turn(state: State, events: list[JSON]) -> list[JSON]:
    after = _fold(state, events)
    auction = after.auction
    assert auction is not None
    active = [s for s in range(after.count) if s not in auction.passed]
    if not active:
        unsold: JSON = {"type": "unsold", "text": f"everyone passes: {auction.card.name} returns to the box"}
        return [unsold] + _next_auction(_fold(after, [unsold]))
    if auction.leader is not None and active == [auction.leader]:
        won: JSON = {
            "type": "signed",
            "side": auction.leader,
            "amount": auction.high,
            "text": f"{after.names[auction.leader]} signs {auction.card.name} for ${auction.high}",
        }
        return [won]
    turn = auction.turn
    for step in range(1, after.count + 1):  # "The next Manager to their left"
        candidate = (turn + step) % after.count
        if candidate in active:
            return [{"type": "turn", "turn": candidate}]
    return []  # pragma: no cover - active is never empty here


def _check_place(state: State, command: JSON) -> None:
    _phase(state, "place")
    assert state.placing is not None
    side, _ = state.placing
    if command["side"] != side:
        raise RuleError(f"{state.names[side]} places the player they signed")
    if not 0 <= command["slot"] - 1 < len(POSITIONS):
        raise CommandError(
            f"slot is 1 to {len(POSITIONS)} (the team board's five places), not {command['slot']}"
        )


def _place(state: State, command: JSON) -> list[JSON]:
    _check_place(state, command)
    assert state.placing is not None
    side, card = state.placing
    slot = command["slot"] - 1
    covered = state.manager(side).slots[slot]
    healed = slot in state.manager(side).injured
    text = f"{state.names[side]} puts {card.name} over {covered.name}" + (
        " (the injury goes with it)" if healed else ""
    )
    placed: JSON = {"type": "placed", "side": side, "slot": slot, "text": text}
    return [placed] + _next_auction(_fold(state, [placed]))


def _sealed_bid(state: State, command: JSON) -> list[JSON]:
    _phase(state, "ties", "injury_bids")
    sealed = state.sealed
    assert sealed is not None
    side, amount = command["side"], command["amount"]
    if side not in sealed.bidders:
        why = (
            "holds the Physical Therapist and does not bid for injuries"
            if sealed.kind == "injury"
            else "is not in this tie"
        )
        raise RuleError(f"{state.names[side]} {why}")
    if any(s == side for s, _ in sealed.bids):
        raise RuleError(f"{state.names[side]} has already bid")
    money = state.manager(side).money
    if not 0 <= amount <= money:
        raise RuleError(f"{state.names[side]} can bid $0 to ${money} (the money held)")
    event: JSON = {
        "type": "sealed_bid",
        "side": side,
        "amount": amount,
        "text": f"{state.names[side]} has bid",  # never a number: the log must not hint at the amount
    }
    if len(sealed.bids) + 1 < len(sealed.bidders):
        return [event]
    event["reveals"] = True  # the last bid opens every hand at once
    bids = dict((*sealed.bids, (side, amount)))
    shown = ", ".join(f"{state.names[s]} ${bids[s]}" for s in sealed.bidders)
    reveal: JSON = {
        "type": "bids_revealed",
        "bids": [[s, bids[s]] for s in sealed.bidders],
        "text": f"bids revealed: {shown}",
    }
    events = [event, reveal]
    if sealed.kind == "injury":
        return events + _injury_result(state, bids, events)
    return events + _tie_result(state, bids, events)


def _injury_result(state: State, bids: dict[int, int], events: list[JSON]) -> list[JSON]:
    """ "The Manager with the lowest bid takes the injury card (if tied, higher advisor card takes it)"."""
    lowest = min(bids.values())
    tied = [s for s, b in bids.items() if b == lowest]
    loser = max(tied, key=lambda s: state.manager(s).advisor or 0)
    after = _fold(state, events)
    manager = after.manager(loser)
    strongest = team.strongest(manager)
    out: list[JSON] = [
        {
            "type": "injury_paid",
            "loser": loser,
            "text": f"every bid goes to the supply; {state.names[loser]} bid least and takes the injury",
        }
    ]
    if len(strongest) == 1:
        out += _injure(_fold(after, out), loser, strongest[0])
    else:
        out.append(
            {
                "type": "injury_choice",
                "side": loser,
                "text": f"{state.names[loser]}'s strongest players tie: the manager chooses who is injured",
            }
        )
    return out


def _injure(state: State, side: int, slot: int) -> list[JSON]:
    injured: JSON = {
        "type": "injured",
        "side": side,
        "slot": slot,
        "text": f"{state.manager(side).slots[slot].name} of {state.names[side]} is injured this season",
    }
    return [injured] + _next_auction(_fold(state, [injured]))


def _check_injure(state: State, command: JSON) -> None:
    _phase(state, "injury")
    side = state.injury_loser
    assert side is not None
    if command["side"] != side:
        raise RuleError(f"{state.names[side]} chooses which of their players is injured")
    if command["slot"] - 1 not in team.strongest(state.manager(side)):
        raise RuleError("the injury covers one of the team's strongest players this season")


def _choose_injured(state: State, command: JSON) -> list[JSON]:
    _check_injure(state, command)
    side = state.injury_loser
    assert side is not None
    return _injure(state, side, command["slot"] - 1)


def _check_adjust(state: State, command: JSON) -> None:
    _phase(state, "strength")
    change = command["strength"]
    if not -20 <= change <= 20:
        raise CommandError(f"a season card changes a strength by -20 to 20, not {change}")


def _adjust(state: State, command: JSON) -> list[JSON]:
    _check_adjust(state, command)
    side, change = command["side"], command["strength"]
    note = command.get("note") or "the season card"
    return [
        {
            "type": "adjusted",
            "side": side,
            "strength": change,
            "text": f"{state.names[side]} {change:+d} strength ({note})",
        }
    ]


def _check_ribbon(state: State, command: JSON) -> None:
    _phase(state, "strength", "market", "hire")
    given = sum(m.ribbons for m in state.managers)
    if given >= 5:
        raise RuleError("all 5 one-point ribbons are given out")


def _ribbon(state: State, command: JSON) -> list[JSON]:
    _check_ribbon(state, command)
    return [
        {"type": "ribbon", "side": command["side"], "text": f"{state.names[command['side']]} takes a ribbon"}
    ]


def _check_award(state: State, command: JSON) -> None:
    _phase(state, "strength")


def _award(state: State, command: JSON) -> list[JSON]:
    _check_award(state, command)
    strengths = [team.strength(m) for m in state.managers]
    levels = sorted(set(strengths), reverse=True)
    groups = [[s for s in range(state.count) if strengths[s] == level] for level in levels]
    shown = ", ".join(f"{n} {v}" for n, v in zip(state.names, strengths, strict=True))
    events: list[JSON] = [
        {"type": "strengths", "strengths": strengths, "groups": groups, "text": f"team strengths: {shown}"}
    ]
    return events + _rank_groups(_fold(state, events), events)


def _rank_groups(state: State, events: list[JSON]) -> list[JSON]:
    """Rank the strength groups best first; a tie asks for sealed bids, or ends with the trophies."""
    out: list[JSON] = []
    groups = [list(g) for g in state.groups]
    while groups:
        group = groups[0]
        if len(group) == 1:
            out.append({"type": "ranked", "side": group[0], "text": ""})
            groups = groups[1:]
            continue
        referee = state.holder(state.referee)
        if referee in group:  # "a tied Referee holder wins outright"
            out.append(
                {
                    "type": "ranked",
                    "side": referee,
                    "text": f"{state.names[referee]} holds the Referee and wins the tie",
                }
            )
            groups[0] = [s for s in group if s != referee]
            continue
        names = " and ".join(state.names[s] for s in group)
        out.append({"type": "tie_auction", "bidders": group, "text": f"{names} are tied: sealed bids"})
        return out
    return out + _trophies(_fold(state, out))


def _tie_result(state: State, bids: dict[int, int], events: list[JSON]) -> list[JSON]:
    """The highest bid wins the tie and pays half (rounded up) to the Referee holder, half to the supply."""
    top = max(bids.values())
    tied = [s for s, b in bids.items() if b == top]
    if len(tied) > 1:
        if state.season == 1:  # "the player clockwise closest to the referee wins ties"
            referee = state.holder(state.referee) or 0
            winner = min(tied, key=lambda s: (s - referee) % state.count)
            why = "clockwise closest to the Referee"
        else:  # "the player with the lower advisor number is the winner"
            winner = min(tied, key=lambda s: state.manager(s).advisor or 99)
            why = "the lower advisor number"
    else:
        winner, why = tied[0], "the highest bid"
    referee = state.holder(state.referee)
    up = (top + 1) // 2 if referee is not None else 0
    out: list[JSON] = [
        {
            "type": "tie_won",
            "side": winner,
            "amount": top,
            "to_referee": up,
            "referee": referee,
            "text": f"{state.names[winner]} wins the tie ({why}) and pays ${top}: "
            + (
                f"${up} to {state.names[referee]} (Referee), ${top - up} to the supply"
                if referee is not None
                else "all to the supply"
            ),
        }
    ]
    after = _fold(state, events + out)
    return out + _rank_groups(after, events + out)


def _trophies(state: State) -> list[JSON]:
    awards = list(zip(state.ranking, state.trophy_values, strict=False))
    shown = ", ".join(f"{state.names[s]} {v}" for s, v in awards)
    out: list[JSON] = [
        {
            "type": "trophies",
            "awards": [[s, v] for s, v in awards],
            "text": f"season {state.season} trophies: {shown}",
        }
    ]
    after = _fold(state, out)
    if after.season == SEASONS:
        return out + _season_end(after, final=True)
    order = list(reversed(after.ranking))  # lowest strength first; a tie: the lower in the stack first
    return out + [
        {"type": "hiring", "order": order, "text": f"advisors return; {after.names[order[0]]} hires first"}
    ]


def _hired_advisor(state: State, command: JSON) -> Advisor:
    """The advisor ``hire`` gives, or the error: every check of it."""
    _phase(state, "hire")
    side = state.hire_order[0]
    if command["side"] != side:
        raise RuleError(f"{state.names[side]} hires next (reverse strength order)")
    number = command["advisor"]
    advisor = next((a for a in state.advisors if a.number == number), None)
    if advisor is None:
        raise CommandError(
            f"no advisor number {number}; they are " f"{', '.join(str(a.number) for a in state.advisors)}"
        )
    if state.holder(number) is not None:
        raise RuleError(f"{advisor.name} is taken by {state.names[state.holder(number) or 0]}")
    return advisor


def _hire(state: State, command: JSON) -> list[JSON]:
    advisor = _hired_advisor(state, command)
    side, number = state.hire_order[0], command["advisor"]
    events: list[JSON] = [
        {
            "type": "hired",
            "side": side,
            "advisor": number,
            "text": f"{state.names[side]} hires {advisor.name} ({number})",
        }
    ]
    if len(state.hire_order) > 1:
        return events
    return events + _season_end(_fold(state, events), final=False)


def _season_end(state: State, final: bool) -> list[JSON]:
    """Income (not in season 6), then age players; season 6 ends the game after the last aging."""
    out: list[JSON] = []
    if not final:
        earned = [team.income(m) for m in state.managers]
        out.append(
            {
                "type": "income",
                "earned": earned,
                "text": "income: " + ", ".join(f"{n} ${e}" for n, e in zip(state.names, earned, strict=True)),
            }
        )
    out.append(
        {
            "type": "aged",
            "text": "players age one row; injuries heal" + ("; the final strength" if final else ""),
        }
    )
    if final:
        out.append({"type": "game_over", "text": "the game is over: victory points"})
    return out


def _spec_checked(command: Mapping[str, Any]) -> JSON:
    return spec_for(COMMANDS, command.get("type"), "BasketBoss").from_json(command)


# The prompts offer the same few commands again and again (a pass, a bid of one more dollar, a
# slot): ``decide``'s checked form of each, counted once; read-only: ``allowed`` only reads what it
# checks.
_parsed = checked_once(_spec_checked)


# Each kind's checks: every refusal of its handler (which calls the same function first; nothing
# after it refuses), so the prompt asks its candidates these instead of deciding them. None: decided.
CHECKS: dict[str, Callable[[State, JSON], object] | None] = {
    "reveal": _revealed_card,
    "market_done": _check_market_done,
    "bid": _check_bid,
    "pass": _check_pass,
    "place": _check_place,
    "sealed_bid": None,
    "injure": _check_injure,
    "adjust": _check_adjust,
    "ribbon": _check_ribbon,
    "award": _check_award,
    "hire": _hired_advisor,
}

_HANDLERS = {
    "reveal": _reveal,
    "market_done": _market_done,
    "bid": _bid,
    "pass": _pass,
    "place": _place,
    "sealed_bid": _sealed_bid,
    "injure": _choose_injured,
    "adjust": _adjust,
    "ribbon": _ribbon,
    "award": _award,
    "hire": _hire,
}


# -- apply -------------------------------------------------------------------------------------


def _fold(state: State, events: list[JSON]) -> State:
    for event in events:
        state = apply(state, event)
    return state


def _money(state: State, side: int, change: int) -> State:
    return state.with_manager(side, money=state.manager(side).money + change)


def apply(state: State, event: JSON) -> State:  # noqa: C901 - one branch per event type
    kind = event["type"]
    if kind == "revealed":
        raw = event["card"]
        card = None if raw is None else Card(raw["name"], raw["position"], raw["income"], tuple(raw["rows"]))
        state = replace(
            state, market=state.market + (card,), revealed=state.revealed + ((card.name,) if card else ())
        )
        return state
    if kind == "market_closed":
        return replace(state, phase="contracts", auctioned=0)
    if kind == "auction_opened":
        card = state.market[state.auctioned]
        assert card is not None
        return replace(state, phase="contracts", auction=Auction(card, event["turn"]))
    if kind == "bid":
        assert state.auction is not None
        return replace(state, auction=replace(state.auction, high=event["amount"], leader=event["side"]))
    if kind == "passed":
        assert state.auction is not None
        return replace(state, auction=replace(state.auction, passed=state.auction.passed + (event["side"],)))
    if kind == "turn":
        assert state.auction is not None
        return replace(state, auction=replace(state.auction, turn=event["turn"]))
    if kind == "unsold":
        return replace(state, auction=None, auctioned=state.auctioned + 1)
    if kind == "signed":
        assert state.auction is not None
        state = _money(state, event["side"], -event["amount"])
        return replace(state, phase="place", placing=(event["side"], state.auction.card), auction=None)
    if kind == "placed":
        assert state.placing is not None
        side, card = state.placing
        manager = state.manager(side)
        slots = list(manager.slots)
        slots[event["slot"]] = card
        injured = tuple(i for i in manager.injured if i != event["slot"])
        state = state.with_manager(
            side, slots=tuple(slots), injured=injured, signed=manager.signed + (card.name,)
        )
        return replace(state, placing=None, phase="contracts", auctioned=state.auctioned + 1)
    if kind == "injury_auction":
        return replace(state, phase="injury_bids", sealed=SealedRound("injury", tuple(event["bidders"])))
    if kind == "tie_auction":
        return replace(state, phase="ties", sealed=SealedRound("tie", tuple(event["bidders"])))
    if kind == "sealed_bid":
        assert state.sealed is not None
        return replace(
            state, sealed=replace(state.sealed, bids=state.sealed.bids + ((event["side"], event["amount"]),))
        )
    if kind == "bids_revealed":
        if state.sealed is not None and state.sealed.kind == "injury":
            for side, amount in event["bids"]:  # "All Managers discard their bids to the supply"
                state = _money(state, side, -amount)
        return replace(state, sealed=None)
    if kind == "injury_paid":
        return replace(state, phase="injury", injury_loser=event["loser"])
    if kind == "injury_choice":
        return replace(state, phase="injury", injury_loser=event["side"])
    if kind == "injured":
        manager = state.manager(event["side"])
        state = state.with_manager(event["side"], injured=manager.injured + (event["slot"],))
        return replace(state, phase="contracts", injury_loser=None, auctioned=state.auctioned + 1)
    if kind == "contracts_over":
        return replace(state, phase="strength", auction=None)
    if kind == "adjusted":
        manager = state.manager(event["side"])
        return state.with_manager(event["side"], adjust=manager.adjust + event["strength"])
    if kind == "ribbon":
        return state.with_manager(event["side"], ribbons=state.manager(event["side"]).ribbons + 1)
    if kind == "strengths":
        return replace(
            state,
            ranking=(),
            groups=tuple(tuple(g) for g in event["groups"]),
            history=state.history + ((state.season, tuple(event["strengths"]), ()),),
        )
    if kind == "ranked":
        return _rank(state, event["side"])
    if kind == "tie_won":
        state = _money(state, event["side"], -event["amount"])
        if event["referee"] is not None:
            state = _money(state, event["referee"], event["to_referee"])
        return replace(_rank(state, event["side"]), phase="strength")
    if kind == "trophies":
        for side, value in event["awards"]:
            state = state.with_manager(side, trophies=state.manager(side).trophies + (value,))
        season, strengths, _ = state.history[-1]
        return replace(state, history=state.history[:-1] + ((season, strengths, state.ranking),))
    if kind == "hiring":
        managers = tuple(replace(m, advisor=None) for m in state.managers)  # "Return all advisors"
        return replace(state, managers=managers, phase="hire", hire_order=tuple(event["order"]))
    if kind == "hired":
        state = state.with_manager(event["side"], advisor=event["advisor"])
        return replace(state, hire_order=state.hire_order[1:])
    if kind == "income":
        for side, earned in enumerate(event["earned"]):
            state = _money(state, side, earned)
        return state
    if kind == "aged":
        managers, retired = [], list(state.retired)
        for manager in state.managers:
            older, gone = team.age(manager)
            managers.append(older)
            retired += gone
        state = replace(state, managers=tuple(managers), retired=tuple(retired))
        if state.season == SEASONS:
            return state
        return replace(
            state,
            season=state.season + 1,
            phase="market",
            market=(),
            auctioned=0,
            ranking=(),
            groups=(),
            hire_order=(),
        )
    if kind == "game_over":
        return replace(state, phase="final", final=True)
    raise ValueError(f"unknown BasketBoss event {kind!r}")


def _rank(state: State, side: int) -> State:
    groups = [tuple(s for s in g if s != side) for g in state.groups]
    return replace(state, ranking=state.ranking + (side,), groups=tuple(g for g in groups if g))


def run(state: State, command: Mapping[str, Any]) -> State:
    return _fold(state, decide(state, command))
