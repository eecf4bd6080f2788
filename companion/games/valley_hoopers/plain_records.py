"""Frozen records a command builds many of (the prompt, its choices, the scoreboard), built without
their class's ``__init__``.

A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``: under callgrind
some two thousand instructions a field, and each command builds a prompt (twelve fields), a
scoreboard (thirteen) and a few choices (six each): some 7% of a median command's instructions.
``plain_record(cls)`` gives a builder that fills a new instance's ``__dict__`` instead: every field in
the class's order with its default, then the values given. That is the record ``cls(**values)``
makes, for a class whose ``__init__`` only stores its fields (checked once, at import: any other
class is built by its ``__init__``). A value counted later (``counted_once``, a ``cached_property``)
is not in a new record's ``__dict__``, so it is counted from the record's own fields, as after
``__init__``.

The caller gives every field without a default and no name that is not a field (an ``__init__``
would refuse both); ``tests/test_valley_hoopers_plain_records.py`` holds every record the views
build over the recorded games to ``cls(**fields)``.

>>> from companion.game import Choice
>>> build = plain_record(Choice)
>>> build({"label": "end turn", "command": {"type": "end_turn"}}) == Choice("end turn", {"type": "end_turn"})
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# The value a field with no default holds in the template: a caller that leaves it out leaves this.
MISSING: Any = object()


def plain_record(cls: type[T]) -> Callable[[dict[str, Any]], T]:
    """A builder of ``cls`` records from a dict of their fields (see the module's words)."""
    template = plain_template(cls)
    if template is None:
        return lambda values: cls(**values)
    new = object.__new__

    def build(values: dict[str, Any]) -> T:
        record = new(cls)
        fields = record.__dict__
        fields.update(template)  # every field, in the order ``__init__`` stores them
        fields.update(values)
        return record

    return build


def plain_template(cls: type) -> dict[str, Any] | None:
    """Every field of ``cls`` with its default (``MISSING`` for none), in the order ``__init__`` sets
    them; ``None`` when its ``__init__`` does more than store them."""
    own = vars(cls)
    if "__dataclass_fields__" not in own or not own["__dataclass_params__"].init:
        return None
    init = own.get("__init__")
    if getattr(getattr(init, "__code__", None), "co_filename", None) != "<string>":
        return None  # the class wrote its own __init__
    if hasattr(cls, "__post_init__") or any("__slots__" in vars(k) for k in cls.__mro__ if k is not object):
        return None
    template: dict[str, Any] = {}
    for field in own["__dataclass_fields__"].values():
        kind = field._field_type  # type: ignore[attr-defined]
        if kind is dataclasses._FIELD_CLASSVAR:  # type: ignore[attr-defined]
            continue
        if kind is not dataclasses._FIELD or not field.init:  # type: ignore[attr-defined]
            return None  # an InitVar, or a field __init__ computes
        if field.default_factory is not dataclasses.MISSING:
            return None  # a fresh value per record: __init__ calls the factory
        template[field.name] = MISSING if field.default is dataclasses.MISSING else field.default
    return template


class OwnDict:
    """A base for the game's frozen records: each record gets an ordinary ``__dict__`` of its own
    when it is made, so an attribute read costs the same on every record of a class.

    A record made by its ``__init__`` keeps its fields inline in the object; one made by
    ``companion.frozen.replace`` (nearly every record of a state after the setup: a hooper, the turn,
    the pending roll, the state itself) fills a ``__dict__`` copied from such a record's, which the
    interpreter (CPython 3.11) shares the key table of and cannot look fields up in by its fast path.
    A rule reading ``hooper.court`` over a side whose records were made both ways missed that path on
    nearly every read, at some ten times its cost; with its own ``__dict__`` from the start every
    record, and every ``replace`` of it, holds an ordinary one.

    The record is what ``__init__`` would make (the same fields, in its order); ``replace`` still takes
    its fast path (``__init__`` only stores the fields), and pickles load into the same ``__dict__``.
    No ``__slots__`` here: a class with any is built by ``dataclasses.replace``.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        record = object.__new__(cls)
        object.__setattr__(record, "__dict__", {})
        return record
