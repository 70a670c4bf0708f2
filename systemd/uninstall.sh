#!/bin/sh
# Remove the Tabletop Companion kiosk. Game data in /var/lib/tabletop-companion is kept unless
# --purge is given. ROOT and RECORD work as in install.sh.
set -eu
ROOT="${ROOT:-}"
RECORD="${RECORD:-}"
APP_USER="${APP_USER:-tabletop}"
UNIT="tabletop-companion.service"
PURGE=0
[ "${1:-}" = "--purge" ] && PURGE=1

run() {
    if [ -n "$RECORD" ]; then echo "$*" >> "$RECORD"; else "$@"; fi
}

if [ -n "$ROOT" ] && [ -z "$RECORD" ]; then
    echo "uninstall: ROOT= is for rehearsals and needs RECORD= too" >&2
    exit 2
fi
if [ -z "$RECORD" ] && [ "$(id -u)" -ne 0 ]; then
    echo "uninstall: needs root; run it as: sudo $0" >&2
    exit 1
fi

run systemctl disable --now "$UNIT" || true
rm -f "$ROOT/etc/systemd/system/$UNIT"
run systemctl daemon-reload
AUTOLOGIN="/etc/systemd/system/getty@tty1.service.d/autologin.conf"
if [ -f "$ROOT$AUTOLOGIN.disabled" ]; then
    mv "$ROOT$AUTOLOGIN.disabled" "$ROOT$AUTOLOGIN"
fi
rm -rf "$ROOT/opt/tabletop-companion"
if [ "$PURGE" -eq 1 ]; then
    echo "uninstall: removing game data and config (--purge)"
    rm -rf "$ROOT/var/lib/tabletop-companion" "$ROOT/etc/tabletop-companion"
    if grep -q "^$APP_USER:" "$ROOT/etc/passwd" 2>/dev/null; then run userdel "$APP_USER"; fi
else
    echo "uninstall: kept game data in /var/lib/tabletop-companion and config in /etc/tabletop-companion (--purge removes them)"
fi
