"""A game of The Series for the gameplan tests: the test hoopers with 20 energy, driven through the rules.

Every helper sends real commands through ``decide``/``apply`` (as the session does) and answers the
choices the rules queue on the way (period milestones: nobody; injury markers: "lucky"...), so a
test can say what happens in the rulebook's words: ``table.score("Muy Schillato", "3PS")``.
Lucy (side 0) starts Serge Ceptor, Muy Schillato (stellar), Dime N'Shons, Wally Block, Never Tired,
with Reley Baton and Joy Kill on the bench side; Karl (side 1) starts May Friend, Chus Kinder, Edd
Trapp, Hector Prot, Perry Hel, with Linda Siempre and Manny Gentle on the bench side.
"""

from __future__ import annotations

from typing import Any

from games.valley_hoopers_table import Table, karl_hoopers, lucy_hoopers, options

from companion.games.valley_hoopers.gameplans import evaluate

# Who defends whom: a defender whose flag covers the attacker's position (and no skill in the way).
DEFENDERS = {0: {"PG": "May Friend", "SG": "Chus Kinder", "SF": "Edd Trapp", "PF": "Hector Prot",
                 "C": "Hector Prot"},
             1: {"PG": "Serge Ceptor", "SG": "Muy Schillato", "SF": "Dime N'Shons", "PF": "Wally Block",
                 "C": "Never Tired"}}


def series_options(game: int = 1, energy: int = 20, **extra: Any) -> dict[str, Any]:
    opts = options(series_game=game, **extra)
    for side, cards in ((0, lucy_hoopers()), (1, karl_hoopers())):
        opts["sides"][side]["hoopers"] = [{**c, "energy": energy} for c in cards]
    return opts


class SeriesTable(Table):
    def __init__(self, game: int = 1, opts: dict[str, Any] | None = None, **extra: Any) -> None:
        super().__init__(opts or series_options(game, **extra))

    # --- the flow ---------------------------------------------------------------------------------
    def settle(self) -> SeriesTable:
        """Answer what the rules ask before play goes on, the plainest way."""
        while self.state.decisions and not self.state.final:
            decision = self.state.decisions[0]
            if decision.kind == "upgrade":
                self.do("upgrade", hooper=None)
            elif decision.kind == "injury":
                self.do("injury", effect="lucky")
            elif decision.kind == "cure":
                self.do("cure", hooper=None)
            elif decision.kind == "replace":
                self.do("replace", hooper=self.state.side(decision.side).bench()[0].name)
            elif decision.kind == "timeout_answer":
                names = [h.name for h in self.state.side(decision.side).on_court()[:2]]
                self.do("timeout_energy", hoopers=names)
            else:
                raise AssertionError(f"the test table does not answer {decision.kind}")
        return self

    def turn_to(self, side: int) -> SeriesTable:
        """End turns until ``side`` attacks (each end_turn gives up the ball)."""
        self.settle()
        while self.state.turn.attacker != side or self.state.pending.kind != "play":
            self.do("end_turn").settle()
        return self

    def next_period(self) -> SeriesTable:
        period = self.state.period
        while self.state.period == period and not self.state.final:
            self.do("end_turn").settle()
        return self

    def side_of(self, name: str) -> int:
        return self.state.owner(name)

    def position(self, name: str) -> str:
        court = self.hooper(name).court
        assert court is not None, f"{name} is on the bench"
        return court

    # --- shots ------------------------------------------------------------------------------------
    def score(self, name: str, shot: str = "2PS", times: int = 1) -> SeriesTable:
        for _ in range(times):
            self.turn_to(self.side_of(name))
            self.do("attack", shot=shot, hooper=name)
            if self.state.pending.kind == "defense_window":
                self.do("no_defense")
            if self.state.pending.kind == "attack_roll":
                self.roll(5)
            self.settle()
        return self

    def miss(self, name: str, shot: str = "2PS") -> SeriesTable:
        self.turn_to(self.side_of(name))
        self.do("attack", shot=shot, hooper=name).do("no_defense")
        self.roll(100)
        if self.state.pending.kind == "rebound_window":
            self.do("no_rebound")
        return self.settle()

    def fouled(self, name: str, shot: str = "2PS", made: bool = False, free_throws: tuple[int, ...] = ()
               ) -> SeriesTable:
        """``name`` shoots, a defender fouls (whistle), then the shot and the free throws are rolled."""
        side = self.side_of(name)
        self.turn_to(side)
        defender = DEFENDERS[side][self.position(name)]
        self.do("attack", shot=shot, hooper=name).do("defend", hooper=defender).roll("whistle")
        self.roll(5 if made else 100)
        for face in free_throws:
            self.roll(face)
        return self.settle()

    # --- cubes, chips, coach ----------------------------------------------------------------------
    def red_to(self, name: str) -> SeriesTable:
        """``name`` screens and commits the offensive foul (whistle 2): one red cube."""
        side = self.side_of(name)
        self.turn_to(side)
        self.do("fundamental", action="screen", hooper=name).roll("whistle2")
        # The fouled side picks its least hurt hooper, so reds never injure anybody by the way.
        fouled = min(self.state.side(1 - side).on_court(), key=lambda h: h.white)
        return self.do("white_cube", hooper=fouled.name).settle()

    def white_to(self, name: str) -> SeriesTable:
        """The opponent screens with an offensive foul, and ``name``'s side gives ``name`` the white cube."""
        side = self.side_of(name)
        self.turn_to(1 - side)
        screener = min(self.state.side(1 - side).on_court(), key=lambda h: h.red)  # nobody gets ejected
        self.do("fundamental", action="screen", hooper=screener.name).roll("whistle2")
        return self.do("white_cube", hooper=name).settle()

    def lv1_chip(self, name: str) -> SeriesTable:
        """Two baskets take ``name`` to LV.I; the LV.1 chip is redeemed."""
        return self.score(name, times=2).do("redeem", hooper=name)

    def lv2_chip(self, name: str) -> SeriesTable:
        """Three baskets in a row take ``name`` past LV.I to the LV.2 chip."""
        return self.score(name, times=3)

    def timeout(self, side: int) -> SeriesTable:
        return self.turn_to(side).do("timeout").settle()

    def bring_in(self, side: int, changes: dict[str, str]) -> SeriesTable:
        return self.turn_to(side).do("substitute", changes=changes).settle()

    def playbook(self, name: str, playbook: str, made: bool = True) -> SeriesTable:
        """``name`` dribbles in F1, the common ``playbook`` is activated, then ``name`` shoots a 2PS."""
        self.turn_to(self.side_of(name))
        self.do("fundamental", action="dribble", hooper=name).do("no_counter")
        self.do("playbook", name=playbook, common=True)
        self.do("attack", shot="2PS", hooper=name)
        if self.state.pending.kind == "attack_roll":
            self.roll(5 if made else 100)
        if self.state.pending.kind == "playbook_reward":
            self.do("playbook_reward", reward="draw2")
        if self.state.pending.kind == "rebound_window":
            self.do("no_rebound")
        return self.settle()

    def take(self, side: int, card: int) -> SeriesTable:
        return self.turn_to(side).do("gameplan", card=card)

    # --- reading ----------------------------------------------------------------------------------
    def met(self, condition: str, side: int = 0) -> bool:
        return evaluate(self.state, side, condition).met

    def progress(self, condition: str, side: int = 0) -> str:
        return evaluate(self.state, side, condition).progress
