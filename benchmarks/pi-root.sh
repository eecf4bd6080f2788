#!/usr/bin/env bash
# The appliance on a real arm64 Debian bookworm root (Raspberry Pi OS is bookworm arm64), run under
# qemu-user-static. Not part of `make test`: the first run takes the better part of an hour.
#
#   sudo benchmarks/pi-root.sh                     # build (or reuse) the root and check the appliance
#   sudo benchmarks/pi-root.sh --dir /srv/pi       # somewhere else (default /var/tmp/companion-pi-root)
#   sudo benchmarks/pi-root.sh --rebuild           # throw the root away and debootstrap it again
#
# Steps, each reported PASS or FAIL in the summary at the end:
#   host tools      debootstrap, qemu-user-static, binfmt-support (apt-get); qemu-aarch64 registered
#   debootstrap     `debootstrap --arch=arm64 --variant=minbase bookworm` from the host's Debian mirror
#                   (reused when DIR/root/.pi-root-built exists, so a second run is quick)
#   debian packages systemd, udev, xvfb, xauth from Debian inside the root; the host's pip settings and
#                   CA certificates copied in, so pip inside finds the same indexes
#   install-pi.sh   the real thing, run inside the root as root (apt packages, users, /opt/companion,
#                   the venv with '.[hardware,kiosk,pi]' built for aarch64, udev rule, units enabled)
#   install again   a second run must change nothing
#   udev rule       `udevadm verify` on the installed rule (bookworm's udev 252 lacks `verify`; it is
#                   taken from bookworm-backports' udev, unpacked aside, not installed)
#   doctor          `companion doctor --config /etc/companion/config.toml` reports and names every
#                   missing device (there is no hardware here, so FIX lines are expected; a traceback is not)
#   serve + socket  `companion serve --sim` as the `companion` user; a client running as
#                   `companion-kiosk` (in group companion) sends {"op":"state"} and a new game
#   kiosk           Xvfb + `companion run --screenshot` against that service, as `companion-kiosk`
#
# What this proves and what it can't: docs/deploy.md ("The appliance on an arm64 Debian root").

set -uo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${PI_ROOT_DIR:-/var/tmp/companion-pi-root}"
REBUILD=0
MIRROR=""
SECURITY_MIRROR=""
SUITE=bookworm

usage() {
    sed -n '2,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    cat <<EOF

Options:
  --dir DIR        where the root (DIR/root), logs (DIR/logs) and the screenshot go
                   (default \$PI_ROOT_DIR or /var/tmp/companion-pi-root)
  --mirror URL     Debian mirror (default: the first .../debian URI in /etc/apt/sources.list*)
  --rebuild        delete DIR/root and debootstrap it again
EOF
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dir) DIR="$2"; shift ;;
        --mirror) MIRROR="$2"; shift ;;
        --rebuild) REBUILD=1 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
    shift
done
[[ $EUID -eq 0 ]] || { echo "pi-root: run as root (debootstrap, chroot and mounts need it)" >&2; exit 2; }

mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
ROOT="$DIR/root"
LOGS="$DIR/logs"
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log

# ---------------------------------------------------------------------------------------------------
# Bookkeeping: every step is timed, logged to LOGS/NN-name.log and reported in the summary.

NAMES=()
RESULTS=()
TIMES=()
NOTES=()
FAILED=0
T0=$SECONDS

# step NAME FUNCTION: run FUNCTION with its output in a log; after a failure the rest are not run.
step() {
    local name="$1" func="$2" log start rc
    log="$LOGS/$(printf '%02d' "${#NAMES[@]}")-${func}.log"
    NAMES+=("$name")
    NOTE=""
    if [[ $FAILED -ne 0 ]]; then
        RESULTS+=("----"); TIMES+=("-"); NOTES+=("not run (an earlier step failed)")
        return
    fi
    printf '\n== %s\n' "$name"
    start=$SECONDS
    "$func" >"$log" 2>&1
    rc=$?
    TIMES+=("$((SECONDS - start))s")
    if [[ $rc -eq 0 ]]; then
        RESULTS+=("PASS")
    else
        RESULTS+=("FAIL"); FAILED=1
        [[ -n "$NOTE" ]] || NOTE="exit $rc"
        echo "-- last lines of $log:"
        tail -n 25 "$log"
    fi
    NOTES+=("$NOTE")
    [[ -z "$NOTE" ]] || echo "-- $NOTE"
}

# show FILE PATTERN: print the lines of a step's output worth quoting.
show() { grep -E "$2" "$1" | sed 's/^/   /' || true; }

in_root() { chroot "$ROOT" /usr/bin/env -i "${ROOT_ENV[@]}" "$@"; }

# ---------------------------------------------------------------------------------------------------
# Mounts, undone on any exit.

MOUNTS=()
cleanup() {
    local pid i
    # Whatever still runs inside the root (a serve or Xvfb left by a failed step) is ours: stop it.
    for pid in $(ls /proc | grep -E '^[0-9]+$'); do
        if [[ "$(readlink "/proc/$pid/root" 2>/dev/null)" == "$ROOT" ]]; then kill -9 "$pid" 2>/dev/null; fi
    done
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}" 2>/dev/null \
            || echo "pi-root: could not unmount ${MOUNTS[$i]}" >&2
    done
    MOUNTS=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mount_in_root() {  # mount_in_root TARGET MOUNT-ARGS...
    local target="$ROOT$1"; shift
    mkdir -p "$target"
    mountpoint -q "$target" && return 0
    mount "$@" "$target" && MOUNTS+=("$target")
}

# ---------------------------------------------------------------------------------------------------
# Steps.

# The first Debian URI in the host's apt sources (deb822 or one-line), or deb.debian.org.
host_mirror() {
    local kind="$1" uri
    uri="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | grep -oE 'https?://[^ ]+/debian'"$kind"'/?( |$)' | head -n1 | tr -d ' ')"
    echo "${uri:-http://deb.debian.org/debian$kind}"
}

host_tools() {
    local missing=() tool
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    if [[ ${#missing[@]} -gt 0 ]]; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}" || return 1
    fi
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] || update-binfmts --enable qemu-aarch64
    # Flag F: the kernel opens the interpreter now, so the root needs no copy of qemu inside it.
    grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 || { NOTE="qemu-aarch64 lacks flag F"; return 1; }
    qemu-aarch64-static --version | head -n1
    NOTE="$(qemu-aarch64-static --version | head -n1)"
}

debootstrap_root() {
    if [[ $REBUILD -eq 1 && -d "$ROOT" ]]; then
        cleanup
        rm -rf --one-file-system "$ROOT"
    fi
    if [[ -f "$ROOT/.pi-root-built" ]]; then
        NOTE="reused $ROOT (built $(cat "$ROOT/.pi-root-built"))"
        return 0
    fi
    rm -rf --one-file-system "$ROOT"
    debootstrap --arch=arm64 --variant=minbase --include=ca-certificates "$SUITE" "$ROOT" "$MIRROR" || return 1
    date -u '+%Y-%m-%d %H:%M UTC' >"$ROOT/.pi-root-built"
    NOTE="built $ROOT"
}

# Copy a host file or folder to the same place inside the root, if the host has it.
copy_in() {
    local src="$1" dest="$ROOT${2:-$1}"
    [[ -e "$src" ]] || return 0
    mkdir -p "$(dirname "$dest")"
    rm -rf "$dest"
    cp -aL "$src" "$dest"
    echo "copied $src"
}

# Local folders a pip setting points at (file:// indexes, find-links), bind-mounted read-only.
pip_local_paths() {
    {
        cat /etc/pip.conf /etc/xdg/pip/pip.conf "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf" 2>/dev/null
        env | grep '^PIP_' | cut -d= -f2-
    } | grep -oE '(file://)?/[^ ="]+' | sed 's#^file://##; s#/$##' | sort -u \
      | while IFS= read -r path; do
            # A file (constraints.txt, a CA bundle) is copied with its folder; a folder is mounted.
            # An index's .../simple pages link to files beside it (../files/...): mount its parent.
            if [[ -d "$path" && "$(basename "$path")" == simple ]]; then dirname "$path"
            elif [[ -d "$path" ]]; then echo "$path"; fi
        done
}

mounts_and_settings() {
    mount_in_root /proc -t proc proc || return 1
    mount_in_root /sys -t sysfs sysfs || return 1
    mount_in_root /dev --bind /dev || return 1
    mount_in_root /dev/pts --bind /dev/pts || return 1
    mount_in_root /dev/shm -t tmpfs -o mode=1777 shm || return 1
    mount_in_root /run -t tmpfs -o mode=0755 run || return 1
    mount_in_root /tmp -t tmpfs -o mode=1777 tmp || return 1
    copy_in /etc/resolv.conf
    copy_in /etc/hosts
    # pip inside the root must see what pip outside sees: the same config files, PIP_* variables
    # (passed in ROOT_ENV) and the same local indexes; and the host's CA bundle for HTTPS.
    copy_in /etc/pip.conf
    copy_in /etc/xdg/pip
    copy_in "$HOME/.config/pip" /root/.config/pip
    copy_in "$HOME/.pip" /root/.pip
    local path
    while IFS= read -r path; do
        mount_in_root "$path" --bind "$path" -o ro && mount -o remount,bind,ro "$ROOT$path" && echo "mounted $path (read-only)"
    done < <(pip_local_paths)
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp -a /usr/local/share/ca-certificates/. "$ROOT/usr/local/share/ca-certificates/" 2>/dev/null || true
    copy_in /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.host.crt
    # No service may start inside the root: there is no init in it, and the host's must not be poked.
    printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
    chmod 755 "$ROOT/usr/sbin/policy-rc.d"
    in_root uname -m
    [[ "$(in_root uname -m)" == aarch64 ]] || { NOTE="the root does not run as aarch64"; return 1; }
    NOTE="$(in_root sh -c '. /etc/os-release; echo "$PRETTY_NAME, $(uname -m), $(python3 --version 2>/dev/null || echo no python yet)"')"
}

debian_packages() {
    cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb $SECURITY_MIRROR $SUITE-security main
EOF
    # Only read by the udev rule check below (apt-get download), never installed from.
    echo "deb $MIRROR $SUITE-backports main" >"$ROOT/etc/apt/sources.list.d/backports.list"
    printf 'Package: *\nPin: release a=%s-backports\nPin-Priority: 1\n' "$SUITE" \
        >"$ROOT/etc/apt/preferences.d/backports-never"
    # Package lists younger than a day are kept: `apt-get update` alone takes minutes under emulation.
    # (apt dates the list files by the archive, so a stamp of our own tells when we last updated.)
    local stamp="$ROOT/var/lib/apt/.pi-root-updated"
    if [[ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]]; then
        in_root apt-get update -q || return 1
        touch "$stamp"
    fi
    # systemd and udev: install-pi.sh calls systemctl and udevadm, as it would on Raspberry Pi OS.
    in_root apt-get install -y -q --no-install-recommends systemd udev xvfb xauth python3 || return 1
    in_root update-ca-certificates --fresh
    # The host's bundle (it may hold a proxy's CA) is the one pip.conf / PIP_CERT name.
    cat "$ROOT/etc/ssl/certs/ca-certificates.host.crt" >>"$ROOT/etc/ssl/certs/ca-certificates.crt"
    NOTE="$(in_root dpkg-query -W -f='${Package} ${Version}  ' python3 systemd xvfb)"
}

copy_source() {
    # The working tree as git sees it (tracked and new files, not ignored litter), like install-pi.sh.
    rm -rf "$ROOT/usr/src/companion"
    mkdir -p "$ROOT/usr/src/companion"
    (cd "$REPO" && git ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' f; do [[ -f "$f" ]] && printf '%s\0' "$f"; done \
        | tar --null -cf - -T -) | tar -xf - -C "$ROOT/usr/src/companion"
}

install_pi() {
    copy_source || return 1
    in_root bash /usr/src/companion/scripts/install-pi.sh || return 1
    in_root /opt/companion/.venv/bin/pip list --format=freeze
    NOTE="$(in_root /opt/companion/.venv/bin/python -c 'import platform, kivy, lgpio, spidev, smbus2, PIL
print(platform.machine(), "Python", platform.python_version(), "kivy", kivy.__version__, "pillow", PIL.__version__)' \
        2>/dev/null | tail -n1)"
}

install_again() {
    in_root bash /usr/src/companion/scripts/install-pi.sh || return 1
    grep -q "^No changes" "$LOGS"/*-install_again.log || { NOTE="the second run changed something"; return 1; }
    NOTE="No changes"
}

udev_verify() {
    local rule=/etc/udev/rules.d/99-companion-dice-tray.rules bpo=/opt/udev-bpo lib
    [[ -f "$ROOT$rule" ]] || { NOTE="no $rule"; return 1; }
    cat "$ROOT$rule"
    if in_root udevadm verify --help >/dev/null 2>&1; then
        in_root udevadm verify "$rule" || return 1
        NOTE="udevadm verify: ok"
        return 0
    fi
    echo "udevadm $(in_root udevadm --version) has no verify; using bookworm-backports' udevadm"
    if [[ ! -x "$ROOT$bpo/bin/udevadm" ]]; then
        rm -rf "$ROOT$bpo" "$ROOT/tmp/udev-bpo"
        mkdir -p "$ROOT/tmp/udev-bpo"
        in_root sh -c "cd /tmp/udev-bpo && apt-get download -q -t $SUITE-backports udev libsystemd-shared" || return 1
        for deb in "$ROOT"/tmp/udev-bpo/*.deb; do dpkg-deb -x "$deb" "$ROOT$bpo"; done
    fi
    lib="$(dirname "$(find "$ROOT$bpo" -name 'libsystemd-shared-*.so' | head -n1)")"
    lib="${lib#"$ROOT"}"
    in_root env LD_LIBRARY_PATH="$lib" "$bpo/bin/udevadm" --version
    in_root env LD_LIBRARY_PATH="$lib" "$bpo/bin/udevadm" verify "$rule" || return 1
    # It must also be able to fail: a broken copy of the rule is refused.
    sed 's/SYMLINK+=/SYMLNK+=/' "$ROOT$rule" >"$ROOT/tmp/broken.rules"
    if in_root env LD_LIBRARY_PATH="$lib" "$bpo/bin/udevadm" verify /tmp/broken.rules; then
        NOTE="udevadm verify accepted a broken rule"; return 1
    fi
    NOTE="udevadm $(in_root env LD_LIBRARY_PATH="$lib" "$bpo/bin/udevadm" --version) verify: rule ok, a broken copy refused"
}

doctor() {
    local rc
    in_root runuser -u companion -- /opt/companion/.venv/bin/companion doctor --config /etc/companion/config.toml
    rc=$?
    # No Pi here: FIX lines (exit 1) are the expected answer; a traceback or another code is not.
    if grep -q Traceback "$LOGS"/*-doctor.log || [[ $rc -gt 1 ]]; then NOTE="exit $rc"; return 1; fi
    NOTE="exit $rc: $(grep -c '^ok' "$LOGS"/*-doctor.log) ok, $(grep -c '^FIX' "$LOGS"/*-doctor.log) FIX (no hardware here)"
}

# The service as systemd would run it: user companion, umask 0007, socket in a 0750 /run/companion.
start_serve() {
    in_root sh -c 'install -d -o companion -g companion -m 0750 /run/companion
                   install -d -o companion -g companion -m 0700 /var/lib/companion
                   rm -f /run/companion/table.sock'
    chroot "$ROOT" /usr/bin/env -i "${ROOT_ENV[@]}" runuser -u companion -- sh -c \
        'umask 0007; exec /opt/companion/.venv/bin/companion --db /var/lib/companion/pi-root.db \
         serve --sim --socket /run/companion/table.sock' >"$LOGS/serve.log" 2>&1 &
    SERVE_PID=$!
}

stop_serve() {
    [[ -n "${SERVE_PID:-}" ]] || return 0
    kill -TERM "$SERVE_PID" 2>/dev/null
    wait "$SERVE_PID" 2>/dev/null
    SERVE_PID=""
}

serve_socket() {
    start_serve
    # The client: as companion-kiosk, whose only link to the socket is its supplementary group.
    in_root runuser -u companion-kiosk -- /opt/companion/.venv/bin/python - <<'EOF'
import json, socket, sys, time

path = "/run/companion/table.sock"
deadline = time.monotonic() + 300  # the service starts in ~10-40 s under emulation
while True:
    try:
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(path)
        break
    except OSError as exc:
        sock.close()
        if time.monotonic() > deadline:
            sys.exit(f"no service on {path}: {exc}")
        time.sleep(0.2)
sock.settimeout(60)
reader = sock.makefile("rb")

def ask(message):
    started = time.monotonic()
    sock.sendall(json.dumps(message).encode() + b"\n")
    while True:
        reply = json.loads(reader.readline())
        if reply.get("id") == message["id"]:
            return reply, (time.monotonic() - started) * 1000

reply, ms = ask({"id": 1, "op": "state"})
print(f"state -> {json.dumps(reply)[:200]} ({ms:.0f} ms)")
assert reply.get("ok") is not False and "error" not in reply, reply
reply, ms = ask({"id": 2, "op": "known_games"})
print(f"known_games -> {json.dumps(reply)[:200]} ({ms:.0f} ms)")
assert reply["ok"] and reply["known_games"], reply
reply, ms = ask({"id": 3, "op": "games"})
print(f"games -> {len(reply['games'])} saved ({ms:.0f} ms)")
times = [ask({"id": 10 + i, "op": "state"})[1] for i in range(20)]
times.sort()
print(f"20 state round trips: median {times[10]:.1f} ms, max {times[-1]:.1f} ms")
EOF
}

# `companion run --screenshot` gives up after 30 s without a complete first screen. Emulated, Kivy
# needs 20-80 s to get there, depending on the load, so this run of the real CLI lets it wait up to 10 min;
# the kiosk's own code is untouched, and its JSON report says how long it took (ready_seconds).
PATIENT_KIOSK='
import sys
import kiosk.launcher as launcher
from companion.cli import main

configure = launcher.configure_kivy

def configure_then_wait_longer(**options):
    configure(**options)
    from kiosk.app import Clock, CourtsideApp

    give_up = CourtsideApp._screenshot_timeout
    waited = [30]

    def wait_longer(self, dt):
        if not self._ready_fired and waited[0] < 600:
            waited[0] += 30
            Clock.schedule_once(self._screenshot_timeout, 30)
            return
        give_up(self, dt)

    CourtsideApp._screenshot_timeout = wait_longer

launcher.configure_kivy = configure_then_wait_longer
sys.exit(main(sys.argv[1:]))
'

kiosk_screenshot() {
    local display=:93 xvfb_pid
    rm -f "$ROOT/tmp/kiosk/home.png"
    in_root install -d -o companion-kiosk -g companion-kiosk /tmp/kiosk /tmp/kiosk/run
    chmod 0700 "$ROOT/tmp/kiosk/run"
    chroot "$ROOT" /usr/bin/env -i "${ROOT_ENV[@]}" Xvfb "$display" -screen 0 800x480x24 -nolisten tcp \
        >"$LOGS/xvfb.log" 2>&1 &
    xvfb_pid=$!
    in_root runuser -u companion-kiosk -- env DISPLAY="$display" HOME=/tmp/kiosk KIVY_HOME=/tmp/kiosk/kivy \
        KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 XDG_CONFIG_HOME=/tmp/kiosk/config XDG_DATA_HOME=/tmp/kiosk/data \
        XDG_RUNTIME_DIR=/tmp/kiosk/run \
        timeout 900 /opt/companion/.venv/bin/python -c "$PATIENT_KIOSK" run --socket /run/companion/table.sock \
        --screenshot /tmp/kiosk/home.png --size 800x480
    local rc=$?
    kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null
    [[ $rc -eq 0 && -s "$ROOT/tmp/kiosk/home.png" ]] || { NOTE="exit $rc"; return 1; }
    cp "$ROOT/tmp/kiosk/home.png" "$DIR/kiosk-home-arm64.png"
    NOTE="first complete screen after $(grep -oE '"ready_seconds": [0-9.]+' "$LOGS"/*-kiosk_screenshot.log \
        | grep -oE '[0-9.]+$') s; $DIR/kiosk-home-arm64.png"
}

# ---------------------------------------------------------------------------------------------------

[[ -n "$MIRROR" ]] || MIRROR="$(host_mirror '')"
SECURITY_MIRROR="$(host_mirror -security)"
# The root's environment: nothing of the host's but pip's settings and a sane PATH and locale.
ROOT_ENV=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
          DEBIAN_FRONTEND=noninteractive)
while IFS= read -r var; do ROOT_ENV+=("$var"); done < <(env | grep '^PIP_')

echo "pi-root: $ROOT (arm64 Debian $SUITE from $MIRROR); logs in $LOGS"
step "host tools (qemu-user-static, debootstrap)" host_tools
step "debootstrap --arch=arm64 $SUITE" debootstrap_root
step "mounts, pip settings, CA certificates" mounts_and_settings
step "Debian packages inside (systemd udev xvfb)" debian_packages
step "scripts/install-pi.sh inside the root" install_pi
show "$LOGS/04-install_pi.log" '^(Courtside|board|install packages|create|warning|systemd|enable|wrote /etc)'
step "scripts/install-pi.sh again: no changes" install_again
step "udevadm verify on the dice tray rule" udev_verify
show "$LOGS/06-udev_verify.log" '^SUBSYSTEM|^udevadm|rules.d'
step "companion doctor" doctor
show "$LOGS/07-doctor.log" '.'
step "companion serve --sim + socket round trip" serve_socket
show "$LOGS/08-serve_socket.log" '.'
step "kiosk screenshot under Xvfb" kiosk_screenshot
show "$LOGS/09-kiosk_screenshot.log" '^\{"screenshot"'

stop_serve

printf '\n== summary: arm64 Debian %s root under qemu-user-static, %ss in all\n' "$SUITE" "$((SECONDS - T0))"
for i in "${!NAMES[@]}"; do
    printf '%-4s %-46s %6s  %s\n' "${RESULTS[$i]}" "${NAMES[$i]}" "${TIMES[$i]}" "${NOTES[$i]}"
done
exit "$FAILED"
