"""What the front ends show for BasketBoss: 2-5 managers' money, advisor, trophies and strength,
what to enter now, and the final victory points.

No view, scoreboard, prompt or event text shows a sealed bid before the round's last bid is in.
"""

from __future__ import annotations

from companion.frozen import by_identities, by_identity
from companion.game import JSON, Choice, Counter, Outcome, Prompt, ScoreboardView, Sealed, SideView
from companion.games.basketboss import team
from companion.games.basketboss.cards import card_json
from companion.games.basketboss.model import POSITIONS, SEASONS, Advisor, Manager, State
from companion.games.basketboss.rules import allowed

# A command changes a manager or two: the others keep their objects, so their team is not re-counted.
_strength = by_identity(team.strength)


def _players_json(manager: Manager) -> list[JSON]:
    return [card_json(c) | {"slot": i + 1, "injured": i in manager.injured}
            for i, c in enumerate(manager.slots)]


_players = by_identity(_players_json)


def victory_points(state: State, side: int) -> dict[str, int]:
    """Final strength + trophies and ribbons + 1 per $5 left."""
    return _victory_points(state.manager(side))


def _victory_points(manager: Manager) -> dict[str, int]:
    parts = {
        "strength": _strength(manager),
        "trophies": sum(manager.trophies) + manager.ribbons,
        "money": manager.money // 5,
    }
    return parts | {"total": sum(parts.values())}


def outcome(state: State) -> Outcome | None:
    if not state.final:
        return None
    totals = [victory_points(state, s)["total"] for s in range(state.count)]
    levels = sorted(set(totals), reverse=True)
    places = [[s for s in range(state.count) if totals[s] == level] for level in levels]
    best = places[0]
    names = " and ".join(state.names[s] for s in best)
    verb = "share first place" if len(best) > 1 else "wins"
    return Outcome.ranked(places, f"{names} {verb} with {levels[0]} victory points")


def _count_side_view(manager: Manager, active: bool) -> SideView:
    counters = (
        Counter("$", manager.money),
        Counter("T", sum(manager.trophies) + manager.ribbons),
        Counter("A", manager.advisor if manager.advisor is not None else "-"),
    )
    return SideView(manager.name, _strength(manager), counters=counters, active=active)


# A command changes a manager or two and moves the turn at most: the others' records are the ones built.
_side_view = by_identities(_count_side_view, size=16)


def scoreboard(state: State) -> ScoreboardView:
    acting = _acting(state)
    sides = [_side_view(manager, acting == side) for side, manager in enumerate(state.managers)]
    message = ""
    if state.sealed is not None:
        message = f"{len(state.sealed.bids)} of {len(state.sealed.bidders)} bids in"
    elif state.auction is not None:
        message = f"{state.auction.card.name} ${state.auction.high}"
    return ScoreboardView(
        game="basketboss",
        title="BasketBoss",
        sides=tuple(sides),
        period=f"S{state.season}",
        clock=state.phase[:8],
        possession=_acting(state),
        message=message,
        final=state.final,
    )


def _acting(state: State) -> int | None:
    if state.auction is not None:
        return state.auction.turn
    if state.placing is not None:
        return state.placing[0]
    if state.phase == "injury":
        return state.injury_loser
    if state.phase == "hire" and state.hire_order:
        return state.hire_order[0]
    return None


def _legal(state: State, candidates: list[tuple[str, JSON]]) -> tuple[Choice, ...]:
    # The rules' checks of each candidate (``rules.allowed``), not its events: what decide accepts.
    return tuple(Choice(label, command) for label, command in candidates if allowed(state, command))


def prompt(state: State) -> Prompt:  # noqa: C901 - one branch per phase
    names = state.names
    if state.final:
        return Prompt(side=None, text=outcome(state).reason if outcome(state) else "game over", commands=())
    if state.phase == "market":
        shown = {c.name for c in state.market if c is not None} | set(state.revealed)
        candidates = [
            (f"{c.name} ({c.position} {c.stars}*)", {"type": "reveal", "card": c.name})
            for c in state.deck
            if c.name not in shown
        ]
        candidates += [
            ("an injury card", {"type": "reveal", "injury": True}),
            ("market full: contracts", {"type": "market_done"}),
        ]
        text = (
            f"season {state.season}: fill the market, card {len(state.market) + 1} of "
            f"{state.market_size} (the limit on the scoreboard)"
        )
        if len(state.market) >= state.market_size:
            text = f"season {state.season}: the market is full ({state.market_size}): start the contracts"
        return Prompt(
            side=None, text=text, commands=("reveal", "market_done"), choices=_legal(state, candidates)
        )
    if state.phase == "contracts" and state.auction is not None:
        auction = state.auction
        side = auction.turn
        money = state.manager(side).money
        amounts = sorted({auction.high + step for step in (1, 2, 3, 5)} | {money})
        # Passing first: a brushed CONFIRM on the dial never spends a manager's money.
        candidates = [(f"{names[side]} passes", {"type": "pass", "side": side})]
        candidates += [(f"{names[side]} bids ${a}", {"type": "bid", "side": side, "amount": a})
                       for a in amounts]
        high = f"${auction.high} by {names[auction.leader]}" if auction.leader is not None else "no bid yet"
        return Prompt(
            side=side,
            text=f"{auction.card.name} ({auction.card.position}, {auction.card.stars} stars): "
            f"{high}; {names[side]} bids or passes (has ${money})",
            commands=("bid", "pass"),
            choices=_legal(state, candidates),
        )
    if state.phase == "place" and state.placing is not None:
        side, card = state.placing
        manager = state.manager(side)
        candidates = [
            (f"slot {i + 1}: over {manager.slots[i].name}", {"type": "place", "side": side, "slot": i + 1})
            for i in range(len(POSITIONS))
        ]
        return Prompt(
            side=side,
            text=f"{names[side]}: place {card.name} on the team board",
            commands=("place",),
            choices=_legal(state, candidates),
        )
    if state.phase == "injury" and state.injury_loser is not None:
        side = state.injury_loser
        manager = state.manager(side)
        candidates = [
            (f"injure {manager.slots[i].name}", {"type": "injure", "side": side, "slot": i + 1})
            for i in team.strongest(manager)
        ]
        return Prompt(
            side=side,
            text=f"{names[side]}: which of the strongest players is injured?",
            commands=("injure",),
            choices=_legal(state, candidates),
        )
    if state.phase in ("ties", "injury_bids") and state.sealed is not None:
        sealed = state.sealed
        entered = tuple(s for s, _ in sealed.bids)
        waiting = [s for s in sealed.bidders if s not in entered]
        what = "the trophy tie" if sealed.kind == "tie" else "the injury's medical bills"
        # No ready-made amounts: the pad (or the encoder's dial) asks for the secret value itself.
        return Prompt(
            side=waiting[0],
            text=f"sealed bids for {what}: {names[waiting[0]]} takes the screen "
            f"({len(entered)} of {len(sealed.bidders)} in)",
            commands=("sealed_bid",),
            sealed=Sealed(
                sealed.bidders,
                entered,
                "sealed_bid",
                "amount",
                0,
                {s: state.manager(s).money for s in sealed.bidders},
            ),
        )
    if state.phase == "strength":
        candidates: list[tuple[str, JSON]] = [("award the trophies", {"type": "award"})]
        for side in range(state.count):
            candidates += [
                (f"{names[side]} +1 (season card)", {"type": "adjust", "side": side, "strength": 1}),
                (f"{names[side]} -1 (season card)", {"type": "adjust", "side": side, "strength": -1}),
                (f"{names[side]} takes a ribbon", {"type": "ribbon", "side": side}),
            ]
        shown = ", ".join(f"{names[s]} {team.strength(state.manager(s))}" for s in range(state.count))
        return Prompt(
            side=None,
            text=f"season {state.season} strengths: {shown}; season card changes, then award",
            commands=("award", "adjust", "ribbon"),
            choices=_legal(state, candidates),
        )
    if state.phase == "hire" and state.hire_order:
        side = state.hire_order[0]
        candidates = [
            (f"{a.name} ({a.number})", {"type": "hire", "side": side, "advisor": a.number})
            for a in state.advisors
        ]
        return Prompt(
            side=side,
            text=f"{names[side]} hires an advisor",
            commands=("hire",),
            choices=_legal(state, candidates),
        )
    return Prompt(side=None, text=f"season {state.season}", commands=())


def _count_side_json(m: Manager, advisors: tuple[Advisor, ...]) -> JSON:
    return {
        "name": m.name,
        "money": m.money,
        "advisor": m.advisor,
        "advisor_name": next((a.name for a in advisors if a.number == m.advisor), None),
        "strength": _strength(m),
        "trophies": list(m.trophies),
        "ribbons": m.ribbons,
        "players": _players(m),
        "victory_points": _victory_points(m),
    }


# A manager's part of the view reads the manager and the advisors (set at setup): the managers a
# command left alone show the part already built (read-only, like every rendered snapshot).
_side_json = by_identities(_count_side_json, size=16)
_market_json = by_identity(lambda market: [None if c is None else card_json(c) for c in market], size=8)
_advisors_json = by_identity(lambda advisors: [{"number": a.number, "name": a.name} for a in advisors],
                             size=4)
_seasons_json = by_identity(lambda history: [{"season": season, "strengths": list(strengths),
                                              "ranking": list(ranking)}
                                             for season, strengths, ranking in history], size=8)


def view(state: State) -> JSON:
    sealed = state.sealed
    return {
        "season": state.season,
        "seasons": SEASONS,
        "phase": state.phase,
        "sides": [_side_json(m, state.advisors) for m in state.managers],
        "market": _market_json(state.market),
        "auctioned": state.auctioned,
        "auction": None
        if state.auction is None
        else {
            "card": card_json(state.auction.card),
            "high": state.auction.high,
            "leader": state.auction.leader,
            "turn": state.auction.turn,
            "passed": list(state.auction.passed),
        },
        # Who has bid, never how much, until the round's last bid reveals them all.
        "sealed": None
        if sealed is None
        else {"kind": sealed.kind, "bidders": list(sealed.bidders), "entered": [s for s, _ in sealed.bids]},
        "ranking": list(state.ranking),
        "hire_order": list(state.hire_order),
        "seasons_played": _seasons_json(state.history),
        "retired": list(state.retired),
        "advisors": _advisors_json(state.advisors),
        "trophy_values": list(state.trophy_values),
        "market_size": state.market_size,
    }
