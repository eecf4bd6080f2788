"""Remember what a pure resolver gave on the latest state, so a command is resolved once.

A game whose prompt finds its choices by trying each candidate command on the state
(``views._legal``) has, by the time a player picks one, already resolved it: ``Trials`` keeps
those results for the state they were computed on, and the game's ``play`` takes the one the
accepted command matches instead of resolving again.

States are frozen values and the resolver is pure, so a result depends only on the state and the
event: the memo is keyed by the state's identity (it holds the state, so the identity cannot be
reused while the entry lives) and the event's JSON text (``true`` and ``1`` stay apart). Only the
latest state is kept; a call on any other state starts afresh. Refusals are not kept.

>>> calls = []
>>> def resolve(state, event):
...     calls.append(event["n"])
...     return state + [event["n"]]
>>> trial = Trials(resolve)
>>> state = [1]
>>> trial(state, {"n": 2}), trial(state, {"n": 2}), calls
([1, 2], [1, 2], [2])
>>> trial([1], {"n": 2}), calls  # an equal but other state: resolved again
([1, 2], [2, 2])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

S = TypeVar("S")


class Trials(Generic[S]):
    """``resolve(state, event)`` with the results on the latest state remembered."""

    def __init__(self, resolve: Callable[[S, Mapping[str, Any]], S]) -> None:
        self._resolve = resolve
        # (state, {event JSON: state after}); replaced whole, so a reader on another thread
        # always sees a state with its own results.
        self._latest: tuple[Any, dict[str, S]] = (None, {})

    def __call__(self, state: S, event: Mapping[str, Any]) -> S:
        try:
            key = json.dumps(event, sort_keys=True)
        except (TypeError, ValueError):  # not plain JSON: nothing to key it by
            return self._resolve(state, event)
        latest, results = self._latest
        if latest is not state:
            results = {}
            self._latest = (state, results)
        found = results.get(key)
        if found is None:
            found = results[key] = self._resolve(state, event)
        return found
