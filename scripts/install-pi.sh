#!/usr/bin/env bash
# Install (or remove) Courtside Companion as an appliance on Raspberry Pi OS Bookworm or later.
#
#   sudo scripts/install-pi.sh                 # install or update; safe to run again
#   sudo scripts/install-pi.sh --dry-run       # print every change, make none
#   scripts/install-pi.sh --root /tmp/pi       # write files under /tmp/pi; print commands, run none
#   sudo scripts/install-pi.sh --uninstall     # remove what this script installed; games are kept
#
# What it does: apt packages; the `companion` service user and the `companion-kiosk` display user;
# the repo copied to /opt/companion with a venv holding '.[hardware,kiosk,pi]'; I2C and SPI on, I2C
# at 400 kHz; a udev rule naming the dice tray /dev/dice-tray; a udev rule mounting a USB stick where
# the service can write exports (/media/companion/<sdXN>); /etc/companion/config.toml from
# config.example.toml (only if there is none); the systemd units, enabled. See docs/deploy.md.
#
# Every step compares what is there with what should be there and only acts on a difference, so a
# second run changes nothing and says so.

set -euo pipefail

readonly MARK_BEGIN="# >>> Courtside Companion (scripts/install-pi.sh) >>>"
readonly MARK_END="# <<< Courtside Companion <<<"
readonly UNITS=(companion-serve.service companion-kiosk.service)
readonly ENABLE=("${UNITS[@]}")
readonly SERVICE_USER=companion
readonly KIOSK_USER=companion-kiosk
# Where a plugged USB stick is mounted (table/usb_export.py finds /media/<folder>/<stick>).
readonly MEDIA_DIR=/media/companion
# Left out of the copy in /opt/companion: build and test litter, local stores, the dev venv.
readonly COPY_EXCLUDES=(.git .venv __pycache__ '*.egg-info' .pytest_cache .ruff_cache .hypothesis
                        tests/artifacts build '*.db' '*.db-wal' '*.db-shm' '*.pyc')

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT=""
DRY_RUN=0
UNINSTALL=0
DISPLAY_SETUP=auto
# The tray's name under /dev/serial/by-id (docs/hardware.md), a glob: any Courtside tray, any serial.
TRAY_ID="usb-Courtside_Dice_Tray_*-if00"
CHANGES=0

usage() {
    cat <<EOF
Usage: $0 [options]

  --dry-run             print every change without making it
  --root DIR            install into DIR (every path prefixed); commands are printed, not run
  --uninstall           remove what this script installed (keeps /var/lib/companion: your games)
  --display MODE        kiosk display: kmsdrm (SDL2 straight on KMS/DRM), cage (Wayland kiosk
                        compositor) or auto (cage on a Pi 5, kmsdrm otherwise; default)
  --tray-id NAME        the dice tray's name in /dev/serial/by-id, or a glob of it (default
                        $TRAY_ID); give the full name, with its serial, to pick one of two trays
  --source DIR          the checkout to install from (default: this script's repo, $SOURCE)
  -h, --help            this help
EOF
}

die() { echo "install-pi: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --root) [[ $# -ge 2 ]] || die "--root needs a directory"; ROOT="$2"; shift ;;
        --uninstall) UNINSTALL=1 ;;
        --display) [[ $# -ge 2 ]] || die "--display needs a mode"; DISPLAY_SETUP="$2"; shift ;;
        --tray-id) [[ $# -ge 2 ]] || die "--tray-id needs a value"; TRAY_ID="${2#/dev/serial/by-id/}"; shift ;;
        --source) [[ $# -ge 2 ]] || die "--source needs a directory"; SOURCE="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done

[[ "$DISPLAY_SETUP" =~ ^(auto|kmsdrm|cage)$ ]] || die "--display must be auto, kmsdrm or cage"
# udev names a USB serial port serial/by-id/usb-<ID_SERIAL>-if<ID_USB_INTERFACE_NUM> (60-serial.rules),
# so the rule matches those two properties. They go into the rule between quotes: only the characters
# udev leaves in an ID_SERIAL (it turns the rest into '_'), plus the glob's '*' and '?'.
[[ "$TRAY_ID" =~ ^usb-([A-Za-z0-9._:+=@#*?-]+)-if([0-9a-fA-F*?]{1,2})$ ]] \
    || die "--tray-id must look like usb-Courtside_Dice_Tray_E6614C311B7A2E29-if00 (see ls /dev/serial/by-id)"
TRAY_ID_SERIAL="${BASH_REMATCH[1]}"
TRAY_ID_IF="${BASH_REMATCH[2],,}"
if [[ -n "$ROOT" ]]; then
    mkdir -p "$ROOT"
    ROOT="$(cd "$ROOT" && pwd)"
    [[ "$ROOT" != "/" ]] || ROOT=""
fi
SOURCE="$(cd "$SOURCE" && pwd)"
# Commands act on the running system; with --root they would act on the wrong one.
COMMANDS_RUN=1
if [[ $DRY_RUN -eq 1 || -n "$ROOT" ]]; then COMMANDS_RUN=0; fi
if [[ $COMMANDS_RUN -eq 1 && $EUID -ne 0 ]]; then
    die "run as root (sudo), or try --dry-run / --root DIR"
fi

# ---------------------------------------------------------------------------------------------------
# Primitives: each looks before it acts, counts what it changed, and honours --dry-run and --root.

say() { printf '%s\n' "$*"; }

changed() {
    CHANGES=$((CHANGES + 1))
    if [[ $DRY_RUN -eq 1 ]]; then say "would $*"; else say "$*"; fi
}

# run DESCRIPTION COMMAND...: a change to the running system, made only in a real run.
run() {
    local what="$1"; shift
    if [[ -n "$ROOT" ]]; then
        say "not run (--root): $*"
        return 0
    fi
    changed "$what: $*"
    if [[ $COMMANDS_RUN -eq 1 ]]; then "$@"; fi
}

# put_file DEST MODE: write stdin to ROOT/DEST if its content or mode differ.
put_file() {
    local dest="$ROOT$1" mode="$2" tmp
    tmp="$(mktemp)"
    cat >"$tmp"
    if [[ -f "$dest" ]] && cmp -s "$tmp" "$dest" && [[ "$(stat -c %a "$dest")" == "${mode#0}" ]]; then
        rm -f "$tmp"
        return 0
    fi
    if [[ $DRY_RUN -eq 1 ]]; then
        changed "write $dest"
        rm -f "$tmp"
        return 0
    fi
    install -D -m "$mode" "$tmp" "$dest"
    rm -f "$tmp"
    changed "wrote $dest"
}

# put_copy SOURCE DEST: copy a file to ROOT/DEST, keeping its mode, if content or mode differ.
put_copy() {
    local src="$1" dest="$ROOT$2" mode
    mode="$(stat -c %a "$src")"
    if [[ -f "$dest" ]] && cmp -s "$src" "$dest" && [[ "$(stat -c %a "$dest")" == "$mode" ]]; then
        return 0
    fi
    if [[ $DRY_RUN -eq 1 ]]; then changed "write $dest"; return 0; fi
    install -D -m "$mode" "$src" "$dest"
    changed "wrote $dest"
}

# remove_path PATH: delete ROOT/PATH (a file, or an empty directory) if it is there.
remove_path() {
    local dest="$ROOT$1"
    if [[ -L "$dest" || -f "$dest" ]]; then
        [[ $DRY_RUN -eq 1 ]] || rm -f "$dest"
        changed "remove $dest"
    elif [[ -d "$dest" ]] && [[ -z "$(ls -A "$dest")" ]]; then
        [[ $DRY_RUN -eq 1 ]] || rmdir "$dest"
        changed "remove $dest/"
    fi
}

# ---------------------------------------------------------------------------------------------------
# What the Pi is, and which display setup the kiosk uses.

pi_model() {
    local model_file="$ROOT/proc/device-tree/model"
    [[ -n "$ROOT" || -r "$model_file" ]] || model_file=/proc/device-tree/model
    if [[ -r "$model_file" ]]; then tr -d '\0' <"$model_file"; else echo "unknown"; fi
}

choose_display() {
    if [[ "$DISPLAY_SETUP" != auto ]]; then echo "$DISPLAY_SETUP"; return; fi
    # Pi 5: display and GPU are separate DRM cards numbered differently per boot; cage copes, SDL2's
    # KMSDRM backend does not (docs/deploy.md). Pi 4 and older: one KMS card, no compositor needed.
    case "$(pi_model)" in
        # "Raspberry Pi 5" also matches the Pi 500 keyboard computer.
        *"Raspberry Pi 5"*|*"Compute Module 5"*) echo cage ;;
        *) echo kmsdrm ;;
    esac
}

boot_config() {
    # Bookworm moved the firmware partition to /boot/firmware; /boot/config.txt is only a pointer.
    if [[ -f "$ROOT/boot/firmware/config.txt" ]]; then echo "/boot/firmware/config.txt"
    elif [[ -f "$ROOT/boot/config.txt" ]] && ! grep -q "firmware/config.txt" "$ROOT/boot/config.txt"; then
        echo "/boot/config.txt"
    fi
}

# ---------------------------------------------------------------------------------------------------
# Install steps.

apt_packages() {
    local display="$1" missing=() pkg
    # Kivy's wheels bring their own SDL2 on 64-bit; the 32-bit piwheels build links the system one,
    # so both get the SDL2 runtime. Mesa's GLES/EGL/GBM drive the GPU; mtdev reads touchscreens.
    # No aarch64 wheel of lgpio 0.2.2.0 or spidev 3.6 on PyPI: pip builds them, with gcc, python3-dev
    # and swig. lgpio's build compiles its C library in (PYPI=1 below), as plain Debian has no liblgpio.
    local packages=(python3-venv python3-pip python3-dev i2c-tools sqlite3
                    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
                    libgles2 libegl1 libgbm1 libdrm2 libmtdev1
                    gcc swig)
    if [[ "$display" == cage ]]; then packages+=(cage xwayland); fi
    if [[ $COMMANDS_RUN -eq 1 || ( $DRY_RUN -eq 1 && -z "$ROOT" ) ]] && command -v dpkg-query >/dev/null; then
        for pkg in "${packages[@]}"; do
            dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
        done
    else
        missing=("${packages[@]}")
    fi
    if [[ ${#missing[@]} -gt 0 ]]; then
        run "install packages" apt-get install -y --no-install-recommends "${missing[@]}"
    fi
}

has_user() { getent passwd "$1" >/dev/null 2>&1; }
has_group() { getent group "$1" >/dev/null 2>&1; }

users_and_groups() {
    local group
    # Raspberry Pi OS has these; a plain Debian image may not, and systemd refuses to start a unit
    # whose SupplementaryGroups= name a missing group.
    for group in gpio i2c spi dialout video render input; do
        if [[ -n "$ROOT" ]] || ! has_group "$group"; then run "create group $group" groupadd --system -f "$group"; fi
    done
    if [[ -n "$ROOT" ]] || ! has_user "$SERVICE_USER"; then
        run "create the service user" useradd --system --user-group --home-dir /var/lib/companion \
            --no-create-home --shell /usr/sbin/nologin --groups gpio,i2c,spi,dialout "$SERVICE_USER"
    fi
    if [[ -n "$ROOT" ]] || ! has_user "$KIOSK_USER"; then
        run "create the kiosk user" useradd --system --user-group --home-dir /var/lib/companion-kiosk \
            --no-create-home --shell /usr/sbin/nologin --groups video,render,input,"$SERVICE_USER" "$KIOSK_USER"
    fi
}

source_files() {
    # The checkout's files, not its litter: git knows which those are; without git, the excludes do.
    if git -C "$SOURCE" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        # quotePath off: UTF-8 names come out as themselves, not as "\303\251" escapes.
        git -C "$SOURCE" -c core.quotePath=false ls-files --cached --others --exclude-standard \
            | while IFS= read -r f; do
                # Skips files deleted from the working tree but still in git's index.
                if [[ -f "$SOURCE/$f" ]]; then printf '%s\n' "$f"; fi
            done
    else
        local prune=() pattern
        for pattern in "${COPY_EXCLUDES[@]}"; do prune+=(-name "$pattern" -prune -o); done
        (cd "$SOURCE" && find . "${prune[@]}" -type f -print | sed 's#^\./##')
    fi | LC_ALL=C sort
}

copy_repo() {
    local dest="/opt/companion" rel manifest
    if [[ "$SOURCE" -ef "$ROOT$dest" ]]; then
        say "source is $dest itself: nothing to copy"
        return 0
    fi
    manifest="$(source_files)"
    while IFS= read -r rel; do
        [[ -n "$rel" ]] || continue
        put_copy "$SOURCE/$rel" "$dest/$rel"
    done <<<"$manifest"
    # Files an update dropped from the repo go too, or stale modules would linger in the copy.
    if [[ -f "$ROOT$dest/.install-manifest" ]]; then
        while IFS= read -r rel; do
            [[ -n "$rel" ]] && remove_path "$dest/$rel"
        done < <(LC_ALL=C comm -23 <(LC_ALL=C sort "$ROOT$dest/.install-manifest") <(printf '%s\n' "$manifest"))
    fi
    # Uninstall removes exactly these files, so anything else someone keeps in /opt/companion stays.
    printf '%s\n' "$manifest" | put_file "$dest/.install-manifest" 0644
}

source_stamp() {
    # What pip would install: when none of it changed, the venv is already up to date.
    (cd "$SOURCE" && source_files | { grep -E '^(pyproject\.toml|companion/|hardware/|kiosk/|table/)' || true; } \
        | while IFS= read -r f; do sha256sum "$f"; done) | sha256sum | cut -d' ' -f1
}

python_venv() {
    local venv=/opt/companion/.venv stamp
    stamp="$(source_stamp)"
    if [[ ! -x "$ROOT$venv/bin/python" ]]; then
        run "create the venv" python3 -m venv "$venv"
    fi
    if [[ ! -f "$ROOT$venv/.installed" ]] || [[ "$(cat "$ROOT$venv/.installed")" != "$stamp" ]]; then
        run "install the companion into the venv" "$venv/bin/pip" install --quiet --upgrade pip
        run "install the companion into the venv" env PYPI=1 "$venv/bin/pip" install --quiet \
            '/opt/companion[hardware,kiosk,pi]'
        if [[ $COMMANDS_RUN -eq 1 ]]; then printf '%s\n' "$stamp" >"$venv/.installed"; fi
    fi
}

buses() {
    local config
    if [[ -n "$ROOT" ]]; then
        say "not run (--root): raspi-config nonint do_i2c 0"
        say "not run (--root): raspi-config nonint do_spi 0"
    elif command -v raspi-config >/dev/null; then
        # get_i2c/get_spi print 0 when the bus is already on.
        [[ "$(raspi-config nonint get_i2c)" == 0 ]] || run "enable I2C" raspi-config nonint do_i2c 0
        [[ "$(raspi-config nonint get_spi)" == 0 ]] || run "enable SPI" raspi-config nonint do_spi 0
    else
        say "warning: raspi-config not found; enable I2C and SPI by hand (docs/deploy.md)"
    fi
    config="$(boot_config)"
    if [[ -z "$config" ]]; then
        say "warning: no /boot/firmware/config.txt; set dtparam=i2c_arm_baudrate=400000 by hand"
        return 0
    fi
    # Our own marked block at the end: later lines win in config.txt, [all] undoes any [pi4]-style
    # filter above it, and uninstall can take exactly this block out again.
    local mode body
    mode="$(stat -c %a "$ROOT$config")"
    body="$(strip_block <"$ROOT$config")"
    printf '%s\n' "$body" "$MARK_BEGIN" "[all]" "# OLED displays: I2C at 400 kHz (fast mode)" \
        "dtparam=i2c_arm_baudrate=400000" "$MARK_END" | put_file "$config" "$mode"
}

strip_block() {
    sed "/^${MARK_BEGIN//\//\\/}\$/,/^${MARK_END//\//\\/}\$/d"
}

udev_rule() {
    put_file /etc/udev/rules.d/99-companion-dice-tray.rules 0644 <<EOF
# Courtside Companion: the serial dice tray is /dev/dice-tray whichever ttyUSB/ttyACM number it gets.
# Installed by scripts/install-pi.sh --tray-id '$TRAY_ID': the tray's /dev/serial/by-id name,
# which 60-serial.rules builds as usb-\$env{ID_SERIAL}-if\$env{ID_USB_INTERFACE_NUM} (this file runs after it).
# TAG systemd: the tray shows up as dev-dice\\x2dtray.device.
SUBSYSTEM=="tty", ENV{ID_BUS}=="usb", ENV{ID_SERIAL}=="$TRAY_ID_SERIAL", ENV{ID_USB_INTERFACE_NUM}=="$TRAY_ID_IF", SYMLINK+="dice-tray", GROUP="dialout", MODE="0660", TAG+="systemd"
EOF
}

usb_stick_rule() {
    # No desktop automounter on the appliance: this rule mounts a plugged stick where the service (as
    # `companion`, writing only what ReadWritePaths= opens) can save exports. systemd-mount asks PID 1
    # for a transient automount: mounted on first access, unmounted 2 s after the last (so a stick
    # pulled after "Saved" is clean), bound to the stick (pulled: gone). --owner adds the uid= and gid=
    # of `companion`; FAT and exFAT have no owners of their own, and other file systems are left alone.
    put_file /etc/udev/rules.d/99-companion-usb-stick.rules 0644 <<EOF
# Courtside Companion: a USB stick (FAT or exFAT) is mounted at $MEDIA_DIR/<kernel name>, e.g.
# $MEDIA_DIR/sda1, owned by the service user so the table's "USB stick" export can write to it.
# Installed by scripts/install-pi.sh; see docs/deploy.md ("USB sticks").
ACTION=="add", SUBSYSTEM=="block", ENV{ID_BUS}=="usb", ENV{ID_FS_USAGE}=="filesystem", ENV{ID_FS_TYPE}=="vfat|exfat", RUN{program}+="/usr/bin/systemd-mount --no-block --collect --automount=yes --bind-device --timeout-idle-sec=2s --owner=$SERVICE_USER --options=fmask=0117,dmask=0007,noexec,nosuid,nodev \$devnode $MEDIA_DIR/%k"
EOF
    # The mount points' parent exists from early boot, before the service starts (its ReadWritePaths=).
    put_file /etc/tmpfiles.d/companion-media.conf 0644 <<EOF
# Courtside Companion: where USB sticks are mounted (99-companion-usb-stick.rules).
d $MEDIA_DIR 0755 root root -
EOF
}

pam_service() {
    put_file /etc/pam.d/companion-kiosk 0644 <<'EOF'
# Courtside Companion kiosk (PAMName= in companion-kiosk.service): a logind session on tty1 for the
# companion-kiosk user, so it gets the display and touchscreen, and XDG_RUNTIME_DIR for cage.
# systemd opens the session itself; nobody types a password here.
account  required pam_unix.so
session  required pam_loginuid.so
session  required pam_unix.so
session  required pam_systemd.so
EOF
}

config_file() {
    local example="$SOURCE/config.example.toml"
    if [[ -e "$ROOT/etc/companion/config.toml" ]]; then
        return 0  # the table's own settings: never overwritten
    fi
    if [[ ! -f "$example" ]]; then
        say "warning: $example not found; write /etc/companion/config.toml by hand"
        return 0
    fi
    put_file /etc/companion/config.toml 0644 <"$example"
}

systemd_units() {
    local display="$1" unit
    for unit in "${UNITS[@]}"; do
        put_file "/etc/systemd/system/$unit" 0644 <"$SOURCE/systemd/$unit"
    done
    if [[ "$display" == cage ]]; then
        put_file /etc/systemd/system/companion-kiosk.service.d/cage.conf 0644 \
            <"$SOURCE/systemd/companion-kiosk.service.d/cage.conf"
    else
        remove_path /etc/systemd/system/companion-kiosk.service.d/cage.conf
        remove_path /etc/systemd/system/companion-kiosk.service.d
    fi
}

# In a chroot or an image being built there is no systemd or udevd to reload, start or stop (systemctl
# fails "not booted with systemd"); enable and disable still work offline, the rest happens at boot.
systemd_absent() {
    if [[ -n "$ROOT" || $COMMANDS_RUN -eq 0 || -d /run/systemd/system ]]; then return 1; fi
    say "systemd is not running here (a chroot or an image): no reload, start or stop"
}

activate() {
    local before="$1" unit
    # Reload only when a file changed: a no-op second run should not poke the running system.
    if [[ $CHANGES -ne $before || -n "$ROOT" ]] && ! systemd_absent; then
        run "reload systemd" systemctl daemon-reload
        run "reload udev rules" udevadm control --reload
        run "re-apply udev rules to serial ports" udevadm trigger --subsystem-match=tty
        run "create the USB stick mount folder" systemd-tmpfiles --create /etc/tmpfiles.d/companion-media.conf
        # An update: running units pick up the new code and units now; stopped ones stay stopped.
        run "restart what is running" systemctl try-restart "${ENABLE[@]}"
    fi
    for unit in "${ENABLE[@]}"; do
        if [[ -n "$ROOT" ]] || ! systemctl is-enabled --quiet "$unit" 2>/dev/null; then
            run "enable $unit" systemctl enable "$unit"
        fi
    done
    # A desktop image would hand the screen to its own compositor; the kiosk needs the console.
    if [[ -z "$ROOT" ]] && [[ "$(systemctl get-default 2>/dev/null)" == graphical.target ]] \
        && command -v raspi-config >/dev/null; then
        run "boot to the console instead of the desktop" raspi-config nonint do_boot_behaviour B1
    fi
}

install_all() {
    local display before
    display="$(choose_display)"
    say "Courtside Companion: installing from $SOURCE${ROOT:+ into $ROOT}$([[ $DRY_RUN -eq 1 ]] && echo ' (dry run)')"
    say "board: $(pi_model); kiosk display: $display"
    apt_packages "$display"
    users_and_groups
    before=$CHANGES
    copy_repo
    python_venv
    buses
    udev_rule
    usb_stick_rule
    pam_service
    config_file
    systemd_units "$display"
    activate "$before"
}

# ---------------------------------------------------------------------------------------------------
# Uninstall: only what install_all put there.

uninstall_all() {
    local unit rel config manifest="/opt/companion/.install-manifest"
    say "Courtside Companion: uninstalling${ROOT:+ from $ROOT}$([[ $DRY_RUN -eq 1 ]] && echo ' (dry run)')"
    for unit in "${ENABLE[@]}"; do
        if [[ -n "$ROOT" ]] || systemctl is-enabled --quiet "$unit" 2>/dev/null \
            || systemctl is-active --quiet "$unit" 2>/dev/null; then
            if systemd_absent; then run "disable $unit" systemctl disable "$unit"
            else run "stop and disable $unit" systemctl disable --now "$unit"; fi
        fi
    done
    for unit in "${UNITS[@]}"; do remove_path "/etc/systemd/system/$unit"; done
    remove_path /etc/systemd/system/companion-kiosk.service.d/cage.conf
    remove_path /etc/systemd/system/companion-kiosk.service.d
    remove_path /etc/udev/rules.d/99-companion-dice-tray.rules
    remove_path /etc/udev/rules.d/99-companion-usb-stick.rules
    remove_path /etc/tmpfiles.d/companion-media.conf
    remove_path /etc/pam.d/companion-kiosk

    # The config goes only if nobody edited it; edited settings are the table owner's.
    if [[ -f "$ROOT/etc/companion/config.toml" ]]; then
        if [[ -f "$ROOT/opt/companion/config.example.toml" ]] \
            && cmp -s "$ROOT/etc/companion/config.toml" "$ROOT/opt/companion/config.example.toml"; then
            remove_path /etc/companion/config.toml
        else
            say "kept $ROOT/etc/companion/config.toml (edited since install)"
        fi
    fi
    remove_path /etc/companion

    config="$(boot_config)"
    if [[ -n "$config" ]] && grep -qxF "$MARK_BEGIN" "$ROOT$config"; then
        local mode body
        mode="$(stat -c %a "$ROOT$config")"
        body="$(strip_block <"$ROOT$config")"
        printf '%s\n' "$body" | put_file "$config" "$mode"
    fi

    if [[ -f "$ROOT$manifest" ]]; then
        # The venv, and what pip's in-tree build left beside the copy (build/, *.egg-info).
        local litter
        for litter in "$ROOT/opt/companion/.venv" "$ROOT/opt/companion/build" "$ROOT"/opt/companion/*.egg-info; do
            [[ -d "$litter" ]] || continue
            [[ $DRY_RUN -eq 1 ]] || rm -rf "$litter"
            changed "remove $litter"
        done
        while IFS= read -r rel; do
            [[ -n "$rel" ]] && remove_path "/opt/companion/$rel"
        done <"$ROOT$manifest"
        remove_path "$manifest"
        if [[ $DRY_RUN -eq 0 && -d "$ROOT/opt/companion" ]]; then
            # Folders the copy created and that are now empty; anything else in them stays.
            find "$ROOT/opt/companion" -mindepth 1 -depth -type d -empty -delete
            rmdir "$ROOT/opt/companion" 2>/dev/null || say "kept $ROOT/opt/companion (holds files we did not put there)"
        fi
    fi

    if [[ -n "$ROOT" ]] || has_user "$KIOSK_USER"; then run "remove the kiosk user" userdel "$KIOSK_USER"; fi
    if [[ -n "$ROOT" ]] || has_user "$SERVICE_USER"; then run "remove the service user" userdel "$SERVICE_USER"; fi
    if [[ $CHANGES -gt 0 ]] && ! systemd_absent; then
        run "reload systemd" systemctl daemon-reload
        run "reload udev rules" udevadm control --reload
    fi
    say "kept $ROOT/var/lib/companion (your games and backups); delete it by hand if you mean to"
    say "kept apt packages and the I2C/SPI settings (other things may use them)"
}

if [[ $UNINSTALL -eq 1 ]]; then uninstall_all; else install_all; fi

if [[ $CHANGES -eq 0 ]]; then
    say "No changes: everything is already as this script would make it."
elif [[ $DRY_RUN -eq 1 ]]; then
    say "Dry run: $CHANGES change(s) would be made; nothing was touched."
else
    say "Done: $CHANGES change(s)."
fi
