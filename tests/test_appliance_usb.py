"""USB sticks on the appliance: the install script's udev rule mounts a plugged FAT or exFAT stick
where the sandboxed table service (user ``companion``, ``ProtectSystem=strict``) may write its exports,
and ``table/usb_export.py`` finds it there.

The rule is checked with the udev(7) parser of ``tests/udev_rules.py`` against the properties udev
gives a stick, the Pi's own SD card and the dice tray; its ``systemd-mount`` command line against the
real ``systemd-mount --help``; the mount folder against the serve unit's ``ReadWritePaths=`` and is
created by the real ``systemd-tmpfiles`` from the installed tmpfiles.d line.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
import udev_rules
from test_appliance_install import install, root, source  # noqa: F401 - the fixtures
from test_appliance_units import SERVE, directives

from table.usb_export import DEFAULT_ROOTS

RULE = "etc/udev/rules.d/99-companion-usb-stick.rules"
TMPFILES = "etc/tmpfiles.d/companion-media.conf"
SYSTEMD_MOUNT = "/usr/bin/systemd-mount"

# What udev knows about a plugged stick's partition (udevadm info /dev/sda1 on a Pi).
STICK = {"ACTION": "add", "SUBSYSTEM": "block", "KERNEL": "sda1", "DEVTYPE": "partition", "ID_BUS": "usb",
         "ID_FS_USAGE": "filesystem", "ID_FS_TYPE": "vfat", "ID_FS_LABEL": "STICK"}


def the_rule(root: Path) -> list[udev_rules.Pair]:  # noqa: F811
    (rule,) = udev_rules.parse_rules((root / RULE).read_text())
    return rule


def mount_command(rule: list[udev_rules.Pair]) -> list[str]:
    (run,) = [p for p in rule if p.key == "RUN"]
    assert run.attr == "program" and run.op == "+="
    return shlex.split(run.value)


def test_a_fat_or_exfat_usb_stick_is_mounted_and_nothing_else(source: Path, root: Path) -> None:  # noqa: F811
    install(source, root)
    rule = the_rule(root)
    assert udev_rules.matches(rule, STICK)
    assert udev_rules.matches(rule, {**STICK, "ID_FS_TYPE": "exfat"})
    no_partitions = {**STICK, "KERNEL": "sdb", "DEVTYPE": "disk"}
    assert udev_rules.matches(rule, no_partitions), "a stick formatted whole"
    sd_card_boot = {**STICK, "KERNEL": "mmcblk0p1", "ID_BUS": "", "ID_FS_LABEL": "bootfs"}
    assert not udev_rules.matches(rule, sd_card_boot), "the Pi's own boot partition is the system's"
    assert not udev_rules.matches(rule, {**STICK, "ID_FS_TYPE": "ext4"}), "ext4 has owners of its own"
    assert not udev_rules.matches(rule, {**STICK, "ID_FS_USAGE": "raid"})
    assert not udev_rules.matches(rule, {**STICK, "ACTION": "remove"})
    tray = {"ACTION": "add", "SUBSYSTEM": "tty", "KERNEL": "ttyACM0", "ID_BUS": "usb"}
    assert not udev_rules.matches(rule, tray)


def test_the_stick_is_mounted_for_the_service_user_where_the_service_may_write(
    source: Path, root: Path  # noqa: F811
) -> None:
    install(source, root)
    command = mount_command(the_rule(root))
    assert command[0] == SYSTEMD_MOUNT
    what, where = command[-2:]
    assert what == "$devnode" and where.endswith("/%k")
    folder = Path(where).parent
    options = dict(arg[2:].split("=", 1) for arg in command[1:-2] if "=" in arg)
    serve = directives(SERVE)
    # --owner adds uid= and gid= of that user: the service's own.
    assert options["owner"] == serve["User"][0] == serve["Group"][0] == "companion"
    assert {"noexec", "nosuid", "nodev", "fmask=0117", "dmask=0007"} <= set(options["options"].split(","))
    assert options["automount"] == "yes" and options["timeout-idle-sec"] == "2s"
    assert {"--no-block", "--collect", "--bind-device"} <= set(command)
    # The sandboxed unit may write there (a missing folder must not stop the table: "-").
    assert f"-{folder}" in serve["ReadWritePaths"]
    assert serve["ProtectSystem"] == ["strict"]
    # table/usb_export.py looks for mounted folders at /media/<folder>/<stick>.
    assert folder.parent in DEFAULT_ROOTS


def test_every_option_the_rule_passes_is_one_systemd_mount_knows(source: Path, root: Path) -> None:  # noqa: F811
    install(source, root)
    command = mount_command(the_rule(root))
    helped = subprocess.run([SYSTEMD_MOUNT, "--help"], capture_output=True, text=True, timeout=30, check=True)
    known = {word.split("=")[0].strip(",[") for word in helped.stdout.split() if word.startswith("--")}
    used = {arg.split("=")[0] for arg in command[1:] if arg.startswith("--")}
    assert used and used <= known, used - known
    assert "--bogus-option" not in known, "the check must be able to fail"


def test_the_mount_folder_is_made_at_boot_by_systemd_tmpfiles(source: Path, root: Path) -> None:  # noqa: F811
    install(source, root)
    folder = Path(mount_command(the_rule(root))[-1]).parent
    tmpfiles = shutil.which("systemd-tmpfiles")
    assert tmpfiles, "systemd-tmpfiles comes with systemd"
    result = subprocess.run([tmpfiles, f"--root={root}", "--create", str(root / TMPFILES)],
                            capture_output=True, text=True, timeout=30, check=False)
    assert result.returncode == 0, result.stderr
    made = root / folder.relative_to("/")
    assert made.is_dir() and stat.S_IMODE(made.stat().st_mode) == 0o755
    if os.geteuid() == 0:
        assert made.stat().st_uid == 0


@pytest.mark.parametrize("path", [RULE, TMPFILES])
def test_uninstall_takes_the_stick_rule_and_folder_line_away(source: Path, root: Path, path: str) -> None:  # noqa: F811
    install(source, root)
    assert (root / path).is_file()
    install(source, root, "--uninstall")
    assert not (root / path).exists()
