"""The juice checks the prompt and the handlers use agree with spending juice for real: ``check_spend``
refuses (in the same words) exactly the spends in a row that ``spend`` refuses, and ``exhaust`` of a
bar with nothing on it keeps the ledger as it is, for every fill of the default bar."""

from __future__ import annotations

import itertools

import pytest

from companion.errors import RuleError
from companion.games.hoop_godz import juice
from companion.games.hoop_godz.model import DEFAULT_BAR, Ledger


def every_ledger() -> list[Ledger]:
    bars = itertools.product((None, "MOVE"), repeat=len(DEFAULT_BAR.spaces))
    return [Ledger(available, 10 - available - sum(b is not None for b in bar), 0, bar)
            for bar in bars for available in range(6) if available + sum(b is not None for b in bar) <= 10]


def refusal(call) -> str | None:
    try:
        call()
    except RuleError as error:
        return str(error)
    return None


def spend_in_a_row(ledger: Ledger, count: int, pass_space: bool) -> None:
    for _ in range(count):
        ledger = juice.spend(ledger, DEFAULT_BAR, "SHOOT", pass_space)


@pytest.mark.parametrize("pass_space", [False, True])
def test_check_spend_refuses_what_spending_refuses_in_its_words(pass_space: bool) -> None:
    told = set()
    for ledger in every_ledger():
        for count in range(4):
            expected = refusal(lambda: spend_in_a_row(ledger, count, pass_space))  # noqa: B023
            got = refusal(lambda: juice.check_spend(ledger, DEFAULT_BAR, "SHOOT", count, pass_space))  # noqa: B023
            assert got == expected, (ledger, count)
            told.add(expected)
    assert len(told) == 3  # paid, no juice Available, the bar full


def test_exhausting_an_empty_bar_keeps_the_ledger_and_the_rest_drain_as_before() -> None:
    for ledger in every_ledger():
        emptied, to_red = juice.exhaust(ledger, DEFAULT_BAR)
        drained = [space.drains_to
                   for space, held in zip(DEFAULT_BAR.spaces, ledger.bar, strict=True) if held]
        assert emptied == Ledger(ledger.available, ledger.yellow + drained.count("yellow"),
                                 ledger.red + drained.count("red"), (None,) * len(ledger.bar))
        assert to_red == drained.count("red")
        assert (emptied is ledger) == (not drained)
