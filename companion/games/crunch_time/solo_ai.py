"""The solo AI coach: its defensive move by the rulebook's priorities, and its Star cards.

The court is not in the rulebook, so the app cannot see which zone an AI defender can reach. It
walks the priority list and asks the table one short question per candidate zone ("can an AI
player reach it in one space?"), best candidate first, and stops at the first zone it can take.

Priorities (Solo Rules, "Offensive Coach / Defensive AI"):

1. a highlighted zone where an AI display Star could then score on defence, 3 points before 2;
2. any uncovered 3-point zone; 3. any uncovered 2-point zone; 4. no move.
"If there are multiple plays that could be chosen for 1 to 3 above, don't choose a move that
leaves your Player undefended, if possible": within a priority, a move that uncovers one of the
human's players is taken only when no candidate of that priority can be reached without it.

>>> from companion.games.crunch_time.model import Possession, ShotCard, Zone
>>> card = ShotCard(None, (Zone(2, "offence"), Zone(3, "offence"), Zone(3, "both")))
>>> p = Possession(0, (card,), ai_matches=((0, 0),))
>>> candidate_levels(p)
[[(0, 0)], [(0, 1)], []]
>>> next_step(p)
('ask', (0, 0))
"""

from __future__ import annotations

from companion.games.crunch_time.model import AiAnswer, Possession, StarPlay

Spot = tuple[int, int]  # (Shot card index, zone index)


def _uncovered(possession: Possession) -> list[Spot]:
    return [(s, z) for s, card in enumerate(possession.shots) for z, zone in enumerate(card.zones)
            if zone.stand == "offence"]


def candidate_levels(possession: Possession) -> list[list[Spot]]:
    """The zones the AI would defend, as the three priority levels, best first within each."""
    starred = {m for m in possession.ai_matches if m is not None}
    open_spots = _uncovered(possession)

    def points(spot: Spot) -> int:
        return possession.shots[spot[0]].zones[spot[1]].points

    level1 = sorted((s for s in open_spots if s in starred), key=lambda s: -points(s))
    level2 = [s for s in open_spots if s not in level1 and points(s) == 3]
    level3 = [s for s in open_spots if s not in level1 and points(s) == 2]
    return [level1, level2, level3]


def next_step(possession: Possession) -> tuple[str, Spot | None] | tuple[str, Spot, AiAnswer]:
    """What the AI does next: ``("ask", spot)``, ``("move", spot, answer)`` or ``("stay", None)``."""
    answers = {(a.shot, a.zone): a for a in possession.ai_answers}
    for level in candidate_levels(possession):
        uncovering: AiAnswer | None = None
        for spot in level:
            answer = answers.get(spot)
            if answer is None:
                return ("ask", spot)
            if answer.answer == "free":
                return ("move", spot, answer)
            if answer.answer == "uncovers" and uncovering is None:
                uncovering = answer
        if uncovering is not None:
            return ("move", (uncovering.shot, uncovering.zone), uncovering)
    return ("stay", None)


def ai_star_plays(possession: Possession, role: str) -> tuple[tuple[int, StarPlay], ...]:
    """The AI display Stars that score now, by display index: each on a zone it shows, one per zone."""
    plays: list[tuple[int, StarPlay]] = []
    for index, match in enumerate(possession.ai_matches):
        if match is None:
            continue
        shot, zone = match
        where = possession.shots[shot].zones[zone]
        allowed = where.has_offence if role == "offence" else where.stand == "both"
        if allowed and not any(p.shot == shot and p.zone == zone for _, p in plays):
            plays.append((index, StarPlay(role, shot, zone)))
    return tuple(plays)
