"""Buttons, encoder and dice tray mapped onto the prompt: one or two presses to enter a roll."""

from __future__ import annotations

from companion.controls import TableControls


def snapshot(die: str | None = None, target: int | None = None, choices=()) -> dict:
    return {"prompt": {"die": die, "text": "t", "choices": list(choices),
                       "target": None if target is None else {"target": target}}}


def make(snap: dict) -> tuple[TableControls, list, list]:
    sent: list = []
    notes: list = []
    controls = TableControls(submit=lambda c: (sent.append(c), {"ok": True})[1], notify=notes.append)
    controls.update(snap)
    return controls, sent, notes


def press(role: str, kind: str = "press") -> dict:
    return {"type": "ButtonPress", "role": role, "kind": kind, "at": 0.0}


def test_encoder_starts_at_the_target_and_confirm_enters_the_dialled_face() -> None:
    controls, sent, _ = make(snapshot("d20x5", target=55))
    assert controls.selection() == "d20 of Valley Hoopers: 55"
    controls.on_input({"type": "EncoderTurn", "steps": -2})
    controls.on_input(press("CONFIRM"))
    assert sent == [{"type": "roll", "die": "d20x5", "face": 45}]


def test_foul_die_dial_offers_each_named_face_once() -> None:
    controls, sent, _ = make(snapshot("d8foul"))
    labels = []
    for _ in range(6):
        labels.append(controls.selection().split(": ")[1])
        controls.on_input({"type": "EncoderTurn", "steps": 1})
    assert labels == ["whistle", "whistle2", "whistle3", "charge", "jumpball", "blank"]
    assert controls.selection().endswith("whistle")  # wrapped round


def test_tray_roll_of_the_awaited_die_is_entered_with_no_press() -> None:
    controls, sent, notes = make(snapshot("d8foul"))
    controls.on_input({"type": "TrayRoll", "seq": 1, "die": "d8foul", "face": "whistle2"})
    assert sent == [{"type": "roll", "die": "d8foul", "face": "whistle2", "origin": "tray:1:d8foul:whistle2"}]
    assert notes == []


def test_tray_roll_of_another_die_is_refused_with_the_reason() -> None:
    controls, sent, notes = make(snapshot("d8foul"))
    controls.on_input({"type": "TrayRoll", "seq": 2, "die": "d6", "face": 4})
    assert sent == []
    assert notes == ["the tray sent a d6, the game is waiting for the d8 foul die"]


def answering(snap: dict, reply: dict) -> tuple[TableControls, list]:
    """Controls whose submit answers ``reply``; the log holds submits and tray answers in order."""
    log: list = []
    controls = TableControls(submit=lambda c: (log.append(("submit", c)), reply)[1], notify=lambda text: None,
                             answer_tray=lambda roll, refused: log.append(("answer", roll["seq"], refused)))
    controls.update(snap)
    return controls, log


def test_a_tray_roll_is_answered_only_after_the_service_replied_ok() -> None:
    controls, log = answering(snapshot("d6"), {"ok": True, "snapshot": {}})
    controls.on_input({"type": "TrayRoll", "seq": 4, "die": "d6", "face": 5, "epoch": 0})
    assert log == [("submit", {"type": "roll", "die": "d6", "face": 5, "origin": "tray:4:d6:5"}),
                   ("answer", 4, None)]


def test_a_resent_roll_recorded_before_a_restart_is_acknowledged_not_applied_again() -> None:
    # The service died after the commit, before the ACK left; the restarted one shows it last.
    recorded = {**snapshot("d8foul"), "last_origin": "tray:9:d6:5"}
    controls, log = answering(recorded, {"ok": True})
    controls.on_input({"type": "TrayRoll", "seq": 9, "die": "d6", "face": 5, "epoch": 0})
    assert log == [("answer", 9, None)]


def test_after_the_tray_restarted_the_same_seq_is_a_new_roll() -> None:
    # epoch 1: a HELLO came since the service started, so the tray's counter began again.
    recorded = {**snapshot("d6"), "last_origin": "tray:9:d6:5"}
    controls, log = answering(recorded, {"ok": True})
    controls.on_input({"type": "TrayRoll", "seq": 9, "die": "d6", "face": 5, "epoch": 1})
    assert log[0] == ("submit", {"type": "roll", "die": "d6", "face": 5, "origin": "tray:9:d6:5"})


def test_a_tray_roll_the_rules_refuse_gets_a_refusal_not_an_ack() -> None:
    controls, log = answering(snapshot("d6"), {"ok": False, "error": "no", "error_kind": "rule"})
    controls.on_input({"type": "TrayRoll", "seq": 5, "die": "d6", "face": 5, "epoch": 0})
    assert log[-1] == ("answer", 5, "refused")


def test_a_tray_roll_the_store_could_not_record_is_refused_as_not_recorded() -> None:
    controls, log = answering(snapshot("d6"), {"ok": False, "error": "disk full", "error_kind": "store"})
    controls.on_input({"type": "TrayRoll", "seq": 6, "die": "d6", "face": 5, "epoch": 0})
    assert log[-1] == ("answer", 6, "not_recorded")


def test_a_tray_roll_of_another_die_or_with_no_die_awaited_is_refused_without_a_submit() -> None:
    controls, log = answering(snapshot("d8foul"), {"ok": True})
    controls.on_input({"type": "TrayRoll", "seq": 7, "die": "d6", "face": 5, "epoch": 0})
    controls.update(snapshot(None))
    controls.on_input({"type": "TrayRoll", "seq": 8, "die": "d6", "face": 5, "epoch": 0})
    assert log == [("answer", 7, "wrong_die"), ("answer", 8, "not_waiting")]


def test_undo_needs_a_hold_and_a_tap_only_explains() -> None:
    controls, sent, notes = make(snapshot(choices=[{"label": "End turn", "command": {"type": "end_turn"}}]))
    controls.on_input(press("UNDO"))
    assert sent == [] and notes == ["hold UNDO for a second to undo"]
    controls.on_input(press("UNDO", "hold"))
    assert sent == [{"type": "undo"}]


def test_choices_are_dialled_and_home_away_jump_to_a_sides_choice() -> None:
    choices = [{"label": "a", "command": {"type": "x", "side": 0}},
               {"label": "b", "command": {"type": "y"}},
               {"label": "c", "command": {"type": "z", "side": 1}}]
    controls, sent, _ = make(snapshot(choices=choices))
    controls.on_input(press("AWAY"))
    assert controls.selection() == "c"
    controls.on_input(press("NEXT"))
    controls.on_input(press("ENCODER"))
    assert sent == [{"type": "x", "side": 0}]


def test_tray_and_display_status_reach_the_status_and_a_notice() -> None:
    statuses: dict = {}
    notes: list = []
    controls = TableControls(submit=lambda c: {"ok": True}, notify=notes.append,
                             status=statuses.__setitem__)
    controls.on_input({"type": "TrayRejected", "reason": "bad checksum: got 4A, computed 5B", "line": "x"})
    controls.on_input({"type": "DisplayStatus", "name": "home", "online": False, "detail": "errno 121"})
    assert statuses["tray_rejected"] == 1 and statuses["display:home"]["online"] is False
    assert notes[0] == "dice tray line ignored: bad checksum: got 4A, computed 5B"
    assert "display home is offline" in notes[1]


def test_the_dial_offers_the_faces_this_game_has_blank_only_if_the_die_has_one() -> None:
    no_blanks = ["whistle", "whistle2", "whistle3", "charge", "jumpball"]
    controls, _, _ = make({"prompt": {"die": "d8foul", "faces": no_blanks, "text": "t", "choices": []}})
    assert [label for label, _ in controls.entries()] == no_blanks
    three = [*no_blanks, "blank", "blank", "blank"]
    controls, _, _ = make({"prompt": {"die": "d8foul", "faces": three, "text": "t", "choices": []}})
    assert [label for label, _ in controls.entries()] == [*no_blanks, "blank"]


def test_the_dial_starts_on_the_succeeding_side_of_the_target_per_the_success_rule() -> None:
    faces = list(range(5, 101, 5))
    def prompt(success: str, target: int) -> dict:
        return {"prompt": {"die": "d20x5", "text": success, "choices": [], "target": {"target": target},
                           "die_info": {"name": "d20x5", "title": "the big die", "faces": faces,
                                        "success": success}}}
    controls, _, _ = make(prompt("at_most", 57))
    assert controls.selection() == "the big die: 55"  # 60 would be a miss
    controls.update(prompt("at_least", 57))
    assert controls.selection() == "the big die: 60"  # 55 would be a miss


def race_snapshot(tie_breaker: int = 2) -> dict:
    return {"prompt": {"die": None, "text": "race", "choices": [],
                       "race": {"sides": [0, 1, 2], "tie_breaker": tie_breaker, "command": "race",
                                "window_ms": 40, "label": "first to press"}}}


def make_race(snap: dict) -> tuple[TableControls, list, list]:
    sent: list = []
    timers: list = []
    # The buttons' clock reads 0 s: the race prompt is shown then, before every press of these tests.
    controls = TableControls(submit=lambda c: (sent.append(c), {"ok": True})[1], notify=lambda text: None,
                             later=lambda delay, call: timers.append((delay, call)), clock=lambda: 0.0)
    controls.update(snap)
    return controls, sent, timers


def side_press(role: str, at: float) -> dict:
    return {"type": "ButtonPress", "role": role, "kind": "press", "at": at}


def test_a_race_goes_to_the_first_edge_when_the_window_closes() -> None:
    controls, sent, timers = make_race(race_snapshot())
    controls.on_input(side_press("AWAY", 10.000))
    controls.on_input(side_press("HOME", 10.100))  # after the window: no tie
    assert sent == [] and len(timers) == 1 and timers[0][0] >= 0.04
    timers[0][1]()
    assert sent == [{"type": "race", "order": [1, 0, 2], "tie": False,
                     "presses": [{"side": 1, "ms": 0}, {"side": 0, "ms": 100}]}]


def test_a_tie_within_the_race_window_goes_to_the_tie_breaker_holder() -> None:
    controls, sent, timers = make_race(race_snapshot(tie_breaker=2))
    controls.on_input(side_press("HOME", 5.000))
    controls.on_input(side_press("SIDE3", 5.030))  # dated by its first edge: 30 ms later, a tie
    timers[0][1]()
    assert sent[0]["order"][0] == 2 and sent[0]["tie"] is True


def test_a_race_the_prompt_left_behind_sends_nothing() -> None:
    controls, sent, timers = make_race(race_snapshot())
    controls.on_input(side_press("HOME", 1.0))
    controls.update({"prompt": {"die": None, "text": "something else", "choices": []}})  # an undo
    timers[0][1]()
    assert sent == []


def test_a_pool_keeps_each_face_until_the_count_is_in_then_sends_one_roll() -> None:
    snap = {"prompt": {"die": "d6", "text": "roll three d6", "choices": [], "faces": [1, 2, 3, 4, 5, 6],
                       "pool": {"die": "d6", "count": 3}}}
    controls, sent, _ = make(snap)
    controls.on_input({"type": "TrayRoll", "seq": 1, "die": "d6", "face": 4})
    assert controls.selection() == "d6 2/3: 1"
    controls.on_input({"type": "EncoderTurn", "steps": 5})
    controls.on_input(press("CONFIRM"))  # a 6
    controls.on_input(press("UNDO"))  # takes the 6 back, undoes nothing
    assert sent == []
    controls.on_input({"type": "TrayRoll", "seq": 2, "die": "d6", "face": 2})
    controls.on_input({"type": "TrayRoll", "seq": 3, "die": "d6", "face": 2})
    assert sent == [{"type": "roll", "die": "d6", "faces": [4, 2, 2]}]


def test_a_sealed_value_is_dialled_from_the_lowest_and_never_shown_on_the_dial() -> None:
    sealed = {"sides": [0, 1, 2], "entered": [1], "command": "sealed_bid", "field": "amount", "min": 0,
              "max_by_side": {"0": 9, "2": 4}}
    snap = {"prompt": {"die": None, "text": "bids: 1 of 3 in", "choices": [], "sealed": sealed}}
    controls, sent, _ = make(snap)
    statuses: list = []
    controls.status = lambda key, value: statuses.append((key, value))
    for _ in range(3):
        controls.on_input({"type": "EncoderTurn", "steps": 1})
    assert all("3" not in str(value) for _, value in statuses)  # the dial reaches the OLED and every client
    assert controls.selection() == "secret amount: dial, then CONFIRM"
    controls.on_input(press("CONFIRM"))
    assert sent == [{"type": "sealed_bid", "side": 0, "amount": 3}]  # the first side still to bid
    controls.update({"prompt": {**snap["prompt"], "text": "bids: 2 of 3 in",
                                "sealed": {**sealed, "entered": [0, 1]}}})
    controls.on_input({"type": "EncoderTurn", "steps": 7})  # wraps within side 2's $0-$4
    controls.on_input(press("CONFIRM"))
    assert sent[-1] == {"type": "sealed_bid", "side": 2, "amount": 2}
