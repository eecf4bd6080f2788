"""Crunch Time's front-end parts: the setup form, the Table panels, the per-possession box score and
the grid a possession's zones are entered on (served by the ``game_info`` op; the kiosk renders them).

>>> [f.key for f in FRONTEND.setup_form.fields]
['mode', 'difficulty', 'court']
>>> FRONTEND.box_score.source, [c.label for c in FRONTEND.box_score.columns][:3]
('/box_score', ['Period', 'Offence', 'FG'])
>>> FRONTEND.choice_grid.to_json()["column_labels"]
['open', 'defended', 'defender only', 'empty']
"""

from __future__ import annotations

from companion.frontend import (
    BoxScore,
    ChoiceGrid,
    Column,
    FieldChoice,
    FormField,
    Frontend,
    Panel,
    Part,
    Preset,
    SetupForm,
)
from companion.games.crunch_time.model import DIFFICULTY_TITLES

# The grid's columns: who stands in a highlighted zone after movement, in the words of the table.
GRID_STANDS = ("offence", "both", "defence", "empty")
GRID_WORDS = ("open", "defended", "defender only", "empty")

SETUP_FORM = SetupForm(
    fields=(
        FormField("mode", "Coaches", "choice", default="two",
                  choices=(FieldChoice("two", "Two coaches"), FieldChoice("solo", "Solo against the AI"))),
        FormField("difficulty", "Solo difficulty (starting lead toward you)", "choice", default="rookie",
                  choices=tuple(FieldChoice(k, v) for k, v in DIFFICULTY_TITLES.items()),
                  help="solo only: Rookie 10, Veteran 8, Starter 6, All-Star 4, Hall of Fame 2, GOAT 0"),
        FormField("court", "Court file", "choice", default=None,
                  choices=(FieldChoice(None, "None (enter zones)"), FieldChoice("demo", "Demo (invented)")),
                  help="the real court is not in the rulebook; the demo court is made up for trying"),
    ),
    side_fields=(FormField("name", "Coach", "text"),),
    presets=(
        Preset("Two coaches: Red v Blue", {"mode": "two", "sides": [{"name": "Red"}, {"name": "Blue"}]}),
        Preset("Solo against the AI (Rookie)", {"mode": "solo", "difficulty": "rookie",
                                                "sides": [{"name": "You"}, {"name": "AI"}]}),
    ),
)

PANELS = (
    Panel("Lead", "/", kind="lead"),
    Panel("This possession", "/current/shots", kind="line", join="   ",
          parts=(Part("card {card}: {zones_text}"),)),
    Panel("Star cards", "/current/stars", kind="line", join="   ", parts=(Part("{text}"),)),
    Panel("", "/sides/{side}", kind="line", per_side=True,
          parts=(Part("AI coach: draws its Shot cards, Stars on display", when="ai"),
                 Part("2-card possession played", when="doubles"))),
    Panel("Possessions", "/possessions",
          columns=(Column("period", "", width=0.6), Column("offence_name", "Offence", width=1.2),
                   Column("shot_points", "Shot pts", width=0.7),
                   Column("stars", "Stars", template="+{offence_stars} -{defence_stars}", width=0.8),
                   Column("net", "Net", width=0.6), Column("lead_text", "Lead", width=1.2))),
)

BOX_SCORE = BoxScore(
    source="/box_score",
    # A shot is a Shot card's highlighted zone with an offensive Player in it (views.box_score); the
    # game has no free throws, and its Players have no names: the splits are the coach's. The count
    # of Shot cards gave its room to them (it stays in the CSV as "shots"): 10 columns are too wide
    # for two halves at 14 sp on the 1024x600 and 1280x720 screens.
    columns=(Column("period", "Period"), Column("offence_name", "Offence", width=1.4),
             Column("fg", "FG"), Column("3p", "3P"), Column("shot_points", "Shot pts"),
             Column("offence_stars", "Off Stars"), Column("defence_stars", "Def Stars"),
             Column("net", "Net"), Column("lead_text", "Lead", width=1.4)),
    total_key="total",
    total_name="offence_name",
    summary=("fg", "3p"),
)

FRONTEND = Frontend(
    setup_form=SETUP_FORM, panels=PANELS, box_score=BOX_SCORE, side_names=("Red", "Blue"),
    choice_grid=ChoiceGrid(row_keys=("points",), column_key="stand", columns=GRID_STANDS,
                           column_labels=GRID_WORDS, row_labels={"3": "3 pts", "2": "2 pts"}, at_least=4),
)
