"""The Series: a best of seven, a game of games in one log (setup option ``"variant": "series"``).

"During "The Series" the players will compete to win four out of seven games. They will alternate
each other by playing in the home court and in the away court: Home Home Away Away Home Away Home"
(from the side of the tribe chosen HOME for game 1). A ``SeriesState`` holds the game on the table
(a Valley Hoopers ``State`` carrying its ``SeriesGame``), the results of the games played, and the
phase between games: the reward checklist, then the next game's setup (``next_game``).

>>> [home_side(n, first_home=0) for n in range(1, 8)]
[0, 0, 1, 1, 0, 1, 0]
>>> series_winner((4, 0)), series_winner((3, 3))
(0, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import CommandError, RuleError
from companion.games.valley_hoopers import setup_options
from companion.games.valley_hoopers.commands import normalize
from companion.games.valley_hoopers.gameplans import milestones_met
from companion.games.valley_hoopers.model import FLAT, POSITIONS, SeriesGame, State, other
from companion.games.valley_hoopers.series_game import CONDITIONS
from companion.games.valley_hoopers.series_lineups import side_without
from companion.games.valley_hoopers.series_plan import Plan, add_sleeve, eligible, merged_sleeves, with_susan
from companion.games.valley_hoopers.series_rewards import SideReward, game_rewards
from companion.games.valley_hoopers.series_upgrades import (
    check_cards,
    check_deck,
    sleeve,
    take_action_card,
    take_positions,
    worn,
)

COURT_PATTERN = ("home", "home", "away", "away", "home", "away", "home")
WINS_NEEDED = 4
# "The player sets three hooper's Position token of his/her choice on the first step of the hot
# zone"; Away "sets two ... on the first step of the cold zone". Defaults when the table names none.
DEFAULT_HOT = ("PG", "SG", "SF")
DEFAULT_COLD = ("PF", "C")
PLANNING = ("sleeve", "susan_peg")
BETWEEN_GAMES = ("gameplan_result", "reward", "next_game", *PLANNING)
SUSAN_PEG = "susan peg"


def home_side(number: int, first_home: int) -> int:
    """The side playing at Home in game ``number`` (1-7) when ``first_home`` is Home in game 1."""
    return first_home if COURT_PATTERN[number - 1] == "home" else other(first_home)


def series_winner(wins: tuple[int, int]) -> int | None:
    """The side with four wins, if any: the series is over then (a 4-0 ends after game 4)."""
    return next((side for side in (0, 1) if wins[side] >= WINS_NEEDED), None)


@dataclass(frozen=True)
class GameResult:
    """One finished game of the series and what the next game inherits from it."""

    number: int
    home: int
    score: tuple[int, int]
    winner: int
    periods: tuple[tuple[int, int], ...]
    milestones: tuple[int | None, ...]
    fourth_period_winner: int | None
    track_face: int
    chips_left: tuple[tuple[int, int], tuple[int, int]]
    gameplans_met: tuple[int | None, int | None]
    injured: tuple[tuple[str, ...], tuple[str, ...]]
    ejected: tuple[tuple[str, ...], tuple[str, ...]]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.number, "home": self.home, "score": list(self.score), "winner": self.winner,
                "periods": [list(p) for p in self.periods], "milestones": list(self.milestones),
                "fourth_period_winner": self.fourth_period_winner, "track_card_to": self.track_face,
                "chips_left": [list(c) for c in self.chips_left], "gameplans_met": list(self.gameplans_met),
                "injured": [list(i) for i in self.injured], "ejected": [list(e) for e in self.ejected]}


@dataclass(frozen=True)
class RewardPhase:
    """The reward phase of the last game: gameplan milestones met (``None``: the table still has to
    tell), the checklist items ticked."""

    gameplan_met: tuple[int | None, int | None]
    done: tuple[str, ...] = ()
    named: tuple[tuple[str, str], ...] = ()  # (item, card) named so far, for items of several cards

    def rewards(self, result: GameResult) -> tuple[SideReward, SideReward] | None:
        if None in self.gameplan_met:
            return None
        met = (int(self.gameplan_met[0] or 0), int(self.gameplan_met[1] or 0))
        return game_rewards(result.score, result.track_face, result.chips_left, met, result.milestones,
                            result.fourth_period_winner)


@dataclass(frozen=True)
class SeriesState:
    """The whole series: options that stay, the game on the table, the results, the phase between games."""

    first_home: int
    foul_die_blanks: int
    track_steps: int
    chip_stock: tuple[int, int]
    side_options: tuple[Any, Any]
    game: State
    results: tuple[GameResult, ...] = ()
    phase: str = "game"  # game, reward, next_game, over
    reward: RewardPhase | None = None
    message: str = ""
    upgrades: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # hooper upgrade cards each side holds
    action_held: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # action upgrade cards each side holds
    positions_held: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # position upgrade cards
    action_cards: Any = None  # the table's entered action upgrade cards (setup option action_upgrade_cards)
    plan: Plan = Plan()  # the next game prepared tap by tap (series_plan.py)

    @property
    def number(self) -> int:
        """The game on the table (or just finished)."""
        return self.game.series.number if self.game.series is not None else len(self.results) + 1

    @property
    def next_number(self) -> int:
        """The game the next ``next_game`` sets up: one more than the games played."""
        return len(self.results) + 1

    @property
    def wins(self) -> tuple[int, int]:
        return (sum(1 for r in self.results if r.winner == 0), sum(1 for r in self.results if r.winner == 1))

    @property
    def names(self) -> tuple[str, str]:
        return (self.game.sides[0].name, self.game.sides[1].name)

    def last(self) -> GameResult | None:
        return self.results[-1] if self.results else None


def suggested_sides(series: SeriesState) -> tuple[list[Any] | None, str]:
    """The next game's sides when the last game's ejected hoopers are in a seven: ``[side or None]``
    (``None`` keeps a side) and the words, or ``(None, why)`` when no seven can be made up."""
    last = series.last()
    sides: list[Any] = [None, None]
    words = []
    for side in (0, 1):
        ejected = last.ejected[side] if last is not None else ()
        names = {n.lower() for n in _hooper_names(series.side_options[side])}
        leaving = tuple(n for n in ejected if n.lower() in names)
        if not leaving:
            continue
        found = side_without(series.side_options[side], leaving)
        if found is None:
            return None, f"{series.names[side]} needs another seven ({', '.join(leaving)} misses this game)"
        sides[side], change = found
        words.append(change)
    return (sides if any(s is not None for s in sides) else None), "; ".join(words)


def _hooper_names(raw_side: Any) -> list[str]:
    hoopers = raw_side.get("hoopers") if isinstance(raw_side, Mapping) else None
    names = []
    for entry in hoopers if isinstance(hoopers, list) else []:
        name = entry if isinstance(entry, str) else entry.get("name") if isinstance(entry, Mapping) else None
        if isinstance(name, str):
            names.append(name.strip())
    return names


def susan_peg_side(wins: tuple[int, int], number: int) -> int | None:
    """The side that may deploy Susan Peg in game ``number``: "If a player is going to begin a game that
    worths for the victory of the series before Game 7, the opponent will gain the favors of Susan Peg".

    >>> [susan_peg_side(wins, game) for wins, game in (((3, 1), 5), ((2, 3), 6), ((3, 3), 7), ((2, 2), 5))]
    [1, 0, None, None]
    """
    if number >= 7:
        return None
    facing = [side for side in (0, 1) if wins[other(side)] == WINS_NEEDED - 1]
    return facing[0] if len(facing) == 1 else None


def _positions(raw: Any, default: tuple[str, ...], count: int, what: str) -> tuple[str, ...]:
    if raw is None:
        return default
    if not isinstance(raw, list | tuple) or len(raw) != count or len(set(raw)) != count:
        raise CommandError(f"{what} names {count} different positions of the starting five")
    for position in raw:
        if position not in POSITIONS:
            raise CommandError(f"{what}: {position!r} is not one of {', '.join(POSITIONS)}")
    return tuple(raw)


def _check_condition(raw: Any) -> str:
    if raw not in CONDITIONS:
        raise CommandError("condition is the marker drawn for the Series track: one of "
                           f"{', '.join(CONDITIONS)}")
    return str(raw)


def start_game(base: SeriesState | None, number: int, first_home: int, sides_raw: tuple[Any, Any],
               options: Mapping[str, Any], blanks: int, track_steps: int, chip_stock: tuple[int, int],
               wins: tuple[int, int] = (0, 0), previous: GameResult | None = None,
               sleeves: tuple[Any, Any] = (None, None),
               held: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
               decks: tuple[Any, Any] = ({}, {}), action_cards: Any = None) -> State:
    """Set up game ``number``: the Classic setup, then Home/Away, the carry-over and the Series track."""
    home = home_side(number, first_home)
    condition = _check_condition(options.get("condition"))
    hot = _positions(options.get("hot"), DEFAULT_HOT, 3, "hot (Home's three Position tokens)")
    cold = _positions(options.get("cold"), DEFAULT_COLD, 2, "cold (Away's two Position tokens)")
    susan = susan_peg_side(wins, number)
    for side, raw in enumerate(sides_raw):
        if isinstance(raw, Mapping) and not isinstance(raw.get("reserves", []), list):
            raise CommandError(f"sides[{side}].reserves must list the tribe's other hooper cards")
        names = _hooper_names(raw)
        if any(n.lower() == SUSAN_PEG for n in names) and susan != side:
            raise RuleError(f"Susan Peg can't play game {number} for side {side}: she joins only the side "
                            "whose opponent can win the series with this game (before game 7)")
        if previous is not None:
            missing = [n for n in previous.ejected[side] if n.lower() in {m.lower() for m in names}]
            if missing:
                raise RuleError(f"{missing[0]} was ejected in game {previous.number}: "
                                "an ejected hooper misses the very next game")
    first = options.get("first_attacker", home)
    # ``series_game`` tells the game which gameplan list it plays (gameplans.py, when present).
    # "upgrade your deck by sleeving onto it only your six counter action cards": no action upgrade
    # card until one is earned; ``decks`` holds what each side sleeves (series_upgrades.check_deck).
    sides = [{**raw, "action_upgrades": [], "position_upgrades": [], **decks[i]} if isinstance(raw, Mapping)
             else raw for i, raw in enumerate(sides_raw)]
    state = setup_options.setup({"variant": "classic", "foul_die_blanks": blanks, "first_attacker": first,
                                 "sides": sides, "series_game": number, "action_upgrade_cards": action_cards})
    if base is not None and (state.sides[0].name, state.sides[1].name) != base.names:
        raise RuleError(f"the series is played by {base.names[0]} and {base.names[1]} to the end")
    for side in (0, 1):
        if sleeves[side]:
            state = sleeve(state, side, sleeves[side], held[side])
    # "The tribe starts the game with 9 coach action token" (one of them locked on the playbook).
    team = state.side(home)
    state = state.with_side(home, replace(team, coach_tokens=team.coach_tokens + 1))
    for side, positions, step in ((home, hot, +1), (other(home), cold, -1)):
        for position in positions:
            hooper = state.side(side).at(position)
            if hooper is not None:
                state = state.with_hooper(side, replace(hooper, onfire=FLAT + step))
    if previous is not None:
        for side in (0, 1):
            for name in previous.injured[side]:
                found = [h for h in state.side(side).hoopers if h.name.lower() == name.lower()]
                if found:  # "they will start the next game with two injured cube"
                    state = state.with_hooper(side, replace(found[0], white=2))
    starter = state.first_attacker
    words = f"Game {number}: {state.side(home).name} at Home, {state.side(starter).name} attacks first"
    game = SeriesGame(number=number, home=home, condition=condition, track_steps=track_steps, track_face=home,
                      chips_lv1=chip_stock[0], chips_lv2=chip_stock[1])
    return replace(state, series=game, message=words)


def _int_option(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CommandError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def setup_series(options: Mapping[str, Any]) -> SeriesState:
    """The series and its game 1 from setup options (docs/commands.md, The Series)."""
    first_home = options.get("home", 0)
    if first_home not in (0, 1) or isinstance(first_home, bool):
        raise CommandError(f"home must be 0 or 1 (the tribe drawn HOME for game 1), not {first_home!r}")
    blanks = options.get("foul_die_blanks", 3)
    track_steps = _int_option(options, "track_steps", 2, 1, 5)
    stock = (_int_option(options, "chips_lv1", 14, 0, 14), _int_option(options, "chips_lv2", 8, 0, 8))
    sides = options.get("sides")
    if not isinstance(sides, list | tuple) or len(sides) != 2:
        raise CommandError("sides must list exactly two sides")
    sides_raw = (sides[0], sides[1])
    cards = options.get("action_upgrade_cards")
    game = start_game(None, 1, first_home, sides_raw, options, blanks, track_steps, stock, action_cards=cards)
    return SeriesState(first_home=first_home, foul_die_blanks=blanks, track_steps=track_steps,
                       chip_stock=stock, side_options=sides_raw, game=game, message=game.message,
                       action_cards=cards)


def gameplans_met(game: State) -> tuple[int | None, int | None]:
    """Each side's gameplan milestones met in ``game``, counted from the log by the gameplans module
    (the 48 conditions); the table may still correct a count with ``gameplan_result``."""
    return (milestones_met([game], 0), milestones_met([game], 1))


def _result(game: State) -> GameResult:
    assert game.series is not None and game.winner is not None
    partials = game.partial_scores
    fourth = partials[3] if len(partials) > 3 else None
    fourth_winner = None if fourth is None or fourth[0] == fourth[1] else (0 if fourth[0] > fourth[1] else 1)

    def injured(side: int) -> tuple[str, ...]:
        return tuple(h.name for h in game.side(side).hoopers if any(i != "lucky" for i in h.injuries))

    return GameResult(
        number=game.series.number, home=game.series.home, score=game.score, winner=game.winner,
        periods=partials, milestones=game.series.milestones, fourth_period_winner=fourth_winner,
        track_face=game.series.track_face,
        chips_left=tuple((sum(h.chips_lv1 for h in s.hoopers), sum(h.chips_lv2 for h in s.hoopers))
                         for s in game.sides),  # type: ignore[arg-type]
        gameplans_met=gameplans_met(game),
        injured=(injured(0), injured(1)),
        ejected=tuple(tuple(h.name for h in s.hoopers if h.ejected) for s in game.sides),  # type: ignore[arg-type]
    )


def _finish_game(series: SeriesState, game: State) -> SeriesState:
    result = _result(game)
    series = replace(series, game=game, results=(*series.results, result))
    wins = series.wins
    names = series.names
    score = f"{max(result.score)}-{min(result.score)}"
    winner = series_winner(wins)
    if winner is not None:
        return replace(series, phase="over", reward=None,
                       message=f"{names[winner]} wins the series {wins[winner]}-{wins[other(winner)]} "
                               f"(game {result.number} {score})")
    return replace(series, phase="reward", reward=RewardPhase(gameplan_met=result.gameplans_met),
                   message=f"{names[result.winner]} wins game {result.number} {score}: "
                           f"series {wins[0]}-{wins[1]}, reward phase")


def reward_items(series: SeriesState) -> list[tuple[str, str]]:
    """The reward checklist still open: ``("0:positions", "Lucy: 4 position upgrade cards ...")``."""
    result = series.last()
    if series.reward is None or result is None:
        return []
    rewards = series.reward.rewards(result)
    if rewards is None:
        return []
    items = []
    for side, reward in enumerate(rewards):
        for key, words in reward.items():
            item = f"{side}:{key}"
            named = [card for it, card in series.reward.named if it == item]
            if named:
                words += f" (taken: {', '.join(named)})"
            if item not in series.reward.done:
                items.append((item, f"{series.names[side]}: {words}"))
    return items


def positions_still(series: SeriesState, item: str) -> int:
    """How many position upgrade cards of ``item`` are still to be named."""
    assert series.reward is not None and series.last() is not None
    rewards = series.reward.rewards(series.last())  # type: ignore[arg-type]
    total = rewards[int(item.split(":")[0])].position_upgrades if rewards else 0
    return total - sum(1 for it, _ in series.reward.named if it == item)


def _gameplan_result(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    assert series.reward is not None
    side = int(event["side"])
    if series.reward.done:
        # The table may tell or correct a count until the checklist, built on it, has begun.
        raise RuleError(f"the reward checklist has begun: {series.names[side]}'s gameplan count stays")
    met = list(series.reward.gameplan_met)
    met[side] = int(event["met"])
    return replace(series, reward=replace(series.reward, gameplan_met=(met[0], met[1])),
                   message=f"{series.names[side]} met {event['met']} of the gameplan's milestones")


def _take_cards(series: SeriesState, side: int, cards: Any) -> SeriesState:
    rewards = series.reward.rewards(series.last()) if series.reward and series.last() else None
    count = rewards[side].hooper_upgrades if rewards else 0
    taken = check_cards(cards, count, series.upgrades, series.names[side])
    held = list(series.upgrades)
    held[side] = (*held[side], *taken)
    return replace(series, upgrades=(held[0], held[1]))


def _tick(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    assert series.reward is not None
    if series.reward.rewards(series.last()) is None:  # type: ignore[arg-type]
        waiting = [series.names[s] for s in (0, 1) if series.reward.gameplan_met[s] is None]
        raise RuleError(f"first say how many gameplan milestones {' and '.join(waiting)} met "
                        "(gameplan_result)")
    open_items = dict(reward_items(series))
    if event.get("all"):
        choosing = [k for k in open_items if k.endswith(":hooper_upgrades")]
        if choosing:
            side = int(choosing[0].split(":")[0])
            raise RuleError(f"first name {series.names[side]}'s hooper upgrade cards (item {choosing[0]})")
        done = (*series.reward.done, *open_items)
    else:
        item = event.get("item")
        if item not in open_items:
            raise RuleError(f"no reward item {item!r} is open; open: {', '.join(open_items) or 'none'}")
        done = (*series.reward.done, str(item))
        side, key = int(str(item).split(":")[0]), str(item).split(":")[1]
        cards = event.get("cards")
        if key == "hooper_upgrades":
            series = _take_cards(series, side, cards)
        elif key in ("strength", "track") and cards is not None:
            # A tick without cards hands the card over unnamed (logs from before the cards were tracked).
            name = take_action_card(cards, series.action_held, series.names[side])
            held = list(series.action_held)
            held[side] = (*held[side], name)
            series = replace(series, action_held=(held[0], held[1]))
        elif key == "positions" and cards is not None:
            taken = take_positions(cards, series.positions_held[side], positions_still(series, str(item)),
                                   series.names[side])
            held = list(series.positions_held)
            held[side] = (*held[side], *taken)
            named = (*series.reward.named, *((str(item), p) for p in taken))
            series = replace(series, positions_held=(held[0], held[1]),
                             reward=replace(series.reward, named=named))
            if positions_still(series, str(item)) > 0:
                return replace(series, message=f"{series.names[side]} takes position upgrade "
                               f"{', '.join(taken)} ({positions_still(series, str(item))} more to name)")
        elif cards is not None:
            raise RuleError("cards go with the hooper_upgrades, strength, track and positions items")
    assert series.reward is not None
    series = replace(series, reward=replace(series.reward, done=done))
    if event.get("all") or not reward_items(series):
        return replace(series, phase="next_game",
                       message=f"rewards handed over: set up game {series.next_number}")
    return replace(series, message=f"done: {open_items[str(event.get('item'))]}")


def _still_worn(series: SeriesState, side: int, raw_side: Any) -> dict[str, Any]:
    """The upgrade cards stay on the hoopers that wore them, for those in the next seven."""
    names = {n.lower() for n in _hooper_names(raw_side)}
    return {name: card for name, card in worn(series.game, side).items() if name.lower() in names}


def _deck(series: SeriesState, event: Mapping[str, Any], side: int) -> dict[str, Any]:
    """The action and position upgrade cards the side sleeves in its deck (default: all it holds)."""
    who = series.names[side]
    action = (event.get("action_upgrades") or [None, None])[side]
    positions = (event.get("position_upgrades") or [None, None])[side]
    return {"action_upgrades": check_deck(action, series.action_held[side], who, "action_upgrades"),
            "position_upgrades": check_deck(positions, series.positions_held[side], who, "position_upgrades")}


def _next_game(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    number = series.next_number
    given = event.get("sides") or [None, None]
    sides_raw = tuple(given[i] if given[i] is not None else series.side_options[i] for i in (0, 1))
    given_sleeves = event.get("upgrades") or [None, None]
    # The plan made tap by tap (series_plan.py) counts unless the command says otherwise.
    sides_raw = tuple(_with_planned_susan(series, i, sides_raw[i]) for i in (0, 1))
    sleeves = tuple(given_sleeves[i] if given_sleeves[i] is not None
                    else merged_sleeves(series.plan.side_sleeves(i), _still_worn(series, i, sides_raw[i]),
                                        series.upgrades[i])
                    for i in (0, 1))
    decks = tuple(_deck(series, event, i) for i in (0, 1))
    game = start_game(series, number, series.first_home, sides_raw, event, series.foul_die_blanks,  # type: ignore[arg-type]
                      series.track_steps, series.chip_stock, series.wins, series.last(), sleeves,  # type: ignore[arg-type]
                      series.upgrades, decks, series.action_cards)  # type: ignore[arg-type]
    return replace(series, game=game, side_options=sides_raw, phase="game", reward=None,  # type: ignore[arg-type]
                   plan=Plan(), message=game.message)


def apply_between(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    """A command of the phase between games (reward checklist, next game); refuses the rest."""
    kind = event["type"]
    if series.phase == "over":
        raise RuleError(f"the series is over: {series.message}")
    wanted = ("gameplan_result", "reward") if series.phase == "reward" else ("next_game", *PLANNING)
    if kind not in wanted:
        doing = "the reward phase" if series.phase == "reward" else f"the setup of game {series.next_number}"
        raise RuleError(f"game {series.number} is over: {doing} comes first ({' or '.join(wanted)})")
    if kind == "gameplan_result":
        return _gameplan_result(series, event)
    if kind == "reward":
        return _tick(series, event)
    if kind == "sleeve":
        return _plan_sleeve(series, event)
    if kind == "susan_peg":
        return _plan_susan(series, event)
    return _next_game(series, event)


def _with_planned_susan(series: SeriesState, side: int, raw: Any) -> Any:
    planned = series.plan.susan[side]
    return with_susan(raw, planned, series.plan.susan_start[side]) if planned else raw


def seven_before_susan(series: SeriesState, side: int) -> Any:
    """The side's options for the next game without the plan's Susan Peg: its seven without an
    ejected hooper (a ready-made replacement)."""
    suggested, _ = suggested_sides(series)
    if suggested is not None and suggested[side] is not None:
        return suggested[side]
    return series.side_options[side]


def next_side(series: SeriesState, side: int) -> Any:
    """The side's options for the next game as things stand: its seven without an ejected hooper, and
    Susan Peg if planned."""
    return _with_planned_susan(series, side, seven_before_susan(series, side))


def sleeve_candidates(series: SeriesState, side: int) -> list[str]:
    """The hoopers of the next seven who may take a hooper upgrade card (last game's cards say so)."""
    seven = {n.lower() for n in _hooper_names(next_side(series, side))}
    return [h.name for h in series.game.side(side).hoopers if h.name.lower() in seven and eligible(h)]


def bench_names(raw_side: Any, starters: set[str]) -> list[str]:
    """The hoopers of a side's seven who do not start (Susan Peg may take one's place)."""
    return [n for n in _hooper_names(raw_side) if n.lower() not in starters and n.lower() != SUSAN_PEG]


def _plan_sleeve(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    side = int(event["side"])
    seven = _hooper_names(next_side(series, side))
    plan = add_sleeve(series.plan, side, event, series.upgrades[side], seven)
    card = dict(plan.sleeves[side])[str(event["hooper"])]
    words = card if isinstance(card, str) else f"{card['card']} ({card['stat'] or 'stat to name'})"
    return replace(series, plan=plan, message=f"{series.names[side]} sleeves {words} on {event['hooper']}")


def _plan_susan(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    side = int(event["side"])
    if susan_peg_side(series.wins, series.next_number) != side:
        raise RuleError(f"Susan Peg can't join {series.names[side]} in game {series.next_number}: she joins "
                        "only the side whose opponent can win the series with it (before game 7)")
    instead_of = str(event["instead_of"])
    start = event.get("start")
    base = seven_before_susan(series, side)
    # Refuses a starter or a hooper not in the seven, and a start where the line-up names nobody.
    with_susan(base, instead_of, start)
    susan, starts = list(series.plan.susan), list(series.plan.susan_start)
    susan[side], starts[side] = instead_of, start
    plan = replace(series.plan, susan=(susan[0], susan[1]), susan_start=(starts[0], starts[1]))
    words = f"Susan Peg joins {series.names[side]}'s seven instead of {instead_of}"
    if start is not None:
        words += f" and starts at {start} ({base['lineup'][start]} to the bench)"
    return replace(series, plan=plan, message=words)


def decide(series: SeriesState, command: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Check a command against the series: a game's command while a game is on, else the phase's."""
    from companion.games.valley_hoopers import rules

    kind = command.get("type") if isinstance(command, Mapping) else None
    if series.phase == "game":
        if kind in BETWEEN_GAMES:
            raise RuleError(f"{str(kind).replace('_', ' ')} comes after the game: game {series.number} is on")
        events = rules.decide(series.game, command)
        return [{**e, "game": series.number} for e in events]
    event = normalize(command)
    after = apply_between(series, event)
    return [{**event, "text": after.message, "game": series.number}]


def apply(series: SeriesState, event: Mapping[str, Any]) -> SeriesState:
    """The series after an accepted event (pure)."""
    from companion.games.valley_hoopers import rules

    if series.phase != "game":
        return apply_between(series, event)
    game = rules.apply(series.game, event)
    if game.final:
        return _finish_game(series, game)
    return replace(series, game=game, message=game.message)
