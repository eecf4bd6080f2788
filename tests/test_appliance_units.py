"""The systemd units: they parse, they say what the appliance needs, and they stay locked down.

``systemd-analyze verify`` is run on copies whose ExecStart points at a script that exists here (the
Pi's /opt/companion venv and /usr/bin/cage do not). verify exits 0 even for unknown keys, so its
stderr is read too; a planted typo proves that check bites.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
UNITS = REPO / "systemd"
SERVE = UNITS / "companion-serve.service"
KIOSK = UNITS / "companion-kiosk.service"
CAGE_DROP_IN = UNITS / "companion-kiosk.service.d" / "cage.conf"
SYSTEMD_ANALYZE = "/usr/bin/systemd-analyze"
# Words systemd uses when it ignores or rejects a line of a unit file.
COMPLAINTS = re.compile(r"Unknown key|Unknown section|Failed to parse|Invalid|not executable|Missing '='|"
                        r"Unknown lvalue|bad unit file setting|Ignoring", re.IGNORECASE)


def directives(path: Path) -> dict[str, list[str]]:
    """``Key`` -> every value it is given, in order (systemd keys may repeat, e.g. DeviceAllow)."""
    found: dict[str, list[str]] = defaultdict(list)
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        found[key.strip()].append(value.strip())
    return found


def runnable_copy(tmp_path: Path) -> Path:
    """The unit folder copied, every /opt/companion and /usr/bin/cage program replaced by a stub."""
    folder = tmp_path / "units"
    shutil.copytree(UNITS, folder)
    stub = tmp_path / "stub.sh"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    for unit in [*folder.glob("*.service"), *folder.glob("*.d/*.conf"), *folder.glob("*.timer")]:
        text = re.sub(r"/opt/companion/\.venv/bin/[\w.-]+", str(stub), unit.read_text())
        unit.write_text(text.replace("/usr/bin/cage", str(stub)))
    return folder


def verify(*units: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SYSTEMD_ANALYZE, "verify", *map(str, units)], capture_output=True, text=True,
                          timeout=60, check=False)


def exposure(unit: Path) -> float:
    result = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=yes", str(unit)], capture_output=True,
                            text=True, timeout=60, check=False)
    match = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1))


def test_both_units_verify_cleanly(tmp_path: Path) -> None:
    folder = runnable_copy(tmp_path)
    result = verify(folder / SERVE.name, folder / KIOSK.name)
    assert result.returncode == 0, result.stderr
    assert not COMPLAINTS.search(result.stderr), result.stderr


def test_kiosk_without_the_cage_drop_in_verifies_too(tmp_path: Path) -> None:
    folder = runnable_copy(tmp_path)
    shutil.rmtree(folder / "companion-kiosk.service.d")
    result = verify(folder / KIOSK.name)
    assert result.returncode == 0 and not COMPLAINTS.search(result.stderr), result.stderr


def test_verify_check_catches_a_misspelt_directive(tmp_path: Path) -> None:
    folder = runnable_copy(tmp_path)
    unit = folder / SERVE.name
    unit.write_text(unit.read_text().replace("WatchdogSec=10", "WatchdogSecs=10\nRestart=sometimes"))
    result = verify(unit)
    assert COMPLAINTS.search(result.stderr), "a typo must be visible to the verify test"


def test_verify_check_catches_a_missing_program(tmp_path: Path) -> None:
    result = verify(SERVE)  # the real unit: /opt/companion does not exist on CI
    assert result.returncode != 0 or COMPLAINTS.search(result.stderr)


def test_serve_tells_systemd_when_ready_and_is_watched() -> None:
    serve = directives(SERVE)
    assert serve["Type"] == ["notify"]
    assert serve["WatchdogSec"] == ["10"]
    assert serve["Restart"] == ["always"] and serve["RestartSec"] == ["2"]


def test_serve_runs_the_table_from_the_venv_with_the_appliance_paths() -> None:
    from table.cli import build_parser

    (exec_start,) = directives(SERVE)["ExecStart"]
    program, *argv = exec_start.split()
    assert program == "/opt/companion/.venv/bin/companion"
    # The real command-line parser: a flag the CLI does not know would stop the service on the Pi.
    args = build_parser().parse_args(argv)
    assert args.command == "serve" and not args.sim
    assert args.db == "/var/lib/companion/companion.db"
    assert args.config == "/etc/companion/config.toml"
    assert args.socket == "/run/companion/table.sock"


def test_kiosk_command_line_is_one_the_kiosk_accepts() -> None:
    from kiosk.launcher import parse_args

    for unit_command in (directives(KIOSK)["ExecStart"][0], directives(CAGE_DROP_IN)["ExecStart"][1]):
        argv = unit_command.split()
        argv = argv[argv.index("/opt/companion/.venv/bin/companion") + 1:]
        assert argv[0] == "run"
        # `companion run` hands everything after "run" to the kiosk launcher's own parser.
        kiosk = parse_args(argv[1:])
        assert str(kiosk.socket) == "/run/companion/table.sock" and not kiosk.sim and kiosk.fullscreen


def test_a_flapping_dice_tray_never_exhausts_the_start_limit() -> None:
    serve = directives(SERVE)
    interval = int(serve["StartLimitIntervalSec"][0])
    burst = int(serve["StartLimitBurst"][0])
    restart_gap = float(serve["RestartSec"][0])
    # Restarts come at most every RestartSec, so in one interval there are at most this many starts:
    most_starts_in_interval = interval / restart_gap + 1
    assert interval == 0 or burst > most_starts_in_interval


def test_serve_is_an_unprivileged_user_with_only_the_table_buses() -> None:
    serve = directives(SERVE)
    assert serve["User"] == ["companion"] and serve["Group"] == ["companion"]
    assert serve["SupplementaryGroups"][0].split() == ["gpio", "i2c", "spi", "dialout"]
    assert serve["DevicePolicy"] == ["closed"]
    allowed = {value.split()[0] for value in serve["DeviceAllow"]}
    assert allowed == {"char-gpiochip", "char-i2c", "char-spi", "char-ttyUSB", "char-ttyACM"}
    assert serve["StateDirectory"] == ["companion"] and serve["RuntimeDirectory"] == ["companion"]
    assert serve["RuntimeDirectoryMode"] == ["0750"]


def test_serve_has_no_network_at_all() -> None:
    serve = directives(SERVE)
    families = " ".join(serve["RestrictAddressFamilies"]).split()
    assert families == ["AF_UNIX"]
    assert serve["PrivateNetwork"] == ["yes"]


@pytest.mark.parametrize("key,value", [
    ("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
    ("ProtectKernelTunables", "yes"), ("LockPersonality", "yes"), ("SystemCallFilter", "@system-service"),
])
def test_serve_hardening(key: str, value: str) -> None:
    assert value in directives(SERVE)[key]


def test_serve_exposure_score_stays_safe() -> None:
    # docs/deploy.md quotes the score; this keeps a loosened unit from slipping through unnoticed.
    assert exposure(SERVE) <= 1.0


def test_kiosk_exposure_score_stays_ok() -> None:
    assert exposure(KIOSK) <= 2.0


@pytest.mark.parametrize("unit", [SERVE, KIOSK], ids=["serve", "kiosk"])
def test_deploy_doc_quotes_the_score_the_unit_has_now(unit: Path) -> None:
    doc = (REPO / "docs" / "deploy.md").read_text()
    match = re.search(rf"Overall exposure level for {re.escape(unit.name)}: ([\d.]+)", doc)
    assert match, f"docs/deploy.md should quote the score of {unit.name}"
    assert float(match.group(1)) == exposure(unit)


def test_kiosk_is_a_fixed_user_on_the_display_after_the_service() -> None:
    kiosk = directives(KIOSK)
    assert kiosk["User"] == ["companion-kiosk"]
    groups = kiosk["SupplementaryGroups"][0].split()
    assert {"video", "render", "input"} <= set(groups)
    assert "companion" in groups, "the kiosk must be allowed to connect to the table socket"
    assert "companion-serve.service" in kiosk["After"] and "companion-serve.service" in kiosk["Wants"]
    assert kiosk["Restart"] == ["on-failure"]
    assert "KIVY_WINDOW=sdl2" in kiosk["Environment"] and "SDL_VIDEODRIVER=kmsdrm" in kiosk["Environment"]


def test_cage_drop_in_replaces_the_command_rather_than_adding_a_second_one() -> None:
    drop_in = directives(CAGE_DROP_IN)
    assert drop_in["ExecStart"][0] == ""
    assert drop_in["ExecStart"][1].startswith("/usr/bin/cage ")
    assert drop_in["ExecStart"][1].endswith(directives(KIOSK)["ExecStart"][0])

