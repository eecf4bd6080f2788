"""Remember what a pure resolver gave on the latest state, so a command is resolved once.

A game whose prompt finds its choices by trying each candidate command on the state
(``views._legal``) has, by the time a player picks one, already resolved it: ``Trials`` keeps
those results for the state they were computed on, and the game's ``play`` takes the one the
accepted command matches instead of resolving again.

States are frozen values and the resolver is pure, so a result depends only on the state and the
event: the memo is keyed by the state's identity (it holds the state, so the identity cannot be
reused while the entry lives) and the event: its (name, type, value) triples when every value is a
string, a whole number, a boolean or null (``true`` and ``1`` stay apart), else its JSON text. Only
the latest state is kept; a call on any other state starts afresh. Refusals are not kept.

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

# Types whose equal values are the same value (not float: -0.0 == 0.0).
_EXACT = frozenset({str, int, bool, type(None)})


def event_key(event: Mapping[str, Any]) -> object:
    """What tells two events apart: equal keys for the same event, whatever the order of its fields.

    >>> event_key({"a": 1, "b": "x"}) == event_key({"b": "x", "a": 1})
    True
    >>> event_key({"a": 1}) == event_key({"a": True}), event_key({"a": [1]}) == event_key({"a": [True]})
    (False, False)
    """
    fields = [(name, value.__class__, value) for name, value in event.items()]
    if all(kind in _EXACT for _, kind, _ in fields):
        try:
            return tuple(sorted(fields))
        except TypeError:  # names of different types: let JSON say
            pass
    return json.dumps(event, sort_keys=True)  # nested values (a list of player names)


class Trials(Generic[S]):
    """``resolve(state, event)`` with the results on the latest state remembered."""

    def __init__(self, resolve: Callable[[S, Mapping[str, Any]], S]) -> None:
        self._resolve = resolve
        # (state, {quick key: (the event as tried, state after)}); replaced whole, so a reader on
        # another thread always sees a state with its own results.
        self._latest: tuple[Any, dict[object, tuple[dict[str, Any], S]]] = (None, {})

    def __call__(self, state: S, event: Mapping[str, Any]) -> S:
        try:
            key = _quick_key(event)
        except (TypeError, ValueError):  # not plain JSON: nothing to key it by
            return self._resolve(state, event)
        latest, results = self._latest
        if latest is not state:
            results = {}
            self._latest = (state, results)
        found = results.get(key)
        if found is not None and _same_event(found[0], event):
            return found[1]
        after = results[key] = (dict(event), self._resolve(state, event))
        return after[1]


def _quick_key(event: Mapping[str, Any]) -> object:
    """A key that equal events share (a prompt keys every candidate it tries: this must be cheap).

    ``True``, ``1`` and ``1.0`` share one, so a hit is checked with ``event_key`` (``_same_event``)."""
    try:
        return frozenset(event.items())
    except TypeError:  # nested values (a list of player names)
        return json.dumps(event, sort_keys=True)


def _same_event(tried: Mapping[str, Any], event: Mapping[str, Any]) -> bool:
    try:
        return event_key(tried) == event_key(event)
    except (TypeError, ValueError):  # a value JSON can't write: resolve it again
        return False
