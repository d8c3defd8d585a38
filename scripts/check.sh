#!/usr/bin/env bash
# The whole check, as CI runs it (the README's second command ends here):
#   1. Debian packages the tests need (headless Chromium for the docs browser test), installed when missing;
#   2. ruff; 3. lint-imports: the layer contracts of pyproject.toml ([tool.importlinter]);
#   4. pylint's duplicate-code check (R0801) against .ci/duplicate-code-baseline.txt, which can only shrink;
#   5. pytest on both cores (pytest-xdist, -n 2 unless PYTEST_WORKERS says otherwise): unit tests, doctests,
#      hypothesis properties, the docs build and browser test, the notebook, and the benchmarks at smoke size
#      (exactness only, never times).  Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
[ -x "$PY" ] || PY=python3
if [ -f scripts/install-test-deps.sh ]; then
    bash scripts/install-test-deps.sh
fi
"$PY" -m ruff check exactlin tests benchmarks docs/hooks.py docs/griffe_exactlin.py
# the layers: imports point down only, and the verifiers import no producer (import-linter's own entry point)
LINT_IMPORTS=.venv/bin/lint-imports
[ -x "$LINT_IMPORTS" ] || LINT_IMPORTS=lint-imports
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" "$LINT_IMPORTS"
# code written twice: any block of 6 similar lines beyond the baseline fails, and so does a baseline line whose
# duplicate is gone
"$PY" .ci/duplicate_code.py exactlin
# both cores, a test file per worker at a time (the docs site is built once, tests/docs/docs_site.py); the tests are
# independent of order and write only to their own temporary directories
"$PY" -m pytest -n "${PYTEST_WORKERS:-2}" --dist loadfile "$@"
