#!/bin/sh
# The whole test suite: lint, strict typing of the core, then pytest (Kivy tests under Xvfb,
# started here when there is no display). Extra arguments go to pytest.
set -eu
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
export KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1 GPIOZERO_PIN_FACTORY=mock
KIVY_HOME="$(mktemp -d)"
export KIVY_HOME

echo "== ruff"
"$VENV/bin/ruff" check .
echo "== mypy --strict companion/"
"$VENV/bin/mypy" --strict companion
echo "== pytest"
if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1280x1280x24" "$VENV/bin/python" -m pytest "$@"
fi
exec "$VENV/bin/python" -m pytest "$@"
