#!/usr/bin/env bash
# The whole check, as CI runs it: lint, tests (including doctests), docs build and browser test when available,
# benchmarks at smoke size.  Called by the README's second command inside the venv.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
[ -x "$PY" ] || PY=python3
"$PY" -m ruff check exactlin tests benchmarks
"$PY" -m pytest "$@"
