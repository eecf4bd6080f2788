"""BasketBoss's front-end parts: the setup form (2-5 managers, the tallest), manager panels, the
market, and the per-manager box score (served by the ``game_info`` op; the kiosk renders them).

>>> FRONTEND.min_sides, FRONTEND.max_sides, [c.label for c in FRONTEND.box_score.columns][:2]
(2, 5, ['Manager', 'Strength'])
"""

from __future__ import annotations

from companion.frontend import BoxScore, Column, FormField, Frontend, Panel, Preset, SetupForm

SETUP_FORM = SetupForm(
    fields=(FormField("tallest", "Tallest manager (takes the Referee, returns $2)", "choice", default=0,
                      of_sides=True),),
    side_fields=(FormField("name", "Manager (in seating order, clockwise)", "text"),),
    # The kiosk's Quick start: two managers and the demo deck (the setup's default), marked demo so
    # the button says so; a table with its own cards enters them with the setup option "deck".
    presets=(Preset("Demo table: two managers, DEMO deck (invented cards)",
                    {"tallest": 0, "sides": [{"name": "Blue"}, {"name": "Yellow"}]}, demo=True),),
)

# Money, trophy points and the advisor are each side's scoreboard counters ($, T, A), shown above
# these panels by the kiosk; the panels add the team rows and the market.
PANELS = (
    Panel("Team", "/sides/{side}/players", per_side=True, muted="starter", muted_values=(True,),
          alert=("injured",),
          columns=(Column("slot", "", width=0.4), Column("name", "Player", width=1.6),
                   Column("position", "Pos", width=0.5), Column("stars", "Stars", width=0.5),
                   Column("income", "$", width=0.4))),
    Panel("Market", "/market",
          columns=(Column("name", "Free agent", missing="injury", width=1.6),
                   Column("position", "Pos", width=0.5), Column("stars", "Stars", width=0.5),
                   Column("income", "$", width=0.4))),
)

BOX_SCORE = BoxScore(
    source="/sides",
    columns=(Column("name", "Manager", width=1.6), Column("strength", "Strength"),
             Column("trophies", "Trophies", join=" "), Column("ribbons", "Ribbons", default=0),
             Column("money", "$"), Column("victory_points", "VP", template="{victory_points.total}")),
)

FRONTEND = Frontend(setup_form=SETUP_FORM, panels=PANELS, box_score=BOX_SCORE,
                    side_names=("Blue", "Yellow", "Purple", "Green", "Red"), min_sides=2, max_sides=5)
