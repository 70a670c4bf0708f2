#!/bin/sh
# Install Tabletop Companion as a kiosk on Raspberry Pi OS Bookworm (Lite or desktop, Pi 4/5).
#
#   sudo ./systemd/install.sh            install or update (safe to run again)
#
# For tests and for the careful: ROOT=/some/dir puts every file under that directory, and
# RECORD=FILE writes the system commands (apt-get, useradd, pip, systemctl...) to FILE instead
# of running them. Nothing here edits /boot/firmware/config.txt: the lines a WS2812 strip needs
# are printed, not written.
set -eu

ROOT="${ROOT:-}"
RECORD="${RECORD:-}"
SRC="$(cd "$(dirname "$0")/.." && pwd)"
APP_USER="${APP_USER:-tabletop}"
PREFIX="/opt/tabletop-companion"
VENV="$PREFIX/venv"
CONF_DIR="/etc/tabletop-companion"
STATE_DIR="/var/lib/tabletop-companion"
UNIT="tabletop-companion.service"
GROUPS_WANTED="video render input gpio spi"

say() { echo "install: $*"; }

run() {
    # Run a system command, or only record it when RECORD is set.
    if [ -n "$RECORD" ]; then
        echo "$*" >> "$RECORD"
    else
        "$@"
    fi
}

if [ -n "$ROOT" ] && [ -z "$RECORD" ]; then
    echo "install: ROOT= is for rehearsals and needs RECORD= too" >&2
    exit 2
fi
if [ -z "$RECORD" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install: needs root; run it as: sudo $0" >&2
    exit 1
fi

# 1. Debian packages. picamera2 comes from apt (built against the system numpy), never pip.
PACKAGES="python3-venv python3-picamera2 libmtdev1 libgl1-mesa-dri libegl1 libgles2 libgbm1 \
libdrm2 python3-lgpio liblgpio1"
missing=""
for p in $PACKAGES; do
    if [ -n "$RECORD" ] || ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    say "installing Debian packages:$missing"
    run apt-get update
    # shellcheck disable=SC2086
    run apt-get install -y --no-install-recommends $missing
fi

# 2. The service user, in the groups that reach the camera, DRM, input, GPIO and SPI.
if ! grep -q "^$APP_USER:" "$ROOT/etc/passwd" 2>/dev/null; then
    say "creating the system user $APP_USER"
    run useradd --system --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin "$APP_USER"
fi
for g in $GROUPS_WANTED; do
    if grep -q "^$g:" "$ROOT/etc/group" 2>/dev/null || [ -n "$RECORD" ]; then
        if ! grep -q "^$g:.*[:,]$APP_USER\(,\|$\)" "$ROOT/etc/group" 2>/dev/null; then
            run usermod -a -G "$g" "$APP_USER"
        fi
    else
        say "warning: group $g does not exist on this system (not a Raspberry Pi OS image?)"
    fi
done

# 3. The code: a copy of this checkout and a venv that sees apt's picamera2 and numpy.
mkdir -p "$ROOT$PREFIX"
run rm -rf "$PREFIX/src"
run mkdir -p "$PREFIX/src"
run sh -c "tar -C '$SRC' --exclude=./.git --exclude=./.venv --exclude=./.venv-pi -cf - . | tar -C '$PREFIX/src' -xf -"
if [ ! -x "$ROOT$VENV/bin/python" ]; then
    run python3 -m venv --system-site-packages "$VENV"
fi
# Pin what a Bookworm Pi can run: OpenCV 4.10 (4.12+ needs numpy 2) and the system numpy.
CONSTRAINTS="$ROOT$PREFIX/pi-constraints.txt"
cp "$SRC/systemd/pi-constraints.txt" "$CONSTRAINTS"
NUMPY_VERSION="$(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
if [ -n "$NUMPY_VERSION" ]; then
    echo "numpy==$NUMPY_VERSION" >> "$CONSTRAINTS"
fi
run "$VENV/bin/pip" install --upgrade-strategy only-if-needed -c "$PREFIX/pi-constraints.txt" \
    "$PREFIX/src[pi]"

# 4. Config (kept if present) and state.
mkdir -p "$ROOT$CONF_DIR" "$ROOT$STATE_DIR"
if [ ! -f "$ROOT$CONF_DIR/config.toml" ]; then
    say "writing $CONF_DIR/config.toml (edit it, then: sudo systemctl restart tabletop-companion)"
    {
        echo "# Tabletop Companion: overrides of $PREFIX/src/config/default.toml."
        echo "# Every key and its range is documented there and in docs/config.md."
        echo "[app]"
        echo "data_dir = \"$STATE_DIR\""
        echo "demo = \"off\""
    } > "$ROOT$CONF_DIR/config.toml"
fi
run chown -R "$APP_USER:$APP_USER" "$STATE_DIR"

# 5. The unit. The kiosk owns tty1, so the console autologin there goes.
mkdir -p "$ROOT/etc/systemd/system"
cp "$SRC/systemd/$UNIT" "$ROOT/etc/systemd/system/$UNIT"
AUTOLOGIN="/etc/systemd/system/getty@tty1.service.d/autologin.conf"
if [ -f "$ROOT$AUTOLOGIN" ]; then
    say "turning off the console autologin on tty1 (moved to $AUTOLOGIN.disabled)"
    mv "$ROOT$AUTOLOGIN" "$ROOT$AUTOLOGIN.disabled"
fi
run systemctl daemon-reload
run systemctl enable "$UNIT"

# 6. What we do not touch.
if grep -q '^light_bar *= *"ws2812"' "$ROOT$CONF_DIR/config.toml" 2>/dev/null; then
    say "a WS2812 strip is configured: add these lines to /boot/firmware/config.txt yourself,"
    say "then reboot:   dtparam=spi=on   (and on a Pi 4 also: core_freq=500, core_freq_min=500)"
fi
say "done. Start it now with: sudo systemctl start $UNIT"
