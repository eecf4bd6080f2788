"""``companion doctor``'s hardware checks, with the user's groups, /dev and the tray port injected."""

from __future__ import annotations

import os

from hardware.config import HardwareConfig, TrayConfig, parse_config
from hardware.doctor import check_groups, check_tray, needed_groups, run_checks


def _by_name(checks):
    return {c.name: c for c in checks}


def test_a_broken_config_fails_the_first_check_naming_the_key(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[buttons]\nbogus = 1\n")
    checks = run_checks(path, groups=["gpio", "i2c", "dialout"], dev=tmp_path)
    assert checks[0].name == "config" and not checks[0].ok
    assert "buttons.bogus: unknown key" in checks[0].detail and checks[0].fix


def test_a_good_config_passes_and_names_its_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[tray]\nenabled = false\n")
    checks = run_checks(path, groups=[], dev=tmp_path)
    assert checks[0].ok and checks[0].detail == str(path)


def test_missing_groups_are_named_with_the_usermod_fix():
    cfg = HardwareConfig()
    check = check_groups(cfg, ["users", "gpio"])
    assert not check.ok and check.detail == "not in i2c, dialout"
    assert check.fix.startswith("sudo usermod -aG i2c,dialout $USER")


def test_all_groups_present_passes():
    assert check_groups(HardwareConfig(), ["gpio", "i2c", "dialout", "users"]).ok


def test_an_spi_display_needs_the_spi_group_and_a_url_tray_needs_no_dialout():
    cfg = parse_config({"displays": [{"name": "wide", "type": "ssd1322"}], "tray": {"port": "loop://"}})
    assert needed_groups(cfg) == ["gpio", "spi"]


def test_without_i2c_enabled_the_fix_is_raspi_config(tmp_path):
    checks = _by_name(run_checks(HardwareConfig(tray=None), groups=["gpio", "i2c"], dev=tmp_path))
    assert not checks["i2c bus 1"].ok and "raspi-config nonint do_i2c 0" in checks["i2c bus 1"].fix
    assert not checks["gpio library"].ok


def test_with_the_bus_device_present_the_bus_check_passes(tmp_path):
    (tmp_path / "i2c-1").touch()
    checks = _by_name(run_checks(HardwareConfig(tray=None), groups=[], dev=tmp_path, probe_displays=False))
    assert checks["i2c bus 1"].ok


def test_a_missing_spidev_is_reported(tmp_path):
    cfg = parse_config({"displays": [{"name": "wide", "type": "ssd1322"}], "tray": {"enabled": False}})
    checks = _by_name(run_checks(cfg, groups=[], dev=tmp_path))
    assert not checks["spi for wide"].ok and "do_spi" in checks["spi for wide"].fix
    (tmp_path / "spidev0.0").touch()
    assert _by_name(run_checks(cfg, groups=[], dev=tmp_path))["spi for wide"].ok


def test_the_tray_check_opens_a_real_pty_and_fails_on_a_missing_port(tmp_path):
    master, slave = os.openpty()
    try:
        name = os.ttyname(slave)
        good = check_tray(HardwareConfig(tray=TrayConfig(port=name)))
        assert good is not None and good.ok and name in good.detail
    finally:
        os.close(slave)
        os.close(master)
    missing = check_tray(HardwareConfig(tray=TrayConfig(port=str(tmp_path / "ttyACM9"))))
    assert missing is not None and not missing.ok and "by-id" in missing.fix


def test_a_port_already_held_exclusively_is_reported_as_busy():
    import serial

    master, slave = os.openpty()
    name = os.ttyname(slave)
    holder = serial.serial_for_url(name, exclusive=True)
    try:
        busy = check_tray(HardwareConfig(tray=TrayConfig(port=name)))
        assert busy is not None and not busy.ok and "cannot open" in busy.detail
    finally:
        holder.close()
        os.close(slave)
        os.close(master)
