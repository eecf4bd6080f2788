"""One declaration for every way to play: a single game (Classic, Fast, Friendly) or The Series.

``setup`` reads the ``variant`` option; the other functions look at the state they are given: a
``SeriesState`` goes to the series, a game ``State`` to the game's own rules and views.

>>> from companion.games.valley_hoopers.setup_options import example_options
>>> type(setup(example_options())).__name__, type(setup({**example_options(), "variant": "series",
...                                                       "condition": "playbook"})).__name__
('State', 'SeriesState')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import RuleError
from companion.game import JSON, Outcome, Prompt, ScoreboardView
from companion.games.valley_hoopers import draft, rules, series, series_views, setup_options, views
from companion.games.valley_hoopers.commands import normalize
from companion.games.valley_hoopers.draft import DraftState
from companion.games.valley_hoopers.series import SeriesState


def setup(options: Mapping[str, Any]) -> Any:
    if isinstance(options, Mapping) and options.get("variant") == "series":
        return series.setup_series(options)
    if isinstance(options, Mapping) and options.get("variant") == "draft":
        return draft.setup_draft(options)
    return setup_options.setup(options)


def decide(state: Any, command: Mapping[str, Any]) -> list[JSON]:
    if isinstance(state, DraftState):
        event = normalize(command)
        if event["type"] not in ("draft_pick", "draft_lineup"):
            raise RuleError(f"the draft comes first: {state.message}")
        after = draft.pick(state, event)
        return [{**event, "text": after.message}]
    if isinstance(state, SeriesState):
        return series.decide(state, command)
    return rules.decide(state, command)


def play(state: Any, command: Mapping[str, Any]) -> tuple[Any, list[JSON]]:
    """A game's command resolved once (``rules.play``); the draft and the series between games are
    cheap enough to decide and then apply."""
    if isinstance(state, DraftState | SeriesState):
        events = decide(state, command)
        after = state
        for event in events:
            after = apply(after, event)
        return after, events
    return rules.play(state, command)


def apply(state: Any, event: JSON) -> Any:
    if isinstance(state, DraftState):
        return draft.pick(state, event)
    if isinstance(state, SeriesState):
        return series.apply(state, event)
    return rules.apply(state, event)


def outcome(state: Any) -> Outcome | None:
    if isinstance(state, DraftState):
        return draft.outcome(state)
    return series_views.outcome(state) if isinstance(state, SeriesState) else views.outcome(state)


def scoreboard(state: Any) -> ScoreboardView:
    if isinstance(state, DraftState):
        return draft.scoreboard(state)
    return series_views.scoreboard(state) if isinstance(state, SeriesState) else views.scoreboard(state)


def prompt(state: Any) -> Prompt:
    if isinstance(state, DraftState):
        return draft.prompt(state)
    return series_views.prompt(state) if isinstance(state, SeriesState) else views.prompt(state)


def view(state: Any) -> JSON:
    if isinstance(state, DraftState):
        return draft.view(state)
    return series_views.view(state) if isinstance(state, SeriesState) else views.view(state)
