"""scripts/install-pi.sh, run for real into a scratch root (--root) and as a dry run.

Under --root every file lands below the scratch directory and every command (apt-get, useradd,
raspi-config, systemctl) is printed, not run, so these tests touch nothing outside tmp_path.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import udev_rules

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "install-pi.sh"
UNITS = ("companion-serve.service", "companion-kiosk.service")
BOOT_CONFIG = "# Raspberry Pi OS defaults\ndtparam=audio=on\n\n[pi4]\narm_boost=1\n\n[all]\n"
# Stand-in for the real config.example.toml when another engineer has not written it yet.
FALLBACK_EXAMPLE = '[table]\nname = "scratch table"\n'
I2C_LINE = "dtparam=i2c_arm_baudrate=400000"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """A small checkout to install from: the real units and script, a package, a config example."""
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO / "systemd", checkout / "systemd")
    shutil.copytree(REPO / "scripts", checkout / "scripts")
    shutil.copy2(REPO / "pyproject.toml", checkout / "pyproject.toml")
    (checkout / "companion").mkdir()
    for module in ("__init__.py", "notify.py", "backup.py"):
        shutil.copy2(REPO / "companion" / module, checkout / "companion" / module)
    (checkout / "companion" / "__pycache__").mkdir()
    (checkout / "companion" / "__pycache__" / "notify.cpython-311.pyc").write_bytes(b"litter")
    (checkout / "local.db").write_bytes(b"a developer's own store")
    example = REPO / "config.example.toml"
    text = example.read_text() if example.exists() else FALLBACK_EXAMPLE
    (checkout / "config.example.toml").write_text(text)
    return checkout


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A scratch Pi: just the firmware config a fresh Bookworm card has."""
    scratch = tmp_path / "pi"
    (scratch / "boot" / "firmware").mkdir(parents=True)
    (scratch / "boot" / "firmware" / "config.txt").write_text(BOOT_CONFIG)
    return scratch


def install(source: Path, root: Path | None, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    command = ["bash", str(SCRIPT), "--source", str(source), *args]
    if root is not None:
        command += ["--root", str(root)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    if ok:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def tree_hash(root: Path) -> str:
    """Every path, mode and byte under root: equal hashes mean nothing at all changed."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(f"{path.relative_to(root)}\0{path.lstat().st_mode:o}\0".encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def test_install_puts_units_rule_pam_config_and_the_copy_where_the_pi_expects_them(
    source: Path, root: Path
) -> None:
    install(source, root)
    for unit in UNITS:
        assert (root / "etc/systemd/system" / unit).read_text() == (source / "systemd" / unit).read_text()
    assert (root / "etc/udev/rules.d/99-companion-dice-tray.rules").is_file()
    assert "pam_systemd.so" in (root / "etc/pam.d/companion-kiosk").read_text()
    assert (root / "etc/companion/config.toml").read_text() == (source / "config.example.toml").read_text()
    copy = root / "opt/companion"
    assert (copy / "companion/notify.py").read_text() == (source / "companion/notify.py").read_text()
    assert os.access(copy / "scripts/install-pi.sh", os.X_OK), "modes are kept"


def test_build_litter_and_local_stores_are_not_copied(source: Path, root: Path) -> None:
    install(source, root)
    assert not (root / "opt/companion/companion/__pycache__").exists()
    assert not (root / "opt/companion/local.db").exists()


def test_a_git_checkout_is_copied_by_gits_own_file_list(source: Path, root: Path) -> None:
    shutil.copy2(REPO / ".gitignore", source / ".gitignore")
    (source / "docs").mkdir()
    (source / "docs" / "canción.md").write_text("a file name git would escape")
    # Named to come last in git's list: a missing last file once made the whole copy fail.
    (source / "zz-deleted.txt").write_text("in the index, gone from the working tree")
    subprocess.run(["git", "init", "-q", str(source)], check=True)
    subprocess.run(["git", "-C", str(source), "add", "-A"], check=True)
    (source / "zz-deleted.txt").unlink()
    install(source, root)
    copy = root / "opt/companion"
    assert (copy / "docs" / "canción.md").exists()
    assert not (copy / "zz-deleted.txt").exists()
    assert not (copy / "local.db").exists() and not (copy / "companion/__pycache__").exists()
    assert not (copy / ".git").exists()


def test_commands_are_printed_not_run_under_root(source: Path, root: Path) -> None:
    out = install(source, root).stdout
    for command in (
        "apt-get install -y --no-install-recommends python3-venv",
        "useradd --system --user-group --home-dir /var/lib/companion ",
        "companion-kiosk",
        "python3 -m venv /opt/companion/.venv",
        "pip install --quiet /opt/companion[hardware,kiosk,pi]",
        "raspi-config nonint do_i2c 0",
        "raspi-config nonint do_spi 0",
        "systemctl enable companion-serve.service",
        "systemctl enable companion-kiosk.service",
    ):
        printed = [line for line in out.splitlines() if line.startswith("not run (--root): ")]
        assert any(command in line for line in printed), command


def test_i2c_runs_at_400_khz_from_a_block_after_every_board_filter(source: Path, root: Path) -> None:
    install(source, root)
    text = (root / "boot/firmware/config.txt").read_text()
    assert text.startswith(BOOT_CONFIG.rstrip("\n"))
    assert text.count(I2C_LINE) == 1
    tail = text[text.rindex("[pi4]"):]
    assert "[all]\n" in tail[tail.index("Courtside"):], "the setting must not sit under the [pi4] filter"


def test_second_run_changes_nothing_and_says_so(source: Path, root: Path) -> None:
    install(source, root)
    before = tree_hash(root)
    second = install(source, root)
    assert tree_hash(root) == before
    assert "No changes" in second.stdout
    assert not [line for line in second.stdout.splitlines() if line.startswith(("wrote", "remove"))]


def test_a_changed_source_file_is_the_only_thing_rewritten(source: Path, root: Path) -> None:
    install(source, root)
    (source / "companion" / "notify.py").write_text("# a newer notify\n")
    out = install(source, root).stdout
    assert [line for line in out.splitlines() if line.startswith("wrote")] == [
        f"wrote {root}/opt/companion/companion/notify.py"
    ]


def test_a_file_dropped_from_the_repo_is_dropped_from_the_copy(source: Path, root: Path) -> None:
    install(source, root)
    (source / "companion" / "backup.py").unlink()
    install(source, root)
    assert not (root / "opt/companion/companion/backup.py").exists()
    assert (root / "opt/companion/companion/notify.py").exists()


def test_an_existing_table_config_is_never_overwritten(source: Path, root: Path) -> None:
    config = root / "etc/companion/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[table]\nname = "the garage"\n')
    install(source, root)
    assert config.read_text() == '[table]\nname = "the garage"\n'


def test_dry_run_prints_every_change_and_writes_nothing(source: Path, root: Path) -> None:
    before = tree_hash(root)
    result = install(source, root, "--dry-run")
    assert tree_hash(root) == before
    for unit in UNITS:
        assert f"would write {root}/etc/systemd/system/{unit}" in result.stdout
    assert f"would write {root}/boot/firmware/config.txt" in result.stdout
    assert "nothing was touched" in result.stdout


def test_dry_run_on_this_machine_touches_nothing_outside(source: Path) -> None:
    watched = [Path("/etc/systemd/system/companion-serve.service"), Path("/opt/companion"),
               Path("/etc/companion"), Path("/etc/udev/rules.d/99-companion-dice-tray.rules")]
    before = [p.exists() for p in watched]
    result = install(source, None, "--dry-run")
    assert [p.exists() for p in watched] == before
    assert "would write /etc/systemd/system/companion-serve.service" in result.stdout or before[0]


def tray_rule(root: Path) -> str:
    return (root / "etc/udev/rules.d/99-companion-dice-tray.rules").read_text()


def documented_by_id_name() -> str:
    """The tray's /dev/serial/by-id name as docs/hardware.md shows it."""
    (name,) = set(re.findall(r"/dev/serial/by-id/(usb-[^\s\"`]+)", (REPO / "docs/hardware.md").read_text()))
    return name


def tray_device(by_id: str) -> dict[str, str]:
    """The udev properties behind a by-id name: 60-serial.rules builds it as
    usb-$env{ID_SERIAL}-if$env{ID_USB_INTERFACE_NUM}, so they are read back from it."""
    found = re.fullmatch(r"usb-(.+)-if([0-9a-f]{2})", by_id)
    assert found, by_id
    return {"SUBSYSTEM": "tty", "KERNEL": "ttyACM0", "ID_BUS": "usb", "ID_SERIAL": found[1],
            "ID_USB_INTERFACE_NUM": found[2]}


def test_dice_tray_rule_matches_the_documented_by_id_name_and_names_it(source: Path, root: Path) -> None:
    install(source, root)
    (rule,) = udev_rules.parse_rules(tray_rule(root))
    assert not udev_rules.matches(rule, {}), "a rule that matches every device would rename them all"
    documented = documented_by_id_name()
    assert udev_rules.matches(rule, tray_device(documented)), "any Courtside tray, whatever its serial"
    assert udev_rules.matches(rule, tray_device("usb-Courtside_Dice_Tray_0000000000000001-if00"))
    # A CH340 USB-serial adapter, an Arduino, the tray's second interface, a non-tty node of the tray.
    for other in ("usb-1a86_USB2.0-Serial-if00", "usb-Arduino__www.arduino.cc__0043_75833353-if00",
                  documented.replace("-if00", "-if02")):
        assert not udev_rules.matches(rule, tray_device(other)), other
    assert not udev_rules.matches(rule, {**tray_device(documented), "SUBSYSTEM": "usb"})
    assigned = {(p.key, p.op, p.value) for p in rule if p.op in udev_rules.ASSIGN_OPS}
    assert {("SYMLINK", "+=", "dice-tray"), ("GROUP", "=", "dialout"), ("MODE", "=", "0660")} <= assigned


def test_a_tray_id_picks_one_tray_by_its_serial(source: Path, root: Path) -> None:
    mine = "usb-Courtside_Dice_Tray_E6614C311B7A2E29-if00"
    install(source, root, "--tray-id", f"/dev/serial/by-id/{mine}")
    (rule,) = udev_rules.parse_rules(tray_rule(root))
    assert udev_rules.matches(rule, tray_device(mine))
    assert not udev_rules.matches(rule, tray_device("usb-Courtside_Dice_Tray_0000000000000001-if00"))


def test_dice_tray_rule_passes_the_udev_syntax_check(source: Path, root: Path) -> None:
    install(source, root, "--tray-id", "usb-Courtside_Dice_Tray_E6614C31?B7A2E29-if0*")
    path = root / "etc/udev/rules.d/99-companion-dice-tray.rules"
    udev_rules.parse_rules(path.read_text())
    # systemd >= 253 has `udevadm verify`; where it is there, it has the last word too.
    udevadm = shutil.which("udevadm")
    verify = udevadm and subprocess.run([udevadm, "verify", "--help"], capture_output=True, check=False)
    if verify and verify.returncode == 0:
        result = subprocess.run([udevadm, "verify", str(path)], capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("line,problem", [
    ('SUBSYSTEM=="tty", ENV{ID_SERIAL}=="x", SYMLNK+="dice-tray"', "unknown key"),
    ('SUBSYSTEM=="tty", ENV{ID_SERIAL}=="x" SYMLINK+="dice-tray"', "commas"),
    ('SUBSYSTEM=="tty", ENV=="x", SYMLINK+="dice-tray"', "attribute"),
    ('SUBSYSTEM="tty", SYMLINK+="dice-tray"', "only be matched"),
    ('SUBSYSTEM=="tty", GROUP=="dialout"', "only be assigned"),
    ('SUBSYSTEM=="tty", ENV{ID_SERIAL}=="x"; RUN+="/bin/sh", SYMLINK+="x"', "commas"),
    ('SUBSYSTEM=="tty", MODE="rw"', "octal"),
    ('SUBSYSTEM=="tty", ENV{ID_SERIAL}=="x, SYMLINK+="dice-tray"', "commas"),
])
def test_the_rule_checker_refuses_broken_rules(line: str, problem: str) -> None:
    with pytest.raises(udev_rules.RuleSyntaxError, match=problem):
        udev_rules.parse_rules(f"# a comment\n{line}\n")


@pytest.mark.parametrize("flag,value", [("--tray-id", "ttyACM0"), ("--tray-id", 'usb-x"; RUN+="/bin/sh-if00'),
                                        ("--tray-id", "usb-a b-if00"), ("--tray-id", "usb-x-if00, MODE=0666"),
                                        ("--display", "x11")])
def test_bad_flag_values_are_refused_before_anything_is_written(
    source: Path, root: Path, flag: str, value: str
) -> None:
    before = tree_hash(root)
    result = install(source, root, flag, value, ok=False)
    assert result.returncode == 2
    assert tree_hash(root) == before


def test_a_pi_5_gets_the_cage_kiosk_and_a_pi_4_does_not(source: Path, root: Path) -> None:
    model = root / "proc/device-tree/model"
    model.parent.mkdir(parents=True)
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    install(source, root)
    drop_in = root / "etc/systemd/system/companion-kiosk.service.d/cage.conf"
    assert drop_in.read_text() == (source / "systemd/companion-kiosk.service.d/cage.conf").read_text()
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    install(source, root)
    assert not drop_in.parent.exists()


def test_display_flag_overrides_the_board(source: Path, root: Path) -> None:
    out = install(source, root, "--display", "cage").stdout
    assert (root / "etc/systemd/system/companion-kiosk.service.d/cage.conf").is_file()
    assert "cage xwayland" in out, "cage comes from apt when chosen"


def test_uninstall_removes_what_it_installed_and_leaves_everything_else(source: Path, root: Path) -> None:
    install(source, root, "--display", "cage")
    # What the table owner and the rest of the system keep around.
    (root / "opt/companion/notes.txt").write_text("league fixtures")
    (root / "etc/udev/rules.d/10-printer.rules").write_text("# someone else's\n")
    (root / "etc/systemd/system/ssh.service").write_text("[Service]\n")
    games = root / "var/lib/companion"
    games.mkdir(parents=True)
    (games / "companion.db").write_bytes(b"every game ever played")
    (root / "etc/companion/config.toml").write_text('[table]\nname = "edited"\n')
    # What a real run's venv and pip's in-tree build leave in the copy.
    for litter in (".venv/bin", "build/lib", "courtside_companion.egg-info"):
        (root / "opt/companion" / litter).mkdir(parents=True)
        (root / "opt/companion" / litter / "file").write_text("x")

    result = install(source, root, "--uninstall")

    for unit in UNITS:
        assert not (root / "etc/systemd/system" / unit).exists()
    assert not (root / "etc/systemd/system/companion-kiosk.service.d").exists()
    assert not (root / "etc/udev/rules.d/99-companion-dice-tray.rules").exists()
    assert not (root / "etc/pam.d/companion-kiosk").exists()
    assert not (root / "opt/companion/companion").exists()
    assert sorted(p.name for p in (root / "opt/companion").iterdir()) == ["notes.txt"]
    assert (root / "boot/firmware/config.txt").read_text() == BOOT_CONFIG
    assert (root / "opt/companion/notes.txt").read_text() == "league fixtures"
    assert (root / "etc/udev/rules.d/10-printer.rules").exists()
    assert (root / "etc/systemd/system/ssh.service").exists()
    assert (games / "companion.db").read_bytes() == b"every game ever played"
    assert (root / "etc/companion/config.toml").exists(), "an edited config is the owner's"
    assert "not run (--root): systemctl disable --now companion-serve.service" in result.stdout


def test_uninstall_of_an_untouched_install_leaves_no_trace_of_it(source: Path, root: Path) -> None:
    install(source, root)
    install(source, root, "--uninstall")
    leftover_files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert leftover_files == ["boot/firmware/config.txt"]
    assert not (root / "opt/companion").exists() and not (root / "etc/companion").exists()
    assert (root / "boot/firmware/config.txt").read_text() == BOOT_CONFIG
    # Empty system folders (etc/systemd/system, ...) may stay behind; every file is as it was.
    again = install(source, root, "--uninstall")
    assert "No changes" in again.stdout


def test_unknown_option_is_refused(source: Path, root: Path) -> None:
    assert install(source, root, "--frobnicate", ok=False).returncode == 2


def test_script_is_valid_bash() -> None:
    result = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_script_passes_shellcheck_where_installed() -> None:
    # shellcheck is optional on a developer's machine; CI images that have it hold us to it.
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        return
    result = subprocess.run([shellcheck, str(SCRIPT)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout
