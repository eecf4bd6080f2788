"""NBA Showdown's front-end parts: the setup and card forms, the DEMO rosters as data, the Table
panels, the box score and the calculators (served by the ``game_info`` op; the kiosk renders them).

>>> [r.name for r in FRONTEND.rosters], FRONTEND.rosters[0].demo
(['demo-comets', 'demo-lanterns'], True)
>>> [c.label for c in FRONTEND.box_score.columns]
['Team', 'Player', 'PTS', 'AST', 'REB', 'FG', '3P', 'FT']
>>> [c.name for c in FRONTEND.calculators]  # declared in calculators.py
['roll', 'shot']
"""

from __future__ import annotations

from typing import Any

from companion.frontend import (
    BoxScore,
    CardForm,
    Column,
    FieldChoice,
    FormField,
    Frontend,
    Panel,
    Part,
    Preset,
    Roster,
    RosterPick,
    SetupForm,
)
from companion.games.nba_showdown.calculators import CALCULATORS
from companion.games.nba_showdown.cards import POSITIONS, ROW_SLOTS, form_data
from companion.games.nba_showdown.rosters import SHIPPED, shipped_roster
from companion.games.nba_showdown.setup_options import DEFAULT_REBOUND_POINTS, RULE_NAMES, auto_lineup

RULE_LABELS = {
    "hot_cold": "Hot and cold markers",
    "assists": "Assists",
    "rebounds": "Rebound Track",
    "strategy": "Strategy cards",
    "substitutions": "Substitutions",
    "double_team": "Double-teaming",
}
assert set(RULE_LABELS) == set(RULE_NAMES)
EVERY_RULE_OFF = dict.fromkeys(RULE_NAMES, False)


def _shipped(name: str) -> Roster:
    """A DEMO roster as data, each card in the card form's shape (the chart as lines)."""
    roster = shipped_roster(name)
    return Roster(
        name=name, label=roster.team, cards=tuple(form_data(c) for c in roster.cards), demo=roster.demo
    )


def _demo_team(name: str) -> dict[str, Any]:
    """A DEMO roster with every player picked and the first five who fit on the court (the kiosk
    shows the picks and positions; the table taps to change them)."""
    roster = shipped_roster(name)
    lineup = auto_lineup(roster.cards) or ()
    return {
        "roster": name,
        "name": roster.team,
        "players": [c.name for c in roster.cards],
        "lineup": dict(zip(POSITIONS, lineup, strict=True)),
    }


DEMO_TEAMS = {"teams": [_demo_team(name) for name in SHIPPED], "first": 0}

SETUP_FORM = SetupForm(
    fields=(
        FormField("first", "Rolls first (won the roll)", "choice", default=0, of_sides=True),
        FormField("quick_play", "Quick play (every added and advanced rule off)", "bool", default=False),
        *(
            FormField(name, label, "bool", help="leave unset to follow quick play")
            for name, label in RULE_LABELS.items()
        ),
        FormField(
            "rebound_points",
            "Rebound Track points, centre outwards (from your playmat)",
            "text",
            default=" ".join(map(str, DEFAULT_REBOUND_POINTS)),
        ),
        FormField("team_check", "Check the team-building rules", "bool", default=True),
    ),
    side_fields=(
        FormField("name", "Name", "text"),
        FormField(
            "players",
            "Players",
            "roster",
            help="tap a player to pick his position or the bench",
            pick=RosterPick(
                count=0,
                spots=POSITIONS,
                reserve="bench",
                roster_key="roster",
                spots_key="lineup",
                noun="player",
                nouns="players",
                file_keys=("deck",),
            ),
        ),
    ),
    sides_key="teams",
    presets=(
        Preset("DEMO teams, every rule", DEMO_TEAMS),
        Preset("DEMO teams, quick play", {**DEMO_TEAMS, "quick_play": True}),
        Preset("DEMO teams, advanced rules without strategy cards", {**DEMO_TEAMS, "strategy": False}),
    ),
)

CARD_FORM = CardForm(
    title="Player card",
    key="name",
    fields=(
        FormField(
            "positions",
            "Positions",
            "choice",
            multiple=True,
            choices=tuple(FieldChoice(p, p) for p in POSITIONS),
        ),
        FormField("speed", "Speed", "int", minimum=1, maximum=40, step=1, start=12),
        FormField("power", "Power", "int", minimum=1, maximum=40, step=1, start=10),
        FormField("point_value", "Point value", "int", minimum=0, maximum=5000, step=10, start=500),
        FormField("three_point_bonus", "3-point bonus", "int", minimum=0, maximum=20, step=1, start=0),
        FormField(
            "shot_line",
            "Shot Line: first number of the row under it",
            "int",
            minimum=2,
            maximum=60,
            step=1,
            start=16,
        ),
        *(
            FormField(f"chart.{slot}", f"Chart line {i}", "text", help="range PTS AST REB, like 10-15 4 2 1")
            for i, slot in enumerate(ROW_SLOTS, 1)
        ),
    ),
)

PANELS = (
    Panel(
        "This roll",
        "/roll",
        kind="line",
        join="   ",
        parts=(
            Part("{position} {stat}"),
            Part("{target.text}", when="target"),
            Part("rolled {face}", when="face"),
            Part("total {total}", when="total"),
            Part("{assists_to_next_row} assists to the next row", when="assists_to_next_row"),
        ),
    ),
    Panel(
        "",
        "/sides/{side}",
        kind="line",
        per_side=True,
        parts=(
            Part("{double_team_words}", when="double_team_words"),
            Part("strategy deck {deck_left} left", when="deck_left"),
        ),
    ),
    Panel(
        "On the court",
        "/sides/{side}/players",
        per_side=True,
        muted="position",
        muted_values=("bench",),
        columns=(
            Column("position", "", width=0.6),
            Column("name", "Player", opens_card=True, width=2.0),
            Column("speed", "Spd", width=0.5),
            Column("power", "Pow", width=0.5),
            Column("pts", "PTS", width=0.5),
            Column(
                "status",
                "",
                width=1.2,
                parts=(
                    Part("rolled", when="rolled"),
                    Part("hot {hot}", when="hot"),
                    Part("cold {cold}", when="cold"),
                ),
            ),
        ),
    ),
    Panel("Rebound Track", "/rebound_line", kind="line", parts=(Part("{.}"),)),
)

BOX_SCORE = BoxScore(
    source="/box_score",
    columns=(
        Column("team", "Team", width=1.6),
        Column("player", "Player", width=2.0),
        Column("pts", "PTS", default=0),
        Column("ast", "AST", default=0),
        Column("reb", "REB", default=0),
        # Shot checks and foul shots (strategy cards): the only single shots the game rolls.
        Column("fg", "FG"),
        Column("3p", "3P"),
        Column("ft", "FT"),
    ),
    total_key="total",
    summary=("fg", "3p", "ft"),
)


FRONTEND = Frontend(
    setup_form=SETUP_FORM,
    card_form=CARD_FORM,
    rosters=tuple(_shipped(name) for name in SHIPPED),
    panels=PANELS,
    box_score=BOX_SCORE,
    calculators=CALCULATORS,
    side_names=("Home", "Away"),
)
