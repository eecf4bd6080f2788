"""``replace`` for the games' frozen state records, without going through ``__init__``.

``dataclasses.replace`` builds the copy by calling the class with every field as a keyword, and a
frozen class's ``__init__`` sets each one through ``object.__setattr__``: for a state of twenty
fields changed a few times per event, that was most of a resolve. A frozen dataclass whose
``__init__`` only stores its fields (no ``__post_init__``, no ``InitVar``, no ``init=False`` field,
no ``__slots__``, no ``cached_property`` whose value would be copied along) gets the same copy by
filling a new instance's ``__dict__``: the old fields, then the changes. Any other object, and any
change that names no field, goes to ``dataclasses.replace`` (which says what is wrong).

``by_identity`` remembers what a pure function gave for a frozen record, by the record's identity:
successive states share every record nobody changed (``replace`` copies references), so the JSON of
an untouched player record or card is built once, not once per command. ``by_identities`` does
the same for a value that reads a few records at once (a team and the box score). ``Lineage``
remembers a record made from another by one change with that other, so a render steps the old
output. ``OwnDict`` is a base for records that gives each its own ``__dict__`` when made.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Score:
...     home: int
...     away: int = 0
>>> replace(Score(1, 2), away=5)
Score(home=1, away=5)
>>> replace(Score(1), period=2)
Traceback (most recent call last):
...
TypeError: Score.__init__() got an unexpected keyword argument 'period'
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")
D = TypeVar("D")

_PLAIN: dict[type, frozenset[str] | None] = {}  # class -> its field names, or None: not plain


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes``: the same value ``dataclasses.replace`` gives."""
    cls = type(obj)
    try:
        names = _PLAIN[cls]
    except KeyError:
        names = _PLAIN[cls] = _plain_fields(cls)
    if names is None or not names.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(cls)
    values = new.__dict__
    values.update(obj.__dict__)
    values.update(changes)
    return new


def init_only_stores(cls: type) -> bool:
    """``cls`` is a dataclass itself whose generated ``__init__`` does no more than store the fields
    it is given (no ``__post_init__``, no ``__slots__``); its ``InitVar`` and ``init=False`` fields
    are the caller's to check."""
    own = vars(cls)
    if "__dataclass_fields__" not in own or not own["__dataclass_params__"].init:
        return False  # not a dataclass itself (a plain subclass may have its own __init__)
    init = own.get("__init__")
    if getattr(getattr(init, "__code__", None), "co_filename", None) != "<string>":
        return False  # the class wrote its own __init__
    return not (hasattr(cls, "__post_init__")
                or any("__slots__" in vars(k) for k in cls.__mro__ if k is not object))


class OwnDict:
    """A base for a game's frozen state records: each record gets an ordinary ``__dict__`` of its own
    when it is made, so an attribute read costs the same on every record of a class.

    A record made by its ``__init__`` keeps its fields inline in the object; one made by ``replace``
    (nearly every record of a state after the setup) fills a ``__dict__`` copied from such a
    record's, which the interpreter (CPython 3.11) shares the key table of and cannot look fields up
    in by its fast path. A rule reading one field over a team's records, some made each way, missed
    that path on nearly every read, at some ten times its cost; with its own ``__dict__`` from the
    start every record, and every ``replace`` of it, holds an ordinary one.

    The record is what ``__init__`` would make (the same fields, in its order); ``replace`` still takes
    its fast path (``__init__`` only stores the fields), and pickles load into the same ``__dict__``.
    No ``__slots__`` here: a class with any is built by ``dataclasses.replace``.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        record = object.__new__(cls)
        object.__setattr__(record, "__dict__", {})
        return record


def _plain_fields(cls: type) -> frozenset[str] | None:
    """The field names of a dataclass whose ``__init__`` only stores them, else None."""
    if not init_only_stores(cls):
        return None
    fields = vars(cls)["__dataclass_fields__"].values()
    if any(f._field_type is dataclasses._FIELD_INITVAR  # type: ignore[attr-defined]
           or (f._field_type is dataclasses._FIELD and not f.init) for f in fields):  # type: ignore[attr-defined]
        return None  # __init__ does more than store the fields
    if any(isinstance(v, functools.cached_property) for k in cls.__mro__ for v in vars(k).values()):
        return None  # a cached value sits in __dict__ and must not be copied to a changed record
    return frozenset(f.name for f in fields if f._field_type is dataclasses._FIELD)  # type: ignore[attr-defined]


def by_identity(function: Callable[[T], R], size: int = 512) -> Callable[[T], R]:
    """``function(record)``, remembered for the ``size`` records seen last, by identity.

    The memo holds each record it names, so an identity is never reused while remembered; the
    record is frozen and ``function`` pure, so the value is the one a new call would give. The
    value itself is shared: callers treat it as read-only, as they treat every rendered snapshot.

    >>> calls = []
    >>> def words(record):
    ...     calls.append(record)
    ...     return {"text": str(record)}
    >>> remembered = by_identity(words)
    >>> record = (1, 2)
    >>> remembered(record) is remembered(record), len(calls)
    (True, 1)
    """
    memo: dict[int, tuple[T, R]] = {}

    def remembered(record: T) -> R:
        hit = memo.get(id(record))
        if hit is not None and hit[0] is record:
            return hit[1]
        value = function(record)
        if len(memo) >= size:
            # The oldest first; another thread may have evicted it already.
            try:  # noqa: SIM105 - suppress() would build a context manager on every miss
                memo.pop(next(iter(memo)), None)
            except (RuntimeError, StopIteration):
                pass
        memo[id(record)] = (record, value)
        return value

    remembered.__wrapped__ = function  # type: ignore[attr-defined]
    return remembered


class Lineage(Generic[T, D]):
    """Records made from another by one known change, each remembered with the one it came from and
    what changed (``D``: the index or the name of the part changed): a render that holds the old
    record's output then copies it and changes that part, instead of building it all again.

    An entry holds both records, so an identity is never reused while remembered; both are frozen.
    ``size`` bounds it: a render needs the records of the last command, not a history.

    >>> made_from = Lineage[tuple, int](size=8)
    >>> old = (1, 2, 3)
    >>> new = (1, 9, 3)
    >>> made_from.remember(new, old, 1)
    >>> made_from.parent(new) == (old, 1), made_from.parent(old), made_from.parent((1, 9, 3))
    (True, None, None)
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._made: dict[int, tuple[T, T, D]] = {}

    def remember(self, made: T, parent: T, change: D) -> None:
        if len(self._made) >= self._size:
            self._made.clear()  # a bound, not a policy (see above)
        self._made[id(made)] = (made, parent, change)

    def parent(self, made: T) -> tuple[T, D] | None:
        """The record ``made`` was made from and what changed, or None when that is not remembered."""
        hit = self._made.get(id(made))
        return None if hit is None or hit[0] is not made else (hit[1], hit[2])

    def clear(self) -> None:
        self._made.clear()


def by_identities(function: Callable[..., R], size: int = 64) -> Callable[..., R]:
    """``function(*records)``, remembered for the ``size`` argument tuples seen last, by the identity
    of each: ``by_identity`` for a value that reads a few records (a team and the box score).

    >>> calls = []
    >>> def total(a, b):
    ...     calls.append((a, b))
    ...     return [*a, *b]
    >>> remembered = by_identities(total)
    >>> a, b = (1,), (2,)
    >>> remembered(a, b) is remembered(a, b), remembered(a, (2,)) == [1, 2], len(calls)
    (True, True, 2)
    """
    memo: dict[tuple[int, ...], tuple[tuple[Any, ...], R]] = {}

    def remembered(*records: Any) -> R:
        key = tuple(map(id, records))
        hit = memo.get(key)
        if hit is not None:
            # The entry holds its records, and the caller these: live objects with the same ids are
            # the same objects, so a hit needs no second look.
            return hit[1]
        value = function(*records)
        if len(memo) >= size:
            try:  # noqa: SIM105 - suppress() would build a context manager on every miss
                memo.pop(next(iter(memo)), None)
            except (RuntimeError, StopIteration):
                pass
        memo[key] = (records, value)
        return value

    remembered.__wrapped__ = function  # type: ignore[attr-defined]
    return remembered


class _Named(Protocol):
    name: str


N = TypeVar("N", bound=_Named)


def by_lower_name(records: tuple[N, ...]) -> dict[str, N]:
    """The records by ``name.lower()``, the first of a name (as a scan in order finds it): a game's
    cards or players, indexed once per tuple with ``by_identity(by_lower_name)``.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Card:
    ...     name: str
    >>> sorted(by_lower_name((Card("Ann"), Card("ANN"), Card("Bo"))).items())
    [('ann', Card(name='Ann')), ('bo', Card(name='Bo'))]
    """
    index: dict[str, N] = {}
    for record in records:
        index.setdefault(record.name.lower(), record)
    return index
