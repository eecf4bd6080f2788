"""Hoop Godz's front-end parts: the setup form, the DEMO ballers and cards as data, the Table panels
(juice ledgers, squads, clock), the box score and the shot calculator (served by ``game_info``).

>>> [r.label for r in FRONTEND.rosters]
['DEMO ballers (invented)', 'DEMO action cards (invented)']
>>> [c.name for c in FRONTEND.calculators]  # declared in calculators.py
['shot']
"""

from __future__ import annotations

from companion.frontend import (
    BoxScore,
    Column,
    FieldChoice,
    FormField,
    Frontend,
    Panel,
    Part,
    Preset,
    Roster,
    SetupForm,
)
from companion.games.hoop_godz.calculators import CALCULATORS
from companion.games.hoop_godz.cards import DEMO_BALLERS, DEMO_CARDS, DEMO_SQUADS, card_json
from companion.games.hoop_godz.model import MODES

SETUP_FORM = SetupForm(
    fields=(
        FormField("mode", "Mode", "choice", default="standard",
                  choices=tuple(FieldChoice(m, f"{m.upper() if m == 'pro' else m.capitalize()}: "
                                               f"{MODES[m][0]} points, {MODES[m][1]} clock tokens")
                                for m in MODES)),
        FormField("first_pick", "First pick (most recently played basketball)", "choice", default=0,
                  of_sides=True),
        FormField("ball_faces", "Faces of a die showing a BALL (for the shot chance)", "choice", default=None,
                  choices=tuple(FieldChoice(n, str(n)) for n in range(1, 6)),
                  help="not printed in the rulebook: count them on your dice"),
        FormField("b_ball_4_all", "B-Ball 4 All: roll together to the app's beat", "bool", default=False),
    ),
    side_fields=(FormField("name", "Name", "text"),),
    presets=(Preset("Demo table (DEMO cards and ballers)",
                    {"mode": "standard", "first_pick": 0, "ball_faces": 2, "b_ball_4_all": False,
                     "sides": [{"name": "Home"}, {"name": "Away"}]}),
             # Quick start: the demo squads already drafted, so a new table starts at the tip-off
             # (the draft's six picks are a choice a first game need not make).
             Preset("DEMO squads, drafted: start at the tip-off",
                    {"mode": "standard", "first_pick": 0, "ball_faces": 2, "b_ball_4_all": False,
                     "sides": [{"name": "Home"}, {"name": "Away"}], "squads": DEMO_SQUADS}, demo=True)),
)

ROSTERS = (
    Roster("demo-ballers", "DEMO ballers (invented)",
           tuple({"name": b.name, "size": b.size} for b in DEMO_BALLERS), demo=True),
    Roster("demo-cards", "DEMO action cards (invented)", tuple(card_json(c) for c in DEMO_CARDS.values()),
           demo=True),
)

PANELS = (
    Panel("Clock", "", kind="line", join="   ",
          parts=(Part("{clock} clock tokens left"), Part("first to {win_at}"),
                 Part("active: {active_name}", when="active_name"),
                 Part("TIE BREAKER: {tie_breaker_name}"), Part("NEXT SCORE WINS", when="overtime"),
                 Part("B-Ball 4 All", when="b_ball_4_all"))),
    Panel("Battle", "/battle", kind="line", join="   ",
          parts=(Part("{kind}: dice {dice}"), Part("cards {cards}"))),
    Panel("Juice", "/sides/{side}", kind="line", per_side=True, join="   ",
          parts=(Part("{name}"), Part("Available {available}"), Part("Yellow {yellow}"), Part("Red {red}"),
                 Part("bar {bar_text}"), Part("GOAT cards to draw {goat_cards}", when="goat_cards"))),
    Panel("Squad", "/sides/{side}/squad", per_side=True,
          columns=(Column("name", "Baller", width=2.0), Column("size", "Size", upper=True))),
)

BOX_SCORE = BoxScore(
    source="/box_score",
    # Each player's ballers, then the player's total line: SHOOTs and DUNKs are the field goals
    # (3-pointers from a black space); the game has no free throws.
    columns=(Column("side", "Player", width=1.4), Column("name", "Baller", width=1.6),
             Column("points", "Pts", default=0), Column("fg", "FG"), Column("3p", "3P"),
             Column("battles_won", "Battles won"), Column("juice_spent", "Juice spent")),
    total_key="total",
    summary=("fg", "3p"),
)


FRONTEND = Frontend(setup_form=SETUP_FORM, rosters=ROSTERS, panels=PANELS, box_score=BOX_SCORE,
                    calculators=CALCULATORS, side_names=("Home", "Away"))
