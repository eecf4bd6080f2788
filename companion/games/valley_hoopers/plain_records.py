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

from companion.frozen import init_only_stores

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
    if not init_only_stores(cls):
        return None
    template: dict[str, Any] = {}
    for field in vars(cls)["__dataclass_fields__"].values():
        kind = field._field_type  # type: ignore[attr-defined]
        if kind is dataclasses._FIELD_CLASSVAR:  # type: ignore[attr-defined]
            continue
        if kind is not dataclasses._FIELD or not field.init:  # type: ignore[attr-defined]
            return None  # an InitVar, or a field __init__ computes
        if field.default_factory is not dataclasses.MISSING:
            return None  # a fresh value per record: __init__ calls the factory
        template[field.name] = MISSING if field.default is dataclasses.MISSING else field.default
    return template
