"""Valley Hoopers' calculators (``companion calc valley-hoopers attack|foul``, listed in the front end).

The fields are declared here and the rules each answer needs (targets, fouls, the card check) are
imported only when it is computed, so the CLI builds its options without loading the game.

>>> [c.name for c in CALCULATORS]
['attack', 'foul']
>>> attack_calculation({"stat": 70, "bonus": [15], "defense": 30, "foul_bonus": 0})["target"]
55
>>> foul_calculation({"action": "D3", "face": "whistle"})["defense_bonus"]
25
"""

from __future__ import annotations

from companion.forms import Calculator, FieldChoice, FormField
from companion.games.valley_hoopers.dice import FOUL_FACE_LABELS, FOUL_FACES

TYPE_CHECKING = False  # typing is an import `companion calc` can do without
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# The actions that roll the foul die, as fouls.FOUL_ACTIONS names them (not imported: that is the rules).
FOUL_ACTIONS = ("D2", "D3", "DLU", "steal", "intercept", "screen", "rebound", "block", "tribe_block")


def attack_calculation(values: Mapping[str, Any]) -> dict[str, Any]:
    """``companion calc valley-hoopers attack``: the target, its breakdown and the chance."""
    from companion.games.valley_hoopers.card_values import card_stat
    from companion.games.valley_hoopers.target_numbers import attack_target, automatic, chance

    for option in ("stat", "defense"):  # the game's own rule for a card's printed stat, as at setup
        card_stat(f"--{option}", values.get(option), "calc", missing_ok=False)
    defense = [values["defense"]] if values.get("defense") else []
    target = attack_target(values["stat"], values.get("bonus") or [], defense, values.get("foul_bonus") or 0)
    return {"target": target.value, "automatic": automatic(target), "p_success": float(chance(target)),
            "text": target.text}


def foul_calculation(values: Mapping[str, Any]) -> dict[str, Any]:
    """``companion calc valley-hoopers foul``: what a foul-die face means for an action."""
    from companion.games.valley_hoopers.fouls import foul_outcome

    return foul_outcome(values["action"], values["face"]).to_json()


CALCULATORS = (
    Calculator("attack", "target number and chance for an attack",
               (FormField("stat", "the hooper's stat", "int", minimum=0, maximum=100),
                FormField("bonus", "a bonus (repeat for several)", "int", multiple=True),
                FormField("defense", "the defender's stat", "int", default=0),
                FormField("foul_bonus", "the foul die's defense bonus", "int", default=0)),
               compute=attack_calculation),
    Calculator("foul", "what a foul-die face means for an action",
               (FormField("action", ", ".join(FOUL_ACTIONS), "choice",
                          choices=tuple(FieldChoice(a, a) for a in FOUL_ACTIONS)),
                FormField("face", "the foul die's face", "choice",
                          choices=tuple(FieldChoice(f, FOUL_FACE_LABELS[f]) for f in FOUL_FACES))),
               compute=foul_calculation),
)
