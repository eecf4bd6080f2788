"""The one check of a value a hooper card prints (a stat, the energy), whichever way it comes in: a
roster file, the setup options, ``enter_card`` during the game, ``companion calc``.

``rosters`` re-exports these; they live apart so ``companion calc vh attack`` checks ``--stat``
without importing the model.

>>> card_stat("3PS", 70, "Muy Schillato")
70
>>> card_energy(None, "Muy Schillato") is None
True
"""

from __future__ import annotations

from companion.errors import CommandError

STAT_RANGE = (0, 200)  # what a card can print, with room for upgrades
ENERGY_RANGE = (1, 20)


def _shown(raw: object) -> str:
    # A 5,000-digit number can't even be turned into text (Python's int-to-str limit).
    if isinstance(raw, int) and not isinstance(raw, bool) and abs(raw) >= 10**9:
        return f"{'-' if raw < 0 else ''}a number of more than nine digits"
    return repr(raw)


def _int_or_none(raw: object, field: str, who: str, low: int, high: int,
                 missing_ok: bool = True) -> int | None:
    if raw is None and missing_ok:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        null = " or null" if missing_ok else ""
        raise CommandError(f"{who}: {field} must be a whole number from {low} to {high}{null}, "
                           f"not {_shown(raw)}")
    return raw


def card_stat(stat: str, raw: object, who: str, missing_ok: bool = True) -> int | None:
    """A stat as a card prints it (``None``: not entered), or ``CommandError`` saying why not.

    >>> card_stat("3PS", 70, "Muy Schillato")
    70
    >>> card_stat("3PS", -5, "Schillato")
    Traceback (most recent call last):
    ...
    companion.errors.CommandError: Schillato: stat 3PS must be a whole number from 0 to 200 or null, not -5
    """
    return _int_or_none(raw, f"stat {stat}", who, *STAT_RANGE, missing_ok=missing_ok)


def card_energy(raw: object, who: str) -> int | None:
    """A card's energy (``None``: not entered), or ``CommandError`` saying why not."""
    return _int_or_none(raw, "energy", who, *ENERGY_RANGE)
