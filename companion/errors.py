"""Errors a player or an operator can read.

Every refusal subclasses ``ValueError`` (as python-chess's ``IllegalMoveError`` does) so callers
that only care about "bad input" can catch one thing, while the table service can tell a rule
refusal from a malformed line.

>>> raise RuleError("Never Tired has no energy left")
Traceback (most recent call last):
...
companion.errors.RuleError: Never Tired has no energy left
"""


class CompanionError(Exception):
    """Base of every error this package raises on purpose."""


class CommandError(CompanionError, ValueError):
    """A command that is not well formed: unknown type, missing or mistyped field, bad JSON."""


class RuleError(CompanionError, ValueError):
    """A well-formed command the rules refuse in the current state. State is unchanged."""


class StoreError(CompanionError, RuntimeError):
    """The game store cannot be opened or written. Nothing was recorded."""
