"""``companion.frozen.replace`` gives what ``dataclasses.replace`` gives, and falls back to it
for every record whose ``__init__`` does more than store its fields."""

from __future__ import annotations

import dataclasses
import doctest
import functools
import pickle
from dataclasses import InitVar, dataclass, field
from typing import ClassVar

import pytest

from companion import frozen
from companion.frozen import replace


@dataclass(frozen=True)
class Hooper:
    name: str
    energy: int = 5
    cubes: tuple[str, ...] = ()
    court: ClassVar[int] = 5


@dataclass(frozen=True)
class Checked:
    energy: int

    def __post_init__(self) -> None:
        if self.energy < 0:
            raise ValueError("energy is never negative")


@dataclass(frozen=True)
class Derived:
    energy: int
    doubled: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "doubled", self.energy * 2)


@dataclass(frozen=True)
class WithInitVar:
    energy: int
    bonus: InitVar[int] = 0


@dataclass(frozen=True)
class Cached:
    energy: int

    @functools.cached_property
    def doubled(self) -> int:
        return self.energy * 2


@dataclass(frozen=True, slots=True)
class Slotted:
    energy: int


class Undecorated(Hooper):
    def __init__(self, name: str, energy: int = 5, cubes: tuple[str, ...] = ()) -> None:
        super().__init__(name, energy + 1, cubes)


def test_a_plain_frozen_record_is_copied_with_its_changes_and_equals_the_dataclasses_copy() -> None:
    hooper = Hooper("Lucy", 3, ("white",))
    copy = replace(hooper, energy=4)
    assert copy == dataclasses.replace(hooper, energy=4) == Hooper("Lucy", 4, ("white",))
    assert hooper == Hooper("Lucy", 3, ("white",))  # the original is untouched
    assert hash(copy) == hash(Hooper("Lucy", 4, ("white",)))
    assert pickle.loads(pickle.dumps(copy)) == copy
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.energy = 1  # type: ignore[misc]
    assert frozen._plain_fields(Hooper) == {"name", "energy", "cubes"}


def test_a_change_that_names_no_field_is_refused_as_dataclasses_refuses_it() -> None:
    with pytest.raises(TypeError, match="court"):
        replace(Hooper("Lucy"), court=4)
    with pytest.raises(TypeError, match="speed"):
        replace(Hooper("Lucy"), speed=4)


@pytest.mark.parametrize("record", [Checked(1), Derived(1), WithInitVar(1), Cached(1), Slotted(1)])
def test_records_whose_init_does_more_go_through_dataclasses_replace(record: object) -> None:
    assert frozen._plain_fields(type(record)) is None
    if isinstance(record, Cached):
        assert record.doubled == 2  # the cached value sits in __dict__: it must not be copied
    copy = replace(record, energy=2)
    assert copy.energy == 2  # type: ignore[attr-defined]
    if isinstance(record, Derived | Cached):
        assert copy.doubled == 4  # type: ignore[attr-defined]
    if isinstance(record, Checked):
        with pytest.raises(ValueError, match="never negative"):
            replace(record, energy=-1)


def test_a_subclass_with_its_own_init_is_built_by_its_init() -> None:
    assert frozen._plain_fields(Undecorated) is None
    assert replace(Undecorated("Lucy", 1), energy=3).energy == 4


def test_the_frozen_doctests_run() -> None:
    result = doctest.testmod(frozen)
    assert result.attempted and not result.failed


def test_by_identity_remembers_per_record_and_forgets_the_oldest() -> None:
    calls: list[Hooper] = []

    def words(hooper: Hooper) -> dict[str, object]:
        calls.append(hooper)
        return {"name": hooper.name, "energy": hooper.energy}

    remembered = frozen.by_identity(words, size=2)
    lucy, other_lucy, cal = Hooper("Lucy"), Hooper("Lucy"), Hooper("Cal")
    assert remembered(lucy) is remembered(lucy)
    assert remembered(other_lucy) == remembered(lucy)  # equal, but another record: computed again
    assert len(calls) == 2
    remembered(cal)  # the memo holds two: lucy, the oldest, goes
    remembered(lucy)
    assert calls == [lucy, other_lucy, cal, lucy]
    assert remembered(replace(lucy, energy=1)) == {"name": "Lucy", "energy": 1}
