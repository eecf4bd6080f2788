"""What ``companion calc valley-hoopers ...`` offers: an attack's target and chance, a foul-die face.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> ATTACK.arguments(parser)
>>> ATTACK.run(parser.parse_args(["--stat", "70", "--bonus", "15", "--defense", "30"]))["p_success"]
0.55
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.game import Calculator
from companion.games.valley_hoopers.fouls import foul_outcome
from companion.games.valley_hoopers.targets import attack_target, automatic, chance


def _attack_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stat", type=int, required=True)
    parser.add_argument("--bonus", type=int, action="append", help="a bonus (repeat for several)")
    parser.add_argument("--defense", type=int, default=0)
    parser.add_argument("--foul-bonus", type=int, default=0)


def _attack(args: argparse.Namespace) -> dict[str, Any]:
    defense = [args.defense] if args.defense else []
    target = attack_target(args.stat, args.bonus or [], defense, args.foul_bonus)
    return {"target": target.value, "automatic": automatic(target), "p_success": float(chance(target)),
            "text": target.text}


def _foul_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--action", required=True, help="D2, D3, DLU, steal, intercept, screen, rebound, "
                        "block or tribe_block")
    parser.add_argument("--face", required=True)


def _foul(args: argparse.Namespace) -> dict[str, Any]:
    return foul_outcome(args.action, args.face).to_json()


ATTACK = Calculator("attack", "target number and chance for an attack", _attack_arguments, _attack)
FOUL = Calculator("foul", "what a foul-die face means for an action", _foul_arguments, _foul)
CALCULATORS = (ATTACK, FOUL)
