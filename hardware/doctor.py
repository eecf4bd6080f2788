"""``companion doctor``'s hardware checks: is this Pi ready for the table, and if not, what to do.

Each check says what it looked at, whether it passed, and the command that fixes it. Checks need
no root and change nothing; the only bus traffic is one I2C address probe per display (and only
when smbus2 is installed).

>>> checks = run_checks(HardwareConfig(tray=None, displays=()), groups=["gpio"], dev="/nonexistent")
>>> [(c.name, c.ok) for c in checks][:2]
[('config', True), ('gpio library', False)]
"""

from __future__ import annotations

import grp
import importlib.util
import os
import pwd
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from hardware.config import ConfigError, HardwareConfig, load_config

GROUP_FIX = "sudo usermod -aG {groups} $USER, then log out and back in"


@dataclass(frozen=True)
class Check:
    """One finding: ``fix`` is empty when ``ok``."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


def current_groups() -> list[str]:
    """The names of the groups this process's user belongs to (as ``id -Gn`` shows)."""
    names = set()
    for gid in os.getgroups():
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            continue
    try:
        user = pwd.getpwuid(os.getuid()).pw_name
        names.update(g.gr_name for g in grp.getgrall() if user in g.gr_mem)
    except KeyError:
        pass
    return sorted(names)


def needed_groups(config: HardwareConfig) -> list[str]:
    """The Unix groups the configured hardware needs on Raspberry Pi OS."""
    needed = ["gpio"]
    if any(not d.is_spi for d in config.displays):
        needed.append("i2c")
    if any(d.is_spi for d in config.displays):
        needed.append("spi")
    if config.tray is not None and "://" not in config.tray.port:
        needed.append("dialout")
    return needed


def check_groups(config: HardwareConfig, groups: Iterable[str], is_root: bool = False) -> Check:
    """Groups the user lacks for the configured hardware (root needs none)."""
    if is_root:
        return Check("user groups", True, "running as root (no groups needed; not advised for serve)")
    have = set(groups)
    missing = [g for g in needed_groups(config) if g not in have]
    if missing:
        return Check("user groups", False, f"not in {', '.join(missing)}",
                     GROUP_FIX.format(groups=",".join(missing)))
    return Check("user groups", True, f"in {', '.join(needed_groups(config))}")


def check_gpio(dev: Path) -> Check:
    libraries = [name for name in ("lgpio", "RPi.GPIO") if _importable(name)]
    chips = sorted(p.name for p in dev.glob("gpiochip*")) if dev.is_dir() else []
    if not libraries:
        return Check("gpio library", False, "neither lgpio nor RPi.GPIO is installed",
                     "pip install '.[pi]' (lgpio; on Raspberry Pi OS also: sudo apt install python3-lgpio)")
    if not chips:
        return Check("gpio library", False, f"{', '.join(libraries)} installed but no {dev}/gpiochip*",
                     "run on a Raspberry Pi (or use --sim)")
    return Check("gpio library", True, f"{', '.join(libraries)}; {', '.join(chips)}")


def check_i2c(config: HardwareConfig, dev: Path, probe: bool = True) -> list[Check]:
    checks: list[Check] = []
    buses = sorted({d.bus for d in config.displays if not d.is_spi})
    for bus in buses:
        path = dev / f"i2c-{bus}"
        if not path.exists():
            checks.append(Check(f"i2c bus {bus}", False, f"{path} not found",
                                "sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in "
                                "/boot/firmware/config.txt), then reboot"))
            continue
        checks.append(Check(f"i2c bus {bus}", True, f"{path} present"))
        if not probe or not _importable("smbus2"):
            continue
        for display in (d for d in config.displays if not d.is_spi and d.bus == bus):
            checks.append(_probe_display(bus, display.address, display.name))
    return checks


def _probe_display(bus: int, address: int, name: str) -> Check:
    import smbus2

    label = f"display {name} at 0x{address:02X}"
    try:
        with smbus2.SMBus(bus) as smbus:
            smbus.write_byte_data(address, 0x00, 0xE3)  # a NOP command: the controller ACKs or not
    except OSError as exc:
        return Check(label, False, f"no answer on bus {bus}: {exc.strerror or exc}",
                     f"check VCC, GND, SDA (GPIO2), SCL (GPIO3); `i2cdetect -y {bus}` should show "
                     f"{address:02x}; some modules use 0x3D (address jumper)")
    return Check(label, True, f"answers on bus {bus}")


def check_spi(config: HardwareConfig, dev: Path) -> list[Check]:
    checks = []
    for display in (d for d in config.displays if d.is_spi):
        path = dev / f"spidev{display.port}.{display.device}"
        if path.exists():
            checks.append(Check(f"spi for {display.name}", True, f"{path} present"))
        else:
            checks.append(Check(f"spi for {display.name}", False, f"{path} not found",
                                "sudo raspi-config nonint do_spi 0, then reboot"))
    return checks


def check_tray(config: HardwareConfig) -> Check | None:
    if config.tray is None:
        return None
    port = config.tray.port
    try:
        import serial
    except ImportError:
        return Check("dice tray", False, "pyserial is not installed", "pip install '.[hardware]'")
    if "://" not in port and not os.path.exists(port):
        by_id = Path("/dev/serial/by-id")
        seen = ", ".join(sorted(p.name for p in by_id.iterdir())) if by_id.is_dir() else "none"
        return Check("dice tray", False, f"{port} not found (in /dev/serial/by-id: {seen})",
                     "plug the tray in, then set [tray] port to its /dev/serial/by-id/... path")
    try:
        handle = serial.serial_for_url(port, baudrate=config.tray.baud, timeout=0, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as exc:
        return Check("dice tray", False, f"cannot open {port}: {exc}",
                     "join the dialout group, and stop any other program using the port "
                     "(is `companion serve` already running?)")
    handle.close()
    return Check("dice tray", True, f"{port} opens at {config.tray.baud} baud")


def run_checks(config: HardwareConfig | str | Path | None = None, *, groups: Iterable[str] | None = None,
               dev: str | Path = "/dev", probe_displays: bool = True) -> list[Check]:
    """Every check, in the order an installer would fix them.

    ``config`` is a loaded configuration or a path (``None``: the usual search). ``groups`` and
    ``dev`` replace the user's groups and ``/dev`` (tests, or checking another user's setup).
    """
    checks: list[Check] = []
    if isinstance(config, HardwareConfig):
        checks.append(Check("config", True, config.source))
    else:
        try:
            config = load_config(config)
            checks.append(Check("config", True, config.source))
        except ConfigError as exc:
            checks.append(Check("config", False, str(exc), "fix the key named above; every key is "
                                "documented in config.example.toml"))
            config = HardwareConfig()
    dev = Path(dev)
    checks.append(check_gpio(dev))
    checks.extend(check_i2c(config, dev, probe_displays))
    checks.extend(check_spi(config, dev))
    if groups is None:
        checks.append(check_groups(config, current_groups(), is_root=os.geteuid() == 0))
    else:
        checks.append(check_groups(config, groups))
    tray = check_tray(config)
    if tray is not None:
        checks.append(tray)
    return checks


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False
