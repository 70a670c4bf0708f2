#!/bin/sh
# The app: .venv is made first when missing (scripts/bootstrap.sh). On a desktop this is the
# demo, with rendered camera frames and simulated GPIO; on a Raspberry Pi, the real table.
# Extra arguments go to `companion app`.
set -eu
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
VENV="$VENV" ./scripts/bootstrap.sh --if-needed
exec "$VENV/bin/companion" app "$@"
