#!/bin/sh
# Make .venv ready on a fresh Debian or Raspberry Pi OS machine: the few Debian packages the
# app and the tests need (Python venv, Xvfb, Mesa's GL/EGL, mtdev, systemd-analyze), then the
# project itself.
# --if-needed: do nothing when .venv was made after setup.cfg and pyproject.toml last changed.
set -eu
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
if [ "${1:-}" = "--if-needed" ] && [ -f "$VENV/.installed" ] \
    && [ ! setup.cfg -nt "$VENV/.installed" ] && [ ! pyproject.toml -nt "$VENV/.installed" ]; then
    exit 0
fi

need=""
python3 -c 'import venv, ensurepip' 2>/dev/null || need="$need python3-venv"
command -v Xvfb >/dev/null 2>&1 || need="$need xvfb xauth"
# the service unit's tests run systemd-analyze (a desktop has it; a container may not)
command -v systemd-analyze >/dev/null 2>&1 || need="$need systemd"
for lib in libGL.so.1 libEGL.so.1 libmtdev.so.1; do
    ldconfig -p 2>/dev/null | grep -q "$lib" || case "$lib" in
        libGL.so.1) need="$need libgl1 libgl1-mesa-dri" ;;
        libEGL.so.1) need="$need libegl1 libgles2" ;;
        libmtdev.so.1) need="$need libmtdev1" ;;
    esac
done
if [ -n "$need" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "bootstrap: installing Debian packages:$need"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need
fi

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q -e '.[test]'
touch "$VENV/.installed"
