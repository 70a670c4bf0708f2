#!/bin/sh
# The whole test suite (.venv is made first when missing, by scripts/bootstrap.sh), in stages:
#   1. ruff (lint)
#   2. mypy --strict on companion/ (the core)
#   3. mypy --strict on vision/ (picamera2 and libcamera, only on a Pi, are left unchecked:
#      setup.cfg)
#   4. pytest with the latest packages (.venv), the Kivy tests under Xvfb, started here when
#      there is no display
#   5. the Pi floor: the non-UI tests in .venv-pi, pinned to what Raspberry Pi OS Bookworm has
#      (systemd/pi-floor.txt: numpy 1.24, OpenCV 4.10). PI_FLOOR=0 skips it.
# Extra arguments go to both pytest runs.
set -eu
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
PI_VENV="${PI_VENV:-.venv-pi}"
VENV="$VENV" ./scripts/bootstrap.sh --if-needed
export KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1 GPIOZERO_PIN_FACTORY=mock GPIOZERO_MOCK_PIN_CLASS=mockpwmpin
KIVY_HOME="$(mktemp -d)"
export KIVY_HOME
mkdir -p artifacts

echo "== ruff"
"$VENV/bin/ruff" check .
echo "== mypy --strict companion/"
"$VENV/bin/mypy" --strict companion
echo "== mypy --strict vision/"
"$VENV/bin/mypy" --strict vision

echo "== pytest (latest packages)"
if [ -z "${DISPLAY:-}" ]; then
    xvfb-run -a -s "-screen 0 1280x1280x24" "$VENV/bin/python" -m pytest -n 2 "$@"
else
    "$VENV/bin/python" -m pytest -n 2 "$@"
fi

if [ "${PI_FLOOR:-1}" = "1" ]; then
    echo "== pytest (Pi floor: $(grep -v '^#' systemd/pi-floor.txt | tr '\n' ' '))"
    if [ ! -f "$PI_VENV/.installed" ] || [ systemd/pi-floor.txt -nt "$PI_VENV/.installed" ]; then
        python3 -m venv "$PI_VENV"
        "$PI_VENV/bin/python" -m pip install -q --upgrade pip
        "$PI_VENV/bin/python" -m pip install -q -r systemd/pi-floor.txt pytest pytest-xdist hypothesis
        "$PI_VENV/bin/python" -m pip install -q --no-deps -e .
        touch "$PI_VENV/.installed"
    fi
    "$PI_VENV/bin/python" - <<'PY'
import sys, cv2, numpy
assert sys.version_info[:2] == (3, 11), sys.version
print(f"Pi floor: Python {sys.version.split()[0]}, numpy {numpy.__version__}, OpenCV {cv2.__version__}")
PY
    "$PI_VENV/bin/python" -m pytest -n 2 -m "not ui" --ignore=tests/ui "$@"
fi
