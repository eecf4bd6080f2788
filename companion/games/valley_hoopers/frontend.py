"""Valley Hoopers' front-end parts: the setup and card forms, the shipped rosters, the Table panels,
the box score, the dice and the grid of plays (served by the ``game_info`` op; the kiosk renders them).

>>> FRONTEND.setup_form.side_fields[1].pick.count, [r.name for r in FRONTEND.rosters]
(7, ['unleashed', 'keepers'])
>>> [c.label for c in FRONTEND.box_score.columns][:3]
['Side', 'Hooper', 'Pts']
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from companion.frontend import (
    BoxScore,
    CardForm,
    ChoiceGrid,
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
from companion.games.valley_hoopers.calculators import CALCULATORS
from companion.games.valley_hoopers.model import POSITIONS, SKILLS, STATS
from companion.games.valley_hoopers.rosters import ROSTER_DIR
from companion.games.valley_hoopers.series_game import CONDITIONS, MARKER_NAMES
from companion.games.valley_hoopers.setup_options import VARIANTS, example_options

# The two tribes a side picks from (Susan Peg's one-card roster joins a seven by name, not as a tribe).
SIDE_ROSTERS = ("unleashed", "keepers")


def _shipped(name: str) -> Roster:
    """A shipped roster as data: the cards exactly as the TOML prints them (missing = not entered)."""
    data = tomllib.loads((ROSTER_DIR / f"{name}.toml").read_text(encoding="utf-8"))
    return Roster(name=name, label=name.capitalize(), cards=tuple(data.get("hoopers", [])),
                  demo=bool(data.get("demo", False)))


def _demo_options() -> dict[str, Any]:
    """The demo table (every card entered with invented values) that the demo script plays."""
    return json.loads(Path(__file__).with_name("demo_setup.json").read_text(encoding="utf-8"))


def _positions() -> tuple[FieldChoice, ...]:
    return tuple(FieldChoice(p, p) for p in POSITIONS)


SETUP_FORM = SetupForm(
    fields=(
        FormField("variant", "Variant", "choice", default="classic",
                  choices=(*(FieldChoice(v, v.capitalize()) for v in VARIANTS),
                           FieldChoice("series", "The Series (best of seven)"))),
        FormField("first_attacker", "Attacks first (won the opening d20)", "choice", default=0,
                  of_sides=True),
        FormField("home", "The Series: Home in game 1", "choice", default=0, of_sides=True),
        FormField("condition", "The Series: track condition marker", "choice", default="playbook",
                  choices=tuple(FieldChoice(k, v) for k, v in CONDITIONS.items())),
    ),
    side_fields=(
        FormField("name", "Name", "text"),
        FormField("hoopers", "Hoopers", "roster", help="tap a hooper to pick a spot",
                  pick=RosterPick(count=7, spots=POSITIONS, reserve="bench", roster_key="roster",
                                  spots_key="lineup", custom={"tribe": "custom"},
                                  spot_fields=("first_position", "second_position"), noun="hooper",
                                  nouns="hoopers")),
    ),
    presets=(Preset("Rulebook example (Lucy and Karl)", example_options()),
             Preset("DEMO cards: Lucy and Karl with invented stats", _demo_options(), demo=True)),
)

CARD_FORM = CardForm(
    title="Card",
    key="name",
    fields=(
        FormField("first_position", "1st position", "choice", choices=_positions()),
        FormField("second_position", "2nd position", "choice", choices=_positions()),
        FormField("energy", "Energy", "int", minimum=0, maximum=12, step=1, start=5),
        FormField("stellar", "Stellar card", "bool"),
        FormField("defense_positions", "Defensive flag", "choice", choices=_positions(), multiple=True),
        *(FormField(f"stats.{s}", s, "int", minimum=0, maximum=100, step=5, start=50) for s in STATS),
        FormField("skill", "Skill", "choice", in_game=False,
                  choices=tuple(FieldChoice(k, k.replace("_", " ")) for k in sorted(SKILLS))),
    ),
    enter_command={"type": "enter_card", "name_key": "hooper", "side_key": "side"},
    from_view={"energy": "max_energy"},
)

STATUS_PARTS = (
    Part("Onfire {onfire}", when="onfire", hide=("flat",)),
    Part("chips {chips.lv1}/{chips.lv2}", when="chips.lv1,chips.lv2"),
    Part("injured: {injuries}", when="injuries"),
    Part("EJECTED", when="ejected"),
    Part("OUT (injury)", when="injured_out"),
    Part("out of position", when="out_of_position"),
)

PANELS = (
    Panel("This attack", "/turn/slots", kind="line", join="   ",
          parts=(Part("{slot}: {action} {hooper}"), Part("({result})", when="result", hide=("played",)))),
    Panel("Lost", "/turn/lost_slots", kind="line", join="   ", parts=(Part("{.}: lost"),)),
    Panel("", "/sides/{side}", kind="line", per_side=True,
          parts=(Part("coach tokens {coach_tokens}", when="coach_tokens"),
                 Part("timeouts {timeouts}", when="timeouts"), Part("{tribe}", when="tribe"))),
    Panel("Line-up", "/sides/{side}/hoopers", per_side=True, muted="position", muted_values=("bench", None),
          alert=("ejected", "injured_out"),
          columns=(Column("position", "", default="bench", upper=True, width=0.6),
                   Column("name", "Hooper", opens_card=True, width=1.7),
                   Column("energy", "Energy", template="{energy}/{max_energy}", width=0.8),
                   # Cubes in words ("1 red, 2 white"), not "R1 W2".
                   Column("cubes", "Cubes", join=", ", width=1.1,
                          parts=(Part("{red} red", when="red"), Part("{white} white", when="white"))),
                   Column("status", "", parts=STATUS_PARTS, width=1.6))),
    # The Series only: the condition marker drawn, short and in full (what the next game's tap chose),
    # and where the Tribe marker stands.
    Panel("Series track", "/series", kind="line",
          parts=(Part("{condition_name} marker: {condition_text}", when="condition"),
                 Part("Tribe marker {track.text}", when="track"))),
    # The Series only: the two milestones of the side's gameplan card, live (empty otherwise).
    Panel("Gameplan", "/gameplans/sides/{side}/milestones", kind="line", per_side=True, join="   ",
          parts=(Part("{label}"),)),
)

BOX_SCORE = BoxScore(
    source="/box_score",
    # Field goals (3-pointers among them) and free throws as splits.py counts them; energy and
    # injury cubes stay on the Table screen, the end screen has room for shooting instead.
    columns=(Column("side", "Side", width=1.6), Column("name", "Hooper", width=2.2),
             Column("points", "Pts", default=0), Column("fg", "FG"), Column("3p", "3P"), Column("ft", "FT"),
             Column("red", "Red", default=0),
             Column("notes", "Notes", width=1.6,
                    parts=(Part("ejected", when="ejected"), Part("injured out", when="injured_out"),
                           Part("{injuries|count} injury", when="injuries")))),
    total_key="total",
    summary=("fg", "3p", "ft"),
)


# The Series between two games: the marker drawn by who won the opening d20, one tap to the next game
# (the prompt's ``next_game`` choices, series_views.py).
NEXT_GAME_GRID = ChoiceGrid(row_keys=("condition",), column_key="first_attacker", columns=(0, 1),
                            column_labels=("{side} won the d20",) * 2, cell_labels=("{side}",) * 2,
                            row_labels=MARKER_NAMES, corner="Marker drawn", per_line=2,
                            label_share=1.4)


def _frontend() -> Frontend:
    rosters: tuple[Any, ...] = tuple(_shipped(name) for name in SIDE_ROSTERS)
    return Frontend(
        setup_form=SETUP_FORM, card_form=CARD_FORM, rosters=rosters, panels=PANELS, box_score=BOX_SCORE,
        calculators=CALCULATORS, side_names=("Lucy", "Karl"),
        choice_grid=ChoiceGrid(row_keys=("shot", "action"), column_key="position", columns=POSITIONS,
                               names={"source": "/sides/{side}/hoopers", "key": "position", "label": "name"}),
        more_grids=(NEXT_GAME_GRID,),
    )


FRONTEND = _frontend()
