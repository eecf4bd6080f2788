"""The kiosk's parts that need no window: words from snapshots, remembered cards, the socket link,
and the boundaries (no rules and no hardware in the kiosk, no Kivy in the table)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.frontend import game_info
from companion.games.valley_hoopers import GAME as VALLEY_HOOPERS
from companion.games.valley_hoopers.setup_options import example_options
from kiosk import cards, parts, present
from kiosk.client import TableConnection, service_answers
from kiosk.launcher import parse_args

ROOT = Path(__file__).resolve().parents[1]
# What the service's game_info op sends for Valley Hoopers (JSON round trip: what the kiosk reads).
VH_INFO = json.loads(json.dumps(game_info(VALLEY_HOOPERS)))


def _panel(title: str) -> dict:
    return next(p for p in VH_INFO["panels"] if p["title"] == title)


# -- words from snapshots ----------------------------------------------------------------------------

def test_target_breakdown_names_every_term_with_its_sign() -> None:
    target = {"stat_label": "2PS Muy Schillato", "stat": 50, "target": 25,
              "bonuses": [{"label": "dribble", "value": 15}, {"label": "tired", "value": -10}],
              "defense": [{"label": "D2 Chus Kinder", "value": 20},
                          {"label": "foul bonus whistle", "value": 20}, {"label": "helped", "value": -10}]}
    assert present.target_breakdown(target) == (
        "50 2PS Muy Schillato + 15 dribble - 10 tired - 20 D2 Chus Kinder - 20 foul bonus whistle"
        " + 10 helped = 25")


def test_chance_line_for_a_roll_and_for_an_automatic_success() -> None:
    prompt = {"die": "d20x5", "target": {"target": 55}, "p_success": 0.55, "expected_points": 1.65}
    # "or less" is the roll's reading the engine sends (die_info), or a die's declared one; not the kiosk's.
    low = {**prompt, "die_info": {"name": "d20x5", "success": "at_most"}}
    assert present.chance_line(low, VH_INFO) == "Roll 55 or less · 55% chance · 1.65 points expected"
    high = {**prompt, "die_info": {"name": "d20", "success": "at_least"}}
    assert present.chance_line(high).startswith("Roll 55 or more · ")
    assert present.chance_line(prompt) == "55% chance · 1.65 points expected", "no reading declared: no rule"
    assert present.chance_line({"automatic": True, "die": "d20x5"}) == "Automatic success: no roll needed"


def test_the_pad_shows_exactly_the_faces_of_the_awaited_die() -> None:
    assert present.die_faces({"die": "d20x5"}, VH_INFO) == list(range(5, 101, 5))
    assert present.die_faces({"die": "d8foul"}, VH_INFO) == ["whistle", "whistle2", "whistle3", "charge",
                                                             "jumpball", "blank"]
    assert present.die_faces({"die": "d8foul"}) == [], "the kiosk knows no die by itself"
    engine = {"die": "dX", "die_info": {"faces": [1, 2, 3], "success": "lookup"},
              "face_marks": [{"face": 1, "success": True}, {"face": 2, "success": False}]}
    assert present.die_faces(engine) == [1, 2, 3]
    assert [present.face_success(engine, None, f) for f in (1, 2, 3)] == [True, False, None]
    shot = {"die": "d20x5", "target": {"target": 55}, "die_info": {"name": "d20x5", "success": "at_most"}}
    assert [present.face_success(shot, VH_INFO, f) for f in (55, 60)] == [True, False]
    sent = {"die": "d8foul", "faces": ["whistle", "blank", "blank"]}
    assert present.die_faces(sent) == ["whistle", "blank"]
    assert present.die_faces({"die": None, "choices": []}) == []


def test_turn_line_and_score_line_read_the_view_and_the_scoreboard() -> None:
    snapshot = {"view": {"period": 2, "turn": {"pair": 3, "pairs_in_period": 8, "attacker": 1}},
                "scoreboard": {"sides": [{"name": "Lucy", "score": 12}, {"name": "Karl", "score": 9}]}}
    assert present.turn_line(snapshot) == "P2 · pair 3 of 8 · Karl attacks"
    assert present.score_line(snapshot) == "Lucy 12 - 9 Karl"
    assert present.turn_line({"view": {}, "scoreboard": {"period": "P1", "clock": "3"}}) == "P1 · 3"
    over = {"view": {"period": 5, "period_label": "OT1", "turn": {"pair": 4, "attacker": 0}},
            "scoreboard": {"final": True}, "outcome": {"winner": 0}}
    assert present.turn_line(over) == "OT1 · final"


def test_the_line_up_panel_shows_energy_cubes_onfire_chips_injury_and_ejection() -> None:
    view = {"sides": [{"hoopers": [
        {"name": "Edd Trapp", "position": "SF", "energy": 2, "max_energy": 5, "red": 4, "white": 1,
         "onfire": "LV.I", "chips": {"lv1": 1, "lv2": 0}, "injuries": ["attack_minus_10"], "ejected": True},
        {"name": "Bo Bench", "position": "bench", "energy": 5, "max_energy": 5, "red": 0, "white": 0,
         "onfire": "flat", "chips": {"lv1": 0, "lv2": 0}, "injuries": []}]}]}
    rows = parts.panel_rows(_panel("Line-up"), view, 0)
    assert [cells for _row, cells, _tone in rows] == [
        ["SF", "Edd Trapp", "2/5", "4 red, 1 white",
         "Onfire LV.I, chips 1/0, injured: attack minus 10, EJECTED"],
        ["bench", "Bo Bench", "5/5", "", ""]]
    assert [tone for _row, _cells, tone in rows] == ["alert", "muted"]


def test_missing_keys_never_break_the_words() -> None:
    assert present.turn_line({"view": {}, "scoreboard": {}}) == ""
    assert parts.panel_line(_panel("This attack"), {}) == ""
    assert parts.box_score(VH_INFO, {}) == [["Side", "Hooper", "Pts", "FG", "3P", "FT", "Red", "Notes"]]
    assert parts.box_score({}, {}) == [[]]
    assert present.result_line({"outcome": {"winner": None, "reason": "20-20"},
                                "scoreboard": {"sides": [{"name": "A"}, {"name": "B"}]}}) == "A draw: 20-20"


def test_a_ranking_of_several_sides_names_the_places_and_shared_first() -> None:
    snapshot = {"outcome": {"winner": None, "places": [[0, 2], [1], [3]], "reason": "most money"},
                "scoreboard": {"sides": [{"name": n} for n in ("Ann", "Bo", "Cy", "Di")]}}
    assert present.result_line(snapshot) == "Ann and Cy share first place: most money"
    assert present.places_line(snapshot) == "1st Ann and Cy · 3rd Bo · 4th Di"


def test_slots_are_shown_in_the_order_the_view_lists_them_with_lost_slots() -> None:
    view = {"turn": {"slots": [{"slot": "F1", "action": "dribble", "hooper": "Serge Ceptor",
                                "result": "played"},
                               {"slot": "A", "action": "2PS", "hooper": "Muy Schillato", "result": "scored"}],
                     "lost_slots": ["F2"]}}
    assert parts.panel_line(_panel("This attack"), view) == ("F1: dribble Serge Ceptor   "
                                                             "A: 2PS Muy Schillato (scored)")
    assert parts.panel_line(_panel("Lost"), view) == "F2: lost"


# -- remembered cards and the setup options ----------------------------------------------------------

@pytest.fixture()
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config" / "courtside-companion"


def test_an_edited_card_is_remembered_per_game_in_the_user_config_folder(config_home: Path) -> None:
    form = VH_INFO["card_form"]
    card = {"name": "Edd Trapp", "energy": 5, "stats": {"2PS": 45, "D2": None},
            "defense_positions": ["SG", "SF", "PF"], "second_position": None}
    cards.save_card("valley-hoopers", card, form)
    stored = json.loads((config_home / "cards" / "valley-hoopers.json").read_text())
    assert stored == {"Edd Trapp": {"name": "Edd Trapp", "energy": 5, "stats": {"2PS": 45},
                                    "defense_positions": ["SG", "SF", "PF"]}}
    card = cards.card_for("Edd Trapp", cards.shipped_rosters(VH_INFO), cards.load_cards("valley-hoopers"))
    assert card["stats"] == {"D3": 30, "V": 55, "LUP": 65, "2PS": 45}, "printed stats stay, entered ones join"
    assert cards.load_cards("another-game") == {}, "cards are kept per game"


def test_new_game_options_lay_the_remembered_cards_over_the_shipped_rosters(config_home: Path) -> None:
    cards.save_card("valley-hoopers", {"name": "Muy Schillato", "stats": {"2PS": 50}, "energy": 5},
                    VH_INFO["card_form"])
    setup = cards.load_last_setup(VH_INFO)
    options = cards.game_options(VH_INFO, setup, cards.shipped_rosters(VH_INFO),
                                 cards.load_cards("valley-hoopers"))
    lucy = options["sides"][0]
    assert lucy["roster"] == "unleashed" and lucy["lineup"]["SG"] == "Muy Schillato"
    assert {"name": "Muy Schillato", "energy": 5, "stats": {"2PS": 50}} in lucy["hoopers"]
    assert "Serge Ceptor" in lucy["hoopers"] and len(lucy["hoopers"]) == 7
    state = VALLEY_HOOPERS.setup(options)  # the service accepts what the kiosk builds
    assert state.sides[0].hooper("Muy Schillato").stat("2PS") == 50
    # The preset's options come back unchanged when nothing was edited (apart from the entered card),
    # with the form's defaults for The Series' fields (a Classic game reads neither).
    plain = cards.game_options(VH_INFO, setup, cards.shipped_rosters(VH_INFO), {})
    assert plain == {**example_options(), "home": 0, "condition": "playbook",
                     "sides": [{**side, "hoopers": side["hoopers"]} for side in example_options()["sides"]]}


def test_setup_warnings_name_the_out_of_position_hooper_and_the_empty_spot(config_home: Path) -> None:
    setup = cards.load_last_setup(VH_INFO)
    side = setup["sides"][1]
    side["picked"]["Edd Trapp"] = "C"
    side["picked"]["Perry Hel"] = "bench"
    warnings = cards.pick_warnings(VH_INFO, side, cards.shipped_rosters(VH_INFO), {})
    assert "nobody at SF" in warnings
    assert "Edd Trapp out of position at C (card: SF)" in warnings


def test_the_last_setup_is_remembered_per_game(config_home: Path) -> None:
    setup = cards.load_last_setup(VH_INFO)
    setup["sides"][0]["name"] = "Lucia"
    cards.save_last_setup(setup)
    assert cards.load_last_setup(VH_INFO)["sides"][0]["name"] == "Lucia"
    assert cards.side_colours()["Lucia"] == "2f7de1"
    other = {"name": "three-sides", "sides": {"min": 3, "max": 3, "names": ["A", "B", "C"]}}
    assert [s["name"] for s in cards.load_last_setup(other)["sides"]] == ["A", "B", "C"]


def test_roster_files_in_the_config_folder_are_offered_for_import(config_home: Path) -> None:
    folder = config_home / "rosters"
    folder.mkdir(parents=True)
    (folder / "club.json").write_text(json.dumps({"tribe": "custom", "hoopers": [{"name": "Ann Dunk"}]}))
    (folder / "broken.json").write_text("{not json")
    assert list(cards.imported_rosters(VH_INFO)) == ["import:club"]


# -- the socket link ---------------------------------------------------------------------------------

def _serve(path: Path, db: Path) -> subprocess.Popen[bytes]:
    """A real ``companion serve`` process (restarting one in-process would share its file descriptors)."""
    argv = [sys.executable, "-m", "table.cli", "--db", str(db), "serve", "--no-hardware",
            "--socket", str(path)]
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(lambda: service_answers(path, 0.2), timeout=20)
    except BaseException:  # not answering: not left running either
        child.kill()
        child.wait()
        raise
    return child


def _wait(condition, timeout: float = 5.0) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_link_delivers_replies_and_pushes_then_reconnects_after_the_service_restarts(tmp_path: Path) -> None:
    path = tmp_path / "t.sock"
    service = _serve(path, tmp_path / "t.db")
    services = [service]
    try:
        events: list[dict] = []
        states: list[str] = []
        outside_deliver: list[object] = []
        inside = threading.local()

        def deliver(call) -> None:  # noqa: ANN001 - stands in for Clock.schedule_once
            inside.yes = True
            try:
                call()
            finally:
                inside.yes = False

        def checked(sink):  # noqa: ANN001, ANN202
            def receive(value) -> None:  # noqa: ANN001
                if not getattr(inside, "yes", False):
                    outside_deliver.append(value)
                sink.append(value)
            return receive

        link = TableConnection(path, on_message=checked(events), deliver=deliver, on_state=checked(states),
                               retry_every=0.05)
        link.start()
        _wait(lambda: states == ["connected"])
        replies: list[dict] = []
        new_game = {"op": "new_game", "game": "valley-hoopers", "options": example_options()}
        link.request(new_game, checked(replies))
        _wait(lambda: replies and any(e.get("event") == "snapshot" for e in events))
        assert replies[0]["ok"] and replies[0]["snapshot"]["view"]["score"] == [0, 0]

        service.kill()
        service.wait()
        _wait(lambda: states[-1] == "reconnecting")
        offline: list[dict] = []
        link.request({"op": "state"}, checked(offline))
        _wait(lambda: bool(offline))
        assert offline[0]["error_kind"] == "offline", "a tap while the service is down is answered at once"

        service = _serve(path, tmp_path / "t.db")
        services.append(service)
        _wait(lambda: states[-1] == "connected")
        # >= 2: a crash closes the service's sockets one by one, so the link may first reach the dying
        # listener's backlog and be dropped again before the new service answers.
        assert link.connects >= 2 and states[-1] == "connected"
        again: list[dict] = []
        link.request({"op": "state"}, checked(again))
        _wait(lambda: bool(again))
        assert again[0]["ok"] and again[0]["snapshot"]["game_id"] == replies[0]["snapshot"]["game_id"]
        link.stop()
        service.terminate()
        service.wait()
        assert outside_deliver == [], "every reply, event and link change goes through deliver()"
    finally:
        for child in services:
            if child.poll() is None:
                child.kill()
                child.wait()


def test_service_answers_only_when_a_table_listens(tmp_path: Path) -> None:
    assert not service_answers(tmp_path / "nobody.sock", timeout=0.2)
    (tmp_path / "stale.sock").write_text("")
    assert not service_answers(tmp_path / "stale.sock", timeout=0.2)


def test_run_arguments() -> None:
    args = parse_args(["--sim", "--socket", "/tmp/x.sock", "--screenshot", "a.png", "--size", "1280x720"])
    assert (args.sim, args.size, str(args.socket)) == (True, (1280, 720), "/tmp/x.sock")
    with pytest.raises(SystemExit):
        parse_args(["--size", "big"])


# -- boundaries --------------------------------------------------------------------------------------

def _imports(folder: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in folder.rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def test_the_table_never_imports_kivy() -> None:
    for path, names in _imports(ROOT / "companion").items():
        assert not any(n.split(".")[0] == "kivy" for n in names), path


def test_the_kiosk_holds_no_rules_and_no_hardware() -> None:
    for path, names in _imports(ROOT / "kiosk").items():
        tops = {n.split(".")[0] for n in names}
        assert not tops & {"gpiozero", "luma", "serial", "hardware", "lgpio", "smbus2", "spidev"}, path
        companion = {n for n in names if n.split(".")[0] == "companion"}
        # Only the service's default socket path: game names come over the socket, never a rule module.
        assert companion <= {"companion.protocol"}, (path, companion)


def test_the_examples_in_the_kiosk_docstrings_hold() -> None:
    import doctest

    import kiosk.cards
    import kiosk.client
    import kiosk.command_form
    import kiosk.launcher
    import kiosk.number_pad
    import kiosk.parts
    import kiosk.present
    import kiosk.startup
    import kiosk.status_words

    for module in (kiosk.cards, kiosk.client, kiosk.command_form, kiosk.launcher, kiosk.number_pad,
                   kiosk.parts, kiosk.present, kiosk.startup, kiosk.status_words):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__




def test_a_game_of_three_sides_without_rosters_sets_up_from_its_form_alone(config_home: Path) -> None:
    info = {"name": "three-way", "sides": {"min": 3, "max": 5, "names": ["Ann", "Bo", "Cy", "Di", "Ed"]},
            "setup_form": {"fields": [{"key": "rounds", "kind": "int", "default": 4}],
                           "side_fields": [{"key": "name", "kind": "text"},
                                           {"key": "bank", "kind": "int", "default": 10}]}}
    setup = cards.load_last_setup(info)
    assert [s["name"] for s in setup["sides"]] == ["Ann", "Bo", "Cy"]
    setup["sides"][1]["fields"]["bank"] = 12
    options = cards.game_options(info, setup, {}, {})
    assert options == {"rounds": 4, "sides": [{"name": "Ann", "bank": 10}, {"name": "Bo", "bank": 12},
                                              {"name": "Cy", "bank": 10}]}
    assert cards.pick_warnings(info, setup["sides"][0], {}, {}) == []


def test_a_lookup_roll_lists_its_outcomes_and_choices_show_their_own_odds() -> None:
    prompt = {"die": "d20", "die_info": {"name": "d20", "title": "d20", "faces": list(range(1, 21)),
                                         "success": "lookup"},
              "target": {"text": "Shot chart of Ann: 1-9 miss, 10-17 two, 18-20 three"},
              "outcomes": [{"label": "miss", "probability": 0.45, "gives": "0 points", "faces": [1]},
                           {"label": "two", "probability": 0.4, "gives": "2 points", "faces": [10]},
                           {"label": "three", "probability": 0.15, "gives": "3 points", "faces": [18]}]}
    assert present.target_breakdown(prompt["target"]) == "Shot chart of Ann: 1-9 miss, 10-17 two, 18-20 three"
    assert present.outcome_lines(prompt) == ["miss: 0 points (45%)", "two: 2 points (40%)",
                                             "three: 3 points (15%)"]
    assert present.chance_line(prompt) == "", "a lookup has no single number to roll under or over"
    assert present.choice_label({"label": "3PS Ann", "p_success": 0.55}) == "3PS Ann · 55%"
    hinted = {"label": "3PS Ann", "hint": "55 or less: 55%"}
    assert present.choice_label(hinted) == "3PS Ann · 55 or less: 55%"
    assert present.choice_label({"label": "end turn"}) == "end turn"


def test_a_single_lead_and_several_sides_read_as_the_scoreboard_says() -> None:
    lead = {"scoreboard": {"sides": [{"name": "Ann", "score": None}, {"name": "Bo", "score": None}],
                           "lead": {"side": 1, "value": 3}}}
    assert present.score_line(lead) == "Bo leads by 3"
    three = {"scoreboard": {"sides": [{"name": "Ann", "score": 3, "fouls": None,
                                       "counters": [{"label": "cash", "value": 12}]},
                                      {"name": "Bo", "score": 1}, {"name": "Cy", "score": 0}]}}
    assert present.score_line(three) == "Ann 3 - Bo 1 - Cy 0"
    assert (present.fouls_line(three, 0), present.counters_line(three, 0)) == ("", "cash 12")
    fouled = {"scoreboard": {"sides": [{"fouls": 4, "bonus": True}]}}
    assert present.fouls_line(fouled, 0) == "Team fouls 4  BONUS"


def test_settings_never_says_no_hardware_under_a_connected_tray() -> None:
    from kiosk.status_words import hardware_words

    # A pushed tray state before (or without) the service's hardware summary.
    words = hardware_words({"tray": {"state": "connected", "detail": "/dev/pts/13"}})
    assert words["tray"] == "Dice tray: connected (/dev/pts/13)"
    assert "none" not in words["hardware"] and "no report" not in words["hardware"]
    # The whole report: the summary's tray port and displays agree with the pushed parts.
    words = hardware_words({"tray": {"state": "connected", "detail": ""},
                            "hardware": {"sim": True, "buttons": ["CONFIRM"], "encoder": True,
                                         "tray": {"state": "connected", "port": "/dev/pts/4"},
                                         "displays": {"main": {"online": True, "detail": "dummy"}}},
                            "display:main": {"online": False, "detail": "I2C error"}})
    assert words == {"tray": "Dice tray: connected on /dev/pts/4",
                     "displays": "OLED: main OFFLINE (I2C error)",
                     "hardware": "Hardware: simulated; buttons CONFIRM; encoder yes"}
    # No hardware at all: every line says so, none claims a part.
    words = hardware_words({})
    assert words["tray"].startswith("Dice tray: none") and words["displays"] == "OLED: none"
    # A summary with no tray configured: not "not connected" under a report that says nothing of it.
    assert hardware_words({"hardware": {"sim": False, "tray": None}})["tray"] == "Dice tray: none configured"
    # The last push of a table shutting down: its hardware is closed, not "no buttons, no encoder".
    assert hardware_words({"hardware": {"sim": True, "closed": True}})["hardware"] == \
        "Hardware: closed (the table is shutting down)"


def test_no_display_is_named_before_anything_starts() -> None:
    from kiosk.startup import display_problem

    assert display_problem({"DISPLAY": ":0"}) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None
    assert display_problem({"SDL_VIDEODRIVER": "wayland,x11"}) is not None, "wayland needs a compositor"
    assert display_problem({"SDL_VIDEODRIVER": "kmsdrm"}) is None  # the appliance, on the Pi's screen
    assert "DISPLAY and WAYLAND_DISPLAY are not set" in display_problem({"SSH_CONNECTION": "x"})


def test_the_number_pad_takes_a_stat_on_its_last_digit_and_refuses_one_out_of_range() -> None:
    from kiosk.number_pad import complete, refusal

    assert [complete(t, 100) for t in ("5", "55", "1", "10", "100")] == [False, True, False, False, True]
    assert refusal(55, 0, 100) == "" and refusal(None, 0, 100) == "type a number"
    assert refusal(150, 0, 100) == "150 is not 0-100" and refusal(3, 5, None) == "3 is not 5-..."
