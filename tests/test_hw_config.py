"""The hardware configuration file: defaults, the documented example, and every kind of refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.config import ConfigError, HardwareConfig, find_config, load_config, parse_config

REPO = Path(__file__).resolve().parents[1]


def test_the_documented_example_loads_and_sets_every_section():
    cfg = load_config(REPO / "config.example.toml")
    assert cfg.buttons.pins["UNDO"] == 19 and cfg.buttons.hold_s["UNDO"] == 1.0
    assert cfg.encoder is not None and (cfg.encoder.a, cfg.encoder.b, cfg.encoder.push) == (17, 27, 22)
    assert cfg.tray is not None and cfg.tray.baud == 115200
    assert [(d.name, d.type, d.size) for d in cfg.displays] == [
        ("home", "ssd1306", (128, 64)), ("away", "sh1106", (128, 64)), ("wide", "ssd1322", (256, 64))]
    assert cfg.displays[1].address == 0x3D and cfg.displays[1].rotate == 2
    assert cfg.leds.possession == (12, 16) and cfg.leds.buzzer == 18
    assert cfg.burn_in.idle_dim_s == 300


def test_every_key_of_the_example_is_one_the_loader_knows():
    # The example must document all keys: compare against the dataclass fields it feeds.
    text = (REPO / "config.example.toml").read_text()
    for key in ("debounce_ms", "tie_window_ms", "push_hold_s", "baud", "address", "rotate", "side",
                "partial", "dc", "reset", "possession", "bonus", "buzzer", "buzzer_s", "idle_dim_s",
                "pixel_shift_minutes", "contrast", "dim_contrast", "enabled"):
        assert f"\n{key} =" in text or f"\n{key}=" in text, key


def test_no_file_means_the_built_in_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr("hardware.config.DEFAULT_PATHS", (tmp_path / "nope.toml",))
    assert find_config() is None
    assert load_config() == HardwareConfig()


def test_the_first_existing_default_path_wins(tmp_path, monkeypatch):
    user = tmp_path / "user.toml"
    user.write_text("[buttons]\ndebounce_ms = 30\n")
    monkeypatch.setattr("hardware.config.DEFAULT_PATHS", (tmp_path / "missing.toml", user))
    assert load_config().buttons.debounce_ms == 30
    assert load_config().source == str(user)


def test_a_role_can_be_remapped_and_a_default_removed():
    cfg = parse_config({"buttons": {"pins": {"HOME": 4, "MENU": False, "TIMEOUT": 16}}})
    assert cfg.buttons.pins["HOME"] == 4 and cfg.buttons.pins["TIMEOUT"] == 16
    assert "MENU" not in cfg.buttons.pins


@pytest.mark.parametrize(("toml", "message"), [
    ("[buttons]\ndebounce = 20\n", "cfg.toml: buttons.debounce: unknown key"),
    ("[butons]\n", "cfg.toml: butons: unknown key"),
    ("[buttons.pins]\nHOME = 6\n",
     "cfg.toml: buttons.pins.AWAY: BCM pin 6 is already used by buttons.pins.HOME"),
    ("[buttons.pins]\nHOME = 2\n", "cfg.toml: buttons.pins.HOME: BCM pin 2 is already used by the I2C1 bus"),
    ("[buttons.pins]\nHOME = 40\n", "cfg.toml: buttons.pins.HOME: expected a BCM pin number 0..27, got 40"),
    ("[buttons.pins]\nhome = 4\n", "cfg.toml: buttons.pins.home: a role is an upper-case word"),
    ("[buttons.hold_s]\nSHOOT = 1.0\n", "cfg.toml: buttons.hold_s.SHOOT: no button has the role SHOOT"),
    ("[buttons]\ndebounce_ms = \"fast\"\n", "cfg.toml: buttons.debounce_ms: expected a number"),
    ("[encoder]\na = 5\n", "cfg.toml: encoder.a: BCM pin 5 is already used by buttons.pins.HOME"),
    ("[[displays]]\nname = \"x\"\ntype = \"ssd9999\"\n", "cfg.toml: displays[0].type: unknown display type"),
    ("[[displays]]\nname = \"x\"\nrotate = 5\n", "cfg.toml: displays[0].rotate: 5 is out of range 0..3"),
    ("[[displays]]\nname = \"x\"\nrotate = 1\n",
     "cfg.toml: displays[0].rotate: expected 0 or 2 (upside down), got 1"),
    ("[[displays]]\nname = \"a\"\n[[displays]]\nname = \"b\"\n",
     "cfg.toml: displays.b.address: 0x3C on bus 1 is already used by display 'a'"),
    ("[[displays]]\nname = \"w\"\ntype = \"ssd1322\"\ndc = 5\n",
     "cfg.toml: displays.w.dc: BCM pin 5 is already used by buttons.pins.HOME"),
    ("[leds]\npossession = [12]\n", "cfg.toml: leds.possession: expected [home_pin, away_pin]"),
    ("[tray]\nbaud = 0\n", "cfg.toml: tray.baud: 0 is out of range"),
    ("[burn_in]\ncontrast = 300\n", "cfg.toml: burn_in.contrast: 300 is out of range 1..255"),
])
def test_a_wrong_file_is_refused_naming_the_file_the_key_and_the_reason(tmp_path, toml, message):
    path = tmp_path / "cfg.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(str(tmp_path / message)), str(caught.value)


def test_broken_toml_is_a_config_error_not_a_crash(tmp_path):
    path = tmp_path / "cfg.toml"
    path.write_text("[buttons\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_an_explicit_path_that_does_not_exist_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "absent.toml")


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)
